//! Actions (what a seat may choose) and events (what happened), as closed serde enums.

use crate::cards::{Card, Colour};
use engine::Seat;
use serde::{Deserialize, Serialize};

/// A face-up card of a player, named for Outwit: a display card by position (0 = earliest),
/// or the Shield or Stunned lying in front of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Slot {
    Display { pos: u8 },
    Shield,
    Stunned,
}

/// Everything a seat can choose. Action cards carry every choice their player makes when
/// declaring them (§6.3 of the rules); choices made at resolution by others (Adapt) are their
/// own actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
// A plain tag byte: otherwise the tag hides in a field's niche and every match on an action
// (several per step) first decodes it.
#[repr(u8)]
pub enum Action {
    /// The starter's first play: name the tournament colour and add a card of that colour or
    /// a supporter.
    Start {
        colour: Colour,
        card: Card,
    },
    /// Add a coloured card or a supporter to one's display.
    Play {
        card: Card,
    },
    Unhorse {
        colour: Colour,
    },
    ChangeWeapon {
        colour: Colour,
    },
    DropWeapon,
    BreakLance {
        target: Seat,
    },
    Riposte {
        target: Seat,
    },
    Dodge {
        target: Seat,
        pos: u8,
    },
    Retreat {
        pos: u8,
    },
    KnockDown {
        target: Seat,
    },
    Outmaneuver,
    Charge,
    Countercharge,
    Disgrace,
    Adapt,
    Outwit {
        give: Slot,
        target: Seat,
        take: Slot,
    },
    Shield,
    Stunned {
        target: Seat,
    },
    /// End the turn: stay if a card was played and the display is strictly highest, else
    /// withdraw.
    EndTurn,
    /// In an Ivanhoe window: cancel the pending action card.
    Ivanhoe,
    /// In an Ivanhoe window: let the pending action card resolve.
    Pass,
    /// After Adapt: which card of the duplicated value to keep (its earliest copy stays).
    Keep {
        card: Card,
    },
    /// Withdrawing with a maiden: the token given back.
    ReturnToken {
        colour: Colour,
    },
    /// Winning a purple tournament: the token taken.
    ChooseToken {
        colour: Colour,
    },
}

impl Action {
    /// The action card this action plays, if any.
    pub const fn action_card(self) -> Option<Card> {
        Some(match self {
            Action::Unhorse { .. } => Card::Unhorse,
            Action::ChangeWeapon { .. } => Card::ChangeWeapon,
            Action::DropWeapon => Card::DropWeapon,
            Action::BreakLance { .. } => Card::BreakLance,
            Action::Riposte { .. } => Card::Riposte,
            Action::Dodge { .. } => Card::Dodge,
            Action::Retreat { .. } => Card::Retreat,
            Action::KnockDown { .. } => Card::KnockDown,
            Action::Outmaneuver => Card::Outmaneuver,
            Action::Charge => Card::Charge,
            Action::Countercharge => Card::Countercharge,
            Action::Disgrace => Card::Disgrace,
            Action::Adapt => Card::Adapt,
            Action::Outwit { .. } => Card::Outwit,
            Action::Shield => Card::Shield,
            Action::Stunned { .. } => Card::Stunned,
            _ => return None,
        })
    }

    /// The single opponent an action card names, if it names one.
    pub const fn target(self) -> Option<Seat> {
        match self {
            Action::BreakLance { target }
            | Action::Riposte { target }
            | Action::Dodge { target, .. }
            | Action::KnockDown { target }
            | Action::Outwit { target, .. }
            | Action::Stunned { target } => Some(target),
            _ => None,
        }
    }
}

/// What happened. Events carry hidden cards only for those who may see them:
/// `Ivanhoe::view_event` blanks `Drew` and `Took` for everyone else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Event {
    /// Who starts the first tournament, after the token draw (colours drawn in seat order
    /// from seat 0, until purple).
    FirstPlayer {
        seat: Seat,
        draws: Vec<Colour>,
    },
    /// `seat` drew a card (`None` for those who may not see it).
    Drew {
        seat: Seat,
        card: Option<Card>,
    },
    /// A draw was due but both piles were empty.
    NothingToDraw {
        seat: Seat,
    },
    /// The discard pile was shuffled into a new draw pile.
    Reshuffled {
        cards: u8,
    },
    /// The designated starter could not start: their hand is shown to everyone.
    CannotStart {
        seat: Seat,
        hand: Vec<Card>,
    },
    TournamentStarted {
        seat: Seat,
        colour: Colour,
    },
    /// A value card went from `seat`'s hand to their display.
    Played {
        seat: Seat,
        card: Card,
    },
    /// `seat` played an action card (with its choices); an Ivanhoe window may follow.
    Declared {
        seat: Seat,
        action: Action,
    },
    Passed {
        seat: Seat,
    },
    /// `seat` played Ivanhoe: the pending action card is cancelled.
    Cancelled {
        seat: Seat,
        card: Card,
    },
    ColourChanged {
        colour: Colour,
    },
    /// A card left `seat`'s display for the discard pile.
    Discarded {
        seat: Seat,
        card: Card,
    },
    /// Riposte: a card moved from one display to the end of another.
    Moved {
        from: Seat,
        to: Seat,
        card: Card,
    },
    /// Retreat: a display card went back to its owner's hand.
    Retreated {
        seat: Seat,
        card: Card,
    },
    /// Knock Down: `seat` took a random card from `from`'s hand (`None` for others).
    Took {
        seat: Seat,
        from: Seat,
        card: Option<Card>,
    },
    /// Outwit: `seat` gave `gave` to `target` and took `took`.
    Swapped {
        seat: Seat,
        target: Seat,
        gave: Card,
        took: Card,
    },
    /// Shield or Stunned now lies in front of `seat`.
    Placed {
        seat: Seat,
        card: Card,
    },
    /// Adapt: `seat` kept `card` for its value.
    Kept {
        seat: Seat,
        card: Card,
    },
    Stayed {
        seat: Seat,
    },
    Withdrew {
        seat: Seat,
    },
    /// The maiden penalty: a token went back to the supply.
    TokenReturned {
        seat: Seat,
        colour: Colour,
    },
    TournamentWon {
        seat: Seat,
        colour: Colour,
    },
    TokenGained {
        seat: Seat,
        colour: Colour,
    },
    GameWon {
        seat: Seat,
    },
    /// Nobody can start a tournament and nothing is left to draw: the game ends unwon.
    Stalled,
}
