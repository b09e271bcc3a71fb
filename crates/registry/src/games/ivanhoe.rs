use crate::{Entry, GameKind};
use engine::Seat;
use ivanhoe::{Config, Event, Ivanhoe};
use search::SearchLevels;
use std::ops::RangeInclusive;

impl Entry for Ivanhoe {
    const KIND: GameKind = GameKind::Ivanhoe;
    const TITLE: &'static str = "Ivanhoe";
    const DESCRIPTION: &'static str =
        "Jousting tournaments in five colours: outbid the table, play action cards, win the tokens.";
    const SEATS: RangeInclusive<u8> = 2..=5;
    const DEFAULT_PLAYERS: u8 = 3;

    by_layout!(ivanhoe);

    /// Heuristic playouts: random ones rarely finish a tournament sensibly.
    const SEARCH: SearchLevels = SearchLevels::HEURISTIC;

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config { players })
    }

    fn event_tag(event: &Event) -> Option<(Seat, &'static str, String)> {
        match *event {
            Event::TournamentWon { seat, colour } => {
                Some((seat, "tournaments won by colour", colour.name().to_string()))
            }
            _ => None,
        }
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("tournaments", u64::from(self.tournaments()))]
    }
}
