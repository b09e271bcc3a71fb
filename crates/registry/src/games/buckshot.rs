use crate::{Entry, GameKind};
use buckshot::{Buckshot, Config};
use std::ops::RangeInclusive;

impl Entry for Buckshot {
    const KIND: GameKind = GameKind::Buckshot;
    const TITLE: &'static str = "Buckshot";
    const DESCRIPTION: &'static str =
        "Last one standing: a shotgun of live and blank shells, items, and whom to shoot.";
    const SEATS: RangeInclusive<u8> = 2..=8;
    const DEFAULT_PLAYERS: u8 = 4;

    by_layout!(buckshot);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::players(players))
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("rounds", u64::from(self.round())), ("turns", u64::from(self.turn_count()))]
    }
}
