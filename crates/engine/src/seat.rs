//! Seats and viewers: who sits at the table and who is looking at it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A place at the table, numbered from 0 in seating (join) order.
///
/// A seat is a number, not a name: usernames belong to the server, the rules only know seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every seat of a table with `n` seats, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..n as u8).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Someone looking at the table: a seated player, or a spectator who sees only public facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Viewer {
    Seat { seat: Seat },
    Spectator,
}

impl Viewer {
    pub const fn seat(seat: Seat) -> Self {
        Viewer::Seat { seat }
    }

    /// The seat of this viewer, if seated.
    pub const fn as_seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat { seat } => Some(seat),
            Viewer::Spectator => None,
        }
    }

    /// Whether this viewer may see what is private to `seat`.
    pub fn is(self, seat: Seat) -> bool {
        self.as_seat() == Some(seat)
    }

    /// The seats of an `n`-seat table followed by the spectator: every distinct point of view.
    pub fn all(n: usize) -> impl Iterator<Item = Viewer> {
        Seat::all(n).map(Viewer::seat).chain(std::iter::once(Viewer::Spectator))
    }
}
