//! Fair play and safety, round two (issue 23), tried from outside as a hostile client would:
//! seeds a creator picks, room ids that can be guessed, the same move sent twice, absent
//! players in Three Kingdoms, chat text that lies about its direction, one address holding
//! every connection.

use serde_json::{Value, json};
use std::time::Duration;
use tokio::time::Instant;

use crate::common;
use common::{Client, Server, http};

fn plain_config() -> server::ServerConfig {
    // The server as `cardtable serve` starts it by default (a fast rate limit for the test).
    server::ServerConfig { rate_limit: 10_000.0, ..server::ServerConfig::new(store::Store::memory().unwrap()) }
}

// ---- 1. seeds ------------------------------------------------------------------------------

#[tokio::test]
async fn a_chosen_seed_is_refused_unless_the_server_allows_it() {
    let s = Server::start_with(plain_config()).await;
    let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "ivanhoe", "seed": 5}))).await;
    assert_eq!(status, 400, "a client-chosen seed is refused by default: {v}");
    let e = v["error"].as_str().unwrap_or_default();
    assert!(e.contains("--allow-seeded-rooms"), "the refusal names the option: {e}");
    // Without a seed nothing changes.
    let (status, _) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "ivanhoe"}))).await;
    assert_eq!(status, 201);
    s.stop().await;
}

#[tokio::test]
async fn a_seeded_room_is_marked_to_every_member_and_in_the_lobby() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let seeded = s.room(json!({"game": "ivanhoe", "seed": 5})).await;
    let plain = s.room(json!({"game": "ivanhoe"})).await;
    let mut a = s.client(&seeded).await;
    a.join("alice").await;
    let d = a.sync().await;
    assert_eq!(d["seeded"], true, "the room says its seed was chosen: {d}");
    let mut b = s.client(&plain).await;
    b.join("bob").await;
    let d = b.sync().await;
    assert_eq!(d["seeded"], false, "{d}");
    let (_, list) = http(&s.addr, "GET", "/api/rooms", None).await;
    let of = |id: &str| list.as_array().unwrap().iter().find(|r| r["id"] == id).cloned().unwrap();
    assert_eq!(of(&seeded)["seeded"], true, "{list}");
    assert_eq!(of(&plain)["seeded"], false, "{list}");
    let (_, one) = http(&s.addr, "GET", &format!("/api/rooms/{seeded}"), None).await;
    assert_eq!(one["seeded"], true, "{one}");
    s.stop().await;
}

// ---- 2. room ids ---------------------------------------------------------------------------

#[tokio::test]
async fn room_ids_carry_64_bits_and_unknown_ids_are_throttled() {
    let s = Server::start_with(plain_config()).await;
    let (_, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot", "private": true}))).await;
    let id = v["id"].as_str().unwrap().to_string();
    // Ids are drawn from 31 letters and digits: 13 of them are 64 bits.
    let bits = id.len() as f64 * 31f64.log2();
    assert!(bits >= 64.0, "room id {id} holds {bits:.1} bits");
    let (status, _) = http(&s.addr, "GET", &format!("/api/rooms/{id}"), None).await;
    assert_eq!(status, 200);
    // Guessing: unknown ids are answered 404 a few times, then 429 for a while.
    let mut statuses = Vec::new();
    for i in 0..60 {
        let (status, _) = http(&s.addr, "GET", &format!("/api/rooms/nosuchroom{i:04}"), None).await;
        statuses.push(status);
    }
    assert!(statuses.contains(&404), "{statuses:?}");
    assert_eq!(*statuses.last().unwrap(), 429, "60 guesses in a row are throttled: {statuses:?}");
    // While throttled, a real id answers 429 too: the answer tells nothing about which ids exist.
    let (status, _) = http(&s.addr, "GET", &format!("/api/rooms/{id}"), None).await;
    assert_eq!(status, 429);
    let (status, _) = http(&s.addr, "GET", &format!("/api/rooms/{id}/ws"), None).await;
    assert_eq!(status, 429);
    s.stop().await;
}

#[tokio::test]
async fn a_new_room_cannot_read_an_old_rooms_matches() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let old = s.room(json!({"game": "buckshot", "seed": 3, "botDelayMs": 1})).await;
    let mut a = s.client(&old).await;
    a.join("alice").await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    // Alice leaves her seat: the bot wins, the match is recorded.
    a.send(json!({"type": "LeaveGame"})).await;
    a.expect("GameEnded").await;
    let d = a.sync().await;
    let m = d["lastMatch"].as_i64().expect("the match is recorded");
    let (status, _) = http(&s.addr, "GET", &format!("/api/matches/{m}?room={old}"), None).await;
    assert_eq!(status, 200);
    for _ in 0..20 {
        let new = s.room(json!({"game": "buckshot"})).await;
        assert_ne!(new, old);
        let (status, _) = http(&s.addr, "GET", &format!("/api/matches/{m}?room={new}"), None).await;
        assert_eq!(status, 404, "room {new} reads room {old}'s match");
    }
    s.stop().await;
}

// ---- 3. the same move twice ----------------------------------------------------------------

/// A Buckshot table of two people, started; returns (alice, bob, whose turn).
async fn buckshot_table(s: &Server, seed: u64) -> (Client, Client) {
    let room = s.room(json!({"game": "buckshot", "seed": seed, "botDelayMs": 60_000})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    (a, b)
}

fn failures(packets: &[Value]) -> Vec<String> {
    packets.iter().filter(|p| p["type"] == "ActionFailed").map(|p| p["code"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_buckshot_shot_sent_twice_is_fired_once() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    for seed in 1..=6 {
        let (mut a, mut b) = buckshot_table(&s, seed).await;
        let d = a.sync().await;
        b.sync().await;
        let turn = d["currentTurn"].as_str().unwrap().to_string();
        let serial = d["serial"].clone();
        assert!(serial.is_u64(), "GameDataSync carries the serial: {d}");
        let shooter = if turn == "alice" { &mut a } else { &mut b };
        let shot = json!({"type": "ShootPlayer", "username": turn, "serial": serial});
        shooter.send(shot.clone()).await;
        shooter.send(shot).await;
        let got = shooter.drain(300).await;
        let shots = got.iter().filter(|p| p["type"] == "ShootPlayer").count();
        assert_eq!(shots, 1, "seed {seed}: one shot fired, not two");
        assert_eq!(failures(&got), ["stale_action"], "seed {seed}: the second is refused as stale");
    }
    s.stop().await;
}

#[tokio::test]
async fn an_act_sent_twice_or_late_is_refused_as_stale_and_every_refusal_is_answered() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 9, "botDelayMs": 60_000})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    let mut watcher = s.client(&room).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let (da, db) = (a.sync().await, b.sync().await);
    let (me, mut other, d) = if !da["legal"].as_array().unwrap().is_empty() { (a, b, da) } else { (b, a, db) };
    let mut me = me;
    let serial = d["serial"].clone();
    assert!(serial.is_u64(), "GameDataSync carries the serial: {d}");
    let action = d["legal"][0].clone();
    me.send(json!({"type": "Act", "action": action, "serial": serial})).await;
    me.send(json!({"type": "Act", "action": action, "serial": serial})).await;
    let got = me.drain(300).await;
    assert_eq!(failures(&got), ["stale_action"], "the duplicate is refused: {got:?}");
    // The refusal names the move it refuses: the serial it carried.
    let refusal = got.iter().find(|p| p["type"] == "ActionFailed").unwrap();
    assert_eq!(refusal["serial"], serial, "a refused Act's serial is said back: {refusal}");
    // An entry of an old `legal`, sent with its old serial later on, is refused too.
    let d = me.sync().await;
    if let Some(next) = d["legal"].as_array().and_then(|l| l.first()).cloned() {
        me.send(json!({"type": "Act", "action": next, "serial": serial})).await;
        let got = me.drain(300).await;
        assert_eq!(failures(&got), ["stale_action"]);
        assert!(got.iter().any(|p| p["type"] == "ActionFailed" && p["serial"] == serial), "{got:?}");
    }
    // Refusals that used to be silent: out of turn, a watcher, no serial still works.
    let od = other.sync().await;
    if od["legal"].as_array().unwrap().is_empty() {
        other.send(json!({"type": "Act", "action": action})).await;
        let codes = failures(&other.drain(300).await);
        assert_eq!(codes.len(), 1, "an out-of-turn Act is answered: {codes:?}");
    }
    watcher.send(json!({"type": "Act", "action": action})).await;
    let got = watcher.drain(300).await;
    assert_eq!(failures(&got), ["not_joined"], "a watcher's Act is answered");
    // Without a serial the refusal has none (as every refusal of a packet that is no action).
    assert!(got.iter().all(|p| p.get("serial").is_none()), "{got:?}");
    watcher.send(json!({"type": "Act", "action": action, "serial": 3})).await;
    let got = watcher.drain(300).await;
    assert!(got.iter().any(|p| p["code"] == "not_joined" && p["serial"] == 3), "every refusal names it: {got:?}");
    s.stop().await;
}

// ---- 4. Three Kingdoms' absent players -------------------------------------------------------

#[tokio::test]
async fn three_kingdoms_seats_a_stand_in_for_an_absent_player() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s
        .room(json!({"game": "three-kingdoms", "seed": 11, "botDelayMs": 50, "turnSeconds": 1, "holdSeconds": 600}))
        .await;
    let mut a = s.client(&room).await;
    let token = a.join("alice").await;
    for _ in 0..3 {
        a.send(json!({"type": "AddBot", "bot": "easy"})).await;
    }
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut watcher = s.client(&room).await;
    watcher.sync().await;
    drop(a);
    // Alice is gone: after her turn timer (1 s) a stand-in plays her seat, with the alert.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut alerted = false;
    while Instant::now() < deadline && !alerted {
        if let Some(p) = watcher.next(500).await {
            alerted = p["type"] == "ShowAlert" && p["text"].as_str().unwrap_or_default().contains("alice");
        }
    }
    assert!(alerted, "no stand-in alert for alice");
    // From then on her decisions are answered at the bots' pace, not after a turn timer each.
    let mut waits = Vec::new();
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        let Some(p) = watcher.next(500).await else { continue };
        if p["type"] != "GameDataSync" {
            continue;
        }
        for w in p["gameData"]["waitingOn"].as_array().into_iter().flatten() {
            if w["username"] == "alice"
                && let Some(ms) = w["msLeft"].as_u64()
            {
                waits.push(ms);
            }
        }
    }
    assert!(!waits.is_empty(), "alice's seat was never waited on");
    assert!(waits.iter().all(|&ms| ms <= 100), "alice's seat waits like a bot's: {waits:?}");
    // She comes back: the seat is hers again, nobody plays it for her.
    let mut a = s.client(&room).await;
    a.send(json!({"type": "Reconnect", "token": token})).await;
    a.expect("Joined").await;
    let d = a.sync().await;
    for w in d["waitingOn"].as_array().into_iter().flatten() {
        if w["username"] == "alice" {
            assert!(w["msLeft"].as_u64().is_none_or(|ms| ms > 100), "a stand-in still plays alice: {w}");
        }
    }
    s.stop().await;
}

// ---- 5. chat text --------------------------------------------------------------------------

#[tokio::test]
async fn chat_refuses_unbalanced_direction_controls_and_line_separators() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.sync().await;
    for bad in ["\u{202E}gnp.exe", "hi\u{2066}", "a\u{2028}[server] you won", "b\u{2029}c", "\u{202C}x", "\u{2069}y"] {
        a.send(json!({"type": "SendNewChatMessage", "message": bad})).await;
        let got = a.drain(200).await;
        assert_eq!(failures(&got), ["bad_message"], "{bad:?} was accepted: {got:?}");
    }
    // Balanced, they say nothing false about the text around them.
    a.send(json!({"type": "SendNewChatMessage", "message": "quote: \u{2067}שלום\u{2069} ok"})).await;
    let got = a.drain(200).await;
    assert!(got.iter().any(|p| p["type"] == "NewChatMessageSent"), "{got:?}");
    s.stop().await;
}

// ---- 6. one address, every descriptor ------------------------------------------------------

#[tokio::test]
async fn slow_connections_from_one_loopback_address_leave_the_health_check_alone() {
    let mut config = plain_config();
    config.limits.conns = 100;
    let s = Server::start_with(config).await;
    let addr: std::net::SocketAddr = s.addr.parse().unwrap();
    let mut held = Vec::new();
    for _ in 0..150 {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        if let Ok(c) = sock.connect(addr).await {
            held.push(c);
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Another client (another loopback address) still gets its answer.
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let mut c = sock.connect(addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    c.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut answer = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), c.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "health answered: {answer}");
    drop(held);
    s.stop().await;
}

/// Many addresses together fill the global cap (each within its own per-address cap): a health
/// check must still be answered, from a lane kept for it; anything else in that lane is told
/// the server is full.
#[tokio::test]
async fn when_many_addresses_fill_every_connection_slot_the_health_check_is_still_answered() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut config = plain_config();
    config.limits.conns = 40;
    config.limits.conns_per_addr = 8;
    let s = Server::start_with(config).await;
    let addr: std::net::SocketAddr = s.addr.parse().unwrap();
    let connect_from = |ip: &str| {
        let ip: std::net::SocketAddr = format!("{ip}:0").parse().unwrap();
        async move {
            let sock = tokio::net::TcpSocket::new_v4().unwrap();
            sock.bind(ip).unwrap();
            sock.connect(addr).await
        }
    };
    // Six addresses, eight slow connections each (they send nothing): 48 against a cap of 40.
    let mut held = Vec::new();
    for a in 10..16 {
        for _ in 0..8 {
            if let Ok(c) = connect_from(&format!("127.0.0.{a}")).await {
                held.push(c);
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let ask = |from: String, path: &'static str| {
        let connect = connect_from(&from);
        async move {
            let mut c = connect.await.unwrap();
            let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let _ = c.write_all(req.as_bytes()).await;
            let mut answer = String::new();
            let _ = tokio::time::timeout(Duration::from_secs(5), c.read_to_string(&mut answer)).await;
            answer
        }
    };
    // The cap is full: an ordinary request from a new address is refused ...
    let other = ask("127.0.0.40".into(), "/api/rooms").await;
    assert!(other.starts_with("HTTP/1.1 503"), "the server is full: {other}");
    assert!(other.contains("connection limit"), "{other}");
    // ... but health checks are answered, one after another.
    for i in 0..5 {
        let health = ask(format!("127.0.0.{}", 50 + i), "/api/health").await;
        assert!(health.starts_with("HTTP/1.1 200"), "health answered while full (try {i}): {health}");
        assert!(health.contains("\"status\":\"ok\""), "{health}");
    }
    drop(held);
    s.stop().await;
}

/// `POST /api/rooms` (a Buckshot room) with `X-Forwarded-For: {xff}`, on a connection of its
/// own; the answer's status.
async fn post_room_forwarded(addr: &str, xff: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut t = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = r#"{"game":"buckshot"}"#;
    let req = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nX-Forwarded-For: {xff}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    t.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    t.read_to_string(&mut out).await.unwrap();
    out[9..12].parse::<u16>().unwrap()
}

#[tokio::test]
async fn loopback_is_capped_per_address_like_any_client_and_a_forwarded_header_is_ignored() {
    let mut config = plain_config();
    config.limits.rooms_per_addr = 2;
    let s = Server::start_with(config).await;
    let post = |xff: &'static str| post_room_forwarded(&s.addr, xff);
    assert_eq!(post("10.0.0.1").await, 201);
    assert_eq!(post("10.0.0.2").await, 201);
    // Not a trusted proxy: the header is the client's word, and the client is 127.0.0.1.
    assert_eq!(post("10.0.0.3").await, 429);
    s.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_client_is_counted() {
    let mut config = plain_config();
    config.limits.rooms_per_addr = 2;
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let s = Server::start_with(config).await;
    let post = |xff: &'static str| post_room_forwarded(&s.addr, xff);
    assert_eq!(post("10.0.0.1").await, 201);
    assert_eq!(post("10.0.0.1").await, 201);
    assert_eq!(post("10.0.0.1").await, 429, "the forwarded client is over its share");
    // The client's own claims before the last hop are not believed.
    assert_eq!(post("10.0.0.2, 10.0.0.1").await, 429);
    assert_eq!(post("10.0.0.2").await, 201, "another client behind the same proxy is not");
    s.stop().await;
}

/// The serial is the log's: a room rebuilt from the store (a restart here; another node taking
/// the room over in a cluster) refuses a move resent with the serial it was first sent with.
#[tokio::test]
async fn a_move_resent_after_the_room_is_restored_is_stale() {
    let store = store::Store::memory().unwrap();
    let s = Server::fast(store.clone()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 9, "botDelayMs": 60_000})).await;
    let mut a = s.client(&room).await;
    let ta = a.join("alice").await;
    let mut b = s.client(&room).await;
    let tb = b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let (da, db) = (a.sync().await, b.sync().await);
    let alice_moves = !da["legal"].as_array().unwrap().is_empty();
    let (token, d) = if alice_moves { (ta, da) } else { (tb, db) };
    let act = json!({"type": "Act", "action": d["legal"][0], "serial": d["serial"]});
    let mover = if alice_moves { &mut a } else { &mut b };
    mover.send(act.clone()).await;
    assert!(failures(&mover.drain(300).await).is_empty());
    drop((a, b));
    s.stop().await;
    // The same store, a new server: the room comes back by replaying its log.
    let s = Server::fast(store).await;
    let mut c = s.client(&room).await;
    c.send(json!({"type": "Reconnect", "token": token})).await;
    c.expect("Joined").await;
    let now = c.sync().await;
    assert_eq!(now["serial"], d["serial"].as_u64().unwrap() + 1, "the restored table counts the move");
    c.send(act).await;
    assert_eq!(failures(&c.drain(300).await), ["stale_action"], "the resent move is refused");
    assert_eq!(c.sync().await["serial"], now["serial"], "and not played again");
    s.stop().await;
}
