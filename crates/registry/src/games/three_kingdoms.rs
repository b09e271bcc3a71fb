use crate::{Entry, GameKind};
use engine::Seat;
use search::{SearchLevels, SearchTuning};
use std::ops::RangeInclusive;
use three_kingdoms::{Action, Config, Side, Step, ThreeKingdoms};

impl Entry for ThreeKingdoms {
    const KIND: GameKind = GameKind::ThreeKingdoms;
    const TITLE: &'static str = "Three Kingdoms";
    const DESCRIPTION: &'static str =
        "Secret roles: the Lord and Loyalists against Rebels and a Spy, generals with skills, Negate chains.";
    const SEATS: RangeInclusive<u8> = 4..=10;
    const DEFAULT_PLAYERS: u8 = 5;

    by_layout!(three_kingdoms);

    /// Heuristic playouts: random play says nothing about hidden roles; a 5-player playout
    /// is long, so fewer iterations. Playouts stop after 60 moves (about a round of five
    /// players) and are scored by [`Entry::EVALUATE`]: a whole game is ~340 moves, and
    /// playing every playout to the end made `expert`'s longest moves take seconds.
    const SEARCH: SearchLevels = SearchLevels::HEURISTIC.iterations(200, 800).cutoff(60);
    /// The sides' shares of the table's strength ([`three_kingdoms::bots::win_estimate`]).
    const EVALUATE: Option<fn(&ThreeKingdoms, Seat) -> f64> = Some(three_kingdoms::bots::win_estimate);
    /// A Loyalist harming the Lord, a Rebel saving the dying Lord.
    const FOOLISH: Option<search::Foolish<ThreeKingdoms>> = Some(three_kingdoms::bots::foolish);
    /// A game is long and its outcome is one bit, so a few hundred playouts rank the root's
    /// actions mostly by luck: the search keeps the heuristic's choice unless it has evidence
    /// (1.5 standard errors) that another action is better. Unanchored, `hard` lost to the
    /// heuristic it plays out with.
    const SEARCH_TUNING: SearchTuning<Action> = SearchTuning { keep: None, anchor: Some(1.5) };

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::players(players))
    }

    fn seed_mode(players: u8) -> Option<Result<(Config, &'static str), String>> {
        Some(Self::check_players(players).map(|()| (Config::seed_mode(players), "seed")))
    }

    fn narrate(config: &Config, seed: u64, bot: &str) -> Option<Result<String, String>> {
        let mut bots = match crate::bots::<Self>(&vec![bot.to_string(); usize::from(config.players)]) {
            Ok(b) => b,
            Err(e) => return Some(Err(e.to_string())),
        };
        Some(Ok(three_kingdoms::narrate_game(config, seed, &mut bots)))
    }

    fn seat_tags(&self, seat: Seat) -> Vec<(&'static str, String)> {
        let role = self.players[seat.index()].role.name();
        vec![("wins by role and player count", format!("{role}, {} players", self.players.len()))]
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
