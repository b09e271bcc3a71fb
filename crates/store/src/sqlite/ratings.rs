//! The ratings calls on SQLite (see [`crate::ratings`]): each one a job on the writing
//! connection; rating a match is one transaction.

use super::*;
use crate::ratings::{BoardRow, HistoryPoint, RatedMatch, RatingChange, StoredRating, compute, people};

const RATING_COLS: &str = "account_id, game, r, rd, vol, games, updated";

fn row_to_rating(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRating> {
    Ok(StoredRating {
        account: r.get(0)?,
        game: r.get(1)?,
        r: r.get(2)?,
        rd: r.get(3)?,
        vol: r.get(4)?,
        games: r.get::<_, i64>(5)? as u64,
        updated: r.get::<_, i64>(6)? as u64,
    })
}

fn game_ratings_on(conn: &Connection, game: &str, accounts: &[i64]) -> rusqlite::Result<Vec<StoredRating>> {
    let mut st =
        conn.prepare_cached(&format!("SELECT {RATING_COLS} FROM ratings WHERE account_id = ?1 AND game = ?2"))?;
    let mut out = Vec::with_capacity(accounts.len());
    for &a in accounts {
        out.extend(st.query_row(params![a, game], row_to_rating).optional()?);
    }
    Ok(out)
}

/// Writes a match's new ratings and their history rows.
fn write_changes(
    tx: &rusqlite::Transaction<'_>,
    game: &str,
    match_id: i64,
    changes: &[RatingChange],
    now: u64,
) -> rusqlite::Result<()> {
    let mut up = tx.prepare_cached(
        "INSERT INTO ratings (account_id, game, r, rd, vol, games, updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (account_id, game) DO UPDATE SET r = excluded.r, rd = excluded.rd, vol = excluded.vol,
         games = excluded.games, updated = excluded.updated",
    )?;
    let mut hist = tx.prepare_cached(
        "INSERT INTO rating_history (account_id, game, match_id, r, rd, left_match, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for c in changes {
        let a = c.after;
        up.execute(params![c.account, game, a.r, a.rd, a.vol, c.games as i64, now as i64])?;
        hist.execute(params![c.account, game, match_id, a.r, a.rd, c.left, now as i64])?;
    }
    Ok(())
}

impl SqliteStore {
    pub async fn ratings(&self, account: i64) -> Result<Vec<StoredRating>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(&format!("SELECT {RATING_COLS} FROM ratings WHERE account_id = ?1 ORDER BY game"))?
                .query_map([account], row_to_rating)?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn game_ratings(&self, game: &str, accounts: &[i64]) -> Result<Vec<StoredRating>, StoreError> {
        let (game, accounts) = (game.to_string(), accounts.to_vec());
        self.with_conn(move |conn| Ok(game_ratings_on(conn, &game, &accounts)?)).await
    }

    pub async fn rate_match(
        &self,
        match_id: i64,
        m: RatedMatch,
        now: u64,
    ) -> Result<Option<Vec<RatingChange>>, StoreError> {
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            let done: Option<i64> = tx
                .query_row("SELECT 1 FROM rating_history WHERE match_id = ?1 LIMIT 1", [match_id], |r| r.get(0))
                .optional()?;
            if done.is_some() {
                return Ok(None);
            }
            let current = game_ratings_on(&tx, &m.game, &people(&m))?;
            let changes = compute(&m, &current, now);
            write_changes(&tx, &m.game, match_id, &changes, now)?;
            tx.commit()?;
            Ok(Some(changes))
        })
        .await
    }

    pub async fn leaderboard(&self, game: &str, limit: u32, min_games: u64) -> Result<Vec<BoardRow>, StoreError> {
        let game = game.to_string();
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT r.account_id, a.name, a.guest, r.r, r.rd, r.games FROM ratings r
                     JOIN accounts a ON a.id = r.account_id
                     WHERE r.game = ?1 AND r.rd <= ?2 AND r.games >= ?3 AND a.deleted = 0
                     ORDER BY r.r DESC, r.account_id LIMIT ?4",
                )?
                .query_map(params![game, rating::PROVISIONAL_RD, min_games as i64, limit], |r| {
                    Ok(BoardRow {
                        account: r.get(0)?,
                        name: r.get(1)?,
                        guest: r.get(2)?,
                        r: r.get(3)?,
                        rd: r.get(4)?,
                        games: r.get::<_, i64>(5)? as u64,
                    })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn rating_history(&self, account: i64, game: &str, limit: u32) -> Result<Vec<HistoryPoint>, StoreError> {
        let game = game.to_string();
        self.with_conn(move |conn| {
            let mut points: Vec<HistoryPoint> = conn
                .prepare_cached(
                    "SELECT game, match_id, r, rd, left_match, at FROM rating_history
                     WHERE account_id = ?1 AND game = ?2 ORDER BY at DESC, match_id DESC LIMIT ?3",
                )?
                .query_map(params![account, game, limit], |r| {
                    Ok(HistoryPoint {
                        game: r.get(0)?,
                        match_id: r.get(1)?,
                        r: r.get(2)?,
                        rd: r.get(3)?,
                        left: r.get(4)?,
                        at: r.get::<_, i64>(5)? as u64,
                    })
                })?
                .collect::<Result<_, _>>()?;
            points.reverse();
            Ok(points)
        })
        .await
    }

    /// The account's leaves of rated matches at or after `since` (ms), and the latest one's time.
    pub async fn leaves_since(&self, account: i64, since: u64) -> Result<(u32, u64), StoreError> {
        self.with_conn(move |conn| {
            Ok(conn.query_row(
                "SELECT count(*), coalesce(max(at), 0) FROM rating_history
                 WHERE account_id = ?1 AND left_match AND at >= ?2",
                params![account, since as i64],
                |r| Ok((r.get::<_, i64>(0)? as u32, r.get::<_, i64>(1)? as u64)),
            )?)
        })
        .await
    }
}
