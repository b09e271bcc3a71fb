use crate::{Entry, GameKind};
use engine::Seat;
use search::SearchLevels;
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

    /// Random playouts (as strong as heuristic ones here and far cheaper), cut after 12 moves
    /// and scored by [`Entry::EVALUATE`]. Strength grows slowly with iterations here (ladder,
    /// 200 games a pair: 250 iterations +74 Elo over the heuristic, 500 +105, 1,000 +114,
    /// 4,000 +149 and 20,000 about +160), so `hard` runs 250 and `expert` 20,000: far enough
    /// apart that each level beats the one below it measurably (docs/bot-ladder.md); at 4,000
    /// `hard` was within +45 of `expert`.
    const SEARCH: SearchLevels = SearchLevels::RANDOM.iterations(250, 20_000).cutoff(12);

    /// The heuristic's score of each side, as a chance to win.
    const EVALUATE: Option<fn(&Sorcery, Seat) -> f64> = Some(sorcery::bots::win_estimate);

    /// Silencing one's own minion, strengthening the opponent's, and the like.
    const FOOLISH: Option<search::Foolish<Sorcery>> = Some(sorcery::bots::foolish);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::default())
    }

    /// Simulations play the handout's deck at both seats, so the groups are the deck and the
    /// seat (the first seat moves first).
    fn seat_tags(&self, seat: Seat) -> Vec<(&'static str, String)> {
        let which = if seat.index() == 0 { "seat 1 (moves first)" } else { "seat 2" };
        vec![("wins by deck", format!("handout deck, {which}"))]
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("turns", u64::from(self.turn()))]
    }
}
