//! The room protocol, driven over real WebSockets on 127.0.0.1 by a client written from
//! `docs/protocol.md` and the issue: joining, host rules, a full game, spectators,
//! chat, bad input of every kind, reconnecting with a token, and hidden information.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::{Server, http};

fn types(packets: &[Value]) -> Vec<String> {
    packets.iter().map(|p| p["type"].as_str().unwrap_or("?").to_string()).collect()
}

#[tokio::test]
async fn http_endpoints() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let (st, v) = http(&s.addr, "GET", "/api/health", None).await;
    assert_eq!(
        (st, v),
        (200, json!({"status": "ok", "rooms": 0, "dormantRooms": 0, "node": "local", "state": "serving"}))
    );
    let id = s.room(json!({"game": "buckshot", "seed": 7})).await;
    // A lone server is node `local`, reached at no path prefix.
    let (st, v) = http(&s.addr, "GET", &format!("/api/rooms/{id}"), None).await;
    assert_eq!(st, 200);
    assert_eq!(
        (v["id"].as_str(), v["node"].as_str(), v["path"].as_str()),
        (Some(id.as_str()), Some("local"), Some(""))
    );
    let (st, v) = http(&s.addr, "GET", "/api/rooms", None).await;
    assert_eq!(st, 200);
    assert_eq!(v[0]["id"], id.as_str());
    assert_eq!(v[0]["game"], "buckshot");
    assert_eq!(v[0]["state"], "lobby");
    let (st, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "chess"}))).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("chess"));
    let (st, _) = http(&s.addr, "POST", "/api/rooms", Some(json!({"seed": 1}))).await;
    assert_eq!(st, 400);
    let err = connect_async(format!("ws://{}/api/rooms/nope/ws", s.addr)).await.unwrap_err();
    assert!(err.to_string().contains("404"), "{err}");
    s.stop().await;
}

/// `GET /api/games` lists every game with what the lobby shows of it, and each listed name
/// can be used to create a room.
#[tokio::test]
async fn games_endpoint_lists_every_game() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let (st, v) = http(&s.addr, "GET", "/api/games", None).await;
    assert_eq!(st, 200);
    let games = v.as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    for name in ["buckshot", "ivanhoe", "sorcery"] {
        assert!(names.contains(&name), "{names:?}");
    }
    let ivanhoe = games.iter().find(|g| g["name"] == "ivanhoe").unwrap();
    assert_eq!(ivanhoe["title"], "Ivanhoe");
    assert_eq!((ivanhoe["minPlayers"].as_u64(), ivanhoe["maxPlayers"].as_u64()), (Some(2), Some(5)));
    for g in games {
        assert!(!g["description"].as_str().unwrap().is_empty(), "{g}");
        assert!(!g["bots"].as_array().unwrap().is_empty(), "{g}");
        // Each level's strength from the committed ladder (docs/bot-ladder.md), for the host's
        // bot list.
        let ratings = g["ratings"].as_array().unwrap();
        let hard = ratings.iter().find(|r| r["level"] == "hard").unwrap_or_else(|| panic!("no rating for hard: {g}"));
        assert!(
            hard["rating"].is_string() && hard["interval"].is_string() && hard["games"].as_u64() > Some(0),
            "{hard}"
        );
        let min = g["minPlayers"].as_u64().unwrap();
        assert!(min <= g["defaultPlayers"].as_u64().unwrap() && min <= g["maxPlayers"].as_u64().unwrap(), "{g}");
        let (st, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": g["name"]}))).await;
        assert_eq!(st, 201, "{g}: {v}");
    }
    let (_, v) = http(&s.addr, "GET", "/api/rooms", None).await;
    assert_eq!(v.as_array().unwrap().len(), games.len());
    s.stop().await;
}

#[tokio::test]
async fn lobby_host_rules_and_a_full_game() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 11, "botDelayMs": 10})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    let mut c = s.client(&room).await;

    // No player until JoinGame; the first to join is host.
    let data = a.sync().await;
    assert_eq!(data["you"], Value::Null);
    a.join("alice").await;
    assert_eq!(a.expect("PlayerJoined").await["player"]["username"], "alice");
    assert_eq!(a.expect("HostSet").await["username"], "alice");
    // Username rules.
    for (name, why) in [("ALICE", "taken"), ("", "character"), ("bad name", "letters"), ("x".repeat(17).as_str(), "16")]
    {
        b.send(json!({"type": "JoinGame", "username": name})).await;
        let r = b.expect("PlayerJoinRejected").await;
        assert!(r["reason"].as_str().unwrap().contains(why), "{name}: {r}");
    }
    b.join("bob").await;
    c.join("carol").await;
    // Non-hosts cannot start: refused with a code, nothing starts.
    b.send(json!({"type": "StartGame"})).await;
    let got = b.drain(150).await;
    assert!(got.iter().all(|p| p["type"] != "GameStarted"));
    let codes: Vec<_> = got.iter().filter(|p| p["type"] == "ActionFailed").map(|p| p["code"].clone()).collect();
    assert_eq!(codes, [json!("not_host")]);
    // Hand the host over and back.
    a.send(json!({"type": "SetHost", "username": "bob"})).await;
    assert_eq!(c.expect("HostSet").await["username"], "bob");
    b.send(json!({"type": "SetHost", "username": "alice"})).await;
    assert_eq!(c.expect("HostSet").await["username"], "alice");

    let data = a.sync().await;
    assert_eq!(data["players"].as_array().unwrap().len(), 3);
    assert_eq!(data["players"][0]["lives"], 5);
    assert_eq!(data["currentTurn"], Value::Null);
    assert_eq!(data["host"], "alice");
    assert_eq!(data["you"], "alice");

    a.send(json!({"type": "StartGame"})).await;
    for cl in [&mut a, &mut b, &mut c] {
        cl.expect("GameStarted").await;
    }

    // A spectator joins mid-game.
    let mut d = s.client(&room).await;
    d.join("dave").await;
    let pj = d.expect("PlayerJoined").await;
    assert_eq!(pj["player"]["isSpectator"], true);

    // Play: every player shoots themself on their turn; the game must end with a winner.
    let mut clients = vec![("alice", a), ("bob", b), ("carol", c)];
    let mut winner = None;
    let mut spectator_tried = false;
    'game: for _ in 0..2_000 {
        let data = clients[0].1.sync().await;
        let Some(turn) = data["currentTurn"].as_str().map(str::to_owned) else {
            break;
        };
        let text = data.to_string();
        assert!(!text.contains("\"chamber\"") && !text.contains("\"shells\""), "the chamber order must never be sent");
        if !spectator_tried {
            // A spectator shooting is refused (to them alone), and nothing is fired.
            d.send(json!({"type": "ShootPlayer", "username": "dave"})).await;
            let got = d.drain(100).await;
            assert!(got.iter().all(|p| p["type"] != "ShootPlayer"));
            let codes: Vec<_> = got.iter().filter(|p| p["type"] == "ActionFailed").map(|p| p["code"].clone()).collect();
            assert_eq!(codes, [json!("not_playing")]);
            spectator_tried = true;
        }
        let cl = &mut clients.iter_mut().find(|(n, _)| *n == turn).unwrap().1;
        cl.drain(20).await;
        cl.send(json!({"type": "ShootPlayer", "username": turn})).await;
        let shot = cl.expect("ShootPlayer").await;
        assert_eq!(shot["by"], turn.as_str());
        assert!(shot["shell"] == "live" || shot["shell"] == "blank");
        for p in cl.drain(30).await {
            if p["type"] == "GameEnded" {
                winner = p["winner"].as_str().map(str::to_owned);
                break 'game;
            }
        }
    }
    let winner = winner
        .or_else(|| {
            clients
                .iter()
                .flat_map(|(_, c)| &c.seen)
                .find(|p| p["type"] == "GameEnded")
                .map(|p| p["winner"].as_str().unwrap().to_owned())
        })
        .expect("the game ends");
    for (_, cl) in &mut clients {
        let data = cl.sync().await;
        assert_eq!(data["gameStarted"], false, "back to the lobby");
    }
    // The spectator saw the end too, and is a player again for the next game.
    d.drain(100).await;
    let ended = d.seen.iter().any(|p| p["type"] == "GameEnded" && p["winner"] == winner.as_str());
    assert!(ended);
    let data = d.sync().await;
    let dave = data["players"].as_array().unwrap().iter().find(|p| p["username"] == "dave").unwrap().clone();
    assert_eq!(dave["isSpectator"], false);
    s.stop().await;
}

#[tokio::test]
async fn chat_is_stamped_capped_and_broadcast() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    a.join("alice").await;
    b.join("bob").await;
    // Not joined: ignored.
    let mut anon = s.client(&room).await;
    anon.send(json!({"type": "SendNewChatMessage", "message": "hi"})).await;
    a.send(json!({"type": "SendNewChatMessage", "message": "<b>hello</b>"})).await;
    let m = b.expect("NewChatMessageSent").await;
    assert_eq!(m["message"], "<b>hello</b>", "text is passed through as text, never interpreted");
    assert_eq!(m["player"]["username"], "alice");
    assert!(m["timestamp"].as_u64().unwrap() > 1_700_000_000_000);
    assert!(anon.drain(100).await.iter().filter(|p| p["type"] == "NewChatMessageSent").count() == 1);
    for bad in [String::new(), "   ".into(), "x".repeat(501)] {
        a.send(json!({"type": "SendNewChatMessage", "message": bad})).await;
        assert_eq!(a.expect("ActionFailed").await["code"], "bad_message");
    }
    a.send(json!({"type": "SendNewChatMessage", "message": "x".repeat(500)})).await;
    b.expect("NewChatMessageSent").await;
    assert_eq!(b.sync().await["chat"].as_array().unwrap().len(), 2);
    s.stop().await;
}

#[tokio::test]
async fn bad_input_never_disturbs_anyone() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 3})).await;
    let other_room = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    let mut x = s.client(&other_room).await;
    a.join("alice").await;
    b.join("bob").await;
    x.join("xena").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    b.drain(100).await;
    x.drain(50).await;
    let mut evil = s.client(&room).await;
    evil.join("eve").await;
    evil.drain(100).await;
    for (frame, code) in [
        ("not json", "bad_packet"),
        ("{}", "bad_packet"),
        (r#"{"type": 5}"#, "bad_packet"),
        (r#"{"type": "Explode"}"#, "bad_packet"),
        (r#"{"type": "JoinGame", "username": 42}"#, "bad_packet"),
        (r#"[1,2,3]"#, "bad_packet"),
    ] {
        evil.send_raw(Message::Text(frame.into())).await;
        let r = evil.expect("ActionFailed").await;
        assert_eq!(r["code"], code, "{frame}");
    }
    // A spectator's action packet is unauthorized: refused as such (before it is even read),
    // to the sender alone.
    evil.send(json!({"type": "ShootPlayer"})).await;
    let got = evil.drain(100).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["code"], "not_playing");
    evil.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(evil.expect("ActionFailed").await["code"], "binary_frame");
    // Allowed but failed: to the sender only.
    let data = a.sync().await;
    let turn = data["currentTurn"].as_str().unwrap().to_string();
    let (mover, other) = if turn == "alice" { (&mut a, &mut b) } else { (&mut b, &mut a) };
    mover.send(json!({"type": "ShootPlayer"})).await;
    assert_eq!(mover.expect("ActionFailed").await["code"], "bad_packet");
    mover.send(json!({"type": "ShootPlayer", "username": "nobody"})).await;
    assert_eq!(mover.expect("ActionFailed").await["code"], "unknown_player");
    mover.send(json!({"type": "UseSkipItem", "target": turn})).await;
    let f = mover.expect("ActionFailed").await;
    assert!(f["code"] == "no_such_item" || f["code"] == "cannot_target_self", "{f}");
    assert!(other.drain(100).await.iter().all(|p| p["type"] != "ActionFailed"));
    // Out of turn: refused with a code, to the sender alone; nothing is fired.
    other.send(json!({"type": "ShootPlayer", "username": turn})).await;
    let got = other.drain(100).await;
    assert!(got.iter().all(|p| p["type"] != "ShootPlayer"));
    let codes: Vec<_> = got.iter().filter(|p| p["type"] == "ActionFailed").map(|p| p["code"].clone()).collect();
    assert_eq!(codes, [json!("not_your_turn")]);
    assert!(mover.drain(100).await.iter().all(|p| p["type"] != "ActionFailed"));
    // A frame over 64 KiB closes only that connection.
    let big = json!({"type": "SendNewChatMessage", "message": "y".repeat(70_000)}).to_string();
    let _ = evil.ws.send(Message::Text(big.into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            match evil.ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return true,
                _ => {}
            }
        }
    })
    .await
    .unwrap_or(false);
    assert!(closed, "an oversized frame closes that connection");
    // Everyone else is fine: the game goes on, the other room answers.
    let data = a.sync().await;
    assert_eq!(data["gameStarted"], true);
    assert_eq!(x.sync().await["you"], "xena");
    // Flooding is rate limited for the flooder only.
    let mut flood = s.client(&other_room).await;
    for _ in 0..120 {
        flood.send(json!({"type": "GameDataRequest"})).await;
    }
    let got = flood.drain(300).await;
    assert!(types(&got).iter().any(|t| t == "ActionFailed"), "rate limit reported");
    let syncs = types(&got).iter().filter(|t| *t == "GameDataSync").count();
    assert!((40..120).contains(&syncs), "{syncs} of 120 answered");
    assert_eq!(x.sync().await["you"], "xena");
    s.stop().await;
}

#[tokio::test]
async fn reconnect_with_token_keeps_the_seat() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 5})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    let token = a.join("alice").await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    drop(a);
    // Knowing the username is not enough.
    let mut thief = s.client(&room).await;
    thief.send(json!({"type": "JoinGame", "username": "alice"})).await;
    thief.expect("PlayerJoinRejected").await;
    thief.send(json!({"type": "Reconnect", "token": "0123"})).await;
    thief.expect("PlayerJoinRejected").await;
    // Bob sees alice disconnected and, with alice gone, is the host now.
    let data = b.sync().await;
    let alice = data["players"].as_array().unwrap().iter().find(|p| p["username"] == "alice").unwrap().clone();
    assert_eq!(alice["connected"], false);
    assert_eq!(data["host"], "bob");
    let mut a2 = s.client(&room).await;
    a2.send(json!({"type": "Reconnect", "token": token})).await;
    assert_eq!(a2.expect("Joined").await["username"], "alice");
    let data = a2.expect("GameDataSync").await["gameData"].clone();
    assert_eq!(data["you"], "alice");
    assert_eq!(data["gameStarted"], true);
    s.stop().await;
}

/// Issue 46: after `Reconnect` a client got tables (`you: null`, no `legal`) before its
/// `Joined`: the room sent everything to a socket it had not heard from yet. Now a new socket
/// hears nothing until its first packet, so the answer to `Reconnect` comes first, then the
/// seat's own table.
#[tokio::test]
async fn the_first_packet_after_reconnect_is_its_answer() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 5})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    let token = a.join("alice").await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    // alice's new socket opens before her old one drops, and says nothing yet: her drop (a
    // table to everyone) and bob's chat line happen while her `Reconnect` is on its way.
    let mut a2 = s.client(&room).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(a);
    b.expect("GameDataSync").await;
    b.send(json!({"type": "SendNewChatMessage", "message": "where did alice go?"})).await;
    b.expect("NewChatMessageSent").await;
    a2.send(json!({"type": "Reconnect", "token": token})).await;
    let first = a2.next(5_000).await.expect("an answer to Reconnect");
    assert_eq!(first["type"], "Joined", "the first packet after Reconnect: {first}");
    assert_eq!(first["username"], "alice");
    let data = a2.expect("GameDataSync").await["gameData"].clone();
    assert_eq!(data["you"], "alice", "the first table is the seat's own");
    assert!(data["legal"].is_array());
    // A watcher's first packet is answered first too: a table of its own asking.
    let mut w = s.client(&room).await;
    b.send(json!({"type": "SendNewChatMessage", "message": "hello watcher"})).await;
    b.expect("NewChatMessageSent").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    w.send(json!({"type": "GameDataRequest"})).await;
    let first = w.next(5_000).await.expect("a table");
    assert_eq!(first["type"], "GameDataSync", "{first}");
    assert_eq!(first["gameData"]["you"], Value::Null);
    s.stop().await;
}

/// Issue 46, "Which match is this?" and "Was my move stored?": every table and `GameStarted`
/// carry the match's number in the room, `GameEnded` the recorded match's id and number, and
/// `GET /api/matches?room=ID` lists the room's matches newest first, paged. The mover of a
/// stored move hears `Acted {serial, index}` before anything else of it; nobody else does,
/// and a refused move gets none.
#[tokio::test]
async fn matches_are_numbered_listed_and_moves_acknowledged() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let (room, mut a, mut b) = s.started_pair(json!({"game": "sorcery", "seed": 3})).await;
    assert_eq!(a.seen.last().unwrap()["matchNumber"], 0, "GameStarted: {}", a.seen.last().unwrap());
    let t = a.sync().await;
    assert_eq!(t["matchNumber"], 0, "the first match's table");
    // The mover acts from its table: `Acted` first, with the serial it sent and the move's
    // place in the log.
    let mover = t["waitingOn"][0]["username"].as_str().unwrap().to_string();
    let (m, other) = if mover == "alice" { (&mut a, &mut b) } else { (&mut b, &mut a) };
    let t = m.sync().await;
    let serial = t["serial"].as_u64().unwrap();
    let action = t["legal"][0].clone();
    other.drain(50).await;
    m.send(json!({"type": "Act", "action": action, "serial": serial})).await;
    let first = m.next(5_000).await.expect("an answer");
    assert_eq!(first, json!({"type": "Acted", "serial": serial, "index": serial}), "the first answer to a move");
    // The same packet again is stale: refused, no `Acted`.
    m.drain(100).await;
    m.send(json!({"type": "Act", "action": action, "serial": serial})).await;
    let again = m.next(5_000).await.unwrap();
    assert_eq!((again["type"].as_str(), again["code"].as_str()), (Some("ActionFailed"), Some("stale_action")));
    let heard = m.drain(100).await;
    assert!(!types(&heard).contains(&"Acted".to_string()), "a refused move acknowledged: {heard:?}");
    let heard = other.drain(100).await;
    assert!(!types(&heard).contains(&"Acted".to_string()), "another seat told of the move as its own");
    // bob leaves: Sorcery concedes, the match ends and is recorded as number 0.
    b.send(json!({"type": "LeaveGame"})).await;
    let ended = a.expect("GameEnded").await;
    assert_eq!(ended["matchNumber"], 0, "{ended}");
    let first_id = ended["matchId"].as_i64().expect("the recorded match's id");
    let lobby = a.expect("GameDataSync").await["gameData"].clone();
    assert_eq!((lobby["matchNumber"].clone(), lobby["lastMatch"].clone()), (Value::Null, json!(first_id)));
    // A second match: number 1.
    let mut c = s.client(&room).await;
    c.join("carol").await;
    a.send(json!({"type": "StartGame"})).await;
    assert_eq!(a.expect("GameStarted").await["matchNumber"], 1);
    assert_eq!(c.sync().await["matchNumber"], 1);
    c.send(json!({"type": "LeaveGame"})).await;
    let ended = a.expect("GameEnded").await;
    assert_eq!(ended["matchNumber"], 1, "{ended}");
    let second_id = ended["matchId"].as_i64().unwrap();
    // The room's matches, newest first.
    let (st, list) = http(&s.addr, "GET", &format!("/api/matches?room={room}"), None).await;
    assert_eq!(st, 200, "{list}");
    let ids: Vec<(i64, u64)> =
        list.as_array().unwrap().iter().map(|m| (m["id"].as_i64().unwrap(), m["number"].as_u64().unwrap())).collect();
    assert_eq!(ids, [(second_id, 1), (first_id, 0)]);
    assert_eq!(list[0]["players"], json!(["alice", "carol"]));
    assert_eq!(list[0]["winners"], json!(["alice"]));
    assert_eq!(list[0]["replay"], format!("/replay/{second_id}?room={room}"));
    assert!(list[0].get("seed").is_none() && list[0].get("log").is_none(), "{}", list[0]);
    // Paged: one at a time, the next page named by a Link header.
    let (st, head, page) = common::http_full(&s.addr, "GET", &format!("/api/matches?room={room}&limit=1"), None).await;
    assert_eq!((st, page.as_array().unwrap().len()), (200, 1));
    let next = format!("/api/matches?room={room}&before={second_id}&limit=1");
    assert!(head.contains(&format!("link: <{next}>; rel=\"next\"")), "{head}");
    let (_, head, page) = common::http_full(&s.addr, "GET", &next, None).await;
    assert_eq!(page[0]["id"], first_id);
    assert!(!head.contains("link:"), "no page after the last: {head}");
    // A room that never was: 404; no room named: 400; a limit out of range: 400.
    let (st, _) = http(&s.addr, "GET", "/api/matches?room=nosuchroom", None).await;
    assert_eq!(st, 404);
    let (st, _) = http(&s.addr, "GET", "/api/matches", None).await;
    assert_eq!(st, 400);
    let (st, _) = http(&s.addr, "GET", &format!("/api/matches?room={room}&limit=0"), None).await;
    assert_eq!(st, 400);
    // A live room with no match yet: an empty list.
    let fresh = s.room(json!({"game": "sorcery"})).await;
    let (st, list) = http(&s.addr, "GET", &format!("/api/matches?room={fresh}"), None).await;
    assert_eq!((st, list), (200, json!([])));
    s.stop().await;
}

#[tokio::test]
async fn chamber_check_result_goes_to_its_user_only() {
    // Find a seed where the first player holds a Chamber Check.
    let s = Server::start(store::Store::memory().unwrap()).await;
    for seed in 0..200u64 {
        let room = s.room(json!({"game": "buckshot", "seed": seed})).await;
        let mut a = s.client(&room).await;
        let mut b = s.client(&room).await;
        a.join("alice").await;
        b.join("bob").await;
        a.send(json!({"type": "StartGame"})).await;
        a.expect("GameStarted").await;
        let data = a.sync().await;
        let turn = data["currentTurn"].as_str().unwrap().to_string();
        let me = data["players"].as_array().unwrap().iter().find(|p| p["username"] == turn.as_str()).unwrap().clone();
        if !me["items"].as_array().unwrap().iter().any(|i| i == "chamberCheck") {
            continue;
        }
        let (user, other) = if turn == "alice" { (&mut a, &mut b) } else { (&mut b, &mut a) };
        user.drain(50).await;
        other.drain(50).await;
        user.send(json!({"type": "UseChamberCheckItem"})).await;
        let mine = user.drain(200).await;
        let theirs = other.drain(200).await;
        assert!(types(&mine).contains(&"UseChamberCheckItem".to_string()));
        assert!(types(&mine).contains(&"UseChamberCheckResult".to_string()));
        assert!(types(&theirs).contains(&"UseChamberCheckItem".to_string()));
        assert!(!types(&theirs).contains(&"UseChamberCheckResult".to_string()));
        assert!(theirs.iter().all(|p| p["gameData"]["nextShell"].is_null()), "others never see the shell");
        let sync = mine.iter().rev().find(|p| p["type"] == "GameDataSync").unwrap();
        assert!(!sync["gameData"]["nextShell"].is_null(), "the user's own table shows it");
        s.stop().await;
        return;
    }
    panic!("no seed dealt a chamber check to the first player");
}

#[tokio::test]
async fn bots_fill_seats_and_play() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 9, "botDelayMs": 1})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.send(json!({"type": "AddBot"})).await;
    // A difficulty level: the searching `hard` bot plays the game below.
    a.send(json!({"type": "AddBot", "bot": "hard"})).await;
    a.send(json!({"type": "AddBot", "bot": "nonsense"})).await;
    let failed = a.expect("ActionFailed").await;
    assert_eq!(failed["code"], "unknown_bot");
    assert!(failed["reason"].as_str().unwrap().contains("expert"), "{failed}");
    let data = a.sync().await;
    assert_eq!(data["levels"], json!(["easy", "medium", "hard", "expert"]));
    let names: Vec<&str> =
        data["players"].as_array().unwrap().iter().map(|p| p["username"].as_str().unwrap()).collect();
    assert_eq!(names, ["alice", "bot-ana", "bot-ben"]);
    a.send(json!({"type": "RemoveBot", "username": "bot-ana"})).await;
    assert_eq!(a.expect("PlayerLeft").await["username"], "bot-ana");
    // Alice leaves her own fate to the stand-in: she leaves, the bot wins alone.
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    // Play alice's turns by shooting herself; the bot plays its own.
    for _ in 0..500 {
        let data = a.sync().await;
        if data["gameStarted"] == false {
            break;
        }
        if data["currentTurn"] == "alice" {
            a.send(json!({"type": "ShootPlayer", "username": "bot-ben"})).await;
        }
        a.drain(20).await;
    }
    assert!(a.seen.iter().any(|p| p["type"] == "GameEnded"), "the game with a bot ends");
    s.stop().await;
}

#[tokio::test]
async fn host_leaving_passes_the_host_and_rooms_survive_a_restart() {
    let dir = std::env::temp_dir().join(format!("cardtable-srv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("restart.db");
    let _ = std::fs::remove_file(&db);
    let s = Server::start(store::Store::open(&db).unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 21})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    let mut c = s.client(&room).await;
    a.join("alice").await;
    let tb = b.join("bob").await;
    let tc = c.join("carol").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    a.send(json!({"type": "LeaveGame"})).await;
    assert_eq!(b.expect("PlayerLeft").await["username"], "alice");
    assert_eq!(b.sync().await["host"], "bob");
    // A few moves, then the server stops without warning.
    for _ in 0..4 {
        let data = b.sync().await;
        let Some(turn) = data["currentTurn"].as_str().map(str::to_owned) else { break };
        let cl = if turn == "bob" { &mut b } else { &mut c };
        cl.drain(20).await;
        cl.send(json!({"type": "ShootPlayer", "username": turn})).await;
        cl.expect("ShootPlayer").await;
    }
    let before = b.sync().await;
    s.stop().await;
    drop((b, c));
    let s = Server::start(store::Store::open(&db).unwrap()).await;
    let mut b = s.client(&room).await;
    b.send(json!({"type": "Reconnect", "token": tb})).await;
    b.expect("Joined").await;
    let after = b.expect("GameDataSync").await["gameData"].clone();
    for key in ["currentTurn", "turnCount", "round", "liveLeft", "blankLeft", "gameStarted"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    let lives = |d: &Value| d["players"].as_array().unwrap().iter().map(|p| p["lives"].clone()).collect::<Vec<_>>();
    assert_eq!(lives(&before), lives(&after));
    let mut c = s.client(&room).await;
    c.send(json!({"type": "Reconnect", "token": tc})).await;
    c.expect("Joined").await;
    s.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
