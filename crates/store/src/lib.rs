//! # store — live rooms and finished matches, in SQLite or in PostgreSQL
//!
//! The async server talks to its database through [`Store`], a cheap handle, and awaits each
//! write's acknowledgement before it tells clients an action happened: a move is committed
//! before anyone hears of it. Two backends sit behind it:
//!
//! - [`sqlite`] (the embedded default, `--db cardtable.db`): one file, one writing connection,
//!   WAL mode; see that module for group commit, checkpoints and the move log's collection.
//! - [`postgres`] (`--db postgres://user@host/dbname`): a pool of connections that reconnects by
//!   itself after an outage; each batch is one transaction whose statements are pipelined.
//!
//! Both commit in groups: the first request of a scheduler tick yields once, so every room
//! that is ready to run adds its writes, and the batch becomes one transaction (`batch`).
//!
//! ## Ownership
//! Every room row carries an owner and an ownership epoch, shaped for several servers on one
//! PostgreSQL: a server claims a room by bumping its epoch, and every write that concerns a room
//! (a move, a snapshot rewrite, a delete, a finished match) is checked against the epoch the
//! writer claimed, inside the write's own transaction (the room row read `FOR SHARE`); when it
//! moved, the write is refused with [`StoreError::Lost`] and nothing of it is stored. SQLite
//! has one owner (the process holding the file) and never answers `Lost`.
//!
//! ## Schema versions
//! Both backends migrate in numbered steps at open, in order, and record the version they
//! reached (SQLite's `user_version`, PostgreSQL's `schema_versions` table); a database newer
//! than the binary is refused with [`StoreError::TooNew`].
//!
//! Why an enum over the two backends rather than a trait object: the server calls the store
//! on every move, and an `async fn` in a trait is not object-safe without boxing each
//! future (an allocation a move); the enum's `match` costs nothing, keeps SQLite's hot path as
//! it was, and the set of backends is closed (as the project's serde enums are).
//!
//! A live room is its snapshot (members, tokens, host, the match's seed and config), its
//! current match's moves, and its chat (a line an insert; the room keeps its last
//! [`CHAT_KEPT`] lines). A finished match is a row of its own with its full log, and the
//! accounts that played it ([`MatchRecord::people`]).
//!
//! People (accounts, name holds, sessions, passkeys, challenges, profiles) are in [`accounts`]:
//! calls off the move path, which do not go through group commit. Ratings (each identity's
//! Glicko-2 rating per game, its history, leaderboards, leaves of rated matches) are in
//! [`ratings`], off the move path too.

pub mod accounts;
mod batch;
pub mod metrics;
pub mod moderation;
pub mod postgres;
pub mod ratings;
mod records;
pub mod sqlite;

pub use records::{CHAT_KEPT, MatchRecord, StoreError, StoredRoom};

use batch::Cmd;
use std::path::{Path, PathBuf};
use tokio::sync::oneshot;

/// Where a store lives, as `--db` names it: a `postgres://` or `postgresql://` URL, or else a
/// SQLite file (`:memory:` for a database that lives as long as the process).
#[derive(Clone, Debug, PartialEq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Location {
    pub fn parse(db: &str) -> Location {
        if db.starts_with("postgres://") || db.starts_with("postgresql://") {
            Location::Postgres(db.to_string())
        } else {
            Location::Sqlite(PathBuf::from(db))
        }
    }
}

impl std::str::FromStr for Location {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Location::parse(s))
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            // Never the password.
            Location::Postgres(url) => f.write_str(&postgres::redact(url)),
        }
    }
}

/// A handle to the store. Clone freely.
#[derive(Clone)]
pub struct Store(Backend);

#[derive(Clone)]
enum Backend {
    Sqlite(sqlite::SqliteStore),
    Postgres(postgres::PgStore),
}

macro_rules! each {
    ($self:ident, $s:ident => $e:expr) => {
        match &$self.0 {
            Backend::Sqlite($s) => $e,
            Backend::Postgres($s) => $e,
        }
    };
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and starts its threads.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        sqlite::SqliteStore::open(path).map(|s| Store(Backend::Sqlite(s)))
    }

    /// As [`Store::open`], holding the file for as long as the store is open (the server's
    /// way; see [`sqlite::SqliteStore::open_exclusive`]).
    pub fn open_exclusive(path: &Path) -> Result<Store, StoreError> {
        sqlite::SqliteStore::open_exclusive(path).map(|s| Store(Backend::Sqlite(s)))
    }

    /// An in-memory SQLite database (tests, `--db :memory:`).
    pub fn memory() -> Result<Store, StoreError> {
        sqlite::SqliteStore::memory().map(|s| Store(Backend::Sqlite(s)))
    }

    /// Connects to PostgreSQL at `url` as the node [`postgres::DEFAULT_NODE`], migrating its
    /// schema. Needs a tokio runtime (the store's committer is a task).
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        postgres::PgStore::connect(url, postgres::DEFAULT_NODE).await.map(|s| Store(Backend::Postgres(s)))
    }

    /// Connects to PostgreSQL at `url` as node `node` (one of several servers on one
    /// database; see [`postgres::PgStore::register`]).
    pub async fn connect_node(url: &str, node: &str) -> Result<Store, StoreError> {
        postgres::PgStore::connect(url, node).await.map(|s| Store(Backend::Postgres(s)))
    }

    /// The PostgreSQL backend, for what only it does; `None` on SQLite. The server asks for
    /// capabilities instead ([`Store::cluster`], [`Store::keeps_listings`]).
    pub fn postgres(&self) -> Option<&postgres::PgStore> {
        match &self.0 {
            Backend::Postgres(s) => Some(s),
            Backend::Sqlite(_) => None,
        }
    }

    /// What the nodes of a cluster share through the store (registration, heartbeats, the
    /// epochs held, claims, lookups, the list of every node's rooms, the hand-over at a
    /// drain; see [`postgres::PgStore`]'s cluster methods); `None` for a store that cannot hold
    /// a cluster (SQLite: one server holds the file).
    pub fn cluster(&self) -> Option<&postgres::PgStore> {
        self.postgres()
    }

    /// Whether the store keeps what the lobby lists about each room on the room's row (the
    /// `listing` of [`Store::save_room_listed`]): PostgreSQL does, where every node of a
    /// cluster lists from; SQLite does not (one server lists from memory).
    pub fn keeps_listings(&self) -> bool {
        self.cluster().is_some()
    }

    /// Opens the store at `location`; a SQLite file `exclusive`ly if asked (the server's way).
    pub async fn open_location(location: &Location, exclusive: bool) -> Result<Store, StoreError> {
        match location {
            Location::Sqlite(path) if exclusive => Store::open_exclusive(path),
            Location::Sqlite(path) => Store::open(path),
            Location::Postgres(url) => Store::connect(url).await,
        }
    }

    /// Transactions committed since the store opened (SQLite; `None` on PostgreSQL, whose
    /// `pg_stat_database` counts them): what the server's group commit and its rooms' writes
    /// cost in commits.
    pub fn commits(&self) -> Option<u64> {
        match &self.0 {
            Backend::Sqlite(s) => Some(s.commits()),
            Backend::Postgres(_) => None,
        }
    }

    /// Which backend this is: `"sqlite"` or `"postgres"`.
    pub fn backend(&self) -> &'static str {
        match &self.0 {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    /// Adds a request to the backend's batch of this scheduler tick (group commit, `batch`)
    /// and waits for its answer: every write of both backends, and SQLite's reads, are made
    /// here, once.
    async fn call<T>(&self, make: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Cmd) -> Result<T, StoreError> {
        each!(self, s => batch::call(s.gather(), make).await)
    }

    /// Creates the room or rewrites its snapshot.
    pub async fn save_room(&self, id: &str, game: &str, snapshot: String) -> Result<(), StoreError> {
        self.save_room_listed(id, game, snapshot, None).await
    }

    /// As [`Store::save_room`], with what the lobby lists about the room (JSON): PostgreSQL
    /// keeps it on the room's row, where every node of a cluster lists it from; SQLite (one
    /// server, which lists from memory) does not keep it.
    pub async fn save_room_listed(
        &self,
        id: &str,
        game: &str,
        snapshot: String,
        listing: Option<String>,
    ) -> Result<(), StoreError> {
        self.call(|ack| Cmd::SaveRoom { id: id.into(), game: game.into(), snapshot, listing, ack }).await
    }

    /// Whether `id` names a stored room, or one that closed (a retired id is never drawn again:
    /// a finished match's replay is keyed on its room's id).
    pub async fn id_taken(&self, id: &str) -> Result<bool, StoreError> {
        match &self.0 {
            Backend::Sqlite(_) => self.call(|reply| Cmd::IdTaken { id: id.into(), reply }).await,
            Backend::Postgres(s) => s.id_taken(id).await,
        }
    }

    /// Appends the room's move number `index` (of its current match).
    pub async fn append_move(&self, id: &str, index: u64, entry: String) -> Result<(), StoreError> {
        self.call(|ack| Cmd::AppendMove { id: id.into(), index, entry, ack }).await
    }

    /// Clears a room's moves (a new match begins) and saves its snapshot.
    pub async fn reset_moves(&self, id: &str, snapshot: String) -> Result<(), StoreError> {
        self.reset_moves_listed(id, snapshot, None).await
    }

    /// As [`Store::reset_moves`], with what the lobby lists about the room (as
    /// [`Store::save_room_listed`]): a match's start or end stores both in one write.
    pub async fn reset_moves_listed(
        &self,
        id: &str,
        snapshot: String,
        listing: Option<String>,
    ) -> Result<(), StoreError> {
        self.call(|ack| Cmd::ResetMoves { id: id.into(), snapshot, listing, ack }).await
    }

    /// Appends a chat line (JSON) to a room's chat, keeping its last [`CHAT_KEPT`].
    pub async fn append_chat(&self, id: &str, entry: String) -> Result<(), StoreError> {
        self.call(|ack| Cmd::AppendChat { id: id.into(), entry, ack }).await
    }

    pub async fn delete_room(&self, id: &str) -> Result<(), StoreError> {
        self.call(|ack| Cmd::DeleteRoom { id: id.into(), ack }).await
    }

    /// Records a finished match; answers its id.
    pub async fn finish_match(&self, record: MatchRecord) -> Result<i64, StoreError> {
        self.call(|ack| Cmd::FinishMatch { record, number: None, ack }).await
    }

    /// Records match number `number` of its room (the room's count of matches played before
    /// it), once: recorded again (a server restoring a room whose match was recorded just
    /// before its owner stopped, and ending it again), the new record replaces the first and
    /// keeps its id, which is answered. Fenced like every write of a room.
    pub async fn record_match(&self, record: MatchRecord, number: u64) -> Result<i64, StoreError> {
        self.call(|ack| Cmd::FinishMatch { record, number: Some(number), ack }).await
    }

    /// Every live room (the server starting); on PostgreSQL, every room this node may own,
    /// claimed for it.
    pub async fn load_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        match &self.0 {
            Backend::Sqlite(_) => self.call(|reply| Cmd::LoadRooms { only: None, reply }).await,
            Backend::Postgres(s) => s.load_rooms().await,
        }
    }

    /// One live room, as [`Store::load_rooms`] reads them (a dormant room being woken).
    pub async fn load_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        match &self.0 {
            Backend::Sqlite(_) => {
                let rooms = self.call(|reply| Cmd::LoadRooms { only: Some(id.to_string()), reply }).await?;
                Ok(rooms.into_iter().next())
            }
            Backend::Postgres(s) => s.load_room(id).await,
        }
    }

    pub async fn get_match(&self, id: i64) -> Result<Option<MatchRecord>, StoreError> {
        match &self.0 {
            Backend::Sqlite(_) => self.call(|reply| Cmd::GetMatch { id, reply }).await,
            Backend::Postgres(s) => s.get_match(id).await,
        }
    }

    pub async fn list_matches(&self, limit: u32) -> Result<Vec<MatchRecord>, StoreError> {
        match &self.0 {
            Backend::Sqlite(_) => self.call(|reply| Cmd::ListMatches { limit, reply }).await,
            Backend::Postgres(s) => s.list_matches(limit).await,
        }
    }
}

/// Reads a finished match straight from a SQLite database file, without a server (for
/// `cardtable replay`).
pub fn read_match(path: &Path, id: i64) -> Result<Option<MatchRecord>, StoreError> {
    sqlite::read_match(path, id)
}
