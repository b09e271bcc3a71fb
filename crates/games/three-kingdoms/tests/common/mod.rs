//! What the scenario tests (scenarios.rs, defects.rs) share: moves in the compact card
//! notation, and a plain table of four.
#![allow(dead_code)] // each test file uses a different part of it

use engine::{Game, Seat};
use three_kingdoms::setup::{Scenario, SeatSetup as S, card};
use three_kingdoms::state::Frame;
use three_kingdoms::{Action, Event, General as G, Kind, Role, Targets, ThreeKingdoms};

pub fn act(g: &mut ThreeKingdoms, seat: u8, a: Action) -> Vec<Event> {
    g.apply(Seat(seat), a).unwrap_or_else(|e| panic!("{a:?} by seat {seat} refused: {e} ({:?})", g.pending))
}

pub fn waiting(g: &ThreeKingdoms) -> u8 {
    g.pending.expect("someone must decide").seat().0
}

/// Passes every Negate window now open.
pub fn pass_negates(g: &mut ThreeKingdoms) {
    while matches!(g.stack.last(), Some(Frame::Negate { .. })) && g.pending.is_some() {
        let s = waiting(g);
        act(g, s, Action::Pass);
    }
}

pub fn use1(spec: &str, kind: Kind, t: u8) -> Action {
    Action::Use { card: card(spec), kind, targets: Targets::one(Seat(t)) }
}

pub fn respond(spec: &str, kind: Kind) -> Action {
    Action::Respond { card: card(spec), kind }
}

/// Four plain seats: Xu Chu (Lord), Lv Meng (Rebel), Huang Gai (Loyalist), Zhang Liao (Spy).
pub fn plain() -> [S; 4] {
    [
        S::new(G::XuChu, Role::Lord),
        S::new(G::LvMeng, Role::Rebel),
        S::new(G::HuangGai, Role::Loyalist),
        S::new(G::ZhangLiao, Role::Spy),
    ]
}

pub fn build(seats: [S; 4]) -> ThreeKingdoms {
    Scenario::new(seats.to_vec()).build().expect("scenario")
}

/// Ends seat 3's turn so that seat 0's turn (and judgement phase) begins.
pub fn to_seat0_turn(seats: [S; 4], top: &[&'static str]) -> ThreeKingdoms {
    let mut g = Scenario::new(seats.to_vec()).current(3).draw_top(top).build().unwrap();
    act(&mut g, 3, Action::EndPlay);
    g
}
