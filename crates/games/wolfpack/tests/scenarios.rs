//! Rule scenarios: every card, every state transition, the discard debt, shooting down,
//! reshuffles, hidden selection. Positions come from the compact setup notation.

use engine::{Game, Seat, Viewer};
use wolfpack::{Action, Card, Event, Kind, Phase, Revealed, Side, Transition, WolfPack};

fn game(setup: &str) -> WolfPack {
    WolfPack::from_setup(setup).unwrap_or_else(|e| panic!("setup: {e}"))
}

fn act(g: &mut WolfPack, seat: u8, a: Action) -> Vec<Event> {
    let events = g.apply(Seat(seat), a).unwrap_or_else(|e| panic!("{a:?} by seat {seat} refused: {e}"));
    g.check_invariants().unwrap();
    events
}

fn refused(g: &WolfPack, seat: u8, a: Action) -> &'static str {
    let mut copy = g.clone();
    let e = copy.apply(Seat(seat), a).expect_err("should be refused");
    assert!(copy == *g, "a refusal changed the state");
    assert!(!g.legal_actions(Seat(seat)).contains(&a), "{a:?} is listed but refused");
    e.code
}

fn sel(card: u8, target: Option<u8>) -> Action {
    Action::Select { card, target: target.map(Seat), confirm: true }
}

fn play(card: u8, target: Option<u8>) -> Action {
    Action::Play { card, target: target.map(Seat) }
}

fn transitions(events: &[Event]) -> Vec<Transition> {
    events
        .iter()
        .filter_map(|e| if let Event::Transition { transition, .. } = e { Some(*transition) } else { None })
        .collect()
}

fn damaged(events: &[Event]) -> Vec<(u8, i32, Card)> {
    events
        .iter()
        .filter_map(|e| {
            if let Event::Damaged { seat, amount, source, .. } = e { Some((seat.0, *amount, *source)) } else { None }
        })
        .collect()
}

/// Host proceeds through Confirm (pilots' turn → Ace's turn) and returns the events.
fn proceed(g: &mut WolfPack) -> Vec<Event> {
    let host = g.host().expect("a host").0;
    act(g, host, Action::Proceed)
}

const DECKS: &str = "pilot deck OpenFire*12; ace deck OpenFire*12";

#[test]
fn a_full_turn_takes_every_transition_in_order() {
    let mut g =
        game(&format!("pilots 2; ace plays 3; p0 hand OpenFire; p1 hand Sidewinder; ace hand OpenFire*5; {DECKS}"));
    assert_eq!(g.phase(), Phase::Selection);
    let mut ev = act(&mut g, 1, sel(0, Some(2)));
    ev.extend(act(&mut g, 0, sel(0, Some(2))));
    assert_eq!(g.phase(), Phase::Confirm);
    ev.extend(proceed(&mut g));
    assert_eq!(g.phase(), Phase::BossSelection);
    for i in 0..3 {
        ev.extend(act(&mut g, 2, play(0, Some(i % 2))));
    }
    assert_eq!(g.phase(), Phase::BossPhaseConfirm);
    ev.extend(proceed(&mut g));
    assert_eq!(g.phase(), Phase::Selection);
    assert_eq!(g.turn(), 2);
    use Transition::*;
    assert_eq!(
        transitions(&ev),
        [
            SelectionToAction,
            ActionToAction,
            ActionToConfirm,
            ConfirmToBossDraw,
            BossDrawToBossSelection,
            BossSelectionToBossSelection,
            BossSelectionToBossSelection,
            BossSelectionToBossAction,
            BossActionToBossAction,
            BossActionToBossAction,
            BossActionToBossPhaseConfirm,
            BossPhaseConfirmToDraw,
            DrawToSelection,
        ]
    );
    // Pilots' cards resolve in seat order whatever the confirm order.
    let order: Vec<u8> =
        ev.iter().filter_map(|e| if let Event::Resolving { seat, .. } = e { Some(seat.0) } else { None }).collect();
    assert_eq!(order, [0, 1, 2, 2, 2]);
    assert_eq!(g.ace().health, 240);
    assert_eq!(g.health(Seat(0)) + g.health(Seat(1)), 85);
}

#[test]
fn open_fire_sidewinder_barrage_deal_their_damage() {
    let mut g = game(&format!("pilots 1; ace plays 2; p0 hand Sidewinder; ace hand AirToAirBarrage,OpenFire; {DECKS}"));
    let ev = act(&mut g, 0, sel(0, Some(1)));
    assert_eq!(damaged(&ev), [(1, 5, Card::Sidewinder)]);
    proceed(&mut g);
    let mut ev = act(&mut g, 1, play(0, Some(0)));
    ev.extend(act(&mut g, 1, play(0, Some(0))));
    assert_eq!(damaged(&ev)[..2], [(0, 10, Card::AirToAirBarrage), (0, 5, Card::OpenFire)]);
}

#[test]
fn dodge_roll_negates_one_open_fire_next_opposing_turn_but_not_sidewinder() {
    // The Ace dodges on its turn; the pilots' next turn: Open Fire negated once, Sidewinder not.
    let mut g = game(&format!(
        "pilots 3; ace plays 1; p0 hand OpenFire; p1 hand OpenFire; p2 hand Sidewinder; ace hand DodgeRoll; {DECKS}"
    ));
    for s in 0..3 {
        act(&mut g, s, Action::Discard { cards: 1, confirm: true });
    }
    proceed(&mut g);
    let ev = act(&mut g, 3, play(0, Some(3)));
    assert!(ev.iter().any(|e| matches!(e, Event::EffectPlaced { effect } if effect.kind == Kind::DodgeRoll)));
    proceed(&mut g);
    // Hands were discarded; redeal what we need through the deck (all Open Fire): play them.
    let hand = |g: &WolfPack, s: u8| g.pilot(Seat(s)).unwrap().hand.clone();
    assert!(hand(&g, 0).iter().all(|&c| c == Card::OpenFire));
    let mut ev = Vec::new();
    for s in 0..3 {
        ev.extend(act(&mut g, s, sel(0, Some(3))));
    }
    let negated =
        ev.iter().filter(|e| matches!(e, Event::Negated { seat: Seat(3), source: Card::OpenFire, .. })).count();
    assert_eq!(negated, 1, "one Dodge Roll negates one hit");
    assert_eq!(damaged(&ev), [(3, 5, Card::OpenFire), (3, 5, Card::OpenFire)]);
    assert!(g.effects().effects.is_empty(), "the Dodge Roll is used up");
}

#[test]
fn sidewinder_ignores_dodge_roll_and_unused_dodge_ends_at_confirm() {
    let mut g = game(
        "pilots 1; ace plays 1; p0 hand OpenFire; ace hand DodgeRoll; pilot deck Sidewinder*3,OpenFire*9; ace deck OpenFire*9",
    );
    act(&mut g, 0, Action::Discard { cards: 1, confirm: true });
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(1)));
    proceed(&mut g);
    // The pilot drew Sidewinder: it hits through the Dodge Roll, which then ends at Confirm.
    let hand = g.pilot(Seat(0)).unwrap().hand.clone();
    let i = hand.iter().position(|&c| c == Card::Sidewinder).unwrap() as u8;
    let ev = act(&mut g, 0, sel(i, Some(1)));
    assert_eq!(damaged(&ev), [(1, 5, Card::Sidewinder)]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Negated { .. })));
    assert!(ev.iter().any(|e| matches!(e, Event::EffectCompleted { .. })), "ended at the pilots' Confirm");
    assert!(g.effects().effects.is_empty());
}

#[test]
fn pilot_dodge_roll_protects_a_teammate_from_open_fire_and_sweeping_fire_not_barrage() {
    let mut g = game(&format!(
        "pilots 2; ace plays 3; p0 hand DodgeRoll; p1 hand DodgeRoll; ace hand OpenFire,AirToAirBarrage,SweepingFire; {DECKS}"
    ));
    act(&mut g, 0, sel(0, Some(1)));
    act(&mut g, 1, sel(0, Some(1)));
    proceed(&mut g);
    let mut ev = act(&mut g, 2, play(0, Some(1)));
    ev.extend(act(&mut g, 2, play(0, Some(1))));
    ev.extend(act(&mut g, 2, play(0, None)));
    let hits = damaged(&ev);
    // Open Fire negated (first Dodge), Barrage hits, Sweeping Fire: p0 hit, p1 negated (second).
    assert_eq!(hits, [(1, 10, Card::AirToAirBarrage), (0, 5, Card::SweepingFire)]);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Negated { seat: Seat(1), .. })).count(), 2);
}

#[test]
fn suppression_on_the_ace_ticks_per_action_and_expires_after_four() {
    let mut g = game(&format!("pilots 1; ace plays 3; p0 hand Suppression; ace hand DodgeRoll*5; {DECKS}"));
    let ev = act(&mut g, 0, sel(0, Some(1)));
    assert!(ev.iter().any(|e| matches!(e, Event::EffectPlaced { effect } if effect.card == Card::Suppression)));
    proceed(&mut g);
    let mut ev = Vec::new();
    for _ in 0..3 {
        ev.extend(act(&mut g, 1, play(0, Some(1))));
    }
    assert_eq!(damaged(&ev), [(1, 2, Card::Suppression); 3]);
    let s = g.effects().effects.iter().find(|e| e.card == Card::Suppression).unwrap();
    assert_eq!(s.kind, Kind::Suppression { actions: 1, turns: 1 });
    proceed(&mut g);
    act(&mut g, 0, Action::Discard { cards: 1, confirm: true });
    proceed(&mut g);
    let mut ev = Vec::new();
    for _ in 0..3 {
        let a = g.legal_actions(Seat(1))[0];
        ev.extend(act(&mut g, 1, a));
    }
    // The fourth action ticks and completes it; the next two do not tick.
    let on_ace: Vec<_> = damaged(&ev).into_iter().filter(|d| d.0 == 1).collect();
    assert_eq!(on_ace, [(1, 2, Card::Suppression)]);
    assert!(g.effects().effects.iter().all(|e| e.card != Card::Suppression), "4 actions: complete");
}

#[test]
fn suppression_on_a_pilot_expires_after_two_turns_and_a_discard_is_not_an_action() {
    let mut g = game(&format!("pilots 1; ace plays 1; p0 hand OpenFire; ace hand Suppression; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(0)));
    proceed(&mut g);
    // Turn 2: a discard is no action: no tick; the turn still counts down.
    let ev = act(&mut g, 0, Action::Discard { cards: 1, confirm: true });
    assert!(damaged(&ev).is_empty());
    let s = g.effects().effects.iter().find(|e| e.card == Card::Suppression).unwrap();
    assert_eq!(s.kind, Kind::Suppression { actions: 4, turns: 1 });
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(0)));
    proceed(&mut g);
    // Turn 3: a play ticks, then the second turn ends it.
    let ev = act(&mut g, 0, sel(0, Some(1)));
    assert_eq!(damaged(&ev)[0], (0, 2, Card::Suppression));
    assert!(g.effects().effects.iter().all(|e| e.card != Card::Suppression));
}

#[test]
fn pulling_gs_keeps_the_ace_off_its_user_and_spares_it_from_sweeping_fire() {
    let mut g = game(&format!(
        "pilots 2; ace plays 2; p0 hand PullingGs; p1 hand OpenFire; ace hand OpenFire,SweepingFire; {DECKS}"
    ));
    act(&mut g, 0, sel(0, Some(2)));
    act(&mut g, 1, sel(0, Some(2)));
    proceed(&mut g);
    assert_eq!(refused(&g, 2, play(0, Some(0))), "invalid_target");
    let targets: Vec<Action> = g.legal_actions(Seat(2));
    assert!(targets.contains(&play(0, Some(1))));
    let mut ev = act(&mut g, 2, play(1, None));
    ev.extend(act(&mut g, 2, play(0, Some(1))));
    assert!(ev.iter().any(|e| matches!(e, Event::Spared { seat: Seat(0), .. })));
    assert_eq!(damaged(&ev), [(1, 5, Card::SweepingFire), (1, 5, Card::OpenFire)]);
    assert!(g.effects().effects.is_empty(), "ended at BossPhaseConfirm");
}

#[test]
fn the_aces_pulling_gs_leaves_a_pilot_only_own_side_cards_or_a_discard() {
    let mut g = game(
        "pilots 1; ace plays 1; p0 hand DodgeRoll; ace hand PullingGs; pilot deck OpenFire*12; ace deck OpenFire*9",
    );
    act(&mut g, 0, sel(0, Some(0)));
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(0)));
    proceed(&mut g);
    // Three Open Fires, none can target the Ace: only discards.
    assert_eq!(refused(&g, 0, sel(0, Some(1))), "invalid_target");
    let legal = g.legal_actions(Seat(0));
    assert!(legal.iter().all(|a| matches!(a, Action::Discard { .. })), "{legal:?}");
    act(&mut g, 0, Action::Discard { cards: 0b11, confirm: true });
    assert!(g.effects().effects.is_empty(), "ended at the pilots' Confirm");
    // Discarding 2 costs 1 card at the next Draw.
    assert_eq!(g.pilot(Seat(0)).unwrap().debt, 1);
}

#[test]
fn mid_air_regroup_heals_ten_up_to_the_maximum() {
    let mut g = game(&format!("pilots 2; p0 health 45 hand MidAirRegroup; p1 health 20 hand MidAirRegroup; {DECKS}"));
    let mut ev = act(&mut g, 0, sel(0, Some(0)));
    ev.extend(act(&mut g, 1, sel(0, Some(1))));
    let heals: Vec<_> = ev.iter().filter(|e| matches!(e, Event::Healed { .. })).cloned().collect();
    assert_eq!(
        heals,
        [
            Event::Healed { seat: Seat(0), amount: 5, health: 50 },
            Event::Healed { seat: Seat(1), amount: 10, health: 30 }
        ]
    );
    assert_eq!(refused(&g, 0, sel(0, Some(2))), "not_selection");
}

#[test]
fn cover_fire_takes_one_play_from_the_ace() {
    let mut g = game(&format!("pilots 1; ace plays 3; p0 hand CoverFire; ace hand OpenFire*5; {DECKS}"));
    act(&mut g, 0, sel(0, None));
    let ev = proceed(&mut g);
    assert!(ev.contains(&Event::AcePlays { count: 2 }));
    let mut ev = act(&mut g, 1, play(0, Some(0)));
    ev.extend(act(&mut g, 1, play(0, Some(0))));
    use Transition::*;
    assert_eq!(
        transitions(&ev)[..3],
        [BossSelectionToBossSelection, BossSelectionToBossAction, BossActionToBossAction]
    );
    assert_eq!(g.phase(), Phase::BossPhaseConfirm);
    assert!(g.effects().effects.is_empty());
}

#[test]
fn into_the_fog_keeps_pilots_off_each_other() {
    let mut g = game(
        "pilots 2; ace plays 1; p0 hand OpenFire; p1 hand OpenFire; ace hand IntoTheFog; pilot deck MidAirRegroup,DodgeRoll,OpenFire*9; ace deck OpenFire*9",
    );
    act(&mut g, 0, sel(0, Some(2)));
    act(&mut g, 1, sel(0, Some(2)));
    proceed(&mut g);
    act(&mut g, 2, play(0, None));
    proceed(&mut g);
    let hand = g.pilot(Seat(0)).unwrap().hand.clone();
    assert_eq!(hand, [Card::MidAirRegroup, Card::DodgeRoll, Card::OpenFire]);
    assert_eq!(refused(&g, 0, sel(0, Some(1))), "invalid_target");
    assert_eq!(refused(&g, 0, sel(1, Some(1))), "invalid_target");
    act(&mut g, 0, sel(0, Some(0)));
    act(&mut g, 1, sel(0, Some(2)));
    assert!(g.effects().effects.iter().all(|e| e.card != Card::IntoTheFog), "ended at Confirm");
}

#[test]
fn sweeping_fire_hits_every_pilot() {
    let mut g = game(&format!(
        "pilots 3; ace plays 1; p0 hand OpenFire; p1 hand OpenFire; p2 hand OpenFire; ace hand SweepingFire; {DECKS}"
    ));
    for s in 0..3 {
        act(&mut g, s, Action::Discard { cards: 1, confirm: true });
    }
    proceed(&mut g);
    let ev = act(&mut g, 3, play(0, None));
    assert_eq!(damaged(&ev), [(0, 5, Card::SweepingFire), (1, 5, Card::SweepingFire), (2, 5, Card::SweepingFire)]);
}

#[test]
fn discarding_k_cards_draws_k_minus_one_fewer() {
    let mut g =
        game(&format!("pilots 2; ace plays 1; p0 hand OpenFire*3; p1 hand OpenFire*3; ace hand DodgeRoll; {DECKS}"));
    act(&mut g, 0, Action::Discard { cards: 0b111, confirm: true });
    act(&mut g, 1, Action::Discard { cards: 0b001, confirm: true });
    assert_eq!(g.pilot(Seat(0)).unwrap().debt, 2);
    assert_eq!(g.pilot(Seat(1)).unwrap().debt, 0);
    proceed(&mut g);
    act(&mut g, 2, play(0, Some(2)));
    proceed(&mut g);
    assert_eq!(g.pilot(Seat(0)).unwrap().hand.len(), 1, "3 - 0 held - 2 debt");
    assert_eq!(g.pilot(Seat(1)).unwrap().hand.len(), 3);
    assert_eq!(g.pilot(Seat(0)).unwrap().debt, 0);
}

#[test]
fn a_shot_down_pilot_leaves_with_its_effects_hand_and_unresolved_card() {
    let mut g = game(&format!(
        "pilots 2; ace plays 1; p0 health 5 hand DodgeRoll,OpenFire; p1 hand OpenFire; ace hand OpenFire; {DECKS}"
    ));
    // p0 dodges for p1; the Ace shoots p0 down: p1's Dodge Roll (placed by p0) ends with it.
    act(&mut g, 0, sel(0, Some(1)));
    act(&mut g, 1, sel(0, Some(2)));
    proceed(&mut g);
    let ev = act(&mut g, 2, play(0, Some(0)));
    assert!(ev.contains(&Event::ShotDown { seat: Seat(0) }));
    assert!(g.effects().effects.is_empty());
    let p0 = g.pilot(Seat(0)).unwrap();
    assert!(p0.hand.is_empty() && !p0.alive());
    assert_eq!(g.host(), Some(Seat(1)));
    assert_eq!(refused(&g, 0, Action::Proceed), "not_host");
    proceed(&mut g);
    assert!(g.to_act().iter().eq([Seat(1)]), "a shot-down pilot does not select");
    assert_eq!(refused(&g, 0, sel(0, Some(2))), "shot_down");
}

#[test]
fn a_card_whose_target_is_shot_down_first_fizzles() {
    let mut g = game(&format!(
        "pilots 2; ace plays 2; p0 health 5 hand OpenFire; p1 hand OpenFire; ace hand OpenFire*2; {DECKS}"
    ));
    act(&mut g, 0, sel(0, Some(2)));
    act(&mut g, 1, sel(0, Some(2)));
    proceed(&mut g);
    act(&mut g, 2, play(0, Some(0)));
    let ev = act(&mut g, 2, play(0, Some(0)));
    assert!(ev.contains(&Event::Fizzled { seat: Seat(2), card: Card::OpenFire }));
}

#[test]
fn the_fight_ends_the_moment_a_side_is_at_zero() {
    let mut g = game(&format!("pilots 2; p0 hand OpenFire; p1 hand OpenFire; ace health 5 hand OpenFire; {DECKS}"));
    act(&mut g, 0, sel(0, Some(2)));
    let ev = act(&mut g, 1, sel(0, Some(2)));
    assert!(ev.contains(&Event::FightOver { winner: Side::Pilots }));
    assert_eq!(damaged(&ev).len(), 1, "the second card never resolves");
    assert_eq!(g.phase(), Phase::Over);
    let o = g.outcome().unwrap();
    assert!(o.winners.iter().eq([Seat(0), Seat(1)]), "the pilots win together");
    assert_eq!(refused(&g, 0, Action::Proceed), "game_over");

    // A Suppression tick can end it too: the Ace's own action finishes it.
    let mut g = game(&format!("pilots 1; ace plays 1; p0 hand Suppression; ace health 2 hand OpenFire; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    let ev = act(&mut g, 1, play(0, Some(0)));
    assert_eq!(damaged(&ev), [(1, 2, Card::Suppression)]);
    assert_eq!(g.winner(), Some(Side::Pilots));

    let mut g = game(&format!("pilots 1; ace plays 1; p0 health 10 hand OpenFire; ace hand AirToAirBarrage; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(0)));
    assert_eq!(g.winner(), Some(Side::Ace));
    assert!(g.outcome().unwrap().winners.iter().eq([Seat(1)]));
}

#[test]
fn decks_reshuffle_their_discard_piles() {
    let mut g = game("pilots 1; ace plays 1; p0 hand OpenFire*3; ace hand OpenFire*5; pilot deck OpenFire; ace deck ");
    act(&mut g, 0, Action::Discard { cards: 0b111, confirm: true });
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(0)));
    let ev = proceed(&mut g);
    // Debt 2: one card to draw, from the deck's last card; the Ace draws back its one play.
    assert_eq!(g.pilot(Seat(0)).unwrap().hand.len(), 1);
    let _ = ev;
    act(&mut g, 0, Action::Discard { cards: 1, confirm: true });
    let ev = proceed(&mut g);
    assert!(ev.iter().any(|e| matches!(e, Event::Reshuffled { side: Side::Ace, cards: 1 })), "{ev:?}");
    act(&mut g, 1, play(0, Some(0)));
    let ev = proceed(&mut g);
    assert!(ev.iter().any(|e| matches!(e, Event::Reshuffled { side: Side::Pilots, .. })));
    assert_eq!(g.pilot(Seat(0)).unwrap().hand.len(), 3);
}

#[test]
fn selection_is_hidden_and_may_change_until_confirmed() {
    let mut g = game(&format!("pilots 2; p0 hand OpenFire,DodgeRoll; p1 hand OpenFire; {DECKS}"));
    let ev = act(&mut g, 0, Action::Select { card: 1, target: Some(Seat(1)), confirm: false });
    // Others do not learn of a tentative choice at all.
    for v in [Viewer::seat(Seat(1)), Viewer::seat(Seat(2)), Viewer::Spectator] {
        assert!(ev.iter().all(|e| g.view_event(e, v).is_some() || matches!(e, Event::Chose { .. })));
        assert!(ev.iter().filter_map(|e| g.view_event(e, v)).all(|e| !matches!(e, Event::Chose { .. })));
        let view = g.view(v);
        assert_eq!(view.pilots[0].choice, None);
        assert!(!view.pilots[0].confirmed);
    }
    assert!(g.view(Viewer::seat(Seat(0))).pilots[0].choice.is_some());
    // Change it, then confirm: everyone sees that p0 confirmed, not what.
    act(&mut g, 0, Action::Select { card: 0, target: Some(Seat(2)), confirm: false });
    let ev = act(&mut g, 0, Action::Confirm);
    assert_eq!(ev, [Event::Confirmed { seat: Seat(0) }]);
    let v1 = g.view(Viewer::seat(Seat(1)));
    assert!(v1.pilots[0].confirmed && v1.pilots[0].choice.is_none());
    assert_eq!(refused(&g, 0, Action::Select { card: 1, target: Some(Seat(0)), confirm: true }), "already_confirmed");
    assert!(g.to_act().iter().eq([Seat(1)]));
    let ev = act(&mut g, 1, sel(0, Some(2)));
    assert!(ev.contains(&Event::Revealed {
        seat: Seat(0),
        choice: Revealed::Play { card: Card::OpenFire, target: Some(Seat(2)) }
    }));
}

#[test]
fn refusals_have_stable_codes() {
    let g = game(&format!("pilots 1; p0 hand OpenFire; ace hand OpenFire; {DECKS}"));
    assert_eq!(refused(&g, 0, sel(3, Some(1))), "no_such_card");
    assert_eq!(refused(&g, 0, sel(0, Some(0))), "invalid_target");
    assert_eq!(refused(&g, 0, Action::Confirm), "nothing_to_confirm");
    assert_eq!(refused(&g, 0, Action::Discard { cards: 0, confirm: true }), "bad_discard");
    assert_eq!(refused(&g, 0, Action::Discard { cards: 2, confirm: true }), "bad_discard");
    assert_eq!(refused(&g, 1, sel(0, Some(1))), "not_a_pilot");
    assert_eq!(refused(&g, 1, play(0, Some(0))), "not_ace_selection");
    assert_eq!(refused(&g, 0, Action::Proceed), "not_confirm");
    assert_eq!(refused(&g, 1, Action::Pass), "not_ace_selection");
}

#[test]
fn the_ace_passes_only_with_nothing_playable() {
    // Both pilots pull G's on the Ace, which holds only Open Fire: it must pass.
    let mut g = game(&format!("pilots 1; ace plays 2; p0 hand PullingGs; ace hand OpenFire*2; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    assert_eq!(g.legal_actions(Seat(1)), [Action::Pass]);
    let mut ev = act(&mut g, 1, Action::Pass);
    ev.extend(act(&mut g, 1, Action::Pass));
    assert_eq!(g.phase(), Phase::BossPhaseConfirm);
    assert!(!ev.iter().any(|e| matches!(e, Event::Resolving { .. })));
}

#[test]
fn confirm_steps_time_out_to_proceed() {
    let mut g = game(&format!("pilots 2; p0 hand OpenFire; p1 hand OpenFire; ace hand OpenFire*5; {DECKS}"));
    assert_eq!(g.timeout_action(Seat(0)), None);
    act(&mut g, 0, Action::Select { card: 0, target: Some(Seat(2)), confirm: false });
    assert_eq!(g.timeout_action(Seat(0)), Some(Action::Confirm));
    act(&mut g, 0, Action::Confirm);
    act(&mut g, 1, sel(0, Some(2)));
    assert_eq!(g.timeout_action(Seat(0)), Some(Action::Proceed));
    assert_eq!(g.timeout_action(Seat(1)), None);
}

#[test]
fn the_aces_picks_stay_hidden_until_they_resolve() {
    let mut g = game(&format!("pilots 1; ace plays 2; p0 hand OpenFire; ace hand AirToAirBarrage,OpenFire*4; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    let ev = act(&mut g, 1, play(0, Some(0)));
    let pilot = Viewer::seat(Seat(0));
    for e in &ev {
        if let Some(Event::AcePicked { card, target, .. }) = g.view_event(e, pilot) {
            assert_eq!((card, target), (None, None));
        }
    }
    let v = g.view(pilot);
    assert_eq!(v.queue[0].card, None);
    assert!(v.ace.hand.is_none());
    assert!(g.view(Viewer::seat(Seat(1))).ace.hand.is_some());
    assert_eq!(g.view(Viewer::seat(Seat(1))).queue[0].card, Some(Card::AirToAirBarrage));
}

// ---- issue 26, item 10: no empty Action states ------------------------------------------

/// The states entered, in order, as the Transition events name them.
fn phases(events: &[Event]) -> Vec<Phase> {
    events.iter().filter_map(|e| if let Event::Transition { phase, .. } = e { Some(*phase) } else { None }).collect()
}

/// Every Action or BossAction state resolves exactly one card: the event after entering one
/// is never another transition before a `Resolving`.
fn assert_every_action_state_resolves_a_card(events: &[Event], what: &str) {
    let mut open: Option<Phase> = None;
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::Transition { phase, .. } => {
                assert!(open.is_none(), "{what}: {open:?} entered with no card to resolve (event {i}: {e:?})");
                open = matches!(phase, Phase::Action | Phase::BossAction).then_some(*phase);
            }
            Event::Resolving { .. } => open = None,
            Event::FightOver { .. } => open = None,
            _ => {}
        }
    }
}

#[test]
fn every_pilot_discarding_goes_from_selection_to_confirm_with_no_action_state() {
    let mut g = game(&format!("pilots 2; p0 hand OpenFire*2; p1 hand OpenFire; ace hand OpenFire*5; {DECKS}"));
    let mut ev = act(&mut g, 0, Action::Discard { cards: 0b01, confirm: true });
    ev.extend(act(&mut g, 1, Action::Discard { cards: 0b1, confirm: true }));
    assert_eq!(g.phase(), Phase::Confirm);
    assert_eq!(phases(&ev), [Phase::Confirm], "{ev:?}");
    assert!(ev.iter().any(|e| matches!(e, Event::Revealed { .. })), "the discards are still revealed");
    assert_every_action_state_resolves_a_card(&ev, "all discards");
}

#[test]
fn end_of_turn_effects_end_at_confirm_when_nobody_plays_a_card() {
    // The Ace's Dodge Roll and Pulling G's last the pilots' next turn: they end at its Confirm
    // even when the pilots discard and no Action state comes between.
    let mut g =
        game(&format!("pilots 1; ace plays 2; p0 hand OpenFire*3; ace hand DodgeRoll,PullingGs,OpenFire*3; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    act(&mut g, 1, play(0, Some(1)));
    act(&mut g, 1, play(0, Some(0)));
    proceed(&mut g);
    assert_eq!(g.effects().effects.len(), 2);
    let ev = act(&mut g, 0, Action::Discard { cards: 1, confirm: true });
    assert_eq!(g.phase(), Phase::Confirm);
    assert_every_action_state_resolves_a_card(&ev, "discard");
    assert!(g.effects().effects.is_empty(), "{:?}", g.effects().effects);
}

#[test]
fn an_ace_that_passes_every_pick_enters_no_boss_action() {
    let mut g = game(&format!("pilots 1; ace plays 2; p0 hand PullingGs; ace hand OpenFire*2; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    let mut ev = act(&mut g, 1, Action::Pass);
    ev.extend(act(&mut g, 1, Action::Pass));
    assert_eq!(g.phase(), Phase::BossPhaseConfirm);
    assert_eq!(phases(&ev), [Phase::BossSelection, Phase::BossPhaseConfirm], "{ev:?}");
    assert_every_action_state_resolves_a_card(&ev, "two passes");
}

#[test]
fn a_passed_pick_has_no_boss_action_of_its_own() {
    // Pulled G's keep the Ace off the only pilot: its Dodge Roll (on itself) is its one
    // playable card, so the second pick passes, and only the first gets a BossAction.
    let mut g = game(&format!("pilots 1; ace plays 2; p0 hand PullingGs; ace hand DodgeRoll,OpenFire; {DECKS}"));
    act(&mut g, 0, sel(0, Some(1)));
    proceed(&mut g);
    let mut ev = act(&mut g, 1, play(0, Some(1)));
    assert_eq!(g.legal_actions(Seat(1)), [Action::Pass]);
    ev.extend(act(&mut g, 1, Action::Pass));
    assert_eq!(phases(&ev), [Phase::BossSelection, Phase::BossAction, Phase::BossPhaseConfirm], "{ev:?}");
    assert_every_action_state_resolves_a_card(&ev, "a play and a pass");
}

#[test]
fn cover_fire_at_a_one_card_table_leaves_the_ace_no_pick_and_no_boss_action() {
    let mut g = game(&format!("pilots 1; ace plays 1; p0 hand CoverFire; ace hand OpenFire*5; {DECKS}"));
    act(&mut g, 0, sel(0, None));
    let ev = proceed(&mut g);
    assert!(ev.contains(&Event::AcePlays { count: 0 }), "{ev:?}");
    assert_eq!(g.phase(), Phase::BossPhaseConfirm);
    assert_every_action_state_resolves_a_card(&ev, "cover fire");
    assert!(!phases(&ev).contains(&Phase::BossAction), "{ev:?}");
}

#[test]
fn no_empty_action_state_in_random_fights_at_every_table_size() {
    use engine::MatchRng;
    use wolfpack::Config;
    let mut entered = 0;
    for pilots in 1..=5u8 {
        for seed in 0..300u64 {
            let mut g = WolfPack::new(&Config::pilots(pilots), seed).unwrap();
            let mut rng = MatchRng::new(seed ^ 0x26);
            let mut events = g.start_events();
            while let Some(seat) = g.to_act().first() {
                let legal = g.legal_actions(seat);
                // Discards twice as likely as at random, so whole-table discards happen.
                let discards: Vec<_> =
                    legal.iter().filter(|a| matches!(a, Action::Discard { confirm: true, .. })).collect();
                let a =
                    if !discards.is_empty() && rng.below(3) == 0 { **rng.pick(&discards) } else { *rng.pick(&legal) };
                events.extend(g.apply(seat, a).unwrap());
            }
            entered += phases(&events).iter().filter(|p| matches!(p, Phase::Action | Phase::BossAction)).count();
            assert_every_action_state_resolves_a_card(&events, &format!("{pilots} pilots, seed {seed}"));
        }
    }
    assert!(entered > 10_000, "only {entered} Action states");
}

// ---- issue 26, item 12: Cover Fire's text at every table size ----------------------------

/// The numbers a text names, in order.
fn numbers(text: &str) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect()
}

#[test]
fn cover_fire_says_what_it_does_at_every_table_size() {
    for pilots in 1..=5u8 {
        let plays = wolfpack::config::ACE_SCALE[usize::from(pilots) - 1].plays;
        let hands: String = (1..pilots).map(|i| format!("p{i} hand OpenFire; ")).collect();
        let mut g = game(&format!(
            "pilots {pilots}; ace plays {plays}; p0 hand CoverFire; {hands}ace hand OpenFire*5; {DECKS}"
        ));
        act(&mut g, 0, sel(0, None));
        for i in 1..pilots {
            act(&mut g, i, sel(0, Some(pilots)));
        }
        let ev = proceed(&mut g);
        let left = plays - 1;
        assert!(ev.contains(&Event::AcePlays { count: left }), "{pilots} pilots: {ev:?}");
        // The card's text for every table names no count, or this table's.
        let text = Card::CoverFire.text();
        let named = numbers(text);
        assert!(
            named.is_empty() || named == [u32::from(left), u32::from(plays)],
            "{pilots} pilots (the Ace plays {plays}, {left} under Cover Fire): {text:?}"
        );
    }
}
