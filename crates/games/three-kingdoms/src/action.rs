//! Actions (what a seat may do) and events (what happened). Both are closed serde enums.

use crate::cards::{CardId, Colour, Kind, Slot, Suit};
use crate::config::Role;
use crate::generals::{General, Skill};
use engine::Seat;
use serde::{Deserialize, Serialize};

/// Up to three seats, in order: the targets of a card (Borrowed Sword: wielder then victim;
/// Sky Piercing Halberd: up to three Attack targets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Seat>", try_from = "Vec<Seat>")]
pub struct Targets {
    len: u8,
    seats: [u8; 3],
}

impl Targets {
    pub const NONE: Targets = Targets { len: 0, seats: [0; 3] };
    pub const fn one(s: Seat) -> Self {
        Targets { len: 1, seats: [s.0, 0, 0] }
    }
    pub const fn two(a: Seat, b: Seat) -> Self {
        Targets { len: 2, seats: [a.0, b.0, 0] }
    }
    pub fn push(&mut self, s: Seat) {
        self.seats[self.len as usize] = s.0;
        self.len += 1;
    }
    pub const fn len(&self) -> usize {
        self.len as usize
    }
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn get(&self, i: usize) -> Option<Seat> {
        (i < self.len as usize).then(|| Seat(self.seats[i]))
    }
    pub fn first(&self) -> Option<Seat> {
        self.get(0)
    }
    pub fn iter(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats[..self.len as usize].iter().map(|&s| Seat(s))
    }
    pub fn contains(&self, s: Seat) -> bool {
        self.iter().any(|t| t == s)
    }
}

impl From<Targets> for Vec<Seat> {
    fn from(t: Targets) -> Self {
        t.iter().collect()
    }
}

impl TryFrom<Vec<Seat>> for Targets {
    type Error = String;
    fn try_from(v: Vec<Seat>) -> Result<Self, String> {
        if v.len() > 3 {
            return Err("at most 3 targets".into());
        }
        let mut t = Targets::NONE;
        for s in v {
            t.push(s);
        }
        Ok(t)
    }
}

/// A card as it is used or played: its kind, and the physical card(s) behind it (none for a
/// card an effect supplies, such as Eight Trigrams' Dodge; two for Serpent Spear).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Used {
    pub kind: Kind,
    pub cards: [Option<CardId>; 2],
}

impl Used {
    pub const fn virtual_card(kind: Kind) -> Self {
        Used { kind, cards: [None, None] }
    }
    pub const fn one(kind: Kind, card: CardId) -> Self {
        Used { kind, cards: [Some(card), None] }
    }
    pub const fn two(kind: Kind, a: CardId, b: CardId) -> Self {
        Used { kind, cards: [Some(a), Some(b)] }
    }
    pub fn physical(&self) -> impl Iterator<Item = CardId> + '_ {
        self.cards.iter().flatten().copied()
    }
    /// Rules §5.2: one card keeps its colour; two cards are red or black only if both are.
    pub fn colour(&self) -> Colour {
        match self.cards {
            [Some(a), None] => {
                if a.is_red() {
                    Colour::Red
                } else {
                    Colour::Black
                }
            }
            [Some(a), Some(b)] if a.is_red() && b.is_red() => Colour::Red,
            [Some(a), Some(b)] if !a.is_red() && !b.is_red() => Colour::Black,
            _ => Colour::None,
        }
    }
    /// The suit of a one-card use (none for virtual and two-card cards).
    pub fn suit(&self) -> Option<Suit> {
        match self.cards {
            [Some(a), None] => Some(a.suit()),
            _ => None,
        }
    }
}

/// Where a card is taken from when a player picks one of another player's cards. A hand card
/// is picked blind by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Zone {
    Hand(u8),
    Equip(Slot),
    Judge(u8),
}

/// Named options of two-way choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Choice {
    /// Unyielding: take 1 damage rather than discard 2 hand cards.
    TakeDamage,
    /// Unyielding: discard 2 hand cards.
    DiscardTwo,
    /// Yin-Yang Swords: let the wielder draw 1 rather than discard.
    LetDraw,
    /// Triumphant: recover 1 HP.
    Recover,
    /// Triumphant: draw 1 card.
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Action {
    /// Setup: pick a general from the offered candidates.
    ChooseGeneral {
        general: General,
    },
    /// Play phase: use a hand card (or an equipped card through a conversion skill) as `kind`.
    Use {
        card: CardId,
        kind: Kind,
        targets: Targets,
    },
    /// Play phase: two hand cards as one Attack (Serpent Spear).
    UseSpear {
        cards: [CardId; 2],
        targets: Targets,
    },
    /// Play phase, Lord Liu Bei: ask the Shu generals for an Attack to use on `targets`.
    Rouse {
        targets: Targets,
    },
    /// Play phase skills.
    Benevolence {
        card: CardId,
        to: Seat,
    },
    Balance,
    TrojanFlesh,
    SowDissension {
        target: Seat,
    },
    Marriage {
        cards: [CardId; 2],
        target: Seat,
    },
    GreenSalve {
        card: CardId,
        target: Seat,
    },
    /// Seed of Animosity: `second` is treated as using a Duel on `first`.
    SeedOfAnimosity {
        card: CardId,
        first: Seat,
        second: Seat,
    },
    EndPlay,
    /// Answer a request (Dodge, Attack, Peach, Negate, a judgement replacement) with a card.
    Respond {
        card: CardId,
        kind: Kind,
    },
    RespondSpear {
        cards: [CardId; 2],
    },
    /// Answer a Dodge request with the Eight Trigrams judgement.
    EightTrigrams,
    /// Lord Cao Cao (Entourage) / Lord Liu Bei (Rouse): ask the helpers.
    AskHelpers,
    /// Decline (the timeout answer of every window).
    Pass,
    /// Answer an optional trigger.
    Confirm {
        yes: bool,
    },
    Pick {
        zone: Zone,
    },
    Discard {
        card: CardId,
    },
    Choose {
        choice: Choice,
    },
    NameSuit {
        suit: Suit,
    },
    /// Bumper Harvest: take one of the revealed cards.
    Take {
        card: CardId,
    },
    /// Stargaze: put the next card on top or at the bottom.
    Place {
        card: CardId,
        top: bool,
    },
    /// Bequeathed Strategy: give a looked-at card.
    Give {
        card: CardId,
        to: Seat,
    },
    /// Displacement: discard `card` and move the Attack to `to`.
    Displace {
        card: CardId,
        to: Seat,
    },
    /// Draw phase choices.
    DrawNormally,
    Raid {
        targets: Targets,
    },
    BareChested,
    /// Finish a multi-card selection (Balance of Power).
    Done,
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    LordAndLoyalists,
    Rebels,
    Spy(Seat),
    /// Both piles ran out (an implementation choice, rules §3): nobody wins.
    Nobody,
}

/// What a judgement is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JudgeFor {
    Card(Kind),
    Skill(Skill),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Event {
    /// The roles are dealt; the Lord's is public.
    RolesDealt {
        lord: Seat,
    },
    GeneralChosen {
        seat: Seat,
        general: General,
        hp: i8,
    },
    /// The starting hand (cards empty for other viewers).
    Dealt {
        seat: Seat,
        cards: Vec<CardId>,
        count: u8,
    },
    TurnStarted {
        seat: Seat,
        turn: u32,
    },
    PlaySkipped {
        seat: Seat,
    },
    DiscardSkipped {
        seat: Seat,
    },
    Drew {
        seat: Seat,
        cards: Vec<CardId>,
        count: u8,
        hand: u8,
    },
    Equipped {
        seat: Seat,
        card: CardId,
    },
    /// A card used with its targets (Attack, tools, Peach, Negate; delayed tools placed).
    UsedCard {
        seat: Seat,
        used: Used,
        targets: Targets,
    },
    /// A card played in answer to a request (Dodge, Attack for Barbarians or a Duel, ...).
    Played {
        seat: Seat,
        used: Used,
        hand: u8,
    },
    /// The player did not answer a request for `kind`.
    NoAnswer {
        seat: Seat,
        kind: Kind,
    },
    Judged {
        seat: Seat,
        card: CardId,
        reason: JudgeFor,
    },
    JudgementReplaced {
        by: Seat,
        card: CardId,
    },
    Damaged {
        seat: Seat,
        source: Option<Seat>,
        amount: i8,
        hp: i8,
    },
    LostHp {
        seat: Seat,
        hp: i8,
    },
    Recovered {
        seat: Seat,
        amount: i8,
        hp: i8,
    },
    Dying {
        seat: Seat,
        hp: i8,
    },
    Died {
        seat: Seat,
        role: Role,
        killer: Option<Seat>,
    },
    /// Cards go face up to the discard pile from a player's hand or areas.
    Discarded {
        seat: Seat,
        cards: Vec<CardId>,
        hand: u8,
        /// The seat's HP (the seed's log prints it).
        hp: i8,
    },
    /// A card moves between players (`card` is None for viewers who may not see it).
    Moved {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
        public: bool,
    },
    /// A face-up card (judgement, used card, revealed card) goes into a hand.
    Gained {
        seat: Seat,
        card: CardId,
    },
    SkillUsed {
        seat: Seat,
        skill: Skill,
    },
    /// An effect did nothing (Renwang Shield, a Negate chain, Empty City...).
    Nullified {
        seat: Seat,
        kind: Kind,
    },
    /// An equipment effect takes place (a weapon's ability, an armour's protection).
    Equipment {
        seat: Seat,
        kind: Kind,
        target: Option<Seat>,
    },
    LightningMoved {
        from: Seat,
        to: Seat,
    },
    HarvestRevealed {
        cards: Vec<CardId>,
    },
    NamedSuit {
        seat: Seat,
        suit: Suit,
    },
    /// Looked-at cards (Stargaze, Bequeathed Strategy): shown to the seat only.
    Looked {
        seat: Seat,
        cards: Vec<CardId>,
    },
    /// A Rebel's killer draws 3.
    Reward {
        seat: Seat,
        victim: Seat,
    },
    /// The Lord killed a Loyalist and discards everything.
    Penalty {
        seat: Seat,
        victim: Seat,
    },
    Reshuffled {
        cards: u8,
    },
    /// Seed mode (`spy_reveal`): the Lord was attacked and the risk level rose to `level`.
    RiskLevel {
        level: u16,
    },
    /// Seed mode (`spy_reveal`): a Spy turns its role face up and plays against the Lord.
    SpyRevealed {
        seat: Seat,
    },
    GameOver {
        winners: Side,
        /// Every seat's role, revealed.
        roles: Vec<(Seat, Role)>,
        /// Who is still alive.
        alive: engine::SeatSet,
    },
}
