//! The table-driven scenario runner every game's `tests/scenarios.rs` uses: a position in the
//! game's compact setup notation, then steps —
//!
//! ```text
//! <setup lines>            everything before the first step, handed to the game
//! > <move>                 must be accepted (and be one of the seat's legal actions)
//! > <move> ! <code>        must be refused with that code ("" for any; `parse` for a move
//!                          that must not even parse), changing nothing and emitting nothing
//! = <fact>                 a fact the game checks about the state (and the last move's events)
//! ```
//!
//! After every accepted move the game's invariants are checked. A game plugs in through
//! [`Notation`]: how to build the position, read a move, check a fact. Rows can be written as
//! scripts ([`Scenario::parse`]) or built from other table shapes ([`Scenario::new`]).

use crate::{Game, Seat};
use std::fmt::Debug;

/// A game's scenario notation.
pub trait Notation {
    type G: Game;

    /// The position described by the setup lines.
    fn setup(&self, text: &str) -> Result<Self::G, String>;

    /// Who makes `text`'s move, and what it is (the game may read the state: whose turn it is,
    /// what a card name means in a hand).
    fn parse_move(&self, game: &Self::G, text: &str) -> Result<(Seat, <Self::G as Game>::Action), String>;

    /// Checks a fact; `events` are those of the last accepted move.
    fn check(&self, game: &Self::G, events: &[<Self::G as Game>::Event], fact: &str) -> Result<(), String>;
}

/// One step of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A move and, if it must be refused, the refusal code.
    Act { text: String, refused: Option<String> },
    /// A fact to check.
    Expect(String),
}

/// A named row: a setup and its steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    pub setup: String,
    pub steps: Vec<Step>,
}

impl Scenario {
    pub fn new(name: impl Into<String>, setup: impl Into<String>, steps: Vec<Step>) -> Self {
        Scenario { name: name.into(), setup: setup.into(), steps }
    }

    /// Reads a script in the notation above (`#` starts a comment).
    pub fn parse(name: impl Into<String>, script: &str) -> Result<Self, String> {
        let mut setup = Vec::new();
        let mut steps = Vec::new();
        for (no, raw) in script.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if let Some(m) = line.strip_prefix('>') {
                steps.push(match m.split_once('!') {
                    Some((text, code)) => Step::Act { text: text.trim().into(), refused: Some(code.trim().into()) },
                    None => Step::Act { text: m.trim().into(), refused: None },
                });
            } else if let Some(fact) = line.strip_prefix('=') {
                steps.push(Step::Expect(fact.trim().into()));
            } else if steps.is_empty() {
                setup.push(raw);
            } else if !line.is_empty() {
                return Err(format!("line {}: steps start with `>` or `=`: `{line}`", no + 1));
            }
        }
        Ok(Scenario { name: name.into(), setup: setup.join("\n"), steps })
    }
}

/// Plays one scenario; `Err` names the step that failed and why.
pub fn run<N: Notation>(notation: &N, scenario: &Scenario) -> Result<N::G, String> {
    let mut game = notation.setup(&scenario.setup).map_err(|e| format!("setup: {e}"))?;
    let mut last_events = Vec::new();
    let mut events = Vec::new();
    for (i, step) in scenario.steps.iter().enumerate() {
        let fail = |e: String| format!("step {} `{}`: {e}", i + 1, show(step));
        match step {
            Step::Act { text, refused } => {
                let (seat, action) = match notation.parse_move(&game, text) {
                    Ok(m) => m,
                    Err(_) if refused.as_deref() == Some("parse") => continue,
                    Err(e) => return Err(fail(format!("does not parse: {e}"))),
                };
                let listed = game.legal_actions(seat).contains(&action);
                let before = game.clone();
                events.clear();
                match (game.apply_into(seat, action.clone(), &mut events), refused) {
                    (Ok(()), None) => {
                        if !listed {
                            return Err(fail(format!("{action:?} was accepted but is not a legal action")));
                        }
                        std::mem::swap(&mut last_events, &mut events);
                        game.check_invariants().map_err(fail)?;
                    }
                    (Ok(()), Some(code)) => return Err(fail(format!("{action:?} was accepted, expected `{code}`"))),
                    (Err(e), None) => return Err(fail(format!("{action:?} refused: {} ({})", e.message, e.code))),
                    (Err(e), Some(code)) => {
                        if !code.is_empty() && code != e.code {
                            return Err(fail(format!("refused with `{}` ({}), expected `{code}`", e.code, e.message)));
                        }
                        if game != before || !events.is_empty() {
                            return Err(fail("a refused move changed the state or told of events".into()));
                        }
                        if listed {
                            return Err(fail(format!("{action:?} was refused but is listed as legal")));
                        }
                    }
                }
            }
            Step::Expect(fact) => notation.check(&game, &last_events, fact).map_err(fail)?,
        }
    }
    Ok(game)
}

/// Plays every scenario and panics listing all that failed (not only the first).
pub fn run_all<N: Notation>(notation: &N, scenarios: impl IntoIterator<Item = Scenario>) -> usize
where
    N::G: Debug,
{
    let mut failures = Vec::new();
    let mut count = 0;
    for s in scenarios {
        count += 1;
        if let Err(e) = run(notation, &s) {
            failures.push(format!("{}: {e}", s.name));
        }
    }
    assert!(failures.is_empty(), "{} of {count} scenario(s) failed:\n{}", failures.len(), failures.join("\n"));
    count
}

fn show(step: &Step) -> String {
    match step {
        Step::Act { text, refused: None } => format!("> {text}"),
        Step::Act { text, refused: Some(code) } => format!("> {text} ! {code}"),
        Step::Expect(fact) => format!("= {fact}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Decision, DecisionKind, MatchRng, Outcome, RuleError, SeatSet, SetupError, Viewer};
    use serde::{Deserialize, Serialize};

    /// Two players take 1 or 2 from a pile; who takes the last wins.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Nim {
        pile: u8,
        turn: Seat,
        moves: u32,
    }

    impl Game for Nim {
        const NAME: &'static str = "nim";
        type Config = ();
        type Action = u8;
        type Event = u8;
        type View = u8;
        fn new(_: &(), _: u64) -> Result<Self, SetupError> {
            Ok(Nim { pile: 5, turn: Seat(0), moves: 0 })
        }
        fn num_seats(&self) -> usize {
            2
        }
        fn to_act(&self) -> SeatSet {
            if self.pile == 0 { SeatSet::EMPTY } else { SeatSet::one(self.turn) }
        }
        fn decision(&self) -> Decision {
            Decision::new(self.to_act(), DecisionKind::Turn, self.moves)
        }
        fn legal_actions_into(&self, seat: Seat, out: &mut Vec<u8>) {
            if self.to_act().contains(seat) {
                out.extend((1..=2).filter(|n| *n <= self.pile));
            }
        }
        fn apply_into(&mut self, seat: Seat, n: u8, out: &mut Vec<u8>) -> Result<(), RuleError> {
            if !self.to_act().contains(seat) {
                return Err(RuleError::not_your_turn());
            }
            if !(1..=2).contains(&n) || n > self.pile {
                return Err(RuleError::new("bad_count", "take 1 or 2"));
            }
            self.pile -= n;
            self.moves += 1;
            out.push(self.pile);
            if self.pile > 0 {
                self.turn = Seat(1 - self.turn.0);
            }
            Ok(())
        }
        fn view(&self, _: Viewer) -> u8 {
            self.pile
        }
        fn view_event(&self, e: &u8, _: Viewer) -> Option<u8> {
            Some(*e)
        }
        fn determinize(&self, _: Viewer, _: &mut MatchRng) -> Self {
            self.clone()
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.pile == 0).then(|| Outcome::winner(self.turn))
        }
    }

    /// Setup `pile N`, moves `P<k> take N`, facts `pile N` / `left N` (the last event) / `winner P<k>`.
    struct NimNotation;

    impl Notation for NimNotation {
        type G = Nim;
        fn setup(&self, text: &str) -> Result<Nim, String> {
            let pile = text.trim().strip_prefix("pile ").ok_or("setup is `pile N`")?;
            Ok(Nim { pile: pile.parse().map_err(|_| "bad pile")?, turn: Seat(0), moves: 0 })
        }
        fn parse_move(&self, _: &Nim, text: &str) -> Result<(Seat, u8), String> {
            let (who, n) = text.split_once(" take ").ok_or("moves are `P<k> take N`")?;
            let seat = who.strip_prefix('P').and_then(|k| k.parse::<u8>().ok()).ok_or("bad seat")?;
            Ok((Seat(seat - 1), n.parse().map_err(|_| "bad count")?))
        }
        fn check(&self, game: &Nim, events: &[u8], fact: &str) -> Result<(), String> {
            let got = match fact.split_once(' ') {
                Some(("pile", _)) => format!("pile {}", game.pile),
                Some(("left", _)) => format!("left {}", events.last().ok_or("no event")?),
                Some(("winner", _)) => {
                    format!("winner P{}", game.outcome().ok_or("not over")?.winners.first().unwrap().0 + 1)
                }
                _ => return Err(format!("unknown fact `{fact}`")),
            };
            if got == fact { Ok(()) } else { Err(format!("got `{got}`")) }
        }
    }

    fn script(s: &str) -> Scenario {
        Scenario::parse("nim", s).unwrap()
    }

    #[test]
    fn a_good_scenario_passes() {
        let s = script(
            "pile 4
            > P1 take 2
            = left 2
            > P1 take 1 ! not_your_turn
            > P2 take 3 ! bad_count
            > P2 take x ! parse
            = left 2
            > P2 take 2
            = winner P2",
        );
        assert_eq!(s.setup.trim(), "pile 4");
        assert_eq!(s.steps.len(), 8);
        assert!(run(&NimNotation, &s).is_ok());
        assert_eq!(run_all(&NimNotation, [s.clone(), s]), 2);
    }

    #[test]
    fn each_kind_of_mismatch_fails() {
        let cases = [
            ("pile 4\n> P1 take 2 ! bad_count", "was accepted"),
            ("pile 4\n> P1 take 3", "refused"),
            ("pile 4\n> P1 take 3 ! not_your_turn", "expected `not_your_turn`"),
            ("pile 4\n> P1 take 1\n= pile 2", "got `pile 3`"),
            ("pile 4\n> P1 grab 1", "does not parse"),
            ("pile four", "setup"),
        ];
        for (text, why) in cases {
            let err = run(&NimNotation, &script(text)).expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
        assert!(Scenario::parse("bad", "pile 1\n> P1 take 1\nstray").is_err());
    }

    #[test]
    #[should_panic(expected = "1 of 2 scenario(s) failed")]
    fn run_all_reports_failures() {
        run_all(&NimNotation, [script("pile 2\n> P1 take 2"), script("pile 2\n> P1 take 3")]);
    }
}
