//! Match configuration: player count, the role table (T1), room options and the
//! seed-compatibility switches of rules §14 (all off by default: official rules).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    Lord,
    Loyalist,
    Rebel,
    Spy,
}

impl Role {
    pub const fn name(self) -> &'static str {
        match self {
            Role::Lord => "Lord",
            Role::Loyalist => "Loyalist",
            Role::Rebel => "Rebel",
            Role::Spy => "Spy",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Table T1: (loyalists, rebels, spies) besides the one Lord, for 4..=10 players.
pub const fn role_counts(players: u8, two_spies: bool) -> (u8, u8, u8) {
    match (players, two_spies) {
        (6, true) => (1, 2, 2),
        (8, true) => (2, 3, 2),
        (4, _) => (1, 1, 1),
        (5, _) => (1, 2, 1),
        (6, _) => (1, 3, 1),
        (7, _) => (2, 3, 1),
        (8, _) => (2, 4, 1),
        (9, _) => (3, 4, 1),
        _ => (3, 4, 2),
    }
}

/// The seed document's simplifications (rules §14), each switchable. All `false` is the
/// official game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SeedCompat {
    /// §14.4: Eight Trigrams is a fair coin flip (from the match RNG) instead of a judgement.
    pub coin_flip_eight_trigrams: bool,
    /// §14.12: Liu Bei has 5 max HP.
    pub liu_bei_five_hp: bool,
    /// §14.14: Benevolence discards 2 cards to recover 1 HP, only below 2 HP, once a turn.
    pub seed_benevolence: bool,
    /// §14.7: a Serpent Spear Attack does not count against the Attack limit.
    pub serpent_spear_extra_attack: bool,
    /// §14.5/§14.9: the wielder's Yin-Yang Swords and Kirin Bow choices are random.
    pub random_weapon_choices: bool,
    /// §14.19: the `seed` bots may read true roles (perfect-information AI).
    pub perfect_information: bool,
    /// §14.20: the `seed` bots' Spy plays as a Loyalist until it reveals itself.
    pub spy_reveal: bool,
}

impl SeedCompat {
    /// Every switch on: the seed-compatible simulation mode.
    pub const ALL: SeedCompat = SeedCompat {
        coin_flip_eight_trigrams: true,
        liu_bei_five_hp: true,
        seed_benevolence: true,
        serpent_spear_extra_attack: true,
        random_weapon_choices: true,
        perfect_information: true,
        spy_reveal: true,
    };
}

/// Setup of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// 4 to 10.
    pub players: u8,
    /// The two-Spy variants of T1 for 6 and 8 players.
    pub two_spies: bool,
    /// Deal Hua Xiong among the generals.
    pub hua_xiong: bool,
    pub seed_compat: SeedCompat,
}

impl Default for Config {
    fn default() -> Self {
        Config { players: 5, two_spies: false, hua_xiong: false, seed_compat: SeedCompat::default() }
    }
}

impl Config {
    pub fn players(players: u8) -> Self {
        Config { players, ..Config::default() }
    }

    /// The seed-compatible simulation mode for `players`.
    pub fn seed_mode(players: u8) -> Self {
        Config { players, hua_xiong: true, seed_compat: SeedCompat::ALL, ..Config::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t1_totals() {
        for n in 4..=10u8 {
            let (l, r, s) = role_counts(n, false);
            assert_eq!(1 + l + r + s, n);
        }
        assert_eq!(role_counts(6, true), (1, 2, 2));
        assert_eq!(role_counts(8, true), (2, 3, 2));
        assert_eq!(role_counts(10, false), (3, 4, 2));
    }
}
