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
