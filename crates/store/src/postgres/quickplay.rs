//! Quick play's queue on a cluster (issue 43): one row a ticket in `quickplay_queue`, so that
//! people connected to different nodes meet. A node's matcher claims the waiting tickets
//! (`FOR UPDATE SKIP LOCKED`, then a lease of [`LEASE`] in `claimed_by`), plans tables, makes
//! the rooms, and writes each ticket's room; the tickets it did not seat are released for
//! the next tick (any node's). Waiting times are PostgreSQL's clock, as heartbeats are.

use super::{PgStore, query_error};
use crate::records::StoreError;

/// How long a node's claim on waiting tickets holds if it never releases them (it died
/// between claim and release).
pub const LEASE_SECS: f64 = 10.0;

/// A ticket as the queue holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedTicket {
    pub ticket: String,
    pub game: String,
    /// The table size asked for.
    pub players: i32,
    /// The people (JSON, as the server wrote it).
    pub people: String,
    pub accounts: Vec<i64>,
    pub rating: f64,
    /// Milliseconds since it was queued, by PostgreSQL's clock.
    pub waited_ms: f64,
    /// Where it was seated: the room, its node and path, the bots (JSON), once it was.
    pub room: Option<String>,
    pub node: Option<String>,
    pub path: Option<String>,
    pub bots: Option<String>,
}

const COLUMNS: &str = "ticket, game, players, people, accounts, rating,
    extract(epoch FROM now() - enqueued_at)::float8 * 1000, room, node, path, bots";

fn row_ticket(r: &tokio_postgres::Row) -> QueuedTicket {
    QueuedTicket {
        ticket: r.get(0),
        game: r.get(1),
        players: r.get(2),
        people: r.get(3),
        accounts: r.get(4),
        rating: r.get(5),
        waited_ms: r.get(6),
        room: r.get(7),
        node: r.get(8),
        path: r.get(9),
        bots: r.get(10),
    }
}

impl PgStore {
    /// Queues a ticket; the waiting tickets of any of its accounts leave the queue (one
    /// ticket a person at a time). With `seated` (room, path, bots as JSON) the ticket is
    /// stored already seated at that room of this node (a placement game: no matching).
    #[allow(clippy::too_many_arguments)]
    pub async fn quickplay_enqueue(
        &self,
        ticket: &str,
        game: &str,
        players: i32,
        people: &str,
        accounts: &[i64],
        rating: f64,
        seated: Option<(&str, &str, &str)>,
    ) -> Result<(), StoreError> {
        let node = seated.map(|_| self.shared.node.as_str());
        let (room, path, bots) = (seated.map(|s| s.0), seated.map(|s| s.1), seated.map(|s| s.2));
        self.bounded(async |client| {
            let tx = client.transaction().await.map_err(query_error)?;
            tx.execute("DELETE FROM quickplay_queue WHERE room IS NULL AND accounts && $1", &[&accounts])
                .await
                .map_err(query_error)?;
            tx.execute(
                "INSERT INTO quickplay_queue (ticket, game, players, people, accounts, rating, room, node, path, bots)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                &[&ticket, &game, &players, &people, &accounts, &rating, &room, &node, &path, &bots],
            )
            .await
            .map_err(query_error)?;
            tx.commit().await.map_err(query_error)
        })
        .await
    }

    /// A ticket as it stands (`None`: no such ticket, or it left the queue), marked seen.
    pub async fn quickplay_ticket(&self, ticket: &str) -> Result<Option<QueuedTicket>, StoreError> {
        let sql = format!("UPDATE quickplay_queue SET seen_at = now() WHERE ticket = $1 RETURNING {COLUMNS}");
        let row =
            self.bounded(async |client| client.query_opt(sql.as_str(), &[&ticket]).await.map_err(query_error)).await?;
        Ok(row.as_ref().map(row_ticket))
    }

    /// Takes a waiting ticket out of the queue, if `account` is one of its people; `true` if
    /// it was there.
    pub async fn quickplay_cancel(&self, ticket: &str, account: i64) -> Result<bool, StoreError> {
        let n = self
            .bounded(async |client| {
                client
                    .execute(
                        "DELETE FROM quickplay_queue WHERE ticket = $1 AND room IS NULL AND $2 = ANY(accounts)",
                        &[&ticket, &account],
                    )
                    .await
                    .map_err(query_error)
            })
            .await?;
        Ok(n > 0)
    }

    /// Claims every waiting ticket no other node holds (those another node is claiming at
    /// this moment are skipped) for this node, after dropping the tickets nobody watched for
    /// `unwatched_secs` and the seated ones nobody asked about for a minute. The caller seats
    /// some ([`PgStore::quickplay_seat`]) and releases the rest
    /// ([`PgStore::quickplay_release`]).
    pub async fn quickplay_claim(&self, unwatched_secs: f64) -> Result<Vec<QueuedTicket>, StoreError> {
        let node = self.shared.node.as_str();
        let sql = format!(
            "UPDATE quickplay_queue SET claimed_by = $1, claimed_at = now()
             WHERE ticket IN (
                SELECT ticket FROM quickplay_queue
                WHERE room IS NULL
                  AND (claimed_by IS NULL OR claimed_by = $1
                       OR claimed_at < now() - make_interval(secs => $2::float8))
                ORDER BY enqueued_at
                FOR UPDATE SKIP LOCKED)
             RETURNING {COLUMNS}"
        );
        let rows = self
            .bounded(async |client| {
                client
                    .execute(
                        "DELETE FROM quickplay_queue
                         WHERE (room IS NULL AND seen_at < now() - make_interval(secs => $1::float8))
                            OR (room IS NOT NULL AND seen_at < now() - interval '60 seconds')",
                        &[&unwatched_secs],
                    )
                    .await
                    .map_err(query_error)?;
                client.query(sql.as_str(), &[&node, &LEASE_SECS]).await.map_err(query_error)
            })
            .await?;
        Ok(rows.iter().map(row_ticket).collect())
    }

    /// Writes where this node seated `tickets` (claimed by it): room, node, path, bots.
    /// Answers how many it still held (a ticket cancelled meanwhile is gone).
    pub async fn quickplay_seat(
        &self,
        tickets: &[String],
        room: &str,
        path: &str,
        bots: &str,
    ) -> Result<u64, StoreError> {
        let node = self.shared.node.as_str();
        self.bounded(async |client| {
            client
                .execute(
                    "UPDATE quickplay_queue SET room = $2, node = $3, path = $4, bots = $5,
                            claimed_by = NULL, claimed_at = NULL
                     WHERE ticket = ANY($1) AND claimed_by = $3",
                    &[&tickets, &room, &node, &path, &bots],
                )
                .await
                .map_err(query_error)
        })
        .await
    }

    /// Lets go of the waiting tickets this node claimed and did not seat.
    pub async fn quickplay_release(&self) -> Result<(), StoreError> {
        let node = self.shared.node.as_str();
        self.bounded(async |client| {
            client
                .execute(
                    "UPDATE quickplay_queue SET claimed_by = NULL, claimed_at = NULL
                     WHERE claimed_by = $1 AND room IS NULL",
                    &[&node],
                )
                .await
                .map_err(query_error)
                .map(drop)
        })
        .await
    }
}
