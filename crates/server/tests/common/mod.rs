//! The test harness the server's integration tests share: a real server on 127.0.0.1:0
//! with its own store, a tiny HTTP client, and a WebSocket client that reads packets as JSON.
#![allow(dead_code)] // each test file uses a different part of it

pub mod people;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

pub struct Server {
    pub addr: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

/// The server the tests start: as `cardtable serve` would, except that rooms may be created
/// with a seed (`--allow-seeded-rooms`: tests replay known deals) and nothing is capped per
/// address (every test client is 127.0.0.1, as every client of a server behind a local
/// proxy once was). The tests of those limits set them.
pub fn test_config(store: store::Store) -> server::ServerConfig {
    let mut c = server::ServerConfig::new(store);
    c.limits.allow_seeded_rooms = true;
    c.limits.conns_per_addr = 0;
    c.limits.rooms_per_minute_per_addr = 0;
    c.limits.rooms_per_addr = 0;
    c.limits.sockets_per_addr = 0;
    c.limits.lookup_misses_per_minute_per_addr = 0;
    c
}

impl Server {
    pub async fn start(store: store::Store) -> Server {
        Server::start_with(test_config(store)).await
    }

    /// A server with a rate limit that clients answering at machine speed stay under.
    pub async fn fast(store: store::Store) -> Server {
        Server::start_with(server::ServerConfig { rate_limit: 10_000.0, ..test_config(store) }).await
    }

    pub async fn start_with(config: server::ServerConfig) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server::run(listener, config, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Server { addr, stop: Some(stop), task }
    }

    pub async fn room(&self, body: Value) -> String {
        let (status, v) = http(&self.addr, "POST", "/api/rooms", Some(body)).await;
        assert_eq!(status, 201, "{v}");
        v["id"].as_str().unwrap().to_string()
    }

    pub async fn client(&self, room: &str) -> Client {
        let (ws, _) = connect_async(format!("ws://{}/api/rooms/{room}/ws", self.addr)).await.unwrap();
        Client { ws, seen: Vec::new(), closed: None }
    }

    /// A room made from `body` with alice (its host) and bob seated and its match started:
    /// answers the room's id and both clients, alice's having seen `GameStarted`.
    pub async fn started_pair(&self, body: Value) -> (String, Client, Client) {
        let id = self.room(body).await;
        let mut a = self.client(&id).await;
        a.join("alice").await;
        let mut b = self.client(&id).await;
        b.join("bob").await;
        a.send(json!({"type": "StartGame"})).await;
        a.expect("GameStarted").await;
        (id, a, b)
    }

    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.abort();
    }
}

/// A tiny HTTP/1.1 client: enough for the JSON endpoints.
pub async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let (status, _, body) = http_full(addr, method, path, body).await;
    (status, body)
}

/// As [`http`], with the response's head (status line and headers, lowercased) too.
pub async fn http_full(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, String, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((resp.as_str(), ""));
    let status: u16 = head[9..12].parse().unwrap();
    // Chunked or plain: find the JSON.
    let start = body.find(['{', '[']).unwrap_or(0);
    let end = body.rfind(['}', ']']).map_or(body.len(), |e| e + 1);
    (status, head.to_ascii_lowercase(), serde_json::from_str(&body[start..end]).unwrap_or(Value::Null))
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub seen: Vec<Value>,
    /// Why the server's side ended, once it has (a close frame, an error, or the stream's end).
    pub closed: Option<String>,
}

impl Client {
    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.unwrap();
    }

    /// The next packet, or None after `ms` of silence.
    pub async fn next(&mut self, ms: u64) -> Option<Value> {
        loop {
            match tokio::time::timeout(Duration::from_millis(ms), self.ws.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    self.seen.push(v.clone());
                    return Some(v);
                }
                Ok(Some(Ok(Message::Close(frame)))) => {
                    self.closed = Some(format!("close {frame:?}"));
                    return None;
                }
                Ok(Some(Ok(_))) => continue,
                Ok(Some(Err(e))) => {
                    self.closed = Some(format!("error {e}"));
                    return None;
                }
                Ok(None) => {
                    self.closed = Some("stream ended".into());
                    return None;
                }
                Err(_) => return None,
            }
        }
    }

    /// Waits for a packet of type `ty` (up to 5 s), returning it.
    pub async fn expect(&mut self, ty: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while tokio::time::Instant::now() < deadline && self.closed.is_none() {
            if let Some(v) = self.next(5_000).await
                && v["type"] == ty
            {
                return v;
            }
        }
        let seen: Vec<_> = self.seen.iter().map(|v| v["type"].as_str().unwrap_or("?")).collect();
        // The last few are what matters; a flood of chat would bury them.
        let tail = &seen[seen.len().saturating_sub(12)..];
        panic!("no {ty} packet ({} seen, ends {tail:?}; connection: {:?})", seen.len(), self.closed);
    }

    /// Everything that arrives until `ms` of silence.
    pub async fn drain(&mut self, ms: u64) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(v) = self.next(ms).await {
            out.push(v);
        }
        out
    }

    /// The table now: drops what is queued (stale syncs), then asks.
    pub async fn sync(&mut self) -> Value {
        self.drain(30).await;
        self.send(json!({"type": "GameDataRequest"})).await;
        self.expect("GameDataSync").await["gameData"].clone()
    }

    pub async fn join(&mut self, name: &str) -> String {
        self.send(json!({"type": "JoinGame", "username": name})).await;
        let joined = self.expect("Joined").await;
        assert_eq!(joined["username"], name);
        joined["token"].as_str().unwrap().to_string()
    }
}
