//! A shell in the chamber, and the chamber itself.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Shell {
    Live,
    Blank,
}

/// The loaded shells in firing order, as a bit mask (bit 0 fires next; 1 = live). At most
/// 8 loaded plus 3 per Rebalancer (at most 4 a round), so 32 bits are plenty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chamber {
    bits: u32,
    len: u8,
}

impl Chamber {
    pub const CAPACITY: u8 = 32;

    /// Builds a chamber from shells in firing order.
    pub fn from_shells(shells: &[Shell]) -> Self {
        assert!(shells.len() <= Self::CAPACITY as usize);
        let mut c = Chamber::default();
        for (i, s) in shells.iter().enumerate() {
            if *s == Shell::Live {
                c.bits |= 1 << i;
            }
        }
        c.len = shells.len() as u8;
        c
    }

    /// A uniformly ordered chamber with the given counts: each position is live with
    /// probability (lives left)/(shells left), which is drawing without replacement.
    pub fn load(live: u8, blank: u8, rng: &mut engine::MatchRng) -> Self {
        let len = live + blank;
        assert!(len <= Self::CAPACITY);
        let mut bits = 0u32;
        let mut live_left = u32::from(live);
        for i in 0..u32::from(len) {
            let left = u32::from(len) - i;
            if rng.below(left) < live_left {
                bits |= 1 << i;
                live_left -= 1;
            }
        }
        Chamber { bits, len }
    }

    pub fn len(self) -> u8 {
        self.len
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    pub fn live(self) -> u8 {
        self.bits.count_ones() as u8
    }

    pub fn blank(self) -> u8 {
        self.len - self.live()
    }

    /// The next shell, without firing it.
    pub fn peek(self) -> Option<Shell> {
        (self.len > 0).then_some(if self.bits & 1 == 1 { Shell::Live } else { Shell::Blank })
    }

    /// Fires the next shell.
    pub fn fire(&mut self) -> Option<Shell> {
        let s = self.peek()?;
        self.bits >>= 1;
        self.len -= 1;
        Some(s)
    }

    pub fn shells(self) -> impl Iterator<Item = Shell> {
        (0..self.len).map(move |i| if self.bits >> i & 1 == 1 { Shell::Live } else { Shell::Blank })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_keeps_counts_and_fires_in_order() {
        let mut rng = engine::MatchRng::new(5);
        for live in 1..=4 {
            for blank in 1..=4 {
                let mut c = Chamber::load(live, blank, &mut rng);
                assert_eq!((c.live(), c.blank()), (live, blank));
                let order: Vec<Shell> = c.shells().collect();
                let fired: Vec<Shell> = std::iter::from_fn(|| c.fire()).collect();
                assert_eq!(order, fired);
                assert!(c.is_empty());
            }
        }
    }

    #[test]
    fn load_is_uniform_over_positions() {
        // With 1 live among 4, the live shell is first a quarter of the time.
        let mut rng = engine::MatchRng::new(11);
        let first_live = (0..40_000).filter(|_| Chamber::load(1, 3, &mut rng).peek() == Some(Shell::Live)).count();
        assert!((9_000..11_000).contains(&first_live), "{first_live}");
    }
}
