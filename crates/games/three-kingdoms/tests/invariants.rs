//! The generic random-play invariant suite for every player count 4-10 (20,500 games a run:
//! cards conserved — the 108 always in exactly one zone —, legal ⇔ is_legal, refusals change
//! nothing, serde round trips, redaction, replays), the seed-compatible mode, and the
//! hidden-information check for the bots.

use engine::testing::{SuiteOptions, bot_ignores_hidden_information, random_play_suite};
use three_kingdoms::{BOTS, Config, ThreeKingdoms, bot};

fn suite(config: Config, games: u64, deep_games: u64) {
    let players = config.players;
    let report = random_play_suite::<ThreeKingdoms>(
        &config,
        &SuiteOptions { games, base_seed: u64::from(players) * 7_000_003, deep_games, replay_every: 50 },
    );
    assert_eq!(report.games, games);
    // Every seat wins sometimes: no seat is rigged to lose.
    assert!(report.wins.iter().all(|&w| w > 0), "{players} players: wins {:?}", report.wins);
    eprintln!(
        "{players} players: {} games, {} steps, longest {}, wins {:?}",
        report.games, report.steps, report.longest, report.wins
    );
}

#[test]
fn random_play_4_players() {
    suite(Config::players(4), 5_000, 40);
}

#[test]
fn random_play_5_players() {
    suite(Config::players(5), 5_000, 40);
}

#[test]
fn random_play_6_players() {
    suite(Config::players(6), 3_000, 20);
}

#[test]
fn random_play_7_players() {
    suite(Config::players(7), 2_500, 15);
}

#[test]
fn random_play_8_players() {
    suite(Config::players(8), 2_000, 10);
}

#[test]
fn random_play_9_players() {
    suite(Config::players(9), 1_500, 8);
}

#[test]
fn random_play_10_players() {
    suite(Config::players(10), 1_500, 8);
}

#[test]
fn random_play_variants() {
    suite(Config { two_spies: true, hua_xiong: true, ..Config::players(6) }, 500, 10);
    suite(Config { two_spies: true, ..Config::players(8) }, 300, 5);
}

#[test]
fn random_play_seed_mode() {
    suite(Config::seed_mode(5), 1_000, 20);
    suite(Config::seed_mode(10), 200, 4);
}

#[test]
fn bots_ignore_hidden_information() {
    for name in BOTS {
        for players in [4, 7] {
            let make = || bot(name).expect("listed bot");
            let checked = bot_ignores_hidden_information::<ThreeKingdoms>(&Config::players(players), 4, &make);
            assert!(checked > 300, "{name}: only {checked} decisions checked");
        }
    }
}

#[test]
fn setup_rejects_bad_player_counts() {
    use engine::Game;
    for players in [0, 3, 11] {
        let err = ThreeKingdoms::new(&Config::players(players), 1).unwrap_err();
        assert_eq!(err.code, "bad_player_count");
    }
}
