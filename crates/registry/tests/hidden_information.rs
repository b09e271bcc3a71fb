//! The searching levels as the lobby and the sims build them — each game's playouts, cutoff and
//! position estimate, and its tuning (Wolf Pack's `keep`, Three Kingdoms' anchoring on the
//! heuristic) — never read hidden state: at each decision of whole games, the level's bot with
//! the same RNG chooses the same action when everything its seat cannot see is resampled
//! (`engine::testing::bot_ignores_hidden_information`). `crates/search/tests` checks the bare
//! search on three games; this checks every game's levels, on fewer iterations than they run
//! (the choice must not depend on hidden cards at any budget).

use engine::testing::bot_ignores_hidden_information;
use registry::{Entry, GameKind, GameVisitor, Level};

/// Iterations of both searching levels here: enough for the tree to branch and for every
/// playout policy to run, few enough for whole games of every game in a test.
const ITERATIONS: u64 = 24;

struct Blind {
    level: Level,
    games: u64,
}

impl GameVisitor for Blind {
    type Out = u64;
    fn visit<G: Entry>(self) -> u64 {
        let Blind { level, games } = self;
        let make = move || registry::level_bot::<G>(level, G::SEARCH.iterations(ITERATIONS, ITERATIONS), true);
        bot_ignores_hidden_information::<G>(&G::default_config(), games, &make)
    }
}

fn check(kind: GameKind, games: u64) {
    for level in [Level::Hard, Level::Expert] {
        let checked = kind.visit(Blind { level, games });
        assert!(checked > 40, "{kind:?} {level:?}: only {checked} decisions checked");
    }
}

#[test]
fn buckshot_levels_ignore_hidden_information() {
    check(GameKind::Buckshot, 2);
}

#[test]
fn sorcery_levels_ignore_hidden_information() {
    check(GameKind::Sorcery, 1);
}

#[test]
fn ivanhoe_levels_ignore_hidden_information() {
    check(GameKind::Ivanhoe, 1);
}

#[test]
fn wolfpack_levels_ignore_hidden_information() {
    check(GameKind::WolfPack, 1);
}

#[test]
fn three_kingdoms_levels_ignore_hidden_information() {
    check(GameKind::ThreeKingdoms, 1);
}
