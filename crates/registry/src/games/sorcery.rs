use crate::{Entry, GameKind};
use engine::{Bot, Viewer};
use sorcery::{Config, Event, Sorcery};
use std::ops::RangeInclusive;

impl Entry for Sorcery {
    const KIND: GameKind = GameKind::Sorcery;
    const TITLE: &'static str = "Sorcery";
    const DESCRIPTION: &'static str =
        "A duel of wizards: spend magic on minions, spells and rituals until one of you falls.";
    const SEATS: RangeInclusive<u8> = 2..=2;
    const DEFAULT_PLAYERS: u8 = 2;

    fn bot_names() -> &'static [&'static str] {
        sorcery::BOTS
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Self>>> {
        sorcery::bot(name)
    }

    /// The default decks, shuffled, with the turn limit and stalemate rule bots need (the
    /// simulator's game; the spec's terminal game and the web room set their own limits).
    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::default())
    }

    fn describe_event(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
        sorcery::text::describe_event(event, viewer, names)
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("turns", u64::from(self.turn()))]
    }
}
