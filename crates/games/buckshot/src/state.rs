//! The match state. Fixed-size arrays (at most 8 seats) keep it `Clone` without allocation,
//! which is what random playouts and search bots clone all day.

use crate::{Chamber, Items};
use engine::{MatchRng, Seat};
use serde::{Deserialize, Serialize};

pub const MAX_SEATS: usize = 8;
pub const MAX_LIVES: u8 = 5;
pub const ITEMS_PER_ROUND: u8 = 4;

/// Where a Quickshot stands in the current turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Quickshot {
    /// No Quickshot this turn.
    #[default]
    Off,
    /// Used; the first shot has not been fired yet.
    Armed,
    /// The first shot is done: the user must now fire the second (nothing else is allowed).
    Second,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Buckshot {
    pub(crate) n: u8,
    pub(crate) lives: [u8; MAX_SEATS],
    /// Bit per seat: that seat has lives. Kept beside `lives` because every move asks (legal
    /// lists, checks, turn order); `invariants` checks that the two agree.
    pub(crate) alive: u8,
    pub(crate) items: [Items; MAX_SEATS],
    /// Bit per seat: a Skip is pending on that seat.
    pub(crate) skipped: u8,
    /// Bit per seat: that seat has checked the next shell (it is `chamber.peek()`). Cleared
    /// whenever a shell leaves the chamber or the chamber is reshuffled.
    pub(crate) knows: u8,
    pub(crate) round: u32,
    pub(crate) turn: u32,
    pub(crate) current: Seat,
    pub(crate) chamber: Chamber,
    /// Whether a shell has been fired this round; the Rebalancer window closes with the first.
    pub(crate) fired: bool,
    pub(crate) double_damage: bool,
    pub(crate) quickshot: Quickshot,
    pub(crate) winner: Option<Seat>,
    /// Items dealt this round and items used or discarded since: held = dealt - spent.
    pub(crate) dealt: u32,
    pub(crate) spent: u32,
    pub(crate) rng: MatchRng,
}

impl Buckshot {
    pub fn players(&self) -> usize {
        usize::from(self.n)
    }

    pub fn lives(&self, seat: Seat) -> u8 {
        self.lives[seat.index()]
    }

    pub fn items(&self, seat: Seat) -> Items {
        self.items[seat.index()]
    }

    pub fn is_alive(&self, seat: Seat) -> bool {
        // Any seat number may come from outside: 8 and up are never alive (their bits of the
        // widened mask are 0; past 63, `checked_shr` gives none). No branch: asked several
        // times a move.
        u64::from(self.alive).checked_shr(u32::from(seat.0)).unwrap_or(0) & 1 == 1
    }

    pub fn is_skipped(&self, seat: Seat) -> bool {
        self.skipped & bit(seat) != 0
    }

    pub fn knows_next(&self, seat: Seat) -> bool {
        self.knows & bit(seat) != 0
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    /// Turns taken since the start (an extra turn after a blank at self counts).
    pub fn turn_count(&self) -> u32 {
        self.turn
    }

    /// Whose turn it is (meaningless once the game is over).
    pub fn current(&self) -> Seat {
        self.current
    }

    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }

    pub fn live_left(&self) -> u8 {
        self.chamber.live()
    }

    pub fn blank_left(&self) -> u8 {
        self.chamber.blank()
    }

    pub fn rebalancer_window(&self) -> bool {
        !self.fired & self.winner.is_none()
    }

    pub fn double_damage(&self) -> bool {
        self.double_damage
    }

    pub fn quickshot(&self) -> Quickshot {
        self.quickshot
    }

    pub fn alive_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::all(self.players()).filter(|s| self.is_alive(*s))
    }

    pub(crate) fn alive_count(&self) -> usize {
        self.alive_mask().count_ones() as usize
    }

    /// Bit per seat: that seat is alive.
    pub(crate) fn alive_mask(&self) -> u8 {
        self.alive
    }

    /// The seat whose turn comes after the current one if nothing else happens: the next living
    /// seat in order, passing over those with a pending skip.
    pub fn next_turn(&self) -> Option<Seat> {
        if self.winner.is_some() {
            return None;
        }
        let next = crate::mask::next_after(self.alive_mask() & !self.skipped, self.current.0);
        Some(next.map_or(self.current, Seat))
    }
}

pub(crate) const fn bit(seat: Seat) -> u8 {
    1 << seat.0
}
