use crate::{Entry, GameKind};
use std::ops::RangeInclusive;
use three_kingdoms::{Config, Side, Step, ThreeKingdoms};

impl Entry for ThreeKingdoms {
    const KIND: GameKind = GameKind::ThreeKingdoms;
    const TITLE: &'static str = "Three Kingdoms";
    const DESCRIPTION: &'static str =
        "Secret roles: the Lord and Loyalists against Rebels and a Spy, generals with skills, Negate chains.";
    const SEATS: RangeInclusive<u8> = 4..=10;
    const DEFAULT_PLAYERS: u8 = 5;

    by_layout!(three_kingdoms);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::players(players))
    }

    /// The turns, and which side won (1 or 0 each, so `sim`'s means are win rates by role).
    fn metrics(&self) -> Vec<(&'static str, u64)> {
        let side = match self.step {
            Step::Over(side) => Some(side),
            _ => None,
        };
        let won = |f: fn(Side) -> bool| u64::from(side.is_some_and(f));
        vec![
            ("turns", u64::from(self.turn)),
            ("lord_side_wins", won(|s| s == Side::LordAndLoyalists)),
            ("rebels_wins", won(|s| s == Side::Rebels)),
            ("spy_wins", won(|s| matches!(s, Side::Spy(_)))),
        ]
    }
}
