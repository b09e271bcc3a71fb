//! Issue 26's Three Kingdoms defects, found by playing from outside: one scenario each, every
//! one failing on the engine before its fix.

use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer};
use three_kingdoms::setup::{Scenario, SeatSetup as S, card};
use three_kingdoms::state::{Frame, Pending};
use three_kingdoms::{
    Action, Config, Event, General as G, JudgeFor, Kind, Role, SeedCompat, Skill, Slot, Step, ThreeKingdoms,
};

mod common;
use common::*;

// 1. ------------------------------------------------------------------------------------------

/// Treachery takes "the card(s) that dealt the damage": a Duel's card (it was a virtual card);
/// Seed of Animosity's Duel has no card, so there is nothing to take.
#[test]
fn treachery_takes_the_duel_card_but_not_seed_of_animositys() {
    let [a, _, c, d] = plain();
    let mut g = build([a.hand(&["♠A Duel"]), S::new(G::CaoCao, Role::Rebel), c, d]);
    act(&mut g, 0, use1("♠A Duel", Kind::Duel, 1));
    pass_negates(&mut g);
    assert_eq!(g.p(Seat(1)).hp, 3, "Cao Cao had no Attack and took the damage");
    assert!(g.p(Seat(1)).hand.contains(&card("♠A Duel")), "Treachery took the Duel: {:?}", g.p(Seat(1)).hand);
    assert!(!g.discard.contains(&card("♠A Duel")));

    let [_, _, c, d] = plain();
    let mut g = build([
        S::new(G::DiaoChan, Role::Lord).hand(&["♠7 Attack"]),
        S::new(G::CaoCao, Role::Rebel),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, Action::SeedOfAnimosity { card: card("♠7 Attack"), first: Seat(1), second: Seat(2) });
    assert_eq!(g.p(Seat(1)).hp, 3);
    assert!(g.p(Seat(1)).hand.is_empty(), "nothing to take from a Duel with no card");
    assert!(g.discard.contains(&card("♠7 Attack")));
}

/// The rooms acceptance suite's `duel` reports (room seed 3197, and again in a rerun): Cao Cao,
/// the Lord, challenged Liu Bei with the Duel his Treachery had taken, lost it at 1 HP and died
/// with nobody to save him. The engine was right: a dead Cao Cao takes nothing, and the game
/// ends with his `Died` and the `GameOver`. (The suite read the watcher's events as soon as a
/// player heard `GameEnded`, while the watcher's own socket still carried those last two.)
/// Alive, Cao Cao takes back his own Duel when it hurts him.
#[test]
fn cao_cao_takes_back_his_own_duel_and_a_dead_one_takes_nothing() {
    let [_, _, c, d] = plain();
    let mut g = build([
        S::new(G::CaoCao, Role::Lord).hand(&["♣A Duel"]),
        S::new(G::LiuBei, Role::Rebel).hand(&["♣J Attack"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♣A Duel", Kind::Duel, 1));
    pass_negates(&mut g);
    // Cao Cao's hand is empty now: he cannot answer, and the Duel hurts him at once.
    let events = act(&mut g, 1, respond("♣J Attack", Kind::Attack));
    assert!(events.iter().any(|e| matches!(e, Event::Damaged { seat: Seat(0), .. })), "{events:?}");
    assert_eq!(g.p(Seat(0)).hp, g.p(Seat(0)).max_hp - 1);
    assert!(
        events.iter().any(|e| matches!(e, Event::Gained { seat: Seat(0), card: c } if *c == card("♣A Duel"))),
        "Treachery takes back Cao Cao's own Duel: {events:?}"
    );
    assert!(g.p(Seat(0)).hand.contains(&card("♣A Duel")));

    let mut g = build([
        S::new(G::CaoCao, Role::Lord).hp(1).hand(&["♣A Duel"]),
        S::new(G::LiuBei, Role::Rebel).hand(&["♣J Attack"]),
        c,
        d,
    ]);
    act(&mut g, 0, use1("♣A Duel", Kind::Duel, 1));
    pass_negates(&mut g);
    let mut events = act(&mut g, 1, respond("♣J Attack", Kind::Attack));
    // Nobody holds a Peach: the rescue passes every seat without asking.
    while g.pending.is_some() && g.winners().is_none() {
        let s = waiting(&g);
        events.extend(act(&mut g, s, Action::Pass));
    }
    let died = events.iter().position(|e| matches!(e, Event::Died { seat: Seat(0), .. }));
    let over = events.iter().position(|e| matches!(e, Event::GameOver { .. }));
    assert!(died.is_some() && over.is_some() && died < over, "the Lord died and the game ended: {events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::Gained { .. })), "a dead Cao Cao takes nothing: {events:?}");
    assert!(matches!(events.last(), Some(Event::GameOver { .. })), "the game's last event is GameOver");
}

// 2. ------------------------------------------------------------------------------------------

/// Every general is in play at most once: Hua Xiong, picked by the Lord, was dealt again.
#[test]
fn every_general_is_offered_at_most_once() {
    let mut lord_took_hua_xiong = 0;
    for seed in 0..400u64 {
        let config = Config { hua_xiong: true, ..Config::players(4 + (seed % 7) as u8) };
        let mut g = ThreeKingdoms::new(&config, seed).unwrap();
        let lord = g.lord;
        let offered = g.p(lord).candidates.clone();
        // The Lord takes Hua Xiong when offered, else the first.
        let pick = if offered.contains(&G::HuaXiong) { G::HuaXiong } else { offered[0] };
        lord_took_hua_xiong += usize::from(pick == G::HuaXiong);
        g.apply(lord, Action::ChooseGeneral { general: pick }).unwrap();
        let mut all: Vec<G> = vec![pick];
        for p in &g.players {
            all.extend(&p.candidates);
        }
        let n = all.len();
        all.sort_by_key(|g| *g as u8);
        all.dedup();
        assert_eq!(all.len(), n, "seed {seed}: a general dealt twice (Lord took {pick:?})");
    }
    assert!(lord_took_hua_xiong > 10, "only {lord_took_hua_xiong} Lords took Hua Xiong");
    // The case: `sim --seed-mode --players 5 --seed 90540`, the Lord's bot takes him.
    let mut g = ThreeKingdoms::new(&Config::seed_mode(5), 90540).unwrap();
    let lord = g.lord;
    assert!(g.p(lord).candidates.contains(&G::HuaXiong));
    g.apply(lord, Action::ChooseGeneral { general: G::HuaXiong }).unwrap();
    assert!(g.players.iter().all(|p| !p.candidates.contains(&G::HuaXiong)));
}

// 4. ------------------------------------------------------------------------------------------

/// The phase a view reports is the phase a decision arises in (it ran one ahead).
#[test]
fn the_phase_is_the_one_the_prompt_arises_in() {
    let [_, b, c, d] = plain();
    let step = |g: &ThreeKingdoms| g.view(Viewer::Spectator).step;
    // Start phase: Goddess Luo's question.
    let g = to_seat0_turn([S::new(G::ZhenJi, Role::Lord), b.clone(), c.clone(), d.clone()], &[]);
    assert!(matches!(g.pending, Some(Pending::Confirm { skill: Some(Skill::GoddessLuo), .. })));
    assert_eq!(step(&g), Step::Start);
    // Judgement phase: the Negate window on an Acedia.
    let g = to_seat0_turn(
        [S::new(G::XuChu, Role::Lord).judge(&["♠6 Acedia"]), b.clone().hand(&["♠J Negate"]), c.clone(), d.clone()],
        &[],
    );
    assert!(matches!(g.stack.last(), Some(Frame::Negate { .. })));
    assert_eq!(step(&g), Step::Judgement);
    // Draw phase: Bare-Chested's choice.
    let mut g = to_seat0_turn([S::new(G::XuChu, Role::Lord), b.clone(), c.clone(), d.clone()], &[]);
    assert_eq!(g.pending, Some(Pending::DrawPhase { seat: Seat(0) }));
    assert_eq!(step(&g), Step::Draw);
    act(&mut g, 0, Action::DrawNormally);
    assert_eq!(step(&g), Step::Play);
    // Discard phase: discarding down to the HP.
    let mut g = to_seat0_turn(
        [S::new(G::XuChu, Role::Lord).hp(1).hand(&["♥2 Dodge", "♥3 Peach"]), b.clone(), c.clone(), d.clone()],
        &[],
    );
    act(&mut g, 0, Action::DrawNormally);
    act(&mut g, 0, Action::EndPlay);
    assert!(matches!(g.pending, Some(Pending::Discard { seat: Seat(0), .. })));
    assert_eq!(step(&g), Step::Discard);
}

// 5. ------------------------------------------------------------------------------------------

/// A reopened Negate window asks a seat whose hand was refilled after it negated with its last
/// card (One After Another): whether a seat holds a card is looked at when it is asked.
#[test]
fn a_reopened_negate_window_asks_a_refilled_hand() {
    let [a, _, c, d] = plain();
    let mut g = Scenario::new(vec![
        a.hand(&["♠3 Dismantle", "♥2 Dodge"]),
        S::new(G::LuXun, Role::Rebel).hand(&["♠J Negate"]),
        c.hand(&["♣Q Negate"]),
        d.hand(&["♥3 Peach"]),
    ])
    .draw_top(&["♥4 Peach"])
    .build()
    .unwrap();
    act(&mut g, 0, use1("♠3 Dismantle", Kind::Dismantle, 2));
    assert_eq!(waiting(&g), 0);
    act(&mut g, 0, Action::Pass);
    assert_eq!(waiting(&g), 1);
    let ev = act(&mut g, 1, respond("♠J Negate", Kind::Negate));
    assert!(ev.contains(&Event::SkillUsed { seat: Seat(1), skill: Skill::OneAfterAnother }));
    assert_eq!(g.p(Seat(1)).hand, vec![card("♥4 Peach")]);
    assert_eq!(waiting(&g), 0, "the new window starts from the current player");
    act(&mut g, 0, Action::Pass);
    assert_eq!(waiting(&g), 1, "Lu Xun holds a card again and is asked");
}

// 6. ------------------------------------------------------------------------------------------

/// Kirin Bow resolves as the blow lands: before the after-damage skills (Retaliation could
/// take the Bow first) and before the rescue.
#[test]
fn kirin_bow_acts_before_retaliation_and_the_rescue() {
    let [a, _, c, d] = plain();
    let kirin = |g: &ThreeKingdoms| {
        matches!(g.pending, Some(Pending::Pick { seat: Seat(0), why: JudgeFor::Card(Kind::KirinBow), .. }))
    };
    let mut g = build([
        a.clone().hand(&["♠7 Attack"]).equip(&["♥5 Kirin Bow"]),
        S::new(G::SimaYi, Role::Rebel).equip(&["♠5 Shadowrunner"]),
        c.clone(),
        d.clone(),
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    assert!(kirin(&g), "the Bow first, then Retaliation: {:?}", g.pending);
    act(&mut g, 0, Action::Pick { zone: three_kingdoms::Zone::Equip(Slot::PlusHorse) });
    assert!(g.discard.contains(&card("♠5 Shadowrunner")));
    assert_eq!(waiting(&g), 1, "Retaliation comes after");
    // At 1 HP: the Bow before the rescue window.
    let mut g = build([
        a.hand(&["♠7 Attack"]).equip(&["♥5 Kirin Bow"]),
        S::new(G::LvMeng, Role::Rebel).hp(1).hand(&["♥3 Peach"]).equip(&["♥5 Red Hare"]),
        c,
        d,
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    assert!(kirin(&g), "the Bow before the rescue: {:?}", g.pending);
    act(&mut g, 0, Action::Pick { zone: three_kingdoms::Zone::Equip(Slot::MinusHorse) });
    assert!(matches!(g.stack.last(), Some(Frame::Dying { .. })));
    // The Bow acts, then the horse leaving sets off Warrior Woman.
    let [a, _, c, d] = plain();
    let mut g = build([
        a.hand(&["♠7 Attack"]).equip(&["♥5 Kirin Bow"]),
        S::new(G::SunShangXiang, Role::Rebel).equip(&["♥5 Red Hare"]),
        c,
        d,
    ]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    act(&mut g, 1, Action::Pass);
    let ev = act(&mut g, 0, Action::Pick { zone: three_kingdoms::Zone::Equip(Slot::MinusHorse) });
    let at = |e: &Event| ev.iter().position(|x| x == e).unwrap_or_else(|| panic!("{e:?} in {ev:?}"));
    assert!(
        at(&Event::Equipment { seat: Seat(0), kind: Kind::KirinBow, target: Some(Seat(1)) })
            < at(&Event::SkillUsed { seat: Seat(1), skill: Skill::WarriorWoman })
    );
}

// 7. ------------------------------------------------------------------------------------------

fn seed_bot_choice(g: &ThreeKingdoms, seat: u8) -> Action {
    let legal = g.legal_actions(Seat(seat));
    let mut bot = three_kingdoms::bot("seed").unwrap();
    bot.choose(&Observation::new(g, Seat(seat), &legal), &mut MatchRng::new(3))
}

fn attacks_of(a: Action) -> Option<Seat> {
    match a {
        Action::Use { kind: Kind::Attack, targets, .. }
        | Action::UseSpear { targets, .. }
        | Action::Rouse { targets } => targets.first(),
        _ => None,
    }
}

/// The seed's targeting: Rebels go for the Lord only, a Loyalist and an unrevealed Spy (who
/// plays as one) for a Rebel only.
#[test]
fn seed_mode_bots_keep_the_seeds_targets() {
    let seed_mode = |s: Scenario| {
        let mut s = s;
        s.config.seed_compat = SeedCompat::ALL;
        s.build().unwrap()
    };
    // A Rebel with only a Loyalist in range (the Lord rides a +1 horse) does not attack.
    let [a, b, c, d] = plain();
    let g = seed_mode(Scenario::new(vec![a.equip(&["♠5 Shadowrunner"]), b.hand(&["♠7 Attack"]), c, d]).current(1));
    let a = seed_bot_choice(&g, 1);
    assert_eq!(attacks_of(a), None, "a Rebel attacked: {a:?}");
    // An unrevealed Spy next to the Lord and a Loyalist, the Rebel out of range: no Attack.
    let [a, b, c, d] = plain();
    let g = seed_mode(Scenario::new(vec![a, b, c, d.hand(&["♠7 Attack"])]).current(3));
    let a = seed_bot_choice(&g, 3);
    assert_eq!(attacks_of(a), None, "an unrevealed Spy attacked: {a:?}");
    // A Loyalist with the Rebel in range attacks the Rebel.
    let [a, b, c, d] = plain();
    let g = seed_mode(Scenario::new(vec![a, b, c.hand(&["♠7 Attack"]), d]).current(2));
    assert_eq!(attacks_of(seed_bot_choice(&g, 2)), Some(Seat(1)));
}

/// The same over whole seed-mode games (the issue's `--seed-mode --players 4 --seed 90400`
/// and more): every Attack a seed bot chooses in its Play phase follows the seed's targets.
#[test]
fn seed_mode_games_attack_only_the_seeds_targets() {
    let mut checked = 0;
    for (players, seed) in [(4u8, 90400u64)].into_iter().chain((0..60).map(|i| (4 + (i % 7) as u8, 1000 + i))) {
        let mut g = ThreeKingdoms::new(&Config::seed_mode(players), seed).unwrap();
        let mut bots: Vec<Box<dyn Bot<ThreeKingdoms>>> =
            (0..players).map(|_| three_kingdoms::bot("seed").unwrap()).collect();
        let mut rng = MatchRng::new(seed ^ 0x5EED);
        let mut steps = 0;
        while g.outcome().is_none() && steps < 20_000 {
            let seat = g.to_act().first().unwrap();
            let legal = g.legal_actions(seat);
            let a = bots[seat.index()].choose(&Observation::new(&g, seat, &legal), &mut rng);
            if let (Some(t), Some(Pending::Play { .. })) = (attacks_of(a), g.pending) {
                let (me, them) = (g.p(seat), g.p(t));
                let rebel_side = me.role == Role::Rebel || (me.role == Role::Spy && me.revealed);
                let ok = if rebel_side {
                    them.role == Role::Lord
                } else {
                    them.role == Role::Rebel || (them.role == Role::Spy && them.revealed)
                };
                assert!(ok, "seed {seed}: a {:?} (revealed {}) attacked a {:?}", me.role, me.revealed, them.role);
                checked += 1;
            }
            g.apply(seat, a).unwrap();
            steps += 1;
        }
    }
    assert!(checked > 200, "only {checked} Attacks");
}

// 8. ------------------------------------------------------------------------------------------

/// Rules §5.4: the judgement's result is applied, then the card goes: Envy of Heaven takes
/// Lightning's card after its damage (it was taken before).
#[test]
fn envy_of_heaven_takes_lightnings_card_after_the_damage() {
    let [_, b, c, d] = plain();
    let mut g = to_seat0_turn(
        [S::new(G::GuoJia, Role::Lord).hand(&["♥3 Peach"]).judge(&["♠A Lightning"]), b, c, d],
        &["♠7 Attack"],
    );
    pass_negates(&mut g);
    assert_eq!(g.p(Seat(0)).hp, 0);
    assert!(matches!(g.stack.last(), Some(Frame::Dying { .. })), "{:?}", g.pending);
    assert!(!g.p(Seat(0)).hand.contains(&card("♠7 Attack")), "not yet: the damage is still resolving");
    act(&mut g, 0, respond("♥3 Peach", Kind::Peach));
    // Bequeathed Strategy: keep the looked-at cards.
    while let Some(Pending::Give { .. }) = g.pending {
        let give = g.legal_actions(Seat(0)).into_iter().find(|x| matches!(x, Action::Give { to: Seat(0), .. }));
        act(&mut g, 0, give.unwrap());
    }
    assert!(g.p(Seat(0)).hand.contains(&card("♠7 Attack")), "Envy of Heaven took it after");
}

// 9. ------------------------------------------------------------------------------------------

/// What a client needs: the Attack a Dodge answers, why a pick is asked, the Lord's general.
#[test]
fn requests_say_what_they_answer_and_picks_say_why() {
    let [a, b, c, d] = plain();
    let mut g = build([a.hand(&["♠7 Attack", "♠3 Dismantle"]), b.hand(&["♥2 Dodge", "♥3 Peach"]), c, d]);
    act(&mut g, 0, use1("♠7 Attack", Kind::Attack, 1));
    let v = g.view(Viewer::Seat { seat: Seat(1) });
    assert_eq!((v.request, v.about), (Some(Kind::Dodge), Some((Kind::Attack, Seat(0)))));
    act(&mut g, 1, respond("♥2 Dodge", Kind::Dodge));
    act(&mut g, 0, use1("♠3 Dismantle", Kind::Dismantle, 1));
    pass_negates(&mut g);
    let v = g.view(Viewer::Spectator);
    assert!(matches!(v.waiting, Some(Pending::Pick { why: JudgeFor::Card(Kind::Dismantle), .. })), "{:?}", v.waiting);
    let json = serde_json::to_value(v.waiting).unwrap();
    assert_eq!(json["Pick"]["why"], serde_json::json!({"Card": "Dismantle"}));
}

#[test]
fn every_seat_hears_the_lords_general() {
    let mut g = ThreeKingdoms::new(&Config::players(5), 4).unwrap();
    let lord = g.lord;
    let general = g.p(lord).candidates[0];
    let events = g.apply(lord, Action::ChooseGeneral { general }).unwrap();
    let chosen = Event::GeneralChosen { seat: lord, general, hp: g.p(lord).hp };
    assert!(events.contains(&chosen));
    for v in Viewer::all(5) {
        assert_eq!(g.view_event(&chosen, v), Some(chosen.clone()), "{v:?}");
        assert_eq!(g.view(v).players[lord.index()].general, Some(general));
    }
    // The others' picks stay secret until all have chosen.
    let other = Seat::all(5).find(|&s| s != lord).unwrap();
    let pick = g.p(other).candidates[0];
    let ev = g.apply(other, Action::ChooseGeneral { general: pick }).unwrap();
    assert!(ev.is_empty(), "{ev:?}");
}
