//! Prometheus metrics: the names the server records under, their help texts and histogram
//! buckets, and the page `GET /metrics` renders ([`Exporter::render`]).
//!
//! Recording goes through the `metrics` facade. Until [`install`] puts the Prometheus recorder
//! in place (`cardtable serve` does, unless `--no-metrics`), every recording is a no-op.
//! The move path holds its handles: a room registers its game's counter and histogram once,
//! when it is built (`GameMetrics`), so a move costs an atomic add and a histogram sample,
//! no lookup and no allocation. Label values are bounded: games, bot levels, room states,
//! refusal codes, store backends; never a room id or a person's name. What the server holds
//! (rooms, people, sockets) is counted when a page is asked for, not kept up to date move by
//! move.
//!
//! The names (all `cardtable_`, base units, counters `_total`):
//! - `cardtable_rooms{game,state}` gauge: rooms in the lobby, `state` `lobby`, `playing` or
//!   `dormant`;
//! - `cardtable_people_connected` gauge: room members (players and watchers who joined) with a
//!   connected socket; `cardtable_sockets` gauge: room WebSockets open;
//! - `cardtable_moves_total{game}`: moves applied (people's, bots', stand-ins', clocks');
//! - `cardtable_move_seconds{game}` histogram: a person's move, from its packet read off the
//!   socket to the last update queued to the room's sockets (stored in between);
//! - `cardtable_matches_total{game,outcome}`: matches recorded, `won` or `abandoned`;
//! - `cardtable_refusals_total{code}`: packets refused (`ActionFailed`, `PlayerJoinRejected`,
//!   by their code) and requests refused over a limit (`http_429`, `http_503`, `socket_limit`);
//! - `cardtable_store_commits_total{backend}`, `cardtable_store_commit_seconds{backend}`,
//!   `cardtable_store_errors_total{backend}`: the store's transactions ([`store::metrics`]);
//! - `cardtable_rooms_claimed_total`, `cardtable_rooms_handed_over_total`,
//!   `cardtable_rooms_lost_total`: a cluster's failovers (rooms this node claimed from a node
//!   gone or handed over, rooms it handed over at a drain, rooms another node took from it);
//! - `cardtable_bot_think_seconds{game,level}` histogram: a bot's choice;
//! - `cardtable_quickplay_wait_seconds{game}` histogram: a quick-play seeker's wait for a
//!   table ([`quickplay_wait`]; registered here for quick play to record into);
//! - `cardtable_build_info{version}` gauge, 1.

use metrics::{Counter, Histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use registry::GameKind;
use std::sync::OnceLock;
use std::time::Duration;

pub const ROOMS: &str = "cardtable_rooms";
pub const PEOPLE: &str = "cardtable_people_connected";
pub const SOCKETS: &str = "cardtable_sockets";
pub const MOVES: &str = "cardtable_moves_total";
pub const MOVE_SECONDS: &str = "cardtable_move_seconds";
pub const MATCHES: &str = "cardtable_matches_total";
pub const REFUSALS: &str = "cardtable_refusals_total";
pub const ROOMS_CLAIMED: &str = "cardtable_rooms_claimed_total";
pub const ROOMS_HANDED_OVER: &str = "cardtable_rooms_handed_over_total";
pub const ROOMS_LOST: &str = "cardtable_rooms_lost_total";
pub const BOT_THINK_SECONDS: &str = "cardtable_bot_think_seconds";
pub const QUICKPLAY_WAIT_SECONDS: &str = "cardtable_quickplay_wait_seconds";
pub const BUILD_INFO: &str = "cardtable_build_info";
pub use store::metrics::{STORE_COMMIT_SECONDS, STORE_COMMITS, STORE_ERRORS};

/// The states a room is counted in by `cardtable_rooms`.
pub const ROOM_STATES: [&str; 3] = ["lobby", "playing", "dormant"];

/// Bucket bounds (seconds). A move is stored before it is told, so its time is mostly a
/// commit's: from under a millisecond (SQLite, a quiet server) to tens of milliseconds
/// (PostgreSQL across a network, a busy server).
const MOVE_BUCKETS: &[f64] = &[0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0];
const COMMIT_BUCKETS: &[f64] =
    &[0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];
/// From a heuristic's microseconds to a search level's time cap (seconds).
const BOT_BUCKETS: &[f64] = &[0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0];
const QUICKPLAY_BUCKETS: &[f64] = &[1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0];

/// How often histograms' samples are folded into their buckets when nobody asks for the page
/// (samples wait in a queue until then: this bounds it).
pub const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The installed recorder's page: rendered with the lobby's gauges counted first.
#[derive(Clone)]
pub struct Exporter {
    handle: PrometheusHandle,
}

static INSTALLED: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder for the whole process (once; later calls answer the same
/// exporter: several servers in one process, as tests run them, share it). Install it before
/// rooms are built: a handle taken before is a no-op one.
pub fn install() -> Exporter {
    let handle = INSTALLED.get_or_init(|| {
        let mut builder = PrometheusBuilder::new();
        for (name, buckets) in [
            (MOVE_SECONDS, MOVE_BUCKETS),
            (STORE_COMMIT_SECONDS, COMMIT_BUCKETS),
            (BOT_THINK_SECONDS, BOT_BUCKETS),
            (QUICKPLAY_WAIT_SECONDS, QUICKPLAY_BUCKETS),
        ] {
            builder =
                builder.set_buckets_for_metric(Matcher::Full(name.into()), buckets).expect("buckets are not empty");
        }
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            // Only another recorder installed by hand (this program installs none other):
            // that one gets the recordings, and this page stays empty.
            tracing::warn!("a metrics recorder was installed already: GET /metrics stays empty");
        }
        describe();
        handle
    });
    Exporter { handle: handle.clone() }
}

/// Help texts and units, and the series that exist before anything happens (a dashboard's rate
/// of moves reads 0, not nothing, on a node that has played none yet).
fn describe() {
    use metrics::{describe_counter as c, describe_gauge as g, describe_histogram as h};
    g!(ROOMS, Unit::Count, "Rooms in this node's lobby, by game and state (lobby, playing, dormant).");
    g!(PEOPLE, Unit::Count, "Room members (players and watchers who joined) with a connected socket.");
    g!(SOCKETS, Unit::Count, "Room WebSockets open.");
    c!(MOVES, Unit::Count, "Moves applied, by game (people's, bots', stand-ins', clocks').");
    h!(
        MOVE_SECONDS,
        Unit::Seconds,
        "A person's move: from its packet read to the last update queued to the room's sockets."
    );
    c!(MATCHES, Unit::Count, "Matches recorded, by game and outcome (won, abandoned).");
    c!(REFUSALS, Unit::Count, "Packets refused (by their code) and requests refused over a limit.");
    c!(STORE_COMMITS, Unit::Count, "Store transactions committed, by backend.");
    h!(STORE_COMMIT_SECONDS, Unit::Seconds, "A store transaction, from BEGIN to COMMIT answered, by backend.");
    c!(STORE_ERRORS, Unit::Count, "Store transactions failed, by backend.");
    c!(ROOMS_CLAIMED, Unit::Count, "Rooms this node claimed (from a node gone, or handed over).");
    c!(ROOMS_HANDED_OVER, Unit::Count, "Rooms this node handed over at a drain.");
    c!(ROOMS_LOST, Unit::Count, "Rooms another node took over from this one.");
    h!(BOT_THINK_SECONDS, Unit::Seconds, "A bot's choice of move, by game and level.");
    h!(QUICKPLAY_WAIT_SECONDS, Unit::Seconds, "A quick-play seeker's wait for a table, by game.");
    g!(BUILD_INFO, "The server's version (always 1).");
    metrics::gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
    for kind in GameKind::ALL {
        let game = kind.name();
        drop(GameMetrics::new(game));
        drop(metrics::histogram!(QUICKPLAY_WAIT_SECONDS, "game" => game));
    }
    for name in [ROOMS_CLAIMED, ROOMS_HANDED_OVER, ROOMS_LOST] {
        drop(metrics::counter!(name));
    }
}

impl Exporter {
    /// The page: the lobby's gauges (its `census` and `sockets` open, counted by the caller
    /// now), then every series in the text format.
    pub fn render(&self, census: &Census, sockets: usize) -> String {
        for (g, kind) in GameKind::ALL.iter().enumerate() {
            for (s, state) in ROOM_STATES.iter().enumerate() {
                metrics::gauge!(ROOMS, "game" => kind.name(), "state" => *state).set(census.rooms[g][s] as f64);
            }
        }
        metrics::gauge!(PEOPLE).set(census.people as f64);
        metrics::gauge!(SOCKETS).set(sockets as f64);
        self.handle.render()
    }

    /// Folds histograms' samples into their buckets (see [`UPKEEP_EVERY`]).
    pub fn upkeep(&self) {
        self.handle.run_upkeep();
    }
}

/// The rooms of a lobby by game ([`GameKind::ALL`]'s order) and state ([`ROOM_STATES`]), and
/// the people connected to them.
pub struct Census {
    pub rooms: Vec<[usize; 3]>,
    pub people: usize,
}

impl Census {
    pub fn new() -> Census {
        Census { rooms: vec![[0; 3]; GameKind::ALL.len()], people: 0 }
    }

    /// Counts a room of `game` in `state` with `people` connected.
    pub fn count(&mut self, game: &str, state: &str, people: usize) {
        let g = GameKind::ALL.iter().position(|k| k.name() == game);
        let s = ROOM_STATES.iter().position(|s| *s == state);
        if let (Some(g), Some(s)) = (g, s) {
            self.rooms[g][s] += 1;
        }
        self.people += people;
    }
}

impl Default for Census {
    fn default() -> Self {
        Census::new()
    }
}

/// One game's move handles, registered once per room.
pub(crate) struct GameMetrics {
    pub moves: Counter,
    pub move_seconds: Histogram,
}

impl GameMetrics {
    pub(crate) fn new(game: &'static str) -> GameMetrics {
        GameMetrics {
            moves: metrics::counter!(MOVES, "game" => game),
            move_seconds: metrics::histogram!(MOVE_SECONDS, "game" => game),
        }
    }
}

/// A packet or request refused with `code` (a protocol code, bounded: the server's own
/// constants).
pub(crate) fn refused(code: &str) {
    metrics::counter!(REFUSALS, "code" => code.to_owned()).increment(1);
}

/// A match of `game` recorded.
pub(crate) fn match_recorded(game: &'static str, abandoned: bool) {
    let outcome = if abandoned { "abandoned" } else { "won" };
    metrics::counter!(MATCHES, "game" => game, "outcome" => outcome).increment(1);
}

/// A bot's level as a label value: a level's or the game's own bot's name (`bots`), anything
/// else `other`, so that no label value comes from outside the program.
pub(crate) fn bot_level(level: &str, bots: &'static [&'static str]) -> &'static str {
    search::Level::NAMES.iter().chain(bots).find(|n| **n == level).copied().unwrap_or("other")
}

/// A bot of `game` at `level` ([`bot_level`]) chose in `took`.
pub(crate) fn bot_thought(game: &'static str, level: &'static str, took: Duration) {
    metrics::histogram!(BOT_THINK_SECONDS, "game" => game, "level" => level).record(took);
}

/// A quick-play ticket of `game` waited `waited` for its table (a placement game: zero).
pub fn quickplay_wait(game: &'static str, waited: Duration) {
    metrics::histogram!(QUICKPLAY_WAIT_SECONDS, "game" => game).record(waited);
}

/// Rooms claimed by this node (`n` of them).
pub(crate) fn rooms_claimed(n: usize) {
    if n > 0 {
        metrics::counter!(ROOMS_CLAIMED).increment(n as u64);
    }
}

/// Rooms handed over by this node at a drain.
pub(crate) fn rooms_handed_over(n: u64) {
    metrics::counter!(ROOMS_HANDED_OVER).increment(n);
}

/// A room another node took over from this one.
pub(crate) fn room_lost() {
    metrics::counter!(ROOMS_LOST).increment(1);
}
