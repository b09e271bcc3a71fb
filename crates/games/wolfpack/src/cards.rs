//! The cards, as data: who may hold each one, what it aims at, and its text.

use serde::{Deserialize, Serialize};

/// The two sides of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Pilots,
    Ace,
}

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::Pilots => Side::Ace,
            Side::Ace => Side::Pilots,
        }
    }
}

/// What a card is aimed at (rules decision 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Aim {
    /// One member of the other side (no friendly fire).
    Enemy,
    /// One member of one's own side, oneself included.
    Friend,
    /// No target.
    Untargeted,
}

/// A card. Every card has an effect ([`crate::effect`]); the ones that last are filed in the
/// EffectFile, the others resolve and complete at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Card {
    OpenFire,
    Sidewinder,
    DodgeRoll,
    Suppression,
    PullingGs,
    MidAirRegroup,
    CoverFire,
    IntoTheFog,
    AirToAirBarrage,
    SweepingFire,
}

/// One row of the card table.
#[derive(Clone, Copy, Debug)]
pub struct CardDef {
    pub name: &'static str,
    pub aim: Aim,
    pub pilots: bool,
    pub ace: bool,
    /// Direct damage when it resolves (to its target, or to each pilot for Sweeping Fire).
    pub damage: i32,
    pub text: &'static str,
}

const fn def(name: &'static str, aim: Aim, pilots: bool, ace: bool, damage: i32, text: &'static str) -> CardDef {
    CardDef { name, aim, pilots, ace, damage, text }
}

/// The table, in `Card` order.
const DEFS: [CardDef; Card::COUNT] = [
    def("Open Fire", Aim::Enemy, true, true, 5, "5 damage to target."),
    def(
        "Sidewinder",
        Aim::Enemy,
        true,
        true,
        5,
        "5 damage to target; cannot be negated (Dodge Roll does not stop it).",
    ),
    def(
        "Dodge Roll",
        Aim::Friend,
        true,
        true,
        0,
        "Target: negate the damage of the next 1 Open Fire or Sweeping Fire that targets it during the next opposing turn.",
    ),
    def(
        "Suppression",
        Aim::Enemy,
        true,
        true,
        0,
        "Target takes 2 damage on each of its next 4 actions; expires after 2 of the target's turns.",
    ),
    def("Pulling G's", Aim::Enemy, true, true, 0, "Target cannot target you on its next turn."),
    def("Mid-Air Regroup", Aim::Friend, true, false, 0, "Target pilot heals 10, up to 50."),
    def("Cover Fire", Aim::Untargeted, true, false, 0, "The Ace plays one card fewer on its next turn."),
    def(
        "Into the Fog",
        Aim::Untargeted,
        false,
        true,
        0,
        "On the pilots' next turn pilots cannot target each other (Mid-Air Regroup and Dodge Roll only the user).",
    ),
    def("Air-to-Air Barrage", Aim::Enemy, false, true, 10, "10 damage to target pilot."),
    def("Sweeping Fire", Aim::Untargeted, false, true, 5, "5 damage to each pilot (not one protected by Pulling G's)."),
];

impl Card {
    pub const COUNT: usize = 10;

    pub const ALL: [Card; Card::COUNT] = [
        Card::OpenFire,
        Card::Sidewinder,
        Card::DodgeRoll,
        Card::Suppression,
        Card::PullingGs,
        Card::MidAirRegroup,
        Card::CoverFire,
        Card::IntoTheFog,
        Card::AirToAirBarrage,
        Card::SweepingFire,
    ];

    pub const fn def(self) -> &'static CardDef {
        &DEFS[self as usize]
    }

    pub const fn name(self) -> &'static str {
        self.def().name
    }

    pub const fn aim(self) -> Aim {
        self.def().aim
    }

    /// The card's text for any table ([`Card::text_at`] names the numbers of one table).
    pub const fn text(self) -> &'static str {
        self.def().text
    }

    /// The card's text at a table where the Ace plays `ace_plays` cards a turn (the Ace's plays
    /// scale with the pilot count): Cover Fire says how many it leaves the Ace; every other
    /// card reads as [`Card::text`].
    pub fn text_at(self, ace_plays: u8) -> std::borrow::Cow<'static, str> {
        match (self, ace_plays) {
            (Card::CoverFire, 0 | 1) => "The Ace plays no card on its next turn (one fewer than its 1).".into(),
            (Card::CoverFire, n) => {
                format!("The Ace plays one card fewer ({} instead of {n}) on its next turn.", n - 1).into()
            }
            _ => self.text().into(),
        }
    }

    /// Whether `side`'s deck may hold this card.
    pub const fn allowed_for(self, side: Side) -> bool {
        match side {
            Side::Pilots => self.def().pilots,
            Side::Ace => self.def().ace,
        }
    }

    /// Whether Dodge Roll negates this card's damage.
    pub const fn dodgeable(self) -> bool {
        matches!(self, Card::OpenFire | Card::SweepingFire)
    }

    /// Whether the card leaves an effect in the EffectFile after it resolves.
    pub const fn lasting(self) -> bool {
        matches!(self, Card::DodgeRoll | Card::Suppression | Card::PullingGs | Card::CoverFire | Card::IntoTheFog)
    }

    /// Parses a name as written in the table or the variant name, case and punctuation
    /// ignored ("open fire", "OpenFire", "pulling gs").
    pub fn parse(s: &str) -> Option<Card> {
        let norm = |t: &str| t.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        let want = norm(s);
        Card::ALL.into_iter().find(|c| norm(c.name()) == want || norm(&format!("{c:?}")) == want)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_card_order() {
        for (i, c) in Card::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
        assert_eq!(Card::parse("pulling g's"), Some(Card::PullingGs));
        assert_eq!(Card::parse("AirToAirBarrage"), Some(Card::AirToAirBarrage));
        assert_eq!(Card::parse("nope"), None);
    }

    #[test]
    fn cover_fire_names_the_counts_of_each_table() {
        for (plays, text) in [
            (1, "The Ace plays no card on its next turn (one fewer than its 1)."),
            (2, "The Ace plays one card fewer (1 instead of 2) on its next turn."),
            (3, "The Ace plays one card fewer (2 instead of 3) on its next turn."),
        ] {
            assert_eq!(Card::CoverFire.text_at(plays), text);
        }
        assert_eq!(Card::OpenFire.text_at(1), Card::OpenFire.text());
    }
}
