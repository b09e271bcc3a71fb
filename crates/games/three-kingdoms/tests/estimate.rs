//! The searching levels' position estimate (`bots::win_estimate`): the sides' shares add up
//! to 1 in every position of whole games, teammates share their side's, and a finished game
//! scores its winners 1 and the others 0.

use engine::{Game, MatchRng, Seat};
use three_kingdoms::{Config, Role, ThreeKingdoms, bots::win_estimate};

#[test]
fn estimates_are_side_shares() {
    let mut positions = 0;
    for seed in 0..20 {
        let mut g = ThreeKingdoms::new(&Config::players(5), seed).unwrap();
        let bots_rng = &mut MatchRng::new(seed);
        let mut bots: Vec<_> = (0..5).map(|_| three_kingdoms::bot("heuristic").unwrap()).collect();
        while let Some(seat) = g.to_act().first() {
            let seats: Vec<Seat> = Seat::all(5).collect();
            let e: Vec<f64> = seats.iter().map(|&s| win_estimate(&g, s)).collect();
            assert!(e.iter().all(|x| (0.0..=1.0).contains(x)), "{e:?}");
            // One member of each side: the Lord's side, the Rebels, each Spy.
            let mut sum = 0.0;
            let mut rebel_counted = false;
            for (s, x) in seats.iter().zip(&e) {
                match g.players[s.index()].role {
                    Role::Lord => sum += x,
                    Role::Rebel if !rebel_counted => {
                        sum += x;
                        rebel_counted = true;
                    }
                    Role::Spy => sum += x,
                    _ => {}
                }
            }
            let loyal: Vec<f64> = seats
                .iter()
                .filter(|s| matches!(g.players[s.index()].role, Role::Lord | Role::Loyalist))
                .map(|s| e[s.index()])
                .collect();
            assert!(loyal.windows(2).all(|w| w[0] == w[1]), "{loyal:?}");
            assert!((sum - 1.0).abs() < 1e-9, "seed {seed}: {e:?}");
            let legal = g.legal_actions(seat);
            let a = bots[seat.index()].choose(&engine::Observation::new(&g, seat, &legal), bots_rng);
            g.apply(seat, a).unwrap();
            positions += 1;
        }
        let winners = g.winners().unwrap();
        for s in Seat::all(5) {
            assert_eq!(win_estimate(&g, s), f64::from(u8::from(winners.contains(s))));
        }
    }
    assert!(positions > 1_000);
}
