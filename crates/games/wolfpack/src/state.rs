//! The fight's state: the pilots, the Ace, both decks, the state machine's phase, the Action
//! queue and the EffectFile.

use crate::action::Choice;
use crate::card::{Card, Side};
use crate::config::Config;
use crate::effect::EffectFile;
use crate::phase::Phase;
use engine::flow::DecisionSerial;
use engine::{MatchRng, Seat};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pilot {
    pub health: i32,
    pub hand: Vec<Card>,
    /// Cards fewer to draw at the next Draw (discarding k cards costs k - 1).
    pub debt: u8,
    /// The choice being made in Selection: private to this pilot until Selection ends.
    pub choice: Option<Choice>,
    pub confirmed: bool,
}

impl Pilot {
    pub fn alive(&self) -> bool {
        self.health > 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ace {
    pub health: i32,
    pub hand: Vec<Card>,
    /// Selections still to make this BossSelection.
    pub picks_left: u8,
}

/// A deck: its draw pile (top = last) and its discard pile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    pub draw: Vec<Card>,
    pub discard: Vec<Card>,
}

/// A selected card waiting in the Action queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Queued {
    pub seat: Seat,
    pub card: Card,
    pub target: Option<Seat>,
}

/// A Wolf Pack fight. Seats `0..pilots` are pilots, seat `pilots` is the Ace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WolfPack {
    pub(crate) config: Config,
    pub(crate) pilots: Vec<Pilot>,
    pub(crate) ace: Ace,
    /// Index 0: the pilots' deck; 1: the Ace's.
    pub(crate) decks: [Deck; 2],
    pub(crate) phase: Phase,
    /// Counts from 1; a turn is the pilots' turn and the Ace's that follows.
    pub(crate) turn: u32,
    /// The Action queue: selected cards, next first. A plain Vec (see the crate docs).
    pub(crate) queue: Vec<Queued>,
    pub(crate) file: EffectFile,
    pub(crate) winner: Option<Side>,
    /// Numbers the decisions: bumped on entry to every waiting state (Selection, each
    /// BossSelection, Confirm, BossPhaseConfirm) and at the end of the fight.
    pub(crate) serial: DecisionSerial,
    pub(crate) rng: MatchRng,
}

impl WolfPack {
    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    pub fn pilot_count(&self) -> usize {
        self.pilots.len()
    }

    /// The Ace's seat: the last one.
    pub fn ace_seat(&self) -> Seat {
        Seat(self.pilots.len() as u8)
    }

    pub fn is_ace(&self, seat: Seat) -> bool {
        seat.index() == self.pilots.len()
    }

    pub fn side_of(&self, seat: Seat) -> Side {
        if self.is_ace(seat) { Side::Ace } else { Side::Pilots }
    }

    pub fn pilot(&self, seat: Seat) -> Option<&Pilot> {
        self.pilots.get(seat.index())
    }

    pub fn ace(&self) -> &Ace {
        &self.ace
    }

    pub fn effects(&self) -> &EffectFile {
        &self.file
    }

    pub fn queue(&self) -> &[Queued] {
        &self.queue
    }

    pub fn deck(&self, side: Side) -> &Deck {
        &self.decks[side as usize]
    }

    pub(crate) fn deck_mut(&mut self, side: Side) -> &mut Deck {
        &mut self.decks[side as usize]
    }

    /// Health of any seat (the Ace's included).
    pub fn health(&self, seat: Seat) -> i32 {
        self.pilot(seat).map_or(self.ace.health, |p| p.health)
    }

    pub fn alive(&self, seat: Seat) -> bool {
        self.health(seat) > 0
    }

    pub fn max_health(&self, seat: Seat) -> i32 {
        if self.is_ace(seat) { self.config.ace_health } else { self.config.pilot_health }
    }

    /// The living pilots, in seat order.
    pub fn living_pilots(&self) -> impl Iterator<Item = Seat> + '_ {
        self.pilots.iter().enumerate().filter(|(_, p)| p.alive()).map(|(i, _)| Seat(i as u8))
    }

    /// The host ("the server player"): the lowest living pilot confirms the turn handovers.
    pub fn host(&self) -> Option<Seat> {
        self.living_pilots().next()
    }

    /// Whether a living pilot still has to choose and confirm.
    #[inline]
    pub(crate) fn must_select(&self, p: &Pilot) -> bool {
        // `&` rather than `&&`: no branch on each condition (pilots' states are data the
        // branch predictor cannot guess).
        p.alive() & !p.confirmed & !p.hand.is_empty()
    }

    /// The pilots who still have to choose and confirm, as a bit set (bit i = seat i).
    #[inline]
    pub(crate) fn waiting_mask(&self) -> u32 {
        let mut m = 0;
        for (i, p) in self.pilots.iter().enumerate() {
            m |= u32::from(self.must_select(p)) << i;
        }
        m
    }
}
