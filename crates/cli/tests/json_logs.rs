//! `cardtable serve --log-format json`: every line of the log is one JSON object, and a room's
//! lines carry its id, its game and the node in their span's fields. A game is started, its
//! players go, and the room abandons it: the room's own lines say so.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

async fn expect(ws: &mut Ws, ty: &str) {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("a packet in time");
        if let Some(Ok(Message::Text(t))) = m
            && serde_json::from_str::<Value>(&t).unwrap()["type"] == ty
        {
            return;
        }
    }
}

async fn create_room(addr: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = json!({"game": "buckshot"}).to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    let body = &resp[resp.find('{').expect("a JSON answer")..];
    serde_json::from_str::<Value>(body).unwrap()["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn json_lines_carry_the_room_and_the_node_in_their_span() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardtable"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", ":memory:", "--log-format", "json", "--empty-room-ttl", "0.3"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the server");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("the URL line").to_string();
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });

    let room = create_room(&addr).await;
    let url = format!("ws://{addr}/api/rooms/{room}/ws");
    let (mut a, _) = connect_async(&url).await.unwrap();
    send(&mut a, json!({"type": "JoinGame", "username": "alice"})).await;
    expect(&mut a, "Joined").await;
    let (mut b, _) = connect_async(&url).await.unwrap();
    send(&mut b, json!({"type": "JoinGame", "username": "bob"})).await;
    expect(&mut b, "Joined").await;
    send(&mut a, json!({"type": "StartGame"})).await;
    expect(&mut a, "GameStarted").await;
    drop((a, b));
    // Everyone gone for the empty-room time: the game is abandoned and recorded.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // SIGTERM: the server's goodbye is a JSON line too.
    let term = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(term.success());
    let stopped = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        child.try_wait().unwrap().is_some()
    });
    if !stopped {
        child.kill().unwrap();
    }
    child.wait().unwrap();
    let text = log.join().unwrap();

    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object a line ({e}): {l}")))
        .collect();
    for l in &lines {
        assert!(l["timestamp"].is_string() && l["level"].is_string() && l["message"].is_string(), "{l}");
    }
    // The server's own lines: in the node's span.
    assert!(lines.iter().any(|l| l["span"]["name"] == "node" && l["span"]["node"] == "local"), "{text}");
    let finished = lines
        .iter()
        .find(|l| l["message"] == "match finished")
        .unwrap_or_else(|| panic!("no `match finished` line:\n{text}"));
    assert_eq!(finished["abandoned"], true, "{finished}");
    assert_eq!(finished["span"]["name"], "room", "{finished}");
    assert_eq!(finished["span"]["room"], room.as_str(), "{finished}");
    assert_eq!(finished["span"]["game"], "buckshot", "{finished}");
    assert_eq!(finished["span"]["node"], "local", "{finished}");
    assert!(stopped, "the server did not stop on SIGTERM:\n{text}");
    assert!(lines.iter().any(|l| l["message"] == "shutting down"), "{text}");
}
