//! Rule scenarios as scripts for the engine's table-driven runner (`engine::testing::scenario`):
//! a position in the compact setup notation (`WolfPack::from_setup`), then moves typed as at
//! the terminal, prefixed by the seat (`> 0 play open fire ace`, parsed by
//! `wolfpack::text::parse_command`; names are `p0`, `p1`, … and `ace`), and facts:
//!
//! ```text
//! = health <who> <n>        a seat's health (`who`: p0, p1, …, ace)
//! = phase <Phase>           the state machine's state (`Selection`, `BossSelection`, …)
//! = effects <Card,...>      the EffectFile's cards, oldest first (`none` when empty)
//! = event <Variant>         the last move told of an event of that kind (`Negated`, …)
//! = no-event <Variant>      ... and not of that one
//! = winner pilots|ace       the fight is over and that side won
//! = debt <who> <n>          a pilot's draw debt
//! ```

use engine::testing::scenario::{self, Scenario};
use engine::{Game, Seat, Viewer};
use wolfpack::text::{Command, parse_command};
use wolfpack::{Event, Side, WolfPack};

struct Notation;

fn names(g: &WolfPack) -> Vec<String> {
    (0..g.pilot_count()).map(|i| format!("p{i}")).chain(["ace".to_string()]).collect()
}

fn who(g: &WolfPack, w: &str) -> Result<Seat, String> {
    names(g).iter().position(|n| n == w).map(|i| Seat(i as u8)).ok_or_else(|| format!("no seat `{w}`"))
}

fn variant(e: &Event) -> String {
    let json = serde_json::to_value(e).expect("events serialize");
    json["type"].as_str().unwrap_or("?").to_string()
}

impl scenario::Notation for Notation {
    type G = WolfPack;

    fn setup(&self, text: &str) -> Result<WolfPack, String> {
        WolfPack::from_setup(text)
    }

    fn parse_move(&self, g: &WolfPack, text: &str) -> Result<(Seat, wolfpack::Action), String> {
        let (seat, line) = text.split_once(' ').ok_or("`<seat> <command>`")?;
        let seat = who(g, seat).or_else(|_| seat.parse::<u8>().map(Seat).map_err(|e| e.to_string()))?;
        let view = g.view(Viewer::seat(seat));
        match parse_command(line, Some(seat), &view, &names(g))? {
            Command::Act(a) => Ok((seat, a)),
            other => Err(format!("{other:?} is not a move")),
        }
    }

    fn check(&self, g: &WolfPack, events: &[Event], fact: &str) -> Result<(), String> {
        let w: Vec<&str> = fact.split_whitespace().collect();
        let expect = |ok: bool, got: String| if ok { Ok(()) } else { Err(format!("`{fact}`: got {got}")) };
        match w.as_slice() {
            ["health", x, n] => {
                let h = g.health(who(g, x)?);
                expect(h.to_string() == *n, h.to_string())
            }
            ["phase", p] => expect(format!("{:?}", g.phase()) == *p, format!("{:?}", g.phase())),
            ["effects", list] => {
                let got: Vec<String> = g.effects().effects.iter().map(|e| format!("{:?}", e.card)).collect();
                let got = if got.is_empty() { "none".to_string() } else { got.join(",") };
                expect(got == *list, got)
            }
            ["event", v] => expect(events.iter().any(|e| variant(e) == *v), format!("{events:?}")),
            ["no-event", v] => expect(!events.iter().any(|e| variant(e) == *v), format!("{events:?}")),
            ["winner", side] => {
                let want = if *side == "pilots" { Side::Pilots } else { Side::Ace };
                expect(g.winner() == Some(want), format!("{:?}", g.winner()))
            }
            ["debt", x, n] => {
                let d = g.pilot(who(g, x)?).ok_or("not a pilot")?.debt;
                expect(d.to_string() == *n, d.to_string())
            }
            _ => Err(format!("unknown fact `{fact}`")),
        }
    }
}

const SCRIPTS: &[(&str, &str)] = &[
    (
        "open fire and sidewinder hit the Ace; barrage hits a pilot for 10",
        "pilots 2; ace plays 2; p0 hand OpenFire; p1 hand Sidewinder; ace hand AirToAirBarrage,OpenFire
         pilot deck OpenFire*9; ace deck OpenFire*9
         > p0 play open fire
         = phase Selection
         > p1 play sidewinder ace
         = health ace 240
         = phase Confirm
         > p0 proceed
         > ace play air-to-air barrage p1
         > ace play open fire p0
         = health p1 40
         = health p0 45
         = phase BossPhaseConfirm",
    ),
    (
        "the Ace's Dodge Roll negates one Open Fire next turn, not a Sidewinder",
        "pilots 2; ace plays 1; p0 hand OpenFire; p1 hand OpenFire; ace hand DodgeRoll
         pilot deck Sidewinder,OpenFire*9; ace deck OpenFire*9
         > p0 discard 1
         > p1 discard 1
         > p0 proceed
         > ace play dodge roll
         = effects DodgeRoll
         > p0 proceed
         > p0 play sidewinder
         > p1 play open fire
         = event Negated
         = health ace 245
         = effects none",
    ),
    (
        "Suppression ticks before each of the target's cards",
        "pilots 1; ace plays 3; p0 hand Suppression; ace hand OpenFire*5; pilot deck OpenFire*9; ace deck OpenFire*9
         > p0 play suppression
         = effects Suppression
         > p0 proceed
         > ace play 1 p0
         > ace play 1 p0
         > ace play 1 p0
         = health ace 244
         = health p0 35",
    ),
    (
        "Pulling G's keeps the Ace off its user, and Sweeping Fire spares it",
        "pilots 2; ace plays 2; p0 hand PullingGs; p1 hand OpenFire; ace hand OpenFire,SweepingFire
         pilot deck OpenFire*9; ace deck OpenFire*9
         > p0 play pulling gs
         > p1 play open fire
         > p0 proceed
         > ace play open fire p0 ! invalid_target
         > ace play sweeping fire
         > ace play open fire p1
         = event Spared
         = health p0 50
         = health p1 40
         = effects none",
    ),
    (
        "Mid-Air Regroup heals 10, never above 50; Into the Fog then keeps it on the user",
        "pilots 2; ace plays 1; p0 health 45 hand MidAirRegroup; p1 health 30 hand MidAirRegroup; ace hand IntoTheFog
         pilot deck MidAirRegroup*2,OpenFire*9; ace deck OpenFire*9
         > p0 play mid-air regroup me
         > p1 play mid-air regroup p1
         = health p0 50
         = health p1 40
         > p0 proceed
         > ace play into the fog
         > p0 proceed
         > p0 play mid-air regroup p1 ! invalid_target
         > p0 play mid-air regroup me",
    ),
    (
        "Cover Fire takes a card from the Ace's turn",
        "pilots 1; ace plays 3; p0 hand CoverFire; ace hand OpenFire*5; pilot deck OpenFire*9; ace deck OpenFire*9
         > p0 play cover fire
         > p0 proceed
         = event AcePlays
         > ace play 1 p0
         > ace play 1 p0
         = phase BossPhaseConfirm
         = health p0 40",
    ),
    (
        "discarding three costs two cards at the next draw; a discard is no action",
        "pilots 1; ace plays 1; p0 hand OpenFire*3; ace hand Suppression; pilot deck OpenFire*9; ace deck OpenFire*9
         > p0 discard 1 2 3
         = debt p0 2
         > p0 proceed
         > ace play suppression p0
         > p0 proceed
         > p0 discard 1
         = no-event Damaged
         = debt p0 0",
    ),
    (
        "the fight ends mid-Action when the Ace falls",
        "pilots 2; p0 hand OpenFire; p1 hand OpenFire; ace health 5 hand OpenFire; pilot deck OpenFire*9; ace deck OpenFire*9
         > p1 play open fire
         > p0 play open fire
         = winner pilots
         = phase Over
         > p0 proceed ! game_over",
    ),
    (
        "selection: change until confirmed, then locked",
        "pilots 2; p0 hand OpenFire,DodgeRoll; p1 hand OpenFire; pilot deck OpenFire*9; ace deck OpenFire*9
         > p0 confirm ! nothing_to_confirm
         > p0 select dodge roll p1
         > p0 select open fire
         > p0 confirm
         > p0 play dodge roll ! already_confirmed
         > ace pass ! not_ace_selection
         > p1 proceed ! not_confirm
         > p1 play 1
         = phase Confirm
         = health ace 240",
    ),
];

#[test]
fn rule_scripts() {
    let scenarios = SCRIPTS.iter().map(|(name, script)| {
        let lines: Vec<&str> = script.lines().map(str::trim).collect();
        Scenario::parse(*name, &lines.join("\n")).unwrap_or_else(|e| panic!("{name}: {e}"))
    });
    assert_eq!(scenario::run_all(&Notation, scenarios), SCRIPTS.len());
}
