//! Three Kingdoms in a room, over real WebSockets on 127.0.0.1: people and bots play to the
//! end; no packet tells a seat another's hand, drawn cards or unrevealed role; a silent seat's
//! response window passes when its clock runs out; a room comes back after the server stops
//! without warning.

use serde_json::{Value, json};
use std::time::{Duration, Instant};

use crate::common;
use common::{Client, Server};

const STEPS: usize = 20_000;

fn legal(d: &Value) -> Vec<Value> {
    d["legal"].as_array().cloned().unwrap_or_default()
}

fn my_seat(d: &Value) -> Option<u64> {
    d["view"]["viewer"].as_u64()
}

/// The table now, quickly: what is queued is dropped, then a fresh sync is asked for.
async fn sync(c: &mut Client) -> Value {
    c.drain(3).await;
    c.send(json!({"type": "GameDataRequest"})).await;
    c.expect("GameDataSync").await["gameData"].clone()
}

/// What a sync shows `me` (None: a spectator): no hand but its own, no living seat's role but
/// the Lord's and its own.
fn check_sync(d: &Value) {
    let me = my_seat(d);
    let view = &d["view"];
    if view.is_null() {
        return;
    }
    if me.is_none() {
        assert!(view["hand"].as_array().unwrap().is_empty(), "a spectator sees a hand");
        assert!(view["candidates"].as_array().unwrap().is_empty());
    }
    let over = view["step"].get("Over").is_some();
    for (i, p) in view["players"].as_array().unwrap().iter().enumerate() {
        let mine = me == Some(i as u64);
        if !mine && p["alive"] == true && !over && !p["role"].is_null() {
            assert_eq!(p["role"], "Lord", "seat {me:?} sees living seat {i}'s role: {p}");
        }
        assert!(p.get("hand").is_none(), "a view lists a player's hand: {p}");
    }
    for (i, p) in d["players"].as_array().unwrap().iter().enumerate() {
        if !p["role"].is_null() && p["alive"] == true && p["role"] != "Lord" && !over {
            // `players` is public: only revealed roles.
            panic!("players[{i}] shows a hidden role: {p}");
        }
    }
}

/// What an event shows the seat `me`: only its own drawn, dealt and looked-at cards, and
/// only moves it takes part in.
fn check_event(p: &Value, me: Option<u64>) {
    let e = &p["event"];
    assert!(e["text"].is_string(), "{e}");
    let seat = e["seat"].as_u64();
    let empty = |k: &str| e[k].as_array().is_none_or(|a| a.is_empty());
    match e["type"].as_str().unwrap() {
        "Drew" | "Dealt" | "Looked" if seat != me => assert!(empty("cards"), "{me:?} saw {e}"),
        "Moved" if e["public"] == false && e["from"].as_u64() != me && e["to"].as_u64() != me => {
            assert!(e["card"].is_null(), "{me:?} saw a face-down move: {e}")
        }
        "GeneralChosen" => {}
        _ => {}
    }
}

/// A seat's pick: in the Play phase its first use of a card that harms others (so games end),
/// else ends the phase; an answer with a card when it has one; else the first legal action.
fn pick(d: &Value) -> Option<Value> {
    let l = legal(d);
    let harmful = ["Attack", "Duel", "Barbarians", "RainArrows", "Dismantle", "Lightning", "Acedia"];
    l.iter()
        .find(|a| a["type"] == "Use" && harmful.iter().any(|k| a["kind"] == *k))
        .or_else(|| l.iter().find(|a| a["type"] == "EndPlay"))
        .or_else(|| l.iter().find(|a| a["type"] == "Respond"))
        .or_else(|| l.first())
        .cloned()
}

/// Plays for each client until the game ends, checking every packet on the way.
async fn play_to_the_end(clients: &mut [&mut Client], mut spectator: Option<&mut Client>) -> Value {
    for _ in 0..STEPS {
        for c in clients.iter_mut() {
            let d = sync(c).await;
            let me = my_seat(&d);
            for p in &c.seen {
                match p["type"].as_str() {
                    Some("GameDataSync") => check_sync(&p["gameData"]),
                    Some("GameEvent") => check_event(p, me),
                    Some("ActionFailed") => panic!("{me:?}: {p}"),
                    _ => {}
                }
            }
            if let Some(end) = c.seen.iter().find(|p| p["type"] == "GameEnded").cloned() {
                return end;
            }
            c.seen.clear();
            if let Some(a) = pick(&d) {
                c.send(json!({"type": "Act", "action": a})).await;
            }
        }
        if let Some(s) = spectator.as_deref_mut() {
            s.drain(1).await;
            for p in &s.seen {
                match p["type"].as_str() {
                    Some("GameDataSync") => check_sync(&p["gameData"]),
                    Some("GameEvent") => check_event(p, None),
                    _ => {}
                }
            }
            s.seen.clear();
        }
    }
    panic!("the game did not end in {STEPS} steps");
}

#[tokio::test]
async fn two_people_and_three_bots_play_to_the_end_and_see_nothing_hidden() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "three-kingdoms", "seed": 11, "botDelayMs": 1})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    for bot in ["random", "heuristic", "seed"] {
        a.send(json!({"type": "AddBot", "bot": bot})).await;
    }
    let d = sync(&mut a).await;
    assert_eq!((d["minPlayers"].as_u64(), d["maxPlayers"].as_u64()), (Some(4), Some(10)));
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut watcher = s.client(&room).await;
    watcher.join("carol").await;
    let d = sync(&mut a).await;
    assert_eq!(d["seats"].as_array().unwrap().len(), 5);
    assert!(d["view"]["hand"].as_array().unwrap().is_empty(), "cards are dealt after the generals");
    let lord = d["view"]["players"].as_array().unwrap().iter().position(|p| p["role"] == "Lord");
    assert!(lord.is_some(), "the Lord is public at once: {}", d["view"]);
    let start = Instant::now();
    let end = play_to_the_end(&mut [&mut a, &mut b], Some(&mut watcher)).await;
    eprintln!("the game took {:?}", start.elapsed());
    assert_eq!(end["type"], "GameEnded");
    let d = sync(&mut a).await;
    assert_eq!(d["gameStarted"], false);
    s.stop().await;
}

#[tokio::test]
async fn a_silent_seat_passes_when_its_response_clock_runs_out() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s
        .room(json!({"game": "three-kingdoms", "seed": 4, "botDelayMs": 1, "gameOptions": {"responseSeconds": 1}}))
        .await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    for _ in 0..3 {
        a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    }
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut asked = None;
    for _ in 0..STEPS {
        let d = sync(&mut a).await;
        assert_eq!(d["gameStarted"], true, "the game ended before alice was asked");
        if d["view"]["waiting"].get("Ask").is_some_and(|w| w["seat"] == d["view"]["viewer"]) {
            asked = Some(d);
            break;
        }
        if let Some(act) = pick(&d) {
            a.send(json!({"type": "Act", "action": act})).await;
        }
    }
    let d = asked.expect("alice was asked to respond");
    let me = my_seat(&d).unwrap();
    assert!(legal(&d).contains(&json!({"type": "Pass"})));
    let w = d["waitingOn"].as_array().unwrap().iter().find(|w| w["username"] == "alice").unwrap().clone();
    assert!(w["msLeft"].as_u64().is_some_and(|ms| ms <= 1_000), "a 1 s clock: {w}");
    let waiting = d["view"]["waiting"].clone();
    let request = d["view"]["request"].clone();
    // Alice says nothing: the server answers Pass for her when the clock runs out.
    let start = Instant::now();
    loop {
        assert!(start.elapsed() < Duration::from_secs(10), "no pass for alice");
        tokio::time::sleep(Duration::from_millis(100)).await;
        let d = sync(&mut a).await;
        if d["view"]["waiting"] != waiting || d["view"]["request"] != request || d["gameStarted"] != true {
            break;
        }
    }
    assert!(start.elapsed() >= Duration::from_millis(500), "the clock ran {:?}", start.elapsed());
    eprintln!("alice (seat {me}) was passed for after {:?}", start.elapsed());
    s.stop().await;
}

#[tokio::test]
async fn a_room_comes_back_after_the_server_stops_without_warning() {
    let dir = std::env::temp_dir().join(format!("cardtable-tk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("restart.db");
    let _ = std::fs::remove_file(&db);
    let s = Server::fast(store::Store::open(&db).unwrap()).await;
    let room = s.room(json!({"game": "three-kingdoms", "seed": 8})).await;
    let names = ["ann", "bea", "cy", "dee"];
    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for n in names {
        let mut c = s.client(&room).await;
        tokens.push(c.join(n).await);
        clients.push(c);
    }
    clients[0].send(json!({"type": "StartGame"})).await;
    clients[0].expect("GameStarted").await;
    // Forty decisions by the four people, then the server stops.
    let mut moves = 0;
    while moves < 40 {
        for c in clients.iter_mut() {
            let d = sync(c).await;
            if let Some(a) = pick(&d) {
                c.send(json!({"type": "Act", "action": a})).await;
                moves += 1;
            }
        }
    }
    let mut before = Vec::new();
    for c in clients.iter_mut() {
        before.push(sync(c).await["view"].clone());
    }
    s.stop().await;
    drop(clients);
    let s = Server::fast(store::Store::open(&db).unwrap()).await;
    let mut clients = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let mut c = s.client(&room).await;
        c.send(json!({"type": "Reconnect", "token": t})).await;
        c.expect("Joined").await;
        let after = sync(&mut c).await;
        assert_eq!(after["view"], before[i], "{}'s view after the restart", names[i]);
        clients.push(c);
    }
    // And the game goes on.
    for _ in 0..10 {
        for c in clients.iter_mut() {
            let d = sync(c).await;
            if let Some(a) = pick(&d) {
                c.send(json!({"type": "Act", "action": a})).await;
            }
            assert!(c.seen.iter().all(|p| p["type"] != "ActionFailed"), "{:?}", c.seen);
        }
    }
    s.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The card table a client reads ids with is served (issue 26): every card, in id order.
#[tokio::test]
async fn the_card_table_is_served() {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let (status, cards) = common::http(&s.addr, "GET", "/api/games/three-kingdoms/cards", None).await;
    assert_eq!(status, 200);
    let cards = cards.as_array().unwrap();
    assert_eq!(cards.len(), 108);
    assert_eq!(cards[0], json!({"id": 0, "name": "Duel", "suit": "Spade", "rank": 1, "kind": "Duel"}));
    for (i, c) in cards.iter().enumerate() {
        assert_eq!(c["id"], i);
    }
    let (status, _) = common::http(&s.addr, "GET", "/api/games/wolfpack/cards", None).await;
    assert_eq!(status, 404);
    s.stop().await;
}
