//! The SQLite backend: one file, one writing connection, group commit.

use crate::batch::*;
use crate::records::*;
use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

mod accounts;
mod checkpoint;
mod gc;
mod migrations;
mod moderation;
mod ratings;
mod writer;

pub use migrations::SCHEMA_VERSION;

use checkpoint::*;
use gc::*;
use migrations::*;
use writer::*;

#[cfg(test)]
use crate::Store;

/// A connection to the database at `path` as the store's writer holds it: its pragmas (WAL,
/// `synchronous = NORMAL`, 1 KiB pages, a small cache), its schema brought up to date, the file
/// taken exclusively. For tools that measure what the store's writes cost on this machine
/// (`crates/server/examples/protocol_floor.rs`); a server opens the store with
/// [`SqliteStore::open`].
pub fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    open_with(path, true)
}

/// A handle to the SQLite store's writer and thread. Clone freely.
#[derive(Clone)]
pub struct SqliteStore {
    shared: Arc<Shared>,
}

pub(crate) struct Shared {
    /// Requests of the current scheduler tick, not yet committed.
    pending: Mutex<Vec<Cmd>>,
    /// The one writing connection, used inline by [`Shared::hand_over`] and by the thread.
    writer: Arc<Mutex<Writer>>,
    tx: std_mpsc::Sender<Job>,
}

/// Work for the store thread.
pub(crate) enum Job {
    Batch(Vec<Cmd>),
    /// Collect dead moves and restart the WAL, if due (asked after an inline commit).
    Maintain,
    /// Runs a closure on the writing connection, outside any batch (the accounts calls; see
    /// `accounts.rs`): after the batches handed over before it, before those after.
    Run(Box<dyn FnOnce(&mut Connection) + Send>),
}

impl Gather for Shared {
    fn pending(&self) -> &Mutex<Vec<Cmd>> {
        &self.pending
    }

    /// Commits everything pending (nothing if another caller already did): here, if it is
    /// all writes and the writer is free; otherwise on the thread. Order is kept where it
    /// matters: a room awaits each write before it makes the next.
    fn hand_over(&self) {
        let batch = std::mem::take(&mut *self.pending.lock().expect("store queue lock"));
        if batch.is_empty() {
            return;
        }
        if batch.iter().all(Cmd::is_write)
            && let Ok(mut writer) = self.writer.try_lock()
        {
            writer.commit(batch);
            if writer.maintenance_due() {
                drop(writer);
                let _ = self.tx.send(Job::Maintain);
            }
            return;
        }
        // A send fails only if the thread is gone; the dropped acks then say `Closed`.
        let _ = self.tx.send(Job::Batch(batch));
    }
}

impl SqliteStore {
    /// Transactions the writer has committed since the store opened.
    pub fn commits(&self) -> u64 {
        self.shared.writer.lock().expect("store writer lock").commits
    }

    /// Opens (creating if needed) the database at `path` and starts its threads.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, false)
    }

    /// As [`crate::Store::open`], holding the file for as long as the store is open (the server's
    /// way): no file locks per commit (a fifth of a commit's cost), one fewer thread, and a
    /// second process opening the file gets [`StoreError::InUse`] — a second server cannot
    /// restore and run the same rooms. Checkpoints then run on the store's own thread.
    pub fn open_exclusive(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, !is_memory(path))
    }

    fn open_with(path: &Path, exclusive: bool) -> Result<SqliteStore, StoreError> {
        let conn = open_with(path, exclusive)?;
        let wal = Arc::new(WalState::default());
        if !is_memory(path) {
            // The writer never checkpoints inline: a thread does, off the commit path.
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        }
        let checkpoints = if is_memory(path) || exclusive {
            // Exclusive: nobody else may open the file, so the store thread checkpoints (see
            // `worker`).
            None
        } else {
            let checkpointer = Connection::open(path)?;
            checkpointer.busy_timeout(Duration::from_secs(5))?;
            let (stop_tx, stop_rx) = std_mpsc::channel::<()>();
            let wal = wal.clone();
            let file: PathBuf = path.into();
            std::thread::Builder::new()
                .name("sqlite-checkpoint".into())
                .spawn(move || checkpoint_loop(&checkpointer, &stop_rx, &wal, &file))
                .expect("spawn the checkpoint thread");
            Some(stop_tx)
        };
        let rows = conn.query_row("SELECT count(*) FROM moves", [], |r| r.get::<_, i64>(0)).unwrap_or(0) as u64;
        let log = LogState { rows, rows_after_sweep: rows, ..LogState::default() };
        let writer = Arc::new(Mutex::new(Writer { conn, log, wal, exclusive, commits: 0, checkpointed_at: 0 }));
        let (tx, rx) = std_mpsc::channel();
        let thread_writer = writer.clone();
        std::thread::Builder::new()
            .name("sqlite".into())
            .spawn(move || {
                worker(&thread_writer, &rx);
                // Last checkpoint before the thread (and with it the checkpointer) ends.
                drop(checkpoints);
            })
            .expect("spawn the sqlite thread");
        Ok(SqliteStore { shared: Arc::new(Shared { pending: Mutex::new(Vec::new()), writer, tx }) })
    }

    /// An in-memory database (tests, `--db :memory:`).
    pub fn memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::open(Path::new(":memory:"))
    }

    /// Where this store's requests of a scheduler tick are gathered (group commit): every
    /// write and read goes through it (written once, on [`crate::Store`]).
    pub(crate) fn gather(&self) -> &impl Gather {
        &*self.shared
    }
}
/// Reads a finished match straight from a database file, without a server (for
/// `cardtable replay`).
pub fn read_match(path: &Path, id: i64) -> Result<Option<MatchRecord>, StoreError> {
    let conn = open(path)?;
    get_match(&conn, id)
}

fn get_match(conn: &Connection, id: i64) -> Result<Option<MatchRecord>, StoreError> {
    let mut m = conn
        .query_row(
            "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at FROM matches WHERE id = ?1",
            [id],
            row_to_match,
        )
        .optional()?;
    if let Some(m) = &mut m {
        accounts::attach_people(conn, std::slice::from_mut(m))?;
    }
    Ok(m)
}

fn row_to_match(r: &rusqlite::Row<'_>) -> rusqlite::Result<MatchRecord> {
    Ok(MatchRecord {
        id: r.get(0)?,
        room_id: r.get(1)?,
        game: r.get(2)?,
        seed: r.get::<_, i64>(3)? as u64,
        config: r.get(4)?,
        players: r.get(5)?,
        log: r.get(6)?,
        result: r.get(7)?,
        started_at: r.get::<_, i64>(8)? as u64,
        ended_at: r.get::<_, i64>(9)? as u64,
        people: Vec::new(),
    })
}

/// Every live room, or only the room `only`, with its chat and its current match's moves.
pub(crate) fn load_rooms(conn: &Connection, only: Option<&str>) -> Result<Vec<StoredRoom>, StoreError> {
    let mut rooms = Vec::new();
    let mut from = std::collections::HashMap::new();
    let mut st =
        conn.prepare("SELECT id, game, snapshot, moves_from FROM rooms WHERE ?1 IS NULL OR id = ?1 ORDER BY rowid")?;
    let mut rows = st.query([only])?;
    while let Some(r) = rows.next()? {
        let room = StoredRoom::new(r.get(0)?, r.get(1)?, r.get(2)?);
        from.insert(room.id.clone(), (rooms.len(), r.get::<_, i64>(3)?));
        rooms.push(room);
    }
    let mut st = conn.prepare("SELECT room_id, entry FROM chat WHERE ?1 IS NULL OR room_id = ?1 ORDER BY seq")?;
    let mut rows = st.query([only])?;
    while let Some(r) = rows.next()? {
        if let Some(&(i, _)) = from.get(&r.get::<_, String>(0)?) {
            rooms[i].chat.push(r.get(1)?);
        }
    }
    rooms.iter_mut().for_each(StoredRoom::keep_last_chat);
    // One pass over the log, keeping each room's moves from its current match on.
    let oldest = from.values().map(|&(_, f)| f).min().unwrap_or(i64::MAX);
    let mut st = conn.prepare(
        "SELECT seq, room_id, idx, entry FROM moves WHERE seq >= ?1 AND (?2 IS NULL OR room_id = ?2) ORDER BY seq",
    )?;
    let mut rows = st.query(params![oldest, only])?;
    while let Some(r) = rows.next()? {
        let room_id: String = r.get(1)?;
        let Some(&(i, first)) = from.get(&room_id) else { continue };
        if r.get::<_, i64>(0)? < first {
            continue;
        }
        rooms[i].add_move(r.get::<_, i64>(2)? as usize, r.get(3)?);
    }
    Ok(rooms)
}

#[cfg(test)]
mod tests;
