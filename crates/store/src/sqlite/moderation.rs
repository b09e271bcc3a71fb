//! The moderation calls on SQLite (see [`crate::moderation`]): each one a job on the writing
//! connection, as the accounts' calls are.

use super::*;
use crate::accounts::Account;
use crate::moderation::{Ban, LogEntry, NewReport, Report, RoomClose, RoomEvidence, RoomRow};

fn row_to_ban(r: &rusqlite::Row<'_>) -> rusqlite::Result<Ban> {
    Ok(Ban {
        account: r.get(0)?,
        until: r.get::<_, Option<i64>>(1)?.map(|u| u as u64),
        reason: r.get(2)?,
        by: r.get(3)?,
        at: r.get::<_, i64>(4)? as u64,
    })
}

fn row_to_report(r: &rusqlite::Row<'_>) -> rusqlite::Result<Report> {
    Ok(Report {
        id: r.get(0)?,
        report: NewReport {
            reporter: r.get(1)?,
            target: r.get(2)?,
            room: r.get(3)?,
            match_id: r.get(4)?,
            kind: r.get(5)?,
            line: r.get(6)?,
            chat: r.get(7)?,
            at: r.get::<_, i64>(8)? as u64,
        },
        resolved: r.get(9)?,
    })
}

const BAN_COLS: &str = "account_id, until, reason, by_admin, at";
const REPORT_COLS: &str = "id, reporter, target, room_id, match_id, kind, line, chat, at, resolved";

impl SqliteStore {
    pub async fn ban(&self, ban: Ban) -> Result<(), StoreError> {
        self.with_conn(move |conn| {
            conn.execute(
                "INSERT INTO bans (account_id, until, reason, by_admin, at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (account_id) DO UPDATE SET until = excluded.until, reason = excluded.reason,
                 by_admin = excluded.by_admin, at = excluded.at",
                params![ban.account, ban.until.map(|u| u as i64), ban.reason, ban.by, ban.at as i64],
            )?;
            Ok(())
        })
        .await
    }

    pub async fn unban(&self, account: i64) -> Result<bool, StoreError> {
        self.with_conn(move |conn| Ok(conn.execute("DELETE FROM bans WHERE account_id = ?1", [account])? > 0)).await
    }

    pub async fn ban_of(&self, account: i64) -> Result<Option<Ban>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(&format!("SELECT {BAN_COLS} FROM bans WHERE account_id = ?1"))?
                .query_row([account], row_to_ban)
                .optional()?)
        })
        .await
    }

    pub async fn bans(&self, now: u64) -> Result<Vec<Ban>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {BAN_COLS} FROM bans WHERE until IS NULL OR until > ?1 ORDER BY at DESC, account_id"
                ))?
                .query_map([now as i64], row_to_ban)?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn file_report(&self, r: NewReport) -> Result<i64, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn.query_row(
                "INSERT INTO reports (reporter, target, room_id, match_id, kind, line, chat, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
                params![r.reporter, r.target, r.room, r.match_id, r.kind, r.line, r.chat, r.at as i64],
                |row| row.get(0),
            )?)
        })
        .await
    }

    pub async fn reports(&self, open: bool, limit: u32) -> Result<Vec<Report>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {REPORT_COLS} FROM reports WHERE NOT (?1 AND resolved) ORDER BY id DESC LIMIT ?2"
                ))?
                .query_map(params![open, limit], row_to_report)?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn resolve_report(&self, id: i64) -> Result<bool, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn.execute("UPDATE reports SET resolved = 1 WHERE id = ?1 AND resolved = 0", [id])? > 0)
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
        let (action, target, reason) = (action.to_string(), target.to_string(), reason.to_string());
        self.with_conn(move |conn| {
            Ok(conn.query_row(
                "INSERT INTO moderation_log (admin, action, target, reason, at) VALUES (?1, ?2, ?3, ?4, ?5)
                 RETURNING id",
                params![admin, action, target, reason, at as i64],
                |r| r.get(0),
            )?)
        })
        .await
    }

    pub async fn moderation_log(&self, before: Option<i64>, limit: u32) -> Result<Vec<LogEntry>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT id, admin, action, target, reason, at FROM moderation_log
                     WHERE ?1 IS NULL OR id < ?1 ORDER BY id DESC LIMIT ?2",
                )?
                .query_map(params![before, limit], |r| {
                    Ok(LogEntry {
                        id: r.get(0)?,
                        admin: r.get(1)?,
                        action: r.get(2)?,
                        target: r.get(3)?,
                        reason: r.get(4)?,
                        at: r.get::<_, i64>(5)? as u64,
                    })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn request_close(&self, c: RoomClose) -> Result<(), StoreError> {
        self.with_conn(move |conn| {
            conn.execute(
                "INSERT INTO room_closes (room_id, message, at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (room_id) DO UPDATE SET message = excluded.message, at = excluded.at",
                params![c.room, c.message, c.at as i64],
            )?;
            Ok(())
        })
        .await
    }

    pub async fn take_closes(&self) -> Result<Vec<RoomClose>, StoreError> {
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            let closes = tx
                .prepare_cached(
                    "DELETE FROM room_closes RETURNING room_id, message, at,
                     EXISTS (SELECT 1 FROM rooms WHERE rooms.id = room_closes.room_id)",
                )?
                .query_map([], |r| {
                    Ok((
                        RoomClose { room: r.get(0)?, message: r.get(1)?, at: r.get::<_, i64>(2)? as u64 },
                        r.get::<_, bool>(3)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            tx.commit()?;
            Ok(closes.into_iter().filter(|(_, exists)| *exists).map(|(c, _)| c).collect())
        })
        .await
    }

    pub async fn room_evidence(&self, id: &str) -> Result<Option<RoomEvidence>, StoreError> {
        let id = id.to_string();
        self.with_conn(move |conn| {
            let Some((game, snapshot)) = conn
                .prepare_cached("SELECT game, snapshot FROM rooms WHERE id = ?1")?
                .query_row([&id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
                .optional()?
            else {
                return Ok(None);
            };
            let chat = conn
                .prepare_cached("SELECT entry FROM chat WHERE room_id = ?1 ORDER BY seq")?
                .query_map([&id], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            let last_match = conn
                .prepare_cached("SELECT max(id) FROM matches WHERE room_id = ?1")?
                .query_row([&id], |r| r.get(0))?;
            Ok(Some(RoomEvidence { game, snapshot, chat, last_match }))
        })
        .await
    }

    pub async fn room_rows(&self, limit: u32) -> Result<Vec<RoomRow>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached("SELECT id, game, owner, snapshot FROM rooms ORDER BY id LIMIT ?1")?
                .query_map([limit], |r| {
                    Ok(RoomRow { id: r.get(0)?, game: r.get(1)?, owner: r.get(2)?, listing: None, snapshot: r.get(3)? })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn search_accounts(&self, query: &str, limit: u32) -> Result<Vec<Account>, StoreError> {
        let query = query.to_string();
        self.with_conn(move |conn| {
            let ids = conn
                .prepare_cached(
                    "SELECT id FROM accounts WHERE deleted = 0 AND instr(lower(name), lower(?1)) > 0 ORDER BY name LIMIT ?2",
                )?
                .query_map(params![query, limit], |r| r.get::<_, i64>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                out.extend(super::accounts::account_on(conn, id)?);
            }
            Ok(out)
        })
        .await
    }
}
