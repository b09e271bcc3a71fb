//! Opening a database file and bringing its schema up to date.

use super::*;

pub(crate) fn migrations() -> Migrations<'static> {
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
        // v4: a room's owner and ownership epoch, as on PostgreSQL (one owner here: never
        // checked, kept so both schemas say the same).
        M::up(
            "ALTER TABLE rooms ADD COLUMN owner TEXT;
        ALTER TABLE rooms ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;",
        ),
        // v5: the ids of closed rooms, never drawn again (a finished match's replay is keyed
        // on its room's id), as on PostgreSQL.
        M::up(
            "CREATE TABLE retired_ids (
            id TEXT PRIMARY KEY,
            retired_at INTEGER NOT NULL
        ) WITHOUT ROWID;",
        ),
        // v6: a finished match is recorded once per (room, match number): a server that
        // restores a room whose match was recorded just before a kill -9 (the room not back in
        // the lobby yet) records it again under the same number, which replaces the first.
        // Rows from before have no number (NULL: never a conflict). As on PostgreSQL.
        M::up(
            "ALTER TABLE matches ADD COLUMN match_no INTEGER;
        CREATE UNIQUE INDEX matches_room_match ON matches (room_id, match_no);",
        ),
        // v7: people (issue 42): accounts, the name keys in use or held (one table, its
        // primary key the key: see `crate::accounts`), sessions (the hash of the id only),
        // passkeys, ceremony challenges, and the accounts that played each finished match.
        // Times in ms. As on PostgreSQL.
        M::up(
            "CREATE TABLE accounts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            name_key TEXT UNIQUE,
            guest INTEGER NOT NULL,
            password TEXT,
            created_at INTEGER NOT NULL,
            renamed INTEGER NOT NULL DEFAULT 0,
            deleted INTEGER NOT NULL DEFAULT 0,
            admin INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX accounts_name ON accounts (name) WHERE deleted = 0;
        CREATE TABLE name_keys (
            name_key TEXT PRIMARY KEY,
            account_id INTEGER NOT NULL,
            hold_until INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE sessions (
            hash TEXT PRIMARY KEY,
            account_id INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            seen_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX sessions_account ON sessions (account_id);
        CREATE TABLE passkeys (
            cred_id TEXT PRIMARY KEY,
            account_id INTEGER NOT NULL,
            data TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX passkeys_account ON passkeys (account_id);
        CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            data TEXT NOT NULL,
            expires INTEGER NOT NULL
        );
        CREATE INDEX challenges_expires ON challenges (expires);
        CREATE TABLE match_people (
            match_id INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            account_id INTEGER NOT NULL,
            won INTEGER NOT NULL,
            PRIMARY KEY (match_id, seat)
        ) WITHOUT ROWID;
        CREATE INDEX match_people_account ON match_people (account_id, match_id);",
        ),
        // Ratings (issue 43): each identity's Glicko-2 rating per game, and its history, one
        // row per rated match (whether the person left it counts their leaves).
        M::up(
            "CREATE TABLE ratings (
            account_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            r REAL NOT NULL,
            rd REAL NOT NULL,
            vol REAL NOT NULL,
            games INTEGER NOT NULL,
            updated INTEGER NOT NULL,
            PRIMARY KEY (account_id, game)
        ) WITHOUT ROWID;
        CREATE INDEX ratings_board ON ratings (game, r);
        CREATE TABLE rating_history (
            account_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            match_id INTEGER NOT NULL,
            r REAL NOT NULL,
            rd REAL NOT NULL,
            left_match INTEGER NOT NULL,
            at INTEGER NOT NULL,
            PRIMARY KEY (match_id, account_id)
        ) WITHOUT ROWID;
        CREATE INDEX rating_history_account ON rating_history (account_id, game, at);",
        ),
        // 9: nothing on SQLite: a lone server's quick-play queue lives in memory (PostgreSQL
        // keeps a cluster's in `quickplay_queue`); numbered so that one change is one number
        // on both.
        M::up("SELECT 1;"),
        // v10: moderation (issue 44; see `crate::moderation`): bans (one a person; `until`
        // NULL for good), players' reports with the room's chat and last match then, the
        // append-only moderation log (triggers refuse changing or deleting a row), and the
        // closes of rooms asked for until the room's owner takes them. Times in ms. As on
        // PostgreSQL.
        M::up(
            "CREATE TABLE bans (
            account_id INTEGER PRIMARY KEY,
            until INTEGER,
            reason TEXT NOT NULL,
            by_admin INTEGER,
            at INTEGER NOT NULL
        );
        CREATE TABLE reports (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            reporter INTEGER NOT NULL,
            target INTEGER NOT NULL,
            room_id TEXT NOT NULL,
            match_id INTEGER,
            kind TEXT NOT NULL CHECK (kind IN ('chat', 'cheating', 'leaving')),
            line TEXT,
            chat TEXT NOT NULL,
            at INTEGER NOT NULL,
            resolved INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX reports_open ON reports (resolved, id);
        CREATE TABLE moderation_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            admin INTEGER,
            action TEXT NOT NULL,
            target TEXT NOT NULL,
            reason TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        CREATE TRIGGER moderation_log_no_update BEFORE UPDATE ON moderation_log
            BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;
        CREATE TRIGGER moderation_log_no_delete BEFORE DELETE ON moderation_log
            BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;
        CREATE TABLE room_closes (
            room_id TEXT PRIMARY KEY,
            message TEXT NOT NULL,
            at INTEGER NOT NULL
        ) WITHOUT ROWID;",
        ),
    ])
}

/// The schema version this binary brings a database to (the number of migrations).
pub const SCHEMA_VERSION: i64 = 10;

pub(crate) fn open(path: &Path) -> Result<Connection, StoreError> {
    open_with(path, false)
}

/// Opens the database; `exclusive`: this connection takes the file for as long as it is open
/// (no file locks per transaction — seven `fcntl` calls of every commit — and the WAL index
/// in memory), and another process opening it gets [`StoreError::InUse`].
pub(crate) fn open_with(path: &Path, exclusive: bool) -> Result<Connection, StoreError> {
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
    // Newer than this binary: refused before anything is written, and told why.
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(in_use)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew { db: path.display().to_string(), found, known: SCHEMA_VERSION });
    }
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

pub(crate) fn is_memory(path: &Path) -> bool {
    path.as_os_str() == ":memory:"
}
