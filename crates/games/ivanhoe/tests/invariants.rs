//! The generic random-play invariant suite, for every player count, and the hidden-information
//! check for every bot.

use engine::testing::{SuiteOptions, bot_ignores_hidden_information, random_play_suite};
use ivanhoe::{BOTS, Config, Ivanhoe, bot};

fn suite(players: u8, games: u64, deep_games: u64) {
    let report = random_play_suite::<Ivanhoe>(
        &Config { players },
        &SuiteOptions { games, base_seed: u64::from(players) * 1_000_003, deep_games, replay_every: 25 },
    );
    assert_eq!(report.games, games);
    // Every seat wins sometimes: the game is not rigged by seat.
    assert!(report.wins.iter().all(|&w| w > 0), "{players} players: wins {:?}", report.wins);
    eprintln!(
        "{players} players: {} games, {} steps, longest {}, wins {:?}",
        report.games, report.steps, report.longest, report.wins
    );
}

#[test]
fn random_play_2_players() {
    suite(2, 4_000, 60);
}

#[test]
fn random_play_3_players() {
    suite(3, 10_000, 150);
}

#[test]
fn random_play_4_players() {
    suite(4, 4_000, 60);
}

#[test]
fn random_play_5_players() {
    suite(5, 4_000, 60);
}

#[test]
fn bots_ignore_hidden_information() {
    for name in BOTS {
        for players in [3, 5] {
            let make = || bot(name).expect("listed bot");
            let checked = bot_ignores_hidden_information::<Ivanhoe>(&Config { players }, 6, &make);
            assert!(checked > 500, "{name}: only {checked} decisions checked");
        }
    }
}

#[test]
fn setup_rejects_bad_player_counts() {
    use engine::Game;
    for players in [0, 1, 6] {
        let err = Ivanhoe::new(&Config { players }, 1).unwrap_err();
        assert_eq!(err.code, "bad_player_count");
    }
    assert!(Ivanhoe::new(&Config::default(), 1).is_ok());
    assert_eq!(Config::default().players, 3);
}
