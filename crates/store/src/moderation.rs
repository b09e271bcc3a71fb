//! # Moderation: bans, players' reports, the moderation log, and room closes asked for
//!
//! Issue 44, in both backends alike; like [`crate::accounts`], off the move path (no group
//! commit) and nothing cached per process, so every node of a cluster reads the same rows.
//!
//! - A **ban** is one row per account (a new ban replaces the one before; an unban deletes
//!   it): until when (`None`: for good), why, which admin (`None`: the terminal), when. What
//!   happened over time is in the moderation log, not here.
//! - A **report** keeps what the room looked like when it was filed: its chat (the stored lines,
//!   a JSON array of the room's chat entries) and its last finished match, so a moderator reads
//!   the evidence even after the room closed.
//! - The **moderation log** is append-only: there is no call that changes or deletes a row, and
//!   the database refuses an `UPDATE` or `DELETE` of it (triggers on both backends).
//! - A **room close** asked for is a row until the room's owner takes it (a node's heartbeat on
//!   a cluster, the server's start on SQLite) and closes the room with its message.

use crate::records::StoreError;
use crate::{Backend, Store};
use serde::{Deserialize, Serialize};

/// An account's ban.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ban {
    pub account: i64,
    /// Until when (ms since the epoch); `None`: for good.
    pub until: Option<u64>,
    pub reason: String,
    /// The admin who banned (`None`: from the terminal).
    pub by: Option<i64>,
    /// When (ms).
    pub at: u64,
}

impl Ban {
    /// Whether the ban holds at `now`.
    pub fn active(&self, now: u64) -> bool {
        self.until.is_none_or(|u| u > now)
    }
}

/// What a report is about.
pub const REPORT_KINDS: [&str; 3] = ["chat", "cheating", "leaving"];

/// A player's report of another, as filed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewReport {
    pub reporter: i64,
    pub target: i64,
    pub room: String,
    /// The room's last finished match when the report was filed, if it had one.
    pub match_id: Option<i64>,
    /// One of [`REPORT_KINDS`].
    pub kind: String,
    /// The reporter's own words, if any.
    pub line: Option<String>,
    /// The room's chat then: a JSON array of its chat entries.
    pub chat: String,
    pub at: u64,
}

/// A stored report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub id: i64,
    #[serde(flatten)]
    pub report: NewReport,
    pub resolved: bool,
}

/// One row of the moderation log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    pub id: i64,
    /// The admin (`None`: the terminal).
    pub admin: Option<i64>,
    /// What was done: `ban`, `unban`, `close_room`, `grant_admin`, `revoke_admin`,
    /// `resolve_report`.
    pub action: String,
    /// To whom or what, as people read it (`alice (#12)`, `room abcd…`, `report #3`).
    pub target: String,
    pub reason: String,
    pub at: u64,
}

/// A close of a room asked for, waiting for the room's owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomClose {
    pub room: String,
    /// What its players are told.
    pub message: String,
    pub at: u64,
}

/// A stored room as a moderator reads it (not claimed, not run): its game, snapshot, chat
/// lines, and its last finished match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomEvidence {
    pub game: String,
    pub snapshot: String,
    pub chat: Vec<String>,
    pub last_match: Option<i64>,
}

/// A room row as the store has it (every node's, private ones too): for a moderator's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    pub id: String,
    pub game: String,
    /// The node that owns it (PostgreSQL; `None` on SQLite, or nobody now).
    pub owner: Option<String>,
    /// What the lobby lists about it (PostgreSQL), else `None`.
    pub listing: Option<String>,
    pub snapshot: String,
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
    /// Bans an account (replacing a ban it had).
    pub async fn ban(&self, ban: Ban) -> Result<(), StoreError> {
        both!(self, s => s.ban(ban).await)
    }

    /// Lifts an account's ban; whether it had one.
    pub async fn unban(&self, account: i64) -> Result<bool, StoreError> {
        both!(self, s => s.unban(account).await)
    }

    /// The account's ban if one holds at `now`.
    pub async fn active_ban(&self, account: i64, now: u64) -> Result<Option<Ban>, StoreError> {
        Ok(both!(self, s => s.ban_of(account).await)?.filter(|b| b.active(now)))
    }

    /// Every ban that holds at `now`, newest first.
    pub async fn bans(&self, now: u64) -> Result<Vec<Ban>, StoreError> {
        both!(self, s => s.bans(now).await)
    }

    /// Files a report; answers its id.
    pub async fn file_report(&self, report: NewReport) -> Result<i64, StoreError> {
        both!(self, s => s.file_report(report).await)
    }

    /// Reports, newest first, at most `limit`; only the unresolved ones if `open`.
    pub async fn reports(&self, open: bool, limit: u32) -> Result<Vec<Report>, StoreError> {
        both!(self, s => s.reports(open, limit).await)
    }

    /// Marks a report resolved; whether it was open.
    pub async fn resolve_report(&self, id: i64) -> Result<bool, StoreError> {
        both!(self, s => s.resolve_report(id).await)
    }

    /// Appends a row to the moderation log; answers its id. There is no way to change or
    /// delete one.
    pub async fn log_moderation(
        &self,
        admin: Option<i64>,
        action: &str,
        target: &str,
        reason: &str,
        at: u64,
    ) -> Result<i64, StoreError> {
        both!(self, s => s.log_moderation(admin, action, target, reason, at).await)
    }

    /// The moderation log, newest first, rows before id `before` (paging), at most `limit`.
    pub async fn moderation_log(&self, before: Option<i64>, limit: u32) -> Result<Vec<LogEntry>, StoreError> {
        both!(self, s => s.moderation_log(before, limit).await)
    }

    /// Asks for room `room` to be closed with `message` (the same room again replaces it).
    pub async fn request_close(&self, close: RoomClose) -> Result<(), StoreError> {
        both!(self, s => s.request_close(close).await)
    }

    /// Takes (deletes and answers) the closes asked for of the rooms this store's node owns
    /// (PostgreSQL), or of every room (SQLite: one server); a close of a room that no longer
    /// exists is dropped on the way.
    pub async fn take_closes(&self) -> Result<Vec<RoomClose>, StoreError> {
        both!(self, s => s.take_closes().await)
    }

    /// Room `id` as stored, for a report or a moderator (read only: nothing claimed).
    pub async fn room_evidence(&self, id: &str) -> Result<Option<RoomEvidence>, StoreError> {
        both!(self, s => s.room_evidence(id).await)
    }

    /// Every stored room, by id, at most `limit`.
    pub async fn room_rows(&self, limit: u32) -> Result<Vec<RoomRow>, StoreError> {
        both!(self, s => s.room_rows(limit).await)
    }

    /// Live accounts whose name contains `query` (any case), by name, at most `limit`.
    pub async fn search_accounts(&self, query: &str, limit: u32) -> Result<Vec<crate::accounts::Account>, StoreError> {
        both!(self, s => s.search_accounts(query, limit).await)
    }
}
