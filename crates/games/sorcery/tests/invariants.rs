//! The generic random-play invariant suite, with the default decks (shuffled), in testing
//! mode (unshuffled, `draw`/`discard`, free magic), and with a deck of every card.

use engine::testing::{SuiteOptions, bot_ignores_hidden_information, random_play_suite};
use sorcery::{CardId, Config, Sorcery};

fn every_card_deck() -> Vec<CardId> {
    let mut d: Vec<CardId> = CardId::ALL.to_vec();
    d.extend(CardId::ALL);
    d
}

#[test]
fn random_play_default_decks() {
    let report = random_play_suite::<Sorcery>(
        &Config::default(),
        &SuiteOptions { games: 2_000, base_seed: 1, deep_games: 60, replay_every: 10 },
    );
    assert_eq!(report.games, 2_000);
    println!(
        "{} games, {:.1} steps per game, longest {}, wins {:?}",
        report.games,
        report.steps as f64 / report.games as f64,
        report.longest,
        report.wins
    );
    // Both seats win sometimes.
    assert!(report.wins.iter().all(|&w| w > 100), "{:?}", report.wins);
}

#[test]
fn random_play_testing_mode_every_card() {
    let config = Config { decks: [every_card_deck(), every_card_deck()], testing: true, ..Config::default() };
    let report = random_play_suite::<Sorcery>(
        &config,
        &SuiteOptions { games: 1_000, base_seed: 2, deep_games: 40, replay_every: 10 },
    );
    assert_eq!(report.games, 1_000);
}

#[test]
fn random_play_shuffled_every_card() {
    let config = Config { decks: [every_card_deck(), CardId::ALL.to_vec()], ..Config::default() };
    random_play_suite::<Sorcery>(
        &config,
        &SuiteOptions { games: 1_000, base_seed: 3, deep_games: 40, replay_every: 10 },
    );
}

#[test]
fn bots_ignore_hidden_information() {
    for name in sorcery::BOTS {
        let checked = bot_ignores_hidden_information::<Sorcery>(&Config::default(), 15, &|| {
            sorcery::bot(name).expect("listed bot")
        });
        assert!(checked > 100, "{name}: {checked}");
    }
}
