//! What a newcomer meets over HTTP: a finished match stays reachable (the room's `lastMatch`,
//! then `GET /api/matches/{id}` for its final table and its replay), and the rules pages.

use crate::common;

use common::{Server, http};
use serde_json::json;

async fn get_text(addr: &str, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    (resp[9..12].parse().unwrap(), resp)
}

#[tokio::test]
async fn a_finished_match_is_kept_for_its_end_screen_and_replay() {
    let server = Server::fast(store::Store::memory().unwrap()).await;
    let room = server.room(json!({"game": "sorcery", "seed": 3, "botDelayMs": 0})).await;
    let mut ana = server.client(&room).await;
    ana.join("ana").await;
    ana.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    ana.expect("PlayerJoined").await;
    let before = ana.sync().await;
    assert_eq!(before["lastMatch"], serde_json::Value::Null, "no match has finished yet");
    ana.send(json!({"type": "StartGame"})).await;
    ana.expect("GameStarted").await;

    // A watcher who never joined sees the end, then the room between games names the match.
    let mut watcher = server.client(&room).await;
    watcher.sync().await;
    // Leaving Sorcery concedes: the match ends at once.
    ana.send(json!({"type": "LeaveGame"})).await;
    watcher.expect("GameEnded").await;
    let after = watcher.expect("GameDataSync").await["gameData"].clone();
    assert_eq!(after["gameStarted"], false);
    let id = after["lastMatch"].as_i64().expect("the finished match's id");

    let (status, end) =
        http(&server.addr, "GET", &format!("/api/matches/{id}?room={room}&steps=last&player=ana"), None).await;
    assert_eq!(status, 200, "{end}");
    assert_eq!(end["game"], "sorcery");
    assert_eq!(end["winners"], json!(["bot-ana"]), "{end}");
    assert!(end.get("seed").is_none(), "the seed is not given out: later matches derive theirs from it");
    let steps = end["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0]["gameData"]["you"], "ana", "player=ana is ana's seat");
    assert_eq!(steps[0]["gameData"]["view"]["status"]["type"], "Won", "{}", steps[0]["gameData"]["view"]["status"]);

    let (status, all) = http(&server.addr, "GET", &format!("/api/matches/{id}?room={room}&seat=1"), None).await;
    assert_eq!(status, 200);
    assert_eq!(all["steps"].as_array().unwrap().len() as u64, all["moves"].as_u64().unwrap() + 1);
    assert_eq!(all["steps"][0]["gameData"]["you"], "bot-ana");

    let (status, e) = http(&server.addr, "GET", &format!("/api/matches/{id}?room={room}&steps=some"), None).await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = http(&server.addr, "GET", &format!("/api/matches/999?room={room}"), None).await;
    assert_eq!(status, 404, "{e}");
    // Match ids count up: without its room a match cannot be read, and another room's id
    // reads as no match at all (a private room's matches stay its own).
    let (status, e) = http(&server.addr, "GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = http(&server.addr, "GET", &format!("/api/matches/{id}?room=zzzzzz"), None).await;
    assert_eq!(status, 404, "{e}");
    assert!(e.get("steps").is_none(), "{e}");
    let (status, _) = http(&server.addr, "GET", "/replay/1", None).await;
    assert_eq!(status, 200, "the replay viewer is the web client's page");
    server.stop().await;
}

#[tokio::test]
async fn the_rules_pages_are_served_as_html() {
    let server = Server::start(store::Store::memory().unwrap()).await;
    let (status, page) = get_text(&server.addr, "/rules/ivanhoe").await;
    assert_eq!(status, 200);
    assert!(page.contains("text/html"), "{}", &page[..300]);
    assert!(page.contains("<h1 id=\"ivanhoe\">Ivanhoe</h1>"));
    assert!(page.contains("content-security-policy"), "the pages carry the security headers");
    let (status, index) = get_text(&server.addr, "/rules").await;
    assert_eq!(status, 200);
    assert!(index.contains("href=\"/rules/buckshot\""));
    let (status, _) = get_text(&server.addr, "/rules/nonsense").await;
    assert_eq!(status, 404);
    server.stop().await;
}
