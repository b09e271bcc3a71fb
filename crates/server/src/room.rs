//! A room: one tokio task that owns everything about one table — its members, connections,
//! chat and match. Connections talk to it through a [`RoomHandle`] (a channel); nothing about
//! a room is shared except a small summary for the lobby list, behind a briefly-held lock.
//!
//! Every change is written to the store and acknowledged before any client hears of it, so
//! after a crash the room comes back exactly as its clients last saw it.

use crate::adapter::{Fields, GameAdapter, PacketError};
use engine::{Bot, DecisionKind, Game, MatchRng, Move, Observation, RuleError, Seat, SeatSet, Viewer, derive_seed};
use protocol::{ChatMessage, ClientMsg, Player, ServerMsg, codes};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// One message to one connection: a serialized JSON packet; clones share the bytes.
pub type Outbound = axum::extract::ws::Utf8Bytes;

/// Identifies a connection within the server.
pub type ConnId = u64;

/// Room options, set at creation (`POST /api/rooms`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RoomOptions {
    /// The first match's seed (later matches derive theirs from it). Default: random. It
    /// stays on the server: anyone who knew it could replay the deal and see every hidden
    /// card, so it is never sent to a client (see [`RoomOptions::public`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How long a dropped player keeps their seat during a game.
    pub hold_seconds: u64,
    /// How long a disconnected player's turn waits before a bot plays it.
    pub turn_seconds: u64,
    /// How long bots wait before acting, so people can follow.
    pub bot_delay_ms: u64,
    /// How many members beyond the game's seats may watch: a join past it is refused
    /// (`room_full`).
    pub max_spectators: u64,
    /// Game-specific options, passed to the game's adapter.
    pub game_options: Value,
    /// Not listed in `GET /api/rooms`: only those given the link find it.
    pub private: bool,
}

impl Default for RoomOptions {
    fn default() -> Self {
        RoomOptions {
            seed: None,
            hold_seconds: 60,
            turn_seconds: 30,
            bot_delay_ms: 700,
            max_spectators: 64,
            game_options: Value::Null,
            private: false,
        }
    }
}

/// The ranges of the room options (inclusive), checked at creation and again on restore.
pub const MAX_HOLD_SECONDS: u64 = 86_400;
pub const MAX_TURN_SECONDS: u64 = 86_400;
pub const MAX_BOT_DELAY_MS: u64 = 60_000;
pub const MAX_SPECTATORS: u64 = 256;
/// `gameOptions` serialized: every sync carries the options, so they stay small.
pub const MAX_GAME_OPTIONS_BYTES: usize = 4 * 1024;

impl RoomOptions {
    /// The options as clients see them: all but the seed.
    pub fn public(&self) -> RoomOptions {
        RoomOptions { seed: None, ..self.clone() }
    }

    /// Whether every option is in its range; if not, a reason naming the option.
    pub fn check(&self) -> Result<(), String> {
        for (name, value, max) in [
            ("holdSeconds", self.hold_seconds, MAX_HOLD_SECONDS),
            ("turnSeconds", self.turn_seconds, MAX_TURN_SECONDS),
            ("botDelayMs", self.bot_delay_ms, MAX_BOT_DELAY_MS),
            ("maxSpectators", self.max_spectators, MAX_SPECTATORS),
        ] {
            if value > max {
                return Err(format!("{name} is at most {max}, not {value}"));
            }
        }
        let size = serde_json::to_string(&self.game_options).map_or(usize::MAX, |s| s.len());
        if size > MAX_GAME_OPTIONS_BYTES {
            return Err(format!("gameOptions take at most {MAX_GAME_OPTIONS_BYTES} bytes of JSON, not {size}"));
        }
        Ok(())
    }
}

/// `t + d`, saturating: options are range-checked, but no clock of any length may make a
/// room panic (an `Instant` overflowing), so a sum past the representable means "never".
fn later(t: Instant, d: Duration) -> Instant {
    const NEVER: Duration = Duration::from_secs(100 * 365 * 86_400);
    t.checked_add(d).or_else(|| t.checked_add(NEVER)).unwrap_or(t)
}

/// What the lobby lists about a room.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoomSummary {
    pub id: String,
    pub game: &'static str,
    pub players: Vec<String>,
    pub state: &'static str,
    pub spectators: usize,
    /// Not listed (the room's `private` option).
    #[serde(skip)]
    pub private: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Waiting<'a> {
    username: &'a str,
    ms_left: Option<u64>,
}

pub enum RoomCmd {
    Connect {
        conn: ConnId,
        tx: mpsc::Sender<Outbound>,
    },
    Text {
        conn: ConnId,
        text: Outbound,
    },
    Binary {
        conn: ConnId,
    },
    RateLimited {
        conn: ConnId,
    },
    Disconnect {
        conn: ConnId,
    },
    /// Test and shutdown support: resolves once everything before it was handled.
    Flush {
        done: oneshot::Sender<()>,
    },
}

#[derive(Clone)]
pub struct RoomHandle {
    pub id: String,
    pub game: &'static str,
    pub tx: mpsc::Sender<RoomCmd>,
    pub summary: Arc<Mutex<RoomSummary>>,
}

// ---- persisted shapes ---------------------------------------------------------------------

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MemberSnap {
    username: String,
    token: String,
    join_time: u64,
    bot: Option<String>,
    spectator: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MatchSnap {
    seed: u64,
    config: Value,
    seats: Vec<String>,
    bots: Vec<Option<String>>,
    started_at: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Snapshot {
    options: RoomOptions,
    members: Vec<MemberSnap>,
    host: Option<String>,
    /// Only in snapshots written before the chat had its own table (store v3 moves them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    chat: Vec<ChatMessage>,
    matches_played: u64,
    base_seed: u64,
    #[serde(rename = "match")]
    current: Option<MatchSnap>,
}

// ---- live state ---------------------------------------------------------------------------

struct Member {
    username: String,
    token: String,
    join_time: u64,
    /// `Some(kind)` for a bot.
    bot: Option<String>,
    /// Joined while a game ran (or over the player limit): watches until the next game.
    spectator: bool,
    conn: Option<ConnId>,
    /// When the connection dropped (during a game; in the lobby a drop is a leave).
    dropped_at: Option<Instant>,
}

struct Conn {
    tx: mpsc::Sender<Outbound>,
    member: Option<String>,
}

struct Match<G: Game> {
    game: G,
    seed: u64,
    config: G::Config,
    /// Usernames by seat (they stay even after a player leaves).
    seats: Vec<String>,
    bot_kinds: Vec<Option<String>>,
    bots: Vec<Option<Box<dyn Bot<G>>>>,
    moves: Vec<Move<G::Action>>,
    started_at: u64,
    /// Seats a stand-in bot plays until their turn ends (their owner's turn timer ran out).
    stand_in: SeatSet,
}

pub struct Room<A: GameAdapter> {
    id: String,
    options: RoomOptions,
    members: Vec<Member>,
    conns: HashMap<ConnId, Conn>,
    host: Option<String>,
    chat: Vec<ChatMessage>,
    matches_played: u64,
    base_seed: u64,
    current: Option<Match<A::G>>,
    store: store::Store,
    summary: Arc<Mutex<RoomSummary>>,
    rng: MatchRng,
    /// The engine's decision now open (its `serial`) and when it opened: every clock of
    /// that decision counts from there, however many of its seats have answered; a new
    /// decision (a new serial, even with the same seats) starts fresh clocks.
    waiting_since: Option<(u32, Instant)>,
    /// Who won the last match (for pages opened after it ended).
    last_winner: Option<String>,
    /// When the last move was applied: each bot move waits its delay from here.
    last_move_at: Instant,
    /// The room's own fields of `GameDataSync` (host, chat, options, seats…), serialized once
    /// and reused until the room changes. Every change to them is saved, and [`Room::save`]
    /// clears this (debug builds check the copy against a fresh one at every use).
    room_fields: Mutex<Option<Fields>>,
    /// How long the room lives on with nobody connected (see [`Room::set_empty_ttl`]).
    empty_ttl: Duration,
    /// Since when nobody is connected.
    empty_since: Option<Instant>,
    /// Since when none of the running game's people is connected.
    gone_since: Option<Instant>,
    /// The room has closed: its task ends.
    closed: bool,
    _adapter: std::marker::PhantomData<A>,
}

/// The most characters of an `ActionFailed` reason, and of a packet's `type` quoted in one.
const MAX_REASON: usize = 256;
const MAX_QUOTED_TYPE: usize = 64;

/// `s` cut to `max` characters (an ellipsis marks the cut).
fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => s.into(),
        Some((end, _)) => format!("{}…", &s[..end]).into(),
    }
}

const CHAT_KEPT: usize = store::CHAT_KEPT;
const CHAT_SYNCED: usize = 50;
const BOT_NAMES: [&str; 12] = ["ana", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lou"];

pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// 128 bits from the operating system's cryptographic random source, as 32 hex digits: a
/// reconnect token. Never from a match's generator, the room's seed or the clock, all of
/// which a client can know or guess.
fn random_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random `u64` from the operating system (default seeds, the bots' generator).
pub fn os_random_u64() -> u64 {
    getrandom::u64().expect("the operating system's random source works")
}

fn json<T: Serialize>(v: &T) -> Outbound {
    Outbound::from(serde_json::to_string(v).expect("packets serialize"))
}

impl<A: GameAdapter> Room<A> {
    /// A new, empty room. Nothing is stored until something happens in it.
    pub fn create(
        id: String,
        options: RoomOptions,
        store: store::Store,
    ) -> (Self, RoomHandle, mpsc::Receiver<RoomCmd>) {
        // A default seed nobody can work out from the clock or the process.
        let base_seed = options.seed.unwrap_or_else(os_random_u64);
        Self::build(id, options, store, base_seed)
    }

    fn build(
        id: String,
        options: RoomOptions,
        store: store::Store,
        base_seed: u64,
    ) -> (Self, RoomHandle, mpsc::Receiver<RoomCmd>) {
        let (tx, rx) = mpsc::channel(1024);
        let summary = Arc::new(Mutex::new(RoomSummary {
            id: id.clone(),
            game: A::name(),
            players: Vec::new(),
            state: "lobby",
            spectators: 0,
            private: options.private,
        }));
        let handle = RoomHandle { id: id.clone(), game: A::name(), tx, summary: summary.clone() };
        // The bots' generator: their choices need no replaying (their moves are stored).
        let rng = MatchRng::new(os_random_u64());
        let room = Room {
            id,
            options,
            members: Vec::new(),
            conns: HashMap::new(),
            host: None,
            chat: Vec::new(),
            matches_played: 0,
            base_seed,
            current: None,
            store,
            summary,
            rng,
            waiting_since: None,
            last_winner: None,
            last_move_at: Instant::now(),
            room_fields: Mutex::new(None),
            empty_ttl: Duration::from_secs(60),
            empty_since: Some(Instant::now()),
            gone_since: None,
            closed: false,
            _adapter: std::marker::PhantomData,
        };
        (room, handle, rx)
    }

    /// Rebuilds a stored room: members (all disconnected, each given the hold time to come
    /// back), chat, and the match replayed move by move from its seed.
    pub fn restore(
        stored: &store::StoredRoom,
        store: store::Store,
    ) -> Result<(Self, RoomHandle, mpsc::Receiver<RoomCmd>), String> {
        let snap: Snapshot = serde_json::from_str(&stored.snapshot).map_err(|e| format!("room {}: {e}", stored.id))?;
        // Stored before the checks, or edited: options out of range are not run.
        snap.options.check().map_err(|e| format!("room {}: {e}", stored.id))?;
        let (mut room, handle, rx) = Self::build(stored.id.clone(), snap.options, store, snap.base_seed);
        let now = Instant::now();
        room.members = snap
            .members
            .into_iter()
            .map(|m| Member {
                dropped_at: m.bot.is_none().then_some(now),
                username: m.username,
                token: m.token,
                join_time: m.join_time,
                bot: m.bot,
                spectator: m.spectator,
                conn: None,
            })
            .collect();
        room.host = snap.host;
        room.chat = snap.chat;
        for line in &stored.chat {
            match serde_json::from_str(line) {
                Ok(msg) => room.chat.push(msg),
                Err(e) => tracing::warn!(room = %stored.id, "a chat line not restored: {e}"),
            }
        }
        let extra = room.chat.len().saturating_sub(CHAT_KEPT);
        room.chat.drain(..extra);
        room.matches_played = snap.matches_played;
        if let Some(ms) = snap.current {
            let config: <A::G as Game>::Config =
                serde_json::from_value(ms.config).map_err(|e| format!("room {}: config: {e}", stored.id))?;
            let mut game = A::G::new(&config, ms.seed).map_err(|e| e.to_string())?;
            let mut moves = Vec::with_capacity(stored.moves.len());
            let mut scratch = Vec::new();
            for (i, entry) in stored.moves.iter().enumerate() {
                let m: Move<<A::G as Game>::Action> =
                    serde_json::from_str(entry).map_err(|e| format!("room {} move {i}: {e}", stored.id))?;
                match &m {
                    Move::Act { seat, action } => game
                        .apply_into(*seat, action.clone(), &mut scratch)
                        .map_err(|e| format!("room {} move {i} refused on replay: {e}", stored.id))?,
                    Move::Leave { seat } => game.leave(*seat, &mut scratch),
                }
                scratch.clear();
                moves.push(m);
            }
            let bots = ms.bots.iter().map(|b| b.as_deref().and_then(A::make_bot)).collect();
            room.current = Some(Match {
                game,
                seed: ms.seed,
                config,
                seats: ms.seats,
                bot_kinds: ms.bots,
                bots,
                moves,
                started_at: ms.started_at,
                stand_in: SeatSet::EMPTY,
            });
        }
        room.publish_summary();
        Ok((room, handle, rx))
    }

    /// The room's task: handles commands and timers until every handle is gone or the room
    /// closes (nobody connected for its `empty_ttl`).
    pub async fn run(mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        self.note_presence();
        loop {
            let deadline = match (self.next_deadline(), self.life_deadline()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            tokio::select! {
                // Commands first: a connection arriving as the room's time runs out keeps it.
                biased;
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = sleep_until_opt(deadline), if deadline.is_some() => {
                    if !self.on_life_timer().await {
                        self.on_timer().await;
                    }
                }
            }
            if self.closed {
                break;
            }
            self.note_presence();
        }
    }

    async fn handle(&mut self, cmd: RoomCmd) {
        match cmd {
            RoomCmd::Connect { conn, tx } => {
                self.conns.insert(conn, Conn { tx, member: None });
            }
            RoomCmd::Text { conn, text } => self.on_text(conn, text.as_str()).await,
            RoomCmd::Binary { conn } => {
                self.fail(conn, codes::BINARY_FRAME, "binary frames are not supported; send JSON text")
            }
            RoomCmd::RateLimited { conn } => {
                self.fail(conn, codes::RATE_LIMITED, "too many packets: slow down (20 a second, bursts of 40)")
            }
            RoomCmd::Disconnect { conn } => self.on_disconnect(conn).await,
            RoomCmd::Flush { done } => {
                let _ = done.send(());
            }
        }
    }

    // ---- sending ------------------------------------------------------------------------

    fn send(&self, conn: ConnId, msg: Outbound) {
        if let Some(c) = self.conns.get(&conn) {
            // A client that cannot keep up loses packets rather than stalling the room; it
            // can always resynchronise with GameDataRequest.
            let _ = c.tx.try_send(msg);
        }
    }

    fn broadcast(&self, msg: &ServerMsg) {
        let out = json(msg);
        for c in self.conns.values() {
            let _ = c.tx.try_send(out.clone());
        }
    }

    fn fail(&self, conn: ConnId, code: &str, reason: &str) {
        // Reasons can quote a packet (a field's name, a value): a client sending a huge one
        // does not get it echoed back whole.
        let reason = clip(reason, MAX_REASON).into_owned();
        self.send(conn, json(&ServerMsg::ActionFailed { reason, code: code.into() }));
    }

    fn reject(&self, conn: ConnId, code: &str, reason: String) {
        self.send(conn, json(&ServerMsg::PlayerJoinRejected { reason, code: code.into() }));
    }

    fn member_index(&self, username: &str) -> Option<usize> {
        self.members.iter().position(|m| m.username.eq_ignore_ascii_case(username))
    }

    fn conn_member(&self, conn: ConnId) -> Option<usize> {
        let name = self.conns.get(&conn)?.member.as_deref()?;
        self.member_index(name)
    }

    fn seat_of(&self, username: &str) -> Option<Seat> {
        let m = self.current.as_ref()?;
        m.seats.iter().position(|s| s == username).map(|i| Seat(i as u8))
    }

    fn viewer_of(&self, conn: ConnId) -> Viewer {
        let seat = self.conns.get(&conn).and_then(|c| c.member.as_deref()).and_then(|n| self.seat_of(n));
        seat.map_or(Viewer::Spectator, Viewer::seat)
    }

    /// Whether the member `m` plays in the running game (seated and not out of it).
    fn in_game(&self, m: &Member) -> Option<Seat> {
        let cur = self.current.as_ref()?;
        self.seat_of(&m.username).filter(|&seat| A::in_game(&cur.game, seat))
    }

    /// A member as the `Player` value of `PlayerJoined` and chat messages: their `players`
    /// entry, read back.
    fn player_json(&self, idx: usize) -> Player {
        let mut seats = self.current.as_ref().map_or_else(Vec::new, |c| vec![Fields::new(); c.seats.len()]);
        self.public_game_data(&mut seats, &mut Fields::new());
        self.player_fields(&self.members[idx], &seats).parse()
    }

    /// A member's entry in `players`: the room's fields, then the game's (their seat's, or
    /// those of someone not playing).
    fn player_fields(&self, m: &Member, seats: &[Fields]) -> Fields {
        let in_game = self.in_game(m).is_some();
        let mut p = Fields::new();
        p.put("username", &m.username)
            .put("inGame", &in_game)
            .put("isSpectator", &(self.current.is_some() && !in_game))
            .put("joinTime", &m.join_time)
            .put("isBot", &m.bot.is_some())
            .put("connected", &(m.bot.is_some() || m.conn.is_some()));
        match self.seat_of(&m.username).and_then(|s| seats.get(s.index())) {
            Some(game) => p.extend(game),
            None => {
                A::unseated_player_fields(self.current.is_none(), &mut p);
                &mut p
            }
        };
        p
    }

    fn public_game_data(&self, seats: &mut [Fields], top: &mut Fields) {
        match &self.current {
            Some(cur) => A::public_data(Some(&cur.game), &cur.seats, seats, top),
            None => A::public_data(None, &[], &mut [], top),
        }
    }

    /// Everything of `GameDataSync.gameData` that every connection sees alike (all but `you`
    /// and the viewer's own fields; see `docs/protocol.md`), built once per update.
    fn public_table(&self) -> Fields {
        let mut seats = self.current.as_ref().map_or_else(Vec::new, |c| vec![Fields::new(); c.seats.len()]);
        let mut game_top = Fields::new();
        self.public_game_data(&mut seats, &mut game_top);
        let mut players = String::from("[");
        for (i, m) in self.members.iter().enumerate() {
            let p = self.player_fields(m, &seats);
            if i > 0 {
                players.push(',');
            }
            players.push('{');
            players.push_str(p.as_str());
            players.push('}');
        }
        players.push(']');
        let mut t = Fields::new();
        t.put_raw("players", &players);
        {
            // Only this task uses the lock (it makes `&Room` shareable across the awaits).
            let mut cached = self.room_fields.lock().expect("room fields lock");
            let room = cached.get_or_insert_with(|| self.room_fields());
            debug_assert_eq!(*room, self.room_fields(), "the room's fields changed without a save()");
            t.extend(room);
        }
        if let Some(cur) = &self.current {
            // Who the game waits on, with the milliseconds left where a clock runs (for the
            // countdowns a client shows).
            let now = Instant::now();
            let decision = cur.game.decision();
            let since = self.waiting_since.filter(|(serial, _)| *serial == decision.serial).map_or(now, |(_, at)| at);
            let waiting: Vec<Waiting<'_>> = decision
                .seats
                .iter()
                .map(|seat| Waiting {
                    username: &cur.seats[seat.index()],
                    ms_left: self
                        .seat_deadline(cur, seat, decision.kind, since)
                        .map(|(t, _)| t.saturating_duration_since(now).as_millis() as u64),
                })
                .collect();
            t.put("waitingOn", &waiting);
        }
        t.extend(&game_top);
        t
    }

    /// The room's own fields of `gameData` (see `room_fields` in [`Room`]).
    fn room_fields(&self) -> Fields {
        let chat_from = self.chat.len().saturating_sub(CHAT_SYNCED);
        let mut t = Fields::new();
        t.put("roomId", &self.id)
            .put("game", A::name())
            .put("host", &self.host)
            .put("gameStarted", &self.current.is_some())
            .put("chat", &self.chat[chat_from..])
            .put("bots", A::bot_names())
            .put("seats", &self.current.as_ref().map(|c| &c.seats))
            .put("lastWinner", &self.last_winner)
            .put("minPlayers", &A::MIN_PLAYERS)
            .put("maxPlayers", &A::MAX_PLAYERS)
            .put("options", &self.options.public());
        t
    }

    /// The fields of `gameData` only `viewer` sees: the game's private ones, the engine's view
    /// (games that sync it) and a seat's legal actions.
    fn private_table(&self, viewer: Viewer) -> Fields {
        let mut t = Fields::new();
        if let Some(cur) = &self.current {
            A::private_data(&cur.game, viewer, &cur.seats, &mut t);
            if A::SYNC_VIEW {
                t.put("view", &cur.game.view(viewer));
            }
            if let Some(seat) = viewer.as_seat() {
                t.put("legal", &cur.game.legal_actions(seat));
            }
        }
        t
    }

    /// `{"type":"GameDataSync","gameData":{"you":…,<public>,<private>}}`.
    fn sync_packet(&self, conn: ConnId, public: &Fields, private: &Fields) -> Outbound {
        let you = self.conns.get(&conn).and_then(|c| c.member.as_deref());
        let you = serde_json::to_string(&you).expect("names serialize");
        let mut s = String::with_capacity(48 + you.len() + public.as_str().len() + private.as_str().len());
        s.push_str("{\"type\":\"GameDataSync\",\"gameData\":{\"you\":");
        s.push_str(&you);
        for part in [public, private] {
            if !part.is_empty() {
                s.push(',');
                s.push_str(part.as_str());
            }
        }
        s.push_str("}}");
        Outbound::from(s)
    }

    fn sync(&self, conn: ConnId) {
        let private = self.private_table(self.viewer_of(conn));
        self.send(conn, self.sync_packet(conn, &self.public_table(), &private));
    }

    /// The connections, grouped by what they may see.
    fn conns_by_viewer(&self) -> Vec<(Viewer, Vec<ConnId>)> {
        let mut groups: Vec<(Viewer, Vec<ConnId>)> = Vec::new();
        for &conn in self.conns.keys() {
            let viewer = self.viewer_of(conn);
            match groups.iter_mut().find(|(v, _)| *v == viewer) {
                Some((_, conns)) => conns.push(conn),
                None => groups.push((viewer, vec![conn])),
            }
        }
        groups
    }

    /// A `GameDataSync` to every connection. What everyone sees alike is serialized once;
    /// each viewer's own fields once per viewer; only `you` is spliced in per connection.
    fn sync_all(&self) {
        if self.conns.is_empty() {
            return;
        }
        let public = self.public_table();
        for (viewer, conns) in self.conns_by_viewer() {
            let private = self.private_table(viewer);
            for conn in conns {
                self.send(conn, self.sync_packet(conn, &public, &private));
            }
        }
    }

    fn publish_summary(&self) {
        let mut players = Vec::new();
        let mut spectators = 0;
        for m in &self.members {
            let seated = self.seat_of(&m.username).is_some();
            if self.current.is_some() && !seated || self.current.is_none() && m.spectator {
                spectators += 1;
            } else {
                players.push(m.username.clone());
            }
        }
        let state = if self.current.is_some() { "playing" } else { "lobby" };
        let mut s = self.summary.lock().expect("summary lock");
        s.players = players;
        s.state = state;
        s.spectators = spectators;
    }

    // ---- persistence --------------------------------------------------------------------

    fn snapshot(&self) -> String {
        let snap = Snapshot {
            options: self.options.clone(),
            members: self
                .members
                .iter()
                .map(|m| MemberSnap {
                    username: m.username.clone(),
                    token: m.token.clone(),
                    join_time: m.join_time,
                    bot: m.bot.clone(),
                    spectator: m.spectator,
                })
                .collect(),
            host: self.host.clone(),
            chat: Vec::new(),
            matches_played: self.matches_played,
            base_seed: self.base_seed,
            current: self.current.as_ref().map(|c| MatchSnap {
                seed: c.seed,
                config: serde_json::to_value(&c.config).expect("configs serialize"),
                seats: c.seats.clone(),
                bots: c.bot_kinds.clone(),
                started_at: c.started_at,
            }),
        };
        serde_json::to_string(&snap).expect("snapshots serialize")
    }

    /// Stores a newly created room, so its link works even before anyone joins.
    pub async fn persist_new(&self) -> Result<(), String> {
        self.store.save_room(&self.id, A::name(), self.snapshot()).await
    }

    async fn save(&self) {
        self.room_fields.lock().expect("room fields lock").take();
        if let Err(e) = self.store.save_room(&self.id, A::name(), self.snapshot()).await {
            tracing::error!(room = %self.id, "saving the room failed: {e}");
        }
        self.publish_summary();
    }

    // ---- packets ------------------------------------------------------------------------

    async fn on_text(&mut self, conn: ConnId, text: &str) {
        /// Just the packet's `type` (the rest is read by the packet's own type).
        #[derive(Deserialize)]
        struct Kind<'a> {
            #[serde(rename = "type", borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        let kind = match serde_json::from_str::<Kind<'_>>(text) {
            Ok(k) => k.kind,
            Err(e) if e.is_data() => {
                return self.fail(conn, codes::BAD_PACKET, "a packet needs a string field `type`");
            }
            Err(e) => return self.fail(conn, codes::BAD_PACKET, &format!("not valid JSON: {e}")),
        };
        if ClientMsg::TYPES.contains(&kind.as_ref()) {
            match serde_json::from_str::<ClientMsg>(text) {
                Ok(ClientMsg::Act { .. }) => self.on_action_packet(conn, text).await,
                Ok(msg) => self.on_room_packet(conn, msg).await,
                Err(e) => self.fail(conn, codes::BAD_PACKET, &format!("bad {kind} packet: {e}")),
            }
        } else if A::is_action_packet(&kind) {
            self.on_action_packet(conn, text).await;
        } else {
            let kind = clip(&kind, MAX_QUOTED_TYPE);
            self.fail(conn, codes::BAD_PACKET, &format!("unknown packet type `{kind}`"));
        }
    }

    async fn on_room_packet(&mut self, conn: ConnId, msg: ClientMsg) {
        let me = self.conn_member(conn);
        let is_host = me.is_some_and(|i| self.host.as_deref() == Some(&self.members[i].username));
        match msg {
            ClientMsg::JoinGame { username } => self.join(conn, username).await,
            ClientMsg::Reconnect { token } => self.reconnect(conn, &token).await,
            ClientMsg::GameDataRequest => self.sync(conn),
            ClientMsg::LeaveGame => {
                if let Some(i) = me {
                    if let Some(c) = self.conns.get_mut(&conn) {
                        c.member = None;
                    }
                    self.members[i].conn = None;
                    self.leave(i).await;
                    self.sync(conn);
                }
            }
            ClientMsg::SetHost { username } => {
                if !is_host {
                    return;
                }
                match self.member_index(&username) {
                    Some(j) if self.members[j].bot.is_none() => {
                        self.host = Some(self.members[j].username.clone());
                        self.save().await;
                        self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
                        self.sync_all();
                    }
                    _ => self.fail(conn, codes::UNKNOWN_PLAYER, &format!("{username} is not a person in this room")),
                }
            }
            ClientMsg::StartGame => {
                if is_host && self.current.is_none() {
                    self.start(conn).await;
                }
            }
            ClientMsg::SendNewChatMessage { message } => {
                let Some(i) = me else { return };
                if let Err(reason) = protocol::check_chat(&message) {
                    return self.fail(conn, codes::BAD_MESSAGE, &reason);
                }
                let player = self.player_json(i);
                let msg = ChatMessage { message, player, timestamp: now_ms() };
                // A line is one insert in the store's chat table, not a rewrite of the room.
                let line = serde_json::to_string(&msg).expect("chat serializes");
                self.chat.push(msg.clone());
                if self.chat.len() > CHAT_KEPT {
                    self.chat.remove(0);
                }
                self.room_fields.lock().expect("room fields lock").take();
                if let Err(e) = self.store.append_chat(&self.id, line).await {
                    tracing::error!(room = %self.id, "saving a chat line failed: {e}");
                }
                self.broadcast(&ServerMsg::NewChatMessageSent {
                    message: msg.message,
                    player: msg.player,
                    timestamp: msg.timestamp,
                });
            }
            ClientMsg::AddBot { bot } => {
                if !is_host || self.current.is_some() {
                    return;
                }
                let kind = bot.unwrap_or_else(|| A::bot_names().last().expect("a bot").to_string());
                if A::make_bot(&kind).is_none() {
                    return self.fail(
                        conn,
                        codes::UNKNOWN_BOT,
                        &format!("unknown bot `{kind}` (known: {:?})", A::bot_names()),
                    );
                }
                if self.players_in_lobby() >= A::MAX_PLAYERS {
                    return self.fail(conn, codes::TOO_MANY_PLAYERS, &format!("at most {} players", A::MAX_PLAYERS));
                }
                let Some(name) = BOT_NAMES.iter().map(|n| format!("bot-{n}")).find(|n| self.member_index(n).is_none())
                else {
                    return self.fail(conn, codes::TOO_MANY_PLAYERS, "no more bot names");
                };
                let token = random_token();
                self.members.push(Member {
                    username: name,
                    token,
                    join_time: now_ms(),
                    bot: Some(kind),
                    spectator: false,
                    conn: None,
                    dropped_at: None,
                });
                self.save().await;
                let idx = self.members.len() - 1;
                self.broadcast(&ServerMsg::PlayerJoined { player: self.player_json(idx) });
                self.sync_all();
            }
            ClientMsg::RemoveBot { username } => {
                if !is_host || self.current.is_some() {
                    return;
                }
                match self.member_index(&username) {
                    Some(j) if self.members[j].bot.is_some() => self.leave(j).await,
                    _ => self.fail(conn, codes::UNKNOWN_PLAYER, &format!("{username} is not a bot in this room")),
                }
            }
            // Handled in `on_text`, which passes the packet's text on to the game.
            ClientMsg::Act { .. } => {}
        }
    }

    fn players_in_lobby(&self) -> usize {
        self.members.iter().filter(|m| !m.spectator).count()
    }

    async fn join(&mut self, conn: ConnId, username: String) {
        if let Some(i) = self.conn_member(conn) {
            let reason = format!("you have already joined as {}", self.members[i].username);
            return self.reject(conn, codes::ALREADY_JOINED, reason);
        }
        if let Err(reason) = protocol::check_username(&username) {
            return self.reject(conn, codes::BAD_USERNAME, reason);
        }
        if self.member_index(&username).is_some() {
            let reason = format!("the username {username} is taken in this room");
            return self.reject(conn, codes::USERNAME_TAKEN, reason);
        }
        // Seats are found by username: a newcomer with the name of a seat whose player left
        // (or whose hold ran out) would sit in it, hand and all. Until the game ends the name
        // stays taken.
        if let Some(cur) = &self.current
            && cur.seats.iter().any(|s| s.eq_ignore_ascii_case(&username))
        {
            let reason = format!("{username} has a seat in the game being played; choose another username");
            return self.reject(conn, codes::SEAT_IN_PLAY, reason);
        }
        let spectator = self.current.is_some() || self.players_in_lobby() >= A::MAX_PLAYERS;
        if spectator && self.members.iter().filter(|m| m.spectator).count() as u64 >= self.options.max_spectators {
            let reason = format!(
                "this room is full: {} players and {} watchers at most",
                A::MAX_PLAYERS,
                self.options.max_spectators
            );
            return self.reject(conn, codes::ROOM_FULL, reason);
        }
        let token = random_token();
        self.members.push(Member {
            username: username.clone(),
            token: token.clone(),
            join_time: now_ms(),
            bot: None,
            spectator,
            conn: Some(conn),
            dropped_at: None,
        });
        if let Some(c) = self.conns.get_mut(&conn) {
            c.member = Some(username.clone());
        }
        let new_host = self.host.is_none();
        if new_host {
            self.host = Some(username.clone());
        }
        self.save().await;
        self.send(conn, json(&ServerMsg::Joined { username: username.clone(), token }));
        let idx = self.members.len() - 1;
        // The others get the newcomer's `players` entry, not a sync listing everyone: a join
        // costs each member one small packet, not a table (quadratic in a crowded room).
        self.broadcast(&ServerMsg::PlayerJoined { player: self.player_json(idx) });
        if new_host {
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
        self.sync(conn);
    }

    async fn reconnect(&mut self, conn: ConnId, token: &str) {
        let Some(i) = self.members.iter().position(|m| m.bot.is_none() && m.token == token) else {
            let reason = "unknown or expired token: join with a username".to_string();
            return self.reject(conn, codes::UNKNOWN_TOKEN, reason);
        };
        // One membership per connection: a member taking another's seat would leave their own
        // member behind, neither connected nor dropped (and, were it the host, host for ever).
        if let Some(j) = self.conn_member(conn)
            && j != i
        {
            let reason = format!("you have already joined as {}; leave first", self.members[j].username);
            return self.reject(conn, codes::ALREADY_JOINED, reason);
        }
        if let Some(old) = self.members[i].conn.replace(conn)
            && old != conn
            && let Some(c) = self.conns.get_mut(&old)
        {
            // The newer connection wins; the old one stays open as an anonymous watcher.
            c.member = None;
        }
        self.members[i].dropped_at = None;
        let username = self.members[i].username.clone();
        if let Some(c) = self.conns.get_mut(&conn) {
            c.member = Some(username.clone());
        }
        if self.host.is_none() {
            self.host = Some(username.clone());
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
        self.save().await;
        self.send(conn, json(&ServerMsg::Joined { username, token: token.to_string() }));
        self.sync_all();
    }

    async fn on_disconnect(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        let Some(name) = c.member else { return };
        let Some(i) = self.member_index(&name) else { return };
        if self.members[i].conn != Some(conn) {
            return;
        }
        self.members[i].conn = None;
        if self.current.is_some() {
            // Keep the seat for the hold time; the host role moves on at once.
            self.members[i].dropped_at = Some(Instant::now());
            if self.host.as_deref() == Some(name.as_str()) {
                self.pass_host().await;
            }
            self.save().await;
            self.sync_all();
        } else {
            self.leave(i).await;
        }
    }

    /// The earliest-joined connected person other than the current host, or nobody.
    async fn pass_host(&mut self) {
        let next = self
            .members
            .iter()
            .find(|m| m.bot.is_none() && m.conn.is_some() && Some(&m.username) != self.host.as_ref())
            .map(|m| m.username.clone());
        if next != self.host {
            self.host = next;
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
    }

    /// Member `i` leaves the room for good (left, dropped in the lobby, or not back in time).
    async fn leave(&mut self, i: usize) {
        let member = self.members.remove(i);
        let username = member.username.clone();
        let mut events = Vec::new();
        let mut played = false;
        if let Some(seat) = self.seat_of(&username)
            && let Some(cur) = self.current.as_mut()
            && cur.game.outcome().is_none()
        {
            played = true;
            cur.game.leave(seat, &mut events);
            cur.moves.push(Move::Leave { seat });
            let entry = serde_json::to_string(cur.moves.last().expect("pushed")).expect("moves serialize");
            let index = (cur.moves.len() - 1) as u64;
            if let Err(e) = self.store.append_move(&self.id, index, entry).await {
                tracing::error!(room = %self.id, "saving a leave failed: {e}");
            }
        }
        if self.host.as_deref() == Some(username.as_str()) {
            self.host = None;
            self.pass_host().await;
            if self.host.is_none() {
                self.broadcast(&ServerMsg::HostSet { username: None });
            }
        }
        self.save().await;
        self.broadcast(&ServerMsg::PlayerLeft { username });
        // Like a join, a leave that changes no game (in the lobby, or a watcher's) is told as
        // the delta alone: members drop the entry from `players` (and read `HostSet`).
        if played {
            self.after_events(events).await;
        }
    }

    async fn start(&mut self, conn: ConnId) {
        let seated: Vec<usize> = (0..self.members.len()).filter(|&i| !self.members[i].spectator).collect();
        if seated.len() < A::MIN_PLAYERS {
            return self.fail(
                conn,
                codes::NOT_ENOUGH_PLAYERS,
                &format!("at least {} players are needed", A::MIN_PLAYERS),
            );
        }
        if seated.len() > A::MAX_PLAYERS {
            return self.fail(conn, codes::TOO_MANY_PLAYERS, &format!("at most {} players", A::MAX_PLAYERS));
        }
        let config = match A::config(seated.len(), &self.options.game_options) {
            Ok(c) => c,
            Err(e) => return self.fail(conn, "bad_options", &e),
        };
        let seed = if self.matches_played == 0 && self.options.seed.is_some() {
            self.base_seed
        } else {
            derive_seed(self.base_seed, self.matches_played)
        };
        let game = match A::G::new(&config, seed) {
            Ok(g) => g,
            Err(e) => return self.fail(conn, e.code, &e.message),
        };
        let mut seats: Vec<String> = seated.iter().map(|&i| self.members[i].username.clone()).collect();
        let mut bot_kinds: Vec<Option<String>> = seated.iter().map(|&i| self.members[i].bot.clone()).collect();
        for (name, bot) in A::house_seats(&config) {
            seats.push(name.to_string());
            bot_kinds.push(Some(bot.to_string()));
        }
        let bots = bot_kinds.iter().map(|b| b.as_deref().and_then(A::make_bot)).collect();
        let start_events = game.start_events();
        self.current = Some(Match {
            game,
            seed,
            config,
            seats,
            bot_kinds,
            bots,
            moves: Vec::new(),
            started_at: now_ms(),
            stand_in: SeatSet::EMPTY,
        });
        self.waiting_since = None;
        if let Err(e) = self.store.reset_moves(&self.id, self.snapshot()).await {
            tracing::error!(room = %self.id, "saving the start failed: {e}");
        }
        self.save().await;
        self.broadcast(&ServerMsg::GameStarted);
        self.send_events(&start_events);
        self.sync_all();
    }

    async fn on_action_packet(&mut self, conn: ConnId, packet: &str) {
        // Unauthorized (not a seated player of a running game): silently ignored.
        let Some(i) = self.conn_member(conn) else { return };
        let Some(seat) = self.seat_of(&self.members[i].username) else { return };
        let Some(cur) = self.current.as_ref() else { return };
        let action = match A::parse_action(packet, seat, &cur.seats) {
            Ok(a) => a,
            Err(PacketError { code, reason }) => return self.fail(conn, code, &reason),
        };
        match self.act(seat, action).await {
            Ok(()) => {}
            Err(e) if matches!(e.code, "not_your_turn" | "not_playing" | "game_over") => {}
            Err(e) => self.fail(conn, e.code, &e.message),
        }
    }

    /// Applies an action for `seat`, stores it, and tells everyone.
    async fn act(&mut self, seat: Seat, action: <A::G as Game>::Action) -> Result<(), RuleError> {
        let cur = self.current.as_mut().ok_or_else(RuleError::game_over)?;
        let before = cur.game.to_act();
        self.last_move_at = Instant::now();
        let mut events = Vec::new();
        cur.game.apply_into(seat, action.clone(), &mut events)?;
        cur.moves.push(Move::Act { seat, action });
        if !cur.game.to_act().contains(seat) {
            cur.stand_in.remove(seat);
        }
        let entry = serde_json::to_string(cur.moves.last().expect("pushed")).expect("moves serialize");
        let index = (cur.moves.len() - 1) as u64;
        if let Err(e) = self.store.append_move(&self.id, index, entry).await {
            tracing::error!(room = %self.id, "saving a move failed: {e}");
        }
        self.send_events(&events);
        if !A::TURN_PACKETS_FROM_EVENTS {
            self.after_turn_change(before);
        }
        self.finish_if_over().await;
        self.sync_all();
        Ok(())
    }

    /// Sends each connection the packets for `events` as it may see them. Events every
    /// viewer sees alike are serialized once for the room.
    fn send_events(&self, events: &[<A::G as Game>::Event]) {
        let Some(cur) = self.current.as_ref() else { return };
        if self.conns.is_empty() || events.is_empty() {
            return;
        }
        let mut scratch = Vec::new();
        let mut packets_for = |e: &<A::G as Game>::Event, viewer: Viewer| -> Vec<Outbound> {
            scratch.clear();
            if let Some(seen) = cur.game.view_event(e, viewer) {
                A::event_packets(&seen, viewer, &cur.seats, &mut scratch);
            }
            scratch.drain(..).map(Outbound::from).collect()
        };
        let shared: Vec<Option<Vec<Outbound>>> =
            events.iter().map(|e| A::same_for_everyone(e).then(|| packets_for(e, Viewer::Spectator))).collect();
        for (viewer, conns) in self.conns_by_viewer() {
            for (e, common) in events.iter().zip(&shared) {
                let own;
                let packets = match common {
                    Some(p) => p,
                    None => {
                        own = packets_for(e, viewer);
                        &own
                    }
                };
                for p in packets {
                    for &c in &conns {
                        self.send(c, p.clone());
                    }
                }
            }
        }
    }

    /// For games whose events do not announce turns: TurnEnd/TurnStart from `to_act`.
    fn after_turn_change(&self, before: SeatSet) {
        let Some(cur) = self.current.as_ref() else { return };
        let after = cur.game.to_act();
        if after == before || cur.game.outcome().is_some() {
            return;
        }
        for s in before.iter().filter(|s| !after.contains(*s)) {
            self.broadcast(&ServerMsg::TurnEnd { username: cur.seats[s.index()].clone() });
        }
        for s in after.iter().filter(|s| !before.contains(*s)) {
            self.broadcast(&ServerMsg::TurnStart { username: cur.seats[s.index()].clone() });
        }
    }

    async fn after_events(&mut self, events: Vec<<A::G as Game>::Event>) {
        if self.current.is_none() {
            self.sync_all();
            return;
        }
        self.send_events(&events);
        self.finish_if_over().await;
        self.sync_all();
    }

    /// If the match is over: record it, announce the winner, and go back to the lobby with
    /// everyone present as players.
    async fn finish_if_over(&mut self) {
        let Some(outcome) = self.current.as_ref().and_then(|c| c.game.outcome()) else { return };
        let cur = self.current.as_ref().expect("checked");
        let winners: Vec<String> = outcome.winners.iter().map(|s| cur.seats[s.index()].clone()).collect();
        self.end_match(Some(winners)).await;
    }

    /// Records the match (won by `winners`, or abandoned: `None`) and goes back to the lobby
    /// with everyone present as players.
    async fn end_match(&mut self, winners: Option<Vec<String>>) {
        let Some(cur) = self.current.take() else { return };
        let abandoned = winners.is_none();
        let winners = winners.unwrap_or_default();
        let result = if abandoned {
            serde_json::json!({ "winners": winners, "abandoned": true })
        } else {
            serde_json::json!({ "winners": winners })
        };
        let record = store::MatchRecord {
            id: 0,
            room_id: self.id.clone(),
            game: A::name().to_string(),
            seed: cur.seed,
            config: serde_json::to_string(&cur.config).expect("configs serialize"),
            players: serde_json::to_string(&cur.seats).expect("names serialize"),
            log: serde_json::to_string(&cur.moves).expect("moves serialize"),
            result: result.to_string(),
            started_at: cur.started_at,
            ended_at: now_ms(),
        };
        match self.store.finish_match(record).await {
            Ok(id) => tracing::info!(room = %self.id, match_id = id, abandoned, "match finished"),
            Err(e) => tracing::error!(room = %self.id, "recording the match failed: {e}"),
        }
        self.matches_played += 1;
        self.last_winner = winners.first().cloned();
        for m in &mut self.members {
            m.spectator = false;
        }
        // Over the player limit, the latest joiners keep watching.
        let mut seated = 0;
        for m in &mut self.members {
            seated += 1;
            m.spectator = seated > A::MAX_PLAYERS;
        }
        if let Err(e) = self.store.reset_moves(&self.id, self.snapshot()).await {
            tracing::error!(room = %self.id, "saving the end failed: {e}");
        }
        self.save().await;
        self.broadcast(&ServerMsg::GameEnded { winner: winners.first().cloned() });
    }

    // ---- timers -------------------------------------------------------------------------

    /// When `seat` (one of those to act, waiting since `since`) should be played for: after
    /// the bot delay for a bot or a stand-in; after the turn timer for a disconnected person
    /// (counted from their turn or their drop, whichever is later); never for a connected one.
    fn seat_deadline(
        &self,
        cur: &Match<A::G>,
        seat: Seat,
        kind: DecisionKind,
        since: Instant,
    ) -> Option<(Instant, bool)> {
        if cur.bots[seat.index()].is_some() || cur.stand_in.contains(seat) {
            let from = since.max(self.last_move_at);
            return Some((later(from, Duration::from_millis(self.options.bot_delay_ms)), true));
        }
        let name = &cur.seats[seat.index()];
        let member = self.members.iter().find(|m| &m.username == name);
        match member {
            Some(m) if m.conn.is_some() => A::decision_timeout(&cur.game, seat, kind)
                .filter(|_| cur.game.timeout_action(seat).is_some())
                .map(|d| (later(since, d), false)),
            Some(m) => {
                let from = m.dropped_at.map_or(since, |d| d.max(since));
                Some((later(from, Duration::from_secs(self.options.turn_seconds)), false))
            }
            // Left the room: the game has eliminated or replaced them; nothing to wait for.
            None => Some((later(since, Duration::from_secs(self.options.turn_seconds)), false)),
        }
    }

    /// The earliest of: a bot's move, a disconnected player's turn timer, a hold expiring.
    fn next_deadline(&mut self) -> Option<Instant> {
        let mut best: Option<Instant> = None;
        let hold = Duration::from_secs(self.options.hold_seconds);
        for m in &self.members {
            if let Some(at) = m.dropped_at {
                let until = later(at, hold);
                best = Some(best.map_or(until, |b| b.min(until)));
            }
        }
        if let Some(cur) = &self.current {
            let decision = cur.game.decision();
            let since = match self.waiting_since {
                // The same decision (someone in a window answered): the others' clock keeps running.
                Some((serial, at)) if serial == decision.serial => at,
                _ => {
                    let now = Instant::now();
                    self.waiting_since = Some((decision.serial, now));
                    now
                }
            };
            for seat in decision.seats.iter() {
                if let Some((t, _)) = self.seat_deadline(cur, seat, decision.kind, since) {
                    best = Some(best.map_or(t, |b| b.min(t)));
                }
            }
        }
        best
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        let hold = Duration::from_secs(self.options.hold_seconds);
        if let Some(i) = self.members.iter().position(|m| m.dropped_at.is_some_and(|at| later(at, hold) <= now)) {
            return self.leave(i).await;
        }
        let Some(cur) = self.current.as_ref() else { return };
        let Some((_, since)) = self.waiting_since else { return };
        let decision = cur.game.decision();
        let due = decision.seats.iter().find_map(|seat| {
            self.seat_deadline(cur, seat, decision.kind, since).filter(|(t, _)| *t <= now).map(|(_, b)| (seat, b))
        });
        let Some((seat, is_bot)) = due else { return };
        let cur = self.current.as_mut().expect("checked");
        if !is_bot {
            // The turn timer ran out: a default answer if the game has one, else a stand-in
            // bot plays the rest of this turn.
            if let Some(a) = cur.game.timeout_action(seat) {
                let _ = self.act(seat, a).await;
                return;
            }
            cur.stand_in.insert(seat);
            let text = format!("{} is offline: a bot plays this turn for them", cur.seats[seat.index()]);
            self.broadcast(&ServerMsg::ShowAlert { text });
        }
        let cur = self.current.as_mut().expect("checked");
        let legal = cur.game.legal_actions(seat);
        if legal.is_empty() {
            return;
        }
        let mut bot_rng = self.rng.fork();
        let action = {
            let obs = Observation::new(&cur.game, seat, &legal);
            match cur.bots[seat.index()].as_mut() {
                Some(bot) => bot.choose(&obs, &mut bot_rng),
                None => A::stand_in_bot().choose(&obs, &mut bot_rng),
            }
        };
        // Each bot move waits its own delay (from `last_move_at`), so people can follow a
        // bot's item-by-item turn; the window clocks of the others keep running.
        if let Err(e) = self.act(seat, action).await {
            tracing::error!(room = %self.id, "a bot's move was refused: {e}");
        }
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

// ---- lifecycle ------------------------------------------------------------------------------

impl<A: GameAdapter> Room<A> {
    /// How long the room lives on with nobody connected before it closes, and how long a
    /// running game's people may all be gone before it ends as abandoned (the server's
    /// `--empty-room-ttl`, the same for every room).
    pub fn set_empty_ttl(&mut self, ttl: Duration) {
        self.empty_ttl = ttl;
    }

    /// Notes since when nobody is connected, and since when none of the running game's people.
    fn note_presence(&mut self) {
        let now = Instant::now();
        if self.conns.is_empty() {
            self.empty_since.get_or_insert(now);
        } else {
            self.empty_since = None;
        }
        let gone = self.current.as_ref().is_some_and(|cur| {
            !self.members.iter().any(|m| m.bot.is_none() && m.conn.is_some() && cur.seats.contains(&m.username))
        });
        if gone {
            self.gone_since.get_or_insert(now);
        } else {
            self.gone_since = None;
        }
    }

    /// When the game is abandoned or the room closes, whichever is first.
    fn life_deadline(&self) -> Option<Instant> {
        [self.gone_since, self.empty_since].into_iter().flatten().min().map(|t| later(t, self.empty_ttl))
    }

    /// Ends an abandoned game, or closes an empty room, if its time has come; `true` if so.
    async fn on_life_timer(&mut self) -> bool {
        let now = Instant::now();
        let ttl = self.empty_ttl;
        let due = move |t: Option<Instant>| t.is_some_and(|t| later(t, ttl) <= now);
        let mut acted = false;
        if due(self.gone_since) {
            tracing::info!(room = %self.id, "the game's people have all been gone for {:?}: abandoned", self.empty_ttl);
            self.end_match(None).await;
            self.broadcast(&ServerMsg::ShowAlert {
                text: "Everyone playing left: the game is over, abandoned.".to_string(),
            });
            self.sync_all();
            self.gone_since = None;
            acted = true;
        }
        if due(self.empty_since) {
            self.end_match(None).await;
            if let Err(e) = self.store.delete_room(&self.id).await {
                tracing::error!(room = %self.id, "deleting the closed room failed: {e}");
            }
            tracing::info!(room = %self.id, "room closed: nobody connected for {:?}", self.empty_ttl);
            self.closed = true;
            acted = true;
        }
        acted
    }
}
