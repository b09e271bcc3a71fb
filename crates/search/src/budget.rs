//! How long a search may think.

use std::time::Duration;

/// Iterations, time, or both (the search stops at whichever comes first). At least one of the
/// two must be set. Only an iteration-bounded search that never hits its time cap is
/// reproducible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Total iterations over all threads.
    pub iterations: Option<u64>,
    /// Wall-clock cap per decision.
    pub time: Option<Duration>,
}

impl Budget {
    /// Exactly `n` iterations (reproducible).
    pub const fn iterations(n: u64) -> Self {
        Budget { iterations: Some(n), time: None }
    }

    /// As many iterations as fit in `d`.
    pub const fn time(d: Duration) -> Self {
        Budget { iterations: None, time: Some(d) }
    }

    /// `n` iterations unless `d` runs out first (a safety net for slow positions).
    pub const fn capped(n: u64, d: Duration) -> Self {
        Budget { iterations: Some(n), time: Some(d) }
    }

    /// The iterations worker `index` of `threads` runs: an even share, the remainder going to
    /// the first workers. `None` when only time bounds the search.
    pub(crate) fn share(&self, index: usize, threads: usize) -> Option<u64> {
        self.iterations.map(|n| {
            let t = threads as u64;
            n / t + u64::from((index as u64) < n % t)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up() {
        let b = Budget::iterations(10);
        let shares: Vec<u64> = (0..3).map(|i| b.share(i, 3).unwrap()).collect();
        assert_eq!(shares, vec![4, 3, 3]);
        assert_eq!(Budget::time(Duration::from_millis(5)).share(0, 2), None);
    }
}
