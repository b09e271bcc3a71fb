//! How a fight is set up: the number of pilots, the Ace's tier and strength, and both decks'
//! card counts — all data, so balance work tunes numbers, not code.

use crate::cards::{Card, Side};
use engine::SetupError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const MAX_PILOTS: u8 = 5;
/// Hands are indexed by a `u8` bit mask when discarding.
pub const MAX_HAND: u8 = 8;

/// How strong the Ace plays: which policy drives its seat ([`crate::ace_bot`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AceTier {
    /// The seed's Ace: random cards and random targets.
    #[default]
    Rookie,
    /// Heuristic: focus fire, grouped Sweeping Fire, answers Cover Fire.
    Veteran,
    /// Determinized rollouts over the veteran policy.
    Ace,
}

impl AceTier {
    pub const ALL: [AceTier; 3] = [AceTier::Rookie, AceTier::Veteran, AceTier::Ace];

    pub const fn name(self) -> &'static str {
        match self {
            AceTier::Rookie => "rookie",
            AceTier::Veteran => "veteran",
            AceTier::Ace => "ace",
        }
    }

    pub fn parse(s: &str) -> Option<AceTier> {
        AceTier::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// How many copies of each card a deck holds. Serialized as a map from card to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "BTreeMap<Card, u8>", from = "BTreeMap<Card, u8>")]
pub struct DeckCounts(pub [u8; Card::COUNT]);

impl DeckCounts {
    pub const fn of(entries: &[(Card, u8)]) -> Self {
        let mut c = [0; Card::COUNT];
        let mut i = 0;
        while i < entries.len() {
            c[entries[i].0 as usize] = entries[i].1;
            i += 1;
        }
        DeckCounts(c)
    }

    pub const fn count(&self, card: Card) -> u8 {
        self.0[card as usize]
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    /// Every card, `count` copies each, in card order (shuffled at setup).
    pub fn cards(&self) -> Vec<Card> {
        Card::ALL.iter().flat_map(|&c| std::iter::repeat_n(c, usize::from(self.count(c)))).collect()
    }
}

impl From<DeckCounts> for BTreeMap<Card, u8> {
    fn from(d: DeckCounts) -> Self {
        Card::ALL.iter().filter(|&&c| d.count(c) > 0).map(|&c| (c, d.count(c))).collect()
    }
}

impl From<BTreeMap<Card, u8>> for DeckCounts {
    fn from(m: BTreeMap<Card, u8>) -> Self {
        let mut d = DeckCounts([0; Card::COUNT]);
        for (c, n) in m {
            d.0[c as usize] = n;
        }
        d
    }
}

/// The rules file's pilots' deck (42 cards).
pub const RULES_PILOT_DECK: DeckCounts = DeckCounts::of(&[
    (Card::OpenFire, 12),
    (Card::Sidewinder, 4),
    (Card::DodgeRoll, 8),
    (Card::Suppression, 6),
    (Card::PullingGs, 6),
    (Card::MidAirRegroup, 4),
    (Card::CoverFire, 2),
]);

/// The rules file's Ace deck (41 cards).
pub const RULES_ACE_DECK: DeckCounts = DeckCounts::of(&[
    (Card::OpenFire, 10),
    (Card::Sidewinder, 4),
    (Card::DodgeRoll, 6),
    (Card::Suppression, 6),
    (Card::PullingGs, 4),
    (Card::IntoTheFog, 3),
    (Card::AirToAirBarrage, 6),
    (Card::SweepingFire, 2),
]);

/// The Ace's strength at one table size (balance: the Ace's damage per turn does not grow with
/// the pilot count on its own, so its health and plays scale with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AceScale {
    pub health: i32,
    pub plays: u8,
}

/// The tuned Ace per pilot count (index = pilots - 1); see `docs/rules/wolfpack-balance.md`.
pub const ACE_SCALE: [AceScale; MAX_PILOTS as usize] = [
    AceScale { health: 45, plays: 1 },
    AceScale { health: 80, plays: 2 },
    AceScale { health: 190, plays: 2 },
    AceScale { health: 200, plays: 3 },
    AceScale { health: 320, plays: 3 },
];

/// The tuned decks (see the balance note).
pub const PILOT_DECK: DeckCounts = RULES_PILOT_DECK;
pub const ACE_DECK: DeckCounts = RULES_ACE_DECK;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// 1 to 5. Seats `0..pilots` are the pilots, seat `pilots` is the Ace.
    pub pilots: u8,
    /// Which policy plays the Ace (the rules do not depend on it; runners pick the bot).
    #[serde(default)]
    pub ace_tier: AceTier,
    pub pilot_health: i32,
    pub pilot_hand: u8,
    pub ace_health: i32,
    pub ace_hand: u8,
    /// Cards the Ace plays a turn (one fewer under Cover Fire).
    pub ace_plays: u8,
    pub pilot_deck: DeckCounts,
    pub ace_deck: DeckCounts,
}

impl Default for Config {
    fn default() -> Self {
        Config::pilots(MAX_PILOTS)
    }
}

impl Config {
    /// The tuned game for `n` pilots (the Ace scaled by [`ACE_SCALE`]), rookie Ace.
    pub fn pilots(n: u8) -> Config {
        let scale = ACE_SCALE[usize::from(n.clamp(1, MAX_PILOTS)) - 1];
        Config {
            ace_health: scale.health,
            ace_plays: scale.plays,
            pilot_deck: PILOT_DECK,
            ace_deck: ACE_DECK,
            ..Config::rules(n)
        }
    }

    /// The rules file's numbers exactly: 250 health, 3 plays, its deck table.
    pub fn rules(n: u8) -> Config {
        Config {
            pilots: n,
            ace_tier: AceTier::Rookie,
            pilot_health: 50,
            pilot_hand: 3,
            ace_health: 250,
            ace_hand: 5,
            ace_plays: 3,
            pilot_deck: RULES_PILOT_DECK,
            ace_deck: RULES_ACE_DECK,
        }
    }

    pub fn with_tier(mut self, tier: AceTier) -> Config {
        self.ace_tier = tier;
        self
    }

    pub fn with_decks(mut self, pilot: DeckCounts, ace: DeckCounts) -> Config {
        self.pilot_deck = pilot;
        self.ace_deck = ace;
        self
    }

    /// Refuses what the rules cannot run.
    pub fn validate(&self) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::new("bad_config", m));
        if !(1..=MAX_PILOTS).contains(&self.pilots) {
            return bad(format!("Wolf Pack takes 1 to {MAX_PILOTS} pilots, not {}", self.pilots));
        }
        if self.pilot_health < 1 || self.ace_health < 1 {
            return bad("health must be at least 1".into());
        }
        if !(1..=MAX_HAND).contains(&self.pilot_hand) || !(1..=MAX_HAND).contains(&self.ace_hand) {
            return bad(format!("hand sizes must be 1 to {MAX_HAND}"));
        }
        if self.ace_plays == 0 || self.ace_plays > self.ace_hand {
            return bad("the Ace plays 1 to its hand size cards a turn".into());
        }
        for (deck, side) in [(&self.pilot_deck, Side::Pilots), (&self.ace_deck, Side::Ace)] {
            if let Some(c) = Card::ALL.iter().find(|&&c| deck.count(c) > 0 && !c.allowed_for(side)) {
                return bad(format!("{} is not a card of the {side:?}' deck", c.name()));
            }
        }
        // Enough cards that every hand can be full at once, with a turn's plays in flight.
        if self.pilot_deck.total() < usize::from(self.pilots) * usize::from(self.pilot_hand) + 1 {
            return bad("the pilots' deck is too small for their hands".into());
        }
        if self.ace_deck.total() < usize::from(self.ace_hand) + 1 {
            return bad("the Ace's deck is too small for its hand".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_counts_match_the_rules_table_and_serialize_as_a_map() {
        assert_eq!(RULES_PILOT_DECK.total(), 42);
        assert_eq!(RULES_ACE_DECK.total(), 41);
        let json = serde_json::to_string(&RULES_PILOT_DECK).unwrap();
        assert!(json.starts_with(r#"{"OpenFire":12,"Sidewinder":4"#), "{json}");
        let back: DeckCounts = serde_json::from_str(&json).unwrap();
        assert_eq!(back, RULES_PILOT_DECK);
    }

    #[test]
    fn bad_configs_are_refused_with_a_code() {
        for n in [0, 6] {
            assert_eq!(Config::pilots(n).validate().unwrap_err().code, "bad_config");
        }
        let mut c = Config::pilots(3);
        c.pilot_deck.0[Card::SweepingFire as usize] = 1;
        assert!(c.validate().unwrap_err().message.contains("Sweeping Fire"));
        let mut c = Config::pilots(5);
        c.pilot_deck = DeckCounts::of(&[(Card::OpenFire, 10)]);
        assert!(c.validate().is_err(), "too small for five hands");
        for n in 1..=MAX_PILOTS {
            Config::pilots(n).validate().unwrap();
            Config::rules(n).validate().unwrap();
        }
    }
}
