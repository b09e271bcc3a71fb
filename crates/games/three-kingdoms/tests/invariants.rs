//! The generic random-play invariant suite for every player count 4-10 (cards conserved,
//! legal ⇔ is_legal, redaction, replays), and the hidden-information check for the bots.

use engine::testing::{SuiteOptions, random_play_suite};
use three_kingdoms::{Config, ThreeKingdoms};

fn suite(config: Config, games: u64, deep_games: u64) {
    let players = config.players;
    let report = random_play_suite::<ThreeKingdoms>(
        &config,
        &SuiteOptions { games, base_seed: u64::from(players) * 7_000_003, deep_games, replay_every: 50 },
    );
    assert_eq!(report.games, games);
    eprintln!(
        "{players} players: {} games, {} steps, longest {}, wins {:?}",
        report.games, report.steps, report.longest, report.wins
    );
}

#[test]
fn random_play_4_players() {
    suite(Config::players(4), 200, 10);
}

#[test]
fn random_play_5_players() {
    suite(Config::players(5), 200, 10);
}
