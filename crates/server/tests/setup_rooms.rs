//! Rooms that start from a position (`POST /api/rooms {"setup": TEXT}`): refused unless the
//! server is started with `--allow-setup-rooms`, marked `seeded` (and `setUp`) when allowed,
//! the text never sent to a client, every match starting from it, its replay too.

use serde_json::{Value, json};

use crate::common;
use common::{Server, http};

fn config(allow: bool) -> server::ServerConfig {
    let mut c = common::test_config(store::Store::memory().unwrap());
    c.rate_limit = 10_000.0;
    c.limits.allow_setup_rooms = allow;
    c
}

const WOLFPACK: &str = include_str!("../../../docs/setups/wolfpack.txt");
/// Player 1 to act with an Air Elemental against player 2 at 1 life: one attack ends it.
const SORCERY: &str = "# one attack to win\nactive 1\np1 board Air Elemental 1/1\np2 life 1\np2 deck Banish\n";

#[tokio::test]
async fn a_position_is_refused_unless_the_server_allows_it() {
    let s = Server::start_with(config(false)).await;
    let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "wolfpack", "setup": WOLFPACK}))).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap_or_default();
    assert!(e.contains("--allow-setup-rooms"), "the refusal names the option: {e}");
    s.stop().await;

    let s = Server::start_with(config(true)).await;
    let (status, v) =
        http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "wolfpack", "setup": "pilots 2\np0 hand OpenFlre"})))
            .await;
    assert_eq!(status, 400, "a position that does not parse: {v}");
    assert!(v["error"].as_str().unwrap_or_default().starts_with("setup: "), "{v}");
    let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot", "setup": WOLFPACK}))).await;
    assert_eq!(status, 400, "another game's position: {v}");
    s.stop().await;
}

#[tokio::test]
async fn a_room_from_a_position_starts_there_is_marked_and_hides_the_text() {
    let s = Server::start_with(config(true)).await;
    let room = s.room(json!({"game": "wolfpack", "setup": WOLFPACK, "botDelayMs": 50})).await;
    let (_, one) = http(&s.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(one["seeded"], true, "{one}");
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let d = a.sync().await;
    assert_eq!((d["seeded"].clone(), d["setUp"].clone()), (json!(true), json!(true)), "{d}");
    assert!(d["options"].get("setup").is_none(), "the position is never sent: {}", d["options"]);
    assert!(!d.to_string().contains("AirToAirBarrage"), "the Ace's hand is not in the room's data");
    // The position has two pilots: one person is not enough, and three are too many.
    a.send(json!({"type": "StartGame"})).await;
    let got = a.drain(300).await;
    assert!(got.iter().any(|p| p["type"] == "ActionFailed" && p["code"] == "bad_setup"), "{got:?}");
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    a.drain(200).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let d = a.sync().await;
    let v = &d["view"];
    assert_eq!(v["ace"]["health"], 12, "the Ace as the position has it: {v}");
    assert_eq!(v["pilots"][0]["health"], 20, "{v}");
    assert_eq!(v["pilots"][1]["health"], 35, "{v}");
    s.stop().await;
}

#[tokio::test]
async fn a_match_from_a_position_is_recorded_and_replayed_from_it() {
    let s = Server::start_with(config(true)).await;
    let room = s.room(json!({"game": "sorcery", "setup": SORCERY, "botDelayMs": 50})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.sync().await;
    a.send(json!({"type": "AddBot", "bot": "random"})).await;
    a.drain(200).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let d = a.sync().await;
    let attack: Value = d["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x.to_string().contains("Attack"))
        .cloned()
        .unwrap_or_else(|| panic!("an attack is offered from the position: {d}"));
    a.send(json!({"type": "Act", "action": attack})).await;
    a.expect("GameEnded").await;
    let d = a.sync().await;
    let id = d["lastMatch"].as_u64().expect("the match was recorded");
    let (status, m) = http(&s.addr, "GET", &format!("/api/matches/{id}?room={room}&steps=all"), None).await;
    assert_eq!(status, 200, "the replay is rebuilt from the position: {m}");
    assert_eq!(m["winners"], json!(["alice"]), "{m}");
    assert_eq!(m["steps"].as_array().unwrap().len(), 2, "the start and the one move: {m}");
    assert!(m.get("setup").is_none(), "the replay does not hand out the position: {m}");
    s.stop().await;
}

#[tokio::test]
async fn the_protocol_pages_examples_make_rooms_of_every_game() {
    let s = Server::start_with(config(true)).await;
    let page = include_str!("../../../docs/protocol.md");
    let mut games = Vec::new();
    for line in page.lines().filter(|l| l.starts_with(r#"{"game":"#) && l.contains(r#""setup":"#)) {
        let body: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let (status, v) = http(&s.addr, "POST", "/api/rooms", Some(body.clone())).await;
        assert_eq!(status, 201, "{line}: {v}");
        games.push(body["game"].as_str().unwrap().to_string());
    }
    games.sort();
    assert_eq!(games, ["buckshot", "ivanhoe", "sorcery", "three-kingdoms", "wolfpack"]);
    s.stop().await;
}

/// The room's `ace` option applies to a position as to a deal: the fight's view (its badge,
/// its end screen) names the tier the house plays the Ace at, not the notation's default.
#[tokio::test]
async fn a_wolfpack_position_flies_against_the_rooms_ace_tier() {
    let s = Server::start_with(config(true)).await;
    for (options, tier) in
        [(json!({"ace": "veteran"}), "veteran"), (json!({"ace": "ace"}), "ace"), (json!({}), "rookie")]
    {
        let room =
            s.room(json!({"game": "wolfpack", "setup": WOLFPACK, "botDelayMs": 50, "gameOptions": options})).await;
        let mut a = s.client(&room).await;
        a.join("alice").await;
        a.sync().await;
        a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
        a.drain(200).await;
        a.send(json!({"type": "StartGame"})).await;
        a.expect("GameStarted").await;
        let d = a.sync().await;
        assert_eq!(d["view"]["ace"]["tier"], tier, "{options}: {}", d["view"]["ace"]);
        assert_eq!(d["view"]["ace"]["health"], 12, "still the position's Ace: {}", d["view"]["ace"]);
        assert_eq!(d["view"]["ace"]["plays_per_turn"], 1, "{}", d["view"]["ace"]);
    }
    s.stop().await;
}
