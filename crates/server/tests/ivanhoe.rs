//! Ivanhoe in a room, over real WebSockets on 127.0.0.1: the generic `Act` packets, a whole
//! game of one person (who always takes the first action of `legal`) against bots, two people
//! whose syncs and events never show each other's hands, a spectator, bad packets, and the
//! reaction window's clock passing for a person who says nothing.

use serde_json::{Value, json};

use crate::common;
use common::{Client, Server};

const STEPS: usize = 4000;

fn legal(d: &Value) -> Vec<Value> {
    d["legal"].as_array().cloned().unwrap_or_default()
}

/// Checks what `d` (a sync for `me`, or for a spectator when `me` is None) shows: its own hand
/// only, and nobody else's.
fn check_hidden(d: &Value, me: Option<&str>) {
    let view = &d["view"];
    let seats: Vec<String> = d["seats"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    match me {
        Some(me) => {
            let seat = seats.iter().position(|s| s == me).unwrap();
            let hand = view["hand"].as_array().expect("a seated player sees their hand");
            assert_eq!(hand.len() as u64, view["players"][seat]["hand_count"].as_u64().unwrap());
            let mine = d["players"].as_array().unwrap().iter().find(|p| p["username"] == me).unwrap();
            assert_eq!(mine["handCount"], view["players"][seat]["hand_count"]);
        }
        None => {
            assert!(view["hand"].is_null(), "a spectator sees no hand");
            assert!(d.get("legal").is_none(), "a spectator has no legal actions");
        }
    }
    // No other field anywhere carries a hand.
    fn walk(v: &Value, path: &str) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let p = format!("{path}.{k}");
                    if k == "hand" {
                        assert_eq!(p, ".view.hand", "a hand outside view.hand");
                    }
                    walk(x, &p);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, path)),
            _ => {}
        }
    }
    walk(d, "");
}

/// An event another seat's client must not read a card from.
fn check_event(e: &Value, my_seat: Option<u64>) {
    let ev = &e["event"];
    assert!(ev["text"].is_string(), "every event has a log line: {ev}");
    match ev["type"].as_str().unwrap() {
        "Drew" if ev["seat"].as_u64() != my_seat => assert!(ev["card"].is_null(), "saw another's draw: {ev}"),
        "Took" if ev["seat"].as_u64() != my_seat && ev["from"].as_u64() != my_seat => {
            assert!(ev["card"].is_null(), "saw a card taken by others: {ev}")
        }
        _ => {}
    }
}

/// Plays for every client (each always takes the first legal action) until the game ends;
/// checks each sync and event on the way. Returns the GameEnded packet and whether a person was
/// asked about an action card.
async fn play_to_the_end(clients: &mut [(&str, &mut Client)], spectator: Option<&mut Client>) -> (Value, bool) {
    let mut spectator = spectator;
    let mut seen_window = false;
    for _ in 0..STEPS {
        for (name, c) in clients.iter_mut() {
            let d = c.sync().await;
            if let Some(end) = c.seen.iter().rev().find(|p| p["type"] == "GameEnded") {
                return (end.clone(), seen_window);
            }
            assert_eq!(d["gameStarted"], true, "{name}: the game is running");
            check_hidden(&d, Some(name));
            let seat = d["seats"].as_array().unwrap().iter().position(|s| s == *name).map(|s| s as u64);
            for e in c.seen.iter().filter(|p| p["type"] == "GameEvent") {
                check_event(e, seat);
            }
            c.seen.retain(|p| p["type"] != "GameEvent");
            if d["phase"] == "window"
                && let Some(w) = d["waitingOn"].as_array().unwrap().iter().find(|w| w["username"] == *name)
            {
                // A person asked about an action card has a running clock.
                let left = w["msLeft"].as_u64().expect("a reaction window has a clock");
                assert!(left <= 15_000, "{left}");
                seen_window = true;
            }
            if let Some(a) = legal(&d).first() {
                c.send(json!({"type": "Act", "action": a})).await;
            }
            let failed: Vec<&Value> = c.seen.iter().filter(|p| p["type"] == "ActionFailed").collect();
            assert!(failed.is_empty(), "{name}: {failed:?}");
        }
        if let Some(s) = spectator.as_deref_mut() {
            let d = s.sync().await;
            if d["gameStarted"] == true {
                check_hidden(&d, None);
            }
            for e in s.seen.iter().filter(|p| p["type"] == "GameEvent") {
                check_event(e, None);
            }
            s.seen.retain(|p| p["type"] != "GameEvent");
        }
    }
    panic!("the game did not end in {STEPS} steps (window seen: {seen_window})");
}

#[tokio::test]
async fn one_person_and_bots_play_to_the_end() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 7, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let d = a.sync().await;
    assert_eq!(
        (d["game"].as_str(), d["minPlayers"].as_u64(), d["maxPlayers"].as_u64()),
        (Some("ivanhoe"), Some(2), Some(5))
    );
    assert_eq!(d["bots"], json!(["random", "heuristic"]));
    for _ in 0..2 {
        a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    }
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let d = a.sync().await;
    assert_eq!(d["seats"], json!(["alice", "bot-ana", "bot-ben"]));
    assert_eq!(d["view"]["hand"].as_array().unwrap().len(), 8 + usize::from(d["currentTurn"] == "alice"));
    let (end, asked) = play_to_the_end(&mut [("alice", &mut a)], None).await;
    assert!(asked, "alice was asked about an action card, with a clock");
    assert!(end["winner"].is_string() || end["winner"].is_null());
    let d = a.sync().await;
    assert_eq!(d["gameStarted"], false);
    assert!(d.get("view").is_none());
    s.stop().await;
}

#[tokio::test]
async fn two_people_never_see_each_others_hands() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 21, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    a.send(json!({"type": "AddBot", "bot": "random"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut watcher = s.client(&room).await;
    watcher.join("carol").await;
    let (end, _) = play_to_the_end(&mut [("alice", &mut a), ("bob", &mut b)], Some(&mut watcher)).await;
    assert_eq!(end["type"], "GameEnded");
    s.stop().await;
}

#[tokio::test]
async fn bad_ivanhoe_packets_get_clear_errors() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 3, "botDelayMs": 5})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    for (packet, code) in [
        (json!({"type": "Act", "action": {"type": "Fly"}}), "bad_packet"),
        (json!({"type": "Act", "action": {"type": "Play", "card": "R9"}}), "bad_packet"),
        (json!({"type": "Act", "action": {"type": "KnockDown", "target": 7}}), "unknown_player"),
        (json!({"type": "Act"}), "bad_packet"),
    ] {
        a.drain(30).await;
        a.send(packet.clone()).await;
        let f = a.expect("ActionFailed").await;
        assert_eq!(f["code"], code, "{packet} -> {f}");
    }
    // A legal-looking action out of turn or out of phase is refused by the rules, the game goes on.
    let d = a.sync().await;
    let hand = d["view"]["hand"].as_array().unwrap();
    if d["currentTurn"] != "alice" && d["phase"] != "window" {
        a.send(json!({"type": "Act", "action": {"type": "Play", "card": hand[0]}})).await;
        assert!(a.drain(100).await.iter().all(|p| p["type"] != "ActionFailed" || p["code"] != "bad_packet"));
    }
    s.stop().await;
}
