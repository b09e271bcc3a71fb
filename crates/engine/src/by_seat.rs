//! `BySeat<T>`: one value per seat, indexed by `Seat` rather than by a bare number.

use crate::Seat;
use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

/// One `T` per seat. Indexing with a `Seat` makes "whose is this" part of the type.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(Vec<T>);

impl<T> BySeat<T> {
    pub fn from_fn(n: usize, mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat(Seat::all(n).map(&mut f).collect())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> + Clone + use<T> {
        Seat::all(self.0.len())
    }

    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, t)| (Seat(i as u8), t))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Seat, &mut T)> {
        self.0.iter_mut().enumerate().map(|(i, t)| (Seat(i as u8), t))
    }

    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    pub fn map<U>(&self, mut f: impl FnMut(Seat, &T) -> U) -> BySeat<U> {
        BySeat(self.iter().map(|(s, t)| f(s, t)).collect())
    }

    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    pub fn into_vec(self) -> Vec<T> {
        self.0
    }
}

impl<T> From<Vec<T>> for BySeat<T> {
    fn from(v: Vec<T>) -> Self {
        BySeat(v)
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}
