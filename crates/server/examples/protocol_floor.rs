//! The least a server could spend per move on the shared load driver (`compare-load.sh`): the
//! same stack as `cardtable serve` (tokio on one thread, axum, its WebSocket), the same
//! Buckshot room protocol and the same packets byte for byte in shape and size (a shot, turn
//! end, turn start and a full ~1.4 KB `GameDataSync` to each of four clients), but no rules
//! engine (a shot takes a life at random), no actor per room (one short lock), no store, no
//! limits. Whatever this costs per move, a real server pays too: it is the floor against which
//! "moves per server CPU-second" is judged.
//!
//! **The durable floor** (`FLOOR_COMMIT=1` in its environment, with `--db PATH`): the same, and
//! each move is first inserted and committed in SQLite, one transaction a move, on the store's
//! own connection (`store::sqlite::open_connection`: its schema, WAL, `synchronous = NORMAL`,
//! 1 KiB pages, exclusive locking) with cached statements, into its move log. The least a server that
//! commits a move before anyone hears of it pays on this stack, when moves come one at a time
//! (as under the shared driver, which keeps the server about half busy); it saves no room, join
//! or finished match, which `serve` does.
//!
//! **The whole-room durable floor** (`FLOOR_COMMIT=2`): the durable floor, and also the least
//! of a room's own life that `serve` must store before anyone hears of it, each as its own
//! transaction of the store's size, when it happens: the room's row when it is created (its
//! link works before anyone joins), each join (the member's token is their way back after a
//! restart or a failover: stored before `Joined`), the match's start (the snapshot with its
//! seats and seed), its end (the match record with its log, and the room back in the lobby, in
//! one transaction) and the room's deletion once its last member is gone (one transaction for
//! all the leaves). `serve` writes these too (and, today, each lobby leave on its own); this
//! mode says what they cost at the least, with no rules, no actor and no views.
//!
//! `protocol_floor [ADDR]` (default 127.0.0.1:7879; port 0 picks a free one), or with
//! `serve`'s arguments (`protocol_floor serve --addr ADDR …`: the other flags are ignored but
//! `--db`).
//! Like `serve` it prints `http://ADDR/` on its first line. Run it where `compare-load.sh`
//! expects a server (`scripts/floor-load.sh`), or under `cardtable loadtest --server`.

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use futures_util::SinkExt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

const SEATS: usize = 4;
const LIVES: u8 = 5;

#[derive(Default)]
struct Table {
    names: Vec<String>,
    conns: Vec<mpsc::UnboundedSender<Vec<String>>>,
    lives: [u8; SEATS],
    turn: usize,
    turns: u64,
    started: bool,
    rng: u64,
    /// The match's move entries (the whole-room floor records them when it ends).
    log: Vec<String>,
}

impl Table {
    fn random(&mut self) -> u64 {
        // xorshift64: the floor needs coin flips, not a good generator.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn alive(&self) -> usize {
        self.lives.iter().filter(|&&l| l > 0).count()
    }

    /// The full table as the real server sends it after every move (same fields, same size).
    fn sync(&self, you: usize) -> String {
        let mut players = String::with_capacity(1024);
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                players.push(',');
            }
            players.push_str(&format!(
                r#"{{"username":"{name}","inGame":true,"isSpectator":false,"joinTime":1795632312482,"isBot":false,"connected":true,"lives":{},"items":["skip","quickshot","rebalancer","shootAir"],"isSkipped":false}}"#,
                self.lives[i]
            ));
        }
        let cur = &self.names[self.turn];
        let next = &self.names[(self.turn + 1) % SEATS];
        format!(
            r#"{{"type":"GameDataSync","gameData":{{"you":"{}","players":[{players}],"roomId":"3fkzsf","game":"buckshot","host":"{}","gameStarted":true,"chat":[],"bots":["random","heuristic"],"levels":["easy","medium","hard","expert"],"seats":["p0","p1","p2","p3"],"lastWinner":null,"lastMatch":null,"minPlayers":2,"maxPlayers":8,"options":{{"holdSeconds":60,"turnSeconds":30,"botDelayMs":700,"maxSpectators":64,"gameOptions":null,"private":false}},"waitingOn":[{{"username":"{cur}","msLeft":null}}],"currentTurn":"{cur}","nextTurn":"{next}","round":1,"turnCount":{},"liveLeft":2,"blankLeft":3,"doubleDamage":false,"quickshot":"off","rebalancerWindow":false,"winner":null,"nextShell":null,"legal":[]}}}}"#,
            self.names[you], self.names[0], self.turns
        )
    }

    fn send_all(&self, common: &[String]) {
        for (i, tx) in self.conns.iter().enumerate() {
            let mut batch = common.to_vec();
            batch.push(self.sync(i));
            let _ = tx.send(batch);
        }
    }

    fn shoot(&mut self, room: &str, by: usize, target: &str) {
        let Some(t) = self.names.iter().position(|n| n == target) else { return };
        if !self.started || by != self.turn || self.lives[t] == 0 {
            return;
        }
        // A move entry of the real log's size: the seat, the action, the decision serial.
        let entry = format!(r#"{{"seat":{by},"action":{{"Shoot":{{"target":{t}}}}},"serial":{}}}"#, self.turns);
        commit_move(room, self.turns, &entry);
        if whole_room() {
            self.log.push(entry);
        }
        let live = self.random().is_multiple_of(2);
        if live {
            self.lives[t] -= 1;
        }
        let shell = if live { "live" } else { "blank" };
        let mut packets = vec![format!(
            r#"{{"type":"ShootPlayer","username":"{target}","by":"{}","shell":"{shell}","damage":{}}}"#,
            self.names[by],
            u8::from(live)
        )];
        packets.push(format!(r#"{{"type":"TurnEnd","username":"{}"}}"#, self.names[by]));
        self.turns += 1;
        if self.alive() <= 1 {
            let w = self.lives.iter().position(|&l| l > 0).unwrap_or(0);
            packets.push(format!(r#"{{"type":"GameEnded","winner":"{}"}}"#, self.names[w]));
            self.started = false;
            commit_end(room, &self.names, &std::mem::take(&mut self.log), &self.names[w]);
        } else {
            // Blank on yourself keeps the turn, as in Buckshot.
            if live || t != by {
                self.turn = (1..=SEATS).map(|k| (self.turn + k) % SEATS).find(|&s| self.lives[s] > 0).unwrap_or(0);
            }
            packets.push(format!(r#"{{"type":"TurnStart","username":"{}"}}"#, self.names[self.turn]));
        }
        self.send_all(&packets);
    }
}

/// The durable floor's database (`None`: the plain floor).
static LOG: Mutex<Option<rusqlite::Connection>> = Mutex::new(None);
/// `FLOOR_COMMIT=2`: the room's own life is stored too.
static WHOLE_ROOM: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn whole_room() -> bool {
    WHOLE_ROOM.load(Ordering::Relaxed)
}

/// A room snapshot of the size `serve` stores with `members` members (its options, each
/// member's name, token and join time, and once a match runs its seed and seats).
fn snapshot(names: &[String], started: bool) -> String {
    let members: Vec<String> = names
        .iter()
        .map(|n| format!(r#"{{"username":"{n}","token":"7cb6483eec01f9846b790bb5a06b7c63","joinTime":1796171252360,"bot":null,"spectator":false}}"#))
        .collect();
    let matched = if started {
        format!(
            r#"{{"seed":6,"config":{{"players":4}},"seats":{},"bots":[null,null,null,null],"startedAt":1796171252370,"rulesVersion":1}}"#,
            names_json(names)
        )
    } else {
        "null".into()
    };
    format!(
        r#"{{"options":{{"seed":6,"holdSeconds":60,"turnSeconds":30,"botDelayMs":700,"maxSpectators":64,"gameOptions":null,"private":false}},"members":[{}],"host":null,"matchesPlayed":0,"baseSeed":6,"lastMatch":null,"match":{matched}}}"#,
        members.join(",")
    )
}

/// `names` as a JSON array of strings (the seats of a snapshot, the players of a record).
fn names_json(names: &[String]) -> String {
    serde_json::to_string(names).expect("names serialize")
}

/// Runs `f` in one transaction on the floor's database (if the whole room is stored).
fn commit_room(f: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<()>) {
    if !whole_room() {
        return;
    }
    let mut log = LOG.lock().unwrap();
    let Some(conn) = log.as_mut() else { return };
    conn.prepare_cached("BEGIN").and_then(|mut st| st.execute([])).expect("begin");
    f(conn).expect("room write");
    conn.prepare_cached("COMMIT").and_then(|mut st| st.execute([])).expect("commit");
}

/// The room's row written whole: created (`insert`), or a join or a start.
fn commit_snapshot(room: &str, snapshot: &str, insert: bool) {
    commit_room(|c| {
        let sql = if insert {
            "INSERT INTO rooms (id, game, snapshot, moves_from) VALUES (?1, 'buckshot', ?2, \
             (SELECT coalesce(max(seq), 0) + 1 FROM moves))"
        } else {
            "UPDATE rooms SET snapshot = ?2, moves_from = (SELECT coalesce(max(seq), 0) + 1 FROM moves), \
             updated_at = unixepoch() WHERE id = ?1"
        };
        c.prepare_cached(sql)?.execute(rusqlite::params![room, snapshot]).map(|_| ())
    });
}

/// A match's end: its record (with its log) and the room back in the lobby, one transaction.
fn commit_end(room: &str, names: &[String], log: &[String], winner: &str) {
    let snapshot = snapshot(names, false);
    let players = names_json(names);
    let log = format!("[{}]", log.join(","));
    commit_room(|c| {
        c.prepare_cached(
            "INSERT INTO matches (room_id, game, seed, config, players, log, result, started_at, ended_at, match_no)
             VALUES (?1, 'buckshot', 6, '{\"players\":4}', ?2, ?3, ?4, 1796171252370, 1796171252999, NULL)",
        )?
        .execute(rusqlite::params![room, players, log, format!(r#"{{"winners":["{winner}"]}}"#)])?;
        c.prepare_cached(
            "UPDATE rooms SET snapshot = ?2, moves_from = (SELECT coalesce(max(seq), 0) + 1 FROM moves) WHERE id = ?1",
        )?
        .execute(rusqlite::params![room, snapshot])
        .map(|_| ())
    });
}

/// The room deleted once its last member is gone (its id retired, as `serve` does).
fn commit_delete(room: &str) {
    commit_room(|c| {
        c.prepare_cached("DELETE FROM rooms WHERE id = ?1")?.execute([room])?;
        c.prepare_cached("DELETE FROM chat WHERE room_id = ?1")?.execute([room])?;
        c.prepare_cached("INSERT OR IGNORE INTO retired_ids (id, retired_at) VALUES (?1, unixepoch())")?
            .execute([room])
            .map(|_| ())
    });
}

/// The store's own connection (its pragmas and schema: `store::sqlite::open_connection`).
fn open_log(path: &str) -> rusqlite::Connection {
    store::sqlite::open_connection(std::path::Path::new(path)).expect("open the floor's database")
}

/// Commits one move, as the store does for a batch of one (cached BEGIN, insert, COMMIT).
fn commit_move(room: &str, idx: u64, entry: &str) {
    let mut log = LOG.lock().unwrap();
    let Some(conn) = log.as_mut() else { return };
    conn.prepare_cached("BEGIN").and_then(|mut st| st.execute([])).expect("begin");
    conn.prepare_cached("INSERT INTO moves (room_id, idx, entry) VALUES (?1, ?2, ?3)")
        .and_then(|mut st| st.execute(rusqlite::params![room, idx as i64, entry]))
        .expect("insert");
    conn.prepare_cached("COMMIT").and_then(|mut st| st.execute([])).expect("commit");
}

type Rooms = Arc<Mutex<HashMap<String, Arc<Mutex<Table>>>>>;
static NEXT: AtomicU64 = AtomicU64::new(1);

async fn create(State(rooms): State<Rooms>) -> impl IntoResponse {
    let id = format!("r{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let table = Table { rng: 0x9E37_79B9_7F4A_7C15 ^ NEXT.load(Ordering::Relaxed), ..Table::default() };
    commit_snapshot(&id, &snapshot(&[], false), true);
    rooms.lock().unwrap().insert(id.clone(), Arc::new(Mutex::new(table)));
    (StatusCode::CREATED, [("content-type", "application/json")], format!(r#"{{"id":"{id}"}}"#))
}

async fn ws(Path(id): Path<String>, State(rooms): State<Rooms>, up: WebSocketUpgrade) -> impl IntoResponse {
    let table = rooms.lock().unwrap().get(&id).cloned();
    // The real server's socket settings (a small read buffer: tungstenite zeroes it per read).
    up.read_buffer_size(1024).write_buffer_size(4 * 1024).on_upgrade(move |socket| async move {
        if let Some(table) = table {
            serve(socket, table, &rooms, &id).await;
        }
    })
}

async fn serve(mut socket: WebSocket, table: Arc<Mutex<Table>>, rooms: &Rooms, id: &str) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<String>>();
    let mut seat = None;
    loop {
        tokio::select! {
            batch = rx.recv() => {
                let Some(batch) = batch else { break };
                for p in batch {
                    if socket.feed(Message::Text(p.into())).await.is_err() { return; }
                }
                // Whatever else is queued goes out in the same write.
                while let Ok(batch) = rx.try_recv() {
                    for p in batch {
                        if socket.feed(Message::Text(p.into())).await.is_err() { return; }
                    }
                }
                if socket.flush().await.is_err() { break; }
            }
            msg = socket.recv() => {
                let Some(Ok(Message::Text(text))) = msg else { break };
                let v: serde_json::Value = match serde_json::from_str(text.as_str()) { Ok(v) => v, Err(_) => continue };
                let mut t = table.lock().unwrap();
                match v["type"].as_str() {
                    Some("JoinGame") if seat.is_none() && t.names.len() < SEATS => {
                        let name = v["username"].as_str().unwrap_or("?").to_string();
                        seat = Some(t.names.len());
                        t.names.push(name.clone());
                        t.conns.push(tx.clone());
                        commit_snapshot(id, &snapshot(&t.names, false), false);
                        let _ = tx.send(vec![format!(r#"{{"type":"Joined","username":"{name}","token":"4f1c9a0b7e2d3c5a9b8e7f6a5d4c3b2a"}}"#)]);
                        let joined = format!(r#"{{"type":"PlayerJoined","player":{{"username":"{name}","inGame":false,"isSpectator":false,"joinTime":1795632312482,"isBot":false,"connected":true}}}}"#);
                        for c in &t.conns { let _ = c.send(vec![joined.clone()]); }
                    }
                    Some("StartGame") if seat == Some(0) && t.names.len() == SEATS => {
                        t.started = true;
                        t.lives = [LIVES; SEATS];
                        // A rematch (loadtest restarts finished games in their room) starts at seat 0 again.
                        t.turn = 0;
                        commit_snapshot(id, &snapshot(&t.names, true), false);
                        t.send_all(&[r#"{"type":"GameStarted"}"#.to_string(), format!(r#"{{"type":"TurnStart","username":"{}"}}"#, t.names[0])]);
                    }
                    Some("GameDataRequest") if t.names.len() == SEATS => {
                        let s = seat.unwrap_or(0);
                        let _ = tx.send(vec![t.sync(s)]);
                    }
                    Some("ShootPlayer") => {
                        if let (Some(s), Some(target)) = (seat, v["username"].as_str()) {
                            t.shoot(id, s, target);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // The last one out closes the room.
    let empty = {
        let mut t = table.lock().unwrap();
        t.conns.retain(|c| !c.same_channel(&tx));
        t.conns.is_empty()
    };
    if empty {
        rooms.lock().unwrap().remove(id);
        commit_delete(id);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr = match args.iter().position(|a| a == "--addr") {
        Some(i) => args.get(i + 1).cloned(),
        None => args.first().cloned(),
    }
    .unwrap_or_else(|| "127.0.0.1:7879".into());
    let mode = std::env::var("FLOOR_COMMIT").unwrap_or_default();
    if mode == "1" || mode == "2" {
        let db = args
            .iter()
            .position(|a| a == "--db")
            .and_then(|i| args.get(i + 1))
            .expect("FLOOR_COMMIT=1 or 2 needs --db PATH");
        *LOG.lock().unwrap() = Some(open_log(db));
        WHOLE_ROOM.store(mode == "2", Ordering::Relaxed);
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let rooms: Rooms = Arc::default();
        let app =
            Router::new().route("/api/rooms", post(create)).route("/api/rooms/{id}/ws", get(ws)).with_state(rooms);
        let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
        // As `serve`: the first line says where (scripts and `loadtest --server` read it).
        println!("protocol floor serving on http://{}/", listener.local_addr().expect("address"));
        // As the real server: small packets go out at once (no Nagle delay).
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app).await.expect("serve");
    });
}
