//! Time helpers for the room's clocks: a `t + d` that never panics, and a sleep that may be "never".

use std::time::Duration;
use tokio::time::Instant;

/// `t + d`, saturating: options are range-checked, but no clock of any length may make a
/// room panic (an `Instant` overflowing), so a sum past the representable means "never".
pub(super) fn later(t: Instant, d: Duration) -> Instant {
    const NEVER: Duration = Duration::from_secs(100 * 365 * 86_400);
    t.checked_add(d).or_else(|| t.checked_add(NEVER)).unwrap_or(t)
}

pub(super) async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
