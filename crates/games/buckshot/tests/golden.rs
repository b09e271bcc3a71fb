//! A golden playthrough: a seeded 4-player game between heuristic and random bots, its every
//! event and final state pinned by an insta snapshot. Any change to the rules, the RNG or the
//! bots shows up here as a readable diff.

use buckshot::{Buckshot, Config};
use engine::{Game, MatchRng, Observation, Seat};

#[test]
fn seeded_game_between_bots() {
    let mut game = Buckshot::new(&Config::players(4), 7).unwrap();
    let mut bots: Vec<_> =
        ["heuristic", "random", "heuristic", "random"].iter().map(|n| buckshot::bot(n).unwrap()).collect();
    let mut rng = MatchRng::new(70);
    let mut log = Vec::new();
    for e in game.start_events() {
        log.push(serde_json::to_value(&e).unwrap());
    }
    while let Some(seat) = game.to_act().first() {
        let legal = game.legal_actions(seat);
        let action = bots[seat.index()].choose(&Observation::new(&game, seat, &legal), &mut rng);
        log.push(serde_json::json!({ "seat": seat, "action": action }));
        for e in game.apply(seat, action).unwrap() {
            log.push(serde_json::to_value(&e).unwrap());
        }
    }
    assert!(game.outcome().is_some());
    insta::assert_json_snapshot!("seed7_four_bots_log", log);
    insta::assert_json_snapshot!("seed7_four_bots_final_view", game.view(engine::Viewer::seat(Seat(0))));
}
