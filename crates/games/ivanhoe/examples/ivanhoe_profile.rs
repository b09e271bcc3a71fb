//! Runs N random 3-player playouts through the engine's public API, the work the
//! `random_game` bench times, for profilers that want a plain binary:
//! `valgrind --tool=callgrind target/release/examples/ivanhoe_profile 3000`.

use engine::{PlayoutBuffers, random_playout};
use ivanhoe::{Config, Ivanhoe};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(1000, |a| a.parse().expect("a number of games"));
    let players: u8 = args.next().map_or(3, |a| a.parse().expect("a number of players"));
    let config = Config { players };
    let mut buf = PlayoutBuffers::<Ivanhoe>::default();
    let mut moves = 0;
    for seed in 1..=games {
        moves += random_playout::<Ivanhoe>(&config, seed, &mut buf);
    }
    println!("{games} games, {moves} moves");
}
