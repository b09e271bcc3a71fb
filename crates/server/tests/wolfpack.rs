//! Wolf Pack in a room, over real WebSockets on 127.0.0.1: pilots (people and bots) against
//! the house's Ace, which sits in a seat of its own no person can take; a pilot's unconfirmed
//! selection never reaches another client; reconnecting keeps the seat and the selection.

use serde_json::{Value, json};

use crate::common;
use common::{Client, Server};

const STEPS: usize = 6000;

fn legal(d: &Value) -> Vec<Value> {
    d["legal"].as_array().cloned().unwrap_or_default()
}

fn seat_of(d: &Value, name: &str) -> usize {
    d["seats"].as_array().unwrap().iter().position(|s| s == name).unwrap()
}

/// What `d` (a sync for `me`) shows: no other pilot's choice before the reveal, and never the
/// Ace's hand (pilots' hands are open among the pilots: the game is co-operative).
fn check_hidden(d: &Value, me: &str) {
    let mine = seat_of(d, me);
    for (i, p) in d["view"]["pilots"].as_array().unwrap().iter().enumerate() {
        if i != mine && (p["confirmed"] != true || d["view"]["phase"] == "Selection") {
            assert!(p["choice"].is_null(), "{me} sees pilot {i}'s choice: {p}");
        }
    }
    assert!(d["view"]["ace"]["hand"].is_null(), "{me} sees the Ace's hand");
}

async fn play_to_the_end(clients: &mut [(&str, &mut Client)]) -> Value {
    for _ in 0..STEPS {
        for (name, c) in clients.iter_mut() {
            let d = c.sync().await;
            if let Some(end) = c.seen.iter().rev().find(|p| p["type"] == "GameEnded") {
                return end.clone();
            }
            check_hidden(&d, name);
            for e in c.seen.iter().filter(|p| p["type"] == "GameEvent") {
                assert!(e["event"]["text"].is_string(), "{e}");
            }
            c.seen.retain(|p| p["type"] != "GameEvent");
            // Lock choices in (a `Select` with `confirm: false` would keep the pilot choosing).
            let l = legal(&d);
            let pick = l.iter().find(|a| a["confirm"] == true || a["type"] == "Confirm").or(l.first());
            if let Some(a) = pick {
                c.send(json!({"type": "Act", "action": a})).await;
            }
            let failed: Vec<&Value> = c.seen.iter().filter(|p| p["type"] == "ActionFailed").collect();
            assert!(failed.is_empty(), "{name}: {failed:?}");
        }
    }
    panic!("the fight did not end in {STEPS} steps");
}

async fn two_pilots_and_a_bot(seed: u64) -> (Server, Client, Client, String, String) {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room =
        s.room(json!({"game": "wolfpack", "seed": seed, "botDelayMs": 2, "gameOptions": {"ace": "veteran"}})).await;
    let mut a = s.client(&room).await;
    let ta = a.join("alice").await;
    let mut b = s.client(&room).await;
    let tb = b.join("bob").await;
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    (s, a, b, ta, tb)
}

#[tokio::test]
async fn two_people_and_a_bot_fight_the_ace_to_the_end() {
    let (s, mut a, mut b, _, _) = two_pilots_and_a_bot(5).await;
    let d = a.sync().await;
    assert_eq!(d["game"], "wolfpack");
    assert_eq!(d["seats"].as_array().unwrap().len(), 4, "three pilots and the Ace: {}", d["seats"]);
    assert_eq!(d["seats"][3], "the Ace");
    assert_eq!(d["view"]["ace"]["tier"], "veteran");
    let end = play_to_the_end(&mut [("alice", &mut a), ("bob", &mut b)]).await;
    assert_eq!(end["type"], "GameEnded");
    s.stop().await;
}

#[tokio::test]
async fn an_unconfirmed_selection_stays_private_and_survives_a_reconnect() {
    let (s, mut a, mut b, ta, _) = two_pilots_and_a_bot(9).await;
    let d = a.sync().await;
    assert_eq!(d["view"]["phase"], "Selection", "{}", d["view"]);
    let pick = legal(&d)
        .into_iter()
        .find(|x| x["type"] == "Select")
        .map(|mut x| {
            x["confirm"] = json!(false);
            x
        })
        .expect("alice can select");
    b.drain(50).await;
    a.send(json!({"type": "Act", "action": pick})).await;
    let d = a.sync().await;
    let me = seat_of(&d, "alice");
    assert!(!d["view"]["pilots"][me]["choice"].is_null(), "alice sees her own choice");
    assert_eq!(d["view"]["pilots"][me]["confirmed"], false);
    let seen_by_bob = b.drain(100).await;
    let text = serde_json::to_string(&seen_by_bob).unwrap();
    let db = b.sync().await;
    check_hidden(&db, "bob");
    assert!(db["view"]["pilots"][me]["choice"].is_null(), "bob's view shows no choice of alice's");
    for p in &seen_by_bob {
        if p["type"] == "GameEvent" && p["event"]["seat"] == me {
            assert!(p["event"]["choice"].is_null(), "an event told bob alice's choice: {text}");
        }
    }
    // Alice drops and comes back: same seat, same (unconfirmed) choice.
    let choice = d["view"]["pilots"][me]["choice"].clone();
    drop(a);
    let mut a2 = s.client(&s_room(&d)).await;
    a2.send(json!({"type": "Reconnect", "token": ta})).await;
    a2.expect("Joined").await;
    let d2 = a2.sync().await;
    assert_eq!(seat_of(&d2, "alice"), me);
    assert_eq!(d2["view"]["pilots"][me]["choice"], choice);
    assert_eq!(d2["view"]["pilots"][me]["confirmed"], false);
    s.stop().await;
}

fn s_room(d: &Value) -> String {
    d["roomId"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_confirm_delay_is_a_range_checked_room_option() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    for bad in [json!(60_001), json!(-1), json!(1.5), json!("fast"), json!([2000])] {
        let body = json!({"game": "wolfpack", "gameOptions": {"confirmDelayMs": bad}});
        let (st, v) = common::http(&s.addr, "POST", "/api/rooms", Some(body.clone())).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap_or_default().contains("confirmDelayMs"), "{body}: {v}");
    }
    for ok in [json!(0), json!(60_000), json!(null)] {
        let body = json!({"game": "wolfpack", "gameOptions": {"confirmDelayMs": ok, "ace": "veteran"}});
        let (st, v) = common::http(&s.addr, "POST", "/api/rooms", Some(body.clone())).await;
        assert_eq!(st, 201, "{body}: {v}");
    }
    s.stop().await;
}

/// One pilot alone against the Ace, who confirms its card and then waits at the host's
/// confirm step: the room proceeds for them after `confirmDelayMs` (and not before). Returns
/// the time from the pilot's confirm to the `Proceeded` event, if one came within `wait_ms`.
async fn host_proceeds_after(options: Value, wait_ms: u64) -> Option<std::time::Duration> {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "wolfpack", "seed": 3, "botDelayMs": 0, "gameOptions": options})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let d = a.sync().await;
    assert_eq!(d["view"]["phase"], "Selection");
    let pick = legal(&d).into_iter().find(|x| x["confirm"] == true).expect("alice can lock a card in");
    a.send(json!({"type": "Act", "action": pick})).await;
    let sent = std::time::Instant::now();
    let deadline = sent + std::time::Duration::from_millis(wait_ms);
    let mut confirm_phase = false;
    while std::time::Instant::now() < deadline {
        let Some(p) = a.next(50).await else { continue };
        if p["type"] == "GameEvent" && p["event"]["type"] == "Transition" && p["event"]["phase"] == "Confirm" {
            confirm_phase = true;
        }
        if p["type"] == "GameEvent" && p["event"]["type"] == "Proceeded" {
            assert_eq!(p["event"]["seat"], 0, "the host proceeded: {p}");
            s.stop().await;
            return Some(sent.elapsed());
        }
    }
    assert!(confirm_phase, "the fight reached the host's confirm step");
    s.stop().await;
    None
}

#[tokio::test]
async fn the_host_confirm_step_proceeds_after_the_rooms_delay() {
    let quick = host_proceeds_after(json!({"confirmDelayMs": 300}), 3_000).await.expect("proceeded after 300 ms");
    assert!(quick >= std::time::Duration::from_millis(300), "not before the delay: {quick:?}");
    let at_once = host_proceeds_after(json!({"confirmDelayMs": 0}), 3_000).await.expect("proceeded at once");
    assert!(at_once < quick, "0 ms is quicker than 300 ms: {at_once:?} vs {quick:?}");
    // The default (2 s) has not run out after 700 ms.
    assert_eq!(host_proceeds_after(json!({}), 700).await, None, "the default delay is longer than 700 ms");
}

/// Issue 26 item 11, the repro (room seed 9): h0 and h1 fly, the room's host is handed
/// to h1. The rules' host, who hands the turn over, is the lead pilot, the lowest seat still
/// flying (docs/rules/wolfpack.md, "who the host is"), not the room's host: only h0 (seat 0)
/// is offered `Proceed`, and h1's is refused `not_host` with a reason that says who may.
#[tokio::test]
async fn the_lead_pilot_not_the_rooms_host_hands_the_turn_over() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room =
        s.room(json!({"game": "wolfpack", "seed": 9, "botDelayMs": 0, "gameOptions": {"confirmDelayMs": 60000}})).await;
    let mut h0 = s.client(&room).await;
    h0.join("h0").await;
    let mut h1 = s.client(&room).await;
    h1.join("h1").await;
    h0.send(json!({"type": "SetHost", "username": "h1"})).await;
    h1.send(json!({"type": "StartGame"})).await;
    h1.expect("GameStarted").await;
    for c in [&mut h0, &mut h1] {
        let d = c.sync().await;
        assert_eq!(d["host"], "h1", "the room's host");
        let pick = legal(&d).into_iter().find(|x| x["confirm"] == true).expect("a card to lock in");
        c.send(json!({"type": "Act", "action": pick})).await;
    }
    // Both confirmed: the pilots' Confirm step waits for the lead pilot (seat 0, h0).
    let mut d0 = h0.sync().await;
    for _ in 0..50 {
        if d0["view"]["phase"] == "Confirm" {
            break;
        }
        d0 = h0.sync().await;
    }
    assert_eq!(d0["view"]["phase"], "Confirm", "{d0}");
    assert_eq!(d0["view"]["host"], 0, "the lead pilot");
    assert!(legal(&d0).iter().any(|a| a["type"] == "Proceed"), "h0 leads: {:?}", legal(&d0));
    let d1 = h1.sync().await;
    assert!(legal(&d1).is_empty(), "h1, the room's host, is not offered Proceed: {:?}", legal(&d1));
    h1.seen.clear();
    h1.send(json!({"type": "Act", "action": {"type": "Proceed"}})).await;
    let refused = h1.expect("ActionFailed").await;
    assert_eq!(refused["code"], "not_host", "{refused}");
    assert!(refused["reason"].as_str().unwrap().contains("lead pilot"), "{refused}");
    s.stop().await;
}

/// A table as its viewer compares it over time: everything but the clocks' countdowns.
fn without_countdowns(d: &Value) -> Value {
    let mut d = d.clone();
    for w in d["waitingOn"].as_array_mut().into_iter().flatten() {
        w["msLeft"] = Value::Null;
    }
    d
}

/// Everything `c` receives besides the answer to a `GameDataRequest`, and that answer (its last
/// table). The request is followed by a packet of an unknown type, whose `bad_packet` refusal
/// marks the end: the room answers a connection's packets in order.
async fn up_to_the_sync(c: &mut Client) -> (Vec<Value>, Value) {
    c.send(json!({"type": "GameDataRequest"})).await;
    c.send(json!({"type": "EndOfTest46"})).await;
    let mut got = Vec::new();
    loop {
        let p = c.next(5_000).await.expect("the unknown packet is refused");
        if p["type"] == "ActionFailed" && p["code"] == "bad_packet" {
            break;
        }
        got.push(p);
    }
    // The last table is the answer; anything else (an earlier table, an event) was sent unasked.
    let answer = got.iter().rposition(|p| p["type"] == "GameDataSync").expect("a table answers the request");
    let table = got.remove(answer)["gameData"].clone();
    (got, table)
}

/// Issue 46: while pilots pick in secret, a pilot changing an unconfirmed choice changes no
/// field of the table another pilot, the Ace or a spectator is shown — not even its `serial` —
/// and sends them nothing at all (so they cannot count a pilot's changes of mind). The mover's
/// own table moves on, and a move it resends, or sends from a table it has moved past, is still
/// refused as stale.
#[tokio::test]
async fn changing_an_unconfirmed_choice_shows_the_others_nothing() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "wolfpack", "seed": 9, "gameOptions": {"ace": "veteran"}})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    // A spectator, who joins while the fight runs.
    let mut w = s.client(&room).await;
    w.join("wendy").await;
    let d = a.sync().await;
    assert_eq!(d["view"]["phase"], "Selection", "{}", d["view"]);
    let (bob_before, watcher_before) = (b.sync().await, w.sync().await);
    assert_eq!(watcher_before["you"], "wendy");
    assert!(watcher_before["legal"].is_null(), "wendy watches: {watcher_before}");
    let picks: Vec<Value> = legal(&d)
        .into_iter()
        .filter(|x| x["confirm"] == false && (x["type"] == "Select" || x["type"] == "Discard"))
        .take(3)
        .collect();
    assert!(picks.len() >= 2, "alice has choices to change between: {:?}", legal(&d));
    // Alice changes her mind, each time from the table she was shown.
    let mut serials = vec![d["serial"].clone()];
    for p in &picks {
        a.send(json!({"type": "Act", "action": p, "serial": serials.last().unwrap()})).await;
        let mine = a.expect("GameDataSync").await["gameData"].clone();
        assert_ne!(&mine["serial"], serials.last().unwrap(), "her own table moves on: {mine}");
        serials.push(mine["serial"].clone());
    }
    // The same move sent again, and a move from a table she has moved past: both refused.
    let last = picks.len() - 1;
    a.send(json!({"type": "Act", "action": picks[last], "serial": serials[last]})).await;
    assert_eq!(a.expect("ActionFailed").await["code"], "stale_action");
    a.send(json!({"type": "Act", "action": picks[0], "serial": serials[0]})).await;
    assert_eq!(a.expect("ActionFailed").await["code"], "stale_action");
    let d = a.sync().await;
    assert_eq!(&d["serial"], serials.last().unwrap(), "nothing more was played");
    let me = seat_of(&d, "alice");
    assert!(!d["view"]["pilots"][me]["choice"].is_null(), "alice sees her choice");
    // Bob and the watcher were sent nothing, and their tables are field for field as before.
    for (who, c, before) in [("bob", &mut b, &bob_before), ("wendy", &mut w, &watcher_before)] {
        let (sent, now) = up_to_the_sync(c).await;
        assert!(sent.is_empty(), "{who} was sent packets while alice changed her mind: {sent:?}");
        assert_eq!(without_countdowns(&now), without_countdowns(before), "{who}'s table changed");
    }
    // Bob's move, from the table he was shown all along, is not stale.
    let bob_pick = legal(&bob_before).into_iter().find(|x| x["confirm"] == true).expect("bob can lock in");
    b.send(json!({"type": "Act", "action": bob_pick, "serial": bob_before["serial"]})).await;
    let (sent, now) = up_to_the_sync(&mut b).await;
    assert!(sent.iter().all(|p| p["type"] != "ActionFailed"), "{sent:?}");
    assert_eq!(now["view"]["pilots"][seat_of(&now, "bob")]["confirmed"], true, "{}", now["view"]);
    // Everyone sees that bob confirmed (a public change), alice's choice still hidden.
    let (_, watched) = up_to_the_sync(&mut w).await;
    assert_ne!(watched["serial"], watcher_before["serial"]);
    assert!(watched["view"]["pilots"][me]["choice"].is_null());
    s.stop().await;
}
