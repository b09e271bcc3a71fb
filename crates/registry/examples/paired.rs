//! Measures a searching seat against the heuristic yardstick, reproducibly (iteration budgets,
//! no wall-clock cap), paired on seeds: for each seed and each rotated seat, one match with the
//! searcher in that seat and every other seat heuristic, against the all-heuristic match of the
//! same seed (the same seat, so the same role or side). Prints one JSON line.
//!
//! ```text
//! cargo run --release -p registry --example paired -- GAME PLAYERS BOT SEED_FROM SEED_TO [key=value...]
//! ```
//! `BOT` is `heuristic`, a level name (`hard`, `expert`: the game's [`Entry::SEARCH`] without
//! the time cap), or `search:ITERATIONS:heuristic|random[:Z]` (`Z`: the anchor's z, `-` for
//! none; else the game's [`Entry::SEARCH_TUNING`]). Options (`ace=veteran`) go to
//! [`Entry::set_option`]; `seats=K` rotates the searcher over the first K seats only (Wolf
//! Pack: the pilots). CPU time per searched move is read from `/proc/thread-self/schedstat`
//! (Linux), so it is CPU, not wall, time.

use engine::{Bot, Game, MatchRng, Observation, Seat, play_out};
use registry::{Entry, GameKind, GameVisitor};
use search::{Budget, Level, Playout, PlayoutKind, SearchBot, SearchLevels};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0)
}

#[derive(Default)]
struct Cpu {
    moves: AtomicU64,
    total: AtomicU64,
    worst: AtomicU64,
}

struct Timed<G: Game> {
    inner: Box<dyn Bot<G>>,
    cpu: Arc<Cpu>,
}

impl<G: Game> Bot<G> for Timed<G> {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        let t = thread_cpu_ns();
        let a = self.inner.choose(obs, rng);
        if obs.legal().len() > 1 {
            let d = thread_cpu_ns().saturating_sub(t);
            self.cpu.moves.fetch_add(1, Ordering::Relaxed);
            self.cpu.total.fetch_add(d, Ordering::Relaxed);
            self.cpu.worst.fetch_max(d, Ordering::Relaxed);
        }
        a
    }
}

struct Run {
    players: u8,
    bot: String,
    seeds: std::ops::Range<u64>,
    options: Vec<(String, String)>,
    seats: Option<u8>,
}

fn searcher<G: Entry>(spec: &str) -> Box<dyn Bot<G>> {
    let heuristic: Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync> =
        Arc::new(|| G::make_bot("heuristic").expect("a heuristic bot"));
    let mut tuning = G::SEARCH_TUNING;
    let (levels, iterations) = match spec.parse::<Level>() {
        Ok(Level::Hard) => (G::SEARCH, G::SEARCH.hard),
        Ok(Level::Expert) => (G::SEARCH, G::SEARCH.expert),
        Ok(_) | Err(_) => {
            let parts: Vec<&str> = spec.split(':').collect();
            let (n, p) = match parts[..] {
                [_, n, p] => (n, p),
                [_, n, p, z] => {
                    tuning.anchor = z.parse().ok();
                    (n, p)
                }
                _ => return registry::bot::<G>(spec).expect("a bot name"),
            };
            let kind = if p == "random" { PlayoutKind::Random } else { PlayoutKind::Heuristic };
            let n: u64 = n.parse().expect("iterations");
            (SearchLevels { playouts: kind, hard: n, expert: n, cutoff: 0 }, n)
        }
    };
    let playout = match levels.playouts {
        PlayoutKind::Random => Playout::Random,
        PlayoutKind::Heuristic => Playout::Bot(heuristic),
    };
    Box::new(tuning.apply(SearchBot::new(Budget::iterations(iterations)).playout(playout)))
}

fn lineup<G: Entry>(game: &G, searcher_seat: Option<Seat>, spec: &str, cpu: &Arc<Cpu>) -> Vec<Box<dyn Bot<G>>> {
    Seat::all(game.num_seats())
        .map(|s| {
            if let Some(b) = game.house_bot(s) {
                b
            } else if Some(s) == searcher_seat {
                Box::new(Timed { inner: searcher::<G>(spec), cpu: Arc::clone(cpu) }) as Box<dyn Bot<G>>
            } else {
                G::make_bot("heuristic").expect("a heuristic bot")
            }
        })
        .collect()
}

fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

impl GameVisitor for Run {
    type Out = ();
    fn visit<G: Entry>(self) {
        let mut config = G::config(self.players).expect("a player count");
        for (k, v) in &self.options {
            G::set_option(&mut config, k, v).expect("an option");
        }
        let cpu = Arc::new(Cpu::default());
        let (mut n, mut won, mut base_won, mut diff_sq) = (0u64, 0u64, 0u64, 0f64);
        for seed in self.seeds.clone() {
            let probe = G::new(&config, seed).expect("a config");
            let rotate = self.seats.map_or(probe.num_seats(), usize::from);
            let mut rng = MatchRng::new(seed ^ 0x5eed);
            let mut heuristics = lineup::<G>(&probe, None, "", &cpu);
            let base = play_out(probe, &mut heuristics, &mut rng, None);
            for k in 0..rotate {
                let seat = Seat(k as u8);
                let b = base.as_ref().map_or(0, |r| u64::from(r.outcome.winners.contains(seat)));
                let game = G::new(&config, seed).expect("a config");
                let mut bots = lineup::<G>(&game, Some(seat), &self.bot, &cpu);
                let mut rng = MatchRng::new(seed ^ 0x5eed);
                let r = play_out(game, &mut bots, &mut rng, None);
                let w = r.as_ref().map_or(0, |r| u64::from(r.outcome.winners.contains(seat)));
                n += 1;
                won += w;
                base_won += b;
                diff_sq += (w as f64 - b as f64).powi(2);
            }
        }
        let nf = n as f64;
        let (lo, hi) = wilson(won as f64, nf);
        let (blo, bhi) = wilson(base_won as f64, nf);
        let d = (won as f64 - base_won as f64) / nf;
        let sd = ((diff_sq / nf - d * d).max(0.0) / nf).sqrt();
        let moves = cpu.moves.load(Ordering::Relaxed).max(1);
        println!(
            "{{\"game\":\"{}\",\"players\":{},\"bot\":\"{}\",\"seeds\":\"{}..{}\",\"games\":{n},\"wins\":{won},\"win\":{:.4},\"ci\":[{lo:.4},{hi:.4}],\"yardstick\":{:.4},\"yardstick_ci\":[{blo:.4},{bhi:.4}],\"paired_diff\":{d:.4},\"paired_ci\":[{:.4},{:.4}],\"searched_moves\":{},\"cpu_ms_mean\":{:.1},\"cpu_ms_worst\":{:.1}}}",
            G::NAME,
            self.players,
            self.bot,
            self.seeds.start,
            self.seeds.end,
            won as f64 / nf,
            base_won as f64 / nf,
            d - 1.96 * sd,
            d + 1.96 * sd,
            cpu.moves.load(Ordering::Relaxed),
            cpu.total.load(Ordering::Relaxed) as f64 / moves as f64 / 1e6,
            cpu.worst.load(Ordering::Relaxed) as f64 / 1e6,
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(args.len() >= 5, "usage: paired GAME PLAYERS BOT SEED_FROM SEED_TO [key=value...]");
    let kind: GameKind = args[0].parse().expect("a game");
    let mut options = Vec::new();
    let mut seats = None;
    for kv in &args[5..] {
        let (k, v) = kv.split_once('=').expect("key=value");
        if k == "seats" {
            seats = Some(v.parse().expect("a seat count"));
        } else {
            options.push((k.to_string(), v.to_string()));
        }
    }
    kind.visit(Run {
        players: args[1].parse().expect("a player count"),
        bot: args[2].clone(),
        seeds: args[3].parse().expect("a seed")..args[4].parse().expect("a seed"),
        options,
        seats,
    });
}
