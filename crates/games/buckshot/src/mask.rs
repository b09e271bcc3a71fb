//! Seats as the bits of a `u8` (at most 8 seats): who is alive, who is skipped, who knows the
//! next shell. Legal-move generation and turn order walk these on every move.

/// Calls `f` with the index of every set bit, lowest first.
#[inline(always)]
pub(crate) fn for_each_bit(mut mask: u8, mut f: impl FnMut(u8)) {
    while mask != 0 {
        f(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
}

/// The index of the `n`-th set bit, counting from 0 at the lowest.
pub(crate) fn nth_bit(mut mask: u8, n: u32) -> u8 {
    debug_assert!(n < mask.count_ones());
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

/// The first set bit after bit `after`, going round: bit `after` itself comes last.
pub(crate) fn next_after(mask: u8, after: u8) -> Option<u8> {
    let later = mask & (0xFE << after);
    let from = if later != 0 { later } else { mask };
    (from != 0).then(|| from.trailing_zeros() as u8)
}

/// Bit `i` set when byte `i` is not zero: eight bytes at once, without a loop.
pub(crate) fn nonzero_bytes(bytes: [u8; 8]) -> u8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = u64::from_le_bytes(bytes);
    // The top bit of each byte: set if the byte has any bit set (the low 7 carry into it).
    let tops = (((x & LOW7) + LOW7) | x) & !LOW7;
    // Gather the 8 top bits into the top byte: bit 8i + 7 lands on 56 + i, and no two partial
    // products meet, so nothing carries.
    ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits() {
        let mut seen = Vec::new();
        for_each_bit(0b1010_0110, |b| seen.push(b));
        assert_eq!(seen, [1, 2, 5, 7]);
        assert_eq!([0, 1, 2, 3].map(|n| nth_bit(0b1010_0110, n)), [1, 2, 5, 7]);
        assert_eq!(next_after(0b1010_0110, 2), Some(5));
        assert_eq!(next_after(0b1010_0110, 7), Some(1));
        assert_eq!(next_after(0b0000_0100, 2), Some(2));
        assert_eq!(next_after(0b1000_0000, 7), Some(7));
        assert_eq!(next_after(0, 3), None);
    }

    #[test]
    fn nonzero_bytes_finds_every_pattern() {
        for pattern in 0..=255u8 {
            for v in [1u8, 2, 0x7F, 0x80, 0x81, 0xFF] {
                let bytes = std::array::from_fn(|b| if pattern >> b & 1 == 1 { v.rotate_left(b as u32) } else { 0 });
                assert_eq!(nonzero_bytes(bytes), pattern, "{bytes:?}");
            }
        }
    }
}
