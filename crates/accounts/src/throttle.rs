//! Attempt throttling: at most so many attempts per key in a sliding window. Time is passed
//! in (milliseconds on any clock that does not go back), so this is pure and testable.

use std::collections::{HashMap, VecDeque};

/// Sign-in attempts per account name key: 10 in 15 minutes. A person who forgot a password
/// has 10 tries a quarter hour; an attacker guessing one account's password online gets 960
/// a day.
pub const SIGNIN_PER_ACCOUNT: (u32, u64) = (10, 15 * 60 * 1000);
/// Sign-in attempts per client address: 30 in 15 minutes (a household or a school behind one
/// address has room; one address spraying passwords over many names is held to 30).
pub const SIGNIN_PER_ADDRESS: (u32, u64) = (30, 15 * 60 * 1000);
/// Guest identities made per client address: 30 an hour.
pub const GUESTS_PER_ADDRESS: (u32, u64) = (30, 60 * 60 * 1000);
/// How long a name stays held after a guest renames away from it or its account is deleted:
/// 30 days.
pub const NAME_HOLD_MS: u64 = 30 * 24 * 3600 * 1000;

/// At most `limit` attempts per key in any `window_ms` (a sliding window: the times of the
/// attempts still inside it are kept, at most `limit` per key).
#[derive(Debug, Clone)]
pub struct Throttle {
    limit: u32,
    window_ms: u64,
    /// The times of each key's attempts inside the window, oldest first.
    keys: HashMap<String, VecDeque<u64>>,
}

impl Throttle {
    /// A throttle allowing `limit` attempts per key in any `window_ms`.
    pub fn new(limit: u32, window_ms: u64) -> Throttle {
        Throttle { limit, window_ms, keys: HashMap::new() }
    }

    /// Records an attempt for `key` at `now_ms`; Err(retry_after_ms) when over the limit (the
    /// attempt is then not recorded). `retry_after_ms` is the wait until the oldest attempt in
    /// the window leaves it (at least 1): an attempt at `now_ms + retry_after_ms` passes.
    pub fn attempt(&mut self, key: &str, now_ms: u64) -> Result<(), u64> {
        self.check(key, now_ms)?;
        let times = self.keys.entry(key.to_string()).or_default();
        let window = self.window_ms;
        while times.front().is_some_and(|&t| expired(t, window, now_ms)) {
            times.pop_front();
        }
        times.push_back(now_ms);
        Ok(())
    }

    /// Whether an attempt for `key` at `now_ms` would pass, without recording one: Err as
    /// [`Throttle::attempt`] would answer.
    pub fn check(&self, key: &str, now_ms: u64) -> Result<(), u64> {
        let limit = self.limit as usize;
        let Some(times) = self.keys.get(key) else {
            return if limit == 0 { Err(self.window_ms.max(1)) } else { Ok(()) };
        };
        // The times are in order, so the ones still inside the window are the last ones.
        let live = || times.iter().copied().skip_while(|&t| expired(t, self.window_ms, now_ms));
        let count = live().count();
        if count < limit {
            return Ok(());
        }
        // Over the limit: a place frees when the attempt `limit` back from the newest leaves
        // the window (the oldest live one, as no more than `limit` are ever recorded).
        let freeing = live().nth(count - limit).unwrap_or(now_ms);
        Err(freeing.saturating_add(self.window_ms).saturating_sub(now_ms).max(1))
    }

    /// Forgets `key`'s attempts: after a successful sign-in, for the account's key (the
    /// address's attempts stay counted).
    pub fn clear(&mut self, key: &str) {
        self.keys.remove(key);
    }

    /// Forgets every key whose attempts have all left the window, so memory is bounded by the
    /// keys seen in one window (each with at most `limit` times). Call it now and then (every
    /// minute, or every so many attempts).
    pub fn prune(&mut self, now_ms: u64) {
        let window = self.window_ms;
        self.keys.retain(|_, times| {
            while times.front().is_some_and(|&t| expired(t, window, now_ms)) {
                times.pop_front();
            }
            !times.is_empty()
        });
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Whether an attempt at `t` has left a window of `window_ms` by `now_ms` (it counts during
/// `t .. t + window_ms`).
fn expired(t: u64, window_ms: u64, now_ms: u64) -> bool {
    t.saturating_add(window_ms) <= now_ms
}

/// A wait in milliseconds as the whole seconds of a `Retry-After` header, rounded up (a
/// client that waits that long is let through).
pub fn retry_after_secs(ms: u64) -> u64 {
    ms.div_ceil(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_then_retry_after() {
        let mut t = Throttle::new(3, 1000);
        assert_eq!(t.attempt("a", 0), Ok(()));
        assert_eq!(t.attempt("a", 100), Ok(()));
        assert_eq!(t.check("a", 150), Ok(()));
        assert_eq!(t.attempt("a", 200), Ok(()));
        // Full: the oldest (at 0) leaves the window at 1000.
        assert_eq!(t.check("a", 300), Err(700));
        assert_eq!(t.attempt("a", 300), Err(700));
        assert_eq!(t.attempt("a", 999), Err(1));
        // Another key is not held up.
        assert_eq!(t.attempt("b", 300), Ok(()));
    }

    #[test]
    fn window_slides_and_refusals_are_not_counted() {
        let mut t = Throttle::new(3, 1000);
        for now in [0, 100, 200] {
            t.attempt("a", now).unwrap();
        }
        // Hammering while refused changes nothing.
        for now in 300..1000 {
            assert!(t.attempt("a", now).is_err());
        }
        assert_eq!(t.attempt("a", 1000), Ok(())); // the one at 0 left
        assert_eq!(t.attempt("a", 1050), Err(50)); // the one at 100 leaves at 1100
        assert_eq!(t.attempt("a", 1100), Ok(()));
        assert_eq!(t.attempt("a", 1200), Ok(()));
        assert_eq!(t.attempt("a", 1201), Err(799)); // 1000, 1100, 1200 inside; 1000 leaves at 2000
        // Long after, a full allowance again.
        for now in [5000, 5001, 5002] {
            assert_eq!(t.attempt("a", now), Ok(()));
        }
        assert_eq!(t.attempt("a", 5003), Err(997));
    }

    #[test]
    fn check_records_nothing() {
        let mut t = Throttle::new(2, 1000);
        for now in 0..100 {
            assert_eq!(t.check("a", now), Ok(()));
        }
        t.attempt("a", 100).unwrap();
        t.attempt("a", 100).unwrap();
        assert_eq!(t.check("a", 100), Err(1000));
        assert_eq!(t.check("a", 1099), Err(1));
        assert_eq!(t.check("a", 1100), Ok(()));
    }

    #[test]
    fn clear_forgets_one_key() {
        let mut t = Throttle::new(1, 1000);
        t.attempt("account", 0).unwrap();
        t.attempt("address", 0).unwrap();
        assert!(t.attempt("account", 10).is_err());
        t.clear("account");
        assert_eq!(t.attempt("account", 10), Ok(()));
        assert!(t.attempt("address", 10).is_err());
    }

    #[test]
    fn prune_bounds_memory() {
        let mut t = Throttle::new(5, 1000);
        for i in 0..10_000u64 {
            t.attempt(&format!("10.0.{}.{}", i / 256, i % 256), i / 10).unwrap(); // times 0..999
        }
        assert_eq!(t.len(), 10_000);
        t.prune(999); // nothing has left the window yet
        assert_eq!(t.len(), 10_000);
        t.prune(1000); // the keys whose attempt was at 0 (the first ten) have
        assert_eq!(t.len(), 10_000 - 10);
        t.prune(1500); // attempts at 0..=500 have left, those at 501..=999 are kept
        assert_eq!(t.len(), 4_990);
        t.prune(1999);
        assert_eq!(t.len(), 0);
        assert!(t.is_empty());
        // A pruned key starts over; a key that still has attempts keeps them.
        let mut t = Throttle::new(2, 1000);
        t.attempt("old", 0).unwrap();
        t.attempt("old", 0).unwrap();
        t.attempt("new", 900).unwrap();
        t.attempt("new", 900).unwrap();
        t.prune(1000);
        assert_eq!(t.len(), 1);
        assert_eq!(t.attempt("old", 1000), Ok(()));
        assert_eq!(t.attempt("new", 1000), Err(900));
    }

    #[test]
    fn the_documented_numbers() {
        assert_eq!(SIGNIN_PER_ACCOUNT, (10, 900_000));
        assert_eq!(SIGNIN_PER_ADDRESS, (30, 900_000));
        assert_eq!(GUESTS_PER_ADDRESS, (30, 3_600_000));
        assert_eq!(NAME_HOLD_MS, 2_592_000_000);
        let (limit, window) = SIGNIN_PER_ACCOUNT;
        let mut t = Throttle::new(limit, window);
        for i in 0..u64::from(limit) {
            assert_eq!(t.attempt("alice", 1_000_000 + i * 1000), Ok(()));
        }
        // The 11th within 15 minutes waits until the first is 15 minutes old.
        assert_eq!(t.attempt("alice", 1_060_000), Err(window - 60_000));
        assert_eq!(retry_after_secs(window - 60_000), 840);
    }

    #[test]
    fn retry_after_rounds_up_to_seconds() {
        assert_eq!(retry_after_secs(0), 0);
        assert_eq!(retry_after_secs(1), 1);
        assert_eq!(retry_after_secs(1000), 1);
        assert_eq!(retry_after_secs(1001), 2);
    }

    #[test]
    fn a_zero_limit_refuses_all() {
        let mut t = Throttle::new(0, 1000);
        assert_eq!(t.attempt("a", 5), Err(1000));
        assert!(t.is_empty());
    }
}
