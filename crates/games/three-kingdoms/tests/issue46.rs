//! Issue 46's Three Kingdoms reports, from scripted rooms and logged games: one scenario each.
//! The Kirin Bow's order was a defect (its test failed on the engine before the fix); Treachery
//! and Lightning were played as the rules page says, and their tests pin what the page now says
//! plainly about the cases that looked wrong.

use engine::{Game, Seat};
use three_kingdoms::setup::{Scenario, SeatSetup as S, card};
use three_kingdoms::state::{Frame, Pending};
use three_kingdoms::{Action, Event, General as G, Kind, Role, Skill, Slot, Targets, Zone};

mod common;
use common::*;

/// Room seeds 1078 and 2009: a horse owner hit to 0 by a Kirin Bow's Attack was announced dying
/// before the Bow's wielder picked the horse. The Bow resolves as the blow lands, before the
/// victim is dying and the rescue begins: the log now reads hit, horse, dying, rescue.
#[test]
fn the_kirin_bow_acts_before_the_victim_is_dying() {
    let dying_at = |ev: &[Event]| ev.iter().position(|e| matches!(e, Event::Dying { seat: Seat(1), .. }));
    for take_a_horse in [true, false] {
        let [a, _, c, d] = plain();
        let mut g = build([
            a.hand(&["♠7 Attack"]).equip(&["♥5 Kirin Bow"]),
            S::new(G::LvMeng, Role::Rebel).hp(1).hand(&["♥3 Peach"]).equip(&["♥5 Red Hare"]),
            c,
            d,
        ]);
        act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
        let hit = act(&mut g, 1, Action::Pass);
        assert!(hit.iter().any(|e| matches!(e, Event::Damaged { seat: Seat(1), hp: 0, .. })), "{hit:?}");
        assert_eq!(dying_at(&hit), None, "dying announced before the Kirin Bow acted: {hit:?}");
        assert!(matches!(g.pending, Some(Pending::Pick { seat: Seat(0), .. })), "the Bow's pick: {:?}", g.pending);
        let answer = if take_a_horse { Action::Pick { zone: Zone::Equip(Slot::MinusHorse) } } else { Action::Pass };
        let ev = act(&mut g, 0, answer);
        let dying = dying_at(&ev).unwrap_or_else(|| panic!("dying once the Bow is done: {ev:?}"));
        let bow = ev.iter().position(|e| matches!(e, Event::Equipment { kind: Kind::KirinBow, .. }));
        assert_eq!(bow.is_some(), take_a_horse, "{ev:?}");
        assert!(bow.is_none_or(|b| b < dying), "the horse goes first: {ev:?}");
        // Then the rescue: Lv Meng, the one holding a Peach, is asked.
        assert!(matches!(g.stack.last(), Some(Frame::Dying { .. })));
        assert_eq!(waiting(&g), 1);
        let saved = act(&mut g, 1, respond("♥3 Peach", Kind::Peach));
        assert!(saved.iter().any(|e| matches!(e, Event::Recovered { seat: Seat(1), hp: 1, .. })), "{saved:?}");
        assert_eq!(dying_at(&saved), None, "announced once");
    }
    // A blow that leaves its victim alive announces nobody dying; without a Bow it is at once.
    let [a, _, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]), S::new(G::LvMeng, Role::Rebel).hp(1).hand(&["♥3 Peach"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    let hit = act(&mut g, 1, Action::Pass);
    assert!(dying_at(&hit).is_some(), "{hit:?}");
}

/// Room seed 1019: Cao Cao "used the Duel, lost it, was hurt by seat 8 and took nothing". He won
/// that Duel: seat 8, Xiahou Dun, took its damage, and Unyielding's judgement then hurt Cao Cao.
/// Damage from a skill is dealt by no card, so Treachery has nothing to take (the rules page says
/// so). The Duel he uses and loses he does take back (`defects.rs`, and below).
#[test]
fn treachery_takes_nothing_from_unyielding_after_a_duel_cao_cao_won() {
    let [_, _, c, d] = plain();
    let seats =
        vec![S::new(G::CaoCao, Role::Lord).hand(&["♠A Duel"]), S::new(G::XiahouDun, Role::Rebel), c.clone(), d.clone()];
    let mut g = Scenario::new(seats).draw_top(&["♠7 Attack"]).build().unwrap();
    let ev = act(&mut g, 0, use1("♠A Duel", Kind::Duel, 1));
    let hurt = |s: u8| ev.iter().any(|e| matches!(e, Event::Damaged { seat, .. } if *seat == Seat(s)));
    assert!(hurt(1) && hurt(0), "Xiahou Dun lost the Duel, and Unyielding hurt Cao Cao: {ev:?}");
    assert!(ev.contains(&Event::SkillUsed { seat: Seat(1), skill: Skill::Unyielding }));
    assert!(!ev.iter().any(|e| matches!(e, Event::Gained { seat: Seat(0), .. })), "no card dealt it: {ev:?}");
    assert!(g.discard.contains(&card("♠A Duel")), "his Duel is spent");
    assert_eq!(g.p(Seat(0)).hp, g.p(Seat(0)).max_hp - 1);
    // Cao Cao uses a Duel and loses it: he takes it back.
    let mut g = build([
        S::new(G::CaoCao, Role::Lord).hand(&["♠A Duel"]),
        S::new(G::LiuBei, Role::Rebel).hand(&["♣J Attack"]),
        c,
        d,
    ]);
    act(&mut g, 0, use1("♠A Duel", Kind::Duel, 1));
    pass_negates(&mut g);
    let ev = act(&mut g, 1, respond("♣J Attack", Kind::Attack));
    assert!(ev.contains(&Event::Gained { seat: Seat(0), card: card("♠A Duel") }), "{ev:?}");
}

/// Room seed 1055: Treachery "took the ♥Q Dismantle". A card of another kind is taken when it
/// was the card of the Attack that hurt him: Guan Yu's Warrior Saint plays any red card as an
/// Attack (a Serpent Spear pair, two cards, alike).
#[test]
fn treachery_takes_a_dismantle_played_as_an_attack() {
    let [_, _, c, d] = plain();
    let mut g = build([S::new(G::GuanYu, Role::Lord).hand(&["♥Q Dismantle"]), S::new(G::CaoCao, Role::Rebel), c, d]);
    let attack = Action::Use { card: card("♥Q Dismantle"), kind: Kind::Attack, targets: Targets::one(Seat(1)) };
    assert!(g.legal_actions(Seat(0)).contains(&attack), "Warrior Saint: {:?}", g.legal_actions(Seat(0)));
    let ev = act(&mut g, 0, attack);
    assert!(ev.contains(&Event::SkillUsed { seat: Seat(1), skill: Skill::Treachery }), "{ev:?}");
    assert!(g.p(Seat(1)).hand.contains(&card("♥Q Dismantle")));
}

/// Room seeds 2009 (p0 to p2, past p1) and 1057 (p4 to p3, past p2): the Lightning passes to the
/// next living seat in turn order that does not already have a Lightning in its judgement area.
/// The deck holds two, so the seat passed over held the other (the engine was right; the page
/// now says why a seat is passed over).
#[test]
fn lightning_passes_over_a_seat_holding_the_other_one() {
    let [a, b, c, d] = plain();
    let g = to_seat0_turn([a.judge(&["♠A Lightning"]), b.judge(&["♥Q Lightning"]), c, d], &["♥2 Dodge"]);
    assert_eq!(g.p(Seat(1)).judge, vec![(card("♥Q Lightning"), Kind::Lightning)], "seat 1 keeps its own");
    assert_eq!(g.p(Seat(2)).judge, vec![(card("♠A Lightning"), Kind::Lightning)], "seat 2 gets it");
}
