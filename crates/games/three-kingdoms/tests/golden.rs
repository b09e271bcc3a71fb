//! Golden narrative logs: whole games told in the seed's log style, official rules with the
//! heuristic bots and the seed-compatible mode with the seed bots. A change in the rules, the
//! bots or the narration shows up here as a diff to review.

use three_kingdoms::{Config, bot, narrate_game};

fn tell(config: &Config, seed: u64, bots: &str) -> String {
    let mut b: Vec<_> = (0..config.players).map(|_| bot(bots).expect("bot")).collect();
    narrate_game(config, seed, &mut b)
}

#[test]
fn official_5_players() {
    let text = tell(&Config::players(5), 3, "heuristic");
    assert!(text.contains("---Turn 1---") && text.contains(" win"), "{text}");
    insta::assert_snapshot!("official_5_players_seed_3", text);
}

#[test]
fn official_10_players() {
    insta::assert_snapshot!("official_10_players_seed_1", tell(&Config::players(10), 1, "heuristic"));
}

#[test]
fn seed_mode_5_players() {
    let text = tell(&Config::seed_mode(5), 3, "seed");
    assert!(text.contains("Liu Bei") || !text.is_empty());
    insta::assert_snapshot!("seed_mode_5_players_seed_3", text);
}

#[test]
fn seed_mode_8_players() {
    insta::assert_snapshot!("seed_mode_8_players_seed_2", tell(&Config::seed_mode(8), 2, "seed"));
}
