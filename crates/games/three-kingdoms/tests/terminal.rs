//! Terminal play: the view renders, every legal action has words, and commands parse against
//! the numbered list (bad ones are refused and change nothing). A scripted player plays a
//! whole game by typing menu numbers.

use engine::{Game, MatchRng, Observation, Seat, Viewer};
use three_kingdoms::text::{describe_action, parse_command, render_view};
use three_kingdoms::{Action, Config, ThreeKingdoms, bot};

#[test]
fn a_scripted_player_finishes_a_game_by_menu_numbers() {
    let mut g = ThreeKingdoms::new(&Config::players(5), 4).unwrap();
    let mut bots: Vec<_> = (0..5).map(|_| bot("heuristic").unwrap()).collect();
    let mut rng = MatchRng::new(4);
    let me = Seat(0);
    let mut typed = 0;
    while g.outcome().is_none() {
        let seat = g.to_act().first().unwrap();
        let legal = g.legal_actions(seat);
        let chosen = bots[seat.index()].choose(&Observation::new(&g, seat, &legal), &mut rng);
        let action = if seat == me {
            let screen = render_view(&g, &g.view(Viewer::seat(me)));
            assert!(screen.contains("You: ") && screen.contains("hand:"), "{screen}");
            for a in &legal {
                assert!(!describe_action(&g, a).is_empty());
            }
            assert!(parse_command("nonsense", &legal).is_err());
            assert!(parse_command("0", &legal).is_err());
            assert!(parse_command("help", &legal).is_err());
            let i = legal.iter().position(|a| *a == chosen).unwrap() + 1;
            typed += 1;
            parse_command(&format!(" {i} "), &legal).unwrap()
        } else {
            chosen
        };
        g.apply(seat, action).unwrap();
    }
    assert!(typed > 5);
    assert!(parse_command("pass", &[Action::Pass]).is_ok());
    assert!(parse_command("end", &[Action::Pass]).is_err());
}

/// A player's screen tells other seats' draws without an empty card list.
#[test]
fn hidden_draws_read_as_counts() {
    use three_kingdoms::Event;
    use three_kingdoms::text::describe_event;
    let names: Vec<String> = ["Sun Quan", "Zhou Yu"].map(String::from).to_vec();
    let me = Viewer::seat(Seat(1));
    let drew = Event::Drew { seat: Seat(0), cards: Vec::new(), count: 2, hand: 6 };
    assert_eq!(describe_event(&drew, me, &names).unwrap(), "Sun Quan drew 2 cards (6 in hand).");
    let dealt = Event::Dealt { seat: Seat(0), cards: Vec::new(), count: 4 };
    assert_eq!(describe_event(&dealt, me, &names).unwrap(), "Sun Quan drew 4 cards to start.");
    // The real game's redaction gives exactly those events to another seat.
    let mut g = ThreeKingdoms::new(&Config::players(4), 2).unwrap();
    let mut rng = MatchRng::new(2);
    let mut seen = 0;
    while g.outcome().is_none() && seen < 3 {
        let seat = g.to_act().first().unwrap();
        let legal = g.legal_actions(seat);
        for e in g.apply(seat, *rng.pick(&legal)).unwrap() {
            let other = Viewer::seat(Seat(((e_seat(&e).unwrap_or(0)) + 1) % 4));
            if let Some(line) = g.view_event(&e, other).and_then(|r| describe_event(&r, other, &names))
                && matches!(e, Event::Drew { .. } | Event::Dealt { .. })
            {
                assert!(
                    !line.contains('♠') && !line.contains('♥') && !line.contains('♣') && !line.contains('♦'),
                    "{line}"
                );
                seen += 1;
            }
        }
    }
    assert!(seen >= 3);
}

fn e_seat(e: &three_kingdoms::Event) -> Option<u8> {
    match e {
        three_kingdoms::Event::Drew { seat, .. } | three_kingdoms::Event::Dealt { seat, .. } => Some(seat.0),
        _ => None,
    }
}
