use crate::{Entry, GameKind};
use ivanhoe::{Config, Ivanhoe};
use std::ops::RangeInclusive;

impl Entry for Ivanhoe {
    const KIND: GameKind = GameKind::Ivanhoe;
    const TITLE: &'static str = "Ivanhoe";
    const DESCRIPTION: &'static str =
        "Jousting tournaments in five colours: outbid the table, play action cards, win the tokens.";
    const SEATS: RangeInclusive<u8> = 2..=5;
    const DEFAULT_PLAYERS: u8 = 3;

    by_layout!(ivanhoe);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config { players })
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("tournaments", u64::from(self.tournaments()))]
    }
}
