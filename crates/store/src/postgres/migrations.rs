//! The PostgreSQL schema, in numbered steps applied in order at start and recorded in
//! `schema_versions` (one row a step).

use crate::records::StoreError;
use tokio_postgres::Client;

/// The migrations, in order: step `n` is `MIGRATIONS[n - 1]`. Append only; never edit one
/// that has shipped.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: rooms with their owner and ownership epoch, moves, chat, finished matches, and the
    // nodes of a cluster (their heartbeats, from the database's clock).
    "CREATE TABLE nodes (
        id TEXT PRIMARY KEY,
        incarnation BIGINT NOT NULL DEFAULT 0,
        heartbeat TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        owner TEXT,
        epoch BIGINT NOT NULL DEFAULT 0,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE INDEX rooms_owner ON rooms (owner);
    CREATE TABLE moves (
        room_id TEXT NOT NULL,
        idx BIGINT NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (room_id, idx)
    );
    CREATE TABLE chat (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        room_id TEXT NOT NULL,
        entry TEXT NOT NULL
    );
    CREATE INDEX chat_room ON chat (room_id, seq);
    CREATE TABLE matches (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        room_id TEXT NOT NULL,
        game TEXT NOT NULL,
        seed BIGINT NOT NULL,
        config TEXT NOT NULL,
        players TEXT NOT NULL,
        log TEXT NOT NULL,
        result TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        ended_at BIGINT NOT NULL
    );",
    // 2: the cluster (issue 25): where a node is reached (its `--advertise` path), what the
    // lobby lists about each room (on its row, so every node lists every room from one
    // place), and the ids of closed rooms (never drawn again: a finished match's replay is
    // keyed on its room's id).
    "ALTER TABLE nodes ADD COLUMN advertise TEXT NOT NULL DEFAULT '';
    ALTER TABLE rooms ADD COLUMN listing TEXT;
    CREATE TABLE retired_ids (
        id TEXT PRIMARY KEY,
        retired_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );",
    // 3-5: not used on PostgreSQL (SQLite's schema reached 5 first); numbered alike from 6 on
    // so one change is one number on both.
    "",
    "",
    "",
    // 6: a finished match is recorded once per (room, match number): a node that restores a
    // room whose last owner recorded its match and stopped before it went back to the lobby
    // records it again under the same number, which replaces the first (the writes are
    // fenced, so the later record is the room's legitimate owner's). Rows from before have no
    // number (NULL: never a conflict).
    "ALTER TABLE matches ADD COLUMN match_no BIGINT;
    CREATE UNIQUE INDEX matches_room_match ON matches (room_id, match_no);",
    // 7: people (issue 42): accounts, the name keys in use or held (one table whose primary
    // key is the key: concurrent creates of one key cannot both commit; see
    // `crate::accounts`), sessions (the hash of the id only), passkeys, ceremony challenges
    // (shared by a cluster's nodes), and the accounts that played each finished match. Times
    // in ms. Names sort bytewise (COLLATE "C"), as on SQLite.
    "CREATE TABLE accounts (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL COLLATE \"C\",
        name_key TEXT UNIQUE,
        guest BOOLEAN NOT NULL,
        password TEXT,
        created_at BIGINT NOT NULL,
        renamed BOOLEAN NOT NULL DEFAULT false,
        deleted BOOLEAN NOT NULL DEFAULT false,
        admin BOOLEAN NOT NULL DEFAULT false
    );
    CREATE INDEX accounts_name ON accounts (name) WHERE NOT deleted;
    CREATE TABLE name_keys (
        name_key TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        hold_until BIGINT
    );
    CREATE TABLE sessions (
        hash TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        seen_at BIGINT NOT NULL
    );
    CREATE INDEX sessions_account ON sessions (account_id);
    CREATE TABLE passkeys (
        cred_id TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX passkeys_account ON passkeys (account_id);
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        expires BIGINT NOT NULL
    );
    CREATE INDEX challenges_expires ON challenges (expires);
    CREATE TABLE match_people (
        match_id BIGINT NOT NULL,
        seat BIGINT NOT NULL,
        account_id BIGINT NOT NULL,
        won BOOLEAN NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_people_account ON match_people (account_id, match_id);",
    // Ratings (issue 43): each identity's Glicko-2 rating per game, and its history, one row
    // per rated match (whether the person left it counts their leaves).
    "CREATE TABLE ratings (
        account_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        r DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        vol DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        PRIMARY KEY (account_id, game)
    );
    CREATE INDEX ratings_board ON ratings (game, r);
    CREATE TABLE rating_history (
        account_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        match_id BIGINT NOT NULL,
        r DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        left_match BOOLEAN NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (match_id, account_id)
    );
    CREATE INDEX rating_history_account ON rating_history (account_id, game, at);",
    // 9: quick play's queue (issue 43), shared by a cluster's nodes: one row a ticket (a person
    // or a party), matched by whichever node claims it (`FOR UPDATE SKIP LOCKED`, then a lease
    // in `claimed_by`/`claimed_at`), then the room it was seated at. Watchers touch `seen_at`;
    // a ticket nobody watches leaves the queue.
    "CREATE TABLE quickplay_queue (
        ticket TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        players INT NOT NULL,
        people TEXT NOT NULL,
        accounts BIGINT[] NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        enqueued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        claimed_by TEXT,
        claimed_at TIMESTAMPTZ,
        room TEXT,
        node TEXT,
        path TEXT,
        bots TEXT
    );
    CREATE INDEX quickplay_waiting ON quickplay_queue (enqueued_at) WHERE room IS NULL;",
    // 10: moderation (issue 44; see `crate::moderation`): bans (one a person; `until` NULL for
    // good), players' reports with the room's chat and last match then, the append-only
    // moderation log (a trigger refuses UPDATE, DELETE and TRUNCATE of it), and the closes of
    // rooms asked for until the room's owning node takes them (its heartbeat). Times in ms.
    "CREATE TABLE bans (
        account_id BIGINT PRIMARY KEY,
        until BIGINT,
        reason TEXT NOT NULL,
        by_admin BIGINT,
        at BIGINT NOT NULL
    );
    CREATE TABLE reports (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        reporter BIGINT NOT NULL,
        target BIGINT NOT NULL,
        room_id TEXT NOT NULL,
        match_id BIGINT,
        kind TEXT NOT NULL CHECK (kind IN ('chat', 'cheating', 'leaving')),
        line TEXT,
        chat TEXT NOT NULL,
        at BIGINT NOT NULL,
        resolved BOOLEAN NOT NULL DEFAULT false
    );
    CREATE INDEX reports_open ON reports (resolved, id);
    CREATE TABLE moderation_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        admin BIGINT,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL,
        at BIGINT NOT NULL
    );
    CREATE FUNCTION moderation_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the moderation log is append-only';
    END $$;
    CREATE TRIGGER moderation_log_no_change BEFORE UPDATE OR DELETE ON moderation_log
        FOR EACH ROW EXECUTE FUNCTION moderation_log_append_only();
    CREATE TRIGGER moderation_log_no_truncate BEFORE TRUNCATE ON moderation_log
        FOR EACH STATEMENT EXECUTE FUNCTION moderation_log_append_only();
    CREATE TABLE room_closes (
        room_id TEXT PRIMARY KEY,
        message TEXT NOT NULL,
        at BIGINT NOT NULL
    );",
];

/// The schema version this binary brings a database to.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// An arbitrary key for the advisory lock that serializes migrations (two servers starting
/// at once migrate one after the other).
const MIGRATION_LOCK: i64 = 0x6361_7264_7462_6c65;

/// Brings the schema to [`SCHEMA_VERSION`] (up to `target` in tests), in one transaction;
/// refuses a database that is ahead of this binary.
pub(crate) async fn migrate(client: &mut Client, db: &str, target: i64) -> Result<i64, StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_versions (
            version BIGINT PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )",
    )
    .await?;
    let found: i64 = tx.query_one("SELECT coalesce(max(version), 0) FROM schema_versions", &[]).await?.get(0);
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew { db: db.to_string(), found, known: SCHEMA_VERSION });
    }
    for version in found + 1..=target.min(SCHEMA_VERSION) {
        tx.batch_execute(MIGRATIONS[version as usize - 1]).await?;
        tx.execute("INSERT INTO schema_versions (version) VALUES ($1)", &[&version]).await?;
    }
    tx.commit().await?;
    Ok(found)
}
