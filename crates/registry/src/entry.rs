//! What a game offers besides its rules: everything the tools need to list it, seat it, fill
//! its seats with bots and narrate it; the list of games, which makes [`GameKind`]; and the
//! one dispatch point from a kind to its game's type ([`GameKind::visit`]).
//!
//! The [`Entry`] trait names its game's kind and [`GameKind::visit`] calls code generic over
//! [`Entry`], so the two live in one module.

use engine::{Bot, Game, Seat, Viewer};
use search::{Evaluator, Foolish, Level, SearchLevels, SearchTuning};
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// Code that works for any game: [`GameKind::visit`] calls `visit` with the kind's type.
pub trait GameVisitor {
    type Out;
    fn visit<G: Entry>(self) -> Self::Out;
}

/// Lists the games: `Variant = path::To::GameType`. Each line adds a [`GameKind`] variant and
/// a branch of [`GameKind::visit`]; every other per-game question is answered by the type's
/// [`Entry`].
macro_rules! games {
    ($($variant:ident = $ty:ty),+ $(,)?) => {
        /// One of the games cardtable can run.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $($variant),+
        }

        impl GameKind {
            /// Every game, in the order lists show them.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),+];

            /// Calls `v.visit::<G>()` with this kind's game type: the one `match` on games.
            pub fn visit<V: GameVisitor>(self, v: V) -> V::Out {
                match self {
                    $(GameKind::$variant => v.visit::<$ty>()),+
                }
            }
        }
    };
}

// A new game's line goes here (docs/adding-a-game.md).
games! {
    Buckshot = buckshot::Buckshot,
    Sorcery = sorcery::Sorcery,
    Ivanhoe = ivanhoe::Ivanhoe,
    ThreeKingdoms = three_kingdoms::ThreeKingdoms,
    WolfPack = wolfpack::WolfPack,
}

/// A game as the tools see it. Implemented once per game, in `games/<game>.rs`.
pub trait Entry: Game {
    /// This game's variant of [`GameKind`].
    const KIND: GameKind;
    /// The name people read (`"Buckshot"`); [`Game::NAME`] is the one they type.
    const TITLE: &'static str;
    /// One line for lists (`cardtable --help`, the lobby).
    const DESCRIPTION: &'static str;
    /// How many players a match may have.
    const SEATS: RangeInclusive<u8>;
    /// The player count when none is asked for.
    const DEFAULT_PLAYERS: u8;

    /// The names of the bots.
    fn bot_names() -> &'static [&'static str];

    /// The bot that fills a seat nobody named one for in terminal play.
    const DEFAULT_BOT: &'static str = "heuristic";

    /// The game's own bot called `name`, if there is one. Tools call [`bot`] instead, which
    /// also knows the [`Level`]s and gives an error that lists the names.
    fn make_bot(name: &str) -> Option<Box<dyn Bot<Self>>>;

    /// How this game's searching levels (`hard`, `expert`) search: which playouts suit it and
    /// how many iterations each level runs (the game knows what its iterations cost). The
    /// `easy` and `medium` levels are built from its `heuristic` bot.
    const SEARCH: SearchLevels = SearchLevels::RANDOM;

    /// This game's refinements of its searching levels (actions to leave out, anchoring on the
    /// heuristic); none by default.
    const SEARCH_TUNING: SearchTuning<Self::Action> = SearchTuning::NONE;

    /// How well a seat stands in an unfinished match, in `[0, 1]` (1: as good as won), if the
    /// game can judge a position: searching levels then cut their playouts after
    /// `SEARCH.cutoff` moves and score them with it. It reads a determinized copy, never the
    /// real match. `None` (the default): playouts run to the end.
    const EVALUATE: Option<fn(&Self, Seat) -> f64> = None;

    /// The game's foolish moves (its bot module's `foolish`): moves a searching level must never
    /// choose while another is legal, judged from the seat's view ([`search::SearchBot::avoid`];
    /// `crates/registry/tests/foolish.rs` checks them over many positions). None by default.
    const FOOLISH: Option<Foolish<Self>> = None;

    /// The config of a match of `players` players; refuses a count outside [`Self::SEATS`].
    fn config(players: u8) -> Result<Self::Config, String>;

    /// One line of narration for `event`, for `viewer` ("You" where the game says so), with
    /// `names` by seat. `None` for events not worth a line. The game crate writes this once
    /// (`text::describe_event`); terminal play, the web log and `replay` all call it.
    fn describe_event(event: &Self::Event, viewer: Viewer, names: &[String]) -> Option<String>;

    /// The bot of a seat the house always plays, whoever sits at the others (Wolf Pack's Ace):
    /// tools fill it with this and leave it out of line-ups. `None` (the default) for a seat
    /// people or named bots play. Decided by the config, so the same in every match of it.
    fn house_bot(&self, seat: Seat) -> Option<Box<dyn Bot<Self>>> {
        let _ = seat;
        None
    }

    /// The tiers of the house's seats ([`Entry::house_bot`]) as the option that sets them (Wolf
    /// Pack: `("ace", ["rookie", "veteran", "ace"])`), weakest first; `None` (the default) for
    /// a game without house seats. `cardtable ladder` rates the tiers against fixed players.
    const HOUSE_TIERS: Option<(&'static str, &'static [&'static str])> = None;

    /// Sets a game-specific option of a config by name (`cardtable sim wolfpack --ace veteran`
    /// sets `ace` to `veteran`). The default knows none.
    fn set_option(config: &mut Self::Config, key: &str, value: &str) -> Result<(), String> {
        let _ = (config, value);
        Err(format!("{} has no option `{key}`", Self::TITLE))
    }

    /// Game-specific figures of a finished match, averaged by `cardtable sim`.
    fn metrics(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }

    /// The balance report's per-game figures (`cardtable sim --report`): the `(figure, group)`
    /// tags of `seat` in this finished match (Three Kingdoms: `("wins by role", "Lord, 5
    /// players")`). The report shows, per group, how many seat-games had it and their win
    /// rate. The default gives none.
    fn seat_tags(&self, seat: Seat) -> Vec<(&'static str, String)> {
        let _ = seat;
        Vec::new()
    }

    /// As [`Entry::seat_tags`], from one event of a match: the seat it tags and its `(figure,
    /// group)` (Buckshot: the item a seat used). The default gives none.
    fn event_tag(event: &Self::Event) -> Option<(Seat, &'static str, String)> {
        let _ = event;
        None
    }

    /// The config of the game's seed-compatible mode for `players`, if it has one (Three
    /// Kingdoms' `--seed-mode`), with the bot that mode is meant for. `None` (the default):
    /// no such mode.
    fn seed_mode(players: u8) -> Option<Result<(Self::Config, &'static str), String>> {
        let _ = players;
        None
    }

    /// One whole game from `seed` with `bot` at every seat, told as a narrative log a person
    /// can follow (`cardtable sim GAME --log`). `None` (the default): the game has no log.
    fn narrate(config: &Self::Config, seed: u64, bot: &str) -> Option<Result<String, String>> {
        let _ = (config, seed, bot);
        None
    }

    /// The config of a match of [`Self::DEFAULT_PLAYERS`] players.
    fn default_config() -> Self::Config {
        Self::config(Self::DEFAULT_PLAYERS).expect("the default player count is in range")
    }

    /// Checks `players` against [`Self::SEATS`], with a message naming the game.
    fn check_players(players: u8) -> Result<(), String> {
        if Self::SEATS.contains(&players) {
            Ok(())
        } else if Self::SEATS.start() == Self::SEATS.end() {
            Err(format!("{} is for exactly {} players, not {players}", Self::TITLE, Self::SEATS.start()))
        } else {
            Err(format!(
                "{} is for {} to {} players, not {players}",
                Self::TITLE,
                Self::SEATS.start(),
                Self::SEATS.end()
            ))
        }
    }
}

/// A bot name the game does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBot {
    pub game: &'static str,
    pub name: String,
    /// The game's own bots (the levels are every game's).
    pub known: &'static [&'static str],
}

impl fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has no bot called `{}` (its bots: {}; levels: {})",
            self.game,
            self.name,
            self.known.join(", "),
            Level::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownBot {}

/// The bot of game `G` called `name`: one of the game's own bots, or a [`Level`] (`easy`,
/// `medium`, `hard`, `expert`) built from its heuristic and [`Entry::SEARCH`]. The error lists
/// both.
pub fn bot<G: Entry>(name: &str) -> Result<Box<dyn Bot<G>>, UnknownBot> {
    if let Some((level, search)) = level_of::<G>(name) {
        return Ok(level_bot::<G>(level, search, false));
    }
    G::make_bot(name).ok_or_else(|| UnknownBot { game: G::TITLE, name: name.to_string(), known: G::bot_names() })
}

/// A searching level with its iterations given, `hard@1500` or `expert@40000`: the level as
/// [`Entry::SEARCH`] builds it (playouts, cutoff, tuning, foolish moves) with that many
/// iterations. For measuring where a level should sit (`cardtable ladder --only
/// medium,hard@1000,hard`, `cardtable sim --bots hard@250,heuristic`); rooms never offer it
/// (the server asks for levels by name). `None` for any other name.
pub fn tuned_level<G: Entry>(name: &str) -> Option<(Level, SearchLevels)> {
    let (level, n) = name.split_once('@')?;
    let level: Level = level.parse().ok()?;
    let n: u64 = n.parse().ok().filter(|&n| n > 0)?;
    let search = match level {
        Level::Hard => SearchLevels { hard: n, ..G::SEARCH },
        Level::Expert => SearchLevels { expert: n, ..G::SEARCH },
        Level::Easy | Level::Medium => return None,
    };
    Some((level, search))
}

/// The level called `name` and the search it runs: a plain level with [`Entry::SEARCH`], or
/// one with its iterations given ([`tuned_level`]). `None` for a game's own bots.
pub fn level_of<G: Entry>(name: &str) -> Option<(Level, SearchLevels)> {
    name.parse::<Level>().ok().map(|l| (l, G::SEARCH)).or_else(|| tuned_level::<G>(name))
}

/// Whether `name` is a searching level (`hard`, `expert`, or one of them with its iterations
/// given, [`tuned_level`]): what a batch times.
pub fn is_searching<G: Entry>(name: &str) -> bool {
    level_of::<G>(name).is_some_and(|(l, search)| l.budget(&search).is_some())
}

/// As [`bot`], but a searching level runs exactly its iterations, with no time cap
/// ([`Level::iteration_budget`]): what `cardtable sim --iterations-only` plays, so a strength
/// measurement on a loaded machine is reproducible and measures the level as designed.
pub fn bot_iterations_only<G: Entry>(name: &str) -> Result<Box<dyn Bot<G>>, UnknownBot> {
    if let Some((level, search)) = level_of::<G>(name) {
        return Ok(level_bot::<G>(level, search, true));
    }
    bot::<G>(name)
}

/// `level` of game `G` as [`bot`] builds it — its heuristic, tuning and position estimate —
/// with the iterations and playouts of `search` (the game's own are [`Entry::SEARCH`]; tests
/// run fewer).
pub fn level_bot<G: Entry>(level: Level, search: SearchLevels, iterations_only: bool) -> Box<dyn Bot<G>> {
    level.bot_by_name_full(G::make_bot, search, G::SEARCH_TUNING, evaluator::<G>(), G::FOOLISH, iterations_only)
}

/// [`Entry::EVALUATE`] as the search takes it.
fn evaluator<G: Entry>() -> Option<Evaluator<G>> {
    G::EVALUATE.map(|f| Arc::new(f) as Evaluator<G>)
}

/// One bot per name, in order: the whole line-up checked before any is used.
pub fn bots<G: Entry>(names: &[String]) -> Result<Vec<Box<dyn Bot<G>>>, UnknownBot> {
    names.iter().map(|n| bot::<G>(n)).collect()
}
