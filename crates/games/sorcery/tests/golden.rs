//! A golden playthrough: a seeded match between the heuristic and the random bot, pinned by
//! insta snapshots — every action with the decision it answered, every event with what each
//! viewer was told of it, every viewer's view every few steps and at the end. Any change to
//! the rules, the RNG, the views, the decisions or the bots shows up here as a readable diff.

use engine::testing::playthrough;
use engine::{Game, MatchRng};
use sorcery::{Config, Sorcery};

#[test]
fn seeded_game_between_bots() {
    let game = Sorcery::new(&Config::default(), 7).unwrap();
    let names = ["heuristic", "random", "heuristic"];
    let mut bots: Vec<_> = names[..2].iter().map(|n| sorcery::bot(n).unwrap()).collect();
    let p = playthrough(game, &mut bots, &mut MatchRng::new(70), 25, 10_000);
    insta::assert_json_snapshot!("seed7_bots_log", p.log);
    insta::assert_json_snapshot!("seed7_bots_final_views", p.final_views);
}

/// Random bots play far more cards than the heuristic lets a match last: deaths, triggers and
/// rituals firing in the effect queue, cut off after 150 actions.
#[test]
fn seeded_game_between_random_bots() {
    let game = Sorcery::new(&Config::default(), 11).unwrap();
    let mut bots: Vec<_> = (0..2).map(|_| sorcery::bot("random").unwrap()).collect();
    let p = playthrough(game, &mut bots, &mut MatchRng::new(110), 50, 150);
    insta::assert_json_snapshot!("seed11_random_bots_log", p.log);
}
