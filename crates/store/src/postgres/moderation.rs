//! The moderation calls on PostgreSQL (see [`crate::moderation`]): each on a pooled connection
//! within the store's time limit. Nothing is kept in this process.

use super::PgStore;
use super::accounts::{ACCOUNT_COLS, Pg, row_to_account};
use crate::accounts::Account;
use crate::moderation::{Ban, LogEntry, NewReport, Report, RoomClose, RoomEvidence, RoomRow};
use crate::records::StoreError;
use tokio_postgres::Row;

fn row_to_ban(r: &Row) -> Ban {
    Ban {
        account: r.get(0),
        until: r.get::<_, Option<i64>>(1).map(|u| u as u64),
        reason: r.get(2),
        by: r.get(3),
        at: r.get::<_, i64>(4) as u64,
    }
}

fn row_to_report(r: &Row) -> Report {
    Report {
        id: r.get(0),
        report: NewReport {
            reporter: r.get(1),
            target: r.get(2),
            room: r.get(3),
            match_id: r.get(4),
            kind: r.get(5),
            line: r.get(6),
            chat: r.get(7),
            at: r.get::<_, i64>(8) as u64,
        },
        resolved: r.get(9),
    }
}

const BAN_COLS: &str = "account_id, until, reason, by_admin, at";
const REPORT_COLS: &str = "id, reporter, target, room_id, match_id, kind, line, chat, at, resolved";

impl PgStore {
    pub async fn ban(&self, ban: Ban) -> Result<(), StoreError> {
        self.bounded(async |client| {
            client
                .execute(
                    "INSERT INTO bans (account_id, until, reason, by_admin, at) VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (account_id) DO UPDATE SET until = excluded.until, reason = excluded.reason,
                     by_admin = excluded.by_admin, at = excluded.at",
                    &[&ban.account, &ban.until.map(|u| u as i64), &ban.reason, &ban.by, &(ban.at as i64)],
                )
                .await
                .pg()?;
            Ok(())
        })
        .await
    }

    pub async fn unban(&self, account: i64) -> Result<bool, StoreError> {
        self.bounded(async |client| {
            Ok(client.execute("DELETE FROM bans WHERE account_id = $1", &[&account]).await.pg()? > 0)
        })
        .await
    }

    pub async fn ban_of(&self, account: i64) -> Result<Option<Ban>, StoreError> {
        self.bounded(async |client| {
            let st = client.prepare_cached(&format!("SELECT {BAN_COLS} FROM bans WHERE account_id = $1")).await.pg()?;
            Ok(client.query_opt(&st, &[&account]).await.pg()?.as_ref().map(row_to_ban))
        })
        .await
    }

    pub async fn bans(&self, now: u64) -> Result<Vec<Ban>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    &format!(
                        "SELECT {BAN_COLS} FROM bans WHERE until IS NULL OR until > $1 ORDER BY at DESC, account_id"
                    ),
                    &[&(now as i64)],
                )
                .await
                .pg()?;
            Ok(rows.iter().map(row_to_ban).collect())
        })
        .await
    }

    pub async fn file_report(&self, r: NewReport) -> Result<i64, StoreError> {
        self.bounded(async |client| {
            let row = client
                .query_one(
                    "INSERT INTO reports (reporter, target, room_id, match_id, kind, line, chat, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                    &[&r.reporter, &r.target, &r.room, &r.match_id, &r.kind, &r.line, &r.chat, &(r.at as i64)],
                )
                .await
                .pg()?;
            Ok(row.get(0))
        })
        .await
    }

    pub async fn reports(&self, open: bool, limit: u32) -> Result<Vec<Report>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    &format!("SELECT {REPORT_COLS} FROM reports WHERE NOT ($1 AND resolved) ORDER BY id DESC LIMIT $2"),
                    &[&open, &i64::from(limit)],
                )
                .await
                .pg()?;
            Ok(rows.iter().map(row_to_report).collect())
        })
        .await
    }

    pub async fn resolve_report(&self, id: i64) -> Result<bool, StoreError> {
        self.bounded(async |client| {
            Ok(client
                .execute("UPDATE reports SET resolved = true WHERE id = $1 AND NOT resolved", &[&id])
                .await
                .pg()?
                > 0)
        })
        .await
    }

    pub async fn log_moderation(
        &self,
        admin: Option<i64>,
        action: &str,
        target: &str,
        reason: &str,
        at: u64,
    ) -> Result<i64, StoreError> {
        self.bounded(async |client| {
            let row = client
                .query_one(
                    "INSERT INTO moderation_log (admin, action, target, reason, at) VALUES ($1, $2, $3, $4, $5)
                     RETURNING id",
                    &[&admin, &action, &target, &reason, &(at as i64)],
                )
                .await
                .pg()?;
            Ok(row.get(0))
        })
        .await
    }

    pub async fn moderation_log(&self, before: Option<i64>, limit: u32) -> Result<Vec<LogEntry>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT id, admin, action, target, reason, at FROM moderation_log
                     WHERE $1::bigint IS NULL OR id < $1 ORDER BY id DESC LIMIT $2",
                    &[&before, &i64::from(limit)],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .map(|r| LogEntry {
                    id: r.get(0),
                    admin: r.get(1),
                    action: r.get(2),
                    target: r.get(3),
                    reason: r.get(4),
                    at: r.get::<_, i64>(5) as u64,
                })
                .collect())
        })
        .await
    }

    pub async fn request_close(&self, c: RoomClose) -> Result<(), StoreError> {
        self.bounded(async |client| {
            client
                .execute(
                    "INSERT INTO room_closes (room_id, message, at) VALUES ($1, $2, $3)
                     ON CONFLICT (room_id) DO UPDATE SET message = excluded.message, at = excluded.at",
                    &[&c.room, &c.message, &(c.at as i64)],
                )
                .await
                .pg()?;
            Ok(())
        })
        .await
    }

    /// The closes of the rooms this node owns (and those of rooms gone, dropped).
    pub async fn take_closes(&self) -> Result<Vec<RoomClose>, StoreError> {
        let node = self.shared.node.clone();
        self.bounded(async |client| {
            let rows = client
                .query(
                    "DELETE FROM room_closes c WHERE NOT EXISTS (SELECT 1 FROM rooms r WHERE r.id = c.room_id)
                        OR EXISTS (SELECT 1 FROM rooms r WHERE r.id = c.room_id AND r.owner = $1)
                     RETURNING c.room_id, c.message, c.at,
                        EXISTS (SELECT 1 FROM rooms r WHERE r.id = c.room_id)",
                    &[&node],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .filter(|r| r.get::<_, bool>(3))
                .map(|r| RoomClose { room: r.get(0), message: r.get(1), at: r.get::<_, i64>(2) as u64 })
                .collect())
        })
        .await
    }

    pub async fn room_evidence(&self, id: &str) -> Result<Option<RoomEvidence>, StoreError> {
        self.bounded(async |client| {
            let Some(room) = client.query_opt("SELECT game, snapshot FROM rooms WHERE id = $1", &[&id]).await.pg()?
            else {
                return Ok(None);
            };
            let chat = client.query("SELECT entry FROM chat WHERE room_id = $1 ORDER BY seq", &[&id]).await.pg()?;
            let last = client.query_one("SELECT max(id) FROM matches WHERE room_id = $1", &[&id]).await.pg()?;
            Ok(Some(RoomEvidence {
                game: room.get(0),
                snapshot: room.get(1),
                chat: chat.iter().map(|r| r.get(0)).collect(),
                last_match: last.get(0),
            }))
        })
        .await
    }

    pub async fn room_rows(&self, limit: u32) -> Result<Vec<RoomRow>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT id, game, owner, listing, snapshot FROM rooms ORDER BY id LIMIT $1",
                    &[&i64::from(limit)],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .map(|r| RoomRow {
                    id: r.get(0),
                    game: r.get(1),
                    owner: r.get(2),
                    listing: r.get(3),
                    snapshot: r.get(4),
                })
                .collect())
        })
        .await
    }

    pub async fn search_accounts(&self, query: &str, limit: u32) -> Result<Vec<Account>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    &format!(
                        "SELECT {ACCOUNT_COLS} FROM accounts WHERE NOT deleted AND strpos(lower(name), lower($1)) > 0
                         ORDER BY name LIMIT $2"
                    ),
                    &[&query, &i64::from(limit)],
                )
                .await
                .pg()?;
            Ok(rows.iter().map(row_to_account).collect())
        })
        .await
    }
}
