//! Players: one task each, a WebSocket to wherever its room lives now, moves picked from
//! `legal` and sent with the table's `serial`, and a record of what it saw and sent.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A tiny HTTP/1.1 client for the JSON endpoints: the status and the body, or why not. A body
/// that is not JSON comes back as a string (an HTML page from the proxy, say), an empty one as
/// null.
pub async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> Result<(u16, Value), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let go = async {
        let mut s = TcpStream::connect(addr).await.map_err(|e| format!("connect {addr}: {e}"))?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
        let mut resp = Vec::new();
        s.read_to_end(&mut resp).await.map_err(|e| e.to_string())?;
        let resp = String::from_utf8_lossy(&resp);
        let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((&resp, ""));
        let status: u16 = head.get(9..12).and_then(|s| s.parse().ok()).ok_or_else(|| format!("no status: {head}"))?;
        let start = body.find(['{', '[']).unwrap_or(0);
        let end = body.rfind(['}', ']']).map_or(body.len(), |e| e + 1);
        let json = serde_json::from_str(body.get(start..end).unwrap_or(""));
        Ok((
            status,
            json.unwrap_or_else(|_| if body.trim().is_empty() { Value::Null } else { Value::String(body.into()) }),
        ))
    };
    tokio::time::timeout(Duration::from_secs(5), go)
        .await
        .unwrap_or_else(|_| Err(format!("{method} {path}: timed out")))
}

/// Creates a room of `game` through `entry` (retrying while nodes answer 503), with seats
/// held and turns waiting for a day: the test's faults, not the clocks, move the players.
pub async fn create_room(entry: &str, game: &str, seed: u64) -> Result<String, String> {
    let body = json!({"game": game, "seed": seed, "holdSeconds": 86_400, "turnSeconds": 86_400, "botDelayMs": 20});
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match http(entry, "POST", "/api/rooms", Some(body.clone())).await {
            Ok((201, v)) => return v["id"].as_str().map(String::from).ok_or(format!("no id: {v}")),
            Ok((s, v)) if Instant::now() > deadline => return Err(format!("create {game}: {s} {v}")),
            Err(e) if Instant::now() > deadline => return Err(e),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// What the test tells every player.
pub struct Ctl {
    /// Where players connect: HAProxy, or one node directly.
    pub entry: String,
    /// Connect at `entry` itself, ignoring the `path` a lookup names (one node, no proxy).
    pub direct: bool,
    pub stop: AtomicBool,
    /// No new moves (and no new matches) while set; players keep reading.
    pub paused: AtomicBool,
    /// Keep each table's fields (for a readable diff when a check fails), not only a hash.
    pub keep_fields: bool,
    /// Silence after which a player drops its connection and resolves the room again.
    pub watchdog: Duration,
    /// A pause before each move (keeps a CI run's CPU down); zero for the benchmark.
    pub think: Duration,
}

impl Ctl {
    pub fn new(entry: String, direct: bool, keep_fields: bool, think: Duration) -> Arc<Ctl> {
        Arc::new(Ctl {
            entry,
            direct,
            stop: AtomicBool::new(false),
            paused: AtomicBool::new(false),
            keep_fields,
            watchdog: Duration::from_secs(20),
            think,
        })
    }

    pub fn pause(&self, on: bool) {
        self.paused.store(on, Ordering::SeqCst);
    }
}

/// A room to play: its game, its people (the first is host) and how many bots the host adds.
#[derive(Clone, Debug)]
pub struct RoomPlan {
    pub id: String,
    pub game: String,
    pub people: Vec<String>,
    pub bots: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Sent, no answer yet.
    Pending,
    /// Applied: the room answered the fence sent right after it with no refusal of it (the
    /// room answers a connection's packets in order, and refuses a move before anything after
    /// it is read), so the room took it and stored it.
    Acked,
    /// Refused on the connection it was first sent on (`ActionFailed` with this code and its
    /// serial).
    Refused(String),
    /// Not known from the client's side (resent after a reconnect and refused as stale: applied
    /// before the drop, or not): only the log tells.
    Unknown,
}

/// A move a player chose: from the table `(key, serial)`, for `seat`.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The match (the room's `lastMatch` while it was played).
    pub key: Option<i64>,
    pub serial: u64,
    pub seat: usize,
    pub action: Value,
    pub outcome: Outcome,
    /// Times sent (1 + resends after reconnects).
    pub sends: u32,
    /// The decision waited on several seats (a window): another seat's move also moves the
    /// serial.
    pub multi: bool,
    /// The connection it was last sent on.
    pub conn: u32,
    pub at: Instant,
}

/// One table a player saw: the match, the serial (moves in the log then), and its game fields.
#[derive(Clone, Debug)]
pub struct Obs {
    pub key: Option<i64>,
    pub serial: u64,
    pub seat: usize,
    pub hash: u64,
    pub fields: Option<Value>,
    pub at: Instant,
    /// When the connection it came on was opened.
    pub since: Instant,
}

/// Everything a player knows, shared with the test.
#[derive(Debug, Default)]
pub struct PState {
    pub name: String,
    pub room: String,
    pub token: Option<String>,
    /// The seat held in each match.
    pub seats: HashMap<Option<i64>, usize>,
    pub attempts: Vec<Attempt>,
    pub obs: Vec<Obs>,
    seen: HashSet<(Option<i64>, u64)>,
    /// New tables seen plus matches ended: grows while the room plays.
    pub progress: u64,
    pub seat_errors: Vec<String>,
    /// How each connection ended: "4001 moved", "dropped ...", "watchdog".
    pub closes: Vec<(Instant, String)>,
    pub connects: u32,
    /// The node path of the current connection.
    pub path: String,
    pub connected: bool,
    /// When the current connection was opened.
    pub since: Option<Instant>,
    pub ended: u32,
    /// Refusals of packets other than moves, and oddities (not failures by themselves).
    pub notes: Vec<String>,
    pub last_error: Option<String>,
    /// The last table was a running match (else the lobby).
    pub in_game: bool,
    /// Joins by name again after the room forgot a member that dropped in the lobby.
    pub lobby_rejoins: u32,
    /// The last table, in short (for a failure's message).
    pub last_table: String,
    /// Lookups answered `503 {"error":"moving"}` by a node (its room's owner gone, not claimed
    /// yet: issue 46).
    pub moving: u32,
    /// The proxy's own refusals met (a lookup or a WebSocket handshake answered 502/503/504 by
    /// HAProxy), all JSON `{"error":"moving","proxy":…}`.
    pub proxy_json: u32,
    /// Refusals whose body was not JSON (the proxy's HTML error page): each is a failure.
    pub html: Vec<String>,
    /// Evidence only (no check reads it): a refusal of a move (`ActionFailed` with a `serial`,
    /// its code) that names no move in flight on its connection (the last move sent on that
    /// connection: its index in `attempts`). None is expected: a move is answered (its fence)
    /// before the next is sent.
    pub late_refusals: Vec<(usize, String)>,
}

pub struct Player {
    pub name: String,
    pub room: String,
    pub state: Arc<Mutex<PState>>,
    task: tokio::task::JoinHandle<()>,
}

impl Player {
    /// Starts the player `index` of `plan` (index 0 is the room's creator's host).
    pub fn start(plan: &RoomPlan, index: usize, ctl: Arc<Ctl>) -> Player {
        let name = plan.people[index].clone();
        let state = Arc::new(Mutex::new(PState { name: name.clone(), room: plan.id.clone(), ..PState::default() }));
        let task = tokio::spawn(run(plan.clone(), state.clone(), ctl));
        Player { name, room: plan.id.clone(), state, task }
    }

    pub fn progress(&self) -> u64 {
        self.state.lock().unwrap().progress
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A legal entry, chosen without knowing the game (as the server's every-game tests do): lock
/// a choice in where the game asks for confirming (Wolf Pack), in Three Kingdoms' play phase
/// use a card that harms others (so games end), else end the phase, answer with a card when
/// one can, prefer doing something over ending the turn (Sorcery), else the first one. `nth`
/// rotates past entries refused already.
fn pick(legal: &[Value], nth: usize) -> Option<Value> {
    let harmful = ["Attack", "Duel", "Barbarians", "RainArrows", "Dismantle", "Lightning", "Acedia"];
    let best = legal
        .iter()
        .position(|a| a["confirm"] == true || a["type"] == "Confirm")
        .or_else(|| legal.iter().position(|a| a["type"] == "Use" && harmful.iter().any(|k| a["kind"] == *k)))
        .or_else(|| legal.iter().position(|a| a["type"] == "EndPlay"))
        .or_else(|| legal.iter().position(|a| a["type"] == "Respond"))
        .or_else(|| legal.iter().position(|a| a["type"] != "End"))
        .or(if legal.is_empty() { None } else { Some(0) })?;
    Some(legal[(best + nth) % legal.len()].clone())
}

/// The fields of a table that the game decides (everything the room adds — members, chat,
/// clocks, options, who is host — taken out), as the checks compare them with a replay. Of
/// the players, the room's `people` and bots (`bot-…`): a game's house seats (Wolf Pack's
/// "the Ace") are in a replay's players but no member of the room.
pub fn game_fields(gd: &Value, people: &[String]) -> Value {
    const ROOM: &[&str] = &[
        "roomId",
        "host",
        "you",
        "gameStarted",
        "chat",
        "bots",
        "levels",
        "minPlayers",
        "maxPlayers",
        "lastWinner",
        "lastMatch",
        "matchNumber",
        "ownCards",
        "autoPass",
        "options",
        "waitingOn",
        "serial",
        "seeded",
        "setUp",
        "legal",
        "replay",
        "players",
    ];
    // A seat's rating is the room's (the store's ratings of its people, the ladder's of its bots).
    const MEMBER: &[&str] = &["joinTime", "isBot", "connected", "isSpectator", "bot", "rating", "provisional"];
    let mut out = serde_json::Map::new();
    if let Some(map) = gd.as_object() {
        for (k, v) in map {
            if !ROOM.contains(&k.as_str()) {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    let seats: Vec<&str> =
        gd["seats"].as_array().map(|s| s.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let mut players = serde_json::Map::new();
    for p in gd["players"].as_array().into_iter().flatten() {
        let Some(name) = p["username"].as_str() else { continue };
        if !seats.contains(&name) || !(name.starts_with("bot-") || people.iter().any(|p| p == name)) {
            continue;
        }
        let mut q = serde_json::Map::new();
        for (k, v) in p.as_object().into_iter().flatten() {
            if !MEMBER.contains(&k.as_str()) {
                q.insert(k.clone(), v.clone());
            }
        }
        players.insert(name.to_string(), Value::Object(q));
    }
    out.insert("players".into(), Value::Object(players));
    Value::Object(out)
}

/// A stable hash of a JSON value (serde_json's maps are sorted, so its text is canonical).
pub fn hash_value(v: &Value) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    v.to_string().hash(&mut h);
    h.finish()
}

fn waiting(gd: &Value) -> Vec<String> {
    gd["waitingOn"].as_array().into_iter().flatten().filter_map(|w| w["username"].as_str().map(String::from)).collect()
}

/// Finds where the room lives (through `ctl.entry`), connects there, and joins (first time)
/// or reconnects with the token. Answers the socket and the node path.
async fn connect(plan: &RoomPlan, st: &Mutex<PState>, ctl: &Ctl) -> Result<(Ws, String), String> {
    let (name, token) = {
        let s = st.lock().unwrap();
        (s.name.clone(), s.token.clone())
    };
    let room = &plan.id;
    let deadline = Instant::now() + Duration::from_secs(60);
    // The room's summary as the lookup answered it: whether it still seats this player.
    let (path, looked) = loop {
        if ctl.stop.load(Ordering::SeqCst) {
            return Err("stopped".into());
        }
        let answer = http(&ctl.entry, "GET", &format!("/api/rooms/{room}"), None).await;
        if let Ok((status, v)) = &answer
            && *status >= 500
        {
            refusal(st, *status, v, "lookup");
        }
        match answer {
            Ok((200, v)) => break (v["path"].as_str().unwrap_or("").to_string(), v),
            Ok((404, v)) => return Err(format!("room {room} not found: {v}")),
            other if Instant::now() > deadline => return Err(format!("room {room} not resolved in 60 s: {other:?}")),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    let path = if ctl.direct { String::new() } else { path };
    let url = format!("ws://{}{}/api/rooms/{room}/ws", ctl.entry, path);
    let (mut ws, _) = match tokio::time::timeout(Duration::from_secs(5), connect_async(&url))
        .await
        .map_err(|_| format!("{url}: timed out"))?
    {
        Ok(w) => w,
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            // Refused in HTTP: the proxy (its node down) or a node; the body says which.
            let body = response.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default().to_string();
            let v = serde_json::from_str(&body)
                .unwrap_or_else(|_| if body.trim().is_empty() { Value::Null } else { Value::String(body.clone()) });
            refusal(st, response.status().as_u16(), &v, "WebSocket");
            return Err(format!("{url}: refused {}: {body}", response.status()));
        }
        Err(e) => return Err(format!("{url}: {e}")),
    };
    let hello = match &token {
        Some(t) => json!({"type": "Reconnect", "token": t}),
        None => json!({"type": "JoinGame", "username": name}),
    };
    ws.send(Message::Text(hello.to_string().into())).await.map_err(|e| e.to_string())?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let m = tokio::time::timeout_at(deadline, ws.next()).await.map_err(|_| "no Joined in 5 s".to_string())?;
        let v: Value = match m {
            Some(Ok(Message::Text(t))) => serde_json::from_str(&t).map_err(|e| e.to_string())?,
            Some(Ok(Message::Close(f))) => return Err(format!("closed before Joined: {f:?}")),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("before Joined: {e}")),
            None => return Err("ended before Joined".into()),
        };
        match v["type"].as_str() {
            Some("Joined") => {
                let mut s = st.lock().unwrap();
                if v["username"] != name.as_str() {
                    s.seat_errors.push(format!("joined as {} instead of {name}", v["username"]));
                }
                if let Some(t) = v["token"].as_str() {
                    s.token = Some(t.to_string());
                }
                s.connects += 1;
                s.path = path.clone();
                s.connected = true;
                s.since = Some(Instant::now());
                return Ok((ws, path));
            }
            Some("PlayerJoinRejected") => {
                let mut s = st.lock().unwrap();
                // Whether the room, as the lookup just before saw it, is playing a match that
                // seats this name: only then is a refused token a seat lost.
                let seated = looked["state"] == "playing"
                    && looked["players"].as_array().is_some_and(|p| p.iter().any(|n| n == name.as_str()));
                if token.is_some() && v["code"] == "unknown_token" && (!s.in_game || !seated) {
                    // Between matches there is no seat: a member whose connection dropped in
                    // the lobby leaves the room (docs/protocol.md), so its token is gone after
                    // a failover. It joins again by name, as a person would (web/app.js does);
                    // counted. Also when the player last saw its match running but the room
                    // no longer plays one that seats it: the match ended while it was away (its
                    // end is checked against the stored matches like any other).
                    if s.in_game {
                        s.notes
                            .push(format!("token refused after its match ended while away; rejoins by name: {looked}"));
                        s.in_game = false;
                    }
                    s.lobby_rejoins += 1;
                    s.token = None;
                } else if token.is_some() {
                    s.seat_errors.push(format!("reconnect refused: {v}"));
                }
                return Err(format!("join refused: {v}"));
            }
            _ => {}
        }
    }
}

/// Counts a refusal met on the way to a room (`status` 5xx): a node's `503 moving`, the proxy's
/// JSON, or anything that is not JSON (noted as a failure).
fn refusal(st: &Mutex<PState>, status: u16, body: &Value, what: &str) {
    let mut s = st.lock().unwrap();
    match body {
        Value::Object(o) if o.contains_key("proxy") => s.proxy_json += 1,
        Value::Object(o) if o.get("error").and_then(Value::as_str) == Some("moving") => s.moving += 1,
        Value::Object(_) => s.notes.push(format!("{what} refused {status}: {body}")),
        other => {
            let text: String = other.to_string().chars().take(120).collect();
            s.html.push(format!("{what} refused {status} with a body that is not JSON: {text}"));
        }
    }
}

async fn send(ws: &mut Ws, v: &Value) -> bool {
    ws.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// The player's life: connect, play, reconnect, until the test stops it.
async fn run(plan: RoomPlan, st: Arc<Mutex<PState>>, ctl: Arc<Ctl>) {
    let me = st.lock().unwrap().name.clone();
    let mut ws: Option<Ws> = None;
    let mut conn_no: u32 = 0;
    let mut pending: Option<usize> = None;
    let mut last_packet = Instant::now();
    let mut last_nudge = Instant::now();
    let mut last_lobby_act = Instant::now() - Duration::from_secs(10);
    // Tries at one table (a refused pick moves on to another entry).
    let mut tries: HashMap<(Option<i64>, u64), usize> = HashMap::new();
    // Every move (and every resend after a reconnect) is followed by a fence: a packet of an
    // unknown type, which the room answers with `bad_packet` quoting its type. The room answers
    // a connection's packets in order and refuses a move (`ActionFailed` with the move's
    // `serial`) before it reads the next packet, so when the fence's answer comes the move has
    // been answered: refused (a refusal naming its serial came first) or applied and stored.
    // No new move (and no lobby packet) goes out until then, so one move at most is in flight
    // on a connection and a refusal is paired with its move by the serial it says back. (Before
    // refusals named their serial, a refusal was paired with whatever move was pending, and a
    // move was taken as applied from a table past its serial: in a window another seat's move
    // moves the serial too, so a second move could go out while the first was unanswered,
    // and its `stale_action` was paired with the wrong one — seen in the 200-fault run.)
    let mut fence: Option<String> = None;
    let mut fences: u64 = 0;
    // The last table, handled again once a fence is answered (the tables that came while a
    // move was in flight made no move).
    let mut last_sync: Option<Value> = None;
    let mut again: Option<Value> = None;
    while !ctl.stop.load(Ordering::SeqCst) {
        let Some(w) = ws.as_mut() else {
            match connect(&plan, &st, &ctl).await {
                Ok((mut w, _)) => {
                    conn_no += 1;
                    last_packet = Instant::now();
                    // A new connection (maybe another node) gets a fresh try at every table.
                    tries.clear();
                    // An unanswered move is sent again, with the serial it was chosen at: the
                    // room (wherever it lives now) applies it at most once.
                    let resend = pending.map(|i| {
                        let mut s = st.lock().unwrap();
                        let a = &mut s.attempts[i];
                        a.sends += 1;
                        a.conn = conn_no;
                        json!({"type": "Act", "action": a.action, "serial": a.serial})
                    });
                    fence = None;
                    last_sync = None;
                    let ok = match resend {
                        Some(p) => {
                            fences += 1;
                            let token = format!("harness-fence-{conn_no}-{fences}");
                            let sent = send(&mut w, &p).await && send(&mut w, &json!({"type": token.as_str()})).await;
                            fence = Some(token);
                            sent
                        }
                        None => true,
                    };
                    if ok {
                        ws = Some(w);
                    }
                }
                Err(e) => {
                    st.lock().unwrap().last_error = Some(e);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
            continue;
        };
        let ended = |why: String| {
            let mut s = st.lock().unwrap();
            s.closes.push((Instant::now(), why));
            s.connected = false;
        };
        let m = match again.take() {
            Some(v) => Some(Ok(Message::Text(v.to_string().into()))),
            None => match tokio::time::timeout(Duration::from_millis(250), w.next()).await {
                Ok(m) => m,
                Err(_) => {
                    if last_packet.elapsed() > ctl.watchdog {
                        ended("watchdog".into());
                        ws = None;
                    } else if last_packet.elapsed() > Duration::from_secs(2)
                        && last_nudge.elapsed() > Duration::from_secs(2)
                    {
                        last_nudge = Instant::now();
                        if !send(w, &json!({"type": "GameDataRequest"})).await {
                            ended("send failed".into());
                            ws = None;
                        }
                    }
                    continue;
                }
            },
        };
        let v: Value = match m {
            Some(Ok(Message::Text(t))) => match serde_json::from_str(&t) {
                Ok(v) => v,
                Err(_) => continue,
            },
            Some(Ok(Message::Close(f))) => {
                ended(match f {
                    Some(f) => format!("{} {}", u16::from(f.code), f.reason),
                    None => "close without a code".into(),
                });
                ws = None;
                continue;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                ended(format!("dropped: {e}"));
                ws = None;
                continue;
            }
            None => {
                ended("dropped: stream ended".into());
                ws = None;
                continue;
            }
        };
        last_packet = Instant::now();
        let mut out: Vec<Value> = Vec::new();
        let mut backoff = false;
        {
            let mut s = st.lock().unwrap();
            let s = &mut *s;
            match v["type"].as_str().unwrap_or("") {
                "GameDataSync" => {
                    last_sync = Some(v.clone());
                    let gd = &v["gameData"];
                    let key = gd["lastMatch"].as_i64();
                    s.in_game = gd["gameStarted"] == true;
                    s.last_table = format!(
                        "started {} serial {} host {} waiting {} legal {} pending {:?} players {}",
                        gd["gameStarted"],
                        gd["serial"],
                        gd["host"],
                        gd["waitingOn"],
                        gd["legal"].as_array().map_or(0, Vec::len),
                        pending.map(|i| (s.attempts[i].serial, s.attempts[i].outcome.clone())),
                        gd["players"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|p| format!("{}:{}", p["username"], p["connected"]))
                            .collect::<Vec<_>>()
                            .join(",")
                    );
                    if gd["gameStarted"] == true {
                        let Some(serial) = gd["serial"].as_u64() else { continue };
                        let seats: Vec<&str> =
                            gd["seats"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                        let Some(seat) = seats.iter().position(|n| *n == me) else {
                            s.seat_errors.push(format!("not seated in match {key:?} at serial {serial}: {seats:?}"));
                            continue;
                        };
                        let held = *s.seats.entry(key).or_insert(seat);
                        if held != seat {
                            s.seat_errors.push(format!("seat {held} became {seat} in match {key:?}"));
                        }
                        if s.seen.insert((key, serial)) {
                            let fields = game_fields(gd, &plan.people);
                            s.obs.push(Obs {
                                key,
                                serial,
                                seat,
                                hash: hash_value(&fields),
                                fields: ctl.keep_fields.then_some(fields),
                                at: Instant::now(),
                                since: s.since.unwrap_or_else(Instant::now),
                            });
                            s.progress += 1;
                        }
                        let waits = waiting(gd);
                        let waits_me = waits.contains(&me);
                        let legal = gd["legal"].as_array().cloned().unwrap_or_default();
                        let tried = tries.get(&(key, serial)).copied().unwrap_or(0);
                        if pending.is_none()
                            && waits_me
                            && !legal.is_empty()
                            && tried < 3
                            && !ctl.paused.load(Ordering::SeqCst)
                            && fence.is_none()
                            && let Some(action) = pick(&legal, tried)
                        {
                            tries.insert((key, serial), tried + 1);
                            out.push(json!({"type": "Act", "action": action, "serial": serial}));
                            fences += 1;
                            let token = format!("harness-fence-{conn_no}-{fences}");
                            out.push(json!({"type": token.as_str()}));
                            fence = Some(token);
                            s.attempts.push(Attempt {
                                key,
                                serial,
                                seat,
                                action,
                                outcome: Outcome::Pending,
                                sends: 1,
                                multi: waits.len() > 1,
                                conn: conn_no,
                                at: Instant::now(),
                            });
                            pending = Some(s.attempts.len() - 1);
                        }
                    } else {
                        let paused = ctl.paused.load(Ordering::SeqCst) || fence.is_some();
                        if !paused && gd["host"] == me.as_str() && last_lobby_act.elapsed() > Duration::from_millis(300)
                        {
                            let players = gd["players"].as_array().cloned().unwrap_or_default();
                            let bots = players.iter().filter(|p| p["isBot"] == true).count();
                            let present = plan
                                .people
                                .iter()
                                .all(|n| players.iter().any(|p| p["username"] == n.as_str() && p["connected"] == true));
                            if bots < plan.bots {
                                out.push(json!({"type": "AddBot", "bot": "easy"}));
                                last_lobby_act = Instant::now();
                            } else if present {
                                out.push(json!({"type": "StartGame"}));
                                last_lobby_act = Instant::now();
                            }
                        }
                    }
                }
                "ActionFailed"
                    if fence.as_deref().is_some_and(|t| {
                        v["code"] == "bad_packet" && v["reason"].as_str().is_some_and(|r| r.contains(&format!("`{t}`")))
                    }) =>
                {
                    // Everything sent before the fence is answered: a move in flight that no
                    // refusal named was applied (a resend too: applied on this connection).
                    fence = None;
                    if let Some(i) = pending.take() {
                        let a = &mut s.attempts[i];
                        if a.outcome == Outcome::Pending {
                            a.outcome = Outcome::Acked;
                        }
                    }
                    // Play on from the last table (a newer one comes if there is one).
                    again = last_sync.take();
                }
                "ActionFailed" => {
                    let code = v["code"].as_str().unwrap_or("?").to_string();
                    // The database out of reach (a restart, a cut): the same table is tried
                    // again after a pause, as often as it takes — a person would click again.
                    s.notes.push(format!("{code} at {}", s.last_table.chars().take(60).collect::<String>()));
                    if s.notes.len() > 50 {
                        s.notes.remove(0);
                    }
                    let unavailable = code == "store_unavailable";
                    if unavailable {
                        backoff = true;
                    }
                    // A refusal of a move names its serial; one without is of another packet
                    // (a move refused before it was read, as `rate_limited`, is left to its
                    // fence and the log: Unknown).
                    match (v["serial"].as_u64(), pending) {
                        (Some(serial), Some(i)) if s.attempts[i].serial == serial => {
                            pending = None;
                            let a = &mut s.attempts[i];
                            if unavailable && let Some(n) = tries.get_mut(&(a.key, a.serial)) {
                                *n = n.saturating_sub(1);
                            }
                            if a.outcome == Outcome::Pending {
                                a.outcome = if a.sends == 1 && a.conn == conn_no {
                                    Outcome::Refused(code)
                                } else {
                                    Outcome::Unknown
                                };
                            }
                        }
                        (Some(_), _) => {
                            s.notes.push(format!("refusal of no move in flight: {v}"));
                            if let Some(j) = s.attempts.iter().rposition(|a| a.conn == conn_no) {
                                s.late_refusals.push((j, code.clone()));
                            }
                        }
                        (None, Some(i)) if code == "rate_limited" || code == "binary_frame" => {
                            pending = None;
                            s.attempts[i].outcome = Outcome::Unknown;
                        }
                        (None, _) => {}
                    }
                    if fence.is_none() {
                        out.push(json!({"type": "GameDataRequest"}));
                    }
                }
                "GameEnded" => {
                    s.ended += 1;
                    s.progress += 1;
                }
                _ => {}
            }
        }
        if backoff {
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        for p in out {
            if p["type"] == "Act" && !ctl.think.is_zero() {
                tokio::time::sleep(ctl.think).await;
            }
            if !send(w, &p).await {
                ended("send failed".into());
                ws = None;
                break;
            }
        }
    }
}
