//! The accounts calls on PostgreSQL (see [`crate::accounts`]): each on a pooled connection
//! within the store's time limit, in a transaction of its own where it writes more than one
//! row. Nothing is kept in this process: every node of a cluster reads the same rows.

use super::{PgStore, query_error, row_to_match};
use crate::accounts::{
    Account, GameStats, PasskeyRow, Pruned, SeatPerson, SessionInfo, Taken, deleted_name, session_expired,
    session_touch_due,
};
use crate::records::{MatchRecord, StoreError};
use deadpool_postgres::Transaction;
use tokio_postgres::Row;

/// `?` for PostgreSQL's errors, telling an unreachable database from a refused statement.
pub(super) trait Pg<T> {
    fn pg(self) -> Result<T, StoreError>;
}

impl<T> Pg<T> for Result<T, tokio_postgres::Error> {
    fn pg(self) -> Result<T, StoreError> {
        self.map_err(query_error)
    }
}

pub(super) const ACCOUNT_COLS: &str = "id, name, guest, created_at, renamed, deleted, admin";

pub(super) fn row_to_account(r: &Row) -> Account {
    Account {
        id: r.get(0),
        name: r.get(1),
        guest: r.get(2),
        created_at: r.get::<_, i64>(3) as u64,
        renamed: r.get(4),
        deleted: r.get(5),
        admin: r.get(6),
    }
}

/// Takes `key` for `account` (a live name) unless another account uses it or holds it; an
/// expired hold, or one of `account`'s own, gives way. False: taken. A concurrent transaction
/// taking the same key makes this insert wait for it, then find the key (see the module docs
/// of [`crate::accounts`]).
async fn take_key(tx: &Transaction<'_>, key: &str, account: i64, now: u64) -> Result<bool, StoreError> {
    tx.execute(
        "DELETE FROM name_keys WHERE name_key = $1 AND hold_until IS NOT NULL
         AND (hold_until <= $2 OR account_id = $3)",
        &[&key, &(now as i64), &account],
    )
    .await
    .pg()?;
    let n = tx
        .execute(
            "INSERT INTO name_keys (name_key, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&key, &account],
        )
        .await
        .pg()?;
    Ok(n == 1)
}

async fn hold_key(tx: &Transaction<'_>, key: &str, account: i64, until: u64) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE name_keys SET hold_until = $3 WHERE name_key = $1 AND account_id = $2",
        &[&key, &account, &(until as i64)],
    )
    .await
    .pg()?;
    Ok(())
}

/// Fills each match's people (one query for all of them).
pub(super) async fn attach_people(c: &tokio_postgres::Client, matches: &mut [MatchRecord]) -> Result<(), StoreError> {
    if matches.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = matches.iter().map(|m| m.id).collect();
    let rows = c
        .query(
            "SELECT match_id, seat, account_id, won FROM match_people WHERE match_id = ANY($1) ORDER BY match_id, seat",
            &[&ids],
        )
        .await
        .pg()?;
    for r in &rows {
        let id: i64 = r.get(0);
        if let Some(m) = matches.iter_mut().find(|m| m.id == id) {
            m.people.push(SeatPerson { seat: r.get::<_, i64>(1) as u32, account: r.get(2), won: r.get(3) });
        }
    }
    Ok(())
}

impl PgStore {
    pub async fn create_account(
        &self,
        name: &str,
        key: &str,
        guest: bool,
        password: Option<String>,
        now: u64,
    ) -> Result<Result<Account, Taken>, StoreError> {
        self.bounded(async |client| {
            let tx = client.transaction().await.pg()?;
            // The key first (account 0 for a moment: the row's id is not known yet).
            if !take_key(&tx, key, 0, now).await? {
                return Ok(Err(Taken::Name));
            }
            let row = tx
                .query_one(
                    "INSERT INTO accounts (name, name_key, guest, password, created_at) VALUES ($1, $2, $3, $4, $5)
                     RETURNING id",
                    &[&name, &key, &guest, &password, &(now as i64)],
                )
                .await
                .pg()?;
            let id: i64 = row.get(0);
            tx.execute("UPDATE name_keys SET account_id = $2 WHERE name_key = $1", &[&key, &id]).await.pg()?;
            tx.commit().await.pg()?;
            Ok(Ok(Account {
                id,
                name: name.to_string(),
                guest,
                created_at: now,
                renamed: false,
                deleted: false,
                admin: false,
            }))
        })
        .await
    }

    pub async fn account(&self, id: i64) -> Result<Option<Account>, StoreError> {
        self.bounded(async |client| {
            let row =
                client.query_opt(&format!("SELECT {ACCOUNT_COLS} FROM accounts WHERE id = $1"), &[&id]).await.pg()?;
            Ok(row.as_ref().map(row_to_account))
        })
        .await
    }

    pub async fn account_by_key(&self, key: &str) -> Result<Option<(Account, Option<String>)>, StoreError> {
        self.bounded(async |client| {
            let st = client
                .prepare_cached(&format!(
                    "SELECT {ACCOUNT_COLS}, password FROM accounts WHERE name_key = $1 AND NOT deleted"
                ))
                .await
                .pg()?;
            let row = client.query_opt(&st, &[&key]).await.pg()?;
            Ok(row.map(|r| (row_to_account(&r), r.get(7))))
        })
        .await
    }

    pub async fn accounts_by_ids(&self, ids: &[i64]) -> Result<Vec<Account>, StoreError> {
        let ids = ids.to_vec();
        self.bounded(async |client| {
            let rows = client
                .query(&format!("SELECT {ACCOUNT_COLS} FROM accounts WHERE id = ANY($1) ORDER BY id"), &[&ids])
                .await
                .pg()?;
            Ok(rows.iter().map(row_to_account).collect())
        })
        .await
    }

    pub async fn list_accounts(&self, after: Option<&str>, limit: u32) -> Result<Vec<Account>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    &format!(
                        "SELECT {ACCOUNT_COLS} FROM accounts WHERE NOT deleted AND ($1::text IS NULL OR name > $1)
                         ORDER BY name LIMIT $2"
                    ),
                    &[&after, &i64::from(limit)],
                )
                .await
                .pg()?;
            Ok(rows.iter().map(row_to_account).collect())
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
        self.bounded(async |client| {
            let tx = client.transaction().await.pg()?;
            let Some(row) = tx
                .query_opt("SELECT name_key, guest FROM accounts WHERE id = $1 AND NOT deleted FOR UPDATE", &[&id])
                .await
                .pg()?
            else {
                return Err(StoreError::NoAccount(id));
            };
            let (old_key, guest): (String, bool) = (row.get(0), row.get(1));
            if old_key != key {
                if !take_key(&tx, key, id, now).await? {
                    return Ok(Err(Taken::Name));
                }
                hold_key(&tx, &old_key, id, hold_until).await?;
            }
            // A guest's rename without a password uses its one rename; with one, it becomes a
            // member (who renames under other rules, the caller's).
            let renamed = guest && password.is_none();
            tx.execute(
                "UPDATE accounts SET name = $2, name_key = $3, renamed = renamed OR $4,
                 guest = guest AND $5::text IS NULL, password = coalesce($5, password) WHERE id = $1",
                &[&id, &name, &key, &renamed, &password],
            )
            .await
            .pg()?;
            tx.commit().await.pg()?;
            Ok(Ok(()))
        })
        .await
    }

    pub async fn set_password(&self, id: i64, password: String) -> Result<(), StoreError> {
        self.bounded(async |client| {
            match client
                .execute("UPDATE accounts SET password = $2 WHERE id = $1 AND NOT deleted", &[&id, &password])
                .await
                .pg()?
            {
                0 => Err(StoreError::NoAccount(id)),
                _ => Ok(()),
            }
        })
        .await
    }

    pub async fn delete_account(&self, id: i64, hold_until: u64, _now: u64) -> Result<(), StoreError> {
        self.bounded(async |client| {
            let tx = client.transaction().await.pg()?;
            let Some(row) =
                tx.query_opt("SELECT name_key, deleted FROM accounts WHERE id = $1 FOR UPDATE", &[&id]).await.pg()?
            else {
                return Err(StoreError::NoAccount(id));
            };
            let (key, deleted): (Option<String>, bool) = (row.get(0), row.get(1));
            if deleted {
                return Ok(());
            }
            if let Some(key) = key {
                hold_key(&tx, &key, id, hold_until).await?;
            }
            tx.execute(
                "UPDATE accounts SET name = $2, name_key = NULL, password = NULL, deleted = true WHERE id = $1",
                &[&id, &deleted_name(id)],
            )
            .await
            .pg()?;
            tx.execute("DELETE FROM sessions WHERE account_id = $1", &[&id]).await.pg()?;
            tx.execute("DELETE FROM passkeys WHERE account_id = $1", &[&id]).await.pg()?;
            tx.commit().await.pg()?;
            Ok(())
        })
        .await
    }

    pub async fn set_admin(&self, id: i64, admin: bool) -> Result<(), StoreError> {
        self.bounded(async |client| {
            match client.execute("UPDATE accounts SET admin = $2 WHERE id = $1", &[&id, &admin]).await.pg()? {
                0 => Err(StoreError::NoAccount(id)),
                _ => Ok(()),
            }
        })
        .await
    }

    pub async fn create_session(&self, hash: &str, account: i64, now: u64) -> Result<(), StoreError> {
        self.bounded(async |client| {
            // No error that would quote the hash (PostgreSQL's DETAIL does: see
            // `StoreError::Conflict`).
            let n = client
                .execute(
                    "INSERT INTO sessions (hash, account_id, created_at, seen_at) VALUES ($1, $2, $3, $3)
                     ON CONFLICT DO NOTHING",
                    &[&hash, &account, &(now as i64)],
                )
                .await
                .pg()?;
            if n == 0 { Err(StoreError::Conflict("a session")) } else { Ok(()) }
        })
        .await
    }

    pub async fn session_account(&self, hash: &str, now: u64) -> Result<Option<Account>, StoreError> {
        self.bounded(async |client| {
            let st = client
                .prepare_cached(
                    "SELECT a.id, a.name, a.guest, a.created_at, a.renamed, a.deleted, a.admin, s.seen_at
                     FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.hash = $1",
                )
                .await
                .pg()?;
            let Some(row) = client.query_opt(&st, &[&hash]).await.pg()? else { return Ok(None) };
            let (account, seen_at) = (row_to_account(&row), row.get::<_, i64>(7) as u64);
            if session_expired(seen_at, now) || account.deleted {
                client.execute("DELETE FROM sessions WHERE hash = $1", &[&hash]).await.pg()?;
                return Ok(None);
            }
            if session_touch_due(seen_at, now) {
                // Never backwards (another node's clock may be ahead of ours).
                let st = client
                    .prepare_cached("UPDATE sessions SET seen_at = greatest(seen_at, $2) WHERE hash = $1")
                    .await
                    .pg()?;
                client.execute(&st, &[&hash, &(now as i64)]).await.pg()?;
            }
            Ok(Some(account))
        })
        .await
    }

    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        self.bounded(async |client| {
            client.execute("DELETE FROM sessions WHERE hash = $1", &[&hash]).await.pg()?;
            Ok(())
        })
        .await
    }

    pub async fn delete_sessions(&self, account: i64, keep: Option<&str>) -> Result<u64, StoreError> {
        self.bounded(async |client| {
            client
                .execute(
                    "DELETE FROM sessions WHERE account_id = $1 AND ($2::text IS NULL OR hash <> $2)",
                    &[&account, &keep],
                )
                .await
                .pg()
        })
        .await
    }

    pub async fn sessions(&self, account: i64) -> Result<Vec<SessionInfo>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT created_at, seen_at FROM sessions WHERE account_id = $1 ORDER BY created_at, hash",
                    &[&account],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .map(|r| SessionInfo { created_at: r.get::<_, i64>(0) as u64, seen_at: r.get::<_, i64>(1) as u64 })
                .collect())
        })
        .await
    }

    pub async fn add_passkey(&self, account: i64, cred_id: &str, data: String, now: u64) -> Result<(), StoreError> {
        self.bounded(async |client| {
            client
                .execute(
                    "INSERT INTO passkeys (cred_id, account_id, data, created_at) VALUES ($1, $2, $3, $4)",
                    &[&cred_id, &account, &data, &(now as i64)],
                )
                .await
                .pg()?;
            Ok(())
        })
        .await
    }

    pub async fn passkeys(&self, account: i64) -> Result<Vec<PasskeyRow>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT cred_id, data, created_at FROM passkeys WHERE account_id = $1 ORDER BY created_at, cred_id",
                    &[&account],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .map(|r| PasskeyRow { cred_id: r.get(0), data: r.get(1), created_at: r.get::<_, i64>(2) as u64 })
                .collect())
        })
        .await
    }

    pub async fn passkey(&self, cred_id: &str) -> Result<Option<(i64, String)>, StoreError> {
        self.bounded(async |client| {
            let row =
                client.query_opt("SELECT account_id, data FROM passkeys WHERE cred_id = $1", &[&cred_id]).await.pg()?;
            Ok(row.map(|r| (r.get(0), r.get(1))))
        })
        .await
    }

    pub async fn update_passkey(&self, cred_id: &str, data: String) -> Result<(), StoreError> {
        self.bounded(async |client| {
            client.execute("UPDATE passkeys SET data = $2 WHERE cred_id = $1", &[&cred_id, &data]).await.pg()?;
            Ok(())
        })
        .await
    }

    pub async fn put_challenge(&self, id: &str, data: String, expires: u64) -> Result<(), StoreError> {
        self.bounded(async |client| {
            client
                .execute(
                    "INSERT INTO challenges (id, data, expires) VALUES ($1, $2, $3)
                     ON CONFLICT (id) DO UPDATE SET data = excluded.data, expires = excluded.expires",
                    &[&id, &data, &(expires as i64)],
                )
                .await
                .pg()?;
            Ok(())
        })
        .await
    }

    pub async fn take_challenge(&self, id: &str, now: u64) -> Result<Option<String>, StoreError> {
        self.bounded(async |client| {
            // Taken once: of two nodes deleting it at once, one gets the row.
            let row =
                client.query_opt("DELETE FROM challenges WHERE id = $1 RETURNING data, expires", &[&id]).await.pg()?;
            client.execute("DELETE FROM challenges WHERE expires <= $1", &[&(now as i64)]).await.pg()?;
            Ok(row.filter(|r| r.get::<_, i64>(1) as u64 > now).map(|r| r.get(0)))
        })
        .await
    }

    pub async fn account_matches(&self, account: i64, limit: u32) -> Result<Vec<MatchRecord>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT m.id, m.room_id, m.game, m.seed, m.config, m.players, m.log, m.result, m.started_at, m.ended_at
                     FROM matches m JOIN (SELECT DISTINCT match_id FROM match_people WHERE account_id = $1
                         ORDER BY match_id DESC LIMIT $2) p ON p.match_id = m.id
                     ORDER BY m.id DESC",
                    &[&account, &i64::from(limit)],
                )
                .await
                .pg()?;
            let mut ms: Vec<MatchRecord> = rows.iter().map(row_to_match).collect();
            attach_people(client, &mut ms).await?;
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
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at, match_no
                     FROM matches WHERE room_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3",
                    &[&room, &before, &i64::from(limit)],
                )
                .await
                .pg()?;
            let mut ms: Vec<MatchRecord> = rows.iter().map(row_to_match).collect();
            attach_people(client, &mut ms).await?;
            let numbers = rows.iter().map(|r| r.get::<_, Option<i64>>(10).map(|n| n as u64));
            Ok(ms.into_iter().zip(numbers).collect())
        })
        .await
    }

    pub async fn account_stats(&self, account: i64) -> Result<Vec<GameStats>, StoreError> {
        self.bounded(async |client| {
            let rows = client
                .query(
                    "SELECT m.game, count(DISTINCT p.match_id), count(DISTINCT p.match_id) FILTER (WHERE p.won)
                     FROM match_people p JOIN matches m ON m.id = p.match_id
                     WHERE p.account_id = $1 GROUP BY m.game ORDER BY m.game",
                    &[&account],
                )
                .await
                .pg()?;
            Ok(rows
                .iter()
                .map(|r| GameStats {
                    game: r.get(0),
                    played: r.get::<_, i64>(1) as u64,
                    won: r.get::<_, i64>(2) as u64,
                })
                .collect())
        })
        .await
    }

    pub async fn prune_accounts(&self, now: u64) -> Result<Pruned, StoreError> {
        self.bounded(async |client| {
            let tx = client.transaction().await.pg()?;
            let idle_since = now.saturating_sub(crate::accounts::SESSION_MAX_IDLE_MS) as i64;
            let now = now as i64;
            let pruned = Pruned {
                sessions: tx.execute("DELETE FROM sessions WHERE seen_at < $1", &[&idle_since]).await.pg()?,
                holds: tx
                    .execute("DELETE FROM name_keys WHERE hold_until IS NOT NULL AND hold_until <= $1", &[&now])
                    .await
                    .pg()?,
                challenges: tx.execute("DELETE FROM challenges WHERE expires <= $1", &[&now]).await.pg()?,
            };
            tx.commit().await.pg()?;
            Ok(pruned)
        })
        .await
    }
}
