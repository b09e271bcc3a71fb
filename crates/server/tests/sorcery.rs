//! Sorcery in a room, over real WebSockets on 127.0.0.1: a person against the heuristic bot
//! plays to the end with the generic `Act` packets; what they are sent never holds the bot's
//! hand; a spectator sees no hand at all; bad packets get clear errors.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

struct Server {
    addr: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    async fn start(store: store::Store) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server::run(listener, server::ServerConfig::new(store), async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Server { addr, stop: Some(stop), task }
    }

    async fn room(&self, body: Value) -> String {
        let (status, v) = http(&self.addr, "POST", "/api/rooms", Some(body)).await;
        assert_eq!(status, 201, "{v}");
        v["id"].as_str().unwrap().to_string()
    }

    async fn client(&self, room: &str) -> Client {
        let (ws, _) = connect_async(format!("ws://{}/api/rooms/{room}/ws", self.addr)).await.unwrap();
        Client { ws, seen: Vec::new() }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.abort();
    }
}

/// A tiny HTTP/1.1 client: enough for the JSON endpoints.
async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
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
    let status: u16 = resp[9..12].parse().unwrap();
    let body = resp.split("\r\n\r\n").nth(1).unwrap_or("");
    // Chunked or plain: find the JSON.
    let start = body.find(['{', '[']).unwrap_or(0);
    let end = body.rfind(['}', ']']).map_or(body.len(), |e| e + 1);
    (status, serde_json::from_str(&body[start..end]).unwrap_or(Value::Null))
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seen: Vec<Value>,
}

impl Client {
    async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    /// The next packet, or None after `ms` of silence.
    async fn next(&mut self, ms: u64) -> Option<Value> {
        loop {
            match tokio::time::timeout(Duration::from_millis(ms), self.ws.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    self.seen.push(v.clone());
                    return Some(v);
                }
                Ok(Some(Ok(_))) => continue,
                _ => return None,
            }
        }
    }

    /// Waits for a packet of type `ty` (up to 5 s), returning it.
    async fn expect(&mut self, ty: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while tokio::time::Instant::now() < deadline {
            if let Some(v) = self.next(5_000).await
                && v["type"] == ty
            {
                return v;
            }
        }
        panic!("no {ty} packet; saw {:?}", self.seen.iter().map(|v| v["type"].clone()).collect::<Vec<_>>());
    }

    /// Everything that arrives until `ms` of silence.
    async fn drain(&mut self, ms: u64) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(v) = self.next(ms).await {
            out.push(v);
        }
        out
    }

    /// The table now: drops what is queued (stale syncs), then asks.
    async fn sync(&mut self) -> Value {
        self.drain(30).await;
        self.send(json!({"type": "GameDataRequest"})).await;
        self.expect("GameDataSync").await["gameData"].clone()
    }

    async fn join(&mut self, name: &str) -> String {
        self.send(json!({"type": "JoinGame", "username": name})).await;
        let joined = self.expect("Joined").await;
        assert_eq!(joined["username"], name);
        joined["token"].as_str().unwrap().to_string()
    }
}

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
