//! # Accounts, name holds, sessions, passkeys, ceremony challenges, and a match's people
//!
//! People (issue 42), in both backends alike. None of this is on the move path: these calls do
//! not go through group commit (`batch.rs`); on SQLite each runs as one job on the store's
//! writing connection (the file is held exclusively, so there is no second connection), on
//! PostgreSQL on a pooled connection. Nothing is cached per process: a cluster's nodes share
//! every row (a session made on one node is found by every node).
//!
//! ## Names
//! The caller checks a name and computes its key (the confusable skeleton, `accounts::name_key`);
//! the store keeps keys unique. Every key in use is a row of `name_keys`, whose primary key is
//! the key: a live account's key (no `hold_until`), or a hold (a renamed account's old key, a
//! deleted account's key) until `hold_until`. Creating or renaming inserts the new key there in
//! the same transaction as the account's row, after deleting an expired hold of it, so two
//! creates of one key cannot both succeed, on PostgreSQL either: the second insert waits for
//! the first's transaction and then finds the key (`ON CONFLICT DO NOTHING`: `Taken`), or, if
//! the first rolled back, takes it. No lock and no SERIALIZABLE retry loop is needed.
//! An account's own hold does not stop it taking its old name back.
//!
//! ## Sessions
//! Only the hash of a session id is stored (the caller hashes; see `accounts::hash_session_id`).
//! A session idle for more than [`SESSION_MAX_IDLE_MS`] is expired (and deleted when looked up,
//! or by [`Store::prune_accounts`]); a lookup touches `seen_at` at most once a
//! [`SESSION_TOUCH_MS`]. Nothing here logs a hash or a password.

use crate::records::{MatchRecord, StoreError};
use crate::{Backend, Store};
use serde::{Deserialize, Serialize};

/// A session not used for this long (30 days, in ms) is expired: it no longer signs anyone in.
pub const SESSION_MAX_IDLE_MS: u64 = 30 * 24 * 3600 * 1000;

/// A session's `seen_at` is written at most this often (a minute, in ms): a request a minute
/// costs a write, the others one indexed read.
pub const SESSION_TOUCH_MS: u64 = 60 * 1000;

/// An account (a guest's too). Deleted accounts keep their row (their matches name them) as
/// `deleted == true` and `name == "deleted-<id>"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    pub id: i64,
    pub name: String,
    pub guest: bool,
    /// When it was made (ms since the epoch).
    pub created_at: u64,
    /// A guest's one rename is used.
    pub renamed: bool,
    pub deleted: bool,
    pub admin: bool,
}

/// Why a name was refused: its key is used by an account, or held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    Name,
}

/// One session of an account, as its owner may see it (never its hash).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub created_at: u64,
    pub seen_at: u64,
}

/// A WebAuthn credential of an account: `data` is the serialized credential (JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasskeyRow {
    pub cred_id: String,
    pub data: String,
    pub created_at: u64,
}

/// An account that played a match, at its seat (kept with the match's record).
pub use crate::records::SeatPerson;

/// One game's count of an account's finished matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    pub game: String,
    pub played: u64,
    pub won: u64,
}

/// What [`Store::prune_accounts`] deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub sessions: u64,
    pub holds: u64,
    pub challenges: u64,
}

/// The name a deleted account shows (its row stays; the API shows it as "(deleted)").
pub fn deleted_name(id: i64) -> String {
    format!("deleted-{id}")
}

/// A match's people as stored: one a seat (the last given for a seat wins), by seat.
pub(crate) fn people_by_seat(people: &[SeatPerson]) -> Vec<SeatPerson> {
    let mut out: Vec<SeatPerson> = Vec::with_capacity(people.len());
    for p in people {
        match out.iter_mut().find(|q| q.seat == p.seat) {
            Some(q) => *q = p.clone(),
            None => out.push(p.clone()),
        }
    }
    out.sort_by_key(|p| p.seat);
    out
}

/// Whether a session last seen at `seen_at` is expired at `now`.
pub(crate) fn session_expired(seen_at: u64, now: u64) -> bool {
    now.saturating_sub(seen_at) > SESSION_MAX_IDLE_MS
}

/// Whether a session last seen at `seen_at` should be touched at `now`.
pub(crate) fn session_touch_due(seen_at: u64, now: u64) -> bool {
    now.saturating_sub(seen_at) >= SESSION_TOUCH_MS
}

macro_rules! both {
    ($self:ident, $s:ident => $e:expr) => {
        match &$self.0 {
            Backend::Sqlite($s) => $e,
            Backend::Postgres($s) => $e,
        }
    };
}

impl Store {
    /// Makes an account (a guest without a password) unless its `key` is used or held.
    pub async fn create_account(
        &self,
        name: &str,
        key: &str,
        guest: bool,
        password: Option<String>,
        now: u64,
    ) -> Result<Result<Account, Taken>, StoreError> {
        both!(self, s => s.create_account(name, key, guest, password, now).await)
    }

    /// An account by id (a deleted one too: `deleted` says so).
    pub async fn account(&self, id: i64) -> Result<Option<Account>, StoreError> {
        both!(self, s => s.account(id).await)
    }

    /// The live account whose name has `key`, with its password hash (PHC) if it has one.
    pub async fn account_by_key(&self, key: &str) -> Result<Option<(Account, Option<String>)>, StoreError> {
        both!(self, s => s.account_by_key(key).await)
    }

    /// The accounts of `ids` that exist (deleted ones too), by id.
    pub async fn accounts_by_ids(&self, ids: &[i64]) -> Result<Vec<Account>, StoreError> {
        both!(self, s => s.accounts_by_ids(ids).await)
    }

    /// Live accounts by name (byte order), from after `after`, at most `limit`.
    pub async fn list_accounts(&self, after: Option<&str>, limit: u32) -> Result<Vec<Account>, StoreError> {
        both!(self, s => s.list_accounts(after, limit).await)
    }

    /// Renames (and, with `password`, upgrades a guest to a member: guest = false). The old key is
    /// held until `hold_until` (nobody else may take it); `renamed` becomes true for a guest rename.
    /// A rename to a name of the same key (a change of case) holds nothing.
    /// [`StoreError::NoAccount`] for an unknown or deleted account.
    pub async fn rename_account(
        &self,
        id: i64,
        name: &str,
        key: &str,
        password: Option<String>,
        hold_until: u64,
        now: u64,
    ) -> Result<Result<(), Taken>, StoreError> {
        both!(self, s => s.rename_account(id, name, key, password, hold_until, now).await)
    }

    /// Sets a live account's password hash (PHC). [`StoreError::NoAccount`] if there is none.
    pub async fn set_password(&self, id: i64, password: String) -> Result<(), StoreError> {
        both!(self, s => s.set_password(id, password).await)
    }

    /// Marks deleted: name becomes `deleted-<id>`, key freed into a hold until `hold_until`,
    /// password cleared, every session and passkey removed. Its match rows stay. Deleting a
    /// deleted account again changes nothing.
    pub async fn delete_account(&self, id: i64, hold_until: u64, now: u64) -> Result<(), StoreError> {
        both!(self, s => s.delete_account(id, hold_until, now).await)
    }

    pub async fn set_admin(&self, id: i64, admin: bool) -> Result<(), StoreError> {
        both!(self, s => s.set_admin(id, admin).await)
    }

    /// Stores a session: the SHA-256 hash of its id (never the id), for `account`.
    pub async fn create_session(&self, hash: &str, account: i64, now: u64) -> Result<(), StoreError> {
        both!(self, s => s.create_session(hash, account, now).await)
    }

    /// The session's account (None if unknown, expired past [`SESSION_MAX_IDLE_MS`] since seen,
    /// or the account deleted); touches `seen_at` at most once a [`SESSION_TOUCH_MS`]. One
    /// indexed read (and then a write at most once a minute); an expired session is deleted.
    pub async fn session_account(&self, hash: &str, now: u64) -> Result<Option<Account>, StoreError> {
        both!(self, s => s.session_account(hash, now).await)
    }

    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        both!(self, s => s.delete_session(hash).await)
    }

    /// Deletes every session of `account` but `keep` (a hash) if given; answers how many went.
    pub async fn delete_sessions(&self, account: i64, keep: Option<&str>) -> Result<u64, StoreError> {
        both!(self, s => s.delete_sessions(account, keep).await)
    }

    /// The account's sessions, oldest first (expired ones not yet pruned included).
    pub async fn sessions(&self, account: i64) -> Result<Vec<SessionInfo>, StoreError> {
        both!(self, s => s.sessions(account).await)
    }

    /// Adds a WebAuthn credential (`cred_id` is unique: a second add of it is an error).
    pub async fn add_passkey(&self, account: i64, cred_id: &str, data: String, now: u64) -> Result<(), StoreError> {
        both!(self, s => s.add_passkey(account, cred_id, data, now).await)
    }

    /// The account's passkeys, oldest first.
    pub async fn passkeys(&self, account: i64) -> Result<Vec<PasskeyRow>, StoreError> {
        both!(self, s => s.passkeys(account).await)
    }

    /// The credential `cred_id`: its account and data.
    pub async fn passkey(&self, cred_id: &str) -> Result<Option<(i64, String)>, StoreError> {
        both!(self, s => s.passkey(cred_id).await)
    }

    /// Replaces a credential's data (its signature counter moved).
    pub async fn update_passkey(&self, cred_id: &str, data: String) -> Result<(), StoreError> {
        both!(self, s => s.update_passkey(cred_id, data).await)
    }

    /// Keeps a ceremony's state (a WebAuthn challenge) until `expires` (ms), shared by every
    /// node; the same id again replaces it.
    pub async fn put_challenge(&self, id: &str, data: String, expires: u64) -> Result<(), StoreError> {
        both!(self, s => s.put_challenge(id, data, expires).await)
    }

    /// Takes a challenge once: deletes it and answers its data; None if unknown or expired
    /// (every expired challenge is deleted on the way).
    pub async fn take_challenge(&self, id: &str, now: u64) -> Result<Option<String>, StoreError> {
        both!(self, s => s.take_challenge(id, now).await)
    }

    /// The finished matches `account` played, newest (highest id) first, at most `limit`, each
    /// with its people.
    pub async fn account_matches(&self, account: i64, limit: u32) -> Result<Vec<MatchRecord>, StoreError> {
        both!(self, s => s.account_matches(account, limit).await)
    }

    /// The recorded matches of room `room`, newest first: at most `limit`, those recorded
    /// before match `before` (its id) if given; each with its number in the room (`None` for
    /// matches recorded before numbers were kept).
    pub async fn room_matches(
        &self,
        room: &str,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<(MatchRecord, Option<u64>)>, StoreError> {
        both!(self, s => s.room_matches(room, before, limit).await)
    }

    /// The account's matches played and won, per game (by game name).
    pub async fn account_stats(&self, account: i64) -> Result<Vec<GameStats>, StoreError> {
        both!(self, s => s.account_stats(account).await)
    }

    /// Deletes what expired by `now`: idle sessions, name holds past their time, challenges
    /// (lookups ignore them anyway; this bounds the tables). For a periodic task.
    pub async fn prune_accounts(&self, now: u64) -> Result<Pruned, StoreError> {
        both!(self, s => s.prune_accounts(now).await)
    }
}
