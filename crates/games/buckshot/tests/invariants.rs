//! The engine's random-play invariant suite, over every player count: at least 100,000 games
//! per run, every step of the first games deep-checked (legal ⇔ is_legal, refusals change
//! nothing, serde round trips, redaction under determinization).

use buckshot::{Buckshot, Config};
use engine::testing::{SuiteOptions, bot_ignores_hidden_information, random_play_suite};

#[test]
fn random_play_all_player_counts() {
    let mut total = 0;
    for players in 2..=8u8 {
        // More games at the common table sizes; every size gets deep checks.
        let games = match players {
            2..=4 => 24_000,
            _ => 8_000,
        };
        let opts = SuiteOptions { games, base_seed: u64::from(players), deep_games: 120, replay_every: 25 };
        let report = random_play_suite::<Buckshot>(&Config::players(players), &opts);
        assert_eq!(report.games, games);
        assert_eq!(report.wins.iter().sum::<u64>(), games, "every game has exactly one winner");
        // Every seat wins sometimes: nobody is structurally favoured.
        assert!(report.wins.iter().all(|&w| w > games / u64::from(players) / 2), "{:?}", report.wins);
        total += report.games;
    }
    assert!(total >= 100_000, "only {total} games");
}

#[test]
fn bots_ignore_hidden_information() {
    for name in buckshot::BOTS {
        let checked =
            bot_ignores_hidden_information::<Buckshot>(&Config::players(4), 150, &|| buckshot::bot(name).unwrap());
        assert!(checked > 1_000, "{name}: only {checked} decisions checked");
    }
}
