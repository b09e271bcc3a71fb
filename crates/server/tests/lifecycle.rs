//! Rooms that end: an empty room closes after the server's `empty_room_ttl` (and leaves the
//! list, the lobby and the database), a game whose people have all gone ends as abandoned and
//! is recorded, the list pages and never shows a private room, and each limit refuses with
//! its status and reason.

use crate::common;

use common::{Server, http, http_full};
use futures_util::StreamExt;
use serde_json::{Value, json};
use server::limits::Limits;
use std::time::Duration;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

const TTL: Duration = Duration::from_millis(300);

fn config(store: store::Store, f: impl FnOnce(&mut Limits)) -> server::ServerConfig {
    let mut c = server::ServerConfig { rate_limit: 10_000.0, ..common::test_config(store) };
    c.limits.empty_room_ttl = TTL;
    f(&mut c.limits);
    c
}

async fn listed(s: &Server) -> Vec<String> {
    let (status, v) = http(&s.addr, "GET", "/api/rooms", None).await;
    assert_eq!(status, 200);
    v.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()
}

/// Waits (up to 5 s) until `f` holds.
async fn eventually(what: &str, mut f: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while tokio::time::Instant::now() < deadline {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what}: not within 5 s");
}

async fn room_exists(s: &Server, id: &str) -> bool {
    http(&s.addr, "GET", &format!("/api/rooms/{id}"), None).await.0 == 200
}

#[tokio::test]
async fn a_room_nobody_joins_closes_after_the_ttl_and_leaves_list_lobby_and_database() {
    let store = store::Store::memory().unwrap();
    let s = Server::start_with(config(store.clone(), |_| {})).await;
    let id = s.room(json!({"game": "buckshot"})).await;
    assert_eq!(listed(&s).await, vec![id.clone()]);
    assert_eq!(store.load_rooms().await.unwrap().len(), 1);
    tokio::time::sleep(TTL / 2).await;
    assert!(room_exists(&s, &id).await, "still within its time");
    eventually("the room closes", async || !room_exists(&s, &id).await).await;
    assert!(listed(&s).await.is_empty());
    assert!(store.load_rooms().await.unwrap().is_empty(), "a closed room is deleted from the store");
    // Its link now says so.
    let e = connect_async(format!("ws://{}/api/rooms/{id}/ws", s.addr)).await.unwrap_err();
    assert!(e.to_string().contains("404"), "{e}");
    s.stop().await;
}

#[tokio::test]
async fn a_room_lives_while_someone_is_in_it_and_closes_after_they_go() {
    let s = Server::start_with(config(store::Store::memory().unwrap(), |_| {})).await;
    let id = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&id).await;
    a.join("ann").await;
    tokio::time::sleep(TTL * 3).await;
    assert!(room_exists(&s, &id).await, "someone is connected");
    // A page reloading: back within the time, the room is still there.
    drop(a);
    tokio::time::sleep(TTL / 3).await;
    let mut a = s.client(&id).await;
    a.join("ann").await;
    tokio::time::sleep(TTL * 2).await;
    assert!(room_exists(&s, &id).await);
    drop(a);
    eventually("the room closes", async || !room_exists(&s, &id).await).await;
    s.stop().await;
}

#[tokio::test]
async fn a_game_everyone_left_is_recorded_as_abandoned_with_its_log_and_the_room_closes() {
    let store = store::Store::memory().unwrap();
    let s = Server::start_with(config(store.clone(), |_| {})).await;
    let id = s.room(json!({"game": "buckshot", "seed": 7})).await;
    let mut a = s.client(&id).await;
    a.join("ann").await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    drop(a);
    eventually("the room closes", async || !room_exists(&s, &id).await).await;
    let matches = store.list_matches(10).await.unwrap();
    assert_eq!(matches.len(), 1);
    let result: Value = serde_json::from_str(&matches[0].result).unwrap();
    // With the rules version that played it (docs/protocol.md, "Finished matches") and which
    // seats were bots (a profile names its opponents by level).
    assert_eq!(result, json!({"winners": [], "abandoned": true, "rulesVersion": 1, "bots": [null, "medium"]}));
    assert_eq!(matches[0].room_id, id);
    assert!(serde_json::from_str::<Value>(&matches[0].log).unwrap().is_array());
    assert!(store.load_rooms().await.unwrap().is_empty());
    s.stop().await;
}

#[tokio::test]
async fn a_game_whose_players_left_ends_abandoned_and_the_watchers_get_the_lobby_back() {
    let store = store::Store::memory().unwrap();
    let s = Server::start_with(config(store.clone(), |_| {})).await;
    let id = s.room(json!({"game": "buckshot"})).await;
    let mut watcher = s.client(&id).await;
    // A watcher says it is there (as the web client does) before the room sends it anything.
    watcher.sync().await;
    let mut a = s.client(&id).await;
    a.join("ann").await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    watcher.expect("GameStarted").await;
    drop(a);
    let alert = watcher.expect("ShowAlert").await;
    assert!(alert["text"].as_str().unwrap().contains("abandoned"), "{alert}");
    let table = watcher.sync().await;
    assert_eq!(table["gameStarted"], false);
    assert!(room_exists(&s, &id).await, "someone is still in the room");
    assert_eq!(store.list_matches(10).await.unwrap().len(), 1);
    drop(watcher);
    eventually("the room closes", async || !room_exists(&s, &id).await).await;
    s.stop().await;
}

#[tokio::test]
async fn a_restart_brings_back_only_the_live_rooms_and_they_close_by_the_same_rule() {
    let dir = std::env::temp_dir().join(format!("cardtable-lifecycle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.db");
    let _ = std::fs::remove_file(&path);
    let s = Server::start_with(config(store::Store::open(&path).unwrap(), |_| {})).await;
    let gone = s.room(json!({"game": "buckshot"})).await;
    eventually("the first room closes", async || !room_exists(&s, &gone).await).await;
    let live = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&live).await;
    a.join("ann").await;
    // As after kill -9: the task is gone, the database is as the last commit left it.
    s.stop().await;
    drop(a);
    let s = Server::start_with(config(store::Store::open(&path).unwrap(), |_| {})).await;
    assert_eq!(listed(&s).await, vec![live.clone()]);
    eventually("the restored room, empty, closes", async || !room_exists(&s, &live).await).await;
    s.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

async fn dormant_rooms(s: &Server) -> u64 {
    let (status, v) = http(&s.addr, "GET", "/api/health", None).await;
    assert_eq!(status, 200);
    v["dormantRooms"].as_u64().unwrap()
}

#[tokio::test]
async fn an_empty_room_goes_dormant_wakes_as_it_was_and_still_closes_on_time() {
    const LONG_TTL: Duration = Duration::from_secs(3);
    let store = store::Store::memory().unwrap();
    let s = Server::start_with(config(store.clone(), |l| {
        l.empty_room_ttl = LONG_TTL;
        l.dormant_after = Duration::from_millis(100);
    }))
    .await;
    let id = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&id).await;
    a.join("ann").await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "SendNewChatMessage", "message": "back in a minute"})).await;
    a.expect("NewChatMessageSent").await;
    let before = a.sync().await;
    // (Someone dropping in the lobby leaves it; the bot stays.)
    drop(a);
    eventually("the room goes dormant", async || dormant_rooms(&s).await == 1).await;
    // Dormant, it is listed and opens as before.
    assert_eq!(listed(&s).await, vec![id.clone()]);
    assert!(room_exists(&s, &id).await);
    // Coming back wakes it, with its bot, chat and options.
    let mut a = s.client(&id).await;
    a.join("ann").await;
    assert_eq!(dormant_rooms(&s).await, 0, "woken");
    let after = a.sync().await;
    for key in ["chat", "options", "bots", "gameStarted", "lastWinner", "lastMatch"] {
        assert_eq!(after[key], before[key], "{key} after waking");
    }
    let bots = |v: &Value| -> Vec<Value> {
        v["players"].as_array().unwrap().iter().filter(|p| p["isBot"] == true).map(|p| p["username"].clone()).collect()
    };
    assert_eq!(bots(&after), bots(&before));
    assert_eq!(bots(&after).len(), 1);
    // Its game plays as any other.
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    drop(a);
    // Whoever leaves, dormant or not, the room closes once its time has passed since it emptied.
    let emptied = tokio::time::Instant::now();
    eventually("the room closes", async || !room_exists(&s, &id).await).await;
    assert!(emptied.elapsed() >= LONG_TTL - Duration::from_millis(100), "not before its time");
    assert!(store.load_rooms().await.unwrap().is_empty());
    // A room that went dormant and was never woken closes on time too, and is deleted.
    let id = s.room(json!({"game": "buckshot"})).await;
    let created = tokio::time::Instant::now();
    eventually("the new room goes dormant", async || dormant_rooms(&s).await == 1).await;
    eventually("the dormant room closes", async || !room_exists(&s, &id).await).await;
    assert!(created.elapsed() >= LONG_TTL - Duration::from_millis(100), "not before its time");
    assert_eq!(dormant_rooms(&s).await, 0);
    assert!(store.load_rooms().await.unwrap().is_empty(), "a closed dormant room is deleted from the store");
    s.stop().await;
}

#[tokio::test]
async fn the_list_pages_past_a_hundred_and_never_shows_a_private_room() {
    let s = Server::start_with(config(store::Store::memory().unwrap(), |l| l.empty_room_ttl = Duration::from_secs(60)))
        .await;
    for _ in 0..130 {
        s.room(json!({"game": "buckshot"})).await;
    }
    let private = s.room(json!({"game": "buckshot", "private": true})).await;
    let (status, head, first) = http_full(&s.addr, "GET", "/api/rooms", None).await;
    assert_eq!(status, 200);
    let first = first.as_array().unwrap().clone();
    assert_eq!(first.len(), 100);
    let link = head.lines().find_map(|l| l.strip_prefix("link: ")).expect("a Link header").to_string();
    let next = link.split(['<', '>']).nth(1).unwrap().to_string();
    let (_, head, second) = http_full(&s.addr, "GET", &next, None).await;
    let second = second.as_array().unwrap().clone();
    assert_eq!(second.len(), 30);
    assert!(!head.contains("link:"), "the last page");
    let mut ids: Vec<&str> = first.iter().chain(&second).map(|r| r["id"].as_str().unwrap()).collect();
    assert!(!ids.contains(&private.as_str()));
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "pages do not overlap");
    let (status, _, one) = http_full(&s.addr, "GET", &format!("/api/rooms/{private}"), None).await;
    assert_eq!((status, one["id"].as_str()), (200, Some(private.as_str())), "found by its link");
    let (status, _, _) = http_full(&s.addr, "GET", "/api/rooms?limit=5", None).await;
    assert_eq!(status, 200);
    s.stop().await;
}

#[tokio::test]
async fn room_creation_limits_answer_429_and_503_with_a_reason() {
    let s = Server::start_with(config(store::Store::memory().unwrap(), |l| {
        l.rooms_per_minute_per_addr = 3;
        l.rooms_per_addr = 2;
        l.empty_room_ttl = Duration::from_secs(60);
    }))
    .await;
    s.room(json!({"game": "buckshot"})).await;
    s.room(json!({"game": "buckshot"})).await;
    let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot"}))).await;
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("open rooms"), "{v}");
    s.stop().await;

    let s = Server::start_with(config(store::Store::memory().unwrap(), |l| {
        l.rooms_per_minute_per_addr = 2;
        l.empty_room_ttl = Duration::from_millis(50);
    }))
    .await;
    let a = s.room(json!({"game": "buckshot"})).await;
    let b = s.room(json!({"game": "buckshot"})).await;
    eventually("both rooms close", async || !room_exists(&s, &a).await && !room_exists(&s, &b).await).await;
    let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot"}))).await;
    assert_eq!(status, 429, "closed rooms still count in the minute: {v}");
    assert!(v["error"].as_str().unwrap().contains("last minute"), "{v}");
    s.stop().await;

    let s = Server::start_with(config(store::Store::memory().unwrap(), |l| {
        l.rooms = 1;
        l.empty_room_ttl = Duration::from_secs(60);
    }))
    .await;
    s.room(json!({"game": "buckshot"})).await;
    let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot"}))).await;
    assert_eq!(status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("limit of 1 rooms"), "{v}");
    s.stop().await;
}

/// The close frame a refused socket gets: its code and reason.
async fn refused_socket(addr: &str, room: &str) -> (u16, String) {
    let (mut ws, _) = connect_async(format!("ws://{addr}/api/rooms/{room}/ws")).await.unwrap();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("an answer") {
            Some(Ok(Message::Close(Some(f)))) => return (f.code.into(), f.reason.to_string()),
            Some(Ok(Message::Text(t))) => panic!("a refused socket got a packet: {t}"),
            Some(Ok(_)) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    }
}

#[tokio::test]
async fn socket_limits_close_the_websocket_with_1013_and_a_reason() {
    let s = Server::start_with(config(store::Store::memory().unwrap(), |l| {
        l.sockets_per_addr = 2;
    }))
    .await;
    let id = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&id).await;
    let _b = s.client(&id).await;
    let (code, reason) = refused_socket(&s.addr, &id).await;
    assert_eq!(code, 1013);
    assert!(reason.contains("your address"), "{reason}");
    // The first two are served as ever.
    a.join("ann").await;
    drop(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut c = s.client(&id).await;
    c.join("cat").await;
    s.stop().await;

    let s = Server::start_with(config(store::Store::memory().unwrap(), |l| l.sockets = 1)).await;
    let id = s.room(json!({"game": "buckshot"})).await;
    let _a = s.client(&id).await;
    let (code, reason) = refused_socket(&s.addr, &id).await;
    assert_eq!(code, 1013);
    assert!(reason.contains("the server"), "{reason}");
    s.stop().await;
}

/// A table that closes its sockets together in the lobby (a match over, everyone gone) costs
/// one snapshot write, not one per member; the one who stays hears every leave, and the stored
/// room is the one they see.
#[tokio::test]
async fn lobby_drops_queued_together_are_stored_in_one_write() {
    use server::games::buckshot::BuckshotAdapter;
    use server::room::{Outbound, Room, RoomOptions};
    use tokio::sync::mpsc;

    let store = store::Store::memory().unwrap();
    let (room, handle, inbox) = Room::<BuckshotAdapter>::create("drops".into(), RoomOptions::default(), store.clone());
    tokio::spawn(room.run(inbox));
    let mut outs: Vec<mpsc::Receiver<Outbound>> = Vec::new();
    for conn in 1..=4u64 {
        let (tx, out) = mpsc::channel(256);
        handle.connect(conn, tx, None).await.unwrap();
        let join = json!({"type": "JoinGame", "username": format!("p{conn}")});
        handle.text(conn, Outbound::from(join.to_string())).await.unwrap();
        handle.flush().await.unwrap();
        outs.push(out);
    }
    let before = store.commits().expect("SQLite counts its commits");
    // p1 (the host) and p2, p3 drop at once; p4 stays.
    for conn in 1..=3u64 {
        handle.disconnect(conn).await.unwrap();
    }
    handle.flush().await.unwrap();
    assert_eq!(store.commits().unwrap() - before, 1, "three drops queued together are one write");

    let mut heard = Vec::new();
    while let Ok(p) = outs[3].try_recv() {
        heard.push(serde_json::from_str::<Value>(p.as_str()).unwrap());
    }
    let left: Vec<&Value> = heard.iter().filter(|p| p["type"] == "PlayerLeft").map(|p| &p["username"]).collect();
    assert_eq!(left, [&json!("p1"), &json!("p2"), &json!("p3")], "p4 hears every leave, in order");
    assert!(
        heard.iter().any(|p| p["type"] == "HostSet" && p["username"] == "p4"),
        "the host's leave passes the role on: {heard:?}"
    );
    let stored = store.load_room("drops").await.unwrap().expect("the room is stored");
    let snapshot: Value = serde_json::from_str(&stored.snapshot).unwrap();
    let members: Vec<&Value> = snapshot["members"].as_array().unwrap().iter().map(|m| &m["username"]).collect();
    assert_eq!(members, [&json!("p4")], "the stored room has the one who stayed");
    assert_eq!(snapshot["host"], "p4");

    // A lone drop is stored as before (and a later command finds nothing left to store).
    let before = store.commits().unwrap();
    handle.disconnect(4).await.unwrap();
    handle.flush().await.unwrap();
    assert_eq!(store.commits().unwrap() - before, 1);
    let stored = store.load_room("drops").await.unwrap().expect("an empty room stays until it closes");
    let snapshot: Value = serde_json::from_str(&stored.snapshot).unwrap();
    assert_eq!(snapshot["members"], json!([]));
}
