//! Table-driven rule scenarios: a setup in the compact notation (`src/setup.rs`), the moves
//! (terminal commands; `2: …` makes player 2 act out of turn), and either facts that must be
//! clauses of the summary afterwards or `error CODE` for a refused last move (which must then
//! change nothing). Each row is a rule of `docs/rules/sorcery.md`.

use engine::Seat;
use engine::testing::scenario::{self, Scenario, Step};
use sorcery::session::parse_action;
use sorcery::{Action, Sorcery};

/// The notation for the generic runner: setups as `Sorcery::from_setup`, moves as terminal
/// commands of the active player (`2: …` makes player 2 act out of turn), facts as clauses
/// the summary must contain.
struct Notation;

impl scenario::Notation for Notation {
    type G = Sorcery;

    fn setup(&self, text: &str) -> Result<Sorcery, String> {
        Sorcery::from_setup(text)
    }

    fn parse_move(&self, game: &Sorcery, text: &str) -> Result<(Seat, Action), String> {
        let (seat, text) = match text.strip_prefix("2:") {
            Some(rest) => (Seat(1), rest),
            None => (game.active(), text),
        };
        Ok((seat, parse_action(text)?))
    }

    fn check(&self, game: &Sorcery, _: &[sorcery::Event], fact: &str) -> Result<(), String> {
        let summary = game.summary();
        if summary.split("; ").any(|c| c == fact) { Ok(()) } else { Err(format!("missing; got: {summary}")) }
    }
}

/// A row as a scenario: `error CODE` refuses the last move; other facts are checked after it.
fn row(what: &str, setup: &str, moves: &[&str], facts: &[&str]) -> Scenario {
    let mut steps: Vec<Step> = moves.iter().map(|m| Step::Act { text: m.to_string(), refused: None }).collect();
    for fact in facts {
        match fact.strip_prefix("error ") {
            Some(code) => {
                let Some(Step::Act { refused, .. }) = steps.last_mut() else { panic!("{what}: an error needs a move") };
                *refused = Some(code.to_string());
            }
            None => steps.push(Step::Expect(fact.to_string())),
        }
    }
    Scenario::new(what, setup, steps)
}

/// (what, setup, moves, expected facts or "error CODE")
const ROWS: &[(&str, &str, &[&str], &[&str])] = &[
    (
        "attacker hits first; a dying Bone Golem buffs itself; the return hit uses the attack the defender had",
        "p1 board Air Elemental; p2 board Bone Golem 1/1",
        &["attack 1 1"],
        &["p1 grave Air Elemental 1/0", "p2 grave Bone Golem 2/1", "p1 board", "p2 board"],
    ),
    (
        "Unsummon of your own minion with a full hand: Unsummon has left the hand first",
        "p1 hand Unsummon, Banish, Banish, Banish, Banish; p1 board Earth Elemental 4/3 +Giant Strength",
        &["play 1 1 1"],
        &["p1 hand Banish, Banish, Banish, Banish, Earth Elemental 4/3", "p1 board"],
    ),
    (
        "Both hands full of spells that need a minion, no minion in play: nobody can ever act, \
         and the turn limit draws the game (the server's rooms play with one)",
        "limit 4; p1 hand Banish, Banish, Unsummon, Silence, Haste; p2 hand Banish, Banish, Unsummon, Silence, Haste; \
         p1 deck Air Elemental; p2 deck Air Elemental",
        &["end", "end", "end", "end"],
        &["turn 4", "drawn", "p1 hand Banish, Banish, Unsummon, Silence, Haste"],
    ),
    (
        "Unsummon onto a full hand is refused",
        "p1 hand Unsummon; p2 hand Banish, Banish, Banish, Banish, Banish; p2 board Air Elemental",
        &["play 1 2 1"],
        &["error hand_full"],
    ),
    (
        "Disenchant can kill: the minion's own defence was below 1",
        "p1 hand Disenchant; p2 board Air Elemental 1/-1 +Giant Strength",
        &["play 1 2 1"],
        &["p2 board", "p2 grave Air Elemental 1/-1"],
    ),
    (
        "Haste on an opponent's minion: its next turn gives 2 actions",
        "p1 hand Haste; p2 board Air Elemental @0",
        &["play 1 2 1", "end"],
        &["p2 board Air Elemental 1/1 @2 +Haste"],
    ),
    (
        "two Hastes: 3 actions a turn",
        "active 2; p1 board Air Elemental @0 +Haste +Haste",
        &["end"],
        &["p1 board Air Elemental 1/1 @3 +Haste +Haste"],
    ),
    (
        "Blizzard in APNAP order; a Bone Golem counts each death as it happens",
        "active 2; p2 hand Blizzard; p2 board Air Elemental, Bone Golem 1/3; p1 board Air Elemental, Air Elemental",
        &["play 1"],
        &["p2 board Bone Golem 4/4 @1", "p1 board", "p1 grave Air Elemental 1/-1, Air Elemental 1/-1"],
    ),
    (
        "active Standstill destroys first; the opposing Fire Elemental's trigger then does nothing",
        "p1 ritual Standstill 4; p1 hand Air Elemental; p2 board Fire Elemental",
        &["play 1"],
        &["p1 grave Air Elemental 1/1", "p1 ritual Standstill 2"],
    ),
    (
        "Aura of Power ignores the opponent's minions",
        "active 2; p1 ritual Aura of Power 4; p2 hand Air Elemental",
        &["play 1"],
        &["p1 ritual Aura of Power 4", "p2 board Air Elemental 1/1 @0"],
    ),
    (
        "a ritual without enough charges does nothing and stays",
        "p1 ritual Standstill 1; p1 hand Air Elemental",
        &["play 1"],
        &["p1 ritual Standstill 1", "p1 board Air Elemental 1/1 @0"],
    ),
    (
        "Dark Ritual at 0 charges gives nothing",
        "p1 ritual Dark Ritual 0",
        &["end", "end"],
        &["p1 magic 4", "p1 ritual Dark Ritual 0"],
    ),
    (
        "Master Summoner with room for two summons two",
        "p1 magic 2; p1 board Master Summoner, Air Elemental, Air Elemental",
        &["use 1"],
        &[
            "p1 board Master Summoner 2/3 @0, Air Elemental 1/1 @1, Air Elemental 1/1 @1, Air Elemental 1/1 @0, Air Elemental 1/1 @0",
            "p1 magic 0",
        ],
    ),
    (
        "Magic Fatigue stacks: 1 + 2 + 2",
        "p1 magic 5; p1 board Novice Pyromancer +Magic Fatigue +Magic Fatigue; p2 board Earth Elemental",
        &["use 1 2 1"],
        &["p1 magic 0", "p2 board Earth Elemental 4/3 @1"],
    ),
    (
        "not enough magic for an ability outside testing mode",
        "p1 magic 2; p1 board Novice Pyromancer +Magic Fatigue; p2 board Air Elemental",
        &["use 1 2 1"],
        &["error not_enough_magic"],
    ),
    (
        "testing mode: too little magic for an ability sets magic to 0",
        "testing; p1 magic 2; p1 board Novice Pyromancer +Magic Fatigue; p2 board Air Elemental",
        &["use 1 2 1"],
        &["p1 magic 0", "p2 grave Air Elemental 1/0"],
    ),
    (
        "Raise Dead keeps the attack and sets defence to 1",
        "p1 hand Raise Dead; p1 grave Air Elemental 1/1, Bone Golem 3/-2",
        &["play 1"],
        &["p1 board Bone Golem 3/1 @0", "p1 grave Air Elemental 1/1"],
    ),
    (
        "Raise Dead with a full board is refused",
        "p1 hand Raise Dead; p1 grave Air Elemental; p1 board Air Elemental, Air Elemental, Air Elemental, Air Elemental, Air Elemental",
        &["play 1"],
        &["error board_full"],
    ),
    ("Recharge with no ritual is refused", "p1 hand Recharge", &["play 1"], &["error no_ritual"]),
    (
        "Banish on a ritual removes it",
        "p1 hand Banish; p2 ritual Standstill 4",
        &["play 1 2 r"],
        &["p2 ritual none", "p1 magic 1"],
    ),
    ("nobody acts out of turn", "p2 board Air Elemental", &["2:attack 1"], &["error not_your_turn"]),
    ("an attack to 0 life wins", "p2 life 3; p1 board Earth Elemental", &["attack 1"], &["winner 1", "p2 life -1"]),
    (
        "Potion Seller fires only at the end of its owner's turn, and buffs itself",
        "active 2; p1 board Potion Seller",
        &["end", "end"],
        &["p1 board Potion Seller 1/4 @1"],
    ),
    (
        "a full hand leaves the turn's card on the deck",
        "active 2; p1 hand Banish, Banish, Banish, Banish, Banish; p1 deck Blizzard",
        &["end"],
        &["p1 deck 1", "p1 magic 4"],
    ),
    (
        "damage lands under the enchantments: an Enraged minion loses twice as much",
        "p1 hand Blizzard; p2 board Earth Elemental +Enrage",
        &["play 1"],
        &["p2 board Earth Elemental 8/4 (own 4/2) @1 +Enrage"],
    ),
    (
        "Fire Elemental ignores its owner's minions and two Fire Elementals both hit",
        "p1 magic 3; p1 board Fire Elemental; p1 hand Earth Elemental; p2 board Fire Elemental, Fire Elemental",
        &["play 1"],
        &["p1 board Fire Elemental 2/2 @1, Earth Elemental 4/2 @0"],
    ),
    (
        "a second ritual replaces the first",
        "p1 hand Aura of Power; p1 ritual Dark Ritual 1",
        &["play 1"],
        &["p1 ritual Aura of Power 4"],
    ),
    (
        "Silence blocks use, not triggers",
        "p1 board Novice Pyromancer +Silence; p2 board Air Elemental",
        &["use 1 2 1"],
        &["error silenced"],
    ),
    (
        "an enchantment cannot target a ritual",
        "p1 hand Giant Strength; p1 ritual Dark Ritual 5",
        &["play 1 1 r"],
        &["error bad_target"],
    ),
    (
        "Standstill destroying a minion triggers Bone Golems on both sides",
        "p1 hand Air Elemental; p1 board Bone Golem; p2 ritual Standstill 2; p2 board Bone Golem",
        &["play 1"],
        &["p1 board Bone Golem 2/4 @1", "p2 board Bone Golem 2/4 @1", "p2 ritual Standstill 0"],
    ),
];

#[test]
fn rule_scenarios() {
    let count =
        scenario::run_all(&Notation, ROWS.iter().map(|(what, setup, moves, facts)| row(what, setup, moves, facts)));
    assert_eq!(count, ROWS.len());
}
