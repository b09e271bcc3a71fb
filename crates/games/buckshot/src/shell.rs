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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
        let len = usize::from(live + blank);
        assert!(len <= usize::from(Self::CAPACITY));
        // Position i draws below the shells left (len - i); all positions' draws in one batch.
        let mut left = [0u32; Self::CAPACITY as usize];
        for (i, l) in left[..len].iter_mut().enumerate() {
            *l = (len - i) as u32;
        }
        let mut draws = [0u32; Self::CAPACITY as usize];
        rng.below_each(&left[..len], &mut draws[..len]);
        let mut bits = 0u32;
        let mut live_left = u32::from(live);
        for (i, (&draw, &left)) in draws[..len].iter().zip(&left).enumerate() {
            if draw < live_left {
                bits |= 1 << i;
                live_left -= 1;
            }
            debug_assert!(live_left <= left);
        }
        Chamber { bits, len: len as u8 }
    }

    /// A new round's chamber from three uniform draws below [`FRESH_DRAWS`]: 1-4 live and 1-4
    /// blank shells, then one of their orders, every order of those counts equally likely.
    ///
    /// The third bound is the same whatever the counts, so a round can draw it beside the deal
    /// in one batch: 420 is the least common multiple of every C(live + blank, live) with both
    /// counts in 1..=4, so `draw * C / 420` takes each of the C orders exactly 420 / C times.
    pub(crate) fn fresh([live, blank, order]: [u32; 3]) -> Self {
        let (live, blank) = (live as u8 + 1, blank as u8 + 1);
        let len = live + blank;
        let orders = u32::from(ORDERS.count(len, live));
        Chamber { bits: u32::from(ORDERS.nth(live, (order * orders / FRESH_ORDER_LCM) as u16)), len }
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

/// Bounds of the draws [`Chamber::fresh`] takes.
pub(crate) const FRESH_DRAWS: [u32; 3] = [4, 4, FRESH_ORDER_LCM];
const FRESH_ORDER_LCM: u32 = 420;

/// Every 8-bit mask, ordered by its number of set bits and then by value. The masks with `k`
/// bits below bit `len` are then the first C(len, k) of the `k`-bit ones, so the `i`-th order
/// of `k` live among `len` shells is one lookup.
struct Orders {
    masks: [u8; 256],
    /// Where the masks with `k` bits start.
    start: [u16; 9],
    /// C(len, k): how many of them lie below bit `len`.
    binomial: [[u8; 9]; 9],
}

static ORDERS: Orders = Orders::new();

impl Orders {
    const fn new() -> Self {
        let mut o = Orders { masks: [0; 256], start: [0; 9], binomial: [[0; 9]; 9] };
        let mut n = 0;
        while n <= 8 {
            o.binomial[n][0] = 1;
            let mut k = 1;
            while k <= n {
                o.binomial[n][k] = o.binomial[n - 1][k - 1] + o.binomial[n - 1][k];
                k += 1;
            }
            n += 1;
        }
        let mut at = 0;
        let mut k = 0;
        while k <= 8 {
            o.start[k] = at as u16;
            let mut m = 0;
            while m < 256 {
                if (m as u8).count_ones() as usize == k {
                    o.masks[at] = m as u8;
                    at += 1;
                }
                m += 1;
            }
            k += 1;
        }
        o
    }

    fn count(&self, len: u8, k: u8) -> u8 {
        self.binomial[usize::from(len)][usize::from(k)]
    }

    fn nth(&self, k: u8, i: u16) -> u8 {
        self.masks[usize::from(self.start[usize::from(k)] + i)]
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
    fn orders_count_binomials() {
        assert_eq!(ORDERS.count(8, 4), 70);
        assert_eq!(ORDERS.count(5, 2), 10);
        assert_eq!(ORDERS.count(2, 1), 2);
        for len in 0..=8u8 {
            for k in 0..=len {
                let n = ORDERS.count(len, k);
                let orders: Vec<u8> = (0..u16::from(n)).map(|i| ORDERS.nth(k, i)).collect();
                // C(len, k) distinct masks of k bits below bit len: every order, each once.
                assert!(orders.windows(2).all(|w| w[0] < w[1]), "distinct, increasing");
                assert!(orders.iter().all(|&m| m.count_ones() == u32::from(k) && u32::from(m) >> len == 0));
            }
        }
    }

    #[test]
    fn fresh_chambers_take_every_count_and_order_equally_often() {
        let mut counts = std::collections::HashMap::new();
        for live in 0..4 {
            for blank in 0..4 {
                for order in 0..FRESH_ORDER_LCM {
                    *counts.entry(Chamber::fresh([live, blank, order])).or_insert(0u32) += 1;
                }
            }
        }
        // Every order of every pair of counts (sum over pairs of C(len, live)), each drawn
        // 420 / C(len, live) times: each pair of counts is 1/16, each order within it uniform.
        let all: u32 = (1..=4).flat_map(|l| (1..=4).map(move |b| u32::from(ORDERS.count(l + b, l)))).sum();
        assert_eq!(counts.len() as u32, all);
        for (c, n) in counts {
            assert!((1..=4).contains(&c.live()) && (1..=4).contains(&c.blank()), "{c:?}");
            assert_eq!(n * u32::from(ORDERS.count(c.len(), c.live())), FRESH_ORDER_LCM, "{c:?}");
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
