//! Hidden information: a pilot never sees another pilot's unconfirmed (or confirmed but not yet
//! revealed) choice, nor the Ace's hand or picks; the Ace never sees the pilots' hands.
//! Changing exactly what a seat cannot see changes neither its view nor its bot's choice.

use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer, derive_seed};
use proptest::prelude::*;
use wolfpack::{Action, Config, Event, Phase, WolfPack};

/// Plays `steps` random moves from `seed`.
fn random_position(pilots: u8, seed: u64, steps: usize) -> WolfPack {
    let mut g = WolfPack::new(&Config::pilots(pilots), seed).unwrap();
    let mut rng = MatchRng::new(seed);
    for _ in 0..steps {
        let Some(seat) = g.to_act().nth(0) else { break };
        let legal = g.legal_actions(seat);
        g.apply(seat, *rng.pick(&legal)).unwrap();
    }
    g
}

#[test]
fn another_pilots_choice_never_shows_until_the_reveal() {
    let mut g = WolfPack::from_setup(
        "pilots 3; p0 hand OpenFire,DodgeRoll; p1 hand MidAirRegroup; p2 hand CoverFire; pilot deck OpenFire*9; ace deck OpenFire*9",
    )
    .unwrap();
    // Two different choices by p0: what p1, p2, the Ace and spectators see is identical.
    let mut a = g.clone();
    let mut b = g.clone();
    let ea = a.apply(Seat(0), Action::Select { card: 0, target: Some(Seat(3)), confirm: true }).unwrap();
    let eb = b.apply(Seat(0), Action::Discard { cards: 0b11, confirm: true }).unwrap();
    for v in [Viewer::seat(Seat(1)), Viewer::seat(Seat(2)), Viewer::seat(Seat(3)), Viewer::Spectator] {
        assert_eq!(a.view(v), b.view(v), "{v:?} sees a difference");
        let seen = |g: &WolfPack, e: &[Event]| e.iter().filter_map(|e| g.view_event(e, v)).collect::<Vec<_>>();
        assert_eq!(seen(&a, &ea), seen(&b, &eb), "{v:?} is told a difference");
    }
    assert_ne!(a.view(Viewer::seat(Seat(0))), b.view(Viewer::seat(Seat(0))));
    // An unconfirmed change is not even announced: it is a secret move, which a server shows
    // to its pilot alone (issue 46: not even a move counter may tell the others it happened).
    let change = Action::Select { card: 1, target: Some(Seat(2)), confirm: false };
    assert!(g.is_secret(Seat(0), &change));
    assert!(!g.is_secret(Seat(0), &Action::Select { card: 1, target: Some(Seat(2)), confirm: true }));
    assert!(!g.is_secret(Seat(0), &Action::Confirm), "who has confirmed is public");
    let others = |g: &WolfPack| [1, 2, 3].map(|s| (g.view(Viewer::seat(Seat(s))), g.legal_actions(Seat(s))));
    let (before, spectator) = (others(&g), g.view(Viewer::Spectator));
    let e = g.apply(Seat(0), change).unwrap();
    assert!(e.iter().all(|e| g.view_event(e, Viewer::seat(Seat(1))).is_none()));
    assert_eq!(others(&g), before, "another seat's view or legal actions changed");
    assert_eq!(g.view(Viewer::Spectator), spectator);
}

#[test]
fn the_aces_hand_is_hidden_and_pilots_hands_hidden_from_the_ace() {
    let g = random_position(3, 5, 40);
    for s in 0..3 {
        let v = g.view(Viewer::seat(Seat(s)));
        assert!(v.ace.hand.is_none());
        assert!(v.pilots.iter().all(|p| p.hand.is_some()), "pilots see each other's hands");
    }
    let ace = g.view(Viewer::seat(Seat(3)));
    assert!(ace.ace.hand.is_some());
    assert!(ace.pilots.iter().all(|p| p.hand.is_none()));
    assert!(g.view(Viewer::Spectator).ace.hand.is_none());
}

#[test]
fn determinizing_changes_no_view_and_no_bot_choice() {
    let (mut checked, mut resampled, mut choices_resampled) = (0, 0, 0);
    for i in 0..300 {
        let seed = derive_seed(77, i);
        let pilots = 1 + (i % 5) as u8;
        let g = random_position(pilots, seed, (i % 60) as usize);
        let Some(seat) = g.to_act().first() else { continue };
        let legal = g.legal_actions(seat);
        let mut rng = MatchRng::new(seed);
        for _ in 0..3 {
            let d = g.determinize(Viewer::seat(seat), &mut rng);
            assert_eq!(d.view(Viewer::seat(seat)), g.view(Viewer::seat(seat)));
            assert_eq!(d.legal_actions(seat), legal);
            for name in ["random", "heuristic", "rookie", "veteran"] {
                let pick = |game: &WolfPack| {
                    let mut bot: Box<dyn Bot<WolfPack>> = wolfpack::bot(name).unwrap();
                    bot.choose(&Observation::new(game, seat, &legal), &mut MatchRng::new(seed))
                };
                assert_eq!(pick(&g), pick(&d), "{name} at seed {seed} looked at hidden information");
            }
            checked += 1;
        }
        // The test can fail: what is hidden does get resampled.
        let d = g.determinize(Viewer::seat(seat), &mut rng);
        if d.ace().hand != g.ace().hand && !g.is_ace(seat) {
            resampled += 1;
        }
        if g.phase() == Phase::Selection
            && (0..pilots).any(|p| p != seat.0 && d.pilot(Seat(p)).unwrap().choice != g.pilot(Seat(p)).unwrap().choice)
        {
            choices_resampled += 1;
        }
    }
    assert!(checked > 600, "{checked}");
    assert!(resampled > 50 && choices_resampled > 5, "{resampled} {choices_resampled}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `legal_actions` is exactly what `apply` accepts, over random positions and a wide set of
    /// candidate actions for every seat.
    #[test]
    fn legal_matches_is_legal(pilots in 1u8..=5, seed in any::<u64>(), steps in 0usize..120) {
        let g = random_position(pilots, seed, steps);
        for s in 0..=pilots {
            let seat = Seat(s);
            let legal = g.legal_actions(seat);
            for a in g.candidate_actions(seat) {
                prop_assert_eq!(legal.contains(&a), g.is_legal(seat, &a), "{:?} by {}", a, seat);
                let mut copy = g.clone();
                prop_assert_eq!(legal.contains(&a), copy.apply(seat, a).is_ok());
            }
        }
    }
}
