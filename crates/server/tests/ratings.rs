//! Ratings through the server (issue 43): a rated match against bots moves the person's rating
//! and history, a casual one does not, a leaver loses while the stand-in finishes the game, an
//! end replayed after a restart rates nothing twice, and the leaderboard's endpoint.

use crate::common::people::{guest, req, signed_client};
use crate::common::{Client, Server};
use serde_json::{Value, json};
use std::time::Duration;
use store::ratings::{RatedMatch, RatedSeat, Scoring};

/// A legal entry, chosen without knowing the game (as `every_game.rs` picks).
fn pick(legal: &[Value]) -> Option<&Value> {
    legal.iter().find(|a| a["type"] == "Lock").or_else(|| legal.iter().find(|a| a["type"] != "End")).or(legal.first())
}

/// Plays the person's side of a match by `pick` until `GameEnded`.
async fn play_out(c: &mut Client) {
    for _ in 0..3000 {
        let d = c.sync().await;
        if c.seen.iter().any(|p| p["type"] == "GameEnded") {
            return;
        }
        c.seen.clear();
        match pick(d["legal"].as_array().map_or(&[][..], |l| l.as_slice())) {
            Some(action) => c.send(json!({"type": "Act", "action": action})).await,
            None => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
    panic!("the match did not end");
}

/// The account id behind a session.
async fn account_id(addr: &str, session: &str) -> i64 {
    req(addr, "GET", "/api/me", Some(session), None).await.body["id"].as_i64().unwrap()
}

/// A guest alone against a `random` Sorcery bot in a room made from `options`, played to its
/// end: answers the guest's session, name and the room.
async fn guest_plays_sorcery(s: &Server, options: Value) -> (String, String, String, Client) {
    let (session, name) = guest(&s.addr).await;
    let room = s.room(options).await;
    let mut c = signed_client(&s.addr, &room, &session).await;
    c.send(json!({"type": "JoinGame", "username": name})).await;
    c.expect("Joined").await;
    c.send(json!({"type": "AddBot", "bot": "random"})).await;
    c.expect("PlayerJoined").await;
    // Every seat shows its rating: the newcomer's 1500, provisional; the bot's its level's.
    let players = c.sync().await["players"].clone();
    let me = players.as_array().unwrap().iter().find(|p| p["username"] == json!(name)).unwrap().clone();
    assert_eq!((me["rating"].as_i64(), &me["provisional"]), (Some(1500), &json!(true)), "{players}");
    let bot = players.as_array().unwrap().iter().find(|p| p["isBot"] == true).unwrap().clone();
    let random = rating::bot_rating("sorcery", "random").unwrap().round() as i64;
    assert_eq!((bot["rating"].as_i64(), bot.get("provisional")), (Some(random), None), "{players}");
    c.send(json!({"type": "StartGame"})).await;
    c.expect("GameStarted").await;
    play_out(&mut c).await;
    (session, name, room, c)
}

#[tokio::test]
async fn a_rated_match_against_a_bot_moves_the_persons_rating_and_history() {
    let store = store::Store::memory().unwrap();
    let s = Server::fast(store.clone()).await;
    let options = json!({"game": "sorcery", "rated": true, "botDelayMs": 1});
    let (session, name, _room, mut c) = guest_plays_sorcery(&s, options).await;
    let id = account_id(&s.addr, &session).await;
    let stored = store.game_ratings("sorcery", &[id]).await.unwrap();
    assert_eq!(stored.len(), 1, "rated: {stored:?}");
    assert_eq!(stored[0].games, 1);
    assert!(stored[0].r != 1500.0 && stored[0].rd < 350.0, "{stored:?}");
    // The seat shows the new rating at once.
    let players = c.sync().await["players"].clone();
    let me = players.as_array().unwrap().iter().find(|p| p["username"] == json!(name)).unwrap().clone();
    assert_eq!(me["rating"].as_i64(), Some(stored[0].r.round() as i64), "{players}");
    // The profile shows it with its history, one point a rated match.
    let p = req(&s.addr, "GET", &format!("/api/users/{name}"), None, None).await;
    let ratings = p.body["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "{}", p.body);
    assert_eq!((&ratings[0]["game"], ratings[0]["games"].as_u64()), (&json!("sorcery"), Some(1)));
    assert_eq!(ratings[0]["provisional"], true, "one game: still provisional");
    let history = ratings[0]["history"].as_array().unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["match"], p.body["matches"][0]["id"]);
    assert_eq!(history[0]["left"], false);
    s.stop().await;
}

#[tokio::test]
async fn a_casual_match_rates_nobody() {
    let store = store::Store::memory().unwrap();
    let s = Server::fast(store.clone()).await;
    let (session, name, _room, _c) = guest_plays_sorcery(&s, json!({"game": "sorcery", "botDelayMs": 1})).await;
    let id = account_id(&s.addr, &session).await;
    assert!(store.game_ratings("sorcery", &[id]).await.unwrap().is_empty());
    let p = req(&s.addr, "GET", &format!("/api/users/{name}"), None, None).await;
    assert_eq!(p.body["matches"].as_array().unwrap().len(), 1, "the match is recorded: {}", p.body);
    assert_eq!(p.body["ratings"], json!([]));
    s.stop().await;
}

/// The lobby's list says which rooms are rated, for a live room and for one gone dormant
/// (nobody connected: the lobby keeps only a small record of it).
#[tokio::test]
async fn the_lobby_lists_whether_a_room_is_rated() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let rated = s.room(json!({"game": "sorcery", "rated": true})).await;
    let casual = s.room(json!({"game": "sorcery"})).await;
    let listed =
        |list: &Value, id: &str| list.as_array().unwrap().iter().find(|r| r["id"] == id).unwrap()["rated"].clone();
    let (_, list) = crate::common::http(&s.addr, "GET", "/api/rooms", None).await;
    assert_eq!((listed(&list, &rated), listed(&list, &casual)), (json!(true), json!(false)), "{list}");
    let c = s.client(&rated).await;
    drop(c);
    tokio::time::sleep(server::limits::DORMANT_AFTER * 3).await;
    let (_, list) = crate::common::http(&s.addr, "GET", "/api/rooms", None).await;
    assert_eq!((listed(&list, &rated), listed(&list, &casual)), (json!(true), json!(false)), "{list}");
    s.stop().await;
}

#[tokio::test]
async fn a_seeded_or_set_up_room_cannot_be_rated() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let (status, v) =
        crate::common::http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "sorcery", "seed": 3, "rated": true})))
            .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("never rated"), "{v}");
    s.stop().await;
}

/// A person who leaves a rated Ivanhoe match (three seats: two bots) loses it, whatever the
/// stand-in that plays their seat on does; the match is played to its end, not abandoned, and
/// the leave counts towards quick play's cooldown.
#[tokio::test]
async fn a_leaver_loses_and_the_stand_in_finishes_the_game() {
    let store = store::Store::memory().unwrap();
    let s = Server::fast(store.clone()).await;
    let (session, name) = guest(&s.addr).await;
    let room = s.room(json!({"game": "ivanhoe", "rated": true, "botDelayMs": 1, "turnSeconds": 1})).await;
    let mut c = signed_client(&s.addr, &room, &session).await;
    c.send(json!({"type": "JoinGame", "username": name})).await;
    c.expect("Joined").await;
    for _ in 0..2 {
        c.send(json!({"type": "AddBot", "bot": "random"})).await;
        c.expect("PlayerJoined").await;
    }
    let mut watcher = s.client(&room).await;
    // A socket hears the room once it has said something (docs/protocol.md).
    watcher.send(json!({"type": "GameDataRequest"})).await;
    c.send(json!({"type": "StartGame"})).await;
    c.expect("GameStarted").await;
    c.send(json!({"type": "LeaveGame"})).await;
    c.expect("PlayerLeft").await;
    // The stand-in plays the seat on (after the turn timer), the bots theirs, to the end.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !watcher.seen.iter().any(|p| p["type"] == "GameEnded") {
        assert!(tokio::time::Instant::now() < deadline, "the match did not end");
        watcher.next(1000).await;
    }
    let id = account_id(&s.addr, &session).await;
    let stored = store.game_ratings("ivanhoe", &[id]).await.unwrap();
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert!(stored[0].r < 1500.0, "a leave is a loss against both bots: {stored:?}");
    let history = store.rating_history(id, "ivanhoe", 10).await.unwrap();
    assert_eq!((history.len(), history[0].left), (1, true));
    let m = store.get_match(history[0].match_id).await.unwrap().unwrap();
    let result: Value = serde_json::from_str(&m.result).unwrap();
    assert!(result.get("abandoned").is_none(), "played to its end: {result}");
    assert_eq!(m.people.len(), 1);
    let penalty = store.leave_penalty(id, store_now()).await.unwrap();
    assert_eq!((penalty.leaves, penalty.until), (1, 0), "one leave: no cooldown yet");
    s.stop().await;
}

fn store_now() -> u64 {
    server::room::now_ms()
}

/// A server stopped after it rated a match but before the room went back to the lobby: the
/// restarted server ends the match again (the same record, the same id) and the store, which
/// has it rated, rates nothing twice.
#[tokio::test]
async fn an_end_replayed_after_a_restart_does_not_rate_twice() {
    let dir = std::env::temp_dir().join(format!("cardtable-rated-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("first.db");
    let _ = std::fs::remove_file(&first);
    let store = store::Store::open(&first).unwrap();
    let s = Server::fast(store.clone()).await;
    let (session, name) = guest(&s.addr).await;
    let room = s.room(json!({"game": "sorcery", "rated": true, "botDelayMs": 1})).await;
    let mut c = signed_client(&s.addr, &room, &session).await;
    c.send(json!({"type": "JoinGame", "username": name})).await;
    c.expect("Joined").await;
    c.send(json!({"type": "AddBot", "bot": "random"})).await;
    c.expect("PlayerJoined").await;
    c.send(json!({"type": "StartGame"})).await;
    c.expect("GameStarted").await;
    let started = store.load_room(&room).await.unwrap().expect("stored").snapshot;
    play_out(&mut c).await;
    drop(c);
    s.stop().await;
    let id = account_id_in(&store, &name).await;
    let rated = store.game_ratings("sorcery", &[id]).await.unwrap();
    let finished = store.list_matches(10).await.unwrap();
    assert_eq!((finished.len(), rated.len()), (1, 1));
    // The store as a kill after the rating left it (a database of its own: the first server's
    // room tasks may still write to theirs): the match recorded and rated, the room's snapshot
    // still the running match's, every move stored.
    let killed = dir.join("killed.db");
    let _ = std::fs::remove_file(&killed);
    let store2 = store::Store::open(&killed).unwrap();
    store2.save_room(&room, "sorcery", started).await.unwrap();
    let match_id = store2.record_match(store::MatchRecord { id: 0, ..finished[0].clone() }, 0).await.unwrap();
    let won = finished[0].people[0].won;
    let bot = rating::bot("sorcery", "random").unwrap();
    let m = RatedMatch {
        game: "sorcery".into(),
        seats: vec![RatedSeat::Person { account: id, left: false }, RatedSeat::Bot(bot)],
        scoring: Scoring::Places(if won { vec![1, 2] } else { vec![2, 1] }),
    };
    store2.rate_match(match_id, &m, rated[0].updated).await.unwrap().expect("rated in the second store");
    let before = store2.game_ratings("sorcery", &[id]).await.unwrap();
    assert_eq!(before[0].r, rated[0].r, "the same rating as the first server stored");
    let log: Vec<Value> = serde_json::from_str(&finished[0].log).unwrap();
    for (i, mv) in log.iter().enumerate() {
        store2.append_move(&room, i as u64, mv.to_string()).await.unwrap();
    }
    let s = Server::fast(store2.clone()).await;
    let mut w = s.client(&room).await;
    let table = w.sync().await;
    assert_eq!(table["gameStarted"], false, "the restored match was ended: {table}");
    assert_eq!(store2.list_matches(10).await.unwrap().len(), 1, "recorded once");
    let after = store2.game_ratings("sorcery", &[id]).await.unwrap();
    assert_eq!(after, before, "rated once");
    assert_eq!(store2.rating_history(id, "sorcery", 10).await.unwrap().len(), 1);
    s.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

async fn account_id_in(store: &store::Store, name: &str) -> i64 {
    store.account_by_key(&::accounts::name_key(name)).await.unwrap().unwrap().0.id
}

#[tokio::test]
async fn the_leaderboard_lists_established_people_by_rating() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let hard = rating::bot("ivanhoe", "hard").unwrap();
    let mut names = Vec::new();
    for k in 0..3 {
        let (session, name) = guest(&s.addr).await;
        let id = account_id(&s.addr, &session).await;
        // Person k wins k of every 3 (person 0 none): 0 < 1 < 2 by rating; person 0 plays 5
        // matches only (fewer than the leaderboard's minimum).
        let matches = if k == 0 { 5 } else { 21 };
        for n in 0..matches {
            let won = n % 3 < k;
            let m = RatedMatch {
                game: "ivanhoe".into(),
                seats: vec![RatedSeat::Person { account: id, left: false }, RatedSeat::Bot(hard)],
                scoring: Scoring::Places(if won { vec![1, 2] } else { vec![2, 1] }),
            };
            store.rate_match(1000 * (k as i64 + 1) + n as i64, &m, store_now()).await.unwrap();
        }
        names.push(name);
    }
    let r = req(&s.addr, "GET", "/api/leaderboard/Ivanhoe", None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!((&r.body["game"], &r.body["minGames"], &r.body["size"]), (&json!("ivanhoe"), &json!(10), &json!(100)));
    let rows = r.body["rows"].as_array().unwrap();
    let listed: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(listed, vec![names[2].as_str(), names[1].as_str()], "{}", r.body);
    assert_eq!((&rows[0]["rank"], &rows[0]["guest"], &rows[0]["games"]), (&json!(1), &json!(true), &json!(21)));
    assert!(rows[0]["rating"].as_i64() > rows[1]["rating"].as_i64());
    let none = req(&s.addr, "GET", "/api/leaderboard/chess", None, None).await;
    assert_eq!((none.status, &none.body["error"]), (404, &json!("no_game")));
    s.stop().await;
}
