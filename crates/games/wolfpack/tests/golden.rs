//! A golden playthrough: a seeded fight of three heuristic pilots against the veteran Ace,
//! recorded by `engine::testing::playthrough` — every action with the decision it answered,
//! every event with what each viewer was told of it (a pilot's private choice, the Ace's hidden
//! draws and picks), every viewer's view at the end. Any change to the
//! rules, the RNG, the views, the decisions or the bots shows up here as a readable diff.

use engine::testing::playthrough;
use engine::{Game, MatchRng};
use wolfpack::{AceTier, Config, WolfPack};

#[test]
fn seeded_fight_between_bots() {
    let game = WolfPack::new(&Config::pilots(3).with_tier(AceTier::Veteran), 11).unwrap();
    let mut bots = wolfpack::lineup(&game, "heuristic").unwrap();
    let p = playthrough(game, &mut bots, &mut MatchRng::new(110), 0, 10_000);
    assert!(p.log.last().is_some_and(|e| !e["outcome"].is_null()), "the fight ended");
    insta::assert_json_snapshot!("seed11_heuristic_vs_veteran_log", p.log);
    insta::assert_json_snapshot!("seed11_final_views", p.final_views);
}

/// Random pilots against the rookie: tentative choices changed before confirming, discards,
/// shot-down pilots; cut off after 60 actions.
#[test]
fn seeded_fight_between_random_bots() {
    let game = WolfPack::new(&Config::pilots(4), 12).unwrap();
    let mut bots = wolfpack::lineup(&game, "random").unwrap();
    bots.iter_mut().take(4).for_each(|b| *b = Box::new(engine::RandomBot));
    let p = playthrough(game, &mut bots, &mut MatchRng::new(120), 0, 60);
    insta::assert_json_snapshot!("seed12_uniform_random_log", p.log);
}
