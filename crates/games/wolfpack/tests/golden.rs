//! A golden playthrough: a seeded fight of three heuristic pilots against the veteran Ace, every
//! action, every event (as the acting seat's teammate sees it, and as the Ace does) and the
//! final views pinned by insta snapshots. Any change to the rules, the RNG or the bots shows
//! up here as a readable diff.

use engine::{Game, MatchRng, Observation, Seat, Viewer};
use wolfpack::{AceTier, Config, WolfPack};

#[test]
fn seeded_fight_between_bots() {
    let config = Config::pilots(3).with_tier(AceTier::Veteran);
    let mut game = WolfPack::new(&config, 11).unwrap();
    let mut bots = wolfpack::lineup(&game, "heuristic").unwrap();
    let mut rng = MatchRng::new(110);
    let mut log = Vec::new();
    let pilot = Viewer::seat(Seat(0));
    let ace = Viewer::seat(game.ace_seat());
    for e in game.start_events() {
        log.push(serde_json::json!({ "pilot0": game.view_event(&e, pilot) }));
    }
    while let Some(seat) = game.to_act().first() {
        let legal = game.legal_actions(seat);
        let action = bots[seat.index()].choose(&Observation::new(&game, seat, &legal), &mut rng);
        log.push(serde_json::json!({ "seat": seat, "action": action }));
        for e in game.apply(seat, action).unwrap() {
            let (p, a) = (game.view_event(&e, pilot), game.view_event(&e, ace));
            if p == a {
                log.push(serde_json::json!({ "all": p }));
            } else {
                log.push(serde_json::json!({ "pilot0": p, "ace": a }));
            }
        }
    }
    assert!(game.outcome().is_some());
    insta::assert_json_snapshot!("seed11_three_heuristic_vs_veteran_log", log);
    insta::assert_json_snapshot!("seed11_final_view_pilot0", game.view(pilot));
    insta::assert_json_snapshot!("seed11_final_view_ace", game.view(ace));
}
