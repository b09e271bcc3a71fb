use crate::{Entry, GameKind};
use engine::Seat;
use ivanhoe::{Config, Event, Ivanhoe};
use search::{SearchLevels, SearchTuning};
use std::ops::RangeInclusive;

impl Entry for Ivanhoe {
    const KIND: GameKind = GameKind::Ivanhoe;
    const TITLE: &'static str = "Ivanhoe";
    const DESCRIPTION: &'static str =
        "Jousting tournaments in five colours: outbid the table, play action cards, win the tokens.";
    const SEATS: RangeInclusive<u8> = 2..=5;
    const DEFAULT_PLAYERS: u8 = 3;

    by_layout!(ivanhoe);

    /// Heuristic playouts: random ones rarely finish a tournament sensibly. `hard` runs 600
    /// iterations, not 300: in 3-player games against two heuristics it then won 53.7% (n=300;
    /// 42.7% on 300, where a heuristic in its seat won 38.7% of the same games), at 54 ms CPU
    /// a move on average and 156 at most (docs/search-strength.md).
    const SEARCH: SearchLevels = SearchLevels::HEURISTIC.iterations(600, 1_500);
    /// Anchored on the heuristic (another move only when it beats the heuristic's by more than
    /// one standard error): a tournament's playouts are long and noisy, and unanchored `hard`
    /// often played a move that merely drew lucky playouts. Anchored, it won 62.7% of 300
    /// 3-player games against two heuristics (57.1-67.9%), where it won 53.7% before and a
    /// heuristic in its seat 38.7% (docs/search-strength.md).
    const SEARCH_TUNING: SearchTuning<ivanhoe::Action> = SearchTuning { keep: None, anchor: Some(1.0) };

    /// Charge, Countercharge, Disgrace or Adapt that takes cards from one's own display only.
    const FOOLISH: Option<search::Foolish<Ivanhoe>> = Some(ivanhoe::bots::foolish);

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
