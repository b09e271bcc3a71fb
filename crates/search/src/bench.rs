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
    /// Wall-clock searching time.
    pub seconds: f64,
    /// The searching thread's CPU time, where the system reports it (Linux); on a loaded
    /// machine this is the honest denominator.
    pub cpu_seconds: Option<f64>,
    /// Iterations per CPU second of the searching thread when known, else per wall second.
    pub iterations_per_sec: f64,
    /// Iterations per wall-clock second.
    pub wall_iterations_per_sec: f64,
}

/// The calling thread's CPU time so far, from `/proc/thread-self/schedstat` (nanoseconds on
/// the CPU, first field). `None` where there is no such file.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs single-threaded random-playout searches of `iterations_per_search` iterations from
/// positions spread over random games (game `i` is seeded with `derive_seed(seed, i)` and
/// stopped at a uniformly drawn step) until `seconds` of searching have passed. Each
/// iteration is the whole cycle: determinize, select, expand, play out, back up. Both the
/// wall-clock and (on Linux) the thread's CPU time of the searches are measured.
///
/// # Errors
/// If the config does not set up a game.
pub fn bench_search<G: Game>(config: &G::Config, opts: &BenchOptions) -> Result<BenchReport, String> {
    let mut bot = SearchBot::<G>::new(Budget::iterations(opts.iterations_per_search.max(1))).playout(Playout::Random);
    let mut rng = MatchRng::new(opts.seed);
    let (mut positions, mut iterations, mut searching) = (0u64, 0u64, Duration::ZERO);
    let mut cpu = Some(Duration::ZERO);
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
        let (start, cpu_start) = (Instant::now(), thread_cpu());
        bot.search(&Observation::new(position, *seat, &legal), &mut rng);
        searching += start.elapsed();
        cpu = match (cpu, cpu_start, thread_cpu()) {
            (Some(total), Some(a), Some(b)) => Some(total + b.saturating_sub(a)),
            _ => None,
        };
        iterations += bot.stats().iterations;
        positions += 1;
    }
    let seconds = searching.as_secs_f64();
    let cpu_seconds = cpu.map(|c| c.as_secs_f64()).filter(|c| *c > 0.0);
    let wall_iterations_per_sec = iterations as f64 / seconds.max(1e-9);
    Ok(BenchReport {
        game: G::NAME,
        players,
        positions,
        iterations,
        seconds,
        cpu_seconds,
        iterations_per_sec: cpu_seconds.map_or(wall_iterations_per_sec, |c| iterations as f64 / c),
        wall_iterations_per_sec,
    })
}
