//! The accounts calls on SQLite (see [`crate::accounts`]): each one a [`Job::Run`] closure on
//! the writing connection, in a transaction of its own where it writes.

use super::*;
use crate::accounts::{
    Account, GameStats, PasskeyRow, Pruned, SeatPerson, SessionInfo, Taken, deleted_name, people_by_seat,
    session_expired, session_touch_due,
};
use rusqlite::Transaction;

const ACCOUNT_COLS: &str = "id, name, guest, created_at, renamed, deleted, admin";

fn row_to_account(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        guest: r.get(2)?,
        created_at: r.get::<_, i64>(3)? as u64,
        renamed: r.get(4)?,
        deleted: r.get(5)?,
        admin: r.get(6)?,
    })
}

pub(super) fn account_on(conn: &Connection, id: i64) -> rusqlite::Result<Option<Account>> {
    conn.prepare_cached(&format!("SELECT {ACCOUNT_COLS} FROM accounts WHERE id = ?1"))?
        .query_row([id], row_to_account)
        .optional()
}

/// Takes `key` for `account` (a live name) unless another account uses it or holds it; an
/// expired hold, or one of `account`'s own, gives way. False: taken.
fn take_key(tx: &Transaction<'_>, key: &str, account: i64, now: u64) -> rusqlite::Result<bool> {
    tx.prepare_cached(
        "DELETE FROM name_keys WHERE name_key = ?1 AND hold_until IS NOT NULL
         AND (hold_until <= ?2 OR account_id = ?3)",
    )?
    .execute(params![key, now as i64, account])?;
    let n = tx
        .prepare_cached("INSERT INTO name_keys (name_key, account_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING")?
        .execute(params![key, account])?;
    Ok(n == 1)
}

/// Makes `key`, held by `account`, a hold until `until`.
fn hold_key(tx: &Transaction<'_>, key: &str, account: i64, until: u64) -> rusqlite::Result<()> {
    tx.prepare_cached("UPDATE name_keys SET hold_until = ?3 WHERE name_key = ?1 AND account_id = ?2")?
        .execute(params![key, account, until as i64])?;
    Ok(())
}

/// Stores a finished match's people (replacing those a record of it had before), inside the
/// batch's transaction.
pub(crate) fn store_people(conn: &Connection, match_id: i64, people: &[SeatPerson]) -> rusqlite::Result<()> {
    conn.prepare_cached("DELETE FROM match_people WHERE match_id = ?1")?.execute([match_id])?;
    if people.is_empty() {
        return Ok(());
    }
    let mut st =
        conn.prepare_cached("INSERT INTO match_people (match_id, seat, account_id, won) VALUES (?1, ?2, ?3, ?4)")?;
    for p in people_by_seat(people) {
        st.execute(params![match_id, p.seat, p.account, p.won])?;
    }
    Ok(())
}

/// Fills each match's people.
pub(crate) fn attach_people(conn: &Connection, matches: &mut [MatchRecord]) -> Result<(), StoreError> {
    let mut st =
        conn.prepare_cached("SELECT seat, account_id, won FROM match_people WHERE match_id = ?1 ORDER BY seat")?;
    for m in matches {
        m.people = st
            .query_map([m.id], |r| Ok(SeatPerson { seat: r.get(0)?, account: r.get(1)?, won: r.get(2)? }))?
            .collect::<Result<_, _>>()?;
    }
    Ok(())
}

impl SqliteStore {
    /// Runs `f` on the store's writing connection, on the store thread, after the batches
    /// handed over before it (a generic way for calls off the move path, rather than a
    /// [`Cmd`] each). `f` makes its own transaction if it writes.
    pub(crate) async fn with_conn<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job = Job::Run(Box::new(move |conn: &mut Connection| {
            let _ = tx.send(f(conn));
        }));
        self.shared.tx.send(job).map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    pub async fn create_account(
        &self,
        name: &str,
        key: &str,
        guest: bool,
        password: Option<String>,
        now: u64,
    ) -> Result<Result<Account, Taken>, StoreError> {
        let (name, key) = (name.to_string(), key.to_string());
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            // The key first (account 0 for a moment: the row's id is not known yet).
            if !take_key(&tx, &key, 0, now)? {
                return Ok(Err(Taken::Name));
            }
            let id: i64 = tx.query_row(
                "INSERT INTO accounts (name, name_key, guest, password, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
                 RETURNING id",
                params![name, key, guest, password, now as i64],
                |r| r.get(0),
            )?;
            tx.execute("UPDATE name_keys SET account_id = ?2 WHERE name_key = ?1", params![key, id])?;
            tx.commit()?;
            Ok(Ok(Account { id, name, guest, created_at: now, renamed: false, deleted: false, admin: false }))
        })
        .await
    }

    pub async fn account(&self, id: i64) -> Result<Option<Account>, StoreError> {
        self.with_conn(move |conn| Ok(account_on(conn, id)?)).await
    }

    pub async fn account_by_key(&self, key: &str) -> Result<Option<(Account, Option<String>)>, StoreError> {
        let key = key.to_string();
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {ACCOUNT_COLS}, password FROM accounts WHERE name_key = ?1 AND deleted = 0"
                ))?
                .query_row([key], |r| Ok((row_to_account(r)?, r.get(7)?)))
                .optional()?)
        })
        .await
    }

    pub async fn accounts_by_ids(&self, ids: &[i64]) -> Result<Vec<Account>, StoreError> {
        let ids = ids.to_vec();
        self.with_conn(move |conn| {
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                out.extend(account_on(conn, id)?);
            }
            out.sort_by_key(|a| a.id);
            out.dedup_by_key(|a| a.id);
            Ok(out)
        })
        .await
    }

    pub async fn list_accounts(&self, after: Option<&str>, limit: u32) -> Result<Vec<Account>, StoreError> {
        let after = after.map(str::to_string);
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {ACCOUNT_COLS} FROM accounts WHERE deleted = 0 AND (?1 IS NULL OR name > ?1)
                     ORDER BY name LIMIT ?2"
                ))?
                .query_map(params![after, limit], row_to_account)?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn rename_account(
        &self,
        id: i64,
        name: &str,
        key: &str,
        password: Option<String>,
        hold_until: u64,
        now: u64,
    ) -> Result<Result<(), Taken>, StoreError> {
        let (name, key) = (name.to_string(), key.to_string());
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            let Some((old_key, guest)) = tx
                .query_row("SELECT name_key, guest FROM accounts WHERE id = ?1 AND deleted = 0", [id], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?))
                })
                .optional()?
            else {
                return Err(StoreError::NoAccount(id));
            };
            if old_key != key {
                if !take_key(&tx, &key, id, now)? {
                    return Ok(Err(Taken::Name));
                }
                hold_key(&tx, &old_key, id, hold_until)?;
            }
            // A guest's rename without a password uses its one rename; with one, it becomes a
            // member (who renames under other rules, the caller's).
            let renamed = guest && password.is_none();
            tx.execute(
                "UPDATE accounts SET name = ?2, name_key = ?3, renamed = renamed OR ?4,
                 guest = guest AND ?5 IS NULL, password = coalesce(?5, password) WHERE id = ?1",
                params![id, name, key, renamed, password],
            )?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await
    }

    pub async fn set_password(&self, id: i64, password: String) -> Result<(), StoreError> {
        self.with_conn(move |conn| {
            match conn
                .execute("UPDATE accounts SET password = ?2 WHERE id = ?1 AND deleted = 0", params![id, password])?
            {
                0 => Err(StoreError::NoAccount(id)),
                _ => Ok(()),
            }
        })
        .await
    }

    pub async fn delete_account(&self, id: i64, hold_until: u64, _now: u64) -> Result<(), StoreError> {
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            let Some((key, deleted)) = tx
                .query_row("SELECT name_key, deleted FROM accounts WHERE id = ?1", [id], |r| {
                    Ok((r.get::<_, Option<String>>(0)?, r.get::<_, bool>(1)?))
                })
                .optional()?
            else {
                return Err(StoreError::NoAccount(id));
            };
            if deleted {
                return Ok(());
            }
            if let Some(key) = key {
                hold_key(&tx, &key, id, hold_until)?;
            }
            tx.execute(
                "UPDATE accounts SET name = ?2, name_key = NULL, password = NULL, deleted = 1 WHERE id = ?1",
                params![id, deleted_name(id)],
            )?;
            tx.execute("DELETE FROM sessions WHERE account_id = ?1", [id])?;
            tx.execute("DELETE FROM passkeys WHERE account_id = ?1", [id])?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    pub async fn set_admin(&self, id: i64, admin: bool) -> Result<(), StoreError> {
        self.with_conn(move |conn| {
            match conn.execute("UPDATE accounts SET admin = ?2 WHERE id = ?1", params![id, admin])? {
                0 => Err(StoreError::NoAccount(id)),
                _ => Ok(()),
            }
        })
        .await
    }

    pub async fn create_session(&self, hash: &str, account: i64, now: u64) -> Result<(), StoreError> {
        let hash = hash.to_string();
        self.with_conn(move |conn| {
            // No error that would quote the hash (see `StoreError::Conflict`).
            let n = conn
                .prepare_cached(
                    "INSERT INTO sessions (hash, account_id, created_at, seen_at) VALUES (?1, ?2, ?3, ?3)
                     ON CONFLICT DO NOTHING",
                )?
                .execute(params![hash, account, now as i64])?;
            if n == 0 { Err(StoreError::Conflict("a session")) } else { Ok(()) }
        })
        .await
    }

    pub async fn session_account(&self, hash: &str, now: u64) -> Result<Option<Account>, StoreError> {
        let hash = hash.to_string();
        self.with_conn(move |conn| {
            let found = conn
                .prepare_cached(
                    "SELECT a.id, a.name, a.guest, a.created_at, a.renamed, a.deleted, a.admin, s.seen_at
                     FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.hash = ?1",
                )?
                .query_row([&hash], |r| Ok((row_to_account(r)?, r.get::<_, i64>(7)? as u64)))
                .optional()?;
            let Some((account, seen_at)) = found else { return Ok(None) };
            if session_expired(seen_at, now) || account.deleted {
                conn.prepare_cached("DELETE FROM sessions WHERE hash = ?1")?.execute([&hash])?;
                return Ok(None);
            }
            if session_touch_due(seen_at, now) {
                conn.prepare_cached("UPDATE sessions SET seen_at = max(seen_at, ?2) WHERE hash = ?1")?
                    .execute(params![hash, now as i64])?;
            }
            Ok(Some(account))
        })
        .await
    }

    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        let hash = hash.to_string();
        self.with_conn(move |conn| {
            conn.prepare_cached("DELETE FROM sessions WHERE hash = ?1")?.execute([hash])?;
            Ok(())
        })
        .await
    }

    pub async fn delete_sessions(&self, account: i64, keep: Option<&str>) -> Result<u64, StoreError> {
        let keep = keep.map(str::to_string);
        self.with_conn(move |conn| {
            let n = conn.execute(
                "DELETE FROM sessions WHERE account_id = ?1 AND (?2 IS NULL OR hash <> ?2)",
                params![account, keep],
            )?;
            Ok(n as u64)
        })
        .await
    }

    pub async fn sessions(&self, account: i64) -> Result<Vec<SessionInfo>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT created_at, seen_at FROM sessions WHERE account_id = ?1 ORDER BY created_at, hash",
                )?
                .query_map([account], |r| {
                    Ok(SessionInfo { created_at: r.get::<_, i64>(0)? as u64, seen_at: r.get::<_, i64>(1)? as u64 })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn add_passkey(&self, account: i64, cred_id: &str, data: String, now: u64) -> Result<(), StoreError> {
        let cred_id = cred_id.to_string();
        self.with_conn(move |conn| {
            conn.execute(
                "INSERT INTO passkeys (cred_id, account_id, data, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![cred_id, account, data, now as i64],
            )?;
            Ok(())
        })
        .await
    }

    pub async fn passkeys(&self, account: i64) -> Result<Vec<PasskeyRow>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT cred_id, data, created_at FROM passkeys WHERE account_id = ?1 ORDER BY created_at, cred_id",
                )?
                .query_map([account], |r| {
                    Ok(PasskeyRow { cred_id: r.get(0)?, data: r.get(1)?, created_at: r.get::<_, i64>(2)? as u64 })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn passkey(&self, cred_id: &str) -> Result<Option<(i64, String)>, StoreError> {
        let cred_id = cred_id.to_string();
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached("SELECT account_id, data FROM passkeys WHERE cred_id = ?1")?
                .query_row([cred_id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?)
        })
        .await
    }

    pub async fn update_passkey(&self, cred_id: &str, data: String) -> Result<(), StoreError> {
        let cred_id = cred_id.to_string();
        self.with_conn(move |conn| {
            conn.execute("UPDATE passkeys SET data = ?2 WHERE cred_id = ?1", params![cred_id, data])?;
            Ok(())
        })
        .await
    }

    pub async fn put_challenge(&self, id: &str, data: String, expires: u64) -> Result<(), StoreError> {
        let id = id.to_string();
        self.with_conn(move |conn| {
            conn.prepare_cached(
                "INSERT INTO challenges (id, data, expires) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET data = excluded.data, expires = excluded.expires",
            )?
            .execute(params![id, data, expires as i64])?;
            Ok(())
        })
        .await
    }

    pub async fn take_challenge(&self, id: &str, now: u64) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            let found = tx
                .prepare_cached("DELETE FROM challenges WHERE id = ?1 RETURNING data, expires")?
                .query_row([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64)))
                .optional()?;
            tx.prepare_cached("DELETE FROM challenges WHERE expires <= ?1")?.execute([now as i64])?;
            tx.commit()?;
            Ok(found.filter(|&(_, expires)| expires > now).map(|(data, _)| data))
        })
        .await
    }

    pub async fn account_matches(&self, account: i64, limit: u32) -> Result<Vec<MatchRecord>, StoreError> {
        self.with_conn(move |conn| {
            let mut ms = conn
                .prepare_cached(
                    "SELECT m.id, m.room_id, m.game, m.seed, m.config, m.players, m.log, m.result, m.started_at, m.ended_at
                     FROM matches m JOIN (SELECT DISTINCT match_id FROM match_people WHERE account_id = ?1
                         ORDER BY match_id DESC LIMIT ?2) p ON p.match_id = m.id
                     ORDER BY m.id DESC",
                )?
                .query_map(params![account, limit], row_to_match)?
                .collect::<Result<Vec<_>, _>>()?;
            attach_people(conn, &mut ms)?;
            Ok(ms)
        })
        .await
    }

    pub async fn room_matches(
        &self,
        room: &str,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<(MatchRecord, Option<u64>)>, StoreError> {
        let room = room.to_string();
        self.with_conn(move |conn| {
            let rows: Vec<(MatchRecord, Option<u64>)> = conn
                .prepare_cached(
                    "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at, match_no
                     FROM matches WHERE room_id = ?1 AND (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3",
                )?
                .query_map(params![room, before, limit], |r| {
                    Ok((row_to_match(r)?, r.get::<_, Option<i64>>(10)?.map(|n| n as u64)))
                })?
                .collect::<Result<_, _>>()?;
            let (mut ms, numbers): (Vec<MatchRecord>, Vec<Option<u64>>) = rows.into_iter().unzip();
            attach_people(conn, &mut ms)?;
            Ok(ms.into_iter().zip(numbers).collect())
        })
        .await
    }

    pub async fn account_stats(&self, account: i64) -> Result<Vec<GameStats>, StoreError> {
        self.with_conn(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT m.game, count(DISTINCT p.match_id), count(DISTINCT CASE WHEN p.won THEN p.match_id END)
                     FROM match_people p JOIN matches m ON m.id = p.match_id
                     WHERE p.account_id = ?1 GROUP BY m.game ORDER BY m.game",
                )?
                .query_map([account], |r| {
                    Ok(GameStats {
                        game: r.get(0)?,
                        played: r.get::<_, i64>(1)? as u64,
                        won: r.get::<_, i64>(2)? as u64,
                    })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn prune_accounts(&self, now: u64) -> Result<Pruned, StoreError> {
        self.with_conn(move |conn| {
            let tx = conn.transaction()?;
            let idle_since = now.saturating_sub(crate::accounts::SESSION_MAX_IDLE_MS) as i64;
            let pruned = Pruned {
                sessions: tx.execute("DELETE FROM sessions WHERE seen_at < ?1", [idle_since])? as u64,
                holds: tx
                    .execute("DELETE FROM name_keys WHERE hold_until IS NOT NULL AND hold_until <= ?1", [now as i64])?
                    as u64,
                challenges: tx.execute("DELETE FROM challenges WHERE expires <= ?1", [now as i64])? as u64,
            };
            tx.commit()?;
            Ok(pruned)
        })
        .await
    }
}
