//! Several servers on one PostgreSQL (issue 25): a node's registration and heartbeat, the
//! claim of orphaned rooms, the hand-over at a drain, and where a room lives now.
//!
//! Freshness is PostgreSQL's `now()`, never a node's clock: a node is alive while its
//! `nodes.heartbeat` is younger than the TTL the caller passes. Ownership is the room row's
//! `(owner, epoch)`; every claim bumps the epoch, so the writes of the node that held it
//! before (whose epoch they carry) match nothing from then on (see the crate docs).

use super::{PgStore, pool_error, query_error, within};
use crate::records::{StoreError, StoredRoom};
use std::collections::HashMap;
use std::time::Duration;

/// Where a room lives, as the database says now.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// Its owner, `None` while nobody owns it (drained, not claimed yet).
    pub owner: Option<String>,
    /// The owner's `--advertise` path (`""` when it has none, or no owner).
    pub advertise: String,
    /// The owner's heartbeat is younger than the TTL asked about.
    pub live: bool,
    pub game: String,
    /// What the lobby lists about it (JSON), if its owner wrote it.
    pub listing: Option<String>,
}

/// A room as the cluster's lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub id: String,
    pub game: String,
    pub owner: Option<String>,
    pub advertise: String,
    pub listing: Option<String>,
}

/// The SQL for the `application_name` of node `node`'s heartbeat connection at incarnation
/// `incarnation` (two SQL expressions), in this database and schema: `ct-beat:` and an MD5
/// (names are cut at 63 bytes; several test schemas share one server). A node's lookups judge
/// another node gone as soon as no session of that name is open (`pg_stat_activity`): a node
/// killed (`kill -9`, a crash) closes its connections with its process, and PostgreSQL drops
/// their sessions at once, long before its heartbeat grows older than the TTL.
fn beat_name(node: &str, incarnation: &str) -> String {
    format!(
        "'ct-beat:' || md5(current_database() || '/' || current_schema() || '/' || {node} || '/' || {incarnation}::text)"
    )
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

impl PgStore {
    /// Takes every connection of the writers' pool that is free (the committer keeps its own
    /// between batches) and holds them until the answer is dropped (a test of the heartbeat's
    /// own connection).
    #[doc(hidden)]
    pub async fn hold_writers(&self) -> Result<Vec<deadpool_postgres::Object>, StoreError> {
        let quick = deadpool_postgres::Timeouts {
            wait: Some(Duration::from_millis(300)),
            create: Some(Duration::from_secs(5)),
            recycle: Some(Duration::from_secs(5)),
        };
        let mut held = vec![self.shared.pool.get().await.map_err(pool_error)?];
        while held.len() < self.shared.pool.status().max_size {
            match self.shared.pool.timeout_get(&quick).await {
                Ok(c) => held.push(c),
                Err(_) => break,
            }
        }
        Ok(held)
    }

    /// The node this store writes as.
    pub fn node(&self) -> &str {
        &self.shared.node
    }

    /// Registers this node (reached at `advertise`) with a new incarnation, one above its last
    /// (1 for a new node), and a fresh heartbeat; answers the incarnation.
    pub async fn register(&self, advertise: &str) -> Result<i64, StoreError> {
        let row = self
            .bounded(async |client| {
                client
                    .query_one(
                        "INSERT INTO nodes (id, incarnation, heartbeat, advertise) VALUES ($1, 1, now(), $2)
                         ON CONFLICT (id) DO UPDATE SET incarnation = nodes.incarnation + 1, heartbeat = now(),
                         advertise = excluded.advertise
                         RETURNING incarnation",
                        &[&self.shared.node, &advertise],
                    )
                    .await
                    .map_err(query_error)
            })
            .await?;
        Ok(row.get(0))
    }

    /// One round trip: refreshes this node's heartbeat (if `incarnation` is still its latest)
    /// and answers every room it owns with the epoch on its row; `None` if a newer incarnation
    /// of this node registered since (this process must stop).
    /// It has a connection of its own, so it is not queued behind the node's writes; unanswered
    /// within `limit` (the node's TTL), it is `Unavailable` and that connection is replaced.
    pub async fn heartbeat(
        &self,
        incarnation: i64,
        limit: Duration,
    ) -> Result<Option<HashMap<String, i64>>, StoreError> {
        // The same round trip names the heartbeat's connection after this incarnation (see
        // `beat_name`): while it is open, PostgreSQL lists it, and the other nodes' lookups
        // see this node alive; killed, its connection closes and they see it gone at once.
        let rows = within(&self.shared.beat, limit, async |client| {
            client
                .query(
                    format!(
                        "WITH hb AS (UPDATE nodes SET heartbeat = now() WHERE id = $1 AND incarnation = $2 RETURNING id),
                         named AS (SELECT set_config('application_name', {BEAT_NAME}, false))
                         SELECT NULL::text, 0::bigint FROM hb, named
                         UNION ALL SELECT id, epoch FROM rooms WHERE owner = $1",
                        BEAT_NAME = beat_name("$1::text", "$2::bigint")
                    )
                    .as_str(),
                    &[&self.shared.node, &incarnation],
                )
                .await
                .map_err(query_error)
        })
        .await?;
        let mut alive = false;
        let mut owned = HashMap::with_capacity(rows.len());
        for r in &rows {
            match r.get::<_, Option<String>>(0) {
                None => alive = true,
                Some(id) => {
                    owned.insert(id, r.get::<_, i64>(1));
                }
            }
        }
        Ok(alive.then_some(owned))
    }

    /// Claims at most `limit` rooms whose owner is gone (none, or its heartbeat older than
    /// `ttl`), or only room `only` if it is such a room, and reads them. Rooms another node is
    /// claiming at the same moment are skipped (`FOR UPDATE SKIP LOCKED`), so the orphans of a
    /// dead node spread over the survivors.
    pub async fn claim_orphans(
        &self,
        ttl: Duration,
        limit: i64,
        only: Option<&str>,
    ) -> Result<Vec<StoredRoom>, StoreError> {
        let node = self.shared.node.as_str();
        let ttl_ms = millis(ttl);
        self.claim_and_read(
            self.shared.limit.get(),
            "UPDATE rooms SET owner = $1, epoch = epoch + 1, updated_at = now()
             WHERE id IN (
                SELECT r.id FROM rooms r LEFT JOIN nodes n ON n.id = r.owner
                WHERE r.owner IS DISTINCT FROM $1
                  AND (r.owner IS NULL OR n.id IS NULL
                       OR n.heartbeat < now() - make_interval(secs => $2::float8 / 1000))
                  AND ($4::text IS NULL OR r.id = $4)
                LIMIT $3
                FOR UPDATE OF r SKIP LOCKED)
             RETURNING id, game, snapshot, epoch",
            &[&node, &ttl_ms, &limit, &only],
        )
        .await
    }

    /// Claims again rooms this node owns on their rows but does not run (it let them go while
    /// it could not reach the database, and nobody took them): a new epoch, and their state.
    pub async fn reclaim_own(&self, ids: &[String]) -> Result<Vec<StoredRoom>, StoreError> {
        let node = self.shared.node.as_str();
        self.claim_and_read(
            self.shared.limit.get(),
            "UPDATE rooms SET epoch = epoch + 1, updated_at = now()
             WHERE owner = $1 AND id = ANY($2)
             RETURNING id, game, snapshot, epoch",
            &[&node, &ids],
        )
        .await
    }

    /// Hands every room of this node over (a drain): no owner, a new epoch (so nothing more
    /// of this node's is written for them), for any node to claim at once. Answers how many.
    pub async fn release_all(&self) -> Result<u64, StoreError> {
        let n = self
            .bounded(async |client| {
                client
                    .execute(
                        "UPDATE rooms SET owner = NULL, epoch = epoch + 1, updated_at = now() WHERE owner = $1",
                        &[&self.shared.node],
                    )
                    .await
                    .map_err(query_error)
            })
            .await?;
        self.shared.epochs.lock().expect("epochs lock").clear();
        Ok(n)
    }

    /// Where room `id` lives now (`None`: no such room), its owner judged alive: its heartbeat
    /// younger than `ttl`, and its heartbeat's connection open (see `beat_name`: a node
    /// killed is gone at once, not a TTL later).
    pub async fn locate(&self, id: &str, ttl: Duration) -> Result<Option<Located>, StoreError> {
        let row = self
            .bounded(async |client| {
                client
                    .query_opt(
                        format!(
                            "SELECT r.owner, coalesce(n.advertise, ''),
                                coalesce(n.heartbeat >= now() - make_interval(secs => $2::float8 / 1000), false)
                                AND EXISTS (SELECT 1 FROM pg_stat_activity a
                                            WHERE a.datname = current_database() AND a.application_name = {BEAT_NAME}),
                                r.game, r.listing
                             FROM rooms r LEFT JOIN nodes n ON n.id = r.owner WHERE r.id = $1",
                            BEAT_NAME = beat_name("n.id", "n.incarnation")
                        )
                        .as_str(),
                        &[&id, &millis(ttl)],
                    )
                    .await
                    .map_err(query_error)
            })
            .await?;
        Ok(row.map(|r| Located {
            owner: r.get(0),
            advertise: r.get(1),
            live: r.get::<_, Option<String>>(0).is_some() && r.get(2),
            game: r.get(3),
            listing: r.get(4),
        }))
    }

    /// Every room of the cluster, by id, with its owner and listing (the lobby).
    pub async fn listed(&self) -> Result<Vec<Listed>, StoreError> {
        let rows = self
            .bounded(async |client| {
                client
                    .query(
                        "SELECT r.id, r.game, r.owner, coalesce(n.advertise, ''), r.listing
                         FROM rooms r LEFT JOIN nodes n ON n.id = r.owner ORDER BY r.id",
                        &[],
                    )
                    .await
                    .map_err(query_error)
            })
            .await?;
        Ok(rows
            .iter()
            .map(|r| Listed { id: r.get(0), game: r.get(1), owner: r.get(2), advertise: r.get(3), listing: r.get(4) })
            .collect())
    }

    /// Whether `id` names a stored room or a retired one.
    pub async fn id_taken(&self, id: &str) -> Result<bool, StoreError> {
        let row = self
            .bounded(async |client| {
                client
                    .query_one(
                        "SELECT EXISTS (SELECT 1 FROM rooms WHERE id = $1)
                         OR EXISTS (SELECT 1 FROM retired_ids WHERE id = $1)",
                        &[&id],
                    )
                    .await
                    .map_err(query_error)
            })
            .await?;
        Ok(row.get(0))
    }

    /// The epoch this node holds for room `id`, if it holds one.
    pub fn held_epoch(&self, id: &str) -> Option<i64> {
        self.shared.epochs.lock().expect("epochs lock").get(id).copied()
    }

    /// Forgets room `id` (lost to another node): its writes, if any come, carry no epoch.
    pub fn forget(&self, id: &str) {
        self.shared.epochs.lock().expect("epochs lock").remove(id);
    }
}
