//! What the store records for the server's `GET /metrics` (through the `metrics` facade: a
//! no-op until the server installs a recorder). Commits are the backends' transactions of
//! group commit (one batch of rooms' writes each), timed from `BEGIN` to the answer of
//! `COMMIT`; the label values are the two backends' names, literals (no allocation a commit).

use std::time::Duration;

/// Transactions committed, by `backend` (`sqlite`, `postgres`).
pub const STORE_COMMITS: &str = "cardtable_store_commits_total";
/// How long a commit took, by `backend`.
pub const STORE_COMMIT_SECONDS: &str = "cardtable_store_commit_seconds";
/// Transactions that failed (their writes refused: the database out of reach, a constraint),
/// by `backend`.
pub const STORE_ERRORS: &str = "cardtable_store_errors_total";

/// The backend a commit ran on.
#[derive(Clone, Copy)]
pub(crate) enum Backend {
    Sqlite,
    Postgres,
}

/// One transaction committed (`ok`) or failed, after `took`.
pub(crate) fn committed(backend: Backend, took: Duration, ok: bool) {
    match (backend, ok) {
        (Backend::Sqlite, true) => {
            metrics::counter!(STORE_COMMITS, "backend" => "sqlite").increment(1);
            metrics::histogram!(STORE_COMMIT_SECONDS, "backend" => "sqlite").record(took);
        }
        (Backend::Postgres, true) => {
            metrics::counter!(STORE_COMMITS, "backend" => "postgres").increment(1);
            metrics::histogram!(STORE_COMMIT_SECONDS, "backend" => "postgres").record(took);
        }
        (Backend::Sqlite, false) => metrics::counter!(STORE_ERRORS, "backend" => "sqlite").increment(1),
        (Backend::Postgres, false) => metrics::counter!(STORE_ERRORS, "backend" => "postgres").increment(1),
    }
}
