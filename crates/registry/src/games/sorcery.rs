use crate::{Entry, GameKind};
use sorcery::{Config, Sorcery};
use std::ops::RangeInclusive;

impl Entry for Sorcery {
    const KIND: GameKind = GameKind::Sorcery;
    const TITLE: &'static str = "Sorcery";
    const DESCRIPTION: &'static str =
        "A duel of wizards: spend magic on minions, spells and rituals until one of you falls.";
    const SEATS: RangeInclusive<u8> = 2..=2;
    const DEFAULT_PLAYERS: u8 = 2;

    by_layout!(sorcery);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::default())
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("turns", u64::from(self.turn()))]
    }
}
