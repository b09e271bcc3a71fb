//! What the store keeps, as the server sees it, whichever database holds it.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A write failed with the transaction it was batched in (group commit: every request of
    /// the batch hears the same error).
    #[error("database: {0}")]
    Batch(Arc<rusqlite::Error>),
    #[error("the store thread has stopped")]
    Closed,
    /// Another process holds the database: a running `cardtable serve` keeps its file to
    /// itself ([`crate::Store::open_exclusive`]).
    #[error("{0} is in use by a running server, which keeps its database to itself while it runs")]
    InUse(String),
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// A PostgreSQL batch failed as a whole (every request of it hears the same error).
    #[error("PostgreSQL: {0}")]
    PostgresBatch(Arc<tokio_postgres::Error>),
    /// The database cannot be reached (PostgreSQL down or restarting, or silent past the
    /// store's time limit); the store reconnects by itself. A write answered this was not
    /// committed, unless the connection failed after its commit was sent: then its fate is
    /// unknown. A room takes such a move back; if it was stored, the room's next move at the
    /// same index replaces it (see the PostgreSQL module), or a restore finds it in the log.
    #[error("the database is unreachable: {0}")]
    Unavailable(String),
    /// The room is owned by another server now: its ownership epoch moved since this store
    /// claimed it, and the write was refused (PostgreSQL; SQLite has one owner and never
    /// answers this).
    #[error("room {0} is owned by another server now (its ownership epoch moved)")]
    Lost(String),
    /// No account has this id (or it was deleted, for a call that changes a live account).
    #[error("no account {0}")]
    NoAccount(i64),
    /// A row with this key is already stored (a session's hash drawn twice): said without the
    /// key, which may be a secret's hash (a database's own error would quote it).
    #[error("{0} is already stored")]
    Conflict(&'static str),
    /// The database was written by a newer cardtable (its schema is ahead of this binary's).
    #[error(
        "{db} has schema version {found}, newer than this cardtable knows ({known}): it was written by a newer \
         release; run that release (or a later one) on it, or restore a backup made before the upgrade"
    )]
    TooNew { db: String, found: i64, known: i64 },
}

impl StoreError {
    /// The stable code a client hears when a write it caused failed: `room_moved` when another
    /// server owns the room now, `store_unavailable` for everything else (nothing was stored).
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::Lost(_) => "room_moved",
            _ => "store_unavailable",
        }
    }
}

/// A live room as stored: its snapshot and its moves so far.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRoom {
    pub id: String,
    pub game: String,
    pub snapshot: String,
    pub moves: Vec<String>,
    /// Its chat lines (JSON, as appended), oldest first: the last [`CHAT_KEPT`].
    pub chat: Vec<String>,
    /// Why the room's moves cannot be trusted (a move stored without those before it), if so:
    /// the room should not be rebuilt from them.
    pub damaged: Option<String>,
}

/// How both backends build a room as they read it: its row, then its chat lines and moves.
impl StoredRoom {
    pub(crate) fn new(id: String, game: String, snapshot: String) -> StoredRoom {
        StoredRoom { id, game, snapshot, moves: Vec::new(), chat: Vec::new(), damaged: None }
    }

    /// Keeps the last [`CHAT_KEPT`] chat lines (once every line is read, oldest first).
    pub(crate) fn keep_last_chat(&mut self) {
        let extra = self.chat.len().saturating_sub(CHAT_KEPT);
        self.chat.drain(..extra);
    }

    /// Adds the move read at `idx` (moves are read in order): a move written twice counts
    /// once, the later write winning; one stored without those before it marks the room
    /// damaged.
    pub(crate) fn add_move(&mut self, idx: usize, entry: String) {
        match idx.cmp(&self.moves.len()) {
            std::cmp::Ordering::Less => self.moves[idx] = entry,
            std::cmp::Ordering::Equal => self.moves.push(entry),
            std::cmp::Ordering::Greater => {
                self.damaged.get_or_insert(format!("move {idx} is stored without the moves before it"));
            }
        }
    }
}

/// A finished match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub id: i64,
    pub room_id: String,
    pub game: String,
    pub seed: u64,
    /// JSON: the game's config.
    pub config: String,
    /// JSON: the usernames by seat.
    pub players: String,
    /// JSON: the move log (`engine::Move` entries).
    pub log: String,
    /// JSON: the outcome (winners by username).
    pub result: String,
    pub started_at: u64,
    pub ended_at: u64,
    /// The accounts that played it, by seat (seats of bots and anonymous players are not
    /// listed), stored in the same transaction as the match; see [`crate::accounts`].
    #[serde(default)]
    pub people: Vec<SeatPerson>,
}

/// The chat lines kept for each room (older ones are deleted as new ones come).
pub const CHAT_KEPT: usize = 100;

/// An account that played a match, at its seat: a finished match's record lists its people
/// (`MatchRecord::people`), and profiles are read from them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPerson {
    pub seat: u32,
    pub account: i64,
    pub won: bool,
}
