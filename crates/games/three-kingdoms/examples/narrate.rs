//! Prints one narrated game: `cargo run -p three-kingdoms --example narrate -- PLAYERS SEED [seed-mode] [BOT]`.

use three_kingdoms::{Config, bot, narrate_game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(5);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed_mode = args.iter().any(|a| a == "seed-mode");
    let name = args
        .iter()
        .skip(2)
        .find(|a| *a != "seed-mode")
        .map_or(if seed_mode { "seed" } else { "heuristic" }, |s| s.as_str());
    let config = if seed_mode { Config::seed_mode(players) } else { Config::players(players) };
    let mut bots: Vec<_> = (0..players).map(|_| bot(name).expect("known bot")).collect();
    print!("{}", narrate_game(&config, seed, &mut bots));
}
