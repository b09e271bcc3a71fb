//! Plays N random 4-player games and prints move and legal-list statistics. For profilers:
//! `valgrind --tool=callgrind target/release/examples/buckshot_profile 2000` counts instructions, which
//! (unlike wall time) does not depend on what else the machine is doing.

use buckshot::{Buckshot, Config};
use engine::{Game, MatchRng};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let config = Config::players(4);
    let (mut moves, mut listed) = (0u64, 0u64);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let start = std::time::Instant::now();
    for seed in 0..games {
        let mut game = Buckshot::new(&config, seed).expect("valid");
        let mut rng = MatchRng::new(seed ^ 0xBEEF);
        while let Some(seat) = game.to_act().first() {
            legal.clear();
            game.legal_actions_into(seat, &mut legal);
            listed += legal.len() as u64;
            let a = *rng.pick(&legal);
            events.clear();
            game.apply_into(seat, a, &mut events).expect("legal");
            moves += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} moves/game, {:.1} legal actions/move, {:.0} games/s",
        moves as f64 / games as f64,
        listed as f64 / moves as f64,
        games as f64 / secs
    );
}
