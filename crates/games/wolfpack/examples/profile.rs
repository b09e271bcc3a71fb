//! Plays N five-pilot games against the rookie Ace (the bench's units of work) and prints moves
//! per game, games per second and moves per second (CPU time of this process, so a loaded
//! machine skews it less than wall time). For profilers:
//! `valgrind --tool=callgrind target/release/examples/profile 500` counts instructions, which
//! (unlike time) does not depend on what else the machine is doing.
//!
//! `profile [GAMES] [random|fast|bots|rules|quiet|floor]`: `random` (the default) is
//! `engine::random_playout`, uniform random legal actions for every seat (drawn by index through
//! `Game::random_legal_action`, each checked by `apply`); `fast` the same fights through
//! `wolfpack::fast::random_playout` (no check); `bots` is the `random` pilot bots and the
//! `rookie` Ace through `engine::play_out` (legal lists), as the sim runs them; `floor` the least
//! a fight of the same length could cost (its setup, one random draw a move, its events pushed),
//! for comparison (`examples/plain.rs` is the floor with the rules in: the same fights, played
//! plainly). `valgrind --tool=callgrind --branch-sim=yes` also counts mispredictions. `rules` replays
//! the `bots` fights' moves without the bots or the runner (recorded first, untimed): the
//! rules' share of a simulated move; `quiet` the same through `apply_quiet` (no events kept, as
//! the sim applies its moves): what the sim could reach with free bots and runner.

use engine::{Game, MatchRng, PlayoutBuffers, play_out, random_playout};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_seconds;
use wolfpack::{Config, WolfPack};

/// Moves and events of a mean uniform random five-pilot fight (rounded), from 1,000 fights.
fn counts(config: &Config) -> (usize, usize) {
    let (mut moves, mut events) = (0, 0);
    for seed in 0..1_000 {
        let mut g = WolfPack::new(config, seed).expect("valid");
        let mut rng = MatchRng::new(seed ^ 0xBEEF);
        events += g.start_events().len();
        while let Some(seat) = g.to_act().first() {
            let a = g.random_action(seat, &mut rng).expect("legal");
            events += g.apply(seat, a).expect("legal").len();
            moves += 1;
        }
    }
    ((moves + 500) / 1_000, (events + 500) / 1_000)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let mode = args.next().unwrap_or_else(|| "random".into());
    let config = Config::pilots(5);
    let mut moves = 0;
    let (mut cpu0, mut start) = (cpu_seconds(), std::time::Instant::now());
    match mode.as_str() {
        "random" => {
            let mut buf = PlayoutBuffers::default();
            for seed in 0..games {
                moves += random_playout::<WolfPack>(&config, seed, &mut buf);
            }
        }
        "fast" => {
            let mut events = Vec::with_capacity(64);
            for seed in 0..games {
                moves += wolfpack::fast::random_playout(&config, seed, &mut events);
            }
        }
        "floor" => {
            // The least a fight of this length could cost: its setup (both decks shuffled, the
            // first Draw), one bounded draw per move, and its events written into a reused
            // buffer. The fight's length and event count are the real ones (counted first,
            // outside the timing, from 1,000 fights).
            let (m, e) = counts(&config);
            eprintln!("floor of a fight of {m} moves and {e} events");
            let mut events: Vec<wolfpack::Event> = Vec::with_capacity(64);
            (cpu0, start) = (cpu_seconds(), std::time::Instant::now());
            let mut sink = 0usize;
            for seed in 0..games {
                let game = WolfPack::new(&config, seed).expect("valid");
                let mut rng = MatchRng::new(seed ^ 0xBEEF);
                for i in 0..m {
                    sink = sink.wrapping_add(rng.index(30));
                    events.clear();
                    // The fight's events, spread evenly over its moves.
                    for _ in 0..(e * (i + 1) / m - e * i / m) {
                        events.push(wolfpack::Event::AcePassed);
                    }
                    sink = sink.wrapping_add(std::hint::black_box(&events).len());
                }
                sink = sink.wrapping_add(std::hint::black_box(&game).turn() as usize);
                moves += m;
            }
            std::hint::black_box(sink);
        }
        "bots" => {
            for seed in 0..games {
                let game = WolfPack::new(&config, seed).expect("valid");
                let mut bots = wolfpack::lineup(&game, "random").expect("known bot");
                let mut rng = MatchRng::new(seed);
                moves += play_out(game, &mut bots, &mut rng, None).expect("ends").moves;
            }
        }
        "rules" | "quiet" => {
            // The `bots` fights with the bots taken out: each fight's moves recorded first
            // (untimed), then only the rules timed, replaying them through `apply_into` (checked,
            // events collected, as the sim's runner applies them). What the sim cannot go below
            // with the rules as they are; `bots` minus this is the runner's and the bots' share.
            let mut fights = Vec::with_capacity(games as usize);
            for seed in 0..games {
                let game = WolfPack::new(&config, seed).expect("valid");
                let mut bots = wolfpack::lineup(&game, "random").expect("known bot");
                let mut rng = MatchRng::new(seed);
                let mut replay = engine::Replay::new(config, seed);
                play_out(game, &mut bots, &mut rng, Some(&mut replay)).expect("ends");
                let actions: Vec<(engine::Seat, wolfpack::Action)> = replay
                    .moves
                    .into_iter()
                    .map(|m| match m {
                        engine::Move::Act { seat, action } => (seat, action),
                        engine::Move::Leave { .. } => unreachable!("bots do not leave"),
                    })
                    .collect();
                fights.push(actions);
            }
            let mut events = Vec::with_capacity(64);
            let quiet = mode == "quiet";
            (cpu0, start) = (cpu_seconds(), std::time::Instant::now());
            for (seed, actions) in fights.iter().enumerate() {
                let mut game = WolfPack::new(&config, seed as u64).expect("valid");
                for &(seat, action) in actions {
                    events.clear();
                    if quiet {
                        game.apply_quiet(seat, action, &mut events).expect("the recorded move");
                    } else {
                        game.apply_into(seat, action, &mut events).expect("the recorded move");
                    }
                }
                std::hint::black_box(&game);
                moves += actions.len();
            }
        }
        other => panic!("unknown mode `{other}` (random, fast, bots, rules, quiet, floor)"),
    }
    cpu::report(&mode, "", games, moves, cpu0, start);
}
