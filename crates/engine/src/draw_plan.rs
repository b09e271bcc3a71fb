//! [`DrawPlan`]: a batch of bounded draws whose bounds are known before the match starts.
//!
//! [`MatchRng::below_each`] works out, word by word, how many bounds fit in one 64-bit draw.
//! When the bounds are fixed (a round's deal always draws below the same numbers for the same
//! table size), that grouping and each group's rejection threshold can be worked out once, at
//! compile time, and a draw is then one multiplication per bound. The values drawn are exactly
//! those `below_each` draws for the same bounds (a test checks it): a plan is a faster way to
//! run the same algorithm, not another one, so replays do not change.

use crate::MatchRng;
use crate::rng::{group, read_digits};

/// The most bounds one plan holds.
pub const PLAN_MAX: usize = 64;

/// One group of consecutive bounds drawn from one word.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// One past the group's last bound.
    end: u8,
    /// Lemire's threshold for the group's product `p`: `2^64 mod p`. A word whose low part,
    /// after reading every digit, is below it is rejected and the group drawn again.
    threshold: u64,
}

/// The bounds of a batch and their grouping into words, as `below_each` would group them.
#[derive(Clone, Copy, Debug)]
pub struct DrawPlan {
    bounds: [u32; PLAN_MAX],
    len: u8,
    groups: [Group; PLAN_MAX],
    group_count: u8,
}

impl DrawPlan {
    /// A plan for drawing below each of `bounds` in turn.
    ///
    /// # Panics
    /// (At compile time, when used in a `const`.) If a bound is 0 or there are more than
    /// [`PLAN_MAX`].
    pub const fn new(bounds: &[u32]) -> Self {
        assert!(bounds.len() <= PLAN_MAX, "too many bounds for one plan");
        let mut plan = DrawPlan {
            bounds: [0; PLAN_MAX],
            len: bounds.len() as u8,
            groups: [Group { end: 0, threshold: 0 }; PLAN_MAX],
            group_count: 0,
        };
        let mut i = 0;
        while i < bounds.len() {
            plan.bounds[i] = bounds[i];
            i += 1;
        }
        // The same grouping as `below_each`, the rejection threshold `2^64 mod p` beside it.
        let mut start = 0;
        while start < bounds.len() {
            let (end, product) = group(bounds, start);
            plan.groups[plan.group_count as usize] =
                Group { end: end as u8, threshold: product.wrapping_neg() % product };
            plan.group_count += 1;
            start = end;
        }
        plan
    }

    /// The bounds, in drawing order.
    pub fn bounds(&self) -> &[u32] {
        &self.bounds[..usize::from(self.len)]
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many words a draw takes when nothing is rejected.
    pub fn words(&self) -> usize {
        usize::from(self.group_count)
    }
}

impl MatchRng {
    /// `out[i]` uniform in `0..plan.bounds()[i]`: the same values, from the same words, as
    /// `below_each(plan.bounds(), out)`.
    ///
    /// # Panics
    /// If `out` is not as long as the plan.
    pub fn below_plan(&mut self, plan: &DrawPlan, out: &mut [u32]) {
        assert_eq!(out.len(), plan.len(), "one output per bound");
        let mut start = 0;
        for group in &plan.groups[..usize::from(plan.group_count)] {
            let end = usize::from(group.end);
            let (bounds, digits) = (&plan.bounds[start..end], &mut out[start..end]);
            // Lemire's test: a group whose low part falls below the threshold is drawn again.
            while read_digits(self.next_u64(), bounds, digits) < group.threshold {}
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_draws_what_below_each_draws() {
        let mut shape = MatchRng::new(99);
        for case in 0..2_000u64 {
            // Bounds of every size, from 1 to 2^32 - 1, some runs long enough to need rejection
            // now and then (products near 2^56).
            let len = 1 + shape.below(PLAN_MAX as u32) as usize;
            let bounds: Vec<u32> = (0..len)
                .map(|_| match shape.below(4) {
                    0 => 1 + shape.below(8),
                    1 => 1 + shape.below(500),
                    2 => 1 + shape.below(1 << 20),
                    _ => shape.next_u32().max(1),
                })
                .collect();
            let plan = DrawPlan::new(&bounds);
            assert_eq!(plan.bounds(), &bounds[..]);
            let (mut a, mut b) = (MatchRng::new(case), MatchRng::new(case));
            let (mut want, mut got) = (vec![0; len], vec![0; len]);
            for _ in 0..4 {
                a.below_each(&bounds, &mut want);
                b.below_plan(&plan, &mut got);
                assert_eq!(got, want, "bounds {bounds:?}, seed {case}");
                assert_eq!(a, b, "both consumed the same words");
            }
        }
    }

    #[test]
    fn groups_fill_words_as_below_each_does() {
        // 12! is about 2^29: no room for 2^31 beside it under 2^56 (see `golden_below_each`).
        const PLAN: DrawPlan = DrawPlan::new(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1 << 31, 3, 70_000, 44]);
        assert_eq!(PLAN.words(), 2);
        let mut r = MatchRng::new(42);
        let mut got = [0; 16];
        r.below_plan(&PLAN, &mut got);
        assert_eq!(got, [0, 1, 1, 0, 1, 4, 6, 6, 0, 4, 9, 11, 2040700899, 0, 15370, 24]);
    }
}
