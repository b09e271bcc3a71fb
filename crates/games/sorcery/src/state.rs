//! The match state: two players' zones, whose turn it is, and the effect queue (empty between
//! actions).

pub use crate::cards::Card;
// Kept here too: `state::Config` is a public path.
use crate::cards::{CardId, Kind, Modifier};
pub use crate::config::Config;
use crate::effect::Effect;
use engine::flow::EffectQueue;
use engine::{MatchRng, Seat};
use serde::{Deserialize, Serialize};

pub const HAND_SIZE: usize = 5;
pub const BOARD_SIZE: usize = 5;
pub const START_LIFE: i32 = 20;
pub const START_MAGIC: i32 = 3;

impl Config {
    /// The spec's game with no additions: no turn limit, no stalemate rule.
    pub fn terminal(decks: [Vec<CardId>; 2], testing: bool) -> Self {
        Config { decks, testing, turn_limit: None, draw_when_stuck: false }
    }
}

/// A minion on the board. `card` holds its own values (damage and permanent buffs included);
/// what it shows is those values with its enchantments applied oldest to newest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Minion {
    pub card: Card,
    /// Stable while on the board; effects name minions by uid because indices shift.
    pub uid: u32,
    pub actions: u8,
    /// Oldest first.
    pub enchantments: Vec<CardId>,
    /// Leaving play: its leave-play triggers are resolving. Never true between actions.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub leaving: bool,
}

impl Minion {
    fn modifiers(&self) -> impl Iterator<Item = Modifier> + '_ {
        self.enchantments.iter().filter_map(|e| e.def().modifier)
    }

    /// Current attack and defence: own values, then each enchantment oldest to newest.
    pub fn stats(&self) -> (i32, i32) {
        let (mut a, mut d) = (self.card.attack, self.card.defence);
        for m in self.modifiers() {
            match m {
                Modifier::Add(x, y) => (a, d) = (a + x, d + y),
                Modifier::Multiply(x, y) => (a, d) = (a * x, d * y),
                _ => {}
            }
        }
        (a, d)
    }

    pub fn attack(&self) -> i32 {
        self.stats().0
    }

    pub fn defence(&self) -> i32 {
        self.stats().1
    }

    /// The activated ability's cost with every Magic Fatigue added; `None` without one.
    pub fn ability_cost(&self) -> Option<i32> {
        let base = self.card.id.def().ability?.cost;
        Some(base + self.modifiers().map(|m| if let Modifier::AbilityCost(c) = m { c } else { 0 }).sum::<i32>())
    }

    pub fn silenced(&self) -> bool {
        self.modifiers().any(|m| m == Modifier::Silence)
    }

    /// Actions at the start of each of its owner's turns: 1, plus 1 per Haste.
    pub fn actions_per_turn(&self) -> u8 {
        1 + self.modifiers().filter(|m| *m == Modifier::ExtraAction).count() as u8
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ritual {
    pub id: CardId,
    pub charges: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub life: i32,
    pub magic: i32,
    /// Top of the deck is the *last* element (drawing pops).
    pub deck: Vec<Card>,
    pub hand: Vec<Card>,
    pub board: Vec<Minion>,
    pub ritual: Option<Ritual>,
    /// Top (most recently dead) is the last element.
    pub graveyard: Vec<Card>,
    /// Cards removed from the game: spells cast, enchantments stripped, rituals replaced or
    /// destroyed, cards discarded.
    pub removed: u32,
    /// Cards created by effects (summoned Air Elementals).
    pub created: u32,
    /// How many cards the deck started with (for the conservation check).
    pub initial: u32,
}

impl Player {
    /// Every card this player owns, wherever it is (enchantments counted on their minion).
    pub fn card_count(&self) -> u32 {
        let board: usize = self.board.iter().map(|m| 1 + m.enchantments.len()).sum();
        (self.deck.len() + self.hand.len() + board + self.graveyard.len()) as u32
            + u32::from(self.ritual.is_some())
            + self.removed
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Status {
    Playing,
    Won { winner: Seat },
    Drawn,
}

/// A match of Sorcery. Player 1 is `Seat(0)`, player 2 `Seat(1)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sorcery {
    pub(crate) testing: bool,
    pub(crate) turn_limit: Option<u32>,
    pub(crate) draw_when_stuck: bool,
    pub(crate) players: [Player; 2],
    pub(crate) active: Seat,
    pub(crate) turn: u32,
    pub(crate) status: Status,
    pub(crate) next_uid: u32,
    pub(crate) rng: MatchRng,
    /// Work still to do for the action being applied; always empty between actions.
    #[serde(skip)]
    pub(crate) queue: EffectQueue<Effect>,
}

impl Sorcery {
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn active(&self) -> Seat {
        self.active
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn testing(&self) -> bool {
        self.testing
    }

    /// The active player, then the other: the order of APNAP.
    pub(crate) fn apnap(&self) -> [Seat; 2] {
        [self.active, other(self.active)]
    }

    /// Where the minion with this uid is: (owner, index).
    pub(crate) fn find(&self, uid: u32) -> Option<(Seat, usize)> {
        for (p, player) in self.players.iter().enumerate() {
            if let Some(i) = player.board.iter().position(|m| m.uid == uid) {
                return Some((Seat(p as u8), i));
            }
        }
        None
    }

    pub(crate) fn minion(&self, uid: u32) -> Option<&Minion> {
        self.find(uid).map(|(s, i)| &self.player(s).board[i])
    }

    pub(crate) fn minion_mut(&mut self, uid: u32) -> Option<&mut Minion> {
        let (s, i) = self.find(uid)?;
        Some(&mut self.player_mut(s).board[i])
    }
}

/// The other seat of a two-player match.
pub fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

/// Whether a card can ever put a minion on the board (for the stalemate rule).
pub(crate) fn can_bring_minion(id: CardId) -> bool {
    id.kind() == Kind::Minion || id == CardId::RaiseDead
}
