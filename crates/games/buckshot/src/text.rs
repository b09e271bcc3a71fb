//! The terminal face of Buckshot: render a view, describe events, parse typed commands.
//! Pure functions over strings; the IO loop lives in the `cli` crate.

use crate::{Action, Event, Item, ItemUse, Quickshot, Shell, View};
use engine::{Seat, Viewer};
use std::fmt::Write;

/// A parsed terminal command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Act(Action),
    Help,
    Look,
    Quit,
}

pub const HELP: &str = "\
Commands (names or seat numbers; `me` is you):
  shoot <player>                 fire the next shell at a player (yourself included)
  use skip <player>              skip that player's next turn
  use double-damage              your next shot this turn deals 2 if live
  use chamber-check              see the next shell (only you)
  use rebalancer live|blank      before the round's first shot: add 1-3 shells and reshuffle
  use quickshot                  take two shots this turn
  use add-life                   gain a life (up to 5)
  use shoot-air                  fire the next shell into the air; your turn ends
  steal <player> <item> [args]   take an item and use it at once (args as for `use`)
  look                           show the table again
  help                           this list
  quit                           leave the game";

fn shell_name(s: Shell) -> &'static str {
    match s {
        Shell::Live => "LIVE",
        Shell::Blank => "blank",
    }
}

/// The table as one seat (or a spectator) sees it.
pub fn render_view(v: &View, names: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "== Round {} · turn {} · chamber: {} live, {} blank{} ==",
        v.round,
        v.turn,
        v.live_left,
        v.blank_left,
        if v.rebalancer_window { " · rebalancer window open" } else { "" }
    );
    for p in &v.players {
        let name = &names[p.seat.index()];
        let hearts: String = "♥".repeat(usize::from(p.lives));
        let mut line = if p.alive {
            format!("  {name:<10} {hearts:<5} ({}) ", p.lives)
        } else {
            format!("  {name:<10} out       ")
        };
        let items: Vec<&str> = p.items.iter().map(Item::name).collect();
        if !items.is_empty() {
            let _ = write!(line, " items: {}", items.join(", "));
        }
        if p.skipped {
            line += "  [skipped]";
        }
        if v.current == Some(p.seat) {
            line += "  <- turn";
        }
        if v.viewer.is(p.seat) {
            line += "  (you)";
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    if let Some(shell) = v.next_shell {
        let _ = writeln!(s, "  You checked: the next shell is {}.", shell_name(shell));
    }
    if v.double_damage {
        let _ = writeln!(s, "  Double Damage is active.");
    }
    match v.quickshot {
        Quickshot::Armed => s += "  Quickshot: two shots this turn.\n",
        Quickshot::Second => s += "  Quickshot: fire your second shot.\n",
        Quickshot::Off => {}
    }
    match (v.winner, v.next) {
        (Some(w), _) => {
            let _ = writeln!(s, "  {} wins!", names[w.index()]);
        }
        (None, Some(n)) => {
            let _ = writeln!(s, "  Next up: {}", names[n.index()]);
        }
        _ => {}
    }
    s
}

/// Names seats in a line of narration: the viewer's own seat is "You" (with the verb to
/// match), anyone else by name.
struct Who<'a> {
    viewer: Viewer,
    names: &'a [String],
}

impl Who<'_> {
    fn you(&self, s: Seat) -> bool {
        self.viewer.is(s)
    }
    /// As the subject of a sentence.
    fn subj(&self, s: Seat) -> &str {
        if self.you(s) { "You" } else { self.name(s) }
    }
    /// As an object.
    fn obj(&self, s: Seat) -> &str {
        if self.you(s) { "you" } else { self.name(s) }
    }
    fn poss(&self, s: Seat) -> String {
        if self.you(s) { "your".into() } else { format!("{}'s", self.name(s)) }
    }
    fn name(&self, s: Seat) -> &str {
        self.names.get(s.index()).map_or("?", String::as_str)
    }
    /// `verb` ("shoots") after the subject `s`: "You shoot", "ana shoots".
    fn does(&self, s: Seat, verb: &str) -> String {
        let v = if !self.you(s) {
            verb.to_string()
        } else if let Some(stem) = verb.strip_suffix("ies") {
            format!("{stem}y")
        } else {
            verb.strip_suffix('s').unwrap_or(verb).to_string()
        };
        format!("{} {v}", self.subj(s))
    }
}

/// One line about an event as `viewer` received it, with `names` by seat (`None` for events
/// not worth a line). The one narration of Buckshot: terminal play and `cardtable replay`.
pub fn describe_event(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let w = Who { viewer, names };
    Some(match e {
        Event::RoundStarted { round, live, blank, .. } => {
            format!("Round {round}: the chamber is loaded with {live} live and {blank} blank. Items are dealt.")
        }
        Event::TurnStarted { seat, .. } => format!("It is {} turn.", w.poss(*seat)),
        Event::TurnEnded { .. } => return None,
        Event::TurnSkipped { seat } if w.you(*seat) => "Your turn is skipped.".to_string(),
        Event::TurnSkipped { seat } => format!("{} turn is skipped.", w.poss(*seat)),
        Event::Shot { by, target, shell, damage } => {
            let whom = match (by == target, w.you(*by)) {
                (true, true) => "yourself",
                (true, false) => "themself",
                (false, _) => w.obj(*target),
            };
            match shell {
                Shell::Live => {
                    format!("{} {whom}: LIVE! {} {damage}.", w.does(*by, "shoots"), w.does(*target, "loses"))
                }
                Shell::Blank => format!("{} {whom}: blank.", w.does(*by, "shoots")),
            }
        }
        Event::ChamberChecked { by, shell: Some(s) } => {
            format!("{} the chamber: the next shell is {}.", w.does(*by, "checks"), shell_name(*s))
        }
        Event::ChamberChecked { by, shell: None } => format!("{} the chamber.", w.does(*by, "checks")),
        Event::SkipUsed { by, target } => format!("{} {} next turn.", w.does(*by, "skips"), w.poss(*target)),
        Event::DoubleDamageUsed { by } => format!("{} Double Damage.", w.does(*by, "readies")),
        Event::Rebalanced { by, kind, added, live, blank } => format!(
            "{} a Rebalancer: +{added} {}. The chamber now holds {live} live, {blank} blank.",
            w.does(*by, "uses"),
            if *kind == Shell::Live { "live" } else { "blank" }
        ),
        Event::QuickshotUsed { by } => format!("{} Quickshot: two shots this turn.", w.does(*by, "uses")),
        Event::LifeAdded { by, lives } => format!("{} a life ({lives}).", w.does(*by, "gains")),
        Event::AirShot { by, shell } => format!("{} into the air: {}.", w.does(*by, "fires"), shell_name(*shell)),
        Event::Stole { by, from, item } => {
            format!("{} {} from {}.", w.does(*by, "steals"), item.title(), w.obj(*from))
        }
        Event::Eliminated { seat, by: Some(k), items } if k != seat && items.total() > 0 => {
            let theirs = if w.you(*seat) { "your" } else { "their" };
            format!("{} out! {} {theirs} items.", out_subject(&w, *seat), w.does(*k, "takes"))
        }
        Event::Eliminated { seat, .. } => format!("{} out!", out_subject(&w, *seat)),
        Event::Left { seat } => format!("{} left the game.", w.subj(*seat)),
        Event::GameOver { winner } => format!("{} the game!", w.does(*winner, "wins")),
    })
}

fn out_subject(w: &Who<'_>, s: Seat) -> String {
    if w.you(s) { "You are".into() } else { format!("{} is", w.name(s)) }
}

fn parse_seat(word: &str, me: Option<Seat>, names: &[String]) -> Result<Seat, String> {
    if word.eq_ignore_ascii_case("me") {
        return me.ok_or_else(|| "you are not seated".to_string());
    }
    if let Ok(i) = word.parse::<usize>() {
        return if i < names.len() { Ok(Seat(i as u8)) } else { Err(format!("there is no seat {i}")) };
    }
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(word))
        .map(|i| Seat(i as u8))
        .ok_or_else(|| format!("there is no player called `{word}`"))
}

fn parse_use(words: &[&str], me: Option<Seat>, names: &[String]) -> Result<ItemUse, String> {
    let name = words.first().ok_or("which item? (see `help`)")?;
    let item = Item::from_name(name).ok_or_else(|| format!("there is no item called `{name}`"))?;
    let arg = words.get(1).copied();
    Ok(match item {
        Item::Skip => ItemUse::Skip { target: parse_seat(arg.ok_or("skip whom?")?, me, names)? },
        Item::DoubleDamage => ItemUse::DoubleDamage,
        Item::ChamberCheck => ItemUse::ChamberCheck,
        Item::Rebalancer => ItemUse::Rebalancer {
            kind: match arg.map(str::to_ascii_lowercase).as_deref() {
                Some("live") => Shell::Live,
                Some("blank") => Shell::Blank,
                _ => return Err("rebalancer needs `live` or `blank`".into()),
            },
        },
        Item::Quickshot => ItemUse::Quickshot,
        Item::AddLife => ItemUse::AddLife,
        Item::ShootAir => ItemUse::ShootAir,
        Item::Steal => return Err("use `steal <player> <item>` to steal".into()),
    })
}

/// Parses one typed line. Extra whitespace and letter case are ignored.
pub fn parse_command(line: &str, me: Option<Seat>, names: &[String]) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else { return Err("type a command, or `help`".into()) };
    match first.to_ascii_lowercase().as_str() {
        "help" | "?" => Ok(Command::Help),
        "look" | "board" => Ok(Command::Look),
        "quit" | "exit" => Ok(Command::Quit),
        "shoot" => {
            let who = words.get(1).ok_or("shoot whom? (`shoot me` or a player's name)")?;
            Ok(Command::Act(Action::Shoot { target: parse_seat(who, me, names)? }))
        }
        "use" => Ok(Command::Act(Action::Use { item: parse_use(&words[1..], me, names)? })),
        "steal" => {
            let from = parse_seat(words.get(1).ok_or("steal from whom?")?, me, names)?;
            Ok(Command::Act(Action::Steal { from, item: parse_use(&words[2..], me, names)? }))
        }
        other => Err(format!("unknown command `{other}` (type `help`)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["you", "ana", "ben"].map(String::from).to_vec()
    }

    #[test]
    fn parses_commands() {
        let me = Some(Seat(0));
        assert_eq!(parse_command("  shoot   ANA ", me, &names()), Ok(Command::Act(Action::Shoot { target: Seat(1) })));
        assert_eq!(parse_command("shoot me", me, &names()), Ok(Command::Act(Action::Shoot { target: Seat(0) })));
        assert_eq!(
            parse_command("use skip 2", me, &names()),
            Ok(Command::Act(Action::Use { item: ItemUse::Skip { target: Seat(2) } }))
        );
        assert_eq!(
            parse_command("steal ben rebalancer blank", me, &names()),
            Ok(Command::Act(Action::Steal { from: Seat(2), item: ItemUse::Rebalancer { kind: Shell::Blank } }))
        );
        assert_eq!(
            parse_command("use doubledamage", me, &names()),
            Ok(Command::Act(Action::Use { item: ItemUse::DoubleDamage }))
        );
        assert!(parse_command("shoot zed", me, &names()).unwrap_err().contains("zed"));
        assert!(parse_command("use banana", me, &names()).unwrap_err().contains("banana"));
        assert!(parse_command("dance", me, &names()).unwrap_err().contains("unknown command"));
        assert!(parse_command("", me, &names()).is_err());
        assert!(parse_command("shoot 9", me, &names()).is_err());
    }

    #[test]
    fn narration_speaks_to_the_viewer() {
        let me = Viewer::seat(Seat(0));
        let shot = Event::Shot { by: Seat(0), target: Seat(1), shell: Shell::Live, damage: 1 };
        assert_eq!(describe_event(&shot, me, &names()).unwrap(), "You shoot ana: LIVE! ana loses 1.");
        let shot = Event::Shot { by: Seat(1), target: Seat(0), shell: Shell::Live, damage: 2 };
        assert_eq!(describe_event(&shot, me, &names()).unwrap(), "ana shoots you: LIVE! You lose 2.");
        let own = Event::Shot { by: Seat(0), target: Seat(0), shell: Shell::Blank, damage: 0 };
        assert_eq!(describe_event(&own, me, &names()).unwrap(), "You shoot yourself: blank.");
        assert_eq!(
            describe_event(&own, Viewer::Spectator, &names()).unwrap(),
            "you shoots themself: blank.",
            "a spectator reads every seat by name"
        );
        let turn = Event::TurnSkipped { seat: Seat(0) };
        assert_eq!(describe_event(&turn, me, &names()).unwrap(), "Your turn is skipped.");
        let ready = Event::DoubleDamageUsed { by: Seat(0) };
        assert_eq!(describe_event(&ready, me, &names()).unwrap(), "You ready Double Damage.");
        assert_eq!(describe_event(&Event::GameOver { winner: Seat(0) }, me, &names()).unwrap(), "You win the game!");
        assert_eq!(
            describe_event(&Event::Eliminated { seat: Seat(0), by: None, items: Default::default() }, me, &names())
                .unwrap(),
            "You are out!"
        );
    }
}
