//! Table-driven rule scenarios: a setup in the compact notation (see `setup.rs`), the moves,
//! and the expected state summary or refusal code. Each row is one rule of
//! `docs/rules/buckshot.md`.

use buckshot::{Action, Buckshot, Item, ItemUse, Shell};
use engine::testing::scenario::{self, Scenario, Step};
use engine::{Game, Seat, Viewer};

/// `"0 shoot 1"`, `"0 use skip 2"`, `"0 use rebalancer live"`, `"0 steal 1 chamber-check"`.
fn parse_move(text: &str) -> (Seat, Action) {
    let w: Vec<&str> = text.split_whitespace().collect();
    let seat = Seat(w[0].parse().unwrap());
    let num = |i: usize| Seat(w[i].parse().unwrap());
    let item_use = |rest: &[&str]| -> ItemUse {
        match Item::from_name(rest[0]).unwrap_or_else(|| panic!("item {}", rest[0])) {
            Item::Skip => ItemUse::Skip { target: Seat(rest[1].parse().unwrap()) },
            Item::DoubleDamage => ItemUse::DoubleDamage,
            Item::ChamberCheck => ItemUse::ChamberCheck,
            Item::Rebalancer => {
                ItemUse::Rebalancer { kind: if rest[1] == "live" { Shell::Live } else { Shell::Blank } }
            }
            Item::Quickshot => ItemUse::Quickshot,
            Item::AddLife => ItemUse::AddLife,
            Item::ShootAir => ItemUse::ShootAir,
            Item::Steal => panic!("steal is its own move"),
        }
    };
    let action = match w[1] {
        "shoot" => Action::Shoot { target: num(2) },
        "use" => Action::Use { item: item_use(&w[2..]) },
        "steal" => Action::Steal { from: num(2), item: item_use(&w[3..]) },
        other => panic!("bad move {other}"),
    };
    (seat, action)
}

/// The notation for the generic runner: setups as `Buckshot::from_setup`, moves as
/// `parse_move`, and a fact is the whole summary (`@round N`: the summary names round N).
struct Notation;

impl scenario::Notation for Notation {
    type G = Buckshot;

    fn setup(&self, text: &str) -> Result<Buckshot, String> {
        Buckshot::from_setup(text)
    }

    fn parse_move(&self, _: &Buckshot, text: &str) -> Result<(Seat, Action), String> {
        Ok(parse_move(text))
    }

    fn check(&self, game: &Buckshot, _: &[buckshot::Event], fact: &str) -> Result<(), String> {
        let got = game.summary();
        let ok = match fact.strip_prefix("@round ") {
            Some(round) => got.contains(&format!("round {round}")),
            None => got == fact,
        };
        if ok { Ok(()) } else { Err(format!("the summary is `{got}`")) }
    }
}

/// A row of the table as a scenario: the moves, all accepted but the last if `want` is
/// `error <code>`; otherwise `want` is checked after them.
fn row(name: &str, setup: &str, moves: &[&str], want: &str) -> Scenario {
    let mut steps: Vec<Step> = moves.iter().map(|m| Step::Act { text: m.to_string(), refused: None }).collect();
    match want.strip_prefix("error ") {
        Some(code) => {
            let Some(Step::Act { refused, .. }) = steps.last_mut() else { panic!("{name}: an error needs a move") };
            *refused = Some(code.to_string());
        }
        None => steps.push(Step::Expect(want.to_string())),
    }
    Scenario::new(name, setup, steps)
}

#[test]
fn rule_scenarios() {
    let table: &[(&str, &str, &[&str], &str)] = &[
        (
            "live at another: 1 damage, turn passes",
            "seats 3; chamber LB",
            &["0 shoot 1"],
            "lives 5 4 5; chamber B; turn 1",
        ),
        ("blank at self: go again", "seats 3; chamber BL", &["0 shoot 0"], "lives 5 5 5; chamber L; turn 0"),
        ("blank at another: turn passes", "seats 3; chamber BL", &["0 shoot 1"], "lives 5 5 5; chamber L; turn 1"),
        ("live at self: turn passes", "seats 3; chamber LB", &["0 shoot 0"], "lives 4 5 5; chamber B; turn 1"),
        (
            "double damage on live",
            "seats 3; items 0=double-damage; chamber LB",
            &["0 use double-damage", "0 shoot 1"],
            "lives 5 3 5; chamber B; turn 1",
        ),
        (
            "double damage on blank does nothing",
            "seats 3; items 0=double-damage; chamber BL",
            &["0 use double-damage", "0 shoot 1"],
            "lives 5 5 5; chamber L; turn 1",
        ),
        (
            "double damage does not stack",
            "seats 3; items 0=double-damage,double-damage; chamber LB",
            &["0 use double-damage", "0 use double-damage"],
            "error already_active",
        ),
        (
            "double damage never goes below 0",
            "seats 3; lives 5 1 5; items 0=double-damage; chamber LB",
            &["0 use double-damage", "0 shoot 1"],
            "lives 5 0 5; chamber B; turn 2",
        ),
        (
            "skip: the skipped turn is consumed",
            "seats 3; items 0=skip; chamber LBL",
            &["0 use skip 1", "0 shoot 2"],
            "lives 5 5 4; chamber BL; turn 2",
        ),
        (
            "skip is pending until the turn comes",
            "seats 3; items 0=skip; chamber LBL",
            &["0 use skip 2"],
            "lives 5 5 5; chamber LBL; turn 0; skipped 2",
        ),
        (
            "skip an already skipped player fails",
            "seats 3; items 0=skip; skipped 1; chamber LB",
            &["0 use skip 1"],
            "error already_skipped",
        ),
        ("skip cannot target self", "seats 3; items 0=skip; chamber LB", &["0 use skip 0"], "error cannot_target_self"),
        (
            "skip everyone else: back to me",
            "seats 2; items 0=skip; chamber BLB",
            &["0 use skip 1", "0 shoot 1"],
            "lives 5 5; chamber LB; turn 0",
        ),
        (
            "chamber check keeps the turn",
            "seats 3; items 0=chamber-check; chamber LB",
            &["0 use chamber-check"],
            "lives 5 5 5; chamber LB; turn 0",
        ),
        (
            "quickshot: two shots",
            "seats 3; items 0=quickshot; chamber LLB",
            &["0 use quickshot", "0 shoot 1", "0 shoot 2"],
            "lives 5 4 4; chamber B; turn 1",
        ),
        (
            "quickshot: only shooting between the shots",
            "seats 3; items 0=quickshot,add-life; lives 4 5 5; chamber LLB",
            &["0 use quickshot", "0 shoot 1", "0 use add-life"],
            "error must_shoot",
        ),
        (
            "quickshot: blank at self gives no extra turn",
            "seats 3; items 0=quickshot; chamber BBL",
            &["0 use quickshot", "0 shoot 0", "0 shoot 0"],
            "lives 5 5 5; chamber L; turn 1",
        ),
        (
            "quickshot: no second shot when the first kills you",
            "seats 3; lives 1 5 5; items 0=quickshot; chamber LLB",
            &["0 use quickshot", "0 shoot 0"],
            "lives 0 5 5; chamber LB; turn 1",
        ),
        (
            "quickshot: no second shot from an empty chamber",
            "seats 3; items 0=quickshot; chamber L; seed 3",
            &["0 use quickshot", "0 shoot 1"],
            "@round 2",
        ),
        (
            "steal and use at once",
            "seats 3; lives 3 5 5; items 0=steal 1=add-life; chamber LB",
            &["0 steal 1 add-life"],
            "lives 4 5 5; chamber LB; turn 0",
        ),
        (
            "steal with the item's own target",
            "seats 3; items 0=steal 1=skip; chamber LB",
            &["0 steal 1 skip 2"],
            "lives 5 5 5; chamber LB; turn 0; skipped 2",
        ),
        (
            "steal what the target lacks",
            "seats 3; items 0=steal 1=skip; chamber LB",
            &["0 steal 1 add-life"],
            "error target_lacks_item",
        ),
        (
            "steal from yourself",
            "seats 3; items 0=steal,skip; chamber LB",
            &["0 steal 0 skip 1"],
            "error cannot_target_self",
        ),
        (
            "stolen item follows its own rules",
            "seats 3; items 0=steal 1=add-life; chamber LB",
            &["0 steal 1 add-life"],
            "error lives_full",
        ),
        (
            "add life up to 5",
            "seats 3; lives 4 5 5; items 0=add-life; chamber LB",
            &["0 use add-life"],
            "lives 5 5 5; chamber LB; turn 0",
        ),
        ("add life refused at 5", "seats 3; items 0=add-life; chamber LB", &["0 use add-life"], "error lives_full"),
        (
            "shoot air ends the turn, no damage",
            "seats 3; items 0=shoot-air; chamber LB",
            &["0 use shoot-air"],
            "lives 5 5 5; chamber B; turn 1",
        ),
        (
            "rebalancer after the first shell: refused",
            "seats 3; items 0=rebalancer; chamber LBL; fired",
            &["0 use rebalancer live"],
            "error rebalancer_window_closed",
        ),
        (
            "rebalancer closes with a shot by anyone",
            "seats 3; items 2=rebalancer; chamber BLL",
            &["0 shoot 1", "2 use rebalancer live"],
            "error rebalancer_window_closed",
        ),
        ("use an item you lack", "seats 3; chamber LB", &["0 use quickshot"], "error no_such_item"),
        ("act out of turn", "seats 3; chamber LB", &["1 shoot 0"], "error not_your_turn"),
        (
            "item out of turn",
            "seats 3; items 1=add-life; lives 5 3 5; chamber LB",
            &["1 use add-life"],
            "error not_your_turn",
        ),
        ("shoot a seat that is out", "seats 3; lives 5 0 5; chamber LB", &["0 shoot 1"], "error invalid_target"),
        (
            "killer takes the items",
            "seats 3; lives 5 1 5; items 1=skip,steal; chamber LB",
            &["0 shoot 1"],
            "lives 5 0 5; items 0=skip,steal; chamber B; turn 2",
        ),
        (
            "self-kill discards the items",
            "seats 3; lives 1 5 5; items 0=skip; chamber LB",
            &["0 shoot 0"],
            "lives 0 5 5; chamber B; turn 1",
        ),
        (
            "turns pass over seats that are out",
            "seats 3; lives 5 0 5; chamber BL",
            &["0 shoot 2"],
            "lives 5 0 5; chamber L; turn 2",
        ),
        ("last alive wins", "seats 2; lives 5 1; chamber LB", &["0 shoot 1"], "lives 5 0; chamber B; winner 0"),
        ("nothing after the end", "seats 2; lives 5 1; chamber LB", &["0 shoot 1", "0 shoot 0"], "error game_over"),
        (
            "a dead player cannot act",
            "seats 3; lives 5 1 5; items 1=rebalancer; chamber LB",
            &["0 shoot 1", "1 use rebalancer live"],
            "error not_playing",
        ),
    ];
    scenario::run_all(&Notation, table.iter().map(|(name, setup, moves, want)| row(name, setup, moves, want)));
}

#[test]
fn rebalancer_out_of_turn_adds_one_to_three_of_the_kind() {
    let mut added = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let mut g = Buckshot::from_setup(&format!("seats 3; items 2=rebalancer; chamber LBB; seed {seed}")).unwrap();
        assert!(g.legal_actions(Seat(2)).contains(&Action::Use { item: ItemUse::Rebalancer { kind: Shell::Live } }));
        g.apply(Seat(2), Action::Use { item: ItemUse::Rebalancer { kind: Shell::Live } }).unwrap();
        assert_eq!(g.blank_left(), 2);
        added.insert(g.live_left() - 1);
        assert_eq!(g.current(), Seat(0), "out-of-turn use does not take the turn");
    }
    assert_eq!(added.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
}

#[test]
fn chamber_check_is_seen_by_its_user_only() {
    let mut g = Buckshot::from_setup("seats 3; items 0=chamber-check; chamber LB").unwrap();
    let events = g.apply(Seat(0), Action::Use { item: ItemUse::ChamberCheck }).unwrap();
    let ev = &events[0];
    let mine = g.view_event(ev, Viewer::seat(Seat(0))).unwrap();
    let theirs = g.view_event(ev, Viewer::seat(Seat(1))).unwrap();
    let spect = g.view_event(ev, Viewer::Spectator).unwrap();
    assert_eq!(mine, buckshot::Event::ChamberChecked { by: Seat(0), shell: Some(Shell::Live) });
    assert_eq!(theirs, buckshot::Event::ChamberChecked { by: Seat(0), shell: None });
    assert_eq!(spect, theirs);
    assert_eq!(g.view(Viewer::seat(Seat(0))).next_shell, Some(Shell::Live));
    assert_eq!(g.view(Viewer::seat(Seat(1))).next_shell, None);
    assert_eq!(g.view(Viewer::Spectator).next_shell, None);
    // The knowledge lapses when the shell is fired.
    g.apply(Seat(0), Action::Shoot { target: Seat(1) }).unwrap();
    assert_eq!(g.view(Viewer::seat(Seat(0))).next_shell, None);
}

#[test]
fn views_never_carry_the_chamber_order() {
    // Two states that differ only in chamber order give identical views to everyone.
    let a = Buckshot::from_setup("seats 3; chamber LBBL").unwrap();
    let b = Buckshot::from_setup("seats 3; chamber BLLB").unwrap();
    for v in Viewer::all(3) {
        assert_eq!(a.view(v), b.view(v));
        let json = serde_json::to_string(&a.view(v)).unwrap();
        assert!(!json.contains("chamber"), "{json}");
    }
}

#[test]
fn determinize_resamples_the_order_but_keeps_what_the_viewer_knows() {
    let mut rng = engine::MatchRng::new(1);
    let g = Buckshot::from_setup("seats 2; items 0=chamber-check; chamber LBBBLBBB").unwrap();
    let orders: std::collections::HashSet<String> =
        (0..50).map(|_| g.determinize(Viewer::Spectator, &mut rng).summary()).collect();
    assert!(orders.len() > 10, "determinize must actually resample");
    let mut g = g;
    g.apply(Seat(0), Action::Use { item: ItemUse::ChamberCheck }).unwrap();
    for _ in 0..50 {
        let d = g.determinize(Viewer::seat(Seat(0)), &mut rng);
        assert!(d.summary().contains("chamber L"), "the checked shell stays first");
    }
}

#[test]
fn leaving_eliminates_and_can_end_the_game() {
    let mut g = Buckshot::from_setup("seats 3; items 0=skip; chamber LB").unwrap();
    let mut ev = Vec::new();
    g.leave(Seat(0), &mut ev);
    assert_eq!(g.summary(), "lives 0 5 5; chamber LB; turn 1");
    g.leave(Seat(2), &mut ev);
    assert_eq!(g.summary(), "lives 0 5 0; chamber LB; winner 1");
    assert!(matches!(ev.last(), Some(buckshot::Event::GameOver { winner: Seat(1) })));
}

#[test]
fn late_rounds_deal_no_add_life() {
    for seed in 0..100 {
        let mut g = Buckshot::from_setup(&format!("seats 2; round 6; chamber L; seed {seed}")).unwrap();
        g.apply(Seat(0), Action::Shoot { target: Seat(1) }).unwrap();
        assert_eq!(g.round(), 7);
        for s in Seat::all(2) {
            assert!(!g.items(s).has(Item::AddLife));
            assert_eq!(g.items(s).total(), 4);
        }
    }
}
