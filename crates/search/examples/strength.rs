//! Head-to-head strength: a searching level in one seat, the game's heuristic bot in every
//! other, the level's seat rotating with the game index; win rates with 95% Wilson intervals.
//!
//! `cargo run --release -p search --example strength -- [--games N] [--skip N] [--game NAME]
//!  [--level hard|expert] [--iterations N] [--playout random|heuristic] [--exploration C]
//!  [--uncapped]`
//!
//! Each game's levels are the constants above `main` (playouts and iterations).
//!
//! Single-threaded on purpose (the machine is shared); each game's seed depends only on its
//! index, so a row is reproducible (unless a decision hits the level's time cap).

use engine::{Bot, Game, MatchRng, Observation, Seat, derive_seed, play_out};
use search::{Evaluator, Level, Playout, PlayoutKind, SearchBot, SearchLevels, SearchTuning};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

type ByName<G> = fn(&str) -> Option<Box<dyn Bot<G>>>;

#[derive(Clone, Debug)]
struct Args {
    games: u64,
    /// Index of the first game (to extend an earlier run with new games).
    skip: u64,
    game: Option<String>,
    levels: Vec<Level>,
    iterations: Option<u64>,
    /// Overrides each game's playout kind.
    playouts: Option<PlayoutKind>,
    /// Overrides the UCB1 exploration constant.
    exploration: Option<f64>,
    /// Overrides the game's playout cutoff (moves; 0: to the end).
    cutoff: Option<u32>,
    /// Run exactly the level's iterations, with no time cap (reproducible on a loaded machine).
    uncapped: bool,
}

fn parse() -> Args {
    let mut a = Args {
        games: 40,
        skip: 0,
        game: None,
        levels: vec![Level::Hard, Level::Expert],
        iterations: None,
        playouts: None,
        exploration: None,
        cutoff: None,
        uncapped: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value().parse().expect("--games N"),
            "--skip" => a.skip = value().parse().expect("--skip N"),
            "--game" => a.game = Some(value()),
            "--level" => a.levels = vec![value().parse().expect("a level")],
            "--iterations" => a.iterations = Some(value().parse().expect("--iterations N")),
            "--exploration" => a.exploration = Some(value().parse().expect("--exploration C")),
            "--uncapped" => a.uncapped = true,
            "--cutoff" => a.cutoff = Some(value().parse().expect("--cutoff N")),
            "--playout" => {
                a.playouts = Some(if value() == "heuristic" { PlayoutKind::Heuristic } else { PlayoutKind::Random })
            }
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

/// Times every decision of the bot it wraps.
struct Timed<G: Game> {
    inner: Box<dyn Bot<G>>,
    log: Arc<Mutex<(u64, Duration, Duration)>>,
}

impl<G: Game> Bot<G> for Timed<G> {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        let start = thread_cpu();
        let a = self.inner.choose(obs, rng);
        let t = thread_cpu().saturating_sub(start);
        let mut log = self.log.lock().expect("log");
        log.0 += 1;
        log.1 += t;
        log.2 = log.2.max(t);
        a
    }
}

/// CPU time this thread has run (Linux: `/proc/thread-self/schedstat`), so that a loaded
/// machine does not inflate the per-move times; wall time elsewhere.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or_else(|| EPOCH.with(|e| e.elapsed()), Duration::from_nanos)
}

thread_local! {
    static EPOCH: Instant = Instant::now();
}

/// Wilson score interval at 95% for `wins` of `n`.
fn wilson(wins: u64, n: u64) -> (f64, f64) {
    let (w, n, z) = (wins as f64, n as f64, 1.96f64);
    let p = w / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (centre - half, centre + half)
}

fn versus<G: Game>(
    config: &G::Config,
    by_name: ByName<G>,
    search: SearchLevels,
    evaluate: Option<Evaluator<G>>,
    level: Level,
    args: &Args,
) {
    let mut search = match args.playouts {
        Some(PlayoutKind::Random) => SearchLevels::RANDOM,
        Some(PlayoutKind::Heuristic) => SearchLevels::HEURISTIC,
        None => search,
    };
    if let Some(k) = args.iterations {
        search = search.iterations(k, k);
    }
    if let Some(k) = args.cutoff {
        search = search.cutoff(k);
    }
    let n = G::new(config, 0).expect("setup").num_seats();
    let log = Arc::new(Mutex::new((0u64, Duration::ZERO, Duration::ZERO)));
    let (mut wins, mut draws) = (0u64, 0u64);
    let start = Instant::now();
    for i in args.skip..args.skip + args.games {
        let seed = derive_seed(0x57_2E46, i);
        let hero = (i % n as u64) as usize;
        let searcher: Box<dyn Bot<G>> = match args.exploration {
            Some(c) => {
                let budget = if args.uncapped { level.iteration_budget(&search) } else { level.budget(&search) };
                let playout = match search.playouts {
                    PlayoutKind::Random => Playout::Random,
                    PlayoutKind::Heuristic => Playout::bot(move || by_name("heuristic").expect("heuristic")),
                };
                let bot = SearchBot::new(budget.expect("a searching level")).playout(playout).exploration(c);
                Box::new(match &evaluate {
                    Some(e) if search.cutoff > 0 => bot.cutoff(search.cutoff, Arc::clone(e)),
                    _ => bot,
                })
            }
            None => level.bot_by_name_full(by_name, search, SearchTuning::NONE, evaluate.clone(), args.uncapped),
        };
        let mut searcher = Some(Timed { inner: searcher, log: Arc::clone(&log) });
        let mut bots: Vec<Box<dyn Bot<G>>> = (0..n)
            .map(|s| -> Box<dyn Bot<G>> {
                if s == hero {
                    Box::new(searcher.take().expect("one hero"))
                } else {
                    by_name("heuristic").expect("heuristic")
                }
            })
            .collect();
        let game = G::new(config, seed).expect("setup");
        let result = play_out(game, &mut bots, &mut MatchRng::new(derive_seed(seed, 0xB07)), None).expect("ends");
        if result.outcome.winners.contains(Seat(hero as u8)) {
            wins += 1;
        } else if result.outcome.winners.is_empty() {
            draws += 1;
        }
    }
    let (lo, hi) = wilson(wins, args.games);
    let (decisions, total, max) = *log.lock().expect("log");
    let iterations = level.budget(&search).and_then(|b| b.iterations).unwrap_or(0);
    println!(
        "| {:<8} | {} | {:<6} | {:>6} | {:<9} | {:>5} | {:>5.1}% | {:>5.1}–{:<5.1}% | {:>5.1}% | {:>5} | {:>11.1} | {:>10.1} | {:>5.0} |",
        G::NAME,
        n,
        level.name(),
        iterations,
        if search.playouts == PlayoutKind::Heuristic { "heuristic" } else { "random" },
        args.games,
        100.0 * wins as f64 / args.games as f64,
        100.0 * lo,
        100.0 * hi,
        100.0 / n as f64,
        draws,
        total.as_secs_f64() * 1e3 / decisions.max(1) as f64,
        max.as_secs_f64() * 1e3,
        start.elapsed().as_secs_f64(),
    );
}

/// Each game's searching levels (what this crate recommends for the CLI and the lobby):
/// Sorcery's random playouts are as strong as heuristic ones and far cheaper; Buckshot's and
/// Ivanhoe's heuristic playouts win much more, and Buckshot's are cheap enough for more.
const SORCERY: SearchLevels = SearchLevels::RANDOM;
const BUCKSHOT: SearchLevels = SearchLevels::HEURISTIC.iterations(1_000, 4_000);
const IVANHOE: SearchLevels = SearchLevels::HEURISTIC;

fn main() {
    let args = parse();
    println!(
        "| game     | n | level  | iters  | playout   | games |  won   | 95% Wilson CI | share | draws | CPU ms/move | max CPU ms |   s   |"
    );
    println!(
        "|----------|---|--------|--------|-----------|-------|--------|---------------|-------|-------|-------------|------------|-------|"
    );
    let wants = |g: &str| args.game.as_deref().is_none_or(|x| x == g);
    for &level in &args.levels {
        if wants("sorcery") {
            let estimate: Evaluator<sorcery::Sorcery> = Arc::new(sorcery::bots::win_estimate);
            versus::<sorcery::Sorcery>(
                &sorcery::Config::default(),
                sorcery::bot,
                SORCERY,
                Some(estimate),
                level,
                &args,
            );
        }
        if wants("buckshot") {
            versus::<buckshot::Buckshot>(&buckshot::Config::players(4), buckshot::bot, BUCKSHOT, None, level, &args);
        }
        if wants("ivanhoe") {
            versus::<ivanhoe::Ivanhoe>(&ivanhoe::Config { players: 3 }, ivanhoe::bot, IVANHOE, None, level, &args);
        }
    }
}
