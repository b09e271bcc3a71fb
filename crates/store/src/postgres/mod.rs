//! The PostgreSQL backend: a pool of connections ([`deadpool_postgres`], which replaces a
//! broken connection by itself: after an outage the next batch simply connects again), a
//! committer task that runs each gathered batch as one transaction with its statements
//! pipelined (`BEGIN`, the batch's moves as one statement of arrays, its other writes,
//! `COMMIT`, sent back to back: one round trip a batch, not one a move), and the ownership
//! fencing every write carries (see the crate docs).
//!
//! A room's moves are keyed by (room, index): a move written again (a write whose commit was
//! refused, then made again) replaces the first. A new match deletes the room's moves in the
//! same transaction that saves its snapshot, so no collection runs later.

mod accounts;
mod cluster;
mod commit;
mod migrations;
mod quickplay;
mod ratings;

use crate::batch::{Cmd, Gather};
use crate::records::{MatchRecord, StoreError, StoredRoom};
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub use cluster::{Listed, Located};
pub use migrations::SCHEMA_VERSION;
pub use quickplay::QueuedTicket;

/// The node name a lone server uses: it owns every room (it claims those of its earlier
/// incarnations at start).
pub const DEFAULT_NODE: &str = "local";

/// The epoch this node holds for each room it owns (claimed at load, or 0 for a room it
/// created); a write carries it, and PostgreSQL refuses the write when the row's has moved.
pub(crate) type Epochs = Arc<Mutex<HashMap<String, i64>>>;

/// A handle to a PostgreSQL store. Clone freely.
#[derive(Clone)]
pub struct PgStore {
    shared: Arc<Shared>,
}

struct Shared {
    pending: Mutex<Vec<Cmd>>,
    tx: mpsc::UnboundedSender<Vec<Cmd>>,
    pool: Pool,
    /// One connection for the heartbeat alone (see `connect_to_version`).
    beat: Pool,
    epochs: Epochs,
    node: String,
    /// How long a statement (or a transaction) may go unanswered; see [`TimeLimit`].
    limit: TimeLimit,
}

/// How long PostgreSQL may leave a statement of ours unanswered before we give up on it and
/// on its connection: [`DEFAULT_TIME_LIMIT`] for a lone server, a node's TTL in a cluster
/// ([`PgStore::set_time_limit`]). It bounds the heartbeat, the claims, the lookups and reads,
/// and the committer's taking of a connection; not a transaction of writes (see `commit`).
///
/// Why: a link that goes silent (a partition, a black-holed route) does not fail, it hangs,
/// and TCP notices after a while. A node whose claim or lookup hung held its heartbeat loop
/// (the claims are taken one at a time), so it never noticed it was cut off and kept serving
/// rooms it could not write. A statement that outlives the limit is answered `Unavailable`
/// and its connection is taken out of the pool, never handed out again. A claim that did
/// commit unseen leaves rooms this node owns but does not run: its next heartbeat lists them,
/// and it claims them again.
#[derive(Clone)]
pub(crate) struct TimeLimit(Arc<AtomicU64>);

/// The lone server's limit on one statement.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

impl TimeLimit {
    fn new(d: Duration) -> TimeLimit {
        TimeLimit(Arc::new(AtomicU64::new(d.as_millis() as u64)))
    }

    pub(crate) fn get(&self) -> Duration {
        Duration::from_millis(self.0.load(Ordering::Relaxed))
    }

    fn set(&self, d: Duration) {
        self.0.store(d.as_millis().max(1) as u64, Ordering::Relaxed);
    }
}

/// The answer to a statement that outlived its [`TimeLimit`].
pub(crate) fn too_slow(limit: Duration) -> StoreError {
    StoreError::Unavailable(format!("PostgreSQL did not answer within {} ms", limit.as_millis()))
}

/// Runs `op` on a connection of `pool`, the whole (the checkout too) within `limit`: past it,
/// the connection is taken out of the pool (it may be stuck behind a silent link; the next
/// caller gets a new one) and the answer is `Unavailable`. See [`TimeLimit`].
pub(crate) async fn within<T>(
    pool: &Pool,
    limit: Duration,
    op: impl AsyncFnOnce(&mut Object) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    Ok(checkout_within(pool, limit, op).await?.1)
}

/// As [`within`], keeping the connection: it is answered with what `op` answered (the
/// committer holds its connection from one batch to the next).
pub(crate) async fn checkout_within<T>(
    pool: &Pool,
    limit: Duration,
    op: impl AsyncFnOnce(&mut Object) -> Result<T, StoreError>,
) -> Result<(Object, T), StoreError> {
    let mut slot: Option<Object> = None;
    let done = tokio::time::timeout(limit, async {
        let client = slot.insert(pool.get().await.map_err(pool_error)?);
        op(client).await
    })
    .await;
    match done {
        // An error first: the checkout itself may have failed (no connection then).
        Ok(answer) => {
            let answer = answer?;
            Ok((slot.take().expect("checked out before `op` answered"), answer))
        }
        Err(_) => {
            if let Some(stuck) = slot.take() {
                drop(Object::take(stuck));
            }
            Err(too_slow(limit))
        }
    }
}

impl Gather for Shared {
    fn pending(&self) -> &Mutex<Vec<Cmd>> {
        &self.pending
    }

    fn hand_over(&self) {
        let batch = std::mem::take(&mut *self.pending.lock().expect("store queue lock"));
        if !batch.is_empty() {
            // Fails only if the committer is gone; the dropped acks then say `Closed`.
            let _ = self.tx.send(batch);
        }
    }
}

/// `url` without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let Some((auth, host)) = rest.split_once('@') else { return url.to_string() };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Whether `e` means the database could not be reached (rather than that a statement was
/// wrong): no SQLSTATE at all (the socket), or a connection (08) or shutdown (57) class.
pub(crate) fn unreachable(e: &tokio_postgres::Error) -> bool {
    e.is_closed() || e.code().is_none_or(|c| c.code().starts_with("08") || c.code().starts_with("57"))
}

pub(crate) fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) if !unreachable(&e) => StoreError::Postgres(e),
        e => StoreError::Unavailable(e.to_string()),
    }
}

fn query_error(e: tokio_postgres::Error) -> StoreError {
    if unreachable(&e) { StoreError::Unavailable(e.to_string()) } else { StoreError::Postgres(e) }
}

fn build_pool(manager: Manager, size: usize) -> Result<Pool, StoreError> {
    Pool::builder(manager)
        .max_size(size)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(Duration::from_secs(5)))
        .create_timeout(Some(Duration::from_secs(5)))
        .recycle_timeout(Some(Duration::from_secs(5)))
        .build()
        .map_err(|e| StoreError::Unavailable(e.to_string()))
}

impl PgStore {
    /// Connects to `url` as node `node`, bringing the schema up to date (or refusing a newer
    /// one), and starts the committer task (on the current tokio runtime).
    pub async fn connect(url: &str, node: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_to_version(url, node, SCHEMA_VERSION).await
    }

    /// As [`PgStore::connect`], migrating no further than `target` (tests of migrations).
    #[doc(hidden)]
    pub async fn connect_to_version(url: &str, node: &str, target: i64) -> Result<PgStore, StoreError> {
        let mut config: tokio_postgres::Config = url.parse()?;
        session_limits(&mut config);
        let manager = Manager::from_config(
            config.clone(),
            tokio_postgres::NoTls,
            ManagerConfig { recycling_method: RecyclingMethod::Fast },
        );
        let pool = build_pool(manager, 4)?;
        // The heartbeat's own connection: a node whose four writers are all busy (a burst of
        // commits, a slow disk) must still beat, or the others would take its rooms for a
        // silence that was only a queue. Made on first use: a lone server never opens it.
        let beat = build_pool(
            Manager::from_config(
                config,
                tokio_postgres::NoTls,
                ManagerConfig { recycling_method: RecyclingMethod::Fast },
            ),
            1,
        )?;
        {
            let mut client = pool.get().await.map_err(|e| match pool_error(e) {
                StoreError::Unavailable(e) => StoreError::Unavailable(format!("{}: {e}", redact(url))),
                e => e,
            })?;
            migrations::migrate(&mut client, &redact(url), target).await?;
        }
        let epochs = Epochs::default();
        let limit = TimeLimit::new(DEFAULT_TIME_LIMIT);
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(commit::committer(pool.clone(), epochs.clone(), node.to_string(), limit.clone(), rx));
        Ok(PgStore {
            shared: Arc::new(Shared {
                pending: Mutex::new(Vec::new()),
                tx,
                pool,
                beat,
                epochs,
                node: node.to_string(),
                limit,
            }),
        })
    }

    /// How long a statement or a transaction may go unanswered (see `TimeLimit`); a node
    /// sets its TTL: a node that cannot write within a TTL may not own its rooms any more.
    pub fn set_time_limit(&self, limit: Duration) {
        self.shared.limit.set(limit);
    }

    /// Where this store's requests of a scheduler tick are gathered (group commit): the
    /// writes go through it (written once, on [`crate::Store`]).
    pub(crate) fn gather(&self) -> &impl Gather {
        &*self.shared
    }

    /// Runs `op` on a connection of the writers' pool within the store's time limit.
    async fn bounded<T>(&self, op: impl AsyncFnOnce(&mut Object) -> Result<T, StoreError>) -> Result<T, StoreError> {
        within(&self.shared.pool, self.shared.limit.get(), op).await
    }

    /// Claims for this node every room it owned or nobody owns (bumping each one's epoch, so
    /// an earlier incarnation of this node can write nothing more), and reads them.
    pub async fn load_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.load(None).await
    }

    pub async fn load_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        Ok(self.load(Some(id)).await?.into_iter().next())
    }

    async fn load(&self, only: Option<&str>) -> Result<Vec<StoredRoom>, StoreError> {
        let node = self.shared.node.as_str();
        // Every room at a start reads every stored move: as long as it takes (a lone server
        // with a large store); one room, within the limit.
        let limit = if only.is_some() { self.shared.limit.get() } else { Duration::MAX };
        self.claim_and_read(
            limit,
            "UPDATE rooms SET owner = $1, epoch = epoch + 1, updated_at = now()
             WHERE (owner = $1 OR owner IS NULL) AND ($2::text IS NULL OR id = $2)
             RETURNING id, game, snapshot, epoch",
            &[&node, &only],
        )
        .await
    }

    /// Runs `claim` (an `UPDATE` of rooms answering `id, game, snapshot, epoch`) and reads the
    /// rooms it claimed (their moves and chat), in one transaction, within `limit`; then holds
    /// their epochs. One that outlives the limit may have committed: the rooms are this node's
    /// on their rows then, but not run, and its next heartbeat claims them again.
    async fn claim_and_read(
        &self,
        limit: Duration,
        claim: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<StoredRoom>, StoreError> {
        within(&self.shared.pool, limit, async |client| self.claim_and_read_on(client, claim, params).await).await
    }

    async fn claim_and_read_on(
        &self,
        client: &mut Object,
        claim: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<StoredRoom>, StoreError> {
        let tx = client.transaction().await.map_err(query_error)?;
        let claimed = tx.query(claim, params).await.map_err(query_error)?;
        let mut rooms: Vec<StoredRoom> = Vec::with_capacity(claimed.len());
        let mut epochs = Vec::with_capacity(claimed.len());
        for r in &claimed {
            rooms.push(StoredRoom::new(r.get(0), r.get(1), r.get(2)));
            epochs.push((r.get::<_, String>(0), r.get::<_, i64>(3)));
        }
        rooms.sort_by(|a, b| a.id.cmp(&b.id));
        let at: HashMap<String, usize> = rooms.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
        let ids: Vec<&str> = rooms.iter().map(|r| r.id.as_str()).collect();
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 1] = [&ids];
        let (chat, moves) = tokio::try_join!(
            tx.query("SELECT room_id, entry FROM chat WHERE room_id = ANY($1) ORDER BY seq", &params),
            tx.query("SELECT room_id, idx, entry FROM moves WHERE room_id = ANY($1) ORDER BY room_id, idx", &params),
        )
        .map_err(query_error)?;
        for r in &chat {
            rooms[at[r.get::<_, &str>(0)]].chat.push(r.get(1));
        }
        rooms.iter_mut().for_each(StoredRoom::keep_last_chat);
        for r in &moves {
            rooms[at[r.get::<_, &str>(0)]].add_move(r.get::<_, i64>(1) as usize, r.get(2));
        }
        tx.commit().await.map_err(query_error)?;
        self.shared.epochs.lock().expect("epochs lock").extend(epochs);
        Ok(rooms)
    }

    pub async fn get_match(&self, id: i64) -> Result<Option<MatchRecord>, StoreError> {
        let row = self
            .bounded(async |client| {
                let row = client
                    .query_opt(
                        "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at
                         FROM matches WHERE id = $1",
                        &[&id],
                    )
                    .await
                    .map_err(query_error)?;
                let mut ms: Vec<MatchRecord> = row.as_ref().map(row_to_match).into_iter().collect();
                accounts::attach_people(client, &mut ms).await?;
                Ok(ms)
            })
            .await?;
        Ok(row.into_iter().next())
    }

    pub async fn list_matches(&self, limit: u32) -> Result<Vec<MatchRecord>, StoreError> {
        let rows = self
            .bounded(async |client| {
                let rows = client
                    .query(
                        "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at
                         FROM matches ORDER BY id DESC LIMIT $1",
                        &[&i64::from(limit)],
                    )
                    .await
                    .map_err(query_error)?;
                let mut ms: Vec<MatchRecord> = rows.iter().map(row_to_match).collect();
                accounts::attach_people(client, &mut ms).await?;
                Ok(ms)
            })
            .await?;
        Ok(rows)
    }
}

fn row_to_match(r: &tokio_postgres::Row) -> MatchRecord {
    MatchRecord {
        id: r.get(0),
        room_id: r.get(1),
        game: r.get(2),
        seed: r.get::<_, i64>(3) as u64,
        config: r.get(4),
        players: r.get(5),
        log: r.get(6),
        result: r.get(7),
        started_at: r.get::<_, i64>(8) as u64,
        ended_at: r.get::<_, i64>(9) as u64,
        people: Vec::new(),
    }
}

/// How long PostgreSQL keeps a session of ours idle inside a transaction before it ends it.
/// Our transactions are pipelined and never wait on anything but the network, so a session
/// idle in one for seconds is a node cut off mid-transaction (a partition, a black-holed
/// link): PostgreSQL would keep its room rows locked `FOR SHARE` until TCP noticed (hours), and
/// the survivors' `FOR UPDATE SKIP LOCKED` claims would skip those rooms for as long. Ending
/// the session within about a TTL (3 s by default) lets them be claimed.
pub const IDLE_IN_TRANSACTION_MS: u32 = 3_000;

/// Adds our session settings to the `options` a URL may already carry, and TCP keepalives and a
/// user timeout so a dead peer is noticed from our side too.
fn session_limits(config: &mut tokio_postgres::Config) {
    let ours = format!("-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}");
    let options = match config.get_options() {
        Some(theirs) if !theirs.is_empty() => format!("{theirs} {ours}"),
        _ => ours,
    };
    config.options(&options);
    // A link that dies is noticed by TCP within seconds, not minutes: an idle connection after
    // 5 s and three unanswered probes a second apart, one with data unacknowledged after 10 s.
    config
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(5))
        .keepalives_interval(Duration::from_secs(1))
        .keepalives_retries(3)
        .tcp_user_timeout(DEFAULT_TIME_LIMIT);
}
