//! The transport's limits (issue 10, items 6, 7 and 9), each driven over real sockets on
//! 127.0.0.1 by a client that misbehaves in one way: never reading, sending its headers a
//! byte at a time, opening too many connections, sending an oversized frame, coming from
//! another site.

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::Server;

fn config() -> server::ServerConfig {
    server::ServerConfig { rate_limit: 10_000.0, ..common::test_config(store::Store::memory().unwrap()) }
}

/// A WebSocket client whose socket has a small receive buffer, so that not reading fills it
/// quickly.
async fn small_buffer_client(addr: &str, room: &str) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let tcp = sock.connect(addr.parse().unwrap()).await.unwrap();
    let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/api/rooms/{room}/ws"), tcp).await.unwrap();
    ws
}

#[tokio::test]
async fn a_client_that_stops_reading_is_disconnected_at_its_queue_cap() {
    let mut config = config();
    config.limits.queue_bytes = 64 * 1024;
    let s = Server::start_with(config).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let mut talker = s.client(&room).await;
    talker.join("talker").await;
    let mut sleeper = small_buffer_client(&s.addr, &room).await;
    sleeper.send(Message::Text(json!({"type": "JoinGame", "username": "sleeper"}).to_string().into())).await.unwrap();
    talker.expect("PlayerJoined").await;
    // From now on the sleeper reads nothing; the talker chats (and reads its own echo).
    let message = "x".repeat(500);
    let mut sent = 0usize;
    let mut dropped = false;
    while !dropped && sent < 8 << 20 {
        talker.send(json!({"type": "SendNewChatMessage", "message": message})).await;
        sent += message.len();
        while let Some(p) = talker.next(0).await {
            dropped |= p["type"] == "PlayerLeft" && p["username"] == "sleeper";
        }
    }
    for _ in 0..50 {
        if dropped {
            break;
        }
        dropped |= talker.drain(100).await.iter().any(|p| p["type"] == "PlayerLeft" && p["username"] == "sleeper");
    }
    assert!(dropped, "the sleeper was still in the room after {sent} bytes of chat sent its way");
    // Kernel buffers (about 1.3 MiB on loopback) plus the 64 KiB cap, not everything said.
    assert!(sent < 6 << 20, "dropped only after {sent} bytes");
    // What the sleeper gets if it wakes up: what was already in flight, then the end.
    let mut got = 0usize;
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(m)) = sleeper.next().await {
            got += m.len();
            if m.is_close() {
                break;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the sleeper's connection stayed open");
    assert!(got < 6 << 20, "{got} bytes reached the sleeper");
    s.stop().await;
}

#[tokio::test]
async fn a_player_dropped_for_not_reading_keeps_the_seat_and_reconnects() {
    let mut config = config();
    config.limits.queue_bytes = 64 * 1024;
    let s = Server::start_with(config).await;
    let room = s.room(json!({"game": "buckshot", "turnSeconds": 600})).await;
    let mut talker = s.client(&room).await;
    talker.join("talker").await;
    let mut sleeper = small_buffer_client(&s.addr, &room).await;
    sleeper.send(Message::Text(json!({"type": "JoinGame", "username": "sleeper"}).to_string().into())).await.unwrap();
    let token = loop {
        let Some(Ok(Message::Text(t))) = sleeper.next().await else { panic!("no Joined") };
        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
        if v["type"] == "Joined" {
            break v["token"].as_str().unwrap().to_string();
        }
    };
    talker.expect("PlayerJoined").await;
    talker.send(json!({"type": "StartGame"})).await;
    talker.expect("GameStarted").await;
    let message = "x".repeat(500);
    let sleeper_connected = |data: &serde_json::Value| {
        data["players"].as_array().unwrap().iter().any(|p| p["username"] == "sleeper" && p["connected"] == true)
    };
    let mut sent = 0usize;
    while sleeper_connected(&talker.sync().await) {
        assert!(sent < 8 << 20, "the sleeper was still connected after {sent} bytes of chat");
        // A batch stays well under the talker's own 64 KiB queue: the talker reads its echoes
        // only between batches, and must not be the one dropped for not reading.
        for _ in 0..60 {
            talker.send(json!({"type": "SendNewChatMessage", "message": message})).await;
            sent += message.len();
        }
    }
    let mut back = s.client(&room).await;
    back.send(json!({"type": "Reconnect", "token": token})).await;
    assert_eq!(back.expect("Joined").await["username"], "sleeper");
    let data = back.expect("GameDataSync").await["gameData"].clone();
    assert_eq!(data["you"], "sleeper");
    assert_eq!(data["gameStarted"], true);
    s.stop().await;
}

/// Sends `bytes` one at a time, `gap` apart, and reports how long the server kept the
/// connection open (None: still open when everything was sent).
async fn trickle(stream: &mut tokio::net::TcpStream, bytes: &[u8], gap: Duration) -> Option<Duration> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let start = tokio::time::Instant::now();
    let mut buf = [0u8; 1024];
    for b in bytes {
        if stream.write_all(&[*b]).await.is_err() {
            return Some(start.elapsed());
        }
        // Whatever the server says (a 408, say), the question is whether it closes.
        if let Ok(Ok(0) | Err(_)) = tokio::time::timeout(gap, stream.read(&mut buf)).await {
            return Some(start.elapsed());
        }
    }
    None
}

/// Reads until the server closes; the text read, or None if it stays open `within`.
async fn read_until_closed(stream: &mut tokio::net::TcpStream, within: Duration) -> Option<String> {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let r = tokio::time::timeout(within, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    r.ok().map(|()| String::from_utf8_lossy(&got).into_owned())
}

#[tokio::test]
async fn headers_sent_slower_than_the_header_timeout_close_the_connection() {
    let mut config = config();
    config.limits.header_timeout = Duration::from_millis(400);
    let s = Server::start_with(config).await;
    let mut tcp = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    let request = format!("GET /api/health HTTP/1.1\r\nHost: {}\r\nUser-Agent: slowloris\r\n\r\n", s.addr);
    let closed = trickle(&mut tcp, request.as_bytes(), Duration::from_millis(100)).await;
    let closed = closed.expect("the server kept a connection sending a byte every 100 ms open");
    assert!(closed < Duration::from_secs(2), "closed only after {closed:?}");
    // A connection that sends nothing at all is closed the same way.
    let mut idle = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    assert!(read_until_closed(&mut idle, Duration::from_secs(2)).await.is_some(), "a silent connection stayed open");
    s.stop().await;
}

#[tokio::test]
async fn a_kept_alive_connection_that_goes_idle_is_closed() {
    use tokio::io::AsyncWriteExt;
    let mut config = config();
    config.limits.header_timeout = Duration::from_millis(400);
    let s = Server::start_with(config).await;
    let mut tcp = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    let request = format!("GET /api/health HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr);
    tcp.write_all(request.as_bytes()).await.unwrap();
    let got =
        read_until_closed(&mut tcp, Duration::from_secs(3)).await.expect("an idle kept-alive connection stayed open");
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    s.stop().await;
}

#[tokio::test]
async fn a_body_sent_slower_than_the_body_timeout_gets_408() {
    use tokio::io::AsyncWriteExt;
    let mut config = config();
    config.limits.body_timeout = Duration::from_millis(400);
    let s = Server::start_with(config).await;
    let mut tcp = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    let head = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"game\"",
        s.addr
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let got = read_until_closed(&mut tcp, Duration::from_secs(3)).await.expect("a stalled body held the connection");
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.contains("\"error\""), "{got}");
    s.stop().await;
}

#[tokio::test]
async fn a_request_head_over_64_kib_gets_431() {
    let s = Server::start_with(config()).await;
    let big = "x".repeat(70 * 1024);
    let (status, got) = raw(&s.addr, "GET /api/health HTTP/1.1", &[("X-Big", big.as_str())], "").await;
    assert_eq!(status, 431, "{}", &got[..got.len().min(200)]);
    s.stop().await;
}

#[tokio::test]
async fn connections_over_the_per_address_cap_get_503() {
    let mut config = config();
    config.limits.conns_per_addr = 4;
    let s = Server::start_with(config).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(tokio::net::TcpStream::connect(&s.addr).await.unwrap());
    }
    // The server takes connections in order: let it take these four first.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut fifth = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    let got = read_until_closed(&mut fifth, Duration::from_secs(3)).await.expect("the fifth connection stayed open");
    assert!(got.starts_with("HTTP/1.1 503"), "{got}");
    assert!(got.contains("too many connections from your address"), "{got}");
    // Closing one frees its place.
    held.pop();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    loop {
        let (status, _) = common::http(&s.addr, "GET", "/api/health", None).await;
        if status == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the freed place never came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    s.stop().await;
}

#[tokio::test]
async fn connections_over_the_global_cap_get_503() {
    let mut config = config();
    config.limits.conns = 3;
    let s = Server::start_with(config).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(tokio::net::TcpStream::connect(&s.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut fourth = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    let got = read_until_closed(&mut fourth, Duration::from_secs(3)).await.expect("the fourth connection stayed open");
    assert!(got.starts_with("HTTP/1.1 503"), "{got}");
    assert!(got.contains("connection limit"), "{got}");
    s.stop().await;
}

#[tokio::test]
async fn a_websocket_counts_against_the_cap_for_as_long_as_it_is_open() {
    let mut config = config();
    config.limits.conns_per_addr = 1;
    let s = Server::start_with(config).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    // The room's POST has just let go of its place.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut ws = s.client(&room).await;
    ws.sync().await;
    let (status, v) = common::http(&s.addr, "GET", "/api/health", None).await;
    assert_eq!(status, 503, "{v}");
    drop(ws);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = common::http(&s.addr, "GET", "/api/health", None).await;
    assert_eq!(status, 200);
    s.stop().await;
}

#[tokio::test]
async fn a_frame_over_64_kib_gets_close_1009() {
    let s = Server::start_with(config()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let mut c = s.client(&room).await;
    let big = json!({"type": "SendNewChatMessage", "message": "x".repeat(100 * 1024)}).to_string();
    c.send_raw(Message::Text(big.into())).await;
    let end = tokio::time::timeout(Duration::from_secs(3), async {
        loop {
            match c.ws.next().await {
                Some(Ok(Message::Close(frame))) => return Ok(frame),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("the stream ended without a close frame".into()),
            }
        }
    })
    .await
    .expect("the connection stayed open");
    let frame = end.expect("no close frame");
    let frame = frame.expect("a close frame without a code");
    assert_eq!(u16::from(frame.code), 1009, "{frame:?}");
    // Nobody else noticed: the room still answers.
    let mut other = s.client(&room).await;
    other.sync().await;
    s.stop().await;
}

/// A raw HTTP/1.1 request with `headers`; the status and the whole answer.
async fn raw(addr: &str, request_line: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    use tokio::io::AsyncWriteExt;
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{request_line}\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    tcp.write_all(req.as_bytes()).await.unwrap();
    let got = read_until_closed(&mut tcp, Duration::from_secs(5)).await.expect("no answer");
    (got[9..12].parse().unwrap(), got)
}

const UPGRADE: [(&str, &str); 4] = [
    ("Upgrade", "websocket"),
    ("Connection", "Upgrade"),
    ("Sec-WebSocket-Version", "13"),
    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
];

#[tokio::test]
async fn websocket_upgrades_from_another_origin_get_403() {
    let mut config = config();
    config.limits.allow_origins = vec!["https://friends.example".into()];
    let s = Server::start_with(config).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let line = format!("GET /api/rooms/{room}/ws HTTP/1.1");
    let own = format!("http://{}", s.addr);
    for (origin, want) in [
        (None, 101),
        (Some(own.as_str()), 101),
        (Some("https://friends.example"), 101),
        (Some("https://evil.example"), 403),
        (Some("null"), 403),
        (Some("http://127.0.0.1:1"), 403),
    ] {
        let mut headers = UPGRADE.to_vec();
        if let Some(o) = origin {
            headers.push(("Origin", o));
        }
        // Connection: close is sent too, but an upgrade answers before closing.
        let (status, got) = raw_upgrade(&s.addr, &line, &headers).await;
        assert_eq!(status, want, "Origin {origin:?}: {got}");
        if want == 403 {
            assert!(got.contains("\"error\""), "{got}");
        }
    }
    s.stop().await;
}

/// Sends an upgrade request and reads the answer's head (a 101 leaves the socket open).
async fn raw_upgrade(addr: &str, line: &str, headers: &[(&str, &str)]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{line}\r\nHost: {addr}\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut buf)).await.unwrap().unwrap();
        assert!(n > 0, "closed before answering");
        got.extend_from_slice(&buf[..n]);
    }
    // A refusal's JSON body follows its head.
    let _ = tokio::time::timeout(Duration::from_millis(200), tcp.read_to_end(&mut got)).await;
    let got = String::from_utf8_lossy(&got).into_owned();
    (got[9..12].parse().unwrap(), got)
}

#[tokio::test]
async fn creating_a_room_needs_json_and_the_pages_origin() {
    let s = Server::start_with(config()).await;
    let post = "POST /api/rooms HTTP/1.1";
    let body = r#"{"game":"buckshot"}"#;
    let own = format!("http://{}", s.addr);
    for (headers, want) in [
        (vec![("Content-Type", "application/json")], 201),
        (vec![("Content-Type", "application/json; charset=utf-8"), ("Origin", own.as_str())], 201),
        (vec![("Content-Type", "text/plain")], 415),
        (vec![("Content-Type", "application/x-www-form-urlencoded")], 415),
        (vec![], 415),
        (vec![("Content-Type", "application/json"), ("Origin", "https://evil.example")], 403),
        (vec![("Content-Type", "text/plain"), ("Origin", "https://evil.example")], 403),
    ] {
        let (status, got) = raw(&s.addr, post, &headers, body).await;
        assert_eq!(status, want, "{headers:?}: {got}");
        assert!(got.contains("\"error\"") || status == 201, "{got}");
    }
    s.stop().await;
}

#[tokio::test]
async fn every_http_answer_carries_the_security_headers() {
    let mut config = config();
    config.limits.conns_per_addr = 1;
    let s = Server::start_with(config).await;
    let mut answers = Vec::new();
    for path in ["/", "/r/abc", "/app.js", "/style.css", "/api/health", "/api/rooms", "/nope", "/api/rooms/nope/ws"] {
        answers.push(raw(&s.addr, &format!("GET {path} HTTP/1.1"), &[], "").await);
    }
    answers.push(raw(&s.addr, "POST /api/rooms HTTP/1.1", &[("Content-Type", "text/plain")], "x").await);
    answers.push(raw(&s.addr, "DELETE /api/health HTTP/1.1", &[], "").await);
    // A refused connection's 503 too.
    let _held = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let refused = raw(&s.addr, "GET / HTTP/1.1", &[], "").await;
    assert_eq!(refused.0, 503);
    answers.push(refused);
    for (status, got) in answers {
        let head = got.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
        for h in [
            "content-security-policy: default-src 'self'",
            "x-frame-options: deny",
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(h), "{status} without {h}:\n{head}");
        }
    }
    s.stop().await;
}
