//! Difficulty levels shared by every game, built from the game's own heuristic bot.

use crate::{Budget, Evaluator, Foolish, Playout, SearchBot};
use engine::{Bot, Game, MatchRng, Observation};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// Makes a fresh bot (a game's heuristic, say): levels and playouts need one per use.
pub type BotMaker<G> = Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync>;

/// How well a computer player plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The heuristic, but half its moves are the game's random bot's (uniformly random legal
    /// moves for a game without one).
    Easy,
    /// The game's heuristic bot.
    Medium,
    /// A search with a modest budget.
    Hard,
    /// A search with a larger budget.
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];
    /// The names of [`Level::ALL`], weakest first (for lists and help texts).
    pub const NAMES: &'static [&'static str] = &["easy", "medium", "hard", "expert"];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The search budget of a searching level: the game's iteration count for the level (so
    /// a game is reproducible) with a time cap that keeps a slow position answering well under
    /// a second on one core.
    pub const fn budget(self, search: &SearchLevels) -> Option<Budget> {
        match self {
            Level::Easy | Level::Medium => None,
            Level::Hard => Some(Budget::capped(search.hard, Duration::from_millis(250))),
            Level::Expert => Some(Budget::capped(search.expert, Duration::from_millis(600))),
        }
    }

    /// The budget of a searching level without its time cap: exactly the game's iterations
    /// for the level, whatever the machine's load. A search on it is reproducible and plays as
    /// the level was designed to on an idle core; for measuring strength (`cardtable sim
    /// --iterations-only`), not for answering people (a slow position may take longer).
    pub const fn iteration_budget(self, search: &SearchLevels) -> Option<Budget> {
        match self {
            Level::Easy | Level::Medium => None,
            Level::Hard => Some(Budget::iterations(search.hard)),
            Level::Expert => Some(Budget::iterations(search.expert)),
        }
    }

    /// This level's bot for a game whose heuristic bot `heuristic` makes; `search` says how the
    /// searching levels play out and how many iterations they run (the game knows what plays
    /// better and what its iterations cost). Searching levels are single-threaded (the server
    /// runs many rooms).
    pub fn bot<G: Game>(self, heuristic: BotMaker<G>, search: SearchLevels) -> Box<dyn Bot<G>> {
        self.bot_full(heuristic, search, SearchTuning::NONE, None, None, false)
    }

    /// As [`Level::bot_full`], with `random` making the bot whose moves `easy` plays half the
    /// time (the game's own random bot, which may play a game's turn better than a uniformly
    /// random legal action: Wolf Pack's random pilot plays a card and locks in, where a random
    /// entry of its legal list often discards or confirms an empty selection).
    #[allow(clippy::too_many_arguments)]
    pub fn bot_with_random<G: Game>(
        self,
        heuristic: BotMaker<G>,
        random: Option<BotMaker<G>>,
        search: SearchLevels,
        tuning: SearchTuning<G::Action>,
        evaluate: Option<Evaluator<G>>,
        avoid: Option<Foolish<G>>,
        iterations_only: bool,
    ) -> Box<dyn Bot<G>> {
        match (self, random) {
            (Level::Easy, Some(r)) => Box::new(Weakened::new(heuristic(), 1, 2).random_moves(r())),
            _ => self.bot_full(heuristic, search, tuning, evaluate, avoid, iterations_only),
        }
    }

    /// Everything a game says about its levels: `search` (playouts, iterations, cutoff),
    /// `tuning` (actions left out, anchoring on the heuristic), its position estimate
    /// `evaluate`, its foolish moves `avoid` ([`SearchBot::avoid`]), and whether the time cap
    /// is off (`iterations_only`).
    pub fn bot_full<G: Game>(
        self,
        heuristic: BotMaker<G>,
        search: SearchLevels,
        tuning: SearchTuning<G::Action>,
        evaluate: Option<Evaluator<G>>,
        avoid: Option<Foolish<G>>,
        iterations_only: bool,
    ) -> Box<dyn Bot<G>> {
        let budget = if iterations_only { self.iteration_budget(&search) } else { self.budget(&search) };
        match self {
            Level::Easy => Box::new(Weakened::new(heuristic(), 1, 2)),
            Level::Medium => heuristic(),
            Level::Hard | Level::Expert => {
                let budget = budget.expect("a searching level");
                let playout = match search.playouts {
                    PlayoutKind::Random => Playout::Random,
                    PlayoutKind::Heuristic => Playout::Bot(heuristic),
                };
                let mut bot = tuning.apply(SearchBot::new(budget).playout(playout));
                if let Some(f) = avoid {
                    bot = bot.avoid(f);
                }
                Box::new(match evaluate {
                    Some(e) if search.cutoff > 0 => bot.cutoff(search.cutoff, e),
                    _ => bot,
                })
            }
        }
    }

    /// As [`Level::bot`], from a game's bot-by-name function (its `"heuristic"` entry, and its
    /// `"random"` one for `easy`'s random moves), the shape every game crate exports.
    ///
    /// # Panics
    /// If `by_name("heuristic")` is `None`.
    pub fn bot_by_name<G: Game>(
        self,
        by_name: fn(&str) -> Option<Box<dyn Bot<G>>>,
        search: SearchLevels,
    ) -> Box<dyn Bot<G>> {
        self.bot_with_random(heuristic_of(by_name), random_of(by_name), search, SearchTuning::NONE, None, None, false)
    }

    /// As [`Level::bot_full`], from a game's bot-by-name function.
    ///
    /// # Panics
    /// If `by_name("heuristic")` is `None`.
    pub fn bot_by_name_full<G: Game>(
        self,
        by_name: fn(&str) -> Option<Box<dyn Bot<G>>>,
        search: SearchLevels,
        tuning: SearchTuning<G::Action>,
        evaluate: Option<Evaluator<G>>,
        avoid: Option<Foolish<G>>,
        iterations_only: bool,
    ) -> Box<dyn Bot<G>> {
        self.bot_with_random(
            heuristic_of(by_name),
            random_of(by_name),
            search,
            tuning,
            evaluate,
            avoid,
            iterations_only,
        )
    }
}

/// The maker of a game's `"heuristic"` bot, from its bot-by-name function.
fn heuristic_of<G: Game>(by_name: fn(&str) -> Option<Box<dyn Bot<G>>>) -> BotMaker<G> {
    assert!(by_name("heuristic").is_some(), "the game has no heuristic bot");
    Arc::new(move || by_name("heuristic").expect("checked"))
}

/// The maker of a game's `"random"` bot, if it has one.
fn random_of<G: Game>(by_name: fn(&str) -> Option<Box<dyn Bot<G>>>) -> Option<BotMaker<G>> {
    by_name("random").is_some().then(|| Arc::new(move || by_name("random").expect("checked")) as BotMaker<G>)
}

/// A game's refinements of its searching levels beyond [`SearchLevels`]: which actions the
/// search considers ([`SearchBot::keep`]) and whether it anchors its choice on the heuristic's
/// ([`SearchBot::anchor`]). Both off in [`SearchTuning::NONE`].
pub struct SearchTuning<A: 'static> {
    pub keep: Option<fn(&A) -> bool>,
    /// The `z` of [`SearchBot::anchor`] (heuristic playouts only).
    pub anchor: Option<f64>,
}

impl<A> SearchTuning<A> {
    pub const NONE: SearchTuning<A> = SearchTuning { keep: None, anchor: None };

    /// `search` with these refinements.
    pub fn apply<G: Game<Action = A>>(&self, mut search: SearchBot<G>) -> SearchBot<G> {
        if let Some(k) = self.keep {
            search = search.keep(k);
        }
        if let Some(z) = self.anchor {
            search = search.anchor(z);
        }
        search
    }
}

impl<A> Clone for SearchTuning<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for SearchTuning<A> {}

impl<A> fmt::Debug for SearchTuning<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchTuning").field("keep", &self.keep.is_some()).field("anchor", &self.anchor).finish()
    }
}

/// How a game's searching levels search: the playouts, and the iterations of `hard` and
/// `expert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchLevels {
    pub playouts: PlayoutKind,
    pub hard: u64,
    pub expert: u64,
    /// Playouts stop after this many moves and the game's position estimate scores them
    /// ([`SearchBot::cutoff`]), for a game that has one (registry's `Entry::EVALUATE`); 0 plays
    /// every playout to the end.
    pub cutoff: u32,
}

impl SearchLevels {
    /// Random playouts, many cheap iterations.
    pub const RANDOM: SearchLevels =
        SearchLevels { playouts: PlayoutKind::Random, hard: 1_000, expert: 5_000, cutoff: 0 };
    /// Heuristic playouts, each worth several random ones and costing as much.
    pub const HEURISTIC: SearchLevels =
        SearchLevels { playouts: PlayoutKind::Heuristic, hard: 300, expert: 1_500, cutoff: 0 };

    /// The same playouts with other iteration counts.
    pub const fn iterations(self, hard: u64, expert: u64) -> Self {
        SearchLevels { hard, expert, ..self }
    }

    /// The same, with playouts cut after `moves` moves and scored by the game's estimate.
    pub const fn cutoff(self, moves: u32) -> Self {
        SearchLevels { cutoff: moves, ..self }
    }
}

/// How a searching level plays out its simulated games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayoutKind {
    /// Uniformly random moves: many cheap iterations.
    Random,
    /// The game's heuristic bot: fewer, better-informed iterations.
    Heuristic,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown level `{}` (expected easy, medium, hard or expert)", self.0)
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL.into_iter().find(|l| l.name() == s).ok_or_else(|| ParseLevelError(s.to_string()))
    }
}

/// A bot that plays a random move `num` times in `den` (a uniformly random legal one, or
/// [`Weakened::random_moves`]' bot's), and asks `inner` otherwise.
pub struct Weakened<G: Game> {
    inner: Box<dyn Bot<G>>,
    random: Option<Box<dyn Bot<G>>>,
    num: u32,
    den: u32,
}

impl<G: Game> Weakened<G> {
    /// # Panics
    /// If `den == 0` or `num > den`.
    pub fn new(inner: Box<dyn Bot<G>>, num: u32, den: u32) -> Self {
        assert!(den > 0 && num <= den, "a chance of {num}/{den}");
        Weakened { inner, random: None, num, den }
    }

    /// The random moves are `random`'s.
    pub fn random_moves(self, random: Box<dyn Bot<G>>) -> Self {
        Weakened { random: Some(random), ..self }
    }
}

impl<G: Game> Bot<G> for Weakened<G> {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        if !rng.chance(self.num, self.den) {
            self.inner.choose(obs, rng)
        } else if let Some(r) = &mut self.random {
            r.choose(obs, rng)
        } else {
            rng.pick(obs.legal()).clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (l, name) in Level::ALL.into_iter().zip(Level::NAMES) {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
            assert_eq!(l.name(), *name);
        }
        assert!("grandmaster".parse::<Level>().is_err());
        for p in [SearchLevels::RANDOM, SearchLevels::HEURISTIC] {
            assert!(Level::Hard.budget(&p).unwrap().iterations < Level::Expert.budget(&p).unwrap().iterations);
            assert_eq!(Level::Medium.budget(&p), None);
        }
    }

    #[test]
    fn iteration_budgets_have_no_time_cap() {
        let p = SearchLevels::RANDOM.iterations(123, 4_567);
        assert_eq!(Level::Hard.iteration_budget(&p), Some(Budget::iterations(123)));
        assert_eq!(Level::Expert.iteration_budget(&p), Some(Budget::iterations(4_567)));
        assert_eq!(Level::Easy.iteration_budget(&p), None);
        assert_eq!(Level::Expert.budget(&p).unwrap().iterations, Some(4_567));
        assert!(Level::Expert.budget(&p).unwrap().time.is_some());
    }
}
