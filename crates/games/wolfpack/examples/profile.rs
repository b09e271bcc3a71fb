//! Plays N five-pilot games against the rookie Ace (the bench's units of work) and prints moves
//! per game, games per second and moves per second (CPU time of this process, so a loaded
//! machine skews it less than wall time). For profilers:
//! `valgrind --tool=callgrind target/release/examples/profile 500` counts instructions, which
//! (unlike time) does not depend on what else the machine is doing.
//!
//! `profile [GAMES] [random|fast|bots]`: `random` (the default) is `engine::random_playout`,
//! uniform random legal actions for every seat; `fast` the same fights through
//! `wolfpack::fast::random_playout` (no legal lists); `bots` is the `random` pilot bots and the `rookie` Ace
//! through `engine::play_out`, as the sim runs them.

use engine::{Game, MatchRng, PlayoutBuffers, play_out, random_playout};
use wolfpack::{Config, WolfPack};

fn cpu_seconds() -> f64 {
    // /proc/self/stat fields 14 and 15: user and system time in clock ticks (100 a second).
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // After the ")" the state is field 3, so utime (14) and stime (15) are at 11 and 12.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let mode = args.next().unwrap_or_else(|| "random".into());
    let config = Config::pilots(5);
    let mut moves = 0;
    let (cpu0, start) = (cpu_seconds(), std::time::Instant::now());
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
        "bots" => {
            for seed in 0..games {
                let game = WolfPack::new(&config, seed).expect("valid");
                let mut bots = wolfpack::lineup(&game, "random").expect("known bot");
                let mut rng = MatchRng::new(seed);
                moves += play_out(game, &mut bots, &mut rng, None).expect("ends").moves;
            }
        }
        other => panic!("unknown mode `{other}` (random, fast, bots)"),
    }
    let (cpu, wall) = (cpu_seconds() - cpu0, start.elapsed().as_secs_f64());
    println!(
        "{mode}: {games} games, {:.1} moves/game; CPU {cpu:.2} s: {:.0} games/s, {:.0} moves/s (wall {wall:.2} s)",
        moves as f64 / games as f64,
        games as f64 / cpu.max(1e-9),
        moves as f64 / cpu.max(1e-9),
    );
}
