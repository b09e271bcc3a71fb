//! The fight's state: the pilots, the Ace, both decks, the state machine's phase, the Action
//! queue and the EffectFile.

use crate::action::Choice;
use crate::cards::{Card, Side};
use crate::config::Config;
use crate::effect::EffectFile;
use crate::phase::Phase;
use engine::flow::DecisionSerial;
use engine::{MatchRng, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

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
///
/// Two bit sets are kept beside the state they summarise, because every move asks for them
/// (bit i = seat i): `living` (the pilots above 0 health) and `waiting` (in Selection, the
/// pilots who still have to choose and confirm; 0 in every other state). They are not stored:
/// reading a fight back works them out again (`WolfPackData`), and the invariants check them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "WolfPackData")]
pub struct WolfPack {
    pub(crate) config: Config,
    pub(crate) pilots: Vec<Pilot>,
    pub(crate) ace: Ace,
    /// Index 0: the pilots' deck; 1: the Ace's.
    pub(crate) decks: [Deck; 2],
    pub(crate) phase: Phase,
    /// Counts from 1; a turn is the pilots' turn and the Ace's that follows.
    pub(crate) turn: u32,
    /// The Action queue: selected cards, next first. A plain double-ended queue (see the crate
    /// docs): cards join at the back and resolve from the front.
    pub(crate) queue: VecDeque<Queued>,
    pub(crate) file: EffectFile,
    pub(crate) winner: Option<Side>,
    /// Numbers the decisions: bumped on entry to every waiting state (Selection, each
    /// BossSelection, Confirm, BossPhaseConfirm) and at the end of the fight.
    pub(crate) serial: DecisionSerial,
    pub(crate) rng: MatchRng,
    #[serde(skip)]
    pub(crate) living: u32,
    #[serde(skip)]
    pub(crate) waiting: u32,
}

/// [`WolfPack`] as stored (everything but the two bit sets).
#[derive(Deserialize)]
struct WolfPackData {
    config: Config,
    pilots: Vec<Pilot>,
    ace: Ace,
    decks: [Deck; 2],
    phase: Phase,
    turn: u32,
    queue: VecDeque<Queued>,
    file: EffectFile,
    winner: Option<Side>,
    serial: DecisionSerial,
    rng: MatchRng,
}

impl From<WolfPackData> for WolfPack {
    fn from(d: WolfPackData) -> WolfPack {
        let mut g = WolfPack {
            config: d.config,
            pilots: d.pilots,
            ace: d.ace,
            decks: d.decks,
            phase: d.phase,
            turn: d.turn,
            queue: d.queue,
            file: d.file,
            winner: d.winner,
            serial: d.serial,
            rng: d.rng,
            living: 0,
            waiting: 0,
        };
        g.resummarise();
        g
    }
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

    pub fn queue(&self) -> &VecDeque<Queued> {
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
        SeatSet::from_bits(self.living).iter()
    }

    /// The rules' host ("the server player"), who confirms the turn handovers: the lead pilot,
    /// the lowest seat still flying. Not the room's host: a decision of the rules page (who
    /// hands the turn over), so a fight's record (`seed + [(seat, action)]`) says who may
    /// proceed, a shot-down or departed room host blocks nothing, and the lead passes down the
    /// seats as pilots are shot down.
    pub fn host(&self) -> Option<Seat> {
        SeatSet::from_bits(self.living).first()
    }

    /// The living pilots as a bit set (bit i = seat i).
    #[inline]
    pub(crate) fn living_mask(&self) -> u32 {
        self.living
    }

    /// Works `living` and `waiting` out from the pilots (after setup, reading back, or any
    /// direct edit of the pilots).
    pub(crate) fn resummarise(&mut self) {
        self.living = self.count_living();
        self.waiting = if self.phase == Phase::Selection { self.count_waiting() } else { 0 };
    }

    /// The living pilots, counted (what `living` must hold).
    pub(crate) fn count_living(&self) -> u32 {
        let mut m = 0;
        for (i, p) in self.pilots.iter().enumerate() {
            m |= u32::from(p.alive()) << i;
        }
        m
    }

    /// Whether a living pilot still has to choose and confirm.
    #[inline]
    pub(crate) fn must_select(&self, p: &Pilot) -> bool {
        // `&` rather than `&&`: no branch on each condition (pilots' states are data the
        // branch predictor cannot guess).
        p.alive() & !p.confirmed & !p.hand.is_empty()
    }

    /// The pilots who still have to choose and confirm, as a bit set (bit i = seat i): in
    /// Selection, `waiting`.
    #[inline]
    pub(crate) fn waiting_mask(&self) -> u32 {
        self.waiting
    }

    /// The pilots who still have to choose and confirm, counted (what `waiting` must hold in
    /// Selection).
    pub(crate) fn count_waiting(&self) -> u32 {
        let mut m = 0;
        for (i, p) in self.pilots.iter().enumerate() {
            m |= u32::from(self.must_select(p)) << i;
        }
        m
    }
}
