//! The terminal face of Wolf Pack: render a view, describe events, parse typed commands.
//! Pure functions over strings; the IO loop lives in the `cli` crate. `names` are by seat,
//! the Ace's last (missing names fall back to "pilot N" and "the Ace").

use crate::action::{Action, Choice, Event, Revealed};
use crate::cards::{Aim, Card, Side};
use crate::config::Config;
use crate::effect::{Effect, Kind};
use crate::phase::{Phase, Transition};
use crate::state::WolfPack;
use crate::view::View;
use engine::{Game, Seat, Viewer};
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
Commands (cards by their number in your hand or their name; targets by name, number, `me` or `ace`):
  play <card> [target]        choose a card and lock it in (the target defaults to the Ace for
                              attacks and to you for Dodge Roll and Mid-Air Regroup)
  select <card> [target]      choose a card but keep thinking (change it freely until you confirm)
  discard <card> [<card>...]  discard instead of playing (k cards: k - 1 fewer at your next draw)
  confirm                     lock in your current choice
  proceed                     (lead pilot) hand the turn over
  look                        show the table again
  help                        this list
  quit                        leave the game";

fn name(names: &[String], v: &View, seat: Seat) -> String {
    match names.get(seat.index()) {
        Some(n) => n.clone(),
        None if v.is_ace(seat) => "the Ace".to_string(),
        None => format!("pilot {}", seat.0 + 1),
    }
}

fn bar(health: i32, max: i32) -> String {
    let filled = if max > 0 { (health.max(0) * 10 + max - 1) / max } else { 0 } as usize;
    format!("{}{}", "█".repeat(filled.min(10)), "░".repeat(10 - filled.min(10)))
}

fn effect_text(e: &Effect, v: &View, names: &[String]) -> String {
    let sp = Speaker { v, names };
    let on = e.target.map(|t| format!(" on {}", sp.obj(t))).unwrap_or_default();
    let by = sp.obj(e.user);
    match e.kind {
        Kind::Suppression { actions, turns } => {
            format!("Suppression{on}: 2 damage per card it plays ({actions} plays or {turns} turns left)")
        }
        Kind::DodgeRoll => format!("Dodge Roll{on} (from {by}): negates the next Open Fire or Sweeping Fire"),
        Kind::PullingGs => format!("Pulling G's{on}: may not target {by}"),
        Kind::CoverFire => format!("Cover Fire (from {by}): the Ace plays one card fewer"),
        Kind::IntoTheFog => "Into the Fog: pilots may not target each other".to_string(),
    }
}

fn phase_text(p: Phase) -> &'static str {
    match p {
        Phase::Draw => "Draw",
        Phase::Selection => "Selection",
        Phase::Action => "Action",
        Phase::Confirm => "Confirm",
        Phase::BossDraw => "the Ace draws",
        Phase::BossSelection => "the Ace chooses",
        Phase::BossAction => "the Ace acts",
        Phase::BossPhaseConfirm => "the Ace's turn is over",
        Phase::Over => "over",
    }
}

/// The table as one seat (or a spectator) sees it.
pub fn render_view(v: &View, names: &[String]) -> String {
    let mut s = String::new();
    let waiting: Vec<String> = v.to_act.iter().map(|t| name(names, v, t)).collect();
    let _ = write!(s, "== Wolf Pack · turn {} · {}", v.turn, phase_text(v.phase));
    if !waiting.is_empty() {
        let _ = write!(s, " · waiting for {}", waiting.join(", "));
    }
    let _ = writeln!(s, " ==");
    let ace = &v.ace;
    let _ = writeln!(
        s,
        "  {:<14} {} {:>3}/{:<3} hand {}  ({} cards a turn, {})",
        name(names, v, ace.seat),
        bar(ace.health, ace.max_health),
        ace.health,
        ace.max_health,
        ace.hand_size,
        ace.plays_per_turn,
        ace.tier.name()
    );
    let me = v.viewer.as_seat();
    for p in &v.pilots {
        let mut who = name(names, v, p.seat);
        if me == Some(p.seat) {
            who.push_str(" (you)");
        }
        if !p.alive {
            let _ = writeln!(s, "  {who:<14} shot down");
            continue;
        }
        let mut line = format!("  {who:<14} {} {:>3}/{:<3}", bar(p.health, p.max_health), p.health, p.max_health);
        if v.phase == Phase::Selection {
            line.push_str(if p.confirmed { "  ✓ confirmed" } else { "  … choosing" });
        }
        if let Some(hand) = &p.hand
            && me != Some(p.seat)
        {
            let cards: Vec<&str> = hand.iter().map(|c| c.name()).collect();
            let _ = write!(line, "  [{}]", cards.join(", "));
        }
        if p.debt > 0 {
            let _ = write!(line, "  (draws {} fewer)", p.debt);
        }
        let _ = writeln!(s, "{line}");
    }
    if !v.effects.is_empty() {
        let _ = writeln!(s, "Effects:");
        for e in &v.effects {
            let _ = writeln!(s, "  - {}", effect_text(e, v, names));
        }
    }
    if let Some(me) = me {
        if let Some(hand) = v.pilot(me).and_then(|p| p.hand.as_ref()) {
            let _ = writeln!(s, "Your hand:");
            for (i, c) in hand.iter().enumerate() {
                let _ = writeln!(s, "  {}) {} — {}", i + 1, c.name(), c.text_at(v.ace.plays_per_turn));
            }
            if let Some(choice) = v.pilot(me).and_then(|p| p.choice) {
                let _ = writeln!(
                    s,
                    "Your choice: {}{}",
                    choice_text(choice, hand, v, names),
                    if v.pilot(me).is_some_and(|p| p.confirmed) { " (confirmed)" } else { " (not confirmed)" }
                );
            }
        } else if let Some(hand) = v.ace.hand.as_ref().filter(|_| v.is_ace(me)) {
            let cards: Vec<&str> = hand.iter().map(|c| c.name()).collect();
            let _ = writeln!(s, "Your hand: {}", cards.join(", "));
        }
    }
    if let Some(w) = v.winner {
        let _ = writeln!(s, "{}", if w == Side::Pilots { "The pilots win!" } else { "The Ace wins." });
    }
    s
}

fn choice_text(c: Choice, hand: &[Card], v: &View, names: &[String]) -> String {
    match c {
        Choice::Play { card, target } => {
            let card = hand.get(usize::from(card)).map_or("?", |c| c.name());
            match target {
                Some(t) => format!("{card} → {}", name(names, v, t)),
                None => card.to_string(),
            }
        }
        Choice::Discard { cards } => {
            let list: Vec<&str> =
                hand.iter().enumerate().filter(|(i, _)| cards & (1 << i) != 0).map(|(_, c)| c.name()).collect();
            format!("discard {}", list.join(", "))
        }
    }
}

/// How a line names seats for the view's viewer: the viewer's own seat is "you" (second person,
/// as every game's log speaks to its reader), everyone else by name; a name that starts a
/// sentence is capitalised ("The Ace").
struct Speaker<'a> {
    v: &'a View,
    names: &'a [String],
}

impl Speaker<'_> {
    fn me(&self, s: Seat) -> bool {
        self.v.viewer.as_seat() == Some(s)
    }

    /// The seat as an object: "you", "bo", "the Ace".
    fn obj(&self, s: Seat) -> String {
        if self.me(s) { "you".to_string() } else { name(self.names, self.v, s) }
    }

    /// The seat starting a sentence: "You", "The Ace", a username as it is spelled.
    fn subj(&self, s: Seat) -> String {
        if self.me(s) {
            return "You".to_string();
        }
        let n = name(self.names, self.v, s);
        match n.strip_prefix("the ") {
            Some(rest) => format!("The {rest}"),
            None => n,
        }
    }

    /// Whose: "Your", "bo's", "The Ace's".
    fn poss(&self, s: Seat) -> String {
        if self.me(s) { "Your".to_string() } else { format!("{}'s", self.subj(s)) }
    }

    /// The verb for the seat as subject: `you` form for the viewer, `other` for the rest.
    fn verb<'b>(&self, s: Seat, you: &'b str, other: &'b str) -> &'b str {
        if self.me(s) { you } else { other }
    }
}

/// [`describe_event`] for `viewer` without a view at hand: the shape every game's narration
/// has (the registry's entries call it so). The narration needs a view only to tell the Ace's
/// seat and name effects; one of a fresh fight of the same table size serves (the names give
/// every seat's name).
pub fn describe_event_for(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let pilots = (names.len().saturating_sub(1) as u8).clamp(1, crate::config::MAX_PILOTS);
    let view = WolfPack::new(&Config::pilots(pilots), 0).ok()?.view(viewer);
    describe_event(e, &view, names)
}

/// One line for an event, or `None` for bookkeeping nobody needs to read. Lines speak to the
/// view's viewer: "You take 5 from Open Fire", "bo plays Open Fire at the Ace".
pub fn describe_event(e: &Event, v: &View, names: &[String]) -> Option<String> {
    let sp = Speaker { v, names };
    let at = |t: Option<Seat>| t.map(|t| format!(" at {}", sp.obj(t))).unwrap_or_default();
    Some(match *e {
        Event::Transition { transition: Transition::DrawToSelection, turn, .. } => {
            format!("— Turn {turn}: choose your cards —")
        }
        Event::Transition { transition: Transition::ConfirmToBossDraw, .. } => "— The Ace's turn —".to_string(),
        Event::Transition { .. } => return None,
        Event::Drew { seat, card: Some(c) } => format!("{} drew {}.", sp.subj(seat), c.name()),
        Event::Drew { seat, card: None } => format!("{} drew a card.", sp.subj(seat)),
        Event::Reshuffled { side, cards } => format!(
            "The {} discard pile ({cards} cards) was shuffled into a new deck.",
            if side == Side::Pilots { "pilots'" } else { "Ace's" }
        ),
        Event::Chose { seat, choice: Some(_) } => {
            format!("{} changed {} choice.", sp.subj(seat), if sp.me(seat) { "your" } else { "their" })
        }
        Event::Chose { .. } => return None,
        Event::Confirmed { seat } => format!("{} confirmed.", sp.subj(seat)),
        Event::Revealed { seat, choice: Revealed::Play { card, target } } => {
            format!("{} {} {}{}.", sp.subj(seat), sp.verb(seat, "play", "plays"), card.name(), at(target))
        }
        Event::Revealed { seat, choice: Revealed::Discard { count } } => format!(
            "{} {} {count} card{} instead.",
            sp.subj(seat),
            sp.verb(seat, "discard", "discards"),
            if count == 1 { "" } else { "s" }
        ),
        Event::Discarded { seat, card } => format!("{} discarded {}.", sp.subj(seat), card.name()),
        Event::AcePicked { card: Some(c), target, .. } => format!("The Ace picks {}{}.", c.name(), at(target)),
        Event::AcePicked { .. } => "The Ace picks a card.".to_string(),
        Event::AcePassed => "The Ace has nothing it can play.".to_string(),
        Event::Resolving { seat, card, target } => format!("{} {}{}.", sp.poss(seat), card.name(), at(target)),
        Event::Fizzled { seat, card } => format!("{} {} does nothing.", sp.poss(seat), card.name()),
        Event::Damaged { seat, amount, source, health } => format!(
            "{} {} {amount} from {} ({health} left).",
            sp.subj(seat),
            sp.verb(seat, "take", "takes"),
            source.name()
        ),
        Event::Negated { seat, source, .. } => {
            format!("{} {} the {}!", sp.subj(seat), sp.verb(seat, "dodge", "dodges"), source.name())
        }
        Event::Healed { seat, amount, health } => {
            format!("{} {} {amount} ({health}).", sp.subj(seat), sp.verb(seat, "heal", "heals"))
        }
        Event::Spared { seat, .. } => {
            format!("{} {} out of the Ace's sights (Pulling G's).", sp.subj(seat), sp.verb(seat, "are", "is"))
        }
        Event::EffectPlaced { ref effect } => format!("Now: {}.", effect_text(effect, v, names)),
        Event::EffectCounted { .. } => return None,
        Event::EffectCompleted { id } => {
            let card = v.effects.iter().find(|e| e.id == id).map_or("An effect", |e| e.card.name());
            format!("{card} wears off.")
        }
        Event::AcePlays { count } => {
            format!("The Ace plays {count} card{} this turn.", if count == 1 { "" } else { "s" })
        }
        Event::ShotDown { seat } => {
            format!("{} {} shot down!", sp.subj(seat), sp.verb(seat, "are", "is"))
        }
        Event::Proceeded { seat } => {
            format!("{} {} the turn over.", sp.subj(seat), sp.verb(seat, "hand", "hands"))
        }
        Event::FightOver { winner: Side::Pilots } => "The Ace goes down. The pilots win!".to_string(),
        Event::FightOver { winner: Side::Ace } => "Every pilot is down. The Ace wins.".to_string(),
    })
}

/// A target: a name, `me`, `ace`, or a pilot's number (1-based, as listed).
fn parse_target(word: &str, me: Option<Seat>, v: &View, names: &[String]) -> Result<Seat, String> {
    let w = word.to_ascii_lowercase();
    if w == "me" {
        return me.ok_or_else(|| "spectators have no `me`".to_string());
    }
    if w == "ace" || w == "the ace" {
        return Ok(v.ace.seat);
    }
    if let Ok(k) = w.parse::<usize>()
        && (1..=v.pilots.len()).contains(&k)
    {
        return Ok(Seat(k as u8 - 1));
    }
    (0..=v.pilots.len())
        .map(|i| Seat(i as u8))
        .find(|&s| name(names, v, s).to_ascii_lowercase() == w)
        .ok_or_else(|| format!("no player `{word}`"))
}

/// A card of `hand`: its number (1-based) or its name.
fn parse_card(word: &str, hand: &[Card], taken: u8) -> Result<u8, String> {
    if let Ok(k) = word.parse::<usize>() {
        return (1..=hand.len()).contains(&k).then(|| k as u8 - 1).ok_or_else(|| format!("you have no card {k}"));
    }
    let c = Card::parse(word).ok_or_else(|| format!("no card called `{word}`"))?;
    (0..hand.len())
        .find(|&i| hand[i] == c && taken & (1 << i) == 0)
        .map(|i| i as u8)
        .ok_or_else(|| format!("you hold no {}", c.name()))
}

/// Parses a line typed by `me` (or a spectator, who can only look, ask for help and quit).
/// A card name may take several words ("play open fire ace"): the longest run of up to four
/// words that names a card in the hand is the card, the rest the target.
pub fn parse_command(line: &str, me: Option<Seat>, v: &View, names: &[String]) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else { return Err("type a command (help lists them)".into()) };
    let verb = verb.to_ascii_lowercase();
    match verb.as_str() {
        "help" | "?" => return Ok(Command::Help),
        "look" | "l" => return Ok(Command::Look),
        "quit" | "exit" => return Ok(Command::Quit),
        _ => {}
    }
    let me = me.ok_or("spectators can only look")?;
    match verb.as_str() {
        "confirm" => Ok(Command::Act(Action::Confirm)),
        "proceed" | "next" => Ok(Command::Act(Action::Proceed)),
        "pass" => Ok(Command::Act(Action::Pass)),
        "play" | "select" => {
            let confirm = verb == "play";
            let hand = hand_of(v, me)?;
            let (card, used) = card_prefix(rest, &hand)?;
            let c = hand[usize::from(card)];
            let target_words = &rest[used..];
            let target = if target_words.is_empty() {
                default_target(c, me, v)
            } else {
                Some(parse_target(&target_words.join(" "), Some(me), v, names)?)
            };
            if c.aim() == Aim::Untargeted && !target_words.is_empty() {
                return Err(format!("{} takes no target", c.name()));
            }
            if v.is_ace(me) {
                return Ok(Command::Act(Action::Play { card, target }));
            }
            Ok(Command::Act(Action::Select { card, target, confirm }))
        }
        "discard" => {
            let hand = hand_of(v, me)?;
            let mut cards = 0u8;
            let mut rest = rest;
            while !rest.is_empty() {
                let (card, used) = card_prefix_excluding(rest, &hand, cards)?;
                cards |= 1 << card;
                rest = &rest[used..];
            }
            if cards == 0 {
                return Err("discard which cards?".into());
            }
            Ok(Command::Act(Action::Discard { cards, confirm: true }))
        }
        other => Err(format!("unknown command `{other}` (help lists them)")),
    }
}

fn hand_of(v: &View, me: Seat) -> Result<Vec<Card>, String> {
    v.pilot(me)
        .and_then(|p| p.hand.clone())
        .or_else(|| v.is_ace(me).then(|| v.ace.hand.clone()).flatten())
        .ok_or_else(|| "you have no hand".to_string())
}

/// The target a card gets when none is typed.
fn default_target(c: Card, me: Seat, v: &View) -> Option<Seat> {
    let ace = v.is_ace(me);
    match (c.aim(), ace) {
        (Aim::Untargeted, _) => None,
        (Aim::Enemy, false) | (Aim::Friend, true) => Some(v.ace.seat),
        (Aim::Friend, false) => Some(me),
        (Aim::Enemy, true) => v.living_pilots().min_by_key(|p| p.health).map(|p| p.seat),
    }
}

fn card_prefix(words: &[&str], hand: &[Card]) -> Result<(u8, usize), String> {
    card_prefix_excluding(words, hand, 0)
}

/// The card named by the first one to three words (the longest that names a card).
fn card_prefix_excluding(words: &[&str], hand: &[Card], taken: u8) -> Result<(u8, usize), String> {
    let first = words.first().ok_or("which card?")?;
    for len in (1..=words.len().min(4)).rev() {
        if let Ok(i) = parse_card(&words[..len].concat(), hand, taken) {
            return Ok((i, len));
        }
    }
    parse_card(first, hand, taken).map(|i| (i, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WolfPack;
    use engine::{Game, Viewer};

    fn names() -> Vec<String> {
        ["ann", "bo", "the Ace"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn commands_parse_to_actions() {
        let g = WolfPack::from_setup(
            "pilots 2; p0 hand OpenFire,MidAirRegroup,DodgeRoll; p1 hand CoverFire; pilot deck OpenFire*9; ace deck OpenFire*9",
        )
        .unwrap();
        let v = g.view(Viewer::seat(Seat(0)));
        let n = names();
        let p = |line: &str| parse_command(line, Some(Seat(0)), &v, &n);
        let sel = |card, target: Option<u8>, confirm| {
            Ok(Command::Act(Action::Select { card, target: target.map(Seat), confirm }))
        };
        assert_eq!(p("play 1"), sel(0, Some(2), true));
        assert_eq!(p("play open fire"), sel(0, Some(2), true));
        assert_eq!(p("play mid-air regroup bo"), sel(1, Some(1), true));
        assert_eq!(p("select 3 2"), sel(2, Some(1), false));
        assert_eq!(p("play dodge roll"), sel(2, Some(0), true));
        assert_eq!(p("discard 1 3"), Ok(Command::Act(Action::Discard { cards: 0b101, confirm: true })));
        assert_eq!(p("confirm"), Ok(Command::Act(Action::Confirm)));
        assert_eq!(p("help"), Ok(Command::Help));
        assert!(p("play 7").is_err());
        assert!(p("play sweeping fire").is_err());
        assert!(p("fly").is_err());
        assert!(parse_command("play 1", None, &v, &n).is_err());
        // Every parsed play is one the rules accept.
        for line in ["play 1", "play 2 me", "select 3 bo", "discard 2"] {
            let Ok(Command::Act(a)) = p(line) else { panic!("{line}") };
            assert!(g.is_legal(Seat(0), &a), "{line}: {a:?}");
        }
    }

    #[test]
    fn a_position_renders_for_a_pilot() {
        let mut g = WolfPack::from_setup(
            "pilots 2; p0 health 30 hand OpenFire,Suppression; p1 hand CoverFire; ace health 100 hand OpenFire*5; pilot deck OpenFire*9; ace deck OpenFire*9",
        )
        .unwrap();
        g.apply(Seat(0), Action::Select { card: 1, target: Some(Seat(2)), confirm: false }).unwrap();
        g.apply(Seat(1), Action::Select { card: 0, target: None, confirm: true }).unwrap();
        let text = render_view(&g.view(Viewer::seat(Seat(0))), &names());
        if std::env::var_os("SHOW_TEXT").is_some() {
            println!("{text}");
        }
        assert!(text.contains("waiting for ann"), "{text}");
        assert!(text.contains("Your choice: Suppression → the Ace (not confirmed)"), "{text}");
        assert!(text.contains("bo") && text.contains("✓ confirmed"), "{text}");
        assert!(text.contains("2) Suppression —"), "{text}");
    }

    #[test]
    fn a_whole_fight_renders_and_describes() {
        let mut g = WolfPack::new(&crate::Config::pilots(2), 3).unwrap();
        let mut bots = crate::lineup(&g, "heuristic").unwrap();
        let mut rng = engine::MatchRng::new(3);
        let n = names();
        let mut lines = 0;
        while let Some(seat) = g.to_act().first() {
            let legal = g.legal_actions(seat);
            let a = bots[seat.index()].choose(&engine::Observation::new(&g, seat, &legal), &mut rng);
            let before = g.view(Viewer::seat(Seat(0)));
            for e in g.apply(seat, a).unwrap() {
                if let Some(seen) = g.view_event(&e, Viewer::seat(Seat(0))) {
                    lines += usize::from(describe_event(&seen, &before, &n).is_some());
                }
            }
            let text = render_view(&g.view(Viewer::seat(Seat(0))), &n);
            assert!(text.contains("ann (you)"), "{text}");
        }
        assert!(lines > 50);
        if std::env::var_os("SHOW_TEXT").is_some() {
            println!("{}", render_view(&g.view(Viewer::seat(Seat(0))), &n));
        }
        let end = render_view(&g.view(Viewer::Spectator), &n);
        assert!(end.contains("win"), "{end}");
    }

    #[test]
    fn lines_speak_to_their_reader() {
        let g = WolfPack::new(&crate::Config::pilots(2), 1).unwrap();
        let n = names();
        let ann = g.view(Viewer::seat(Seat(0)));
        let watcher = g.view(Viewer::Spectator);
        let line = |e: &Event, v: &View| describe_event(e, v, &n).unwrap();
        let hit = Event::Resolving { seat: Seat(0), card: Card::OpenFire, target: Some(Seat(2)) };
        assert_eq!(line(&hit, &ann), "Your Open Fire at the Ace.");
        assert_eq!(line(&hit, &watcher), "ann's Open Fire at the Ace.");
        let shot = Event::Damaged { seat: Seat(0), amount: 10, source: Card::AirToAirBarrage, health: 40 };
        assert_eq!(line(&shot, &ann), "You take 10 from Air-to-Air Barrage (40 left).");
        assert_eq!(line(&shot, &watcher), "ann takes 10 from Air-to-Air Barrage (40 left).");
        let ace = Event::Damaged { seat: Seat(2), amount: 5, source: Card::OpenFire, health: 75 };
        assert_eq!(line(&ace, &ann), "The Ace takes 5 from Open Fire (75 left).");
        let reveal = Event::Revealed {
            seat: Seat(1),
            choice: Revealed::Play { card: Card::MidAirRegroup, target: Some(Seat(0)) },
        };
        assert_eq!(line(&reveal, &ann), "bo plays Mid-Air Regroup at you.");
        let mine = Event::Revealed { seat: Seat(0), choice: Revealed::Discard { count: 2 } };
        assert_eq!(line(&mine, &ann), "You discard 2 cards instead.");
        assert_eq!(line(&Event::ShotDown { seat: Seat(0) }, &ann), "You are shot down!");
        assert_eq!(line(&Event::ShotDown { seat: Seat(0) }, &watcher), "ann is shot down!");
        assert_eq!(line(&Event::Confirmed { seat: Seat(0) }, &ann), "You confirmed.");
        assert_eq!(line(&Event::Proceeded { seat: Seat(1) }, &ann), "bo hands the turn over.");
        assert_eq!(line(&Event::Drew { seat: Seat(2), card: None }, &ann), "The Ace drew a card.");
    }
}
