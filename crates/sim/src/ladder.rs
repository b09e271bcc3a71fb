//! A ladder of bot strength: contestants (a game's levels and named bots, Wolf Pack's Ace
//! tiers) play fixtures against each other on the same deals, and [`crate::rating`] fits their
//! ratings.
//!
//! A [`Fixture`] is two contestants and how they sit:
//! - [`Seating::Alternate`]: the seats the line-up plays go to `a` and `b` in turn (`a, b, a,
//!   b, ...`), and every deal is played twice, the second time with `a` and `b` swapped, so each
//!   plays every seat of every deal (the "duplicate" format). Each pair of an `a` seat and a `b`
//!   seat gives one pairwise result from the finishing order: the seat among the winners beats
//!   the seat that is not; two seats that both won or both lost count as nothing, except in a
//!   game nobody won, where every pair counts a draw.
//! - [`Seating::Team`]: every line-up seat plays `a`, against the house's seats, which the
//!   fixture's config gives to contestant `b` (Wolf Pack: the pilots at one level against an
//!   Ace tier). `a` wins a game when its seats win.
//!
//! Deal `d` is the game seeded `derive_seed(seed, d)` in every fixture, so all contestants meet
//! the same deals. Each game's result depends only on `(seed, fixture, deal, swap)` and the
//! totals are integers, so the ladder is the same whatever the thread count. Searching levels
//! run exactly their iterations ([`registry::bot_iterations_only`]): the lobby's time cap would
//! make results depend on the machine's load.

use crate::rating::{self, Estimate, Pairwise};
use engine::{Bot, Game, MatchRng, Observation, Seat, derive_seed, play_out};
use rayon::prelude::*;
use registry::Entry;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How a fixture's contestants sit (see the module's documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seating {
    #[default]
    Alternate,
    Team,
}

/// Two contestants (indices into [`LadderOptions::contestants`]) on a config.
#[derive(Clone, Debug)]
pub struct Fixture<C> {
    pub config: C,
    pub a: usize,
    pub b: usize,
    pub seating: Seating,
}

/// Someone on the ladder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Contestant {
    /// As the tools name it: a level, a bot, or an Ace tier.
    pub name: String,
    /// `bot` (a level or a named bot, built by name) or `house` (the house's seats, as the
    /// fixture's config sets them up: no bot is built by name).
    pub kind: ContestantKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContestantKind {
    Bot,
    House,
}

#[derive(Clone, Debug)]
pub struct LadderOptions<C> {
    pub contestants: Vec<Contestant>,
    pub fixtures: Vec<Fixture<C>>,
    /// Games per fixture (an Alternate fixture plays `games / 2` deals twice, rounded up).
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// The order the ladder should hold, as chains of contestant indices, weakest first
    /// (`random, easy, medium, hard, expert`; the Ace tiers): the report gives the gap of each
    /// adjacent pair with its interval.
    pub chains: Vec<Vec<usize>>,
    /// The contestant held at 0 points.
    pub anchor: usize,
}

/// One fixture's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FixtureResult {
    pub a: String,
    pub b: String,
    pub seating: Seating,
    pub games: u64,
    /// Pairwise results from the finishing order (for Team fixtures: games won).
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    /// Games that ran past the step limit.
    pub aborted: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rung {
    pub name: String,
    pub kind: ContestantKind,
    /// Elo points above the anchor, with the 95% interval.
    pub rating: Estimate,
    /// Games it played.
    pub games: u64,
    /// Its decisions with more than one legal action, and their mean and longest CPU time (ms)
    /// of the thread that played them; `None` for the house's seats.
    pub decisions: u64,
    pub mean_ms: f64,
    pub max_ms: f64,
}

/// Two neighbours of a chain: how far `upper` is above `lower`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub lower: String,
    pub upper: String,
    pub gap: Estimate,
    /// The whole 95% interval of the gap is above zero.
    pub separated: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderReport {
    pub game: &'static str,
    pub seed: u64,
    pub threads: usize,
    pub games_per_fixture: u64,
    pub seconds: f64,
    /// How the intervals are computed.
    pub intervals: &'static str,
    pub prior_draws: f64,
    pub converged: bool,
    /// Strongest first.
    pub ladder: Vec<Rung>,
    pub steps: Vec<Step>,
    pub fixtures: Vec<FixtureResult>,
}

/// The virtual draws per pair of [`rating::fit`].
pub const PRIOR_DRAWS: f64 = 1.0;

/// What one game adds: the fixture's results and each contestant's timing.
#[derive(Clone, Debug, Default)]
struct Tally {
    fixtures: Vec<FixtureResult>,
    /// Per contestant: decisions, total and longest CPU time.
    decisions: Vec<u64>,
    total: Vec<Duration>,
    max: Vec<Duration>,
}

impl Tally {
    fn new(fixtures: usize, contestants: usize) -> Self {
        Tally {
            fixtures: vec![FixtureResult::default(); fixtures],
            decisions: vec![0; contestants],
            total: vec![Duration::ZERO; contestants],
            max: vec![Duration::ZERO; contestants],
        }
    }

    fn add(mut self, o: Tally) -> Tally {
        if self.fixtures.is_empty() {
            return o;
        }
        for (x, y) in self.fixtures.iter_mut().zip(o.fixtures) {
            x.games += y.games;
            x.wins_a += y.wins_a;
            x.wins_b += y.wins_b;
            x.draws += y.draws;
            x.aborted += y.aborted;
        }
        for i in 0..self.decisions.len().min(o.decisions.len()) {
            self.decisions[i] += o.decisions[i];
            self.total[i] += o.total[i];
            self.max[i] = self.max[i].max(o.max[i]);
        }
        self
    }
}

/// A bot whose decisions with a choice are timed (CPU of its thread for a searching level,
/// wall time for the others, whose moves take microseconds: reading the thread's CPU time
/// would cost more than the move).
struct Timed<'a, G: Game> {
    inner: Box<dyn Bot<G>>,
    cpu: bool,
    log: &'a mut (u64, Duration, Duration),
}

impl<G: Game> Bot<G> for Timed<'_, G> {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        if obs.legal().len() < 2 {
            return self.inner.choose(obs, rng);
        }
        let (a, t) = if self.cpu {
            let start = crate::thread_cpu();
            let a = self.inner.choose(obs, rng);
            (a, crate::thread_cpu().saturating_sub(start))
        } else {
            let start = Instant::now();
            let a = self.inner.choose(obs, rng);
            (a, start.elapsed())
        };
        self.log.0 += 1;
        self.log.1 += t;
        self.log.2 = self.log.2.max(t);
        a
    }
}

/// Plays the ladder and fits it. `progress` is called with the games finished so far and the
/// total (from worker threads, in no particular order).
pub fn run<G: Entry>(
    opts: &LadderOptions<G::Config>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<LadderReport, String> {
    let n = opts.contestants.len();
    if n < 2 {
        return Err("a ladder needs at least two contestants".into());
    }
    // Check every fixture's config and names before any game.
    for f in &opts.fixtures {
        if f.a >= n || f.b >= n || f.a == f.b {
            return Err(format!("a fixture between contestants {} and {} of {n}", f.a, f.b));
        }
        let probe = G::new(&f.config, opts.seed).map_err(|e| e.to_string())?;
        let house = Seat::all(probe.num_seats()).filter(|s| probe.house_bot(*s).is_some()).count();
        for (i, side) in [(f.a, "a"), (f.b, "b")] {
            let c = &opts.contestants[i];
            match (c.kind, f.seating, side) {
                (ContestantKind::House, Seating::Team, "b") if house > 0 => {}
                (ContestantKind::House, _, _) => {
                    return Err(format!("`{}` is the house's: only the b side of a Team fixture", c.name));
                }
                (ContestantKind::Bot, Seating::Team, "b") => {
                    return Err(format!("the b side of a Team fixture is the house's seats, not `{}`", c.name));
                }
                (ContestantKind::Bot, _, _) => {
                    registry::bot_iterations_only::<G>(&c.name).map_err(|e| e.to_string())?;
                }
            }
        }
        if f.seating == Seating::Team && house == 0 {
            return Err(format!("{} has no house seats for a Team fixture", G::TITLE));
        }
    }
    // The jobs: (fixture, deal, swapped).
    let deals = |f: &Fixture<G::Config>| match f.seating {
        Seating::Alternate => opts.games.div_ceil(2),
        Seating::Team => opts.games,
    };
    let jobs: Vec<(usize, u64, bool)> = opts
        .fixtures
        .iter()
        .enumerate()
        .flat_map(|(k, f)| {
            let swaps: &[bool] = if f.seating == Seating::Alternate { &[false, true] } else { &[false] };
            (0..deals(f)).flat_map(move |d| swaps.iter().map(move |&s| (k, d, s)))
        })
        .collect();
    let total = jobs.len() as u64;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.threads.max(1)).build().map_err(|e| e.to_string())?;
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let tally = pool.install(|| {
        jobs.par_iter()
            .fold(
                || Tally::new(opts.fixtures.len(), n),
                |mut t, &(k, d, swapped)| {
                    play_fixture_game::<G>(opts, k, d, swapped, &mut t);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    t
                },
            )
            .reduce(Tally::default, Tally::add)
    });
    let tally = if tally.fixtures.is_empty() { Tally::new(opts.fixtures.len(), n) } else { tally };
    let seconds = start.elapsed().as_secs_f64();
    let mut fixtures = tally.fixtures;
    for (r, f) in fixtures.iter_mut().zip(&opts.fixtures) {
        r.a = opts.contestants[f.a].name.clone();
        r.b = opts.contestants[f.b].name.clone();
        r.seating = f.seating;
    }
    let results: Vec<Pairwise> = fixtures
        .iter()
        .zip(&opts.fixtures)
        .map(|(r, f)| Pairwise {
            a: f.a,
            b: f.b,
            wins_a: r.wins_a as f64,
            wins_b: r.wins_b as f64,
            draws: r.draws as f64,
        })
        .collect();
    let fit = rating::fit(n, &results, opts.anchor, PRIOR_DRAWS);
    let mut games = vec![0u64; n];
    for (r, f) in fixtures.iter().zip(&opts.fixtures) {
        games[f.a] += r.games;
        games[f.b] += r.games;
    }
    let mut ladder: Vec<Rung> = (0..n)
        .map(|i| Rung {
            name: opts.contestants[i].name.clone(),
            kind: opts.contestants[i].kind,
            rating: fit.rating(i),
            games: games[i],
            decisions: tally.decisions[i],
            mean_ms: tally.total[i].as_secs_f64() * 1e3 / tally.decisions[i].max(1) as f64,
            max_ms: tally.max[i].as_secs_f64() * 1e3,
        })
        .collect();
    ladder.sort_by(|x, y| y.rating.value.total_cmp(&x.rating.value));
    let steps = opts
        .chains
        .iter()
        .flat_map(|c| c.windows(2))
        .map(|w| {
            let gap = fit.gap(w[1], w[0]);
            Step {
                lower: opts.contestants[w[0]].name.clone(),
                upper: opts.contestants[w[1]].name.clone(),
                gap,
                separated: gap.lo > 0.0,
            }
        })
        .collect();
    Ok(LadderReport {
        game: G::NAME,
        seed: opts.seed,
        threads: opts.threads.max(1),
        games_per_fixture: opts.games,
        seconds,
        intervals: "95%: ±1.96 standard errors from the Fisher information of the Bradley-Terry fit",
        prior_draws: PRIOR_DRAWS,
        converged: fit.converged,
        ladder,
        steps,
        fixtures,
    })
}

/// Which contestant plays each seat: `None` for the house's seats.
fn seating(house: &[bool], f_a: usize, f_b: usize, seating: Seating, swapped: bool) -> Vec<Option<usize>> {
    let mut k = 0;
    house
        .iter()
        .map(|&h| {
            (!h).then(|| {
                let first = k % 2 == 0;
                k += 1;
                match seating {
                    Seating::Team => f_a,
                    Seating::Alternate if first != swapped => f_a,
                    Seating::Alternate => f_b,
                }
            })
        })
        .collect()
}

fn play_fixture_game<G: Entry>(opts: &LadderOptions<G::Config>, k: usize, deal: u64, swapped: bool, t: &mut Tally) {
    let f = &opts.fixtures[k];
    let game_seed = derive_seed(opts.seed, deal);
    let game = G::new(&f.config, game_seed).expect("the fixture's config was checked");
    let house: Vec<bool> = Seat::all(game.num_seats()).map(|s| game.house_bot(s).is_some()).collect();
    let who = seating(&house, f.a, f.b, f.seating, swapped);
    // Each seat's bot is timed into its own log, added to the contestant playing it.
    let mut seat_logs = vec![(0u64, Duration::ZERO, Duration::ZERO); who.len()];
    let result = {
        let mut bots: Vec<Box<dyn Bot<G> + '_>> = Vec::with_capacity(who.len());
        for (s, (w, log)) in who.iter().zip(seat_logs.iter_mut()).enumerate() {
            let (inner, cpu) = match w {
                Some(c) => {
                    let name = &opts.contestants[*c].name;
                    let searching = registry::is_searching::<G>(name);
                    (registry::bot_iterations_only::<G>(name).expect("checked"), searching)
                }
                None => (game.house_bot(Seat(s as u8)).expect("a house seat"), false),
            };
            bots.push(Box::new(Timed { inner, cpu, log }));
        }
        let mut rng = MatchRng::new(derive_seed(game_seed, 0xB07));
        play_out(game, &mut bots, &mut rng, None)
    };
    for (s, l) in seat_logs.iter().enumerate() {
        let c = who[s].unwrap_or(f.b);
        t.decisions[c] += l.0;
        t.total[c] += l.1;
        t.max[c] = t.max[c].max(l.2);
    }
    let r = &mut t.fixtures[k];
    r.games += 1;
    let Some(result) = result else {
        r.aborted += 1;
        return;
    };
    let winners = result.outcome.winners;
    match f.seating {
        Seating::Team => {
            let team_won = who.iter().enumerate().any(|(s, w)| w.is_some() && winners.contains(Seat(s as u8)));
            if winners.is_empty() && !house.iter().any(|h| *h) {
                r.draws += 1;
            } else if team_won {
                r.wins_a += 1;
            } else {
                r.wins_b += 1;
            }
        }
        Seating::Alternate => {
            for (x, wx) in who.iter().enumerate() {
                for (y, wy) in who.iter().enumerate() {
                    if *wx != Some(f.a) || *wy != Some(f.b) {
                        continue;
                    }
                    let (ax, by) = (winners.contains(Seat(x as u8)), winners.contains(Seat(y as u8)));
                    match (ax, by) {
                        (true, false) => r.wins_a += 1,
                        (false, true) => r.wins_b += 1,
                        _ if winners.is_empty() => r.draws += 1,
                        _ => {}
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use buckshot::{Buckshot, Config};

    fn contestants(names: &[&str]) -> Vec<Contestant> {
        names.iter().map(|n| Contestant { name: n.to_string(), kind: ContestantKind::Bot }).collect()
    }

    fn ladder(threads: usize, seed: u64, players: u8) -> LadderReport {
        let names = ["random", "easy", "medium"];
        let fixtures = (0..3)
            .flat_map(|a| ((a + 1)..3).map(move |b| (a, b)))
            .map(|(a, b)| Fixture { config: Config::players(players), a, b, seating: Seating::Alternate })
            .collect();
        let opts = LadderOptions {
            contestants: contestants(&names),
            fixtures,
            games: 120,
            seed,
            threads,
            chains: vec![vec![0, 1, 2]],
            anchor: 0,
        };
        run::<Buckshot>(&opts, &|_, _| {}).unwrap()
    }

    type Results = (Vec<FixtureResult>, Vec<(String, Estimate, u64, u64)>);

    fn results(r: &LadderReport) -> Results {
        (r.fixtures.clone(), r.ladder.iter().map(|g| (g.name.clone(), g.rating, g.games, g.decisions)).collect())
    }

    /// The same seed gives the same ladder on 1, 2 or 3 threads (ratings, intervals, the
    /// games and decisions behind them); another seed other games.
    #[test]
    fn thread_count_does_not_change_the_ladder() {
        let one = ladder(1, 9, 3);
        for threads in [2, 3] {
            assert_eq!(results(&one), results(&ladder(threads, 9, 3)), "{threads} threads");
        }
        assert_ne!(one.fixtures, ladder(2, 10, 3).fixtures);
        assert!(one.converged);
        for f in &one.fixtures {
            assert_eq!((f.games, f.aborted), (120, 0), "{f:?}");
        }
    }

    /// Buckshot's levels in 2-player games: the heuristic is far ahead of random play and
    /// easy (half random) in between, each gap clear of zero.
    #[test]
    fn a_two_player_ladder_is_ordered() {
        let r = ladder(2, 1, 2);
        let order: Vec<&str> = r.ladder.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(order, ["medium", "easy", "random"]);
        assert_eq!(r.steps.len(), 2);
        assert!(r.steps.iter().all(|s| s.separated), "{:?}", r.steps);
        let random = r.ladder.iter().find(|g| g.name == "random").unwrap();
        assert_eq!(random.rating, Estimate { value: 0.0, lo: 0.0, hi: 0.0 });
        // Two-player Alternate fixtures: one pairwise result per game.
        for f in &r.fixtures {
            assert_eq!(f.wins_a + f.wins_b + f.draws, f.games, "{f:?}");
        }
    }

    #[test]
    fn seats_alternate_and_swap_around_the_house() {
        let house = [false, false, false, true];
        assert_eq!(seating(&house, 3, 5, Seating::Alternate, false), [Some(3), Some(5), Some(3), None]);
        assert_eq!(seating(&house, 3, 5, Seating::Alternate, true), [Some(5), Some(3), Some(5), None]);
        assert_eq!(seating(&house, 3, 5, Seating::Team, false), [Some(3), Some(3), Some(3), None]);
    }

    #[test]
    fn bad_fixtures_are_refused() {
        let mut opts = LadderOptions {
            contestants: contestants(&["random", "nobody"]),
            fixtures: vec![Fixture { config: Config::players(2), a: 0, b: 1, seating: Seating::Alternate }],
            games: 2,
            seed: 1,
            threads: 1,
            chains: vec![],
            anchor: 0,
        };
        assert!(run::<Buckshot>(&opts, &|_, _| {}).unwrap_err().contains("no bot called `nobody`"));
        opts.contestants = contestants(&["random", "easy"]);
        opts.fixtures[0].seating = Seating::Team;
        assert!(run::<Buckshot>(&opts, &|_, _| {}).is_err());
    }
}
