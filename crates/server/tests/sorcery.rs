//! Sorcery in a room, over real WebSockets on 127.0.0.1: a person against the heuristic bot
//! plays to the end with the generic `Act` packets; what they are sent never holds the bot's
//! hand; a spectator sees no hand at all; bad packets get clear errors.

use serde_json::{Value, json};

use crate::common;
use common::Server;

/// The first legal action that is not `End`, else `End`: always terminates a turn (every other
/// action spends a card, an action or magic).
fn first_move(data: &Value) -> Value {
    let legal = data["legal"].as_array().cloned().unwrap_or_default();
    legal.iter().find(|a| a["type"] != "End").cloned().unwrap_or_else(|| json!({"type": "End"}))
}

/// Checks that nothing alice is sent shows the bot's hand (seat 1) and returns it unchanged.
fn assert_hidden(p: &Value, bot_seat: u64) {
    if p["type"] == "GameDataSync" {
        let d = &p["gameData"];
        if d["gameStarted"] == true {
            let bot = &d["view"]["players"][bot_seat as usize];
            assert!(bot["hand"].is_null(), "the bot's hand leaked: {bot}");
            assert!(bot["hand_size"].is_u64());
            assert!(d["view"]["players"][1 - bot_seat as usize]["hand"].is_array(), "alice sees her own hand");
        }
    }
    if p["type"] == "GameEvent" && p["event"]["type"] == "CardDrawn" && p["event"]["player"] == bot_seat {
        assert!(p["event"]["card"].is_null(), "a card the bot drew leaked: {p}");
    }
}

#[tokio::test]
async fn a_person_plays_the_heuristic_bot_to_the_end() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "sorcery", "seed": 3, "botDelayMs": 1})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    let data = a.sync().await;
    assert_eq!(data["maxPlayers"], 2);
    assert_eq!(data["cards"]["Banish"]["name"], "Banish");
    assert_eq!(data["cards"]["NovicePyromancer"]["abilityCost"], 1);
    a.send(json!({"type": "AddBot", "bot": "random"})).await;
    a.expect("ActionFailed").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;

    let data = a.sync().await;
    assert_eq!(data["seats"][0], "alice");
    assert_eq!(data["yourSeat"], 0);
    assert_eq!(data["players"][0]["life"], 20);
    assert_eq!(data["view"]["players"][0]["hand"].as_array().unwrap().len(), 5);
    let bot_seat = 1;

    // A spectator joins mid-game: both boards, no hands, no legal actions.
    let mut spec = s.client(&room).await;
    spec.join("sam").await;
    let sd = spec.sync().await;
    assert_eq!(sd["view"]["viewer"]["type"], "Spectator");
    assert!(sd["view"]["players"][0]["hand"].is_null() && sd["view"]["players"][1]["hand"].is_null());
    assert_eq!(sd["view"]["players"][0]["hand_size"], 5);
    assert!(sd.get("legal").is_none());

    // Bad packets: clear errors, nothing changes.
    a.send(json!({"type": "Act", "action": {"type": "Fly"}})).await;
    let f = a.expect("ActionFailed").await;
    assert_eq!(f["code"], "bad_packet");
    assert!(f["reason"].as_str().unwrap().contains("not a Sorcery action"), "{f}");
    a.send(json!({"type": "Act", "action": {"type": "Attack", "minion": 4, "target": null}})).await;
    let f = a.expect("ActionFailed").await;
    assert_ne!(f["code"], "bad_packet", "{f}");

    let mut moves = 0;
    let mut ended = None;
    let mut data = a.sync().await;
    'game: for _ in 0..20_000 {
        if data["gameStarted"] == false {
            break;
        }
        if data["currentTurn"] == "alice" {
            a.send(json!({"type": "Act", "action": first_move(&data)})).await;
            moves += 1;
        }
        // The next table: the one after this move (or after the bot's).
        loop {
            let Some(p) = a.next(10_000).await else { panic!("the room went quiet") };
            assert_hidden(&p, bot_seat);
            match p["type"].as_str() {
                Some("GameEnded") => {
                    ended = Some(p["winner"].clone());
                    break 'game;
                }
                Some("ActionFailed") => panic!("a legal move was refused: {p}"),
                Some("GameDataSync") => {
                    data = p["gameData"].clone();
                    break;
                }
                _ => {}
            }
        }
    }
    let winner = ended.expect("the game ended");
    assert!(moves > 10, "alice played ({moves} moves)");
    for p in a.drain(100).await {
        assert_hidden(&p, bot_seat);
    }
    let data = a.sync().await;
    assert_eq!(data["gameStarted"], false);
    eprintln!("winner: {winner}, alice's moves: {moves}");
    // The spectator saw events with no hidden cards at all.
    for p in spec.drain(50).await {
        if p["type"] == "GameEvent" && p["event"]["type"] == "CardDrawn" {
            assert!(p["event"]["card"].is_null(), "{p}");
        }
        if p["type"] == "GameDataSync" && p["gameData"]["gameStarted"] == true {
            let v = &p["gameData"]["view"];
            assert!(v["players"][0]["hand"].is_null() && v["players"][1]["hand"].is_null());
        }
    }
    s.stop().await;
}
