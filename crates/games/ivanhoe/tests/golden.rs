//! A golden playthrough: a seeded match between the heuristic and the random bot, pinned by
//! insta snapshots — every action with the decision it answered, every event with what each
//! viewer was told of it, every viewer's view every few steps and at the end. Any change to
//! the rules, the RNG, the views, the decisions or the bots shows up here as a readable diff.

use engine::testing::playthrough;
use engine::{Game, MatchRng};
use ivanhoe::{Config, Ivanhoe};

#[test]
fn seeded_game_between_bots() {
    let game = Ivanhoe::new(&Config { players: 3 }, 7).unwrap();
    let names = ["heuristic", "random", "heuristic"];
    let mut bots: Vec<_> = names[..3].iter().map(|n| ivanhoe::bot(n).unwrap()).collect();
    let p = playthrough(game, &mut bots, &mut MatchRng::new(70), 25, 10_000);
    insta::assert_json_snapshot!("seed7_bots_log", p.log);
    insta::assert_json_snapshot!("seed7_bots_final_views", p.final_views);
}
