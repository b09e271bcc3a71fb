//! Scenario tests: hand-built positions (compact card notation, `setup::Scenario`) for the
//! cards, the weapons and armour, Negate chains, dying, victory, and the skills.

use engine::{Game, Seat};
use three_kingdoms::setup::{Scenario, SeatSetup as S, card};
use three_kingdoms::state::Pending;
use three_kingdoms::{Action, Choice, Event, General as G, Kind, Role, Side, Slot, Step, Targets, ThreeKingdoms, Zone};

mod common;
use common::*;

fn use0(spec: &str) -> Action {
    let c = card(spec);
    Action::Use { card: c, kind: c.kind(), targets: Targets::NONE }
}

fn hp(g: &ThreeKingdoms, s: u8) -> i8 {
    g.p(Seat(s)).hp
}

fn hand(g: &ThreeKingdoms, s: u8) -> usize {
    g.p(Seat(s)).hand.len()
}

fn refused(g: &ThreeKingdoms, seat: u8, a: Action) -> &'static str {
    let mut copy = g.clone();
    copy.apply(Seat(seat), a).expect_err("must be refused").code
}

// ----- basics -------------------------------------------------------------------------------

#[test]
fn attack_hits_without_a_dodge() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]), b, c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 3);
    assert_eq!(waiting(&g), 0, "back to the attacker's Play phase");
    assert!(g.discard.contains(&card("♠7 Attack")));
}

#[test]
fn dodge_cancels_and_the_limit_is_one_attack() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack", "♠8 Attack"]), b.hand(&["♥2 Dodge"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(waiting(&g), 1);
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    assert_eq!(hp(&g, 1), 4);
    assert_eq!(refused(&g, 0, use1("♠8 Attack", Kind::Attack, 1)), "attack_limit");
}

#[test]
fn attack_range_and_horses() {
    let [a, b, c, d] = plain();
    let g = build([a.clone().hand(&["♠7 Attack"]), b.clone(), c.clone(), d.clone()]);
    assert_eq!(refused(&g, 0, use1("♠7 Attack", Kind::Attack, 2)), "out_of_range");
    let mut g = build([a.clone().hand(&["♠7 Attack"]).equip(&["♥5 Red Hare"]), b.clone(), c.clone(), d.clone()]);
    assert_eq!(g.distance(Seat(0), Seat(2)), 1);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 2));
    assert_eq!(hp(&g, 2), 3);
    let g = build([a.hand(&["♠7 Attack"]), b.equip(&["♠5 Shadowrunner"]), c, d]);
    assert_eq!(g.distance(Seat(0), Seat(1)), 2);
    assert_eq!(g.distance(Seat(1), Seat(0)), 1, "distance is not symmetric");
    assert_eq!(refused(&g, 0, use1("♠7 Attack", Kind::Attack, 1)), "out_of_range");
}

#[test]
fn peach_heals_only_when_wounded() {
    let [a, b, c, d] = plain();
    let g = build([a.clone().hand(&["♥3 Peach"]), b.clone(), c.clone(), d.clone()]);
    assert_eq!(refused(&g, 0, use0("♥3 Peach")), "not_wounded");
    let mut g = build([a.hp(2).hand(&["♥3 Peach"]), b, c, d]);
    act(&mut g, 0, use0("♥3 Peach"));
    assert_eq!(hp(&g, 0), 3);
}

#[test]
fn refusals_have_stable_codes_and_change_nothing() {
    let [a, b, c, d] = plain();
    let g = build([a.hand(&["♠7 Attack"]), b.hand(&["♥2 Dodge"]), c, d]);
    assert_eq!(refused(&g, 1, Action::EndPlay), "not_your_turn");
    assert_eq!(refused(&g, 0, use1("♥2 Dodge", Kind::Attack, 1)), "not_your_card");
    assert_eq!(refused(&g, 0, Action::Pass), "nothing_to_answer");
    let mut copy = g.clone();
    assert!(copy.apply(Seat(0), use1("♠7 Attack", Kind::Attack, 0)).is_err());
    assert_eq!(copy, g);
}

// ----- dying, death, victory ----------------------------------------------------------------

#[test]
fn dying_is_rescued_by_peach_in_seat_order() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]), b.hp(1), c.hand(&["♥3 Peach"]), d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 0);
    assert_eq!(waiting(&g), 2, "the only seat with a card is asked");
    act(&mut g, 2, respond("♥3 Peach", Kind::Peach));
    assert_eq!(hp(&g, 1), 1);
    assert!(g.alive(Seat(1)));
}

#[test]
fn death_without_rescue_rewards_the_rebels_killer() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]), b.hp(1).hand(&["♠8 Attack"]), c.hand(&["♠9 Attack"]), d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass); // no Dodge
    // Rescue poll: Lv Meng (dying, has a card), then Huang Gai.
    act(&mut g, 1, Action::Pass);
    let ev = act(&mut g, 2, Action::Pass);
    assert!(!g.alive(Seat(1)));
    assert!(ev.iter().any(|e| matches!(e, Event::Died { seat: Seat(1), role: Role::Rebel, killer: Some(Seat(0)) })));
    assert!(ev.iter().any(|e| matches!(e, Event::Reward { seat: Seat(0), .. })));
    assert_eq!(hand(&g, 0), 3);
    assert!(g.p(Seat(1)).revealed);
    assert!(g.outcome().is_none(), "the Spy lives on");
}

#[test]
fn lord_killing_a_loyalist_discards_everything() {
    let [a, _, c, d] = plain();
    let b = S::new(G::LvMeng, Role::Loyalist).hp(1);
    let c = S::new(c.general, Role::Rebel);
    let mut g = build([a.hand(&["♠7 Attack", "♥3 Peach"]).equip(&["♠6 Blue Steel Blade"]), b, c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 0, Action::Pass); // the Lord declines to rescue
    assert!(!g.alive(Seat(1)));
    assert_eq!(hand(&g, 0), 0);
    assert_eq!(g.p(Seat(0)).equip_count(), 0);
}

#[test]
fn rebels_win_when_the_lord_dies() {
    let [a, b, c, d] = plain();
    let mut g = Scenario::new(vec![a.hp(1), b.hand(&["♠7 Attack"]), c, d]).current(1).build().unwrap();
    act(&mut g, 1, use1("♠7 Attack", Kind::Attack, 0));
    assert_eq!(g.step, Step::Over(Side::Rebels));
    assert!(g.outcome().unwrap().winners.contains(Seat(1)));
    assert!(g.legal_actions(Seat(0)).is_empty());
}

#[test]
fn lord_and_loyalists_win_when_rebels_and_spies_are_dead() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]), b.hp(1), c, d]);
    g.players[3].alive = false;
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(g.step, Step::Over(Side::LordAndLoyalists));
    let w = g.outcome().unwrap().winners;
    assert!(w.contains(Seat(0)) && w.contains(Seat(2)) && !w.contains(Seat(1)));
}

#[test]
fn the_spy_wins_only_as_the_last_one_standing() {
    let [a, b, c, d] = plain();
    let mut g = Scenario::new(vec![a.hp(1), b, c, d.hand(&["♠7 Attack"])]).current(3).build().unwrap();
    g.players[1].alive = false;
    g.players[2].alive = false;
    act(&mut g, 3, use1("♠7 Attack", Kind::Attack, 0));
    assert_eq!(g.step, Step::Over(Side::Spy(Seat(3))));
}

// ----- Negate chains (§9) -------------------------------------------------------------------

fn negate_setup(third: bool) -> ThreeKingdoms {
    let [a, b, c, d] = plain();
    let mut g = build([
        a.hand(&["♠3 Dismantle"]),
        b.hand(&["♠J Negate", "♥2 Dodge"]),
        c.hand(&["♣Q Negate"]),
        d.hand(&["♣K Negate"]),
    ]);
    act(&mut g, 0, use1("♠3 Dismantle", Kind::Dismantle, 1));
    assert_eq!(waiting(&g), 1, "seats with a hand card are polled from the current player");
    act(&mut g, 1, respond("♠J Negate", Kind::Negate));
    assert_eq!(waiting(&g), 1, "a Negate opens a new window on itself");
    act(&mut g, 1, Action::Pass);
    act(&mut g, 2, respond("♣Q Negate", Kind::Negate));
    act(&mut g, 1, Action::Pass);
    if third {
        act(&mut g, 3, respond("♣K Negate", Kind::Negate));
        act(&mut g, 1, Action::Pass);
    } else {
        act(&mut g, 3, Action::Pass);
    }
    g
}

#[test]
fn a_negated_negate_lets_the_card_resolve() {
    let mut g = negate_setup(false);
    assert_eq!(
        g.pending,
        Some(Pending::Pick {
            seat: Seat(0),
            from: Seat(1),
            why: three_kingdoms::JudgeFor::Card(Kind::Dismantle),
            hand: true,
            equip: true,
            judge: true,
            horses: false,
            optional: false
        })
    );
    act(&mut g, 0, Action::Pick { zone: Zone::Hand(0) });
    assert_eq!(hand(&g, 1), 0);
}

#[test]
fn three_negates_cancel_the_card() {
    let g = negate_setup(true);
    assert_eq!(hand(&g, 1), 1, "the Dismantle was cancelled");
    assert_eq!(waiting(&g), 0);
}

#[test]
fn a_negate_cancels_one_target_of_barbarians() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Barbarians"]), b.hand(&["♠J Negate"]), c, d]);
    act(&mut g, 0, use0("♠7 Barbarians"));
    act(&mut g, 1, respond("♠J Negate", Kind::Negate));
    assert_eq!((hp(&g, 1), hp(&g, 2), hp(&g, 3)), (4, 3, 3));
}

// ----- tools --------------------------------------------------------------------------------

#[test]
fn something_out_of_nothing_draws_two() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♥7 Something Out of Nothing"]), b, c, d]);
    act(&mut g, 0, use0("♥7 Something Out of Nothing"));
    assert_eq!(hand(&g, 0), 2);
}

#[test]
fn barbarians_and_rain_arrows() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Barbarians", "♥A RainArrows"]), b.hand(&["♠8 Attack", "♥2 Dodge"]), c, d]);
    act(&mut g, 0, use0("♠7 Barbarians"));
    pass_negates(&mut g);
    act(&mut g, 1, respond("♠8 Attack", Kind::Attack));
    pass_negates(&mut g);
    assert_eq!((hp(&g, 1), hp(&g, 2), hp(&g, 3)), (4, 3, 3));
    act(&mut g, 0, use0("♥A RainArrows"));
    pass_negates(&mut g);
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    pass_negates(&mut g);
    assert_eq!((hp(&g, 1), hp(&g, 2), hp(&g, 3)), (4, 2, 2));
}

#[test]
fn peach_garden_heals_the_wounded() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hp(2).hand(&["♥A Peach Garden"]), b.hp(1), c, d]);
    act(&mut g, 0, use0("♥A Peach Garden"));
    assert_eq!((hp(&g, 0), hp(&g, 1), hp(&g, 2)), (3, 2, 4));
}

#[test]
fn bumper_harvest_gives_each_a_revealed_card() {
    let [a, b, c, d] = plain();
    let mut g = Scenario::new(vec![a.hand(&["♥3 Bumper Harvest"]), b, c, d])
        .draw_top(&["♥4 Peach", "♠8 Attack", "♦2 Dodge", "♣3 Attack"])
        .build()
        .unwrap();
    act(&mut g, 0, use0("♥3 Bumper Harvest"));
    for s in 0..4u8 {
        pass_negates(&mut g);
        assert_eq!(waiting(&g), s);
        let first = g.legal_actions(Seat(s))[0];
        act(&mut g, s, first);
    }
    assert!((0..4).all(|s| hand(&g, s) == 1));
    g.check_invariants().unwrap();
}

#[test]
fn duel_alternates_attacks_from_the_target() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠A Duel", "♠7 Attack"]), b.hand(&["♠8 Attack"]), c, d]);
    act(&mut g, 0, use1("♠A Duel", Kind::Duel, 1));
    pass_negates(&mut g);
    assert_eq!(waiting(&g), 1);
    act(&mut g, 1, respond("♠8 Attack", Kind::Attack));
    act(&mut g, 0, respond("♠7 Attack", Kind::Attack));
    assert_eq!((hp(&g, 0), hp(&g, 1)), (4, 3));
}

#[test]
fn borrowed_sword_attack_or_give_the_weapon() {
    let [a, b, c, d] = plain();
    let mut g = build([
        a.clone().hand(&["♣Q Borrowed Sword"]),
        b.clone().equip(&["♠6 Blue Steel Blade"]),
        c.clone(),
        d.clone(),
    ]);
    act(
        &mut g,
        0,
        Action::Use {
            card: card("♣Q Borrowed Sword"),
            kind: Kind::BorrowedSword,
            targets: Targets::two(Seat(1), Seat(2)),
        },
    );
    pass_negates(&mut g);
    act(&mut g, 1, Action::Pass);
    assert!(g.p(Seat(0)).hand.contains(&card("♠6 Blue Steel Blade")));
    let mut g = build([a.hand(&["♣Q Borrowed Sword"]), b.hand(&["♠8 Attack"]).equip(&["♠6 Blue Steel Blade"]), c, d]);
    act(
        &mut g,
        0,
        Action::Use {
            card: card("♣Q Borrowed Sword"),
            kind: Kind::BorrowedSword,
            targets: Targets::two(Seat(1), Seat(2)),
        },
    );
    pass_negates(&mut g);
    act(&mut g, 1, respond("♠8 Attack", Kind::Attack));
    assert_eq!(hp(&g, 2), 3);
}

#[test]
fn dismantle_and_stealing_sheep() {
    let [a, b, c, d] = plain();
    let mut g = build([
        a.hand(&["♠3 Dismantle", "♠4 StealingSheep"]),
        b.judge(&["♠6 Acedia"]).equip(&["♥5 Red Hare"]),
        c.hand(&["♥3 Peach"]),
        d,
    ]);
    assert_eq!(refused(&g, 0, use1("♠4 StealingSheep", Kind::StealingSheep, 2)), "bad_target");
    act(&mut g, 0, use1("♠3 Dismantle", Kind::Dismantle, 1));
    pass_negates(&mut g);
    act(&mut g, 0, Action::Pick { zone: Zone::Judge(0) });
    assert!(g.p(Seat(1)).judge.is_empty());
    act(&mut g, 0, use1("♠4 StealingSheep", Kind::StealingSheep, 1));
    pass_negates(&mut g);
    act(&mut g, 0, Action::Pick { zone: Zone::Equip(Slot::MinusHorse) });
    assert!(g.p(Seat(0)).hand.contains(&card("♥5 Red Hare")));
}

#[test]
fn acedia_skips_the_play_phase_unless_hearts() {
    let [a, b, c, d] = plain();
    let mut g = to_seat0_turn([a.judge(&["♠6 Acedia"]), b, c, d], &["♠7 Attack"]);
    act(&mut g, 0, Action::DrawNormally);
    assert_eq!(waiting(&g), 1, "Xu Chu's Play phase was skipped");
    let [a, b, c, d] = plain();
    let mut g = to_seat0_turn([a.judge(&["♦3 Dodge as Acedia"]), b, c, d], &["♥2 Dodge"]);
    act(&mut g, 0, Action::DrawNormally);
    assert_eq!(g.pending, Some(Pending::Play { seat: Seat(0) }));
}

#[test]
fn lightning_strikes_on_spades_2_to_9_else_moves_on() {
    let [a, b, c, d] = plain();
    let g = to_seat0_turn([a.judge(&["♠A Lightning"]), b, c, d], &["♠7 Attack"]);
    assert_eq!(hp(&g, 0), 1);
    assert!(g.discard.contains(&card("♠A Lightning")));
    let [a, b, c, d] = plain();
    let g = to_seat0_turn([a.judge(&["♠A Lightning"]), b, c, d], &["♥2 Dodge"]);
    assert_eq!(hp(&g, 0), 4);
    assert_eq!(g.p(Seat(1)).judge, vec![(card("♠A Lightning"), Kind::Lightning)]);
}

#[test]
fn negated_lightning_moves_on() {
    let [a, b, c, d] = plain();
    let mut g = to_seat0_turn([a.judge(&["♠A Lightning"]), b.hand(&["♠J Negate"]), c, d], &["♠7 Attack"]);
    act(&mut g, 1, respond("♠J Negate", Kind::Negate));
    assert_eq!(hp(&g, 0), 4);
    assert_eq!(g.p(Seat(1)).judge.len(), 1);
}

// ----- weapons and armour -------------------------------------------------------------------

#[test]
fn zhuge_crossbow_lifts_the_limit() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack", "♠8 Attack"]).equip(&["♣A Zhuge Crossbow"]), b, c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 0, use1("♠8 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 2);
}

#[test]
fn renwang_shield_stops_black_attacks_but_not_blue_steel() {
    let [a, b, c, d] = plain();
    let mut g = build([a.clone().hand(&["♠7 Attack"]), b.clone().equip(&["♣2 Renwang Shield"]), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 4);
    let mut g = build([a.clone().hand(&["♥10 Attack"]), b.clone().equip(&["♣2 Renwang Shield"]), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♥10 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    assert_eq!(hp(&g, 1), 3, "red Attacks go through");
    let mut g = build([a.hand(&["♠7 Attack"]).equip(&["♠6 Blue Steel Blade"]), b.equip(&["♣2 Renwang Shield"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    assert_eq!(hp(&g, 1), 3);
}

#[test]
fn eight_trigrams_judges_red_as_a_dodge() {
    let [a, b, c, d] = plain();
    let mut g = Scenario::new(vec![a.hand(&["♠7 Attack"]), b.equip(&["♠2 Eight Trigrams Formation"]), c, d])
        .draw_top(&["♥2 Dodge"])
        .build()
        .unwrap();
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::EightTrigrams);
    assert_eq!(hp(&g, 1), 4);
}

#[test]
fn green_dragon_blade_follows_up() {
    let [a, b, c, d] = plain();
    let mut g =
        build([a.hand(&["♠7 Attack", "♠8 Attack"]).equip(&["♠5 Green Dragon Blade"]), b.hand(&["♥2 Dodge"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    act(&mut g, 0, respond("♠8 Attack", Kind::Attack));
    assert_eq!(hp(&g, 1), 3);
}

#[test]
fn rock_cleaving_axe_forces_the_hit() {
    let [a, b, c, d] = plain();
    let mut g = build([
        a.hand(&["♠7 Attack", "♥3 Peach", "♥4 Peach"]).equip(&["♦5 Rock Cleaving Axe"]),
        b.hand(&["♥2 Dodge"]),
        c,
        d,
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    act(&mut g, 0, Action::Confirm { yes: true });
    assert!(!g.legal_actions(Seat(0)).contains(&Action::Discard { card: card("♦5 Rock Cleaving Axe") }));
    act(&mut g, 0, Action::Discard { card: card("♥3 Peach") });
    act(&mut g, 0, Action::Discard { card: card("♥4 Peach") });
    assert_eq!(hp(&g, 1), 3);
}

#[test]
fn kirin_bow_frost_blade_halberd_spear_swords() {
    // Kirin Bow: discard a horse of the damaged target.
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]).equip(&["♥5 Kirin Bow"]), b.equip(&["♠5 Shadowrunner"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    act(&mut g, 0, Action::Pick { zone: Zone::Equip(Slot::PlusHorse) });
    assert_eq!((hp(&g, 1), g.p(Seat(1)).equip_count()), (3, 0));
    // Frost Blade: two cards instead of the damage.
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]).equip(&["♠2 Frost Blade"]), b.hand(&["♥3 Peach", "♥4 Peach"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    act(&mut g, 0, Action::Confirm { yes: true });
    act(&mut g, 0, Action::Pick { zone: Zone::Hand(0) });
    act(&mut g, 0, Action::Pick { zone: Zone::Hand(0) });
    assert_eq!((hp(&g, 1), hand(&g, 1)), (4, 0));
    // Sky Piercing Halberd: the last hand card hits three.
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]).equip(&["♦Q Sky Piercing Halberd"]), b, c, d]);
    let mut three = Targets::two(Seat(1), Seat(2));
    three.push(Seat(3));
    act(&mut g, 0, Action::Use { card: card("♠7 Attack"), kind: Kind::Attack, targets: three });
    assert_eq!((hp(&g, 1), hp(&g, 2), hp(&g, 3)), (3, 3, 3));
    // Serpent Spear: two cards as one (red) Attack, counted against the limit.
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♥3 Peach", "♥4 Peach", "♠8 Attack"]).equip(&["♠Q Serpent Spear"]), b, c, d]);
    act(&mut g, 0, Action::UseSpear { cards: [card("♥3 Peach"), card("♥4 Peach")], targets: Targets::one(Seat(1)) });
    assert_eq!(hp(&g, 1), 3);
    assert_eq!(refused(&g, 0, use1("♠8 Attack", Kind::Attack, 1)), "attack_limit");
    // Yin-Yang Swords: the target of the other gender chooses.
    let [a, _, c, d] = plain();
    let b = S::new(G::SunShangXiang, Role::Rebel).hand(&["♥3 Peach"]);
    let mut g = build([a.hand(&["♠7 Attack"]).equip(&["♠2 Yin-Yang Swords"]), b, c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 0, Action::Confirm { yes: true });
    assert_eq!(waiting(&g), 1);
    act(&mut g, 1, Action::Choose { choice: Choice::LetDraw });
    assert_eq!(hand(&g, 0), 1);
}

// ----- skills -------------------------------------------------------------------------------

#[test]
fn conversions_warrior_saint_dragon_heart_impetus_surprise_raid_national_beauty() {
    let [_, b, c, d] = plain();
    let mut g = build([S::new(G::GuanYu, Role::Lord).hand(&["♥3 Peach"]), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♥3 Peach", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 3);
    let mut g = build([
        S::new(G::ZhaoYun, Role::Lord).hand(&["♥2 Dodge"]),
        S::new(G::ZhenJi, Role::Rebel).hand(&["♠8 Attack"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♥2 Dodge", Kind::Attack, 1));
    act(&mut g, 1, respond("♠8 Attack", Kind::Dodge));
    assert_eq!(hp(&g, 1), 3, "an Attack is not a Dodge for Zhen Ji");
    let mut g = build([
        S::new(G::GuanYu, Role::Lord).hand(&["♥3 Peach"]),
        S::new(G::ZhenJi, Role::Rebel).hand(&["♠8 Attack"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♥3 Peach", Kind::Attack, 1));
    assert!(g.legal_actions(Seat(1)).contains(&respond("♠8 Attack", Kind::Dodge)), "Impetus: a black card as Dodge");
    let mut g = build([
        S::new(G::GanNing, Role::Lord).equip(&["♠6 Blue Steel Blade"]),
        b.clone().hand(&["♥3 Peach"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠6 Blue Steel Blade", Kind::Dismantle, 1));
    pass_negates(&mut g);
    act(&mut g, 0, Action::Pick { zone: Zone::Hand(0) });
    assert_eq!(hand(&g, 1), 0);
    let mut g = build([S::new(G::DaQiao, Role::Lord).hand(&["♦2 Dodge"]), b, c, d]);
    act(&mut g, 0, use1("♦2 Dodge", Kind::Acedia, 1));
    assert_eq!(g.p(Seat(1)).judge, vec![(card("♦2 Dodge"), Kind::Acedia)]);
}

#[test]
fn after_damage_skills() {
    // Treachery takes the Attack; Retaliation takes a card from the source.
    let [a, _, c, d] = plain();
    let mut g =
        build([a.clone().hand(&["♠7 Attack", "♥3 Peach"]), S::new(G::CaoCao, Role::Rebel), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert!(g.p(Seat(1)).hand.contains(&card("♠7 Attack")));
    let mut g =
        build([a.clone().hand(&["♠7 Attack", "♥3 Peach"]), S::new(G::SimaYi, Role::Rebel), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pick { zone: Zone::Hand(0) });
    assert!(g.p(Seat(1)).hand.contains(&card("♥3 Peach")));
    // Unyielding: a non-heart judgement makes the source pay.
    let mut g =
        Scenario::new(vec![a.clone().hand(&["♠7 Attack"]), S::new(G::XiahouDun, Role::Rebel), c.clone(), d.clone()])
            .draw_top(&["♠8 Attack"])
            .build()
            .unwrap();
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 0), 3);
    // Bequeathed Strategy: look at 2 and give them out.
    let mut g = build([a.clone().hand(&["♠7 Attack"]), S::new(G::GuoJia, Role::Rebel), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    for _ in 0..2 {
        let give =
            g.legal_actions(Seat(1)).into_iter().find(|x| matches!(x, Action::Give { to: Seat(1), .. })).unwrap();
        act(&mut g, 1, give);
    }
    assert_eq!(hand(&g, 1), 2);
    // Triumphant: a red Attack on Hua Xiong lets the source recover or draw.
    let mut g = build([a.hp(2).hand(&["♥10 Attack"]), S::new(G::HuaXiong, Role::Rebel), c, d]);
    act(&mut g, 0, use1("♥10 Attack", Kind::Attack, 1));
    act(&mut g, 0, Action::Choose { choice: Choice::Recover });
    assert_eq!(hp(&g, 0), 3);
}

#[test]
fn passive_skills_empty_city_humility_horsemanship_genius_berserk_unrivaled() {
    let [a, b, c, d] = plain();
    let g = build([
        a.clone().hand(&["♠7 Attack", "♠A Duel", "♠4 StealingSheep", "♠6 Acedia"]),
        S::new(G::ZhugeLiang, Role::Rebel),
        c.clone(),
        S::new(G::LuXun, Role::Spy).hand(&["♥3 Peach"]),
    ]);
    assert_eq!(refused(&g, 0, use1("♠7 Attack", Kind::Attack, 1)), "out_of_range");
    assert_eq!(refused(&g, 0, use1("♠A Duel", Kind::Duel, 1)), "bad_target");
    assert_eq!(refused(&g, 0, use1("♠4 StealingSheep", Kind::StealingSheep, 3)), "bad_target");
    assert_eq!(refused(&g, 0, use1("♠6 Acedia", Kind::Acedia, 3)), "bad_target");
    let g = build([S::new(G::MaChao, Role::Lord).hand(&["♠7 Attack"]), b.clone(), c.clone(), d.clone()]);
    assert!(g.is_legal(Seat(0), &use1("♠7 Attack", Kind::Attack, 2)));
    let g = build([
        S::new(G::HuangYueying, Role::Lord).hand(&["♠4 StealingSheep"]),
        b.clone(),
        c.clone().hand(&["♥3 Peach"]),
        d.clone(),
    ]);
    assert!(g.is_legal(Seat(0), &use1("♠4 StealingSheep", Kind::StealingSheep, 2)));
    let mut g =
        build([S::new(G::ZhangFei, Role::Lord).hand(&["♠7 Attack", "♠8 Attack"]), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 0, use1("♠8 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 2);
    let mut g = build([S::new(G::LvBu, Role::Lord).hand(&["♠7 Attack"]), b.hand(&["♥2 Dodge"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    assert_eq!(hp(&g, 1), 3, "one Dodge is not enough against Lv Bu");
}

#[test]
fn play_phase_skills() {
    let [_, b, c, d] = plain();
    // Benevolence: giving 2 cards heals once.
    let mut g =
        build([S::new(G::LiuBei, Role::Lord).hp(3).hand(&["♠7 Attack", "♠8 Attack"]), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, Action::Benevolence { card: card("♠7 Attack"), to: Seat(2) });
    act(&mut g, 0, Action::Benevolence { card: card("♠8 Attack"), to: Seat(2) });
    assert_eq!((hp(&g, 0), hand(&g, 2)), (4, 2));
    // Balance of Power: discard n, draw n, once.
    let mut g =
        build([S::new(G::SunQuan, Role::Lord).hand(&["♠7 Attack", "♠8 Attack"]), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, Action::Balance);
    act(&mut g, 0, Action::Discard { card: card("♠7 Attack") });
    act(&mut g, 0, Action::Done);
    assert_eq!(hand(&g, 0), 2);
    assert!(!g.legal_actions(Seat(0)).contains(&Action::Balance));
    // Trojan Flesh: lose 1 HP, draw 2.
    let mut g = build([S::new(G::HuangGai, Role::Lord), b.clone(), S::new(G::XuChu, Role::Loyalist), d.clone()]);
    act(&mut g, 0, Action::TrojanFlesh);
    assert_eq!((hp(&g, 0), hand(&g, 0)), (3, 2));
    // Green Salve and Marriage heal.
    let mut g = build([S::new(G::HuaTuo, Role::Lord).hand(&["♠7 Attack"]), b.clone().hp(2), c.clone(), d.clone()]);
    act(&mut g, 0, Action::GreenSalve { card: card("♠7 Attack"), target: Seat(1) });
    assert_eq!(hp(&g, 1), 3);
    let mut g = build([
        S::new(G::SunShangXiang, Role::Lord).hp(2).hand(&["♠7 Attack", "♠8 Attack"]),
        b.clone().hp(2),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, Action::Marriage { cards: [card("♠7 Attack"), card("♠8 Attack")], target: Seat(1) });
    assert_eq!((hp(&g, 0), hp(&g, 1)), (3, 3));
    // Sow Dissension: a wrong guess costs 1 HP.
    let mut g = build([S::new(G::ZhouYu, Role::Lord).hand(&["♠7 Attack"]), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, Action::SowDissension { target: Seat(1) });
    act(&mut g, 1, Action::NameSuit { suit: three_kingdoms::Suit::Heart });
    assert_eq!((hp(&g, 1), hand(&g, 1)), (3, 1));
    // Seed of Animosity: the second duels the first; no Negate window.
    let mut g = build([S::new(G::DiaoChan, Role::Lord).hand(&["♠7 Attack"]), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, Action::SeedOfAnimosity { card: card("♠7 Attack"), first: Seat(1), second: Seat(2) });
    assert_eq!((hp(&g, 1), hp(&g, 2)), (3, 4));
    // Rouse: a Shu helper supplies Lord Liu Bei's Attack.
    let mut g = build([S::new(G::LiuBei, Role::Lord), b, S::new(G::GuanYu, Role::Loyalist).hand(&["♠7 Attack"]), d]);
    act(&mut g, 0, Action::Rouse { targets: Targets::one(Seat(1)) });
    act(&mut g, 2, respond("♠7 Attack", Kind::Attack));
    assert_eq!(hp(&g, 1), 3);
}

#[test]
fn response_skills_entourage_displacement_first_aid_rescued_demonic_talent() {
    let [a, b, c, d] = plain();
    // Entourage: a Wei general dodges for Lord Cao Cao.
    let mut g = Scenario::new(vec![
        S::new(G::CaoCao, Role::Lord),
        b.clone().hand(&["♠7 Attack"]),
        S::new(G::ZhangLiao, Role::Loyalist).hand(&["♥2 Dodge"]),
        d.clone(),
    ])
    .current(1)
    .build()
    .unwrap();
    act(&mut g, 1, use1("♠7 Attack", Kind::Attack, 0));
    act(&mut g, 0, Action::AskHelpers);
    act(&mut g, 2, respond("♥2 Dodge", Kind::Dodge));
    assert_eq!(hp(&g, 0), 4);
    // Displacement: Da Qiao moves the Attack.
    let mut g = build([
        a.clone().hand(&["♠7 Attack"]),
        S::new(G::DaQiao, Role::Rebel).hand(&["♥3 Peach"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Displace { card: card("♥3 Peach"), to: Seat(2) });
    assert_eq!((hp(&g, 1), hp(&g, 2)), (3, 3), "Da Qiao (3 HP) is untouched, Huang Gai is hit");
    // First Aid: Hua Tuo's red card is a Peach outside his turn.
    let mut g = build([
        a.clone().hand(&["♠7 Attack"]),
        b.clone().hp(1),
        S::new(G::HuaTuo, Role::Loyalist).hand(&["♦2 Dodge"]),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 2, respond("♦2 Dodge", Kind::Peach));
    assert_eq!(hp(&g, 1), 1);
    // Rescued: a Wu general's Peach gives Lord Sun Quan 2.
    let mut g = Scenario::new(vec![
        S::new(G::XuChu, Role::Rebel).hand(&["♠7 Attack"]),
        S::new(G::SunQuan, Role::Lord).hp(1),
        S::new(G::LvMeng, Role::Loyalist).hand(&["♥3 Peach"]),
        d.clone(),
    ])
    .build()
    .unwrap();
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 2, respond("♥3 Peach", Kind::Peach));
    assert_eq!(hp(&g, 1), 2);
    // Demonic Talent: Sima Yi replaces a black Eight Trigrams judgement with a red card.
    let mut g = Scenario::new(vec![
        a.hand(&["♠7 Attack"]),
        b.equip(&["♠2 Eight Trigrams Formation"]),
        S::new(G::SimaYi, Role::Loyalist).hand(&["♥3 Peach"]),
        d,
    ])
    .draw_top(&["♠8 Attack"])
    .build()
    .unwrap();
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::EightTrigrams);
    assert_eq!(waiting(&g), 2);
    act(&mut g, 2, respond("♥3 Peach", Kind::Peach));
    assert_eq!(hp(&g, 1), 4);
}

#[test]
fn turn_skills_draw_phase_start_phase_end_phase_restraint() {
    let [_, b, c, d] = plain();
    // Handsome draws 3; Eclipse the Moon draws at the end; Restraint skips the discard.
    let mut g = to_seat0_turn([S::new(G::ZhouYu, Role::Lord), b.clone(), c.clone(), d.clone()], &[]);
    assert_eq!(hand(&g, 0), 3);
    act(&mut g, 0, Action::EndPlay);
    let mut g2 = to_seat0_turn([S::new(G::LvMeng, Role::Lord).hp(1), b.clone(), c.clone(), d.clone()], &[]);
    act(&mut g2, 0, Action::EndPlay);
    assert_eq!(hand(&g2, 0), 2, "Restraint kept both cards at 1 HP");
    let _ = &mut g;
    // Bare-Chested: draw 1, Attack damage +1.
    let mut g =
        to_seat0_turn([S::new(G::XuChu, Role::Lord).hand(&["♠7 Attack"]), b.clone(), c.clone(), d.clone()], &[]);
    act(&mut g, 0, Action::BareChested);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(hp(&g, 1), 2);
    // Raid: take a hand card from up to two others instead of drawing.
    let mut g = to_seat0_turn(
        [S::new(G::ZhangLiao, Role::Lord), b.clone().hand(&["♥3 Peach"]), c.clone().hand(&["♥4 Peach"]), d.clone()],
        &[],
    );
    act(&mut g, 0, Action::Raid { targets: Targets::two(Seat(1), Seat(2)) });
    assert_eq!((hand(&g, 0), hand(&g, 1), hand(&g, 2)), (2, 0, 0));
    // Goddess Luo keeps black judgements until a red one.
    let mut g = to_seat0_turn(
        [S::new(G::ZhenJi, Role::Lord), b.clone(), c.clone(), d.clone()],
        &["♠8 Attack", "♣8 Attack", "♥2 Dodge"],
    );
    act(&mut g, 0, Action::Confirm { yes: true });
    act(&mut g, 0, Action::Confirm { yes: true });
    act(&mut g, 0, Action::Confirm { yes: true });
    assert!(g.p(Seat(0)).hand.contains(&card("♠8 Attack")) && g.p(Seat(0)).hand.contains(&card("♣8 Attack")));
    assert!(g.discard.contains(&card("♥2 Dodge")));
    // Stargaze: put the top cards back in a chosen order.
    let mut g = to_seat0_turn(
        [S::new(G::ZhugeLiang, Role::Lord), b, c, d],
        &["♠8 Attack", "♣8 Attack", "♥2 Dodge", "♥3 Peach"],
    );
    act(&mut g, 0, Action::Place { card: card("♥3 Peach"), top: true });
    act(&mut g, 0, Action::Place { card: card("♥2 Dodge"), top: true });
    act(&mut g, 0, Action::Place { card: card("♠8 Attack"), top: false });
    act(&mut g, 0, Action::Place { card: card("♣8 Attack"), top: false });
    assert!(g.p(Seat(0)).hand.contains(&card("♥3 Peach")) && g.p(Seat(0)).hand.contains(&card("♥2 Dodge")));
}

#[test]
fn card_loss_skills_one_after_another_warrior_woman_wisdom() {
    let [a, b, c, d] = plain();
    let mut g = build([
        a.clone().hand(&["♠7 Attack"]),
        S::new(G::LuXun, Role::Rebel).hand(&["♥2 Dodge"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    assert_eq!(hand(&g, 1), 1, "Lu Xun drew for his last card");
    let mut g = build([
        a.hand(&["♠3 Dismantle"]),
        S::new(G::SunShangXiang, Role::Rebel).equip(&["♥5 Red Hare"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠3 Dismantle", Kind::Dismantle, 1));
    act(&mut g, 0, Action::Pick { zone: Zone::Equip(Slot::MinusHorse) });
    assert_eq!(hand(&g, 1), 2);
    let mut g = build([S::new(G::HuangYueying, Role::Lord).hand(&["♥7 Something Out of Nothing"]), b, c, d]);
    act(&mut g, 0, use0("♥7 Something Out of Nothing"));
    pass_negates(&mut g);
    assert_eq!(hand(&g, 0), 3, "Wisdom drew 1, the card 2");
}

#[test]
fn more_skills_envy_of_heaven_iron_cavalry_eclipse_unrivaled_duel() {
    let [a, b, c, d] = plain();
    // Envy of Heaven: Guo Jia keeps his own judgement card (here: the Acedia's).
    let g = to_seat0_turn(
        [S::new(G::GuoJia, Role::Lord).judge(&["♠6 Acedia"]), b.clone(), c.clone(), d.clone()],
        &["♠7 Attack"],
    );
    assert!(g.p(Seat(0)).hand.contains(&card("♠7 Attack")));
    // Iron Cavalry: a red judgement forbids the Dodge.
    let mut g = Scenario::new(vec![
        S::new(G::MaChao, Role::Lord).hand(&["♠7 Attack"]),
        b.clone().hand(&["♥2 Dodge"]),
        c.clone(),
        d.clone(),
    ])
    .draw_top(&["♥3 Peach"])
    .build()
    .unwrap();
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!((hp(&g, 1), hand(&g, 1)), (3, 1), "no chance to dodge");
    // Eclipse the Moon: Diao Chan draws 1 in her End phase.
    let mut g = build([S::new(G::DiaoChan, Role::Lord), b.clone(), c.clone(), d.clone()]);
    act(&mut g, 0, Action::EndPlay);
    assert_eq!(hand(&g, 0), 1);
    // Unrivaled in a Duel: the opponent needs two Attacks each time.
    let mut g =
        build([S::new(G::LvBu, Role::Lord).hand(&["♠A Duel"]), b.clone().hand(&["♠8 Attack"]), c.clone(), d.clone()]);
    act(&mut g, 0, use1("♠A Duel", Kind::Duel, 1));
    pass_negates(&mut g);
    act(&mut g, 1, respond("♠8 Attack", Kind::Attack));
    assert_eq!(hp(&g, 1), 3, "one Attack is not enough against Lv Bu");
    let _ = a;
}

#[test]
fn blue_steel_ignores_eight_trigrams_and_negated_acedia_is_discarded() {
    let [a, b, c, d] = plain();
    let mut g = build([
        a.hand(&["♠7 Attack"]).equip(&["♠6 Blue Steel Blade"]),
        b.hand(&["♥3 Peach"]).equip(&["♠2 Eight Trigrams Formation"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert!(!g.legal_actions(Seat(1)).contains(&Action::EightTrigrams));
    act(&mut g, 1, Action::Pass);
    assert_eq!(hp(&g, 1), 3);
    let [a, b, c, d] = plain();
    let mut g = to_seat0_turn([a.judge(&["♠6 Acedia"]), b.hand(&["♠J Negate"]), c, d], &[]);
    act(&mut g, 1, respond("♠J Negate", Kind::Negate));
    assert!(g.discard.contains(&card("♠6 Acedia")));
    act(&mut g, 0, Action::DrawNormally);
    assert_eq!(g.pending, Some(Pending::Play { seat: Seat(0) }), "the negated Acedia skips nothing");
}

#[test]
fn a_negated_harvest_target_takes_nothing_and_leftovers_are_discarded() {
    let [a, b, c, d] = plain();
    let mut g = Scenario::new(vec![a.hand(&["♥3 Bumper Harvest"]), b.hand(&["♠J Negate"]), c, d])
        .draw_top(&["♥4 Peach", "♠8 Attack", "♦2 Dodge", "♣3 Attack"])
        .build()
        .unwrap();
    act(&mut g, 0, use0("♥3 Bumper Harvest"));
    // Seat 0's window: seat 1 negates its share.
    act(&mut g, 1, respond("♠J Negate", Kind::Negate));
    for s in 1..4u8 {
        pass_negates(&mut g);
        let first = g.legal_actions(Seat(s))[0];
        act(&mut g, s, first);
    }
    assert_eq!(hand(&g, 0), 0);
    assert_eq!(g.discard.len(), 3, "Negate, Bumper Harvest and the card nobody took");
    g.check_invariants().unwrap();
}

#[test]
fn timeouts_pass_windows_and_end_the_play_phase() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack"]), b.hand(&["♥2 Dodge"]), c, d]);
    assert_eq!(g.timeout_action(Seat(0)), Some(Action::EndPlay));
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(g.timeout_action(Seat(1)), Some(Action::Pass));
    assert_eq!(g.decision().kind, engine::DecisionKind::Response);
}

#[test]
fn impetus_takes_hand_cards_only() {
    let [a, _, c, d] = plain();
    let b = S::new(G::ZhenJi, Role::Rebel).equip(&["♠6 Blue Steel Blade"]).hand(&["♣3 Attack"]);
    let mut g = build([a.hand(&["♥10 Attack"]), b, c, d]);
    act(&mut g, 0, use1("♥10 Attack", Kind::Attack, 1));
    let legal = g.legal_actions(Seat(1));
    assert!(legal.contains(&respond("♣3 Attack", Kind::Dodge)));
    assert!(!legal.contains(&respond("♠6 Blue Steel Blade", Kind::Dodge)));
}

#[test]
fn positions_read_from_text() {
    let text = "# an --init file\n\
        seat Lord CaoCao hp 3 | hand: ♠7 Attack, ♥3 Peach | equip: ♠6 Blue Steel Blade\n\
        seat Rebel ZhaoYun | judge: ♠6 Acedia\n\
        seat Loyalist GuanYu\n\
        seat Spy LvBu | hand: D2 Dodge\n\
        current 0\n\
        top: ♥2 Dodge, ♠8 Attack\n";
    let s = Scenario::parse(text).unwrap();
    let mut g = s.build().unwrap();
    assert_eq!((hp(&g, 0), hand(&g, 0), g.p(Seat(1)).judge.len()), (3, 2, 1));
    assert_eq!(g.draw.last(), Some(&card("♥2 Dodge")));
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert!(Scenario::parse("seat King CaoCao").unwrap_err().contains("role"));
    assert!(Scenario::parse("seat Lord Nobody").unwrap_err().contains("general"));
    let twice =
        "seat Lord CaoCao | hand: ♠7 Attack\nseat Rebel LvBu | hand: ♠7 Attack\nseat Spy GuanYu\nseat Rebel ZhaoYun";
    assert!(Scenario::parse(twice).unwrap_err().contains("no such card"));
}

#[test]
fn actions_and_events_are_tagged_json() {
    let a = use1("♠7 Attack", Kind::Attack, 1);
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(json, r#"{"type":"Use","card":13,"kind":"Attack","targets":[1]}"#);
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
    assert_eq!(serde_json::to_string(&Action::Pass).unwrap(), r#"{"type":"Pass"}"#);
    let e = Event::TurnStarted { seat: Seat(2), turn: 5 };
    assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"type":"TurnStarted","seat":2,"turn":5}"#);
}

// ----- seed-compatible mode: the Lord's risk level and the Spy's reveal (§15) ----------------

#[test]
fn seed_mode_risk_level_rises_and_the_spy_reveals_itself() {
    use three_kingdoms::{SeedCompat, text::describe_event};
    let [a, b, c, d] = plain();
    let attacks = ["♠7 Attack", "♠8 Attack", "♠9 Attack", "♠10 Attack"];
    let mut s = Scenario::new(vec![
        // Equipment so that a seat is asked even with an empty hand.
        a.hp(4).hand(&["♥2 Dodge"]).equip(&["♥5 Red Hare"]),
        b.hand(&attacks).equip(&["♣A Zhuge Crossbow"]),
        c.equip(&["♠K Ferghana Horse"]),
        d,
    ])
    .current(1);
    s.config.seed_compat = SeedCompat { spy_reveal: true, ..SeedCompat::default() };
    let mut g = s.build().unwrap();
    let risk = |ev: &[Event]| {
        ev.iter().find_map(|e| match e {
            Event::RiskLevel { level } => Some(*level),
            _ => None,
        })
    };
    // Dodged: +5; each hit: +10.
    act(&mut g, 1, use1(attacks[0], Kind::Attack, 0));
    assert_eq!(risk(&act(&mut g, 0, respond("♥2 Dodge", Kind::Dodge))), Some(5));
    act(&mut g, 1, use1(attacks[1], Kind::Attack, 0));
    let ev = act(&mut g, 0, Action::Pass);
    assert_eq!(risk(&ev), Some(15));
    let names: Vec<String> = ["Xu Chu", "Lv Meng", "Huang Gai", "Zhang Liao"].map(String::from).to_vec();
    let lines: Vec<String> = ev.iter().filter_map(|e| describe_event(e, engine::Viewer::Spectator, &names)).collect();
    assert!(lines.contains(&"The Lord's risk level rose to 15.".to_string()), "{lines:?}");
    // An Attack on someone else does not count.
    act(&mut g, 1, use1(attacks[2], Kind::Attack, 2));
    let ev = act(&mut g, 2, Action::Pass);
    assert_eq!(risk(&ev), None);
    act(&mut g, 1, use1(attacks[3], Kind::Attack, 0));
    assert_eq!(risk(&act(&mut g, 0, Action::Pass)), Some(25));
    assert!(!g.p(Seat(3)).revealed);
    // Below the threshold the Spy's turn starts unrevealed...
    let until_turn_of = |g: &mut ThreeKingdoms, seat: u8| loop {
        let s = waiting(g);
        let a = match g.pending {
            Some(Pending::DrawPhase { .. }) => Action::DrawNormally,
            Some(Pending::Play { .. }) => Action::EndPlay,
            _ => g.legal_actions(Seat(s))[0],
        };
        let ev = act(g, s, a);
        if ev.iter().any(|e| matches!(e, Event::TurnStarted { seat: t, .. } if t.0 == seat)) {
            break ev;
        }
    };
    let ev = until_turn_of(&mut g, 3);
    assert!(!ev.iter().any(|e| matches!(e, Event::SpyRevealed { .. })));
    assert!(!g.p(Seat(3)).revealed);
    // ...and once it reaches 30 the Spy reveals itself at the start of its next turn.
    g.risk = 30;
    let ev = until_turn_of(&mut g, 3);
    assert!(ev.contains(&Event::SpyRevealed { seat: Seat(3) }), "{ev:?}");
    assert!(g.p(Seat(3)).revealed, "the role is face up");
    assert_eq!(g.view(engine::Viewer::Seat { seat: Seat(1) }).players[3].role, Some(Role::Spy));
    // Without the switch nothing of this happens.
    let [a, b, c, d] = plain();
    let mut g =
        Scenario::new(vec![a.equip(&["♥5 Red Hare"]), b.hand(&["♠7 Attack"]), c, d]).current(1).build().unwrap();
    act(&mut g, 1, use1("♠7 Attack", Kind::Attack, 0));
    assert_eq!(risk(&act(&mut g, 0, Action::Pass)), None);
    assert_eq!(g.risk, 0);
}

/// §9's consequences, one row per tool: a single Negate (from the target, first asked after
/// the user) stops the tool on that target and nothing of its effect happens.
#[test]
fn a_negated_tool_does_nothing_table() {
    // (the user's card, used as, targets, what must not have happened)
    let rows: [(&str, Kind, Targets); 6] = [
        ("♠3 Dismantle", Kind::Dismantle, Targets::one(Seat(1))),
        ("♠4 StealingSheep", Kind::StealingSheep, Targets::one(Seat(1))),
        ("♠A Duel", Kind::Duel, Targets::one(Seat(1))),
        ("♣Q Borrowed Sword", Kind::BorrowedSword, Targets::two(Seat(1), Seat(2))),
        ("♥7 Something Out of Nothing", Kind::SomethingOutOfNothing, Targets::NONE),
        ("♥A Peach Garden", Kind::PeachGarden, Targets::NONE),
    ];
    for (spec, kind, targets) in rows {
        let [a, b, c, d] = plain();
        // Seat 0 holds the Negate for its own Something Out of Nothing's and Peach Garden's
        // window (seat 0's is asked first); otherwise the target (seat 1) negates.
        let own = matches!(kind, Kind::SomethingOutOfNothing | Kind::PeachGarden);
        let (a, b) = if own {
            (a.hp(3).hand(&[spec, "♠J Negate"]), b.hp(3).hand(&["♥2 Dodge"]))
        } else {
            (a.hand(&[spec]), b.hand(&["♠J Negate", "♥2 Dodge"]).equip(&["♠6 Blue Steel Blade"]))
        };
        let mut g = build([a, b, c.hp(3).hand(&["♦2 Dodge"]), d]);
        let before = (hand(&g, 0), hand(&g, 1), hp(&g, 0), hp(&g, 1), hp(&g, 2));
        act(&mut g, 0, Action::Use { card: card(spec), kind, targets });
        let negator = if own { 0 } else { 1 };
        assert_eq!(waiting(&g), negator, "{kind}: the first Negate window asks seat {negator}");
        let mut ev = act(&mut g, negator, respond("♠J Negate", Kind::Negate));
        // Pass the window the Negate opened on itself, and whatever follows (Peach Garden's
        // other targets).
        while g.pending.is_some_and(|p| !matches!(p, Pending::Play { seat: Seat(0) })) {
            let s = waiting(&g);
            ev.extend(act(&mut g, s, Action::Pass));
        }
        assert!(ev.iter().any(|e| matches!(e, Event::Nullified { kind: k, .. } if *k == kind)), "{kind}: {ev:?}");
        let after = (hand(&g, 0), hand(&g, 1), hp(&g, 0), hp(&g, 1), hp(&g, 2));
        let expect = if own {
            // The user's card and its Negate are gone, nothing drawn; Peach Garden healed the
            // others (their windows passed) but not the user.
            match kind {
                Kind::PeachGarden => (before.0 - 2, before.1, 3, 4, 4),
                _ => (before.0 - 2, before.1, 3, 3, 3),
            }
        } else {
            (before.0 - 1, before.1 - 1, before.2, before.3, before.4)
        };
        assert_eq!(after, expect, "{kind}");
        assert!(g.p(Seat(1)).equip[Slot::Weapon.index()].is_some() || own, "{kind}: the weapon stays");
    }
}

/// A Negate answers tools only: not an Attack, a Peach, equipment or a skill.
#[test]
fn negate_cannot_answer_attack_peach_equipment_or_skills() {
    let negates_offered = |g: &ThreeKingdoms| {
        Seat::all(4).any(|s| g.legal_actions(s).iter().any(|a| matches!(a, Action::Respond { kind: Kind::Negate, .. })))
    };
    let [a, b, c, d] = plain();
    let mut g = build([
        a.hp(3).hand(&["♠7 Attack", "♥3 Peach", "♠5 Shadowrunner"]),
        b.hand(&["♠J Negate", "♥2 Dodge"]),
        c.hand(&["♣Q Negate"]),
        d.hand(&["♣K Negate"]),
    ]);
    act(&mut g, 0, use0("♥3 Peach"));
    assert_eq!(g.pending, Some(Pending::Play { seat: Seat(0) }), "no window for a Peach");
    assert_eq!(hp(&g, 0), 4);
    act(&mut g, 0, use0("♠5 Shadowrunner"));
    assert_eq!(g.pending, Some(Pending::Play { seat: Seat(0) }), "no window for equipment");
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    assert_eq!(g.pending, Some(Pending::Ask { seat: Seat(1) }));
    assert!(!negates_offered(&g), "an Attack is answered by a Dodge, never a Negate");
    // A skill: Huang Gai's Trojan Flesh (lose 1 HP, draw 2) opens no window.
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠J Negate"]), b.hand(&["♣Q Negate"]), c, d.hand(&["♣K Negate"])]);
    g.current = Seat(2);
    g.pending = Some(Pending::Play { seat: Seat(2) });
    act(&mut g, 2, Action::TrojanFlesh);
    assert_eq!(g.pending, Some(Pending::Play { seat: Seat(2) }), "no window for a skill");
    assert_eq!((hp(&g, 2), hand(&g, 2)), (3, 2));
}
