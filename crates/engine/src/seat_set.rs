//! A small set of seats as a bit mask: who must act now, who won.

use crate::Seat;
use serde::{Deserialize, Serialize};

/// A set of up to 32 seats. Copy, allocation-free, ordered by seat number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Seat>", try_from = "Vec<Seat>")]
pub struct SeatSet(u32);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub const fn one(seat: Seat) -> Self {
        SeatSet(1 << seat.0)
    }

    pub const fn from_bits(bits: u32) -> Self {
        SeatSet(bits)
    }

    pub const fn bits(self) -> u32 {
        self.0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn contains(self, seat: Seat) -> bool {
        seat.0 < 32 && self.0 & (1 << seat.0) != 0
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// The lowest seat in the set.
    pub fn first(self) -> Option<Seat> {
        (self.0 != 0).then(|| Seat(self.0.trailing_zeros() as u8))
    }

    /// The `i`-th seat of the set in seat order (used to pick uniformly among the set).
    pub fn nth(self, i: usize) -> Option<Seat> {
        self.iter().nth(i)
    }

    pub fn iter(self) -> impl Iterator<Item = Seat> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let s = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Seat(s as u8))
        })
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut s = SeatSet::EMPTY;
        for seat in iter {
            s.insert(seat);
        }
        s
    }
}

impl From<SeatSet> for Vec<Seat> {
    fn from(s: SeatSet) -> Self {
        s.iter().collect()
    }
}

impl TryFrom<Vec<Seat>> for SeatSet {
    type Error = String;
    fn try_from(v: Vec<Seat>) -> Result<Self, String> {
        if let Some(bad) = v.iter().find(|s| s.0 >= 32) {
            return Err(format!("seat {} is out of range", bad.0));
        }
        Ok(v.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut s = SeatSet::EMPTY;
        s.insert(Seat(3));
        s.insert(Seat(0));
        s.insert(Seat(7));
        assert_eq!(s.len(), 3);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Seat(0), Seat(3), Seat(7)]);
        assert_eq!(s.nth(1), Some(Seat(3)));
        s.remove(Seat(3));
        assert!(!s.contains(Seat(3)));
        assert_eq!(s.first(), Some(Seat(0)));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, "[0,7]");
        assert_eq!(serde_json::from_str::<SeatSet>(&json).unwrap(), s);
        assert!(serde_json::from_str::<SeatSet>("[40]").is_err());
    }
}
