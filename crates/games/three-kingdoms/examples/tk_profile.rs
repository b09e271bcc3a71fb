//! Random 5-player playouts for a profiler:
//! `cargo run --release -p three-kingdoms --example tk_profile -- [GAMES] [PLAYERS]`. (Not
//! `profile`: Wolf Pack has one, and a workspace's examples share target/*/examples/.)

use engine::{PlayoutBuffers, random_playout};
use three_kingdoms::{Config, ThreeKingdoms};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let players: u8 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let config = Config::players(players);
    let mut buf = PlayoutBuffers::<ThreeKingdoms>::default();
    let t = std::time::Instant::now();
    let mut moves = 0;
    for seed in 0..games {
        moves += random_playout::<ThreeKingdoms>(&config, seed, &mut buf);
    }
    let s = t.elapsed().as_secs_f64();
    println!("{games} games, {moves} moves, {:.0} games/s, {:.0} moves/s", games as f64 / s, moves as f64 / s);
}
