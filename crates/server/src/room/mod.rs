//! A room: one tokio task that owns everything about one table — its members, connections,
//! chat and match. Connections talk to it through a [`RoomHandle`] (whose methods post to the
//! task); nothing about a room is shared except a small summary for the lobby list, behind a
//! briefly-held lock.
//!
//! Every change is written to the store and acknowledged before any client hears of it, so
//! after a crash the room comes back exactly as its clients last saw it.
//!
//! The modules, by the state each part owns (none imports a module that imports it back):
//! - leaves, plain data: [`handle`] (the handle, its commands, the summary), [`options`],
//!   `state` (members, connections, the match), `clock` (time arithmetic);
//! - this module: the [`Room`] itself, its task loop and command dispatch;
//! - the room's behaviour, each an `impl Room` over the leaves: `membership` (join,
//!   reconnect, drop, leave, host), `play` (start, actions, the end of a match), `sync`
//!   (every packet sent: syncs, events, errors, the lobby summary), `timers` (bots, turn
//!   timers, holds), `persist` (snapshots, saving, restoring), `packets` (reading a client's
//!   packet and routing it), `life` (closing when nobody is connected, abandoning a game its
//!   people left), `rated` (rating a rated match's people, and showing every seat's rating).

mod clock;
pub mod handle;
mod life;
mod membership;
pub mod options;
mod packets;
mod persist;
mod play;
mod quick;
mod rated;
mod state;
mod sync;
mod timers;

pub use handle::{ConnId, Inbox, Outbound, Person, RoomGone, RoomHandle, RoomSummary, TryConnect};
pub use options::{
    MAX_BOT_DELAY_MS, MAX_GAME_OPTIONS_BYTES, MAX_HOLD_SECONDS, MAX_SPECTATORS, MAX_TURN_SECONDS, RoomOptions,
};
pub use persist::{accounts_in_snapshot, listing_from_snapshot};

use crate::adapter::{Fields, GameAdapter};
use clock::sleep_until_opt;
use engine::{MatchRng, Viewer};
use handle::RoomCmd;
use protocol::{ChatMessage, codes};
use state::{Conn, Match, Member};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::time::Instant;
/// One table's task state; see the module's documentation for who owns which part.
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
    /// When, after `waiting_since`, the room passes for a connected person who can only pass
    /// (`GameAdapter::only_passes`): drawn per decision from `rng` (see `timers.rs`).
    quiet_pass: std::time::Duration,
    /// Who won the last match (for pages opened after it ended).
    last_winner: Option<String>,
    /// The stored id of the last finished match: pages show its final table until the next
    /// match starts, and link its replay.
    last_match: Option<i64>,
    /// When the last move was applied: each bot move waits its delay from here.
    last_move_at: Instant,
    /// The room's own fields of `GameDataSync` (host, chat, options, seats…), serialized once
    /// and reused until the room changes. Every change to them is saved, and [`Room::save`]
    /// clears this (debug builds check the copy against a fresh one at every use).
    room_fields: Mutex<Option<Fields>>,
    /// How long the room lives on with nobody connected (see [`Room::set_empty_ttl`]).
    empty_ttl: std::time::Duration,
    /// Since when nobody is connected.
    empty_since: Option<Instant>,
    /// Since when none of the running game's people is connected.
    gone_since: Option<Instant>,
    /// The room has closed: its task ends.
    closed: bool,
    /// How long the room stays in memory with nobody connected and no match before it goes
    /// dormant (see `life`); `None`: never (a room driven without a lobby).
    dormant_after: Option<std::time::Duration>,
    /// When the task (re)started: a room woken from dormancy gets its full time again.
    awake_since: Instant,
    /// Going dormant: the task ends and hands the room back to its lobby.
    dormant: bool,
    /// When the room was made (ms since the epoch; 0: not known, stored before it was kept).
    created_at: u64,
    /// The room is not this server's any more (shared with its handle: set by the lobby, or
    /// by the room when a write answers `Lost`): the task ends, writing nothing more.
    moved: handle::Moved,
    /// A write the room must make on its own (a match's end, a seat given up after its hold,
    /// an empty room's close) was refused by the store: the room's timers wait until then, and
    /// then try again (see [`STORE_RETRY`]).
    retry_at: Option<Instant>,
    /// A snapshot the room wrote on its own (a change nobody could be refused: a member gone
    /// in the lobby, the host role passed on, a leave whose move is stored) was refused by the
    /// store: it is written again at every retry until it is stored (see [`Room::save`]).
    unsaved: bool,
    /// Members dropped in the lobby whose leave is not stored yet, and what the others hear
    /// of it once it is (`PlayerLeft`, `HostSet`): the drops queued together (a table closing
    /// its sockets at once) are stored in one snapshot, written when the room has no other
    /// command waiting and before it handles anything else (see [`Room::store_drops`]).
    dropped: Option<Vec<protocol::ServerMsg>>,
    /// A quick-play table's first match starts by itself at this moment at the latest (see
    /// [`options::QuickTable`]); `None` for other rooms, or once it started.
    quick_deadline: Option<Instant>,
    /// Whether members may hand their seat to a bot (`Autopilot`; `serve --allow-autopilot`).
    allow_autopilot: bool,
    /// The members who did so: their bot's level and noise, by username. Not stored (a
    /// benchmark's simulated people send it again after a restart).
    autopilot: HashMap<String, (String, f64)>,
    /// The ratings in this game of the members with an identity (shown on their seats; see
    /// `rated`), read when they join or the room comes back, updated when a rated match ends.
    ratings: HashMap<i64, rating::Rating>,
    /// The game's move counter and latency histogram (see `crate::metrics`).
    metrics: crate::metrics::GameMetrics,
    /// When the packet being handled was read off its socket (a move's latency counts from it).
    packet_at: Instant,
    /// Members connected, as last published in the summary (`cardtable_people_connected`).
    connected: usize,
    _adapter: std::marker::PhantomData<A>,
}

/// Why a room's task ended.
pub enum RunEnd<A: GameAdapter> {
    /// It closed (nobody connected for its `empty_ttl`): gone from the store too.
    Closed,
    /// Every handle was dropped (the lobby is gone: the server is stopping).
    HandlesGone,
    /// The room is another server's now (or handed over): dropped from memory, nothing
    /// written; its sockets close `4001` "moved".
    Moved,
    /// Nobody connected and no match for a while: everything about it is in the store, so the
    /// lobby may drop it from memory — unless `Inbox` has commands after all (someone came in
    /// as it stopped), in which case it runs again. The instant is since when it is empty.
    Dormant(Box<Room<A>>, Inbox, Instant),
}

/// How long a room waits before it tries again a write of its own that the store refused (the
/// database out of reach): long enough not to spin through an outage, short enough that play
/// goes on soon after it.
pub(super) const STORE_RETRY: std::time::Duration = std::time::Duration::from_millis(500);

pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A random `u64` from the operating system (default seeds, the bots' generator).
pub fn os_random_u64() -> u64 {
    getrandom::u64().expect("the operating system's random source works")
}

impl<A: GameAdapter> Room<A> {
    /// A new, empty room. Nothing is stored until something happens in it.
    pub fn create(id: String, options: RoomOptions, store: store::Store) -> (Self, RoomHandle, Inbox) {
        // A default seed nobody can work out from the clock or the process.
        let base_seed = options.seed.unwrap_or_else(os_random_u64);
        let (mut room, handle, inbox) = Self::build(id, options, store, base_seed);
        room.seat_quick_bots();
        room.set_created_at(now_ms());
        (room, handle, inbox)
    }

    /// Sets when the room was made (a new room now, a restored one from its snapshot).
    fn set_created_at(&mut self, at: u64) {
        self.created_at = at;
        self.summary.lock().expect("summary lock").created_at = at;
    }

    fn build(id: String, options: RoomOptions, store: store::Store, base_seed: u64) -> (Self, RoomHandle, Inbox) {
        let seeded = options.seed.is_some() || options.setup.is_some();
        let (handle, inbox, summary, moved) =
            RoomHandle::new(id.clone(), A::name(), options.private, seeded, options.rated);
        // The bots' generator: their choices need no replaying (their moves are stored).
        let rng = MatchRng::new(os_random_u64());
        let quick_deadline =
            options.quickplay.as_ref().map(|q| Instant::now() + std::time::Duration::from_secs(q.join_seconds));
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
            quiet_pass: std::time::Duration::ZERO,
            last_winner: None,
            last_match: None,
            last_move_at: Instant::now(),
            room_fields: Mutex::new(None),
            empty_ttl: std::time::Duration::from_secs(60),
            empty_since: Some(Instant::now()),
            gone_since: None,
            closed: false,
            dormant_after: None,
            awake_since: Instant::now(),
            dormant: false,
            created_at: 0,
            moved,
            retry_at: None,
            unsaved: false,
            dropped: None,
            quick_deadline,
            allow_autopilot: false,
            autopilot: HashMap::new(),
            ratings: HashMap::new(),
            metrics: crate::metrics::GameMetrics::new(A::name()),
            packet_at: Instant::now(),
            connected: 0,
            _adapter: std::marker::PhantomData,
        };
        (room, handle, inbox)
    }

    /// The room's task: handles commands and timers until every handle is gone, the room
    /// closes (nobody connected for its `empty_ttl`), or it goes dormant (see `life`).
    pub async fn run(mut self, inbox: Inbox) -> RunEnd<A> {
        let Inbox(mut rx) = inbox;
        self.awake_since = Instant::now();
        self.dormant = false;
        // A restored match can be over already: its last move was stored, then the server
        // stopped (kill -9, a failover) before it recorded the match's end. Replayed, it asks
        // nobody (`waitingOn: []`) and no move will ever come to end it: end it here, as that
        // move would have. A running match is left as it is (`finish_if_over` checks).
        self.finish_if_over().await;
        self.load_ratings().await;
        self.note_presence();
        loop {
            if self.has_moved() {
                return RunEnd::Moved;
            }
            // The last of the drops queued together is handled: store them (a command
            // waiting, if not a drop, stores them first; see `handle`). Between the two, no
            // timer, dormancy or end of the task finds drops unstored: the select below takes
            // a waiting command first. The sockets of a table closing together often reach the
            // server a moment apart, the first alone: the room lets the runtime poll its
            // sockets once first, so that their drops join.
            if self.dropped.is_some() && rx.is_empty() {
                tokio::task::yield_now().await;
                if self.has_moved() {
                    return RunEnd::Moved;
                }
                if rx.is_empty() {
                    self.store_drops().await;
                }
            }
            let deadline = match (self.next_deadline(), self.life_deadline()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            // After a refused write of its own, the room's clocks wait for the retry (and it
            // wakes then even if nothing else is due: a match's end to record).
            let deadline = match self.retry_at {
                Some(r) => Some(deadline.map_or(r, |d| d.max(r))),
                None => deadline,
            };
            tokio::select! {
                // Commands first: a connection arriving as the room's time runs out keeps it.
                biased;
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = sleep_until_opt(deadline), if deadline.is_some() => {
                    // A match's end the store refused is tried again first; while it is refused
                    // nothing else of the match can happen.
                    let waited = self.retry_at.take().is_some();
                    let stored = !waited || self.save_unsaved().await;
                    let playing = self.current.is_some();
                    let ended = stored && (!waited || self.finish_if_over().await);
                    if waited && playing && self.current.is_none() {
                        // A match's end recorded on a retry: the lobby is told as after a move.
                        self.sync_all();
                    }
                    if ended && !self.on_life_timer().await {
                        self.on_timer().await;
                    }
                }
            }
            if self.has_moved() {
                return RunEnd::Moved;
            }
            if self.closed {
                return RunEnd::Closed;
            }
            if self.dormant {
                let since = self.empty_since.unwrap_or(self.awake_since);
                return RunEnd::Dormant(Box::new(self), Inbox(rx), since);
            }
            self.note_presence();
        }
        RunEnd::HandlesGone
    }

    async fn handle(&mut self, cmd: RoomCmd) {
        // Lobby drops not stored yet are stored before anything else happens in the room (a
        // join, a start, a flush): only more drops may join them.
        if !matches!(cmd, RoomCmd::Disconnect { .. }) {
            self.store_drops().await;
        }
        match cmd {
            RoomCmd::Connect { conn, tx, person } => {
                self.conns.insert(conn, Conn { tx, member: None, viewer: Viewer::Spectator, person, heard: false });
            }
            RoomCmd::Text { conn, text, at } => {
                self.hear(conn);
                self.packet_at = at;
                self.on_text(conn, text.as_str()).await
            }
            RoomCmd::Binary { conn } => {
                self.hear(conn);
                self.fail(conn, codes::BINARY_FRAME, "binary frames are not supported; send JSON text")
            }
            RoomCmd::RateLimited { conn } => {
                self.hear(conn);
                self.fail(conn, codes::RATE_LIMITED, "too many packets: slow down (20 a second, bursts of 40)")
            }
            RoomCmd::Disconnect { conn } => self.on_disconnect(conn).await,
            RoomCmd::Flush { done } => {
                let _ = done.send(());
            }
            // The flag is set already; the loop ends the task.
            RoomCmd::Moved => {}
            RoomCmd::Close { message, done } => {
                let closed = self.close_by_moderator(&message).await;
                let _ = done.send(closed);
            }
            RoomCmd::Expel { account, reason, until } => self.expel(account, reason, until).await,
        }
    }

    /// Lets members hand their seat to a bot (`Autopilot`).
    pub fn set_allow_autopilot(&mut self, allow: bool) {
        self.allow_autopilot = allow;
    }

    /// The room reads a packet of `conn`: from now on it is sent what the room sends (see
    /// `Conn::heard`).
    fn hear(&mut self, conn: ConnId) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.heard = true;
        }
    }

    /// A write the room makes on its own was refused: its timers wait [`STORE_RETRY`].
    pub(super) fn retry_store_later(&mut self) {
        self.retry_at = Some(Instant::now() + STORE_RETRY);
    }

    /// Whether the room is not this server's any more.
    fn has_moved(&self) -> bool {
        self.moved.get()
    }

    /// Notes a failed write: `Lost` means another server owns the room now (its epoch moved):
    /// the task ends after this command, and its sockets close "moved".
    pub(super) fn note_store_error(&self, e: &store::StoreError) {
        if matches!(e, store::StoreError::Lost(_)) {
            tracing::warn!(room = %self.id, "the room is owned by another server now: it stops here");
            self.moved.set();
        }
    }
}
