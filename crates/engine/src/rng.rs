//! The match RNG and our own small sampling functions.
//!
//! Every match owns one `MatchRng` (ChaCha8, seeded from a `u64`). Shuffles and bounded draws
//! are written here rather than borrowed from `rand`, because `rand`'s algorithms may change
//! between minor versions and a replay is only `seed + actions`: the same seed must deal the
//! same cards forever. The golden vectors in the tests pin that.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seeded, serializable, clonable random number generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRng {
    seed: u64,
    inner: ChaCha8Rng,
}

impl MatchRng {
    pub fn new(seed: u64) -> Self {
        MatchRng { seed, inner: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The seed this generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A fresh generator whose seed is drawn from this one. Used to reseed determinized copies
    /// and to give each bot its own stream.
    pub fn fork(&mut self) -> MatchRng {
        MatchRng::new(self.next_u64())
    }

    /// A uniform integer in `0..n` (Lemire's multiply-and-reject: unbiased, usually one draw).
    ///
    /// # Panics
    /// If `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Independent uniform integers, `out[i]` in `0..bounds[i]`, from as few 64-bit words as
    /// will do: consecutive bounds are grouped while their product stays at most 2^56, and each
    /// group is one multiply-and-reject draw below that product (as in `below`, on 64 bits),
    /// read off as mixed-radix digits with one multiplication per bound (Brackett-Rozinsky and
    /// Lemire, "Batched ranged random integer generation", 2024). Exactly as uniform as a
    /// `below` per bound; a round's whole deal costs a few words instead of one per card. The
    /// 2^56 cap keeps a group's rejection chance under 1/256.
    ///
    /// # Panics
    /// If a bound is 0 or the slices differ in length.
    pub fn below_each(&mut self, bounds: &[u32], out: &mut [u32]) {
        assert_eq!(bounds.len(), out.len(), "one output per bound");
        let mut start = 0;
        while start < bounds.len() {
            let (end, product) = group(bounds, start);
            // Lemire's test on the whole group; a rejected group is drawn again (rarely). The
            // threshold is only worked out when the fast test fails.
            loop {
                let low = read_digits(self.next_u64(), &bounds[start..end], &mut out[start..end]);
                if low >= product || low >= product.wrapping_neg() % product {
                    break;
                }
            }
            start = end;
        }
    }

    /// A uniform integer in `lo..=hi`.
    #[inline]
    pub fn range_inclusive(&mut self, lo: u32, hi: u32) -> u32 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + self.below(hi - lo + 1)
    }

    /// A uniform index into a slice of length `len`.
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        self.below(u32::try_from(len).expect("slice too long to sample")) as usize
    }

    /// True with probability `num / den`.
    #[inline]
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }

    /// Fisher–Yates, from the back: every permutation equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// Moves a uniform random selection of `k` items to the front of the slice, in random
    /// order (a partial Fisher–Yates from the front). Dealing `k` cards from a deck this way
    /// costs `k` draws instead of a full shuffle.
    pub fn partial_shuffle<T>(&mut self, items: &mut [T], k: usize) {
        let n = items.len();
        for i in 0..k.min(n.saturating_sub(1)) {
            let j = i + self.below((n - i) as u32) as usize;
            items.swap(i, j);
        }
    }

    /// A uniform element of a non-empty slice.
    #[inline]
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    fn word_pos(&self) -> u64 {
        u64::try_from(self.inner.get_word_pos()).expect("rng advanced past 2^64 words")
    }
}

/// The largest product of bounds `below_each` draws from one word.
const GROUP_MAX: u64 = 1 << 56;

/// The group of `bounds` from `start` that `below_each` draws from one word: it grows while
/// the product of its bounds stays at most `GROUP_MAX`. Returns one past its last bound, and
/// the product. (A `const fn`: `DrawPlan` works the groups out at compile time.)
///
/// # Panics
/// If a bound in the group is 0.
pub(crate) const fn group(bounds: &[u32], start: usize) -> (usize, u64) {
    let (mut end, mut product) = (start, 1u64);
    while end < bounds.len() && product as u128 * bounds[end] as u128 <= GROUP_MAX as u128 {
        product *= bounds[end] as u64;
        end += 1;
    }
    assert!(product > 0, "below(0)");
    (end, product)
}

/// Reads one digit below each bound off `word`, most significant first (word * product =
/// digits * 2^64 + low), and returns `low` for the rejection test.
#[inline(always)]
pub(crate) fn read_digits(word: u64, bounds: &[u32], out: &mut [u32]) -> u64 {
    let mut low = word;
    for (&n, digit) in bounds.iter().zip(out) {
        let m = u128::from(low) * u128::from(n);
        *digit = (m >> 64) as u32;
        low = m as u64;
    }
    low
}

/// Derives the seed of game `index` of a batch that started from `base`: SplitMix64, so that
/// neighbouring indices give unrelated seeds and a batch's games do not depend on threads.
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Serialized as the seed and how far the stream has advanced, so a saved match resumes the
/// exact same sequence.
#[derive(Serialize, Deserialize)]
struct RngRepr {
    seed: u64,
    pos: u64,
}

impl Serialize for MatchRng {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RngRepr { seed: self.seed, pos: self.word_pos() }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for MatchRng {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = RngRepr::deserialize(d)?;
        let mut rng = MatchRng::new(r.seed);
        rng.inner.set_word_pos(u128::from(r.pos));
        Ok(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Golden vectors: if one of these changes, every stored replay deals differently.
    #[test]
    fn golden_raw_stream() {
        let mut r = MatchRng::new(1);
        let got: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        assert_eq!(got, GOLDEN_RAW);
    }

    #[test]
    fn golden_below() {
        let mut r = MatchRng::new(42);
        let got: Vec<u32> = (0..12).map(|i| r.below(i + 1)).collect();
        assert_eq!(got, GOLDEN_BELOW);
    }

    #[test]
    fn golden_shuffle() {
        let mut r = MatchRng::new(7);
        let mut v: Vec<u8> = (0..10).collect();
        r.shuffle(&mut v);
        assert_eq!(v, GOLDEN_SHUFFLE);
        let mut w: Vec<u8> = (0..10).collect();
        r.partial_shuffle(&mut w, 3);
        assert_eq!(w, GOLDEN_PARTIAL);
    }

    #[test]
    fn golden_derive_seed() {
        assert_eq!([derive_seed(1, 0), derive_seed(1, 1)], GOLDEN_DERIVED);
    }

    #[test]
    fn golden_below_each() {
        let mut r = MatchRng::new(42);
        let bounds: Vec<u32> = (1..=12).chain([1 << 31, 3, 70_000, 44]).collect();
        let mut got = vec![0; bounds.len()];
        r.below_each(&bounds, &mut got);
        assert_eq!(got, GOLDEN_BELOW_EACH);
        // Two groups, a word each: 12! (about 2^29) has no room for 2^31 beside it under 2^56;
        // 2^31 * 3 * 70,000 * 44 (about 2^54) fits in one.
        assert_eq!(r.word_pos(), 4);
    }

    const GOLDEN_RAW: [u32; 4] = [2359561649, 1728662762, 4228812395, 345245400];
    const GOLDEN_BELOW: [u32; 12] = [0, 1, 0, 3, 3, 2, 2, 5, 6, 2, 7, 1];
    const GOLDEN_SHUFFLE: [u8; 10] = [5, 4, 2, 0, 3, 6, 7, 8, 9, 1];
    const GOLDEN_PARTIAL: [u8; 10] = [6, 8, 4, 3, 2, 5, 0, 7, 1, 9];
    const GOLDEN_DERIVED: [u64; 2] = [5272463233947570727, 1581842977205825397];
    const GOLDEN_BELOW_EACH: [u32; 16] = [0, 1, 1, 0, 1, 4, 6, 6, 0, 4, 9, 11, 2040700899, 0, 15370, 24];

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = MatchRng::new(3);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn below_each_digits_are_uniform_and_independent() {
        // Pairs of digits below 3 and 4 from one word each: all 12 pairs about equally often.
        let mut r = MatchRng::new(4);
        let mut counts = [0u32; 12];
        let mut out = [0; 2];
        for _ in 0..60_000 {
            r.below_each(&[3, 4], &mut out);
            counts[(out[0] * 4 + out[1]) as usize] += 1;
        }
        for c in counts {
            assert!((4_500..5_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn below_each_reads_the_digits_of_one_draw_below_the_product() {
        let bounds = [44, 43, 42, 41, 4, 4, 420];
        let product: u64 = bounds.iter().map(|&n| u64::from(n)).product();
        for seed in 0..100 {
            let mut word = MatchRng::new(seed);
            let mut value = ((u128::from(word.next_u64()) * u128::from(product)) >> 64) as u64;
            let mut digits = [0; 7];
            MatchRng::new(seed).below_each(&bounds, &mut digits);
            for (d, n) in digits.iter().zip(bounds).rev() {
                assert_eq!(u64::from(*d), value % u64::from(n));
                value /= u64::from(n);
            }
        }
    }

    #[test]
    fn below_each_stays_in_range() {
        let mut r = MatchRng::new(8);
        let bounds = [u32::MAX, 1, 2, 0x8000_0001, 7, 1 << 28, 5];
        let mut out = [0; 7];
        for _ in 0..10_000 {
            r.below_each(&bounds, &mut out);
            assert!(out.iter().zip(bounds).all(|(d, n)| *d < n), "{out:?}");
        }
    }

    #[test]
    fn serde_resumes_the_stream() {
        let mut r = MatchRng::new(9);
        for _ in 0..37 {
            r.next_u32();
        }
        let json = serde_json::to_string(&r).unwrap();
        let mut back: MatchRng = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.next_u64(), r.next_u64());
    }
}
