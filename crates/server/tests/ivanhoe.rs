//! Ivanhoe in a room, over real WebSockets on 127.0.0.1: the generic `Act` packets, a whole
//! game of one person (who always takes the first action of `legal`) against bots, two people
//! whose syncs and events never show each other's hands, a spectator, bad packets, and the
//! reaction window's clock passing for a person who says nothing.

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
    /// A server whose rate limit a test client answering at machine speed stays under.
    async fn start(store: store::Store) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server::run(listener, server::ServerConfig { store, rate_limit: 10_000.0 }, async {
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

const STEPS: usize = 4000;

fn legal(d: &Value) -> Vec<Value> {
    d["legal"].as_array().cloned().unwrap_or_default()
}

/// Checks what `d` (a sync for `me`, or for a spectator when `me` is None) shows: its own hand
/// only, and nobody else's.
fn check_hidden(d: &Value, me: Option<&str>) {
    let view = &d["view"];
    let seats: Vec<String> = d["seats"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    match me {
        Some(me) => {
            let seat = seats.iter().position(|s| s == me).unwrap();
            let hand = view["hand"].as_array().expect("a seated player sees their hand");
            assert_eq!(hand.len() as u64, view["players"][seat]["hand_count"].as_u64().unwrap());
            let mine = d["players"].as_array().unwrap().iter().find(|p| p["username"] == me).unwrap();
            assert_eq!(mine["handCount"], view["players"][seat]["hand_count"]);
        }
        None => {
            assert!(view["hand"].is_null(), "a spectator sees no hand");
            assert!(d.get("legal").is_none(), "a spectator has no legal actions");
        }
    }
    // No other field anywhere carries a hand.
    fn walk(v: &Value, path: &str) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let p = format!("{path}.{k}");
                    if k == "hand" {
                        assert_eq!(p, ".view.hand", "a hand outside view.hand");
                    }
                    walk(x, &p);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, path)),
            _ => {}
        }
    }
    walk(d, "");
}

/// An event another seat's client must not read a card from.
fn check_event(e: &Value, my_seat: Option<u64>) {
    let ev = &e["event"];
    assert!(ev["text"].is_string(), "every event has a log line: {ev}");
    match ev["type"].as_str().unwrap() {
        "Drew" if ev["seat"].as_u64() != my_seat => assert!(ev["card"].is_null(), "saw another's draw: {ev}"),
        "Took" if ev["seat"].as_u64() != my_seat && ev["from"].as_u64() != my_seat => {
            assert!(ev["card"].is_null(), "saw a card taken by others: {ev}")
        }
        _ => {}
    }
}

/// Plays for every client (each always takes the first legal action) until the game ends;
/// checks each sync and event on the way. Returns the GameEnded packet and whether a person was
/// asked about an action card.
async fn play_to_the_end(clients: &mut [(&str, &mut Client)], spectator: Option<&mut Client>) -> (Value, bool) {
    let mut spectator = spectator;
    let mut seen_window = false;
    for _ in 0..STEPS {
        for (name, c) in clients.iter_mut() {
            let d = c.sync().await;
            if let Some(end) = c.seen.iter().rev().find(|p| p["type"] == "GameEnded") {
                return (end.clone(), seen_window);
            }
            assert_eq!(d["gameStarted"], true, "{name}: the game is running");
            check_hidden(&d, Some(name));
            let seat = d["seats"].as_array().unwrap().iter().position(|s| s == *name).map(|s| s as u64);
            for e in c.seen.iter().filter(|p| p["type"] == "GameEvent") {
                check_event(e, seat);
            }
            c.seen.retain(|p| p["type"] != "GameEvent");
            if d["phase"] == "window"
                && let Some(w) = d["waitingOn"].as_array().unwrap().iter().find(|w| w["username"] == *name)
            {
                // A person asked about an action card has a running clock.
                let left = w["msLeft"].as_u64().expect("a reaction window has a clock");
                assert!(left <= 15_000, "{left}");
                seen_window = true;
            }
            if let Some(a) = legal(&d).first() {
                c.send(json!({"type": "Act", "action": a})).await;
            }
            let failed: Vec<&Value> = c.seen.iter().filter(|p| p["type"] == "ActionFailed").collect();
            assert!(failed.is_empty(), "{name}: {failed:?}");
        }
        if let Some(s) = spectator.as_deref_mut() {
            let d = s.sync().await;
            if d["gameStarted"] == true {
                check_hidden(&d, None);
            }
            for e in s.seen.iter().filter(|p| p["type"] == "GameEvent") {
                check_event(e, None);
            }
            s.seen.retain(|p| p["type"] != "GameEvent");
        }
    }
    panic!("the game did not end in {STEPS} steps (window seen: {seen_window})");
}

#[tokio::test]
async fn one_person_and_bots_play_to_the_end() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 7, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let d = a.sync().await;
    assert_eq!(
        (d["game"].as_str(), d["minPlayers"].as_u64(), d["maxPlayers"].as_u64()),
        (Some("ivanhoe"), Some(2), Some(5))
    );
    assert_eq!(d["bots"], json!(["random", "heuristic"]));
    for _ in 0..2 {
        a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    }
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let d = a.sync().await;
    assert_eq!(d["seats"], json!(["alice", "bot-ana", "bot-ben"]));
    assert_eq!(d["view"]["hand"].as_array().unwrap().len(), 8 + usize::from(d["currentTurn"] == "alice"));
    let (end, asked) = play_to_the_end(&mut [("alice", &mut a)], None).await;
    assert!(asked, "alice was asked about an action card, with a clock");
    assert!(end["winner"].is_string() || end["winner"].is_null());
    let d = a.sync().await;
    assert_eq!(d["gameStarted"], false);
    assert!(d.get("view").is_none());
    s.stop().await;
}

#[tokio::test]
async fn two_people_never_see_each_others_hands() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 21, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    a.send(json!({"type": "AddBot", "bot": "random"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut watcher = s.client(&room).await;
    watcher.join("carol").await;
    let (end, _) = play_to_the_end(&mut [("alice", &mut a), ("bob", &mut b)], Some(&mut watcher)).await;
    assert_eq!(end["type"], "GameEnded");
    s.stop().await;
}

#[tokio::test]
async fn bad_ivanhoe_packets_get_clear_errors() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 3, "botDelayMs": 5})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    for (packet, code) in [
        (json!({"type": "Act", "action": {"type": "Fly"}}), "bad_packet"),
        (json!({"type": "Act", "action": {"type": "Play", "card": "R9"}}), "bad_packet"),
        (json!({"type": "Act", "action": {"type": "KnockDown", "target": 7}}), "unknown_player"),
        (json!({"type": "Act"}), "bad_packet"),
    ] {
        a.drain(30).await;
        a.send(packet.clone()).await;
        let f = a.expect("ActionFailed").await;
        assert_eq!(f["code"], code, "{packet} -> {f}");
    }
    // A legal-looking action out of turn or out of phase is refused by the rules, the game goes on.
    let d = a.sync().await;
    let hand = d["view"]["hand"].as_array().unwrap();
    if d["currentTurn"] != "alice" && d["phase"] != "window" {
        a.send(json!({"type": "Act", "action": {"type": "Play", "card": hand[0]}})).await;
        assert!(a.drain(100).await.iter().all(|p| p["type"] != "ActionFailed" || p["code"] != "bad_packet"));
    }
    s.stop().await;
}

#[tokio::test]
async fn a_silent_person_passes_when_the_window_clock_runs_out() {
    let s = Server::start(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": "ivanhoe", "seed": 1, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    // Play (first legal action) until a bot's action card asks alice.
    let mut asked = None;
    for _ in 0..STEPS {
        let d = a.sync().await;
        assert_eq!(d["gameStarted"], true, "the game ended before alice was asked");
        if d["phase"] == "window" && d["waitingOn"].as_array().unwrap().iter().any(|w| w["username"] == "alice") {
            asked = Some(d);
            break;
        }
        if let Some(act) = legal(&d).first() {
            a.send(json!({"type": "Act", "action": act})).await;
        }
    }
    let d = asked.expect("alice was asked about an action card");
    assert!(legal(&d).contains(&json!({"type": "Pass"})));
    // Alice says nothing: the server passes for her once her clock runs out.
    let start = tokio::time::Instant::now();
    a.seen.clear();
    loop {
        assert!(start.elapsed() < Duration::from_secs(40), "no pass for alice");
        let Some(p) = a.next(1_000).await else { continue };
        if p["type"] == "GameEvent" && p["event"]["type"] == "Passed" && p["event"]["seat"] == 0 {
            assert_eq!(p["event"]["text"], "You let it be.");
            break;
        }
    }
    assert!(start.elapsed() >= Duration::from_secs(10), "the clock ran {:?}", start.elapsed());
    s.stop().await;
}
