//! What a seat may do ([`Action`]) and what happened ([`Event`]): closed serde enums. Hand
//! indices are 0-based.

use crate::cards::{Card, Side};
use crate::effect::{Effect, EffectId};
use crate::phase::{Phase, Transition};
use engine::Seat;
use serde::{Deserialize, Serialize};

/// A pilot's choice for the turn: a card and its target, or discard-instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Choice {
    Play {
        card: u8,
        target: Option<Seat>,
    },
    /// `cards` is a bit mask over hand indices (bit i = card i); never empty.
    Discard {
        cards: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Action {
    /// Pilot, in Selection: choose card `card` of the hand aimed at `target` (replacing any
    /// earlier choice); with `confirm` it is locked in at once.
    Select { card: u8, target: Option<Seat>, confirm: bool },
    /// Pilot, in Selection: discard the cards of the mask instead of playing.
    Discard { cards: u8, confirm: bool },
    /// Pilot, in Selection: lock in the current choice.
    Confirm,
    /// The Ace, in BossSelection: pick card `card` of its hand aimed at `target`.
    Play { card: u8, target: Option<Seat> },
    /// The Ace, in BossSelection, with no playable card.
    Pass,
    /// The lead pilot (the lowest seat still flying: [`crate::WolfPack::host`]), in Confirm or
    /// BossPhaseConfirm: hand the turn over.
    Proceed,
}

impl Action {
    /// Whether the action settles something: everything but a Selection choice left
    /// unconfirmed (which only changes the pilot's own pending choice, and leaves it to act
    /// again). A search considers only these, so it neither spends moves nor wanders on them.
    pub fn commits(&self) -> bool {
        !matches!(self, Action::Select { confirm: false, .. } | Action::Discard { confirm: false, .. })
    }
}

/// A pilot's choice once selections are revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Revealed {
    Play { card: Card, target: Option<Seat> },
    Discard { count: u8 },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Event {
    /// The state machine took a transition (its Enter hook has run; its Exit hook follows).
    Transition {
        transition: Transition,
        phase: Phase,
        turn: u32,
    },
    /// `card` is `None` for viewers who may not see it (the Ace's draws, for pilots).
    Drew {
        seat: Seat,
        card: Option<Card>,
    },
    /// A deck's discard pile became its draw pile.
    Reshuffled {
        side: Side,
        cards: u32,
    },
    /// A pilot changed its (still private) choice: only that pilot learns what it is.
    Chose {
        seat: Seat,
        choice: Option<Choice>,
    },
    /// A pilot locked in its choice: everyone learns that, not what.
    Confirmed {
        seat: Seat,
    },
    /// Selection ended: each pilot's choice, in seat order.
    Revealed {
        seat: Seat,
        choice: Revealed,
    },
    /// A card discarded instead of a play, revealed with the selections.
    Discarded {
        seat: Seat,
        card: Card,
    },
    /// The Ace picked its `index`-th card of the turn (hidden from pilots until BossAction).
    AcePicked {
        index: u8,
        card: Option<Card>,
        target: Option<Seat>,
    },
    /// The Ace had no playable card for one of its selections.
    AcePassed,
    /// A selected card begins to resolve.
    Resolving {
        seat: Seat,
        card: Card,
        target: Option<Seat>,
    },
    /// The card did nothing: its target was shot down first, or its user was.
    Fizzled {
        seat: Seat,
        card: Card,
    },
    Damaged {
        seat: Seat,
        amount: i32,
        source: Card,
        health: i32,
    },
    /// A hit that a Dodge Roll negated.
    Negated {
        seat: Seat,
        source: Card,
        by: EffectId,
    },
    Healed {
        seat: Seat,
        amount: i32,
        health: i32,
    },
    /// Sweeping Fire passed over a pilot protected by Pulling G's.
    Spared {
        seat: Seat,
        by: EffectId,
    },
    EffectPlaced {
        effect: Effect,
    },
    /// Suppression's counters after a tick or a turn.
    EffectCounted {
        effect: Effect,
    },
    EffectCompleted {
        id: EffectId,
    },
    /// The Ace plays this many cards this turn (Cover Fire lowers it).
    AcePlays {
        count: u8,
    },
    ShotDown {
        seat: Seat,
    },
    /// The lead pilot (the rules' host) handed the turn over.
    Proceeded {
        seat: Seat,
    },
    FightOver {
        winner: Side,
    },
}
