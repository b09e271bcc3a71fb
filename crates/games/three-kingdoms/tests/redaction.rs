//! Hidden information: no hand, secret role or deck order leaks through a view or an event.

use engine::{Game, MatchRng, Seat, Viewer};
use three_kingdoms::{Action, Config, Event, Role, ThreeKingdoms};

/// Random games, seeds `0..seeds` with 4 to 10 seats, each until it ends or for 3,000 moves:
/// `step(seed, game, seat, action)` makes each move (the first seat to act, an action drawn
/// from its legal ones), so it can look at the game before and after.
fn random_games(seeds: u64, mut step: impl FnMut(u64, &mut ThreeKingdoms, Seat, Action)) {
    for seed in 0..seeds {
        let players = 4 + (seed % 7) as u8;
        let mut g = ThreeKingdoms::new(&Config::players(players), seed).unwrap();
        let mut rng = MatchRng::new(seed);
        let mut steps = 0;
        while g.outcome().is_none() && steps < 3_000 {
            let seat = g.to_act().first().unwrap();
            let legal = g.legal_actions(seat);
            let a: Action = *rng.pick(&legal);
            step(seed, &mut g, seat, a);
            steps += 1;
        }
    }
}

/// Plays random games and checks every view and every event as each viewer sees it.
#[test]
fn views_and_events_hide_what_a_seat_may_not_see() {
    let mut events_checked = 0;
    random_games(40, |seed, g, seat, a| {
        let events = g.apply(seat, a).unwrap();
        for v in Viewer::all(g.num_seats()) {
            let view = g.view(v);
            // Hands: only the viewer's own.
            assert_eq!(view.hand, v.as_seat().map(|s| g.p(s).hand.clone()).unwrap_or_default());
            for p in &view.players {
                let real = g.p(p.seat);
                // Roles: the Lord's, the dead's, one's own.
                let may_know = real.role == Role::Lord || !real.alive || v.is(p.seat) || g.outcome().is_some();
                assert_eq!(p.role.is_some(), may_know, "seed {seed}: role of {:?} seen by {v:?}", p.seat);
                assert_eq!(p.hand_count as usize, real.hand.len());
            }
            assert_eq!(view.draw_count as usize, g.draw.len());
            for e in &events {
                let Some(seen) = g.view_event(e, v) else { continue };
                events_checked += 1;
                match seen {
                    Event::Drew { seat, cards, .. } | Event::Dealt { seat, cards, .. } if !v.is(seat) => {
                        assert!(cards.is_empty(), "seed {seed}: {v:?} saw {seat:?}'s drawn cards")
                    }
                    Event::Looked { seat, cards } if !v.is(seat) => assert!(cards.is_empty()),
                    Event::Moved { from, to, card, public: false } if !v.is(from) && !v.is(to) => {
                        assert!(card.is_none(), "seed {seed}: a face-down card shown to {v:?}")
                    }
                    _ => {}
                }
            }
        }
    });
    assert!(events_checked > 10_000, "only {events_checked} events checked");
}

/// Resampling what a seat cannot see keeps its view: the suite checks this at every step;
/// here a spectator's view of a game in progress does not hold a single hand card.
#[test]
fn a_spectator_sees_no_hand() {
    let mut g = ThreeKingdoms::new(&Config::players(6), 9).unwrap();
    let mut rng = MatchRng::new(1);
    for _ in 0..200 {
        let Some(seat) = g.to_act().first() else { break };
        let legal = g.legal_actions(seat);
        g.apply(seat, *rng.pick(&legal)).unwrap();
    }
    let view = g.view(Viewer::Spectator);
    assert!(view.hand.is_empty() && view.peek.is_empty());
    let json = serde_json::to_string(&view).unwrap();
    for s in Seat::all(6) {
        for c in &g.p(s).hand {
            // A hand card may be named in the view only if it is also face up somewhere.
            let public = view.discard.contains(c) || view.table.contains(c);
            assert!(public || !json.contains(&format!("\"hand\":[{}", c.0)));
        }
    }
}

/// Hand cards are picked blind (Dismantle, Stealing Sheep, Retaliation, Frost Blade): the
/// victim's hand is presented to the picker in an order shuffled for each pick from the match
/// RNG, so knowing where a card lies in the real hand (one seen entering it face up goes at the
/// end) is no use. Position `i` took the real hand's `i`-th card every time before.
#[test]
fn hand_picks_are_blind() {
    let (mut picks, mut same, mut chance) = (0u32, 0u32, 0f64);
    random_games(120, |_, g, seat, a| {
        let target = match (g.pending, a) {
            (
                Some(three_kingdoms::state::Pending::Pick { from, .. }),
                Action::Pick { zone: three_kingdoms::Zone::Hand(i) },
            ) if g.p(from).hand.len() >= 2 => Some((from, g.p(from).hand.clone(), i as usize)),
            _ => None,
        };
        g.apply(seat, a).unwrap();
        if let Some((from, before, i)) = target {
            let after = &g.p(from).hand;
            let gone: Vec<_> = before.iter().filter(|c| !after.contains(c)).collect();
            if gone.len() == 1 {
                picks += 1;
                same += u32::from(*gone[0] == before[i]);
                chance += 1.0 / before.len() as f64;
            }
        }
    });
    assert!(picks >= 100, "only {picks} picks");
    // Chance would be `chance` (the mean of 1/hand size); allow a wide margin.
    assert!(
        f64::from(same) < chance * 1.5 + 10.0,
        "{same} of {picks} picks took the card at the chosen position (chance {chance:.0})"
    );
}
