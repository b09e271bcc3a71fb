//! # store — live rooms and finished matches in SQLite
//!
//! The async server talks to SQLite through [`Store`], a cheap handle, and awaits each write's
//! acknowledgement before it tells clients an action happened. Writes are committed in groups
//! (one transaction for many moves): the first request of a scheduler tick yields once, so
//! every room that is ready to run adds its writes, and then the batch is committed — by the
//! task that led it, right there, when the writer connection is free. A commit of a few small
//! inserts in WAL mode without fsync costs tens of microseconds, less than the two thread
//! switches and wake-ups a hop to another thread costs on a busy core (it was a fifth of the
//! server's CPU per move). Whatever could take longer runs on the store's own thread: reads
//! (rooms at start, finished matches), collecting dead moves, restarting the WAL, and any
//! batch that finds the writer busy with those. Under load batches grow by themselves; an idle
//! server still commits a lone move at once.
//!
//! The database is in WAL mode with `synchronous = NORMAL`: a committed write survives the
//! process being killed (`kill -9`); an OS crash may lose the last moments. Checkpoints (which
//! copy the WAL into the database and fsync) run on a second thread, so a commit never waits
//! for the disk.
//!
//! A live room is a row in `rooms` (its JSON snapshot: members, tokens, host, chat, the
//! match's seed and config) plus its moves in `moves`, one append-only log for every room: a
//! move costs one small insert, and the moves of a whole batch land on the same page or two
//! (a table keyed by room would dirty one page per room). A room's current match is the moves
//! from its `moves_from` on; older ones, and those of deleted rooms, are dead and removed in
//! bulk now and then. A finished match goes to `matches` with its full log. A room's chat is
//! in `chat`, a line an insert (the room keeps its last [`CHAT_KEPT`] lines), never a rewrite of
//! the room's snapshot.

use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

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
    /// itself ([`Store::open_exclusive`]).
    #[error("{0} is in use by a running server, which keeps its database to itself while it runs")]
    InUse(String),
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

/// A finished match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
}

enum Cmd {
    SaveRoom {
        id: String,
        game: String,
        snapshot: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    AppendMove {
        id: String,
        index: u64,
        entry: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Clears a room's moves (a new match begins) and saves its snapshot.
    ResetMoves {
        id: String,
        snapshot: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    DeleteRoom {
        id: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    AppendChat {
        id: String,
        entry: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    FinishMatch {
        record: MatchRecord,
        ack: oneshot::Sender<Result<i64, StoreError>>,
    },
    LoadRooms {
        /// One room (a dormant room woken), or every room (the server starting).
        only: Option<String>,
        reply: oneshot::Sender<Result<Vec<StoredRoom>, StoreError>>,
    },
    GetMatch {
        id: i64,
        reply: oneshot::Sender<Result<Option<MatchRecord>, StoreError>>,
    },
    ListMatches {
        limit: u32,
        reply: oneshot::Sender<Result<Vec<MatchRecord>, StoreError>>,
    },
}

/// A handle to the store thread. Clone freely.
#[derive(Clone)]
pub struct Store {
    shared: Arc<Shared>,
}

struct Shared {
    /// Requests of the current scheduler tick, not yet committed.
    pending: Mutex<Vec<Cmd>>,
    /// The one writing connection, used inline by [`Shared::hand_over`] and by the thread.
    writer: Arc<Mutex<Writer>>,
    tx: std_mpsc::Sender<Job>,
}

/// Work for the store thread.
enum Job {
    Batch(Vec<Cmd>),
    /// Collect dead moves and restart the WAL, if due (asked after an inline commit).
    Maintain,
}

impl Shared {
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

impl Cmd {
    /// A small write (committed inline); the rest are reads, which may take long.
    fn is_write(&self) -> bool {
        !matches!(self, Cmd::LoadRooms { .. } | Cmd::GetMatch { .. } | Cmd::ListMatches { .. })
    }
}

/// Goes to the back of the scheduler's queue once: every task already scheduled runs before
/// this one goes on. Unlike `tokio::task::yield_now`, which defers the task until the runtime
/// has polled for IO, this costs no `epoll_wait` when nothing else is ready (one more system
/// call a move for a lone room); the rooms a batch gathers are those queued to run either way.
struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

/// Hands the batch over when the leading request stops waiting, even if it is cancelled.
struct HandOver<'a>(&'a Shared);

impl Drop for HandOver<'_> {
    fn drop(&mut self) {
        self.0.hand_over();
    }
}

/// How often the checkpoint thread folds the WAL back into the database while writes come in.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);
/// Past this many frames in the WAL the writer completes a checkpoint itself, between two
/// commits, so the WAL starts over. The checkpoint thread cannot complete one while commits
/// keep coming (each pass leaves the frames written meanwhile), and a WAL only starts over
/// once every frame is in the database; on a server that is ever quiet for a moment, it does
/// so by itself. Under constant load this caps the WAL (64 MiB with 1 KiB pages) at the price
/// of one short stall (the last frames and two fsyncs) every few seconds.
const WAL_RESET_FRAMES: u64 = 65_536;
/// An exclusive store (no second connection, so no checkpoint thread) folds the WAL back on
/// its own thread after this many commits, or after [`CHECKPOINT_EVERY`] without a request.
/// Rare and large rather than often and small: each one holds the writer for a few
/// milliseconds (the pages changed since the last, and two fsyncs), and a few stalls a
/// second would show in every latency percentile.
const EXCLUSIVE_CHECKPOINT_COMMITS: u64 = 8_192;

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(
            "CREATE TABLE rooms (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            snapshot TEXT NOT NULL,
            updated_at INTEGER NOT NULL DEFAULT (unixepoch())
        );
        CREATE TABLE room_moves (
            room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            entry TEXT NOT NULL,
            PRIMARY KEY (room_id, idx)
        ) WITHOUT ROWID;
        CREATE TABLE matches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            room_id TEXT NOT NULL,
            game TEXT NOT NULL,
            seed INTEGER NOT NULL,
            config TEXT NOT NULL,
            players TEXT NOT NULL,
            log TEXT NOT NULL,
            result TEXT NOT NULL,
            started_at INTEGER NOT NULL,
            ended_at INTEGER NOT NULL
        );",
        ),
        // v2: one append-only log of moves for all rooms (see the module docs).
        M::up(
            "CREATE TABLE moves (
            seq INTEGER PRIMARY KEY,
            room_id TEXT NOT NULL,
            idx INTEGER NOT NULL,
            entry TEXT NOT NULL
        );
        INSERT INTO moves (room_id, idx, entry) SELECT room_id, idx, entry FROM room_moves ORDER BY room_id, idx;
        DROP TABLE room_moves;
        ALTER TABLE rooms ADD COLUMN moves_from INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX rooms_moves_from ON rooms (moves_from);",
        ),
        // v3: chat lines in a table of their own, out of the rooms' snapshots.
        M::up(
            "CREATE TABLE chat (
            seq INTEGER PRIMARY KEY,
            room_id TEXT NOT NULL,
            entry TEXT NOT NULL
        );
        CREATE INDEX chat_room ON chat (room_id, seq);
        INSERT INTO chat (room_id, entry)
            SELECT rooms.id, line.value FROM rooms, json_each(rooms.snapshot, '$.chat') AS line
            WHERE json_valid(rooms.snapshot) ORDER BY rooms.rowid, line.key;
        UPDATE rooms SET snapshot = json_remove(snapshot, '$.chat') WHERE json_valid(snapshot);",
        ),
    ])
}

/// The chat lines kept for each room (older ones are deleted as new ones come).
pub const CHAT_KEPT: usize = 100;

/// Dead moves are collected after this many appends, at most [`GC_CHUNK`] at a time (a
/// bounded, small delete: no pause for the rooms waiting on the commit)...
const GC_EVERY: u64 = 512;
const GC_CHUNK: u64 = 2048;
/// ...and every move is checked against its room once the log holds this many rows and twice
/// as many as after the last such sweep (a room whose match never ends holds back the cheap
/// collection, which only removes the log's oldest rows).
const SWEEP_AT: u64 = 100_000;

/// Moves (by `seq`) a sweep deletes from in one transaction.
const SWEEP_WINDOW: i64 = 4096;

/// Where the next move's `seq` will start a room's match.
const NEXT_SEQ: &str = "(SELECT coalesce(max(seq), 0) + 1 FROM moves)";

/// The writer's bookkeeping of the move log.
#[derive(Default)]
struct LogState {
    appended_since_gc: u64,
    /// Rows in `moves` (an estimate: counted at open and after each sweep).
    rows: u64,
    rows_after_sweep: u64,
}

/// Removes dead moves: cheaply those older than every room's current match, and all of
/// them when the log has grown large (see [`SWEEP_AT`]).
fn collect_garbage(conn: &Connection, log: &mut LogState, sweep_at: u64) -> rusqlite::Result<()> {
    log.appended_since_gc = 0;
    let oldest = format!("coalesce((SELECT min(moves_from) FROM rooms), {NEXT_SEQ})");
    let chunk_end = format!("(SELECT coalesce(min(seq), 0) + {GC_CHUNK} FROM moves)");
    let deleted = conn.execute(&format!("DELETE FROM moves WHERE seq < min({oldest}, {chunk_end})"), [])? as u64;
    log.rows = log.rows.saturating_sub(deleted);
    if log.rows >= sweep_at && log.rows >= 2 * log.rows_after_sweep {
        // A window of the log at a time, each its own transaction: one delete over the whole
        // log held every page it dirtied at once (the server's memory grew by megabytes at the
        // first sweep, and kept them).
        let (lo, hi): (i64, i64) =
            conn.query_row("SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM moves", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        let mut sweep = conn.prepare_cached(
            "DELETE FROM moves WHERE seq >= ?1 AND seq < ?2 AND seq < \
             coalesce((SELECT moves_from FROM rooms WHERE rooms.id = moves.room_id), 9223372036854775807)",
        )?;
        let mut from = lo;
        while from <= hi {
            sweep.execute(params![from, from + SWEEP_WINDOW])?;
            from += SWEEP_WINDOW;
        }
        log.rows = conn.query_row("SELECT count(*) FROM moves", [], |r| r.get::<_, i64>(0))? as u64;
        log.rows_after_sweep = log.rows;
    }
    Ok(())
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    open_with(path, false)
}

/// Opens the database; `exclusive`: this connection takes the file for as long as it is open
/// (no file locks per transaction — seven `fcntl` calls of every commit — and the WAL index
/// in memory), and another process opening it gets [`StoreError::InUse`].
fn open_with(path: &Path, exclusive: bool) -> Result<Connection, StoreError> {
    let mut conn = Connection::open(path)?;
    // Small pages for a new database: a move dirties one page per commit, and every dirty
    // page is written whole to the WAL (an existing database keeps its page size).
    conn.pragma_update(None, "page_size", 1024)?;
    if exclusive {
        // Before the first access in WAL mode, so SQLite keeps the WAL index in memory.
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
    }
    let in_use = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            StoreError::InUse(path.display().to_string())
        }
        _ => StoreError::Db(e),
    };
    // Held elsewhere: say so at once rather than after the busy timeout.
    conn.busy_timeout(Duration::from_millis(if exclusive { 0 } else { 5_000 }))?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(in_use)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // A small page cache (SQLite's default is 2 MiB a connection): the server reads the
    // database only at start; its writes touch the last pages of a few tables.
    conn.pragma_update(None, "cache_size", -256)?;
    migrations().to_latest(&mut conn).map_err(|e| match e {
        rusqlite_migration::Error::RusqliteError { err, .. } => in_use(err),
        e => StoreError::Migration(e),
    })?;
    if exclusive {
        // A write takes the file's exclusive lock now (a read would take only a shared one),
        // so a second server on the same file is refused at start, not at its first move.
        conn.execute_batch("BEGIN IMMEDIATE; COMMIT;").map_err(in_use)?;
    }
    conn.busy_timeout(Duration::from_secs(5))?;
    Ok(conn)
}

fn is_memory(path: &Path) -> bool {
    path.as_os_str() == ":memory:"
}

impl Store {
    /// Opens (creating if needed) the database at `path` and starts its threads.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, false)
    }

    /// As [`Store::open`], holding the file for as long as the store is open (the server's
    /// way): no file locks per commit (a fifth of a commit's cost), one fewer thread, and a
    /// second process opening the file gets [`StoreError::InUse`] — a second server cannot
    /// restore and run the same rooms. Checkpoints then run on the store's own thread.
    pub fn open_exclusive(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, !is_memory(path))
    }

    fn open_with(path: &Path, exclusive: bool) -> Result<Store, StoreError> {
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
        Ok(Store { shared: Arc::new(Shared { pending: Mutex::new(Vec::new()), writer, tx }) })
    }

    /// An in-memory database (tests, `--db :memory:`).
    pub fn memory() -> Result<Store, StoreError> {
        Store::open(Path::new(":memory:"))
    }

    async fn call<T>(&self, make: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Cmd) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let leads = {
            let mut pending = self.shared.pending.lock().expect("store queue lock");
            pending.push(make(tx));
            pending.len() == 1
        };
        if leads {
            // The first request since the last hand-over waits one scheduler round, so the
            // other rooms ready to run add theirs, then hands the batch to the thread.
            let _hand_over = HandOver(&self.shared);
            YieldOnce(false).await;
        }
        rx.await.map_err(|_| StoreError::Closed)?
    }

    pub async fn save_room(&self, id: &str, game: &str, snapshot: String) -> Result<(), StoreError> {
        self.call(|ack| Cmd::SaveRoom { id: id.into(), game: game.into(), snapshot, ack }).await
    }

    pub async fn append_move(&self, id: &str, index: u64, entry: String) -> Result<(), StoreError> {
        self.call(|ack| Cmd::AppendMove { id: id.into(), index, entry, ack }).await
    }

    pub async fn reset_moves(&self, id: &str, snapshot: String) -> Result<(), StoreError> {
        self.call(|ack| Cmd::ResetMoves { id: id.into(), snapshot, ack }).await
    }

    /// Appends a chat line (JSON) to a room's chat, keeping its last [`CHAT_KEPT`].
    pub async fn append_chat(&self, id: &str, entry: String) -> Result<(), StoreError> {
        self.call(|ack| Cmd::AppendChat { id: id.into(), entry, ack }).await
    }

    pub async fn delete_room(&self, id: &str) -> Result<(), StoreError> {
        self.call(|ack| Cmd::DeleteRoom { id: id.into(), ack }).await
    }

    pub async fn finish_match(&self, record: MatchRecord) -> Result<i64, StoreError> {
        self.call(|ack| Cmd::FinishMatch { record, ack }).await
    }

    pub async fn load_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.call(|reply| Cmd::LoadRooms { only: None, reply }).await
    }

    /// One live room, as [`Store::load_rooms`] reads them (a dormant room being woken).
    pub async fn load_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let rooms = self.call(|reply| Cmd::LoadRooms { only: Some(id.to_string()), reply }).await?;
        Ok(rooms.into_iter().next())
    }

    pub async fn get_match(&self, id: i64) -> Result<Option<MatchRecord>, StoreError> {
        self.call(|reply| Cmd::GetMatch { id, reply }).await
    }

    pub async fn list_matches(&self, limit: u32) -> Result<Vec<MatchRecord>, StoreError> {
        self.call(|reply| Cmd::ListMatches { limit, reply }).await
    }
}

/// Reads a finished match straight from a database file, without a server (for
/// `cardtable replay`).
pub fn read_match(path: &Path, id: i64) -> Result<Option<MatchRecord>, StoreError> {
    let conn = open(path)?;
    get_match(&conn, id)
}

fn get_match(conn: &Connection, id: i64) -> Result<Option<MatchRecord>, StoreError> {
    Ok(conn
        .query_row(
            "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at FROM matches WHERE id = ?1",
            [id],
            row_to_match,
        )
        .optional()?)
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
    })
}

/// What each write of a batch hears once the batch commits (or fails to).
type Acks = Vec<Box<dyn FnOnce(Result<(), Arc<rusqlite::Error>>) + Send>>;

/// What the two threads tell each other about the WAL.
#[derive(Default)]
struct WalState {
    /// Commits since the last checkpoint.
    dirty: AtomicBool,
    /// Frames in the WAL at the last checkpoint.
    frames: AtomicU64,
}

/// Runs a PASSIVE checkpoint; returns the frames in the WAL.
fn checkpoint(conn: &Connection) -> rusqlite::Result<u64> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1)).map(|n| n.max(0) as u64)
}

/// The writing connection and what it knows of the move log and the WAL.
struct Writer {
    conn: Connection,
    log: LogState,
    wal: Arc<WalState>,
    /// The file is this connection's alone: the writer checkpoints (on the store thread).
    exclusive: bool,
    /// Commits since the store opened, and that count at the last checkpoint it ran.
    commits: u64,
    checkpointed_at: u64,
}

impl Writer {
    /// Runs `batch` in one transaction and acknowledges each request once it commits.
    fn commit(&mut self, batch: Vec<Cmd>) {
        let mut acks: Acks = Vec::new();
        // BEGIN and COMMIT as cached statements: `Connection::transaction` parses both again
        // for every batch (a fifth of a one-move commit's instructions).
        if let Err(e) = self.conn.prepare_cached("BEGIN").and_then(|mut st| st.execute([])) {
            return fail_all(batch, &Arc::new(e));
        }
        for cmd in batch {
            run(&self.conn, cmd, &mut acks, &mut self.log);
        }
        let result = self.conn.prepare_cached("COMMIT").and_then(|mut st| st.execute([])).map(|_| ()).map_err(Arc::new);
        if result.is_err() && !self.conn.is_autocommit() {
            // Nothing of a failed batch stays (as a dropped `Transaction` would roll it back).
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        self.wal.dirty.store(true, Ordering::Relaxed);
        self.commits += 1;
        for ack in acks {
            ack(result.clone());
        }
    }

    /// Whether [`Writer::maintain`] has work: dead moves to collect, or a WAL to restart.
    fn maintenance_due(&self) -> bool {
        self.log.appended_since_gc >= GC_EVERY
            || self.wal.frames.load(Ordering::Relaxed) > WAL_RESET_FRAMES
            || self.exclusive_checkpoint_due()
    }

    /// An exclusive writer's WAL has taken [`EXCLUSIVE_CHECKPOINT_COMMITS`] since it was last
    /// folded back.
    fn exclusive_checkpoint_due(&self) -> bool {
        self.exclusive && self.commits - self.checkpointed_at >= EXCLUSIVE_CHECKPOINT_COMMITS
    }

    /// Folds the WAL into the database (an exclusive writer's checkpoint: with no reader
    /// elsewhere it completes, and the next commit starts the WAL from its beginning).
    fn checkpoint_now(&mut self) {
        match checkpoint(&self.conn) {
            Ok(_) => {
                self.wal.frames.store(0, Ordering::Relaxed);
                self.checkpointed_at = self.commits;
            }
            Err(e) => tracing::error!("checkpoint failed: {e}"),
        }
    }

    fn maintain(&mut self) {
        if self.log.appended_since_gc >= GC_EVERY
            && let Err(e) = collect_garbage(&self.conn, &mut self.log, SWEEP_AT)
        {
            tracing::error!("collecting old moves failed: {e}");
        }
        if self.exclusive_checkpoint_due() {
            self.checkpoint_now();
        }
        if self.wal.frames.load(Ordering::Relaxed) > WAL_RESET_FRAMES {
            // No commit runs meanwhile (this holds the writer), so this checkpoint completes
            // and the next commit starts the WAL from its beginning.
            match checkpoint(&self.conn) {
                Ok(_) => self.wal.frames.store(0, Ordering::Relaxed),
                Err(e) => tracing::error!("checkpoint failed: {e}"),
            }
        }
    }
}

/// The store thread: reads, maintenance, and batches that found the writer busy.
fn worker(writer: &Mutex<Writer>, rx: &std_mpsc::Receiver<Job>) {
    let exclusive = writer.lock().expect("store writer lock").exclusive;
    // Commits counted at the last quiet tick: inline commits send the thread nothing, so a
    // timeout alone does not mean the server is quiet.
    let mut commits_seen = u64::MAX;
    loop {
        let job = if exclusive {
            // A quiet moment: fold the WAL back while nothing waits for the writer.
            match rx.recv_timeout(CHECKPOINT_EVERY) {
                Ok(job) => job,
                Err(std_mpsc::RecvTimeoutError::Timeout) => {
                    let mut w = writer.lock().expect("store writer lock");
                    let commits = w.commits;
                    if commits == commits_seen && commits != w.checkpointed_at {
                        w.checkpoint_now();
                    }
                    commits_seen = commits;
                    continue;
                }
                Err(std_mpsc::RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        // Group commit: everything already handed over goes into one transaction; the writes
        // are acknowledged only after it commits.
        let mut batch = Vec::new();
        let mut next = Some(job);
        while let Some(job) = next.take() {
            if let Job::Batch(cmds) = job {
                batch.extend(cmds);
            }
            if batch.len() < 1024 {
                next = rx.try_recv().ok();
            }
        }
        let mut w = writer.lock().expect("store writer lock");
        if !batch.is_empty() {
            w.commit(batch);
        }
        w.maintain();
    }
}

/// Folds the WAL into the database every [`CHECKPOINT_EVERY`] while there are writes, and once
/// more when the store closes. PASSIVE: it never blocks the writer (pages the writer is
/// changing are simply left for the next round).
fn checkpoint_loop(conn: &Connection, stop: &std_mpsc::Receiver<()>, wal: &WalState, file: &Path) {
    let run = || match checkpoint(conn) {
        Ok(frames) => wal.frames.store(frames, Ordering::Relaxed),
        Err(e) => tracing::error!("checkpoint of {} failed: {e}", file.display()),
    };
    loop {
        match stop.recv_timeout(CHECKPOINT_EVERY) {
            Err(std_mpsc::RecvTimeoutError::Timeout) => {
                if wal.dirty.swap(false, Ordering::Relaxed) {
                    run();
                }
            }
            // The writer has stopped.
            _ => {
                run();
                return;
            }
        }
    }
}

fn run(tx: &Connection, cmd: Cmd, acks: &mut Acks, log: &mut LogState) {
    fn ack_after(acks: &mut Acks, r: rusqlite::Result<()>, ack: oneshot::Sender<Result<(), StoreError>>) {
        match r {
            Ok(()) => acks.push(Box::new(move |c| {
                let _ = ack.send(c.map_err(StoreError::Batch));
            })),
            Err(e) => {
                let _ = ack.send(Err(StoreError::Db(e)));
            }
        }
    }
    match cmd {
        Cmd::SaveRoom { id, game, snapshot, ack } => {
            let r = tx
                .prepare_cached(&format!(
                    "INSERT INTO rooms (id, game, snapshot, moves_from) VALUES (?1, ?2, ?3, {NEXT_SEQ})
                     ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = unixepoch()"
                ))
                .and_then(|mut st| st.execute(params![id, game, snapshot]))
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::AppendMove { id, index, entry, ack } => {
            let r = tx
                .prepare_cached("INSERT INTO moves (room_id, idx, entry) VALUES (?1, ?2, ?3)")
                .and_then(|mut st| st.execute(params![id, index as i64, entry]))
                .map(|_| ());
            log.appended_since_gc += 1;
            log.rows += 1;
            ack_after(acks, r, ack);
        }
        Cmd::ResetMoves { id, snapshot, ack } => {
            // The room's earlier moves are dead from here on; they are collected later.
            let r = tx
                .prepare_cached(&format!("UPDATE rooms SET snapshot = ?2, moves_from = {NEXT_SEQ} WHERE id = ?1"))
                .and_then(|mut st| st.execute(params![id, snapshot]))
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::DeleteRoom { id, ack } => {
            let r = tx
                .execute("DELETE FROM rooms WHERE id = ?1", [&id])
                .and_then(|_| tx.execute("DELETE FROM chat WHERE room_id = ?1", [&id]))
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::AppendChat { id, entry, ack } => {
            let r = tx
                .prepare_cached("INSERT INTO chat (room_id, entry) VALUES (?1, ?2)")
                .and_then(|mut st| st.execute(params![id, entry]))
                .and_then(|_| {
                    tx.prepare_cached(
                        "DELETE FROM chat WHERE room_id = ?1 AND seq <= \
                         (SELECT seq FROM chat WHERE room_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)",
                    )?
                    .execute(params![id, CHAT_KEPT as i64])
                })
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::FinishMatch { record: m, ack } => {
            let r = tx
                .prepare_cached(
                    "INSERT INTO matches (room_id, game, seed, config, players, log, result, started_at, ended_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )
                .and_then(|mut st| {
                    st.execute(params![
                        m.room_id,
                        m.game,
                        m.seed as i64,
                        m.config,
                        m.players,
                        m.log,
                        m.result,
                        m.started_at as i64,
                        m.ended_at as i64
                    ])
                });
            match r {
                Ok(_) => {
                    let id = tx.last_insert_rowid();
                    acks.push(Box::new(move |c| {
                        let _ = ack.send(c.map(|()| id).map_err(StoreError::Batch));
                    }));
                }
                Err(e) => {
                    let _ = ack.send(Err(StoreError::Db(e)));
                }
            }
        }
        Cmd::LoadRooms { only, reply } => {
            let _ = reply.send(load_rooms(tx, only.as_deref()));
        }
        Cmd::GetMatch { id, reply } => {
            let _ = reply.send(get_match(tx, id));
        }
        Cmd::ListMatches { limit, reply } => {
            let r = tx
                .prepare(
                    "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at
                     FROM matches ORDER BY id DESC LIMIT ?1",
                )
                .and_then(|mut st| st.query_map([limit], row_to_match)?.collect::<Result<Vec<_>, _>>());
            let _ = reply.send(r.map_err(StoreError::Db));
        }
    }
}

/// Every live room, or only the room `only`, with its chat and its current match's moves.
fn load_rooms(conn: &Connection, only: Option<&str>) -> Result<Vec<StoredRoom>, StoreError> {
    let mut rooms = Vec::new();
    let mut from = std::collections::HashMap::new();
    let mut st =
        conn.prepare("SELECT id, game, snapshot, moves_from FROM rooms WHERE ?1 IS NULL OR id = ?1 ORDER BY rowid")?;
    let mut rows = st.query([only])?;
    while let Some(r) = rows.next()? {
        let room = StoredRoom {
            id: r.get(0)?,
            game: r.get(1)?,
            snapshot: r.get(2)?,
            moves: Vec::new(),
            chat: Vec::new(),
            damaged: None,
        };
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
    for room in &mut rooms {
        let extra = room.chat.len().saturating_sub(CHAT_KEPT);
        room.chat.drain(..extra);
    }
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
        let (idx, entry) = (r.get::<_, i64>(2)? as usize, r.get::<_, String>(3)?);
        let room = &mut rooms[i];
        // A move written twice (it never is) counts once, the later write winning.
        match idx.cmp(&room.moves.len()) {
            std::cmp::Ordering::Less => room.moves[idx] = entry,
            std::cmp::Ordering::Equal => room.moves.push(entry),
            std::cmp::Ordering::Greater => {
                room.damaged.get_or_insert(format!("move {idx} is stored without the moves before it"));
            }
        }
    }
    Ok(rooms)
}

fn fail_all(batch: Vec<Cmd>, e: &Arc<rusqlite::Error>) {
    let err = || StoreError::Batch(e.clone());
    for cmd in batch {
        match cmd {
            Cmd::SaveRoom { ack, .. }
            | Cmd::AppendMove { ack, .. }
            | Cmd::ResetMoves { ack, .. }
            | Cmd::DeleteRoom { ack, .. }
            | Cmd::AppendChat { ack, .. } => {
                let _ = ack.send(Err(err()));
            }
            Cmd::FinishMatch { ack, .. } => {
                let _ = ack.send(Err(err()));
            }
            Cmd::LoadRooms { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
            Cmd::GetMatch { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
            Cmd::ListMatches { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh database file in a directory of its own, removed when dropped.
    struct TempDb {
        dir: PathBuf,
        path: PathBuf,
    }

    impl TempDb {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!("cardtable-store-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("t.db");
            let _ = std::fs::remove_file(&path);
            TempDb { dir, path }
        }
    }

    impl Drop for TempDb {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    #[tokio::test]
    async fn rooms_and_moves_survive_reopening() {
        let db = TempDb::new("reopen");
        let path = db.path.clone();
        {
            let s = Store::open(&path).unwrap();
            s.save_room("r1", "buckshot", "{\"a\":1}".into()).await.unwrap();
            for i in 0..3 {
                s.append_move("r1", i, format!("m{i}")).await.unwrap();
            }
            s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
            s.delete_room("r2").await.unwrap();
            let id = s
                .finish_match(MatchRecord {
                    id: 0,
                    room_id: "r1".into(),
                    game: "buckshot".into(),
                    seed: 7,
                    config: "{}".into(),
                    players: "[]".into(),
                    log: "[]".into(),
                    result: "{}".into(),
                    started_at: 1,
                    ended_at: 2,
                })
                .await
                .unwrap();
            assert_eq!(id, 1);
        }
        let s = Store::open(&path).unwrap();
        let rooms = s.load_rooms().await.unwrap();
        assert_eq!(rooms.len(), 1);
        assert_eq!(rooms[0].moves, vec!["m0", "m1", "m2"]);
        // One room on its own, as a dormant room is woken.
        let one = s.load_room("r1").await.unwrap().expect("r1 is live");
        assert_eq!((one.id.as_str(), one.moves.len()), ("r1", 3));
        assert_eq!(s.load_room("r2").await.unwrap(), None);
        s.reset_moves("r1", "{}".into()).await.unwrap();
        assert!(s.load_rooms().await.unwrap()[0].moves.is_empty());
        assert_eq!(read_match(&path, 1).unwrap().unwrap().seed, 7);
        assert!(read_match(&path, 99).unwrap().is_none());
        assert_eq!(s.list_matches(10).await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn dead_moves_are_collected() {
        let db = TempDb::new("gc");
        let path = db.path.clone();
        {
            let s = Store::open(&path).unwrap();
            s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
            for i in 0..3 {
                s.append_move("r1", i, format!("old{i}")).await.unwrap();
            }
            s.reset_moves("r1", "{}".into()).await.unwrap();
            for i in 0..2 {
                s.append_move("r1", i, format!("new{i}")).await.unwrap();
            }
            s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
            s.append_move("r2", 0, "gone".into()).await.unwrap();
            s.delete_room("r2").await.unwrap();
        }
        let conn = open(&path).unwrap();
        let entries = |c: &Connection| -> Vec<String> {
            c.prepare("SELECT entry FROM moves ORDER BY seq")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        assert_eq!(entries(&conn), ["old0", "old1", "old2", "new0", "new1", "gone"]);
        let mut log = LogState { rows: 6, ..LogState::default() };
        // The cheap pass drops what is older than every room's match; the deleted room's
        // move is newer and waits for a sweep.
        collect_garbage(&conn, &mut log, 1000).unwrap();
        assert_eq!(entries(&conn), ["new0", "new1", "gone"]);
        collect_garbage(&conn, &mut log, 1).unwrap();
        assert_eq!(entries(&conn), ["new0", "new1"]);
        assert_eq!(log.rows, 2);
        assert_eq!(load_rooms(&conn, None).unwrap()[0].moves, ["new0", "new1"]);
    }

    #[test]
    fn a_sweep_reaches_every_window_of_the_log() {
        let db = TempDb::new("sweep");
        let conn = open(&db.path).unwrap();
        // A deleted room's moves spread over several sweep windows, and a live room's.
        conn.execute_batch(
            "INSERT INTO rooms (id, game, snapshot, moves_from) VALUES ('live', 'buckshot', '{}', 9001);
             INSERT INTO moves (seq, room_id, idx, entry) VALUES
                 (1, 'gone', 0, 'a'), (5000, 'gone', 1, 'b'), (9000, 'gone', 2, 'c'), (9001, 'live', 0, 'x');",
        )
        .unwrap();
        let mut log = LogState { rows: 4, ..LogState::default() };
        collect_garbage(&conn, &mut log, 1).unwrap();
        let left: Vec<String> = conn
            .prepare("SELECT entry FROM moves")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(left, ["x"]);
        assert_eq!(log.rows, 1);
    }

    #[test]
    fn a_room_with_a_gap_in_its_moves_is_marked_damaged() {
        let db = TempDb::new("gap");
        let path = db.path.clone();
        let conn = open(&path).unwrap();
        conn.execute_batch(
            "INSERT INTO rooms (id, game, snapshot) VALUES ('ok', 'buckshot', '{}'), ('gap', 'buckshot', '{}');
             INSERT INTO moves (room_id, idx, entry) VALUES ('ok', 0, 'a'), ('gap', 0, 'x'), ('gap', 2, 'z'), ('ok', 1, 'b');",
        )
        .unwrap();
        let rooms = load_rooms(&conn, None).unwrap();
        assert_eq!((rooms[0].moves.clone(), rooms[0].damaged.clone()), (vec!["a".to_string(), "b".into()], None));
        assert!(rooms[1].damaged.as_deref().unwrap().contains("move 2"));
    }

    #[tokio::test]
    async fn chat_lines_are_appended_kept_to_the_last_hundred_and_deleted_with_the_room() {
        let db = TempDb::new("chat");
        let path = db.path.clone();
        {
            let s = Store::open(&path).unwrap();
            s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
            s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
            for i in 0..(CHAT_KEPT + 5) {
                s.append_chat("r1", format!("{{\"n\":{i}}}")).await.unwrap();
            }
            s.append_chat("r2", "{}".into()).await.unwrap();
            s.delete_room("r2").await.unwrap();
        }
        let conn = open(&path).unwrap();
        let rooms = load_rooms(&conn, None).unwrap();
        assert_eq!(rooms.len(), 1);
        assert_eq!(rooms[0].chat.len(), CHAT_KEPT);
        assert_eq!(rooms[0].chat[0], "{\"n\":5}");
        let rows: i64 = conn.query_row("SELECT count(*) FROM chat", [], |r| r.get(0)).unwrap();
        assert_eq!(rows, CHAT_KEPT as i64, "old lines and a deleted room's lines are gone");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_exclusive_store_keeps_its_file_and_folds_the_wal_back_when_quiet() {
        let db = TempDb::new("exclusive");
        let path = db.path.clone();
        let s = Store::open_exclusive(&path).unwrap();
        s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
        for i in 0..50 {
            s.append_move("r1", i, format!("\"m{i}\"")).await.unwrap();
        }
        // The moves are in the WAL, not yet in the database file.
        let in_file = || std::fs::read(&path).unwrap().windows(5).any(|w| w == b"\"m49\"");
        assert!(!in_file(), "written straight to the database file");
        // A second server is refused at once, and told why.
        match Store::open_exclusive(&path) {
            Err(e @ StoreError::InUse(_)) => assert!(e.to_string().contains("in use by a running server"), "{e}"),
            Err(e) => panic!("refused for another reason: {e}"),
            Ok(_) => panic!("two stores hold one file"),
        }
        // A reader (the CLI's `matches`) too, after its busy wait.
        assert!(matches!(Store::open(&path), Err(StoreError::InUse(_))));
        // A quiet moment (the reader's wait was one) folds the WAL into the database file.
        let mut folded = in_file();
        for _ in 0..20 {
            if folded {
                break;
            }
            tokio::time::sleep(CHECKPOINT_EVERY).await;
            folded = in_file();
        }
        assert!(folded, "no checkpoint: the last move never reached the database file");
        drop(s);
        // Closed, the file is free again (the store's thread lets go as it ends).
        let mut reopened = None;
        for _ in 0..100 {
            match Store::open(&path) {
                Ok(s) => {
                    reopened = Some(s);
                    break;
                }
                Err(StoreError::InUse(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
                Err(e) => panic!("{e}"),
            }
        }
        let rooms = reopened.expect("the file is free once the store closes").load_rooms().await.unwrap();
        assert_eq!(rooms[0].moves.len(), 50);
    }

    #[test]
    fn version_2_snapshots_move_their_chat_to_the_chat_table() {
        let db = TempDb::new("v2chat");
        let path = db.path.clone();
        {
            let mut conn = Connection::open(&path).unwrap();
            migrations().to_version(&mut conn, 2).unwrap();
            conn.execute_batch(
                r#"INSERT INTO rooms (id, game, snapshot) VALUES ('r1', 'buckshot', '{"host":"a","chat":[{"message":"hi"},{"message":"yo"}]}');"#,
            )
            .unwrap();
        }
        let conn = open(&path).unwrap();
        let room = &load_rooms(&conn, None).unwrap()[0];
        assert_eq!(room.chat, [r#"{"message":"hi"}"#, r#"{"message":"yo"}"#]);
        assert_eq!(room.snapshot, r#"{"host":"a"}"#);
    }

    #[test]
    fn version_1_databases_migrate() {
        let db = TempDb::new("v1");
        let path = db.path.clone();
        {
            let mut conn = Connection::open(&path).unwrap();
            migrations().to_version(&mut conn, 1).unwrap();
            conn.execute_batch(
                "INSERT INTO rooms (id, game, snapshot) VALUES ('r1', 'buckshot', '{}');
                 INSERT INTO room_moves (room_id, idx, entry) VALUES ('r1', 1, 'b'), ('r1', 0, 'a');",
            )
            .unwrap();
        }
        let conn = open(&path).unwrap();
        assert_eq!(load_rooms(&conn, None).unwrap()[0].moves, ["a", "b"]);
    }
}
