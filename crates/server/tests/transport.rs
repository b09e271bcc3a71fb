//! The transport's limits (issue 10, items 6, 7 and 9), each driven over real sockets on
//! 127.0.0.1 by a client that misbehaves in one way: never reading, sending its headers a
//! byte at a time, opening too many connections, sending an oversized frame, coming from
//! another site.

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::Server;

fn config() -> server::ServerConfig {
    server::ServerConfig { rate_limit: 10_000.0, ..server::ServerConfig::new(store::Store::memory().unwrap()) }
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
async fn connections_over_the_per_address_cap_get_503() {
    let mut config = config();
    config.limits.conns_per_addr = 4;
    config.limits.loopback_exempt = false;
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
    config.limits.loopback_exempt = false;
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
