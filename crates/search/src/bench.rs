//! Search speed: iterations per second on one core, over positions from whole games.

use crate::{Budget, Playout, SearchBot};
use engine::{Game, MatchRng, Observation, derive_seed};
use std::time::{Duration, Instant};

#[derive(Clone, Debug, PartialEq)]
pub struct BenchOptions {
    /// Searching time to accumulate (the set-up of positions is not counted).
    pub seconds: f64,
    pub seed: u64,
    /// Iterations per searched position.
    pub iterations_per_search: u64,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions { seconds: 3.0, seed: 1, iterations_per_search: 2_000 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub game: &'static str,
    pub players: usize,
    /// Positions searched.
    pub positions: u64,
    pub iterations: u64,
    pub seconds: f64,
    pub iterations_per_sec: f64,
}

/// Runs single-threaded random-playout searches of `iterations_per_search` iterations from
/// positions spread over random games (game `i` is seeded with `derive_seed(seed, i)` and
/// stopped at a uniformly drawn step) until `seconds` of searching have passed. Each
/// iteration is the whole cycle: determinize, select, expand, play out, back up.
///
/// # Errors
/// If the config does not set up a game.
pub fn bench_search<G: Game>(config: &G::Config, opts: &BenchOptions) -> Result<BenchReport, String> {
    let mut bot = SearchBot::<G>::new(Budget::iterations(opts.iterations_per_search.max(1))).playout(Playout::Random);
    let mut rng = MatchRng::new(opts.seed);
    let (mut positions, mut iterations, mut searching) = (0u64, 0u64, Duration::ZERO);
    let mut players = 0;
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut i = 0;
    while searching.as_secs_f64() < opts.seconds {
        let seed = derive_seed(opts.seed, i);
        i += 1;
        // One random game, keeping every position where someone must choose between moves.
        let mut game = G::new(config, seed).map_err(|e| e.to_string())?;
        players = game.num_seats();
        let mut line = Vec::new();
        while let Some(seat) = game.to_act().first() {
            legal.clear();
            game.legal_actions_into(seat, &mut legal);
            if legal.len() > 1 {
                line.push((game.clone(), seat));
            }
            let action = rng.pick(&legal).clone();
            events.clear();
            game.apply_into(seat, action, &mut events).map_err(|e| e.to_string())?;
        }
        if line.is_empty() {
            continue;
        }
        let (position, seat) = &line[rng.index(line.len())];
        legal.clear();
        position.legal_actions_into(*seat, &mut legal);
        let start = Instant::now();
        bot.search(&Observation::new(position, *seat, &legal), &mut rng);
        searching += start.elapsed();
        iterations += bot.stats().iterations;
        positions += 1;
    }
    let seconds = searching.as_secs_f64();
    Ok(BenchReport {
        game: G::NAME,
        players,
        positions,
        iterations,
        seconds,
        iterations_per_sec: iterations as f64 / seconds.max(1e-9),
    })
}
