//! The ratings calls on PostgreSQL (see [`crate::ratings`]): each on a pooled connection within
//! the store's time limit; rating a match is one transaction that locks its people's rows.

use super::PgStore;
use super::accounts::Pg;
use crate::ratings::{BoardRow, HistoryPoint, RatedMatch, RatingChange, StoredRating, compute, people};
use crate::records::StoreError;
use deadpool_postgres::Transaction;
use tokio_postgres::Row;

const RATING_COLS: &str = "account_id, game, r, rd, vol, games, updated";

fn row_to_rating(r: &Row) -> StoredRating {
    StoredRating {
        account: r.get(0),
        game: r.get(1),
        r: r.get(2),
        rd: r.get(3),
        vol: r.get(4),
        games: r.get::<_, i64>(5) as u64,
        updated: r.get::<_, i64>(6) as u64,
    }
}

/// Locks the rating rows of `accounts` (sorted) in `game`, making a newcomer's first (at
/// `Rating::NEW`, no games: `compute` reads it as a newcomer), and reads them. Two matches
/// ending at once with a person in common take the rows in the same order: the second waits.
async fn lock_ratings(
    tx: &Transaction<'_>,
    game: &str,
    accounts: &[i64],
    now: u64,
) -> Result<Vec<StoredRating>, StoreError> {
    let new = rating::Rating::NEW;
    tx.execute(
        "INSERT INTO ratings (account_id, game, r, rd, vol, games, updated)
         SELECT a, $2::text, $3::float8, $4::float8, $5::float8, 0, $6::bigint FROM unnest($1::bigint[]) AS a
         ORDER BY a
         ON CONFLICT (account_id, game) DO NOTHING",
        &[&accounts, &game, &new.r, &new.rd, &new.vol, &(now as i64)],
    )
    .await
    .pg()?;
    let rows = tx
        .query(
            &format!(
                "SELECT {RATING_COLS} FROM ratings WHERE account_id = ANY($1) AND game = $2
                 ORDER BY account_id FOR UPDATE"
            ),
            &[&accounts, &game],
        )
        .await
        .pg()?;
    Ok(rows.iter().map(row_to_rating).collect())
}

async fn write_changes(
    tx: &Transaction<'_>,
    game: &str,
    match_id: i64,
    changes: &[RatingChange],
    now: u64,
) -> Result<(), StoreError> {
    let now = now as i64;
    for c in changes {
        let a = c.after;
        tx.execute(
            "UPDATE ratings SET r = $3, rd = $4, vol = $5, games = $6, updated = $7
             WHERE account_id = $1 AND game = $2",
            &[&c.account, &game, &a.r, &a.rd, &a.vol, &(c.games as i64), &now],
        )
        .await
        .pg()?;
        tx.execute(
            "INSERT INTO rating_history (account_id, game, match_id, r, rd, left_match, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[&c.account, &game, &match_id, &a.r, &a.rd, &c.left, &now],
        )
        .await
        .pg()?;
    }
    Ok(())
}

impl PgStore {
    pub async fn ratings(&self, account: i64) -> Result<Vec<StoredRating>, StoreError> {
        self.bounded(async |client| {
            let sql = format!("SELECT {RATING_COLS} FROM ratings WHERE account_id = $1 AND games > 0 ORDER BY game");
            Ok(client.query(&sql, &[&account]).await.pg()?.iter().map(row_to_rating).collect())
        })
        .await
    }

    pub async fn game_ratings(&self, game: &str, accounts: &[i64]) -> Result<Vec<StoredRating>, StoreError> {
        let accounts = accounts.to_vec();
        self.bounded(async |client| {
            let sql = format!(
                "SELECT {RATING_COLS} FROM ratings WHERE account_id = ANY($1) AND game = $2 AND games > 0
                 ORDER BY account_id"
            );
            Ok(client.query(&sql, &[&accounts, &game]).await.pg()?.iter().map(row_to_rating).collect())
        })
        .await
    }

    pub async fn rate_match(
        &self,
        match_id: i64,
        m: RatedMatch,
        now: u64,
    ) -> Result<Option<Vec<RatingChange>>, StoreError> {
        self.bounded(async |client| {
            let tx = client.transaction().await.pg()?;
            // The rows first: a second transaction rating the same match (another node ending
            // it too) waits here, and then finds its history below.
            let current = lock_ratings(&tx, &m.game, &people(&m), now).await?;
            let done =
                tx.query_opt("SELECT 1 FROM rating_history WHERE match_id = $1 LIMIT 1", &[&match_id]).await.pg()?;
            if done.is_some() {
                return Ok(None);
            }
            let changes = compute(&m, &current, now);
            write_changes(&tx, &m.game, match_id, &changes, now).await?;
            tx.commit().await.pg()?;
            Ok(Some(changes))
        })
        .await
    }

    pub async fn leaderboard(&self, game: &str, limit: u32, min_games: u64) -> Result<Vec<BoardRow>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT r.account_id, a.name, a.guest, r.r, r.rd, r.games FROM ratings r
                     JOIN accounts a ON a.id = r.account_id
                     WHERE r.game = $1 AND r.rd <= $2 AND r.games >= $3 AND NOT a.deleted
                     ORDER BY r.r DESC, r.account_id LIMIT $4",
                    &[&game, &rating::PROVISIONAL_RD, &(min_games as i64), &i64::from(limit)],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .map(|r| BoardRow {
                    account: r.get(0),
                    name: r.get(1),
                    guest: r.get(2),
                    r: r.get(3),
                    rd: r.get(4),
                    games: r.get::<_, i64>(5) as u64,
                })
                .collect())
        })
        .await
    }

    pub async fn rating_history(&self, account: i64, game: &str, limit: u32) -> Result<Vec<HistoryPoint>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT game, match_id, r, rd, left_match, at FROM rating_history
                     WHERE account_id = $1 AND game = $2 ORDER BY at DESC, match_id DESC LIMIT $3",
                    &[&account, &game, &i64::from(limit)],
                )
                .await
                .pg()?;
            let mut points: Vec<HistoryPoint> = rows
                .iter()
                .map(|r| HistoryPoint {
                    game: r.get(0),
                    match_id: r.get(1),
                    r: r.get(2),
                    rd: r.get(3),
                    left: r.get(4),
                    at: r.get::<_, i64>(5) as u64,
                })
                .collect();
            points.reverse();
            Ok(points)
        })
        .await
    }

    /// The account's leaves of rated matches at or after `since` (ms), and the latest one's time.
    pub async fn leaves_since(&self, account: i64, since: u64) -> Result<(u32, u64), StoreError> {
        self.bounded(async |client| {
            let row = client
                .query_one(
                    "SELECT count(*), coalesce(max(at), 0) FROM rating_history
                     WHERE account_id = $1 AND left_match AND at >= $2",
                    &[&account, &(since as i64)],
                )
                .await
                .pg()?;
            Ok((row.get::<_, i64>(0) as u32, row.get::<_, i64>(1) as u64))
        })
        .await
    }
}
