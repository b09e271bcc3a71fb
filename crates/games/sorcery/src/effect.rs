//! What the effect queue holds: an [`Effect`] is one step of what follows a card played, an
//! ability used, an attack or a turn changing. The values only; they are worked to completion
//! in [`crate::queue`] (which sits above the match state, while the state, holding a queue
//! of these, sits above this file).

use crate::cards::{Card, TriggerEffect};
use engine::Seat;
use serde::{Deserialize, Serialize};

/// Where a minion goes when it leaves the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Zone {
    Graveyard,
    Hand,
}

/// Who carries a trigger that fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Minion { uid: u32 },
    Ritual { owner: Seat },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// Reduce a minion's defence.
    Damage { uid: u32, amount: i32 },
    /// A player loses life to an attack.
    HitPlayer { player: Seat, amount: i32 },
    /// A minion starts leaving play: its leave-play triggers go on the queue, then `Remove`.
    Leave { uid: u32, to: Zone },
    /// The minion actually leaves: enchantments removed from the game, card moved.
    Remove { uid: u32, to: Zone },
    /// A minion is placed on the board (played, summoned, raised); enter-play triggers follow.
    Enter { player: Seat, card: Card, created: bool },
    /// A triggered ability resolves. `subject` is the minion entering or leaving play, if any.
    Fire { source: Source, effect: TriggerEffect, subject: Option<u32> },
}
