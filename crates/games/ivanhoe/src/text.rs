//! Terminal play without IO: render a view to text, parse a command line into an `Action`
//! given the view, describe events, and a `Session` that drives a match between one person
//! and bots one line at a time. The binary only moves lines between this and the terminal.
//!
//! Players are `P1`..`P5` (P1 is seat 0); cards are their codes (`R3`, `Sq2`, `Md6`, `DODGE`)
//! or names (`knock down`); hand cards may also be named by their number in the hand.

use crate::action::{Action, Event, Slot};
use crate::bots;
use crate::cards::{Card, Colour, Colours};
use crate::state::{Config, Ivanhoe};
use crate::view::{PhaseView, View};
use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer};
use std::fmt::Write;

/// Parses `P1`..`P5` (case-insensitive) to a seat.
pub fn parse_seat(s: &str) -> Option<Seat> {
    let rest = s.strip_prefix('P').or_else(|| s.strip_prefix('p'))?;
    let k: u8 = rest.parse().ok()?;
    (1..=5).contains(&k).then(|| Seat(k - 1))
}

/// `P1` for seat 0.
pub fn seat_name(s: Seat) -> String {
    format!("P{}", s.0 + 1)
}

/// What a command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Act(Action),
    Help,
    Quit,
}

/// The commands, for a game of `players` players.
pub fn help(players: usize) -> String {
    HELP.replace("P1..P5", &players_range(players))
}

/// `P1..P3` for three players.
fn players_range(players: usize) -> String {
    format!("P1..P{players}")
}

const HELP: &str = "\
Commands (players are P1..P5; cards by code like R3 Sq2 Md6 DODGE, by name, or by hand number):
  start <colour> <card>      open a tournament (start R3, start green Sq2)
  play <card> [choices]      add a card, or play an action card; `play` may be left out:
    R3 | 2                     a coloured card or supporter (by code or hand number)
    unhorse <colour>           purple -> red, blue or yellow
    change weapon <colour>     red/blue/yellow -> another of them
    drop weapon                red/blue/yellow -> green
    break lance <P>            P discards their purple cards
    riposte <P>                take P's last display card
    dodge <P> <card|pos>       discard one card of P's display
    retreat <card|pos>         take one of your display cards back
    knock down <P>             take a random card from P's hand
    outmaneuver | charge | countercharge | disgrace | adapt
    outwit <mine> <P> <theirs> swap face-up cards (a display card, pos, `shield` or `stunned`)
    shield | stunned <P>
  end                        end your turn (you withdraw unless you played a card and lead)
  ivanhoe | pass             answer an action card as it is played
  keep <card>                Adapt: the card to keep for a duplicated value
  token <colour>             choose a token (purple win) or give one back (maiden)
  help | quit";

fn err<T>(msg: impl Into<String>) -> Result<T, String> {
    Err(msg.into())
}

/// Parses one command line for the viewer of `view`.
pub fn parse_command(view: &View, line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return err("type a command (`help` lists them)");
    };
    let rest = &words[1..];
    let act = |a| Ok(Command::Act(a));
    match first.to_ascii_lowercase().as_str() {
        "help" | "?" | "h" => return Ok(Command::Help),
        "quit" | "exit" | "q" => return Ok(Command::Quit),
        "draw" => return err("drawing is automatic: every turn starts with a draw"),
        "end" | "done" | "withdraw" | "e" => return act(Action::EndTurn),
        "pass" => return act(Action::Pass),
        "keep" => {
            let card = rest.first().and_then(|w| Card::parse(w)).ok_or("keep which card? (`keep Sq3`)")?;
            return act(Action::Keep { card });
        }
        "token" => {
            let colour = rest.first().and_then(|w| Colour::parse(w)).ok_or("which colour? (`token red`)")?;
            return act(match view.phase {
                PhaseView::MaidenPenalty { .. } => Action::ReturnToken { colour },
                _ => Action::ChooseToken { colour },
            });
        }
        "start" => return parse_start(view, rest).map(Command::Act),
        "play" | "p" => {
            if rest.is_empty() {
                return err("play which card?");
            }
            return parse_card_play(view, rest).map(Command::Act);
        }
        _ => {}
    }
    parse_card_play(view, &words).map(Command::Act)
}

/// `words[0..]` name a card (one or two words, or a hand number); returns it and the rest.
fn card_and_rest<'a>(view: &View, words: &'a [&'a str]) -> Result<(Card, &'a [&'a str]), String> {
    let w0 = words[0];
    if let Ok(k) = w0.parse::<usize>() {
        let hand = view.hand.as_deref().unwrap_or(&[]);
        let card = *hand.get(k.wrapping_sub(1)).ok_or_else(|| format!("your hand has no card {k}"))?;
        return Ok((card, &words[1..]));
    }
    if words.len() >= 2
        && let Some(c) = Card::parse(&format!("{}{}", w0, words[1]))
        && Card::parse(w0).is_none()
    {
        return Ok((c, &words[2..]));
    }
    match Card::parse(w0) {
        Some(c) => Ok((c, &words[1..])),
        None => err(format!("unknown command or card `{w0}` (`help` lists commands)")),
    }
}

fn parse_start(view: &View, words: &[&str]) -> Result<Action, String> {
    let mut colour = None;
    let mut card = None;
    let mut i = 0;
    while i < words.len() {
        if let Some(c) = Colour::parse(words[i]).filter(|_| colour.is_none() && Card::parse(words[i]).is_none()) {
            colour = Some(c);
            i += 1;
            continue;
        }
        let (c, rest) = card_and_rest(view, &words[i..])?;
        card = Some(c);
        i = words.len() - rest.len();
    }
    let card = card.ok_or("start with which card? (`start red R3`, `start green Sq2`)")?;
    let colour = colour.or(card.colour()).ok_or("name the tournament colour (`start green Sq2`)")?;
    Ok(Action::Start { colour, card })
}

fn player(view: &View, words: &[&str], i: usize) -> Result<Seat, String> {
    let range = players_range(view.players.len());
    let w = words.get(i).ok_or_else(|| format!("name a player ({range})"))?;
    parse_seat(w).filter(|s| s.index() < view.players.len()).ok_or_else(|| format!("`{w}` is not a player ({range})"))
}

fn colour_arg(words: &[&str]) -> Result<Colour, String> {
    words.first().and_then(|w| Colour::parse(w)).ok_or_else(|| "name a colour (red, blue, yellow, ...)".into())
}

/// A display card of `seat`: a 1-based position or a card code (its earliest copy).
fn display_pos(view: &View, seat: Seat, word: Option<&&str>) -> Result<u8, String> {
    let w = word.ok_or("name a display card (code or position)")?;
    let display = &view.players.get(seat.index()).ok_or("no such player")?.display;
    if let Ok(k) = w.parse::<usize>() {
        return match k.checked_sub(1) {
            Some(p) if p < display.len() => Ok(p as u8),
            _ => err(format!("{} has no display card {k}", seat_name(seat))),
        };
    }
    let card = Card::parse(w).ok_or_else(|| format!("unknown card `{w}`"))?;
    display
        .iter()
        .position(|c| *c == card)
        .map(|p| p as u8)
        .ok_or_else(|| format!("{} has no {card} in their display", seat_name(seat)))
}

fn slot(view: &View, seat: Seat, word: Option<&&str>) -> Result<Slot, String> {
    match word.map(|w| w.to_ascii_lowercase()) {
        Some(w) if w == "shield" => Ok(Slot::Shield),
        Some(w) if w == "stunned" => Ok(Slot::Stunned),
        _ => display_pos(view, seat, word).map(|pos| Slot::Display { pos }),
    }
}

fn parse_card_play(view: &View, words: &[&str]) -> Result<Action, String> {
    let (card, args) = card_and_rest(view, words)?;
    let me = view.me().ok_or("spectators cannot play")?;
    if matches!(view.phase, PhaseView::Start { .. }) && card.is_value() {
        let mut w = vec![card.code()];
        w.extend(args.iter().copied());
        return parse_start(view, &w);
    }
    Ok(match card {
        Card::Unhorse => Action::Unhorse { colour: colour_arg(args)? },
        Card::ChangeWeapon => Action::ChangeWeapon { colour: colour_arg(args)? },
        Card::DropWeapon => Action::DropWeapon,
        Card::BreakLance => Action::BreakLance { target: player(view, args, 0)? },
        Card::Riposte => Action::Riposte { target: player(view, args, 0)? },
        Card::Dodge => {
            let target = player(view, args, 0)?;
            Action::Dodge { target, pos: display_pos(view, target, args.get(1))? }
        }
        Card::Retreat => Action::Retreat { pos: display_pos(view, me, args.first())? },
        Card::KnockDown => Action::KnockDown { target: player(view, args, 0)? },
        Card::Outmaneuver => Action::Outmaneuver,
        Card::Charge => Action::Charge,
        Card::Countercharge => Action::Countercharge,
        Card::Disgrace => Action::Disgrace,
        Card::Adapt => Action::Adapt,
        Card::Outwit => {
            let target = player(view, args, 1)?;
            Action::Outwit { give: slot(view, me, args.first())?, target, take: slot(view, target, args.get(2))? }
        }
        Card::Shield => Action::Shield,
        Card::Stunned => Action::Stunned { target: player(view, args, 0)? },
        Card::Ivanhoe => Action::Ivanhoe,
        _ => Action::Play { card },
    })
}

// ----- rendering ------------------------------------------------------------------------------

fn colours(c: Colours) -> String {
    if c.is_empty() { "-".into() } else { c.iter().map(Colour::name).collect::<Vec<_>>().join(",") }
}

fn cards(cs: &[Card]) -> String {
    if cs.is_empty() { "-".into() } else { cs.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ") }
}

/// An action card with its choices, as a sentence fragment; `who` names a seat it targets.
pub fn describe_action(a: &Action, who: &dyn Fn(Seat) -> String) -> String {
    let name = a.action_card().map_or("", Card::name);
    let slot = |x: Slot| match x {
        Slot::Display { pos } => format!("display card {}", pos + 1),
        Slot::Shield => "Shield".into(),
        Slot::Stunned => "Stunned".into(),
    };
    match *a {
        Action::Unhorse { colour } | Action::ChangeWeapon { colour } => format!("{name} (to {colour})"),
        Action::BreakLance { target }
        | Action::Riposte { target }
        | Action::KnockDown { target }
        | Action::Stunned { target } => format!("{name} on {}", who(target)),
        Action::Dodge { target, pos } => format!("{name} on {}'s display card {}", who(target), pos + 1),
        Action::Retreat { pos } => format!("{name} (display card {})", pos + 1),
        Action::Outwit { give, target, take } => {
            format!("{name}: their {} for {}'s {}", slot(give), who(target), slot(take))
        }
        Action::Start { colour, card } => format!("start {colour} with {card}"),
        Action::Play { card } => format!("play {card}"),
        _ => name.to_string(),
    }
}

/// One line about an event as `viewer` received it, with `names` by seat; the viewer's own
/// seat is "You". The one narration of Ivanhoe: the web log, terminal play and `replay` (it
/// always has a line, hence always `Some`).
pub fn describe_event(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let n = |s: Seat| {
        if viewer.is(s) {
            "You".to_string()
        } else {
            names.get(s.index()).cloned().unwrap_or_else(|| format!("seat {}", s.0))
        }
    };
    // The viewer as an object ("from you") and a possessive ("your hand").
    let o = |s: Seat| if viewer.is(s) { "you".to_string() } else { n(s) };
    let poss = |s: Seat| if viewer.is(s) { "your".to_string() } else { format!("{}'s", n(s)) };
    let their = |s: Seat| if viewer.is(s) { "your" } else { "their" };
    Some(match e {
        Event::FirstPlayer { seat, draws } => format!(
            "Token draw: {}. {} drew purple and start{} the first tournament.",
            draws.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "),
            n(*seat),
            if viewer.is(*seat) { "" } else { "s" }
        ),
        Event::Drew { seat, card: Some(c) } => format!("{} drew {}.", n(*seat), c.name()),
        Event::Drew { seat, card: None } => format!("{} drew a card.", n(*seat)),
        Event::NothingToDraw { seat } => format!("{}: nothing left to draw.", n(*seat)),
        Event::Reshuffled { cards } => format!("The discard pile ({cards} cards) is shuffled into a new draw pile."),
        Event::CannotStart { seat, hand } => format!(
            "{} cannot start a tournament; {} hand: {}.",
            n(*seat),
            their(*seat),
            if hand.is_empty() { "empty".into() } else { hand.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ") }
        ),
        Event::TournamentStarted { seat, colour } => format!("{} started a {colour} tournament.", n(*seat)),
        Event::Played { seat, card } => format!("{} played {}.", n(*seat), card.name()),
        Event::Declared { seat, action } => format!("{} played {}.", n(*seat), describe_action(action, &o)),
        Event::Passed { seat } => format!("{} let it be.", n(*seat)),
        Event::Cancelled { seat, card } => format!("{} played IVANHOE: {} is cancelled!", n(*seat), card.name()),
        Event::ColourChanged { colour } => format!("The tournament is now {colour}."),
        Event::Discarded { seat, card } => format!("{} lost {}.", n(*seat), card.name()),
        Event::Moved { from, to, card } => format!("{} moved from {} to {}.", card.name(), o(*from), o(*to)),
        Event::Retreated { seat, card } => {
            format!("{} took {} back into {} hand.", n(*seat), card.name(), their(*seat))
        }
        Event::Took { seat, from, card: Some(c) } => {
            format!("{} took {} from {} hand.", n(*seat), c.name(), poss(*from))
        }
        Event::Took { seat, from, card: None } => format!("{} took a card from {} hand.", n(*seat), poss(*from)),
        Event::Swapped { seat, target, gave, took } => {
            format!("{} gave {} to {} and took {}.", n(*seat), gave.name(), o(*target), took.name())
        }
        Event::Placed { seat, card } => format!("{} now lies in front of {}.", card.name(), o(*seat)),
        Event::Kept { seat, card } => format!("{} kept {}.", n(*seat), card.name()),
        Event::Stayed { seat } => format!("{} stayed in.", n(*seat)),
        Event::Withdrew { seat } => format!("{} withdrew.", n(*seat)),
        Event::TokenReturned { seat, colour } => format!("{} gave back a {colour} token (maiden).", n(*seat)),
        Event::TournamentWon { seat, colour } => format!("{} won the {colour} tournament!", n(*seat)),
        Event::TokenGained { seat, colour } => format!("{} took a {colour} token.", n(*seat)),
        Event::GameWon { seat } => format!("{} won the game!", n(*seat)),
        Event::Stalled => "Nobody can start and nothing is left to draw: the game ends unwon.".into(),
    })
}

/// The table as text for the viewer.
pub fn render(view: &View) -> String {
    let mut s = String::new();
    let colour = view.colour.map_or("(not chosen)".to_string(), |c| c.name().to_ascii_uppercase());
    let previous = view.previous.map_or("-", Colour::name);
    if matches!(view.phase, PhaseView::Over { .. }) {
        // No tournament is under way: the table as the game left it.
        let _ = writeln!(s, "Final table after {} tournaments | {} colours win", view.tournaments, view.tokens_to_win);
    } else {
        let _ = writeln!(
            s,
            "Tournament {} | colour {colour} | previous {previous} | {} colours win",
            view.tournaments + 1,
            view.tokens_to_win
        );
    }
    for p in &view.players {
        let marker = if p.seat == view.active { ">" } else { " " };
        let you = if view.me() == Some(p.seat) { " (you)" } else { "" };
        let mut line = format!(
            "{marker} {}{you:<6} tokens {:<22} hand {:>2}  ",
            seat_name(p.seat),
            colours(p.tokens),
            p.hand_count
        );
        if p.withdrawn {
            line.push_str("withdrawn");
        } else {
            let _ = write!(line, "display {} = {}", cards(&p.display), p.total);
        }
        if p.shield {
            line.push_str("  [SHIELD]");
        }
        if p.stunned {
            line.push_str("  [STUNNED]");
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    let top = view.discard.last().map_or("-".to_string(), |c| c.to_string());
    let _ = writeln!(s, "  draw pile {} | discard pile {} (top {top})", view.draw_count, view.discard.len());
    if let Some(hand) = &view.hand {
        let items: Vec<String> = hand.iter().enumerate().map(|(i, c)| format!("{}:{c}", i + 1)).collect();
        let _ = writeln!(s, "  your hand: {}", if items.is_empty() { "-".into() } else { items.join(" ") });
    }
    let me = view.me();
    let is_me = |x: Seat| me == Some(x);
    let line = match &view.phase {
        PhaseView::Start { seat } if is_me(*seat) => format!(
            "You open the tournament: `start <colour> <card>` (allowed: {}).",
            view.allowed.map_or("-".into(), colours)
        ),
        PhaseView::Start { seat } => format!("{} is opening a tournament.", seat_name(*seat)),
        PhaseView::Turn { seat } if is_me(*seat) => {
            let best = view.opponents(*seat).map(|p| p.total).max().unwrap_or(0);
            format!(
                "Your turn: {} card played this turn; your total {} vs best other {best}. Play cards, then `end`.",
                if view.played_this_turn { "a" } else { "no" },
                view.player(*seat).total
            )
        }
        PhaseView::Turn { seat } => format!("{}'s turn.", seat_name(*seat)),
        PhaseView::Window { seat, action, waiting } => {
            let names: Vec<String> = waiting.iter().map(|s| seat_name(*s)).collect();
            let ask =
                if me.is_some_and(|m| waiting.contains(&m)) { " Answer `ivanhoe` to cancel it or `pass`." } else { "" };
            format!(
                "{} plays {}; waiting on {}.{ask}",
                seat_name(*seat),
                describe_action(action, &seat_name),
                names.join(", ")
            )
        }
        PhaseView::Adapt { seat, value } => format!(
            "Adapt: {} keeps one card of value {value}{}",
            seat_name(*seat),
            if is_me(*seat) { " — `keep <card>`." } else { "." }
        ),
        PhaseView::MaidenPenalty { seat } => format!(
            "{} withdraws with a maiden and gives back a token{}",
            seat_name(*seat),
            if is_me(*seat) { " — `token <colour>`." } else { "." }
        ),
        PhaseView::PurpleToken { seat } => format!(
            "{} won a purple tournament and chooses a token{}",
            seat_name(*seat),
            if is_me(*seat) { " they lack — `token <colour>`." } else { "." }
        ),
        PhaseView::Over { winner: Some(w) } => format!("Game over: {} wins.", seat_name(*w)),
        PhaseView::Over { winner: None } => "Game over: nobody wins.".into(),
    };
    let _ = writeln!(s, "{line}");
    s
}

// ----- a session: one person against bots -----------------------------------------------------

/// A match between one person (`human`) and bots, advanced a command line at a time. Pure:
/// the terminal driver feeds it lines and prints what it returns.
pub struct Session {
    game: Ivanhoe,
    human: Seat,
    /// `P1`.. by seat: the names the commands use.
    names: Vec<String>,
    bots: Vec<Option<Box<dyn Bot<Ivanhoe>>>>,
    rng: MatchRng,
}

impl Session {
    /// `bot_names` are for the other seats in order (the last one repeats; default heuristic).
    pub fn new(players: u8, seed: u64, human: Seat, bot_names: &[String]) -> Result<(Session, String), String> {
        Session::new_with_bots(players, seed, human, bot_names, bots::bot)
    }

    /// As [`Session::new`], with bots named for `make` (a tool's table, which may know more
    /// names than this crate's, such as difficulty levels).
    pub fn new_with_bots(
        players: u8,
        seed: u64,
        human: Seat,
        bot_names: &[String],
        make: fn(&str) -> Option<Box<dyn Bot<Ivanhoe>>>,
    ) -> Result<(Session, String), String> {
        let (game, events) = Ivanhoe::new_with_events(&Config { players }, seed).map_err(|e| e.message)?;
        if human.index() >= players as usize {
            return Err(format!("there is no seat {} in a {players}-player game", human.0 + 1));
        }
        let session = Session::with_game_and_bots(game, human, bot_names, seed, make)?;
        let mut out = String::new();
        session.log(&events, &mut out);
        Ok((session, out))
    }

    /// A session on a given position (tests).
    pub fn with_game(game: Ivanhoe, human: Seat, bot_names: &[String], seed: u64) -> Result<Session, String> {
        Session::with_game_and_bots(game, human, bot_names, seed, bots::bot)
    }

    fn with_game_and_bots(
        game: Ivanhoe,
        human: Seat,
        bot_names: &[String],
        seed: u64,
        make: fn(&str) -> Option<Box<dyn Bot<Ivanhoe>>>,
    ) -> Result<Session, String> {
        let mut names = bot_names.iter();
        let mut last = "heuristic".to_string();
        let mut bots_v = Vec::new();
        for s in Seat::all(game.num_players()) {
            if s == human {
                bots_v.push(None);
                continue;
            }
            if let Some(n) = names.next() {
                last = n.clone();
            }
            bots_v.push(Some(
                make(&last).ok_or_else(|| format!("unknown bot `{last}` (known: {})", bots::BOTS.join(", ")))?,
            ));
        }
        let names = Seat::all(game.num_players()).map(seat_name).collect();
        Ok(Session { game, human, names, bots: bots_v, rng: MatchRng::new(seed ^ 0xB0B5) })
    }

    pub fn game(&self) -> &Ivanhoe {
        &self.game
    }

    pub fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The table and what is expected of the person.
    pub fn render(&self) -> String {
        render(&self.game.view(Viewer::seat(self.human)))
    }

    fn log(&self, events: &[Event], out: &mut String) {
        for e in events {
            let viewer = Viewer::seat(self.human);
            if let Some(line) =
                self.game.view_event(e, viewer).and_then(|seen| describe_event(&seen, viewer, &self.names))
            {
                let _ = writeln!(out, "  {line}");
            }
        }
    }

    /// Lets the bots (and the person's forced passes) play until the person must choose or
    /// the game ends.
    pub fn advance(&mut self) -> String {
        let mut out = String::new();
        let mut legal = Vec::new();
        let mut events = Vec::new();
        while !self.is_over() {
            let to_act = self.game.to_act();
            let seat = match to_act.iter().find(|&s| s != self.human) {
                Some(s) => s,
                None => {
                    // Without Ivanhoe, the only answer to a window is to pass: do it for them.
                    legal.clear();
                    self.game.legal_actions_into(self.human, &mut legal);
                    if legal == [Action::Pass] {
                        events.clear();
                        self.game.apply_into(self.human, Action::Pass, &mut events).expect("pass is legal");
                        self.log(&events, &mut out);
                        continue;
                    }
                    break;
                }
            };
            legal.clear();
            self.game.legal_actions_into(seat, &mut legal);
            let action = {
                let obs = Observation::new(&self.game, seat, &legal);
                self.bots[seat.index()].as_mut().expect("a bot seat").choose(&obs, &mut self.rng)
            };
            events.clear();
            self.game.apply_into(seat, action, &mut events).expect("bots choose legal actions");
            self.log(&events, &mut out);
        }
        out
    }

    /// Handles one line from the person: returns what to print and whether to stop.
    pub fn handle(&mut self, line: &str) -> (String, bool) {
        let line = line.trim();
        if line.is_empty() {
            return (String::new(), false);
        }
        let view = self.game.view(Viewer::seat(self.human));
        match parse_command(&view, line) {
            Ok(Command::Help) => (format!("{}\n", help(self.game.num_players())), false),
            Ok(Command::Quit) => ("Bye.\n".into(), true),
            Err(e) => (format!("? {e}\n"), false),
            Ok(Command::Act(action)) => {
                if self.is_over() {
                    return ("? the game is over\n".into(), true);
                }
                let mut events = Vec::new();
                match self.game.apply_into(self.human, action, &mut events) {
                    Err(e) => (format!("? {} [{}]\n", e.message, e.code), false),
                    Ok(()) => {
                        let mut out = String::new();
                        self.log(&events, &mut out);
                        out.push_str(&self.advance());
                        out.push_str(&self.render());
                        (out, self.is_over())
                    }
                }
            }
        }
    }
}
