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

use engine::{Bot, MatchRng, Seat, derive_seed, play_out};
use rayon::prelude::*;
use registry::Entry;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// One bot name per seat, in line-up order.
    pub bots: Vec<String>,
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
                let mut t = Totals { wins: vec![0; n], wins_by_bot: vec![0; m], ..Totals::default() };
                for i in b * BLOCK..((b + 1) * BLOCK).min(opts.games) {
                    play_one::<G>(config, opts.seed, i, &names, &house, &mut t);
                }
                let finished = done.fetch_add(t.games, std::sync::atomic::Ordering::Relaxed) + t.games;
                progress(finished);
                t
            })
            .reduce(Totals::default, Totals::add)
    });
    let seconds = start.elapsed().as_secs_f64();
    let games = totals.games.max(1) as f64;
    Ok(SimReport {
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
    })
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

fn play_one<G: Entry>(config: &G::Config, seed: u64, i: u64, names: &[String], house: &[bool], t: &mut Totals) {
    let game_seed = derive_seed(seed, i);
    let game = G::new(config, game_seed).expect("the probe game set up");
    let entries = seat_entries(house, i);
    let mut bots: Vec<Box<dyn Bot<G>>> = Seat::all(entries.len())
        .map(|s| match entries[s.index()] {
            Some(e) => G::make_bot(&names[e]).expect("checked"),
            None => game.house_bot(s).expect("the house plays the same seats in every match of a config"),
        })
        .collect();
    let mut rng = MatchRng::new(derive_seed(game_seed, 0xB07));
    t.games += 1;
    match play_out(game, &mut bots, &mut rng, None) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use buckshot::{Buckshot, Config};

    fn sim(threads: usize, seed: u64) -> SimReport {
        let opts = SimOptions { games: 3_000, seed, threads, bots: vec!["heuristic".into()] };
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
        let opts = SimOptions { games: 1, seed: 0, threads: 1, bots: vec!["nobody".into()] };
        let e = run::<Buckshot>(&Config::players(2), &opts, &|_| {}).unwrap_err();
        assert_eq!(e, "Buckshot has no bot called `nobody` (its bots: random, heuristic)");
    }
}
