//! `Game::decision` across Ivanhoe windows: a window is a new decision (a response), a pass
//! that leaves others to answer is the same one, and the window after it — with the very same
//! seats — is a new one again, so a server's clock never carries over from one to the next.

use engine::{Decision, DecisionKind, Game, Seat, SeatSet};
use ivanhoe::setup::position;
use ivanhoe::{Action, Card};

fn seats(list: &[u8]) -> SeatSet {
    list.iter().map(|&s| Seat(s)).collect()
}

fn act(g: &mut ivanhoe::Ivanhoe, seat: u8, action: Action) -> Decision {
    g.apply(Seat(seat), action).unwrap_or_else(|e| panic!("P{} {action:?}: {e}", seat + 1));
    g.decision()
}

#[test]
fn every_window_is_a_new_decision_even_with_the_same_seats() {
    let mut g = position(
        "
        P1 display=R4 hand=CHARGE,COUNTERCHARGE,R5
        P2 display=R3,Sq2 hand=IVANHOE
        P3 display=R3,R5,Sq3,Sq2
        ",
    )
    .unwrap();
    let turn = g.decision();
    assert_eq!((turn.seats, turn.kind), (seats(&[0]), DecisionKind::Turn));

    let window = act(&mut g, 0, Action::Charge);
    assert_eq!((window.seats, window.kind), (seats(&[1, 2]), DecisionKind::Response));
    assert_ne!(window.serial, turn.serial);
    assert_eq!(g.timeout_action(Seat(2)), Some(Action::Pass));

    let passed = act(&mut g, 1, Action::Pass);
    assert_eq!(passed.seats, seats(&[2]));
    assert_eq!(passed.serial, window.serial, "a pass leaves the same decision open to the others");

    let resumed = act(&mut g, 2, Action::Pass);
    assert_eq!((resumed.seats, resumed.kind), (seats(&[0]), DecisionKind::Turn));
    assert!(![turn.serial, window.serial].contains(&resumed.serial));

    let again = act(&mut g, 0, Action::Countercharge);
    assert_eq!((again.seats, again.kind), (window.seats, DecisionKind::Response));
    assert!(![turn.serial, window.serial, resumed.serial].contains(&again.serial));

    let cancelled = act(&mut g, 1, Action::Ivanhoe);
    assert_eq!((cancelled.seats, cancelled.kind), (seats(&[0]), DecisionKind::Turn));
    assert_ne!(cancelled.serial, again.serial);

    let played = act(&mut g, 0, Action::Play { card: Card::Red5 });
    assert_eq!(played, cancelled, "a card played: the same turn goes on");

    let next = act(&mut g, 0, Action::EndTurn);
    assert_ne!(next.serial, played.serial);
    assert_ne!(next.seats, seats(&[0]));
}

#[test]
fn a_refused_answer_changes_no_decision() {
    let mut g = position("P1 display=R4 hand=CHARGE\nP2 display=R3,Sq2").unwrap();
    let window = act(&mut g, 0, Action::Charge);
    assert!(g.apply(Seat(0), Action::Pass).is_err());
    assert!(g.apply(Seat(1), Action::Ivanhoe).is_err());
    assert_eq!(g.decision(), window);
}
