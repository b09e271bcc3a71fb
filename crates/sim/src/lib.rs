//! # sim — batch self-play for any game
//!
//! Game `i` of a batch is seeded with `derive_seed(seed, i)` and its bots with a seed derived
//! from that, so each game's result depends only on `(seed, i)`. Games run in fixed-size
//! blocks on a rayon pool and the per-block totals are integers, so the report is identical
//! whatever the thread count.
//!
//! The bot line-up rotates with the game index (game `i` puts bot `j` in seat `(j + i) mod n`)
//! so that no bot keeps a seat's advantage; wins are reported per seat and per bot. Seats the
//! house plays ([`Entry::house_bot`], Wolf Pack's Ace) keep their bot and are left out of the
//! line-up and its rotation.
//!
//! The moves of searching levels (`hard`, `expert`) are timed in CPU time of the thread that
//! plays them (not wall time, so a loaded machine does not inflate them): [`SimReport::move_times`].
//! Times, unlike everything else in the report, vary from run to run.

pub mod ladder;
pub mod rating;

use engine::{Bot, Game, MatchRng, Observation, Seat, derive_seed, play_out};
use rayon::prelude::*;
use registry::Entry;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// One bot name per seat, in line-up order.
    pub bots: Vec<String>,
    /// Searching levels (`hard`, `expert`) run exactly their iterations, with no time cap
    /// ([`registry::bot_iterations_only`]): the batch is then reproducible and measures the
    /// levels as designed even on a loaded machine.
    pub iterations_only: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimReport {
    pub game: &'static str,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub seconds: f64,
    pub games_per_sec: f64,
    /// Wins by seat.
    pub wins: Vec<u64>,
    /// Wins by bot entry of the line-up, as `"index:name"` → wins (a name may appear twice).
    pub wins_by_bot: BTreeMap<String, u64>,
    /// Games in which nobody won (co-operative losses, draws).
    pub no_winner: u64,
    pub mean_moves: f64,
    /// Game-specific means (for Buckshot: `rounds`).
    pub means: BTreeMap<&'static str, f64>,
    /// Games that ran past the game's step limit (a rules bug if ever non-zero).
    pub aborted: u64,
    /// CPU time per move of each searching-level entry of the line-up (`"index:name"`, as
    /// `wins_by_bot`), over its decisions with more than one legal action (a forced move does
    /// not search). Empty when no entry is a searching level.
    pub move_times: BTreeMap<String, MoveTimes>,
}

/// How long a bot took over its decisions, in CPU milliseconds of its thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MoveTimes {
    pub decisions: u64,
    pub mean_ms: f64,
    pub max_ms: f64,
    /// The level's time cap in the lobby ([`registry::Level::budget`]).
    pub cap_ms: f64,
    /// Decisions that took longer than the cap: on an idle core, the moves where the lobby's
    /// bot would stop early (a batch with `iterations_only` runs them to the end).
    pub over_cap: u64,
}

/// Decisions, total and longest CPU time of one line-up entry.
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    decisions: u64,
    total: Duration,
    max: Duration,
    over_cap: u64,
}

impl Timing {
    fn add(self, o: Timing) -> Timing {
        Timing {
            decisions: self.decisions + o.decisions,
            total: self.total + o.total,
            max: self.max.max(o.max),
            over_cap: self.over_cap + o.over_cap,
        }
    }
}

/// A bot whose decisions with a choice are timed into `log`.
struct Timed<G: Game> {
    inner: Box<dyn Bot<G>>,
    log: Arc<Mutex<Timing>>,
    cap: Duration,
}

impl<G: Game> Bot<G> for Timed<G> {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        if obs.legal().len() < 2 {
            return self.inner.choose(obs, rng);
        }
        let start = thread_cpu();
        let a = self.inner.choose(obs, rng);
        let t = thread_cpu().saturating_sub(start);
        let mut log = self.log.lock().expect("a timing log");
        *log = log.add(Timing { decisions: 1, total: t, max: t, over_cap: u64::from(t > self.cap) });
        a
    }
}

/// CPU time this thread has run (Linux: `/proc/thread-self/schedstat`; a few microseconds to
/// read, so only searching levels are timed), or wall time where that cannot be read.
pub fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or_else(|| EPOCH.with(Instant::elapsed), Duration::from_nanos)
}

thread_local! {
    static EPOCH: Instant = Instant::now();
}

/// The lobby's time cap of the bot called `name` if it is a searching level (timed by the
/// batch).
fn cap<G: Entry>(name: &str) -> Option<Duration> {
    let (level, search) = registry::level_of::<G>(name)?;
    level.budget(&search)?.time
}

/// What a balance report draws, beyond the totals of [`SimReport`] ([`run_detailed`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Detail {
    /// Games by their length in moves.
    pub moves: BTreeMap<u64, u64>,
    /// Games by the value of each of the game's metrics ([`Entry::metrics`]: turns, rounds).
    pub metrics: BTreeMap<&'static str, BTreeMap<u64, u64>>,
    /// The game's own figures ([`Entry::seat_tags`], [`Entry::event_tag`]): figure → group →
    /// counts.
    pub tags: BTreeMap<&'static str, BTreeMap<String, TagCount>>,
}

/// How often a group of a figure came up, and how the seats in it did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TagCount {
    /// Times the tag was given (an event tag may come many times a game).
    pub occurrences: u64,
    /// Seat-games with the tag at least once.
    pub seat_games: u64,
    /// Those seat-games the seat won.
    pub wins: u64,
}

impl Detail {
    fn add(mut self, o: Detail) -> Detail {
        for (k, v) in o.moves {
            *self.moves.entry(k).or_default() += v;
        }
        for (m, hist) in o.metrics {
            let mine = self.metrics.entry(m).or_default();
            for (k, v) in hist {
                *mine.entry(k).or_default() += v;
            }
        }
        for (f, groups) in o.tags {
            let mine = self.tags.entry(f).or_default();
            for (g, c) in groups {
                let t = mine.entry(g).or_default();
                t.occurrences += c.occurrences;
                t.seat_games += c.seat_games;
                t.wins += c.wins;
            }
        }
        self
    }
}

#[derive(Default, Clone)]
struct Totals {
    games: u64,
    wins: Vec<u64>,
    wins_by_bot: Vec<u64>,
    no_winner: u64,
    moves: u64,
    metrics: BTreeMap<&'static str, u64>,
    aborted: u64,
    /// Per line-up entry (only searching levels are timed).
    times: Vec<Timing>,
    /// Kept only by [`run_detailed`].
    detail: Option<Detail>,
}

impl Totals {
    fn add(mut self, o: Totals) -> Totals {
        self.games += o.games;
        merge(&mut self.wins, &o.wins);
        merge(&mut self.wins_by_bot, &o.wins_by_bot);
        self.no_winner += o.no_winner;
        self.moves += o.moves;
        for (k, v) in o.metrics {
            *self.metrics.entry(k).or_default() += v;
        }
        self.aborted += o.aborted;
        if self.times.len() < o.times.len() {
            self.times.resize(o.times.len(), Timing::default());
        }
        for (x, y) in self.times.iter_mut().zip(&o.times) {
            *x = x.add(*y);
        }
        self.detail = match (self.detail, o.detail) {
            (Some(a), Some(b)) => Some(a.add(b)),
            (a, b) => a.or(b),
        };
        self
    }
}

fn merge(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

const BLOCK: u64 = 256;

/// Plays the batch. Bots are the game's, by name, through its registry [`Entry`], which also
/// names the game-specific figures to average ([`Entry::metrics`]). `progress` is called with
/// the number of games finished so far (from worker threads, in no particular order).
pub fn run<G: Entry>(
    config: &G::Config,
    opts: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, String> {
    run_inner::<G>(config, opts, progress, false).map(|(r, _)| r)
}

/// As [`run`], also keeping what a balance report draws: the distribution of game lengths and
/// the game's own figures. Each game's moves are followed event by event for those, so this
/// is somewhat slower. The detail, like the report, does not depend on the thread count.
pub fn run_detailed<G: Entry>(
    config: &G::Config,
    opts: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(SimReport, Detail), String> {
    run_inner::<G>(config, opts, progress, true).map(|(r, d)| (r, d.unwrap_or_default()))
}

fn run_inner<G: Entry>(
    config: &G::Config,
    opts: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
    detailed: bool,
) -> Result<(SimReport, Option<Detail>), String> {
    let probe = G::new(config, opts.seed).map_err(|e| e.to_string())?;
    let n = probe.num_seats();
    let house: Vec<bool> = Seat::all(n).map(|s| probe.house_bot(s).is_some()).collect();
    // The seats the line-up plays.
    let m = house.iter().filter(|h| !**h).count();
    let mut names = opts.bots.clone();
    if names.len() > m {
        return Err(format!("{} bots for {m} seats", names.len()));
    }
    names.resize(m, "random".to_string());
    registry::bots::<G>(&names).map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.threads.max(1)).build().map_err(|e| e.to_string())?;
    let done = std::sync::atomic::AtomicU64::new(0);
    let start = Instant::now();
    let blocks = opts.games.div_ceil(BLOCK);
    let totals = pool.install(|| {
        (0..blocks)
            .into_par_iter()
            .map(|b| {
                let mut t = Totals {
                    wins: vec![0; n],
                    wins_by_bot: vec![0; m],
                    times: vec![Timing::default(); m],
                    detail: detailed.then(Detail::default),
                    ..Totals::default()
                };
                for i in b * BLOCK..((b + 1) * BLOCK).min(opts.games) {
                    play_one::<G>(config, opts, i, &names, &house, &mut t);
                }
                let finished = done.fetch_add(t.games, std::sync::atomic::Ordering::Relaxed) + t.games;
                progress(finished);
                t
            })
            .reduce(Totals::default, Totals::add)
    });
    let seconds = start.elapsed().as_secs_f64();
    let games = totals.games.max(1) as f64;
    let detail = totals.detail;
    let report = SimReport {
        game: G::NAME,
        games: totals.games,
        seed: opts.seed,
        threads: opts.threads.max(1),
        seconds,
        games_per_sec: totals.games as f64 / seconds.max(1e-9),
        wins: totals.wins,
        wins_by_bot: names
            .iter()
            .enumerate()
            .map(|(j, name)| (format!("{j}:{name}"), totals.wins_by_bot.get(j).copied().unwrap_or(0)))
            .collect(),
        no_winner: totals.no_winner,
        mean_moves: totals.moves as f64 / games,
        means: totals.metrics.iter().map(|(k, v)| (*k, *v as f64 / games)).collect(),
        aborted: totals.aborted,
        move_times: names
            .iter()
            .enumerate()
            .filter_map(|(j, name)| Some((j, name, cap::<G>(name)?)))
            .map(|(j, name, cap)| {
                let t = totals.times.get(j).copied().unwrap_or_default();
                let mean = t.total.as_secs_f64() * 1e3 / t.decisions.max(1) as f64;
                let times = MoveTimes {
                    decisions: t.decisions,
                    mean_ms: mean,
                    max_ms: t.max.as_secs_f64() * 1e3,
                    cap_ms: cap.as_secs_f64() * 1e3,
                    over_cap: t.over_cap,
                };
                (format!("{j}:{name}"), times)
            })
            .collect(),
    };
    Ok((report, detail))
}

/// Which line-up entry plays each seat in game `i`: `None` for the house's seats; the others,
/// in seat order, take entries rotated by `i`.
fn seat_entries(house: &[bool], i: u64) -> Vec<Option<usize>> {
    let m = house.iter().filter(|h| !**h).count();
    let shift = if m == 0 { 0 } else { (i % m as u64) as usize };
    let mut k = 0;
    house
        .iter()
        .map(|&h| {
            (!h).then(|| {
                // The k-th line-up seat is played by entry (k - shift) mod m.
                let entry = (k + m - shift) % m;
                k += 1;
                entry
            })
        })
        .collect()
}

fn play_one<G: Entry>(config: &G::Config, opts: &SimOptions, i: u64, names: &[String], house: &[bool], t: &mut Totals) {
    let game_seed = derive_seed(opts.seed, i);
    let make = if opts.iterations_only { registry::bot_iterations_only::<G> } else { registry::bot::<G> };
    let game = G::new(config, game_seed).expect("the probe game set up");
    let entries = seat_entries(house, i);
    // Only searching levels are timed: no log (and no allocation) for the others.
    let logs: Vec<Option<(Arc<Mutex<Timing>>, Duration)>> =
        names.iter().map(|n| cap::<G>(n).map(|cap| (Arc::new(Mutex::new(Timing::default())), cap))).collect();
    let mut bots: Vec<Box<dyn Bot<G>>> = Seat::all(entries.len())
        .map(|s| match entries[s.index()] {
            Some(e) => {
                let bot = make(&names[e]).expect("checked");
                match &logs[e] {
                    Some((log, cap)) => Box::new(Timed { inner: bot, log: Arc::clone(log), cap: *cap }),
                    None => bot,
                }
            }
            None => game.house_bot(s).expect("the house plays the same seats in every match of a config"),
        })
        .collect();
    let mut rng = MatchRng::new(derive_seed(game_seed, 0xB07));
    t.games += 1;
    let mut tags = Vec::new();
    let played = match t.detail {
        Some(_) => play_out_tagged(game, &mut bots, &mut rng, &mut tags),
        None => play_out(game, &mut bots, &mut rng, None),
    };
    if let (Some(d), Some(result)) = (t.detail.as_mut(), played.as_ref()) {
        let g = &result.final_state;
        *d.moves.entry(result.moves as u64).or_default() += 1;
        for (k, v) in g.metrics() {
            *d.metrics.entry(k).or_default().entry(v).or_default() += 1;
        }
        for s in Seat::all(entries.len()) {
            tags.extend(g.seat_tags(s).into_iter().map(|(f, group)| (s, f, group)));
        }
        // Occurrences count every tag; seat-games and wins count each (seat, figure, group)
        // once.
        for (_, f, group) in &tags {
            d.tags.entry(f).or_default().entry(group.clone()).or_default().occurrences += 1;
        }
        tags.sort();
        tags.dedup();
        for (s, f, group) in tags {
            let c = d.tags.entry(f).or_default().entry(group).or_default();
            c.seat_games += 1;
            c.wins += u64::from(result.outcome.winners.contains(s));
        }
    }
    for (x, log) in t.times.iter_mut().zip(&logs) {
        if let Some((log, _)) = log {
            *x = x.add(*log.lock().expect("a timing log"));
        }
    }
    match played {
        Some(result) => {
            t.moves += result.moves as u64;
            if result.outcome.winners.is_empty() {
                t.no_winner += 1;
            }
            for w in result.outcome.winners.iter() {
                t.wins[w.index()] += 1;
                if let Some(e) = entries[w.index()] {
                    t.wins_by_bot[e] += 1;
                }
            }
            for (k, v) in result.final_state.metrics() {
                *t.metrics.entry(k).or_default() += v;
            }
        }
        None => t.aborted += 1,
    }
}

/// [`play_out`], collecting each event's [`Entry::event_tag`].
fn play_out_tagged<G: Entry>(
    mut game: G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut MatchRng,
    tags: &mut Vec<(Seat, &'static str, String)>,
) -> Option<engine::MatchResult<G>> {
    let limit = game.step_limit();
    let (mut legal, mut events, mut moves) = (Vec::new(), Vec::new(), 0);
    loop {
        if let Some(outcome) = game.outcome() {
            return Some(engine::MatchResult { outcome, moves, final_state: game });
        }
        if moves >= limit {
            return None;
        }
        let seat = game.to_act().first()?;
        let mut obs = engine::Observation::lazy(&game, seat, std::mem::take(&mut legal));
        let action = bots[seat.index()].choose(&obs, rng);
        legal = obs.take_buffer();
        events.clear();
        game.apply_into(seat, action, &mut events).expect("a bot chose an action outside its legal list");
        tags.extend(events.iter().filter_map(G::event_tag));
        moves += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use buckshot::{Buckshot, Config};

    fn sim(threads: usize, seed: u64) -> SimReport {
        let opts = SimOptions { games: 3_000, seed, threads, bots: vec!["heuristic".into()], iterations_only: false };
        run::<Buckshot>(&Config::players(4), &opts, &|_| {}).unwrap()
    }

    #[test]
    fn thread_count_does_not_change_results() {
        let a = sim(1, 5);
        let b = sim(2, 5);
        let c = sim(3, 5);
        for r in [&b, &c] {
            assert_eq!(
                (&a.wins, &a.wins_by_bot, a.mean_moves, &a.means),
                (&r.wins, &r.wins_by_bot, r.mean_moves, &r.means)
            );
        }
        let d = sim(2, 6);
        assert_ne!((&a.wins, a.mean_moves), (&d.wins, d.mean_moves), "another seed, other games");
        assert_eq!(a.wins.iter().sum::<u64>(), 3_000);
    }

    #[test]
    fn the_line_up_rotates_around_the_house_seats() {
        // No house seat: game i puts entry j in seat (j + i) mod n, as it always did.
        assert_eq!(seat_entries(&[false; 3], 0), [Some(0), Some(1), Some(2)]);
        assert_eq!(seat_entries(&[false; 3], 1), [Some(2), Some(0), Some(1)]);
        assert_eq!(seat_entries(&[false; 3], 4), [Some(2), Some(0), Some(1)]);
        // The last seat is the house's: the others rotate among themselves.
        let house = [false, false, false, true];
        assert_eq!(seat_entries(&house, 0), [Some(0), Some(1), Some(2), None]);
        assert_eq!(seat_entries(&house, 2), [Some(1), Some(2), Some(0), None]);
        assert_eq!(seat_entries(&[true], 5), [None]);
    }

    #[test]
    fn unknown_bot_is_an_error() {
        let opts = SimOptions { games: 1, seed: 0, threads: 1, bots: vec!["nobody".into()], iterations_only: false };
        let e = run::<Buckshot>(&Config::players(2), &opts, &|_| {}).unwrap_err();
        assert_eq!(
            e,
            "Buckshot has no bot called `nobody` (its bots: random, heuristic; levels: easy, medium, hard, expert)"
        );
    }

    /// Searching levels are timed, the others not; the times do not change the results.
    #[test]
    fn searching_levels_are_timed() {
        let opts = SimOptions {
            games: 2,
            seed: 4,
            threads: 1,
            bots: vec!["hard".into(), "heuristic".into()],
            iterations_only: true,
        };
        let r = run::<Buckshot>(&Config::players(2), &opts, &|_| {}).unwrap();
        assert_eq!(r.move_times.keys().collect::<Vec<_>>(), ["0:hard"]);
        let t = r.move_times["0:hard"];
        assert!(t.decisions > 0 && t.mean_ms > 0.0 && t.max_ms >= t.mean_ms, "{t:?}");
        assert!(t.cap_ms == 250.0 && t.over_cap <= t.decisions, "{t:?}");
        let again = run::<Buckshot>(&Config::players(2), &opts, &|_| {}).unwrap();
        assert_eq!((&r.wins, &r.wins_by_bot, r.mean_moves), (&again.wins, &again.wins_by_bot, again.mean_moves));
        assert_eq!(again.move_times["0:hard"].decisions, t.decisions);
    }

    /// The detailed run gives the same totals as the plain one, whatever the thread count, and
    /// its detail adds up.
    #[test]
    fn detail_adds_up_and_ignores_threads() {
        let opts = |threads| SimOptions {
            games: 600,
            seed: 3,
            threads,
            bots: vec!["heuristic".into(), "easy".into()],
            iterations_only: false,
        };
        let plain = run::<Buckshot>(&Config::players(3), &opts(1), &|_| {}).unwrap();
        let (one, d1) = run_detailed::<Buckshot>(&Config::players(3), &opts(1), &|_| {}).unwrap();
        let (two, d2) = run_detailed::<Buckshot>(&Config::players(3), &opts(2), &|_| {}).unwrap();
        assert_eq!((&plain.wins, &plain.wins_by_bot), (&one.wins, &one.wins_by_bot));
        assert_eq!((&one.wins, one.mean_moves), (&two.wins, two.mean_moves));
        assert_eq!(d1, d2);
        assert_eq!(d1.moves.values().sum::<u64>(), 600);
        assert_eq!(d1.moves.iter().map(|(m, n)| m * n).sum::<u64>() as f64 / 600.0, one.mean_moves);
        let items = &d1.tags["wins by item use"];
        assert!(!items.is_empty());
        for c in items.values() {
            assert!(c.wins <= c.seat_games && c.seat_games <= c.occurrences);
        }
    }
}
