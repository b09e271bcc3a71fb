//! Plays N uniform-random 5-pilot games against the rookie Ace (the bench's unit of work) and
//! prints moves per game and games per second. For profilers:
//! `valgrind --tool=callgrind target/release/examples/profile 500` counts instructions, which
//! (unlike wall time) does not depend on what else the machine is doing.

use engine::{PlayoutBuffers, random_playout};
use wolfpack::{Config, WolfPack};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let config = Config::pilots(5);
    let mut buf = PlayoutBuffers::default();
    let mut moves = 0;
    let start = std::time::Instant::now();
    for seed in 0..games {
        moves += random_playout::<WolfPack>(&config, seed, &mut buf);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} moves/game, {:.0} games/s, {:.0} moves/s",
        moves as f64 / games as f64,
        games as f64 / secs,
        moves as f64 / secs
    );
}
