//! Why the rules refuse an action: a small `Copy` value while `check` decides (`is_legal` and
//! the invariant suite try many illegal candidates, so nothing is formatted or allocated),
//! turned into an [`engine::RuleError`] — a stable code and the message the terminal prints —
//! only when it leaves the crate. Codes are on the wire and in the transcripts: never rename
//! one.

use crate::cards::CardId;
use engine::{RuleError, Seat};

/// What a refusal is about: a card, or a minion's activated ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum What {
    Card(CardId),
    Ability(CardId),
}

impl std::fmt::Display for What {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            What::Card(c) => f.write_str(c.name()),
            What::Ability(c) => write!(f, "{}'s ability", c.name()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    GameOver,
    NotYourTurn,
    NotEnoughMagic {
        what: What,
        cost: i32,
        magic: i32,
    },
    /// Your minion `i` (0-based) does not exist.
    NoSuchMinion(u8),
    TakesNoTarget(What),
    NeedsTarget(What),
    NoSuchPlayer,
    NoSuchMinionTarget {
        player: Seat,
        index: u8,
    },
    NoRitualTarget(Seat),
    MinionOnly(What),
    NoActions(CardId),
    /// Card `i` (0-based) is not in your hand.
    NoSuchCard(u8),
    BoardFull,
    NoRitual(CardId),
    GraveyardEmpty,
    NoEnchantment,
    OtherHandFull(Seat),
    NoAbility(CardId),
    Silenced(CardId),
    DrawTestingOnly,
    DiscardTestingOnly,
    HandFull,
    DeckEmpty,
}

impl Refusal {
    /// The stable code (`not_enough_magic`, `board_full`, ...).
    pub(crate) fn code(self) -> &'static str {
        match self {
            Refusal::GameOver => "game_over",
            Refusal::NotYourTurn => "not_your_turn",
            Refusal::NotEnoughMagic { .. } => "not_enough_magic",
            Refusal::NoSuchMinion(_) => "no_such_minion",
            Refusal::TakesNoTarget(_) => "takes_no_target",
            Refusal::NeedsTarget(_) => "needs_target",
            Refusal::NoSuchPlayer => "no_such_player",
            Refusal::NoSuchMinionTarget { .. } | Refusal::NoRitualTarget(_) => "no_such_target",
            Refusal::MinionOnly(_) => "bad_target",
            Refusal::NoActions(_) => "no_actions",
            Refusal::NoSuchCard(_) => "no_such_card",
            Refusal::BoardFull => "board_full",
            Refusal::NoRitual(_) => "no_ritual",
            Refusal::GraveyardEmpty => "graveyard_empty",
            Refusal::NoEnchantment => "no_enchantment",
            Refusal::OtherHandFull(_) | Refusal::HandFull => "hand_full",
            Refusal::NoAbility(_) => "no_ability",
            Refusal::Silenced(_) => "silenced",
            Refusal::DrawTestingOnly | Refusal::DiscardTestingOnly => "testing_only",
            Refusal::DeckEmpty => "deck_empty",
        }
    }

    /// The sentence the terminal prints.
    pub(crate) fn message(self) -> String {
        match self {
            Refusal::GameOver | Refusal::NotYourTurn => RuleError::from(self).message.into_owned(),
            Refusal::NotEnoughMagic { what, cost, magic } => {
                format!("{what} costs {cost} magic, but you have only {magic}.")
            }
            Refusal::NoSuchMinion(i) => format!("You have no minion {}.", usize::from(i) + 1),
            Refusal::TakesNoTarget(what) => format!("{what} does not take a target."),
            Refusal::NeedsTarget(what) => format!("{what} needs a target."),
            Refusal::NoSuchPlayer => "There are only players 1 and 2.".into(),
            Refusal::NoSuchMinionTarget { player, index } => {
                format!("Player {} has no minion {}.", player.0 + 1, usize::from(index) + 1)
            }
            Refusal::NoRitualTarget(player) => format!("Player {} has no ritual.", player.0 + 1),
            Refusal::MinionOnly(what) => format!("{what} must target a minion, not a ritual."),
            Refusal::NoActions(card) => format!("{} has no actions left this turn.", card.name()),
            Refusal::NoSuchCard(i) => format!("You have no card {} in your hand.", usize::from(i) + 1),
            Refusal::BoardFull => "Your board is full (5 minions).".into(),
            Refusal::NoRitual(card) => format!("{} needs a ritual of yours in play.", card.name()),
            Refusal::GraveyardEmpty => "Your graveyard is empty.".into(),
            Refusal::NoEnchantment => "That minion has no enchantment.".into(),
            Refusal::OtherHandFull(player) => format!("Player {}'s hand is full.", player.0 + 1),
            Refusal::NoAbility(card) => format!("{} has no activated ability.", card.name()),
            Refusal::Silenced(card) => format!("{} is silenced and cannot use abilities.", card.name()),
            Refusal::DrawTestingOnly => "draw is only available in testing mode (-testing).".into(),
            Refusal::DiscardTestingOnly => "discard is only available in testing mode (-testing).".into(),
            Refusal::HandFull => "Your hand is full.".into(),
            Refusal::DeckEmpty => "Your deck is empty.".into(),
        }
    }
}

impl From<Refusal> for RuleError {
    fn from(r: Refusal) -> RuleError {
        match r {
            Refusal::GameOver => RuleError::game_over(),
            Refusal::NotYourTurn => RuleError::not_your_turn(),
            _ => RuleError::new(r.code(), r.message()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wire codes and the terminal's sentences, pinned.
    #[test]
    fn codes_and_messages_are_stable() {
        let cases = [
            (Refusal::NotYourTurn, "not_your_turn", "it is not your turn"),
            (
                Refusal::NotEnoughMagic { what: What::Ability(CardId::NovicePyromancer), cost: 1, magic: 0 },
                "not_enough_magic",
                "Novice Pyromancer's ability costs 1 magic, but you have only 0.",
            ),
            (Refusal::NeedsTarget(What::Card(CardId::Banish)), "needs_target", "Banish needs a target."),
            (Refusal::NoSuchMinionTarget { player: Seat(1), index: 4 }, "no_such_target", "Player 2 has no minion 5."),
            (Refusal::OtherHandFull(Seat(0)), "hand_full", "Player 1's hand is full."),
            (Refusal::HandFull, "hand_full", "Your hand is full."),
            (Refusal::DiscardTestingOnly, "testing_only", "discard is only available in testing mode (-testing)."),
        ];
        for (r, code, message) in cases {
            let e = RuleError::from(r);
            assert_eq!((r.code(), e.code, e.message.as_ref()), (code, code, message));
        }
    }
}
