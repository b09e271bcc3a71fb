//! A long random-play soak (release build): the invariant suite without the slow deep checks,
//! for every player count. `cargo run --release -p three-kingdoms --example soak -- [GAMES]`

use engine::testing::{SuiteOptions, random_play_suite};
use three_kingdoms::{Config, ThreeKingdoms};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    for players in 4..=10u8 {
        for config in [Config::players(players), Config { hua_xiong: true, ..Config::seed_mode(players) }] {
            let r = random_play_suite::<ThreeKingdoms>(
                &config,
                &SuiteOptions { games, base_seed: 0xA11CE + u64::from(players), deep_games: 0, replay_every: 1_000 },
            );
            println!(
                "{players} players{}: {} games, {} steps, longest {}",
                if config.seed_compat.perfect_information { " (seed mode)" } else { "" },
                r.games,
                r.steps,
                r.longest
            );
        }
    }
}
