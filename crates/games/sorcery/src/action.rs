//! What a player may do (`Action`) and what happened (`Event`): closed serde enums.
//!
//! Indices are 0-based here; the terminal interface and every error message count from 1, as
//! the spec does.

use crate::cards::CardId;
use engine::Seat;
use serde::{Deserialize, Serialize};

/// A card a spell, enchantment or ability is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Target {
    /// The `index`-th minion (0 = leftmost, oldest) of `player`.
    Minion { player: Seat, index: u8 },
    /// The ritual of `player`.
    Ritual { player: Seat },
}

impl Target {
    pub fn player(self) -> Seat {
        match self {
            Target::Minion { player, .. } | Target::Ritual { player } => player,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Action {
    /// End the turn.
    End,
    /// Minion `minion` attacks the opponent (`target: None`) or the opponent's minion.
    Attack { minion: u8, target: Option<u8> },
    /// Play card `card` of the hand, aimed at `target` if it needs one.
    Play { card: u8, target: Option<Target> },
    /// Minion `minion` uses its activated ability.
    Use { minion: u8, target: Option<Target> },
    /// Testing mode only: draw a card.
    Draw,
    /// Testing mode only: remove card `card` of the hand from the game.
    Discard { card: u8 },
}

/// A minion named in an event: whose it is and what card it is (its index may change as the
/// board closes up, so events do not rely on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MinionRef {
    pub player: Seat,
    pub card: CardId,
}

/// What a target turned out to be when the card was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum TargetRef {
    Minion { minion: MinionRef },
    Ritual { player: Seat, card: CardId },
}

/// Why the game ended without a winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawReason {
    /// The configured turn limit was reached.
    TurnLimit,
    /// Neither player has a minion in play or any way left to get one.
    NoDamagePossible,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Event {
    /// The turn's magic is already gained: `magic` is the new total.
    TurnStarted {
        player: Seat,
        turn: u32,
        magic: i32,
    },
    /// Magic from a ritual.
    MagicGained {
        player: Seat,
        amount: i32,
        magic: i32,
    },
    /// `card` is `None` for viewers who may not see it.
    CardDrawn {
        player: Seat,
        card: Option<CardId>,
    },
    CardPlayed {
        player: Seat,
        card: CardId,
        target: Option<TargetRef>,
        magic: i32,
    },
    AbilityUsed {
        minion: MinionRef,
        target: Option<TargetRef>,
        magic: i32,
    },
    MinionEntered {
        minion: MinionRef,
        attack: i32,
        defence: i32,
    },
    AttackedPlayer {
        minion: MinionRef,
        player: Seat,
        amount: i32,
        life: i32,
    },
    AttackedMinion {
        minion: MinionRef,
        target: MinionRef,
    },
    MinionDamaged {
        minion: MinionRef,
        amount: i32,
        attack: i32,
        defence: i32,
    },
    MinionBuffed {
        minion: MinionRef,
        attack: i32,
        defence: i32,
    },
    MinionDied {
        minion: MinionRef,
    },
    MinionReturned {
        minion: MinionRef,
    },
    MinionEnchanted {
        minion: MinionRef,
        enchantment: CardId,
        attack: i32,
        defence: i32,
    },
    /// Disenchant: `attack` and `defence` are the minion's values afterwards.
    EnchantmentRemoved {
        minion: MinionRef,
        enchantment: CardId,
        attack: i32,
        defence: i32,
    },
    RitualPlaced {
        player: Seat,
        card: CardId,
        replaced: Option<CardId>,
    },
    RitualDestroyed {
        player: Seat,
        card: CardId,
    },
    ChargesChanged {
        player: Seat,
        card: CardId,
        charges: i32,
    },
    Discarded {
        player: Seat,
        card: CardId,
    },
    TurnEnded {
        player: Seat,
    },
    GameWon {
        winner: Seat,
    },
    GameDrawn {
        reason: DrawReason,
    },
    Conceded {
        player: Seat,
    },
}
