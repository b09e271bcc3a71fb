//! Room-level security (issue 10), tried as a hostile client would with only the documented
//! protocol: tokens nobody can compute, a seed nobody sees before the end, seats nobody can
//! take by name, one membership per connection, options that cannot break a room, rooms that
//! cannot be crowded into quadratic work, and error and chat text that cannot be abused.

use serde_json::{Value, json};
use std::time::Duration;

use crate::common;
use common::{Client, Server, http};

/// A seed whose digits cannot turn up in a packet by chance.
const SEED: u64 = 17_293_822_569_102_704_631;

// ---- 1. tokens -----------------------------------------------------------------------------

/// The token a room would hand out first if its tokens came from its seed and the clock (the
/// construction of the first server): `ChaCha8(derive_seed(seed ^ ms, 0x70C3))`.
fn clock_token(seed: u64, ms: u64) -> String {
    let mut rng = engine::MatchRng::new(engine::derive_seed(seed ^ ms, 0x70C3));
    format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64())
}

#[tokio::test]
async fn tokens_come_from_the_os_not_from_the_seed_or_the_clock() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let before = server::room::now_ms();
    let r1 = s.room(json!({"game": "buckshot", "seed": SEED})).await;
    let r2 = s.room(json!({"game": "buckshot", "seed": SEED})).await;
    let after = server::room::now_ms();
    let mut a = s.client(&r1).await;
    let mut b = s.client(&r2).await;
    let ta = a.join("alice").await;
    let tb = b.join("alice").await;
    assert_ne!(ta, tb, "two rooms of one seed hand out different tokens");
    for t in [&ta, &tb] {
        assert!(t.len() >= 32 && t.chars().all(|c| c.is_ascii_hexdigit()), "128 bits or more: {t}");
    }
    // Knowing the seed and the moment of creation does not give the token.
    for ms in before.saturating_sub(50)..=after + 50 {
        let guess = clock_token(SEED, ms);
        assert!(guess != ta && guess != tb, "the token was computed from the seed and the clock ({ms})");
    }
    // Nor does re-creating the room with the same seed.
    let r3 = s.room(json!({"game": "buckshot", "seed": SEED})).await;
    let mut c = s.client(&r3).await;
    let tc = c.join("alice").await;
    assert!(tc != ta && tc != tb);
    s.stop().await;
}

// ---- 2. the seed ---------------------------------------------------------------------------

/// Fails if `text` (a packet or an HTTP answer) carries the seed: its digits, or a `seed` key.
fn assert_no_seed(text: &str, what: &str) {
    assert!(!text.contains(&SEED.to_string()), "{what} carries the seed's digits: {text}");
    assert!(!text.contains("\"seed\""), "{what} carries a seed key: {text}");
}

#[tokio::test]
async fn the_seed_is_never_sent_before_the_end() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let (st, created) =
        http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot", "seed": SEED, "botDelayMs": 1}))).await;
    assert_eq!(st, 201);
    assert_no_seed(&created.to_string(), "POST /api/rooms");
    let room = created["id"].as_str().unwrap().to_string();
    let mut watcher = s.client(&room).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    watcher.sync().await;
    a.join("alice").await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    for cl in [&mut watcher, &mut a, &mut b] {
        cl.sync().await;
    }
    for path in ["/api/rooms", &format!("/api/rooms/{room}"), "/api/health"] {
        let (_, v) = http(&s.addr, "GET", path, None).await;
        assert_no_seed(&v.to_string(), path);
    }
    // A few shots, then alice leaves and bob wins: the match is over.
    for _ in 0..3 {
        let d = a.sync().await;
        let Some(turn) = d["currentTurn"].as_str().map(str::to_owned) else { break };
        let cl = if turn == "alice" { &mut a } else { &mut b };
        cl.send(json!({"type": "ShootPlayer", "username": turn})).await;
        cl.drain(30).await;
    }
    a.send(json!({"type": "LeaveGame"})).await;
    b.expect("GameEnded").await;
    for cl in [&mut watcher, &mut a, &mut b] {
        cl.drain(50).await;
        for p in &cl.seen {
            if p["type"] == "GameEnded" {
                break;
            }
            assert_no_seed(&p.to_string(), p["type"].as_str().unwrap_or("a packet"));
        }
    }
    s.stop().await;
}

// ---- 3. seats are not taken by name --------------------------------------------------------

/// The table as an unjoined client sees it, and as `cl` sees it, taken back to back until no
/// move fell between them (bots are slowed right down, so that is at once).
async fn view_pair(cl: &mut Client, watcher: &mut Client) -> (Value, Value) {
    for _ in 0..5 {
        let mine = cl.sync().await;
        let theirs = watcher.sync().await;
        if mine["view"] == theirs["view"] || theirs["gameStarted"] == false {
            return (mine, theirs);
        }
    }
    let mine = cl.sync().await;
    (mine, watcher.sync().await)
}

#[tokio::test]
async fn a_seat_in_play_is_not_taken_by_its_username() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    for game in ["buckshot", "ivanhoe", "sorcery"] {
        for expire in [false, true] {
            let what = format!("{game}, bob {}", if expire { "dropped past his hold" } else { "left" });
            let room = s.room(json!({"game": game, "holdSeconds": 1, "turnSeconds": 600, "botDelayMs": 60_000})).await;
            let mut a = s.client(&room).await;
            let mut b = s.client(&room).await;
            let mut watcher = s.client(&room).await;
            a.join("alice").await;
            b.join("bob").await;
            // Sorcery is for two; the others get a third player, so bob's going ends nothing.
            let mut c = s.client(&room).await;
            if game != "sorcery" {
                c.join("carol").await;
            }
            a.send(json!({"type": "StartGame"})).await;
            a.expect("GameStarted").await;
            if expire {
                drop(b);
            } else {
                b.send(json!({"type": "LeaveGame"})).await;
            }
            loop {
                let p = a.expect("PlayerLeft").await;
                if p["username"] == "bob" {
                    break;
                }
            }
            let mut newcomer = s.client(&room).await;
            newcomer.send(json!({"type": "JoinGame", "username": "bob"})).await;
            let (mine, theirs) = view_pair(&mut newcomer, &mut watcher).await;
            assert!(mine.get("legal").is_none(), "{what}: the newcomer has bob's legal actions");
            assert_eq!(mine["view"], theirs["view"], "{what}: the newcomer sees more than a spectator");
            if theirs["gameStarted"] == true {
                let r = newcomer.seen.iter().find(|p| p["type"] == "PlayerJoinRejected" || p["type"] == "Joined");
                let r = r.unwrap_or_else(|| panic!("{what}: no answer to the join"));
                assert_eq!(r["type"], "PlayerJoinRejected", "{what}: {r}");
                assert_eq!(r["code"], "seat_in_play", "{what}: {r}");
                assert_eq!(mine["you"], Value::Null, "{what}");
                // Nor in another case.
                newcomer.send(json!({"type": "JoinGame", "username": "BOB"})).await;
                assert_eq!(newcomer.expect("PlayerJoinRejected").await["code"], "seat_in_play", "{what}");
            } else {
                // Sorcery: bob's leaving ended the match; a new bob joins the lobby, with no hand.
                assert_eq!(game, "sorcery");
                assert!(mine["view"].is_null());
            }
        }
    }
    s.stop().await;
}

// ---- 4. one membership per connection ------------------------------------------------------

#[tokio::test]
async fn a_member_cannot_reconnect_as_another_and_leave_a_ghost_host() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot", "seed": 4})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    let mut c = s.client(&room).await;
    let ta = a.join("alice").await;
    let tb = b.join("bob").await;
    c.join("carol").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    // Bob's connection drops; his token is known to the host (say, shared on a screen).
    drop(b);
    c.drain(100).await;
    a.send(json!({"type": "Reconnect", "token": tb})).await;
    let r = a.expect("PlayerJoinRejected").await;
    assert_eq!(r["code"], "already_joined", "{r}");
    let d = c.sync().await;
    assert_eq!(d["host"], "alice");
    let alice = d["players"].as_array().unwrap().iter().find(|p| p["username"] == "alice").unwrap().clone();
    assert_eq!(alice["connected"], true, "alice is still alice");
    assert_eq!(a.sync().await["you"], "alice");
    // Reconnecting with one's own token on the same connection is harmless.
    a.send(json!({"type": "Reconnect", "token": ta})).await;
    assert_eq!(a.expect("Joined").await["username"], "alice");
    // Bob's seat is still his to reclaim.
    let mut b2 = s.client(&room).await;
    b2.send(json!({"type": "Reconnect", "token": tb})).await;
    assert_eq!(b2.expect("Joined").await["username"], "bob");
    // And when the host goes, the role moves on as usual.
    a.send(json!({"type": "LeaveGame"})).await;
    assert_eq!(c.expect("HostSet").await["username"], "bob");
    s.stop().await;
}

// ---- 5. options ----------------------------------------------------------------------------

#[tokio::test]
async fn options_are_range_checked_at_creation() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let huge = u64::MAX;
    let big_options: Value = json!({ "notes": "x".repeat(5_000) });
    for (body, field) in [
        (json!({"game": "buckshot", "holdSeconds": huge}), "holdSeconds"),
        (json!({"game": "buckshot", "turnSeconds": huge}), "turnSeconds"),
        (json!({"game": "ivanhoe", "botDelayMs": huge}), "botDelayMs"),
        (json!({"game": "ivanhoe", "holdSeconds": 86_401}), "holdSeconds"),
        (json!({"game": "sorcery", "maxSpectators": 100_000}), "maxSpectators"),
        (json!({"game": "sorcery", "gameOptions": big_options}), "gameOptions"),
    ] {
        let (st, v) = http(&s.addr, "POST", "/api/rooms", Some(body.clone())).await;
        assert_eq!(st, 400, "{body}");
        let why = v["error"].as_str().unwrap_or_else(|| panic!("a JSON reason for {body}: {v}"));
        assert!(why.contains(field), "{body}: {why}");
    }
    // The edges of every range are fine.
    for body in [
        json!({"game": "buckshot", "holdSeconds": 0, "turnSeconds": 0, "botDelayMs": 0, "maxSpectators": 0}),
        json!({"game": "buckshot", "holdSeconds": 86_400, "turnSeconds": 86_400, "botDelayMs": 60_000}),
        json!({"game": "buckshot", "seed": huge, "gameOptions": {"notes": "x".repeat(3_000)}}),
    ] {
        let (st, v) = http(&s.addr, "POST", "/api/rooms", Some(body.clone())).await;
        assert_eq!(st, 201, "{body}: {v}");
    }
    assert_eq!(http(&s.addr, "GET", "/api/health", None).await.0, 200);
    s.stop().await;
}

/// A room built around the lobby's checks, with clocks of 2^64-1 seconds: it must never
/// panic adding them to an instant (duration arithmetic saturates).
#[tokio::test]
async fn huge_clocks_saturate_instead_of_panicking() {
    use server::games::buckshot::BuckshotAdapter;
    use server::room::{Outbound, Room, RoomOptions};
    use tokio::sync::mpsc;
    let options =
        RoomOptions { hold_seconds: u64::MAX, turn_seconds: u64::MAX, bot_delay_ms: u64::MAX, ..Default::default() };
    let (room, handle, inbox) =
        Room::<BuckshotAdapter>::create("huge".into(), options, store::Store::memory().unwrap());
    let task = tokio::spawn(room.run(inbox));
    let mut outs = Vec::new();
    for (conn, name) in [(1, "alice"), (2, "bob")] {
        let (tx, out) = mpsc::channel(1024);
        outs.push(out);
        handle.connect(conn, tx, None).await.unwrap();
        let text = Outbound::from(json!({"type": "JoinGame", "username": name}).to_string());
        handle.text(conn, text).await.unwrap();
    }
    let text = Outbound::from(json!({"type": "AddBot"}).to_string());
    handle.text(1, text).await.unwrap();
    let text = Outbound::from(json!({"type": "StartGame"}).to_string());
    handle.text(1, text).await.unwrap();
    // A drop mid-game starts the hold clock and, on bob's turn, the turn clock.
    handle.disconnect(2).await.unwrap();
    let text = Outbound::from(json!({"type": "GameDataRequest"}).to_string());
    handle.text(1, text).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), handle.flush())
        .await
        .expect("the room answers")
        .expect("the room task is alive (no overflow panic)");
    let mut started = false;
    while let Ok(p) = outs[0].try_recv() {
        started |= p.as_str().contains("\"GameStarted\"");
    }
    assert!(started);
    assert!(!task.is_finished());
    task.abort();
}

#[tokio::test]
async fn a_room_with_bad_stored_options_is_skipped_not_restored() {
    use server::lobby::Lobby;
    use server::room::RoomOptions;
    let store = store::Store::memory().unwrap();
    let good = {
        let lobby = Lobby::restore(store.clone()).await.unwrap();
        lobby.create("buckshot", RoomOptions::default()).await.unwrap()
    };
    let stored = store.load_rooms().await.unwrap();
    let mut snap: Value = serde_json::from_str(&stored[0].snapshot).unwrap();
    snap["options"]["holdSeconds"] = json!(u64::MAX);
    store.save_room("huge", "buckshot", snap.to_string()).await.unwrap();
    let lobby = Lobby::restore(store).await.expect("the server starts");
    assert!(lobby.contains(&good));
    assert!(!lobby.contains("huge"), "a room whose options fail the checks is left in the database");
}

// ---- 8. crowded rooms ----------------------------------------------------------------------

#[tokio::test]
async fn a_join_costs_the_others_one_small_packet_not_a_sync() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    // Eight players and four watchers (buckshot seats eight).
    let mut members = Vec::new();
    for i in 0..12 {
        let mut cl = s.client(&room).await;
        cl.join(&format!("p{i}")).await;
        members.push(cl);
    }
    for cl in &mut members {
        cl.drain(50).await;
    }
    let mut newcomer = s.client(&room).await;
    newcomer.join("late").await;
    let data = newcomer.expect("GameDataSync").await["gameData"].clone();
    assert_eq!(data["players"].as_array().unwrap().len(), 13, "the joiner gets the whole table");
    for cl in &mut members {
        let got = cl.drain(100).await;
        let kinds: Vec<&str> = got.iter().map(|p| p["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["PlayerJoined"], "each member hears of a join once, with no sync");
        let bytes: usize = got.iter().map(|p| p.to_string().len()).sum();
        assert!(bytes < 512, "{bytes} bytes for one join");
        assert_eq!(got[0]["player"]["username"], "late");
    }
    s.stop().await;
}

#[tokio::test]
async fn rooms_take_a_limited_number_of_members() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    // The lobby: eight seats, then one watcher, then full.
    let room = s.room(json!({"game": "buckshot", "maxSpectators": 1})).await;
    let mut kept = Vec::new();
    for i in 0..9 {
        let mut cl = s.client(&room).await;
        cl.join(&format!("p{i}")).await;
        kept.push(cl);
    }
    let mut late = s.client(&room).await;
    late.send(json!({"type": "JoinGame", "username": "late"})).await;
    let r = late.expect("PlayerJoinRejected").await;
    assert_eq!(r["code"], "room_full", "{r}");
    assert_eq!(late.sync().await["players"].as_array().unwrap().len(), 9);
    // A leaver makes room.
    kept[8].send(json!({"type": "LeaveGame"})).await;
    kept[0].expect("PlayerLeft").await;
    late.join("late").await;
    // During a game, with no watchers allowed: full at once.
    let room = s.room(json!({"game": "ivanhoe", "maxSpectators": 0})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    a.join("alice").await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut c = s.client(&room).await;
    c.send(json!({"type": "JoinGame", "username": "carol"})).await;
    assert_eq!(c.expect("PlayerJoinRejected").await["code"], "room_full");
    s.stop().await;
}

// ---- 9. error and chat text ----------------------------------------------------------------

#[tokio::test]
async fn error_replies_do_not_echo_a_huge_packet() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&room).await;
    let long = "X".repeat(20_000);
    // The `type` is quoted up to 64 characters; any reason is cut at 256.
    for (packet, quoted) in [
        (json!({"type": long}), 64),
        (json!({"type": "SendNewChatMessage", "message": "hi", long.clone(): 1}), 256),
        (json!({"type": "JoinGame", "username": [long.clone()]}), 256),
    ] {
        a.send(packet).await;
        let r = a.expect("ActionFailed").await;
        assert_eq!(r["code"], "bad_packet");
        let reason = r["reason"].as_str().unwrap();
        assert!(reason.chars().count() <= 257, "a reply of {} characters", reason.chars().count());
        assert!(!reason.contains(&"X".repeat(quoted + 1)), "more than {quoted} characters echoed: {reason}");
    }
    s.stop().await;
}

#[tokio::test]
async fn chat_refuses_invisible_and_control_text() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&room).await;
    let mut b = s.client(&room).await;
    a.join("alice").await;
    b.join("bob").await;
    for bad in [
        "\u{0}",
        "hi\u{0}there",
        "\u{feff}",
        " \u{feff} ",
        "\u{200b}\u{200b}",
        "\u{2060}\u{200d}",
        "ring\u{7}",
        "\u{1b}[31mred",
    ] {
        a.send(json!({"type": "SendNewChatMessage", "message": bad})).await;
        let r = a.expect("ActionFailed").await;
        assert_eq!(r["code"], "bad_message", "{bad:?}");
    }
    for good in ["hello 👋", "naïve café", "a\u{200b}b"] {
        a.send(json!({"type": "SendNewChatMessage", "message": good})).await;
        assert_eq!(b.expect("NewChatMessageSent").await["message"], good);
    }
    assert!(b.seen.iter().filter(|p| p["type"] == "NewChatMessageSent").count() == 3);
    s.stop().await;
}

#[tokio::test]
async fn a_leave_that_changes_no_game_costs_the_others_one_packet() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "botDelayMs": 60_000})).await;
    let mut members = Vec::new();
    for i in 0..8 {
        let mut cl = s.client(&room).await;
        cl.join(&format!("p{i}")).await;
        members.push(cl);
    }
    for cl in &mut members {
        cl.drain(50).await;
    }
    // In the lobby: a watcher leaves, then one who would have played (the host stays).
    for who in [7, 1] {
        members[who].send(json!({"type": "LeaveGame"})).await;
        for (i, cl) in members.iter_mut().enumerate().filter(|(i, _)| ![7, who].contains(i)) {
            let got = cl.drain(100).await;
            let kinds: Vec<&str> = got.iter().map(|p| p["type"].as_str().unwrap()).collect();
            assert_eq!(kinds, ["PlayerLeft"], "member {i} on p{who} leaving");
        }
    }
    let data = members[0].sync().await;
    let names: Vec<&str> =
        data["players"].as_array().unwrap().iter().map(|p| p["username"].as_str().unwrap()).collect();
    assert_eq!(names, ["p0", "p2", "p3", "p4", "p5", "p6"]);
    // During a game, a watcher's going changes nothing but the list; a player's is a move.
    members[0].send(json!({"type": "StartGame"})).await;
    members[0].expect("GameStarted").await;
    let mut watcher = s.client(&room).await;
    watcher.join("watcher").await;
    for i in [0, 2] {
        members[i].drain(100).await;
    }
    watcher.send(json!({"type": "LeaveGame"})).await;
    let got = members[0].drain(100).await;
    assert_eq!(got.iter().map(|p| p["type"].as_str().unwrap()).collect::<Vec<_>>(), ["PlayerLeft"]);
    members[2].send(json!({"type": "LeaveGame"})).await;
    members[0].expect("PlayerLeft").await;
    members[0].expect("GameDataSync").await;
    s.stop().await;
}
