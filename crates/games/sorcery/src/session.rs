//! The terminal game of the spec (section 5), as a pure line-in, text-out state machine: the
//! `cardtable sorcery` driver reads the files and the lines and prints what comes back, and
//! the golden transcript tests feed it the same way.
//!
//! Product decisions recorded here (rules reference, section 3):
//! - nothing is printed automatically at the start of a turn except one line naming the
//!   player and their magic; `board` and `hand` print on request;
//! - what happens is narrated one line per event (who played what, damage, deaths, triggers);
//! - errors are one line, `Error: ...`, and change nothing;
//! - a seat played by a bot is not asked for a name; its moves are echoed as the command a
//!   human would have typed;
//! - the end of input ends the game with no winner, as `quit` does.

use crate::action::{Action, DrawReason, Event, MinionRef, Target, TargetRef};
use crate::cards::{CardId, Modifier};
use crate::state::{Config, Sorcery, Status};
use crate::text::{self, Style};
use engine::{Bot, Game, MatchRng, Observation, Seat, SetupError, Viewer};
use std::fmt::Write as _;

/// The command-line options of `cardtable sorcery` (spec 5.2, plus ours).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub deck1: Option<String>,
    pub deck2: Option<String>,
    pub init: Option<String>,
    pub testing: bool,
    pub graphics: bool,
    pub unicode: bool,
    pub seed: Option<u64>,
    pub bots: [Option<String>; 2],
}

pub const USAGE: &str = "usage: cardtable sorcery [-deck1 FILE] [-deck2 FILE] [-init FILE] [-testing] [-graphics] \
[-seed N] [-unicode] [-bot1 NAME] [-bot2 NAME]   (bots: random, heuristic)";

/// Parses the arguments after `cardtable sorcery`, in any order. Flags are spelled as in the
/// spec, with one dash (two are accepted too).
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let name = flag.strip_prefix("--").or_else(|| flag.strip_prefix('-')).unwrap_or("");
        let mut value = |what: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs {what}"));
        match name {
            "deck1" => a.deck1 = Some(value("a file name")?),
            "deck2" => a.deck2 = Some(value("a file name")?),
            "init" => a.init = Some(value("a file name")?),
            "testing" => a.testing = true,
            "graphics" => a.graphics = true,
            "unicode" | "fancy" => a.unicode = true,
            "seed" => {
                let v = value("a number")?;
                a.seed = Some(v.parse().map_err(|_| format!("-seed needs a whole number, not \"{v}\""))?);
            }
            "bot1" | "bot2" => {
                let v = value("a bot name (random or heuristic)")?;
                if !crate::BOTS.contains(&v.as_str()) {
                    return Err(format!("unknown bot \"{v}\" (choose from: {})", crate::BOTS.join(", ")));
                }
                a.bots[usize::from(name == "bot2")] = Some(v);
            }
            _ => return Err(format!("unknown argument \"{flag}\"")),
        }
    }
    Ok(a)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    AskName(u8),
    Playing,
    Over,
}

/// One terminal game.
pub struct Session {
    game: Sorcery,
    names: [String; 2],
    bots: [Option<Box<dyn Bot<Sorcery>>>; 2],
    bot_rng: MatchRng,
    style: Style,
    phase: Phase,
    events: Vec<Event>,
}

impl Session {
    /// Sets the game up and returns the first prompt.
    pub fn new(args: &Args, decks: [Vec<CardId>; 2], seed: u64) -> Result<(Session, String), SetupError> {
        let bots = [0, 1].map(|i| args.bots[i].as_deref().and_then(crate::bot));
        let mut config = Config::terminal(decks, args.testing);
        if bots.iter().all(Option::is_some) {
            // Nobody can type `quit`: make sure two bots finish.
            config.turn_limit = Some(500);
        }
        let game = Sorcery::new(&config, seed)?;
        let names = [0, 1].map(|i: usize| match &args.bots[i] {
            Some(b) => format!("{}{} bot", b[..1].to_uppercase(), &b[1..]),
            None => String::new(),
        });
        let mut s = Session {
            game,
            names,
            bots,
            bot_rng: MatchRng::new(seed ^ 0xB0B),
            style: if args.unicode { Style::Fancy } else { Style::Simple },
            phase: Phase::AskName(0),
            events: Vec::new(),
        };
        let mut out = String::new();
        s.next_prompt(&mut out);
        Ok((s, out))
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn game(&self) -> &Sorcery {
        &self.game
    }

    pub fn names(&self) -> [&str; 2] {
        [self.names[0].as_str(), self.names[1].as_str()]
    }

    /// Whether a bot plays `seat`.
    pub fn is_bot(&self, seat: Seat) -> bool {
        self.bots[seat.index()].is_some()
    }

    /// Whose hand a display shows: the one person's against a bot, else the player whose
    /// turn it is (spec 5.2.4: the current player's hand at all times).
    pub fn display_seat(&self) -> Seat {
        self.audience().and_then(Viewer::as_seat).unwrap_or(self.game.active())
    }

    /// Asks for the next missing name, or starts the game when both are known.
    fn next_prompt(&mut self, out: &mut String) {
        while let Phase::AskName(i) = self.phase {
            if self.bots[i as usize].is_none() {
                let _ = writeln!(out, "Enter the name of player {}:", i + 1);
                return;
            }
            self.phase = if i == 0 { Phase::AskName(1) } else { Phase::Playing };
        }
        if self.phase == Phase::Playing {
            for e in self.game.start_events() {
                self.narrate(&e, out);
            }
            self.run_bots(out);
        }
    }

    /// Handles one line of input and returns what to print.
    pub fn feed(&mut self, line: &str) -> String {
        let mut out = String::new();
        match self.phase {
            Phase::Over => {}
            Phase::AskName(i) => {
                let name = line.trim();
                if name.is_empty() {
                    let _ = writeln!(out, "Enter the name of player {}:", i + 1);
                } else {
                    self.names[i as usize] = name.to_string();
                    self.phase = if i == 0 { Phase::AskName(1) } else { Phase::Playing };
                    self.next_prompt(&mut out);
                }
            }
            Phase::Playing => {
                self.command(line, &mut out);
                if self.phase == Phase::Playing {
                    self.run_bots(&mut out);
                }
            }
        }
        out
    }

    /// The input has ended.
    pub fn finish(&mut self) -> String {
        if self.phase == Phase::Over {
            return String::new();
        }
        self.phase = Phase::Over;
        "End of input: the game ends with no winner.\n".to_string()
    }

    fn name(&self, seat: Seat) -> &str {
        &self.names[seat.index()]
    }

    /// Whose eyes the narration is for: the one human against a bot; everyone (no redaction)
    /// at a hot seat or when bots play each other.
    fn audience(&self) -> Option<Viewer> {
        match [self.bots[0].is_some(), self.bots[1].is_some()] {
            [false, true] => Some(Viewer::seat(Seat(0))),
            [true, false] => Some(Viewer::seat(Seat(1))),
            _ => None,
        }
    }

    fn command(&mut self, line: &str, out: &mut String) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&verb) = words.first() else { return };
        let args = &words[1..];
        let seat = self.game.active();
        let result: Result<Option<Action>, String> = match verb {
            "help" => {
                out.push_str(text::HELP);
                out.push('\n');
                Ok(None)
            }
            "quit" => {
                out.push_str("The game ends with no winner.\n");
                self.phase = Phase::Over;
                Ok(None)
            }
            "hand" | "board" => {
                if !args.is_empty() {
                    Err(format!("{verb} takes no arguments."))
                } else {
                    let view = self.game.view(Viewer::seat(seat));
                    let lines = if verb == "hand" {
                        text::hand(view.player(seat).hand.as_deref().unwrap_or(&[]), self.style)
                    } else {
                        text::board(&view, self.names(), self.style)
                    };
                    for l in lines {
                        out.push_str(&l);
                        out.push('\n');
                    }
                    Ok(None)
                }
            }
            "inspect" | "describe" => match args {
                [i] => number(i).and_then(|i| {
                    let view = self.game.view(Viewer::seat(seat));
                    let m = view.player(seat).board.get(i as usize).ok_or(format!("You have no minion {}.", i + 1))?;
                    for l in text::inspect(m, self.style) {
                        out.push_str(&l);
                        out.push('\n');
                    }
                    Ok(None)
                }),
                _ => Err("Usage: inspect minion".into()),
            },
            "end" if args.is_empty() => Ok(Some(Action::End)),
            "draw" if args.is_empty() => Ok(Some(Action::Draw)),
            "end" | "draw" => Err(format!("{verb} takes no arguments.")),
            "discard" => match args {
                [i] => number(i).map(|card| Some(Action::Discard { card })),
                _ => Err("Usage: discard card".into()),
            },
            "attack" => match args {
                [i] => number(i).map(|minion| Some(Action::Attack { minion, target: None })),
                [i, j] => number(i)
                    .and_then(|minion| number(j).map(|target| Some(Action::Attack { minion, target: Some(target) }))),
                _ => Err("Usage: attack minion [other-minion]".into()),
            },
            "play" | "use" => {
                let target = match args.len() {
                    1 => Ok(None),
                    3 => target(args[1], args[2]).map(Some),
                    _ => Err(format!(
                        "Usage: {verb} {} [target-player target-card]",
                        if verb == "play" { "card" } else { "minion" }
                    )),
                };
                target.and_then(|target| {
                    let i = number(args[0])?;
                    Ok(Some(if verb == "play" {
                        Action::Play { card: i, target }
                    } else {
                        Action::Use { minion: i, target }
                    }))
                })
            }
            _ => Err(format!("Unknown command \"{verb}\". Type help for the list of commands.")),
        };
        match result {
            Err(message) => {
                let _ = writeln!(out, "Error: {message}");
            }
            Ok(None) => {}
            Ok(Some(action)) => self.act(seat, action, out),
        }
    }

    fn act(&mut self, seat: Seat, action: Action, out: &mut String) {
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        match self.game.apply_into(seat, action, &mut events) {
            Err(e) => {
                let _ = writeln!(out, "Error: {}", e.message);
            }
            Ok(()) => {
                let audience = self.audience();
                for e in &events {
                    match audience {
                        None => self.narrate(e, out),
                        Some(v) => {
                            if let Some(seen) = self.game.view_event(e, v) {
                                self.narrate(&seen, out);
                            }
                        }
                    }
                }
            }
        }
        self.events = events;
        if self.game.status() != Status::Playing {
            self.phase = Phase::Over;
        }
    }

    /// Lets bots play while it is a bot's turn.
    fn run_bots(&mut self, out: &mut String) {
        let mut legal = Vec::new();
        while self.phase == Phase::Playing {
            let seat = self.game.active();
            let Some(bot) = self.bots[seat.index()].as_mut() else { return };
            legal.clear();
            self.game.legal_actions_into(seat, &mut legal);
            let action = bot.choose(&Observation::new(&self.game, seat, &legal), &mut self.bot_rng);
            let _ = writeln!(out, "{}: {}", self.names[seat.index()], command_text(action));
            self.act(seat, action, out);
        }
    }

    fn minion(&self, m: MinionRef) -> String {
        format!("{}'s {}", self.name(m.player), m.card.name())
    }

    fn target(&self, t: TargetRef) -> String {
        match t {
            TargetRef::Minion { minion } => self.minion(minion),
            TargetRef::Ritual { player, card } => format!("{}'s {}", self.name(player), card.name()),
        }
    }

    /// One line per event (some routine ones print nothing).
    fn narrate(&self, e: &Event, out: &mut String) {
        let line = match *e {
            Event::TurnStarted { player, turn, magic } => {
                format!("Turn {turn}: {} to play (magic {magic}).", self.name(player))
            }
            Event::MagicGained { player, amount, magic } => {
                format!("{} gains {amount} magic (now {magic}).", self.name(player))
            }
            Event::CardDrawn { player, card } => match card {
                Some(c) => format!("{} draws {}.", self.name(player), c.name()),
                None => format!("{} draws a card.", self.name(player)),
            },
            Event::CardPlayed { player, card, target, .. } => match target {
                Some(t) => format!("{} plays {} on {}.", self.name(player), card.name(), self.target(t)),
                None => format!("{} plays {}.", self.name(player), card.name()),
            },
            Event::AbilityUsed { minion, target, .. } => match target {
                Some(t) => format!("{} uses its ability on {}.", self.minion(minion), self.target(t)),
                None => format!("{} uses its ability.", self.minion(minion)),
            },
            Event::MinionEntered { minion, attack, defence } => {
                format!("{} enters play ({attack}/{defence}).", self.minion(minion))
            }
            Event::AttackedPlayer { minion, player, amount, life } => {
                format!("{} attacks {} for {amount} ({life} life left).", self.minion(minion), self.name(player))
            }
            Event::AttackedMinion { minion, target } => {
                format!("{} attacks {}.", self.minion(minion), self.minion(target))
            }
            Event::MinionDamaged { minion, amount, attack, defence } => {
                format!("{} takes {amount} damage ({attack}/{defence}).", self.minion(minion))
            }
            Event::MinionBuffed { minion, attack, defence } => {
                format!("{} is now {attack}/{defence}.", self.minion(minion))
            }
            // Only enchantments that change attack and defence get a line of their own.
            Event::MinionEnchanted { minion, enchantment, attack, defence } => match enchantment.def().modifier {
                Some(Modifier::Add(..) | Modifier::Multiply(..)) => {
                    format!("{} is now {attack}/{defence}.", self.minion(minion))
                }
                _ => return,
            },
            Event::MinionDied { minion } => format!("{} dies.", self.minion(minion)),
            Event::MinionReturned { minion } => {
                format!("{} returns to {}'s hand.", self.minion(minion), self.name(minion.player))
            }
            Event::EnchantmentRemoved { minion, enchantment, attack, defence } => {
                format!("{} is removed from {} ({attack}/{defence}).", enchantment.name(), self.minion(minion))
            }
            Event::RitualPlaced { player, replaced: Some(old), .. } => {
                format!("{}'s {} is removed from the game.", self.name(player), old.name())
            }
            Event::RitualDestroyed { player, card } => format!("{}'s {} is destroyed.", self.name(player), card.name()),
            Event::ChargesChanged { player, card, charges } => {
                let s = if charges == 1 { "" } else { "s" };
                format!("{}'s {} has {charges} charge{s} left.", self.name(player), card.name())
            }
            Event::Discarded { player, card } => format!("{} discards {}.", self.name(player), card.name()),
            Event::GameWon { winner } => format!("{} wins!", self.name(winner)),
            Event::GameDrawn { reason } => match reason {
                DrawReason::TurnLimit => "The turn limit is reached: the game is a draw.".to_string(),
                DrawReason::NoDamagePossible => "Neither player can win any more: the game is a draw.".to_string(),
            },
            Event::Conceded { player } => format!("{} concedes.", self.name(player)),
            Event::RitualPlaced { replaced: None, .. } | Event::TurnEnded { .. } => return,
        };
        out.push_str(&line);
        out.push('\n');
    }
}

/// What the driver needs from the outside world. The binary passes the file system,
/// stdout and stderr; tests pass a directory of test data and buffers.
pub struct Io<'a> {
    /// Reads a file named on the command line (or `default.deck`).
    pub read_file: &'a mut dyn FnMut(&str) -> Result<String, String>,
    /// Standard output (flushed by the caller after each call, for interactive play).
    pub out: &'a mut dyn FnMut(&str),
    /// Standard error: notices and warnings that are not part of the game.
    pub err: &'a mut dyn FnMut(&str),
    /// Whether lines from standard input are echoed (as `> line`) before their output, as
    /// the init file's always are: true when input is not typed at a terminal, so that a
    /// transcript reads as commands and answers.
    pub echo_input: bool,
}

/// Reads a deck named on the command line, or `default.deck`, or falls back to the built-in
/// default deck with a notice. Unknown card names are skipped with a warning.
fn load_deck(which: usize, path: Option<&str>, io: &mut Io<'_>) -> Result<Vec<CardId>, String> {
    let (source, text) = match path {
        Some(p) => {
            (p, (io.read_file)(p).map_err(|e| format!("cannot read the deck file for player {}: {e}", which + 1))?)
        }
        None => match (io.read_file)("default.deck") {
            Ok(text) => ("default.deck", text),
            Err(_) => {
                (io.err)(&format!(
                    "No default.deck in the current directory: player {} uses the built-in default deck.\n",
                    which + 1
                ));
                return Ok(crate::cards::DEFAULT_DECK.to_vec());
            }
        },
    };
    let deck = crate::deck::parse_deck(source, &text);
    for p in &deck.problems {
        (io.err)(&format!("Warning: {p}\n"));
    }
    Ok(deck.cards)
}

/// Runs `cardtable sorcery ARGS`: the whole terminal game. `input` yields the lines of
/// standard input (read lazily, so play is interactive). Returns the exit code: 0 when the
/// game ran (whatever its end), 1 when a file could not be read, 2 for bad arguments.
pub fn drive(args: &[String], default_seed: u64, input: &mut dyn Iterator<Item = String>, io: Io<'_>) -> u8 {
    drive_watched(args, default_seed, input, io, None)
}

/// [`drive`], with a `display` that is shown the session once it is set up and again after
/// every line of input: the `-graphics` display. Without one, `-graphics` prints a notice and
/// the text game goes on alone. The text output is the same either way.
pub fn drive_watched(
    args: &[String],
    default_seed: u64,
    input: &mut dyn Iterator<Item = String>,
    mut io: Io<'_>,
    mut display: Option<&mut dyn FnMut(&Session)>,
) -> u8 {
    if args.iter().any(|a| matches!(a.as_str(), "-h" | "-help" | "--help")) {
        (io.out)(&format!("{USAGE}\n\n{}\n", text::HELP));
        return 0;
    }
    let args = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            (io.err)(&format!("cardtable sorcery: {e}\n{USAGE}\n"));
            return 2;
        }
    };
    if args.graphics && display.is_none() {
        (io.err)("-graphics: no graphical display could be started; playing with the text display only.\n");
    }
    let mut decks = [Vec::new(), Vec::new()];
    for (i, path) in [args.deck1.as_deref(), args.deck2.as_deref()].into_iter().enumerate() {
        match load_deck(i, path, &mut io) {
            Ok(d) => decks[i] = d,
            Err(e) => {
                (io.err)(&format!("cardtable sorcery: {e}\n"));
                return 1;
            }
        }
    }
    let init: Vec<String> = match &args.init {
        None => Vec::new(),
        Some(p) => match (io.read_file)(p) {
            Ok(text) => text.lines().map(str::to_string).collect(),
            Err(e) => {
                (io.err)(&format!("cardtable sorcery: cannot read the init file: {e}\n"));
                return 1;
            }
        },
    };
    let seed = args.seed.unwrap_or(default_seed);
    if args.seed.is_none() && !args.testing {
        (io.err)(&format!("Seed {seed} (play this deal again with -seed {seed}).\n"));
    }
    let (mut session, first) = match Session::new(&args, decks, seed) {
        Ok(s) => s,
        Err(e) => {
            (io.err)(&format!("cardtable sorcery: {e}\n"));
            return 1;
        }
    };
    (io.out)(&first);
    if let Some(show) = display.as_mut() {
        show(&session);
    }
    let echo_input = io.echo_input;
    let lines = init.into_iter().map(|l| (l, true)).chain(input.map(|l| (l, echo_input)));
    for (line, echo) in lines {
        if session.is_over() {
            break;
        }
        if echo {
            (io.out)(&format!("{}\n", format!("> {line}").trim_end()));
        }
        (io.out)(&session.feed(&line));
        if let Some(show) = display.as_mut() {
            show(&session);
        }
    }
    (io.out)(&session.finish());
    if let Some(show) = display.as_mut() {
        show(&session);
    }
    0
}

/// Parses one of the commands that are moves (`end`, `attack`, `play`, `use`, `draw`,
/// `discard`) into an action, as the terminal does; used by scenario tests and tools.
pub fn parse_action(line: &str) -> Result<Action, String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let target3 = |w: &[&str]| -> Result<Option<Target>, String> {
        match w.len() {
            0 => Ok(None),
            2 => target(w[0], w[1]).map(Some),
            _ => Err(format!("bad target in `{line}`")),
        }
    };
    match w.as_slice() {
        ["end"] => Ok(Action::End),
        ["draw"] => Ok(Action::Draw),
        ["discard", i] => Ok(Action::Discard { card: number(i)? }),
        ["attack", i] => Ok(Action::Attack { minion: number(i)?, target: None }),
        ["attack", i, j] => Ok(Action::Attack { minion: number(i)?, target: Some(number(j)?) }),
        ["play", i, rest @ ..] => Ok(Action::Play { card: number(i)?, target: target3(rest)? }),
        ["use", i, rest @ ..] => Ok(Action::Use { minion: number(i)?, target: target3(rest)? }),
        _ => Err(format!("not a move: `{line}`")),
    }
}

/// A 1-based number typed by the user, as a 0-based index.
fn number(word: &str) -> Result<u8, String> {
    match word.parse::<u32>() {
        Ok(n @ 1..=5) => Ok((n - 1) as u8),
        Ok(_) => Err(format!("\"{word}\" is out of range: cards and minions are numbered 1 to 5.")),
        Err(_) => Err(format!("\"{word}\" is not a number.")),
    }
}

fn target(player: &str, card: &str) -> Result<Target, String> {
    let player = match player {
        "1" => Seat(0),
        "2" => Seat(1),
        _ => return Err(format!("\"{player}\" is not a player: the target player is 1 or 2.")),
    };
    if card == "r" {
        return Ok(Target::Ritual { player });
    }
    number(card)
        .map(|index| Target::Minion { player, index })
        .map_err(|_| format!("\"{card}\" is not a target card: use 1 to 5 for a minion or r for the ritual."))
}

/// The command a human would type for `action`.
pub fn command_text(action: Action) -> String {
    let t = |t: Option<Target>| match t {
        None => String::new(),
        Some(Target::Minion { player, index }) => format!(" {} {}", player.0 + 1, index + 1),
        Some(Target::Ritual { player }) => format!(" {} r", player.0 + 1),
    };
    match action {
        Action::End => "end".into(),
        Action::Attack { minion, target: None } => format!("attack {}", minion + 1),
        Action::Attack { minion, target: Some(j) } => format!("attack {} {}", minion + 1, j + 1),
        Action::Play { card, target } => format!("play {}{}", card + 1, t(target)),
        Action::Use { minion, target } => format!("use {}{}", minion + 1, t(target)),
        Action::Draw => "draw".into(),
        Action::Discard { card } => format!("discard {}", card + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn arguments_in_any_order() {
        let a = parse_args(&s(&["-testing", "-init", "i.txt", "-deck2", "b.deck", "-seed", "7", "-bot1", "random"]))
            .unwrap();
        assert_eq!(a.init.as_deref(), Some("i.txt"));
        assert_eq!(a.deck2.as_deref(), Some("b.deck"));
        assert!(a.testing && !a.graphics);
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.bots, [Some("random".into()), None]);
        assert!(parse_args(&s(&["-deck1"])).is_err());
        assert!(parse_args(&s(&["-bot2", "clever"])).is_err());
        assert!(parse_args(&s(&["-frobnicate"])).is_err());
        assert!(parse_args(&s(&["-seed", "x"])).is_err());
    }

    #[test]
    fn command_text_round_trips_through_the_parser() {
        let actions = [
            Action::End,
            Action::Attack { minion: 0, target: Some(4) },
            Action::Play { card: 2, target: Some(Target::Ritual { player: Seat(1) }) },
            Action::Use { minion: 1, target: Some(Target::Minion { player: Seat(0), index: 3 }) },
            Action::Discard { card: 4 },
        ];
        for a in actions {
            let text = command_text(a);
            let w: Vec<&str> = text.split_whitespace().collect();
            let back = match w[0] {
                "end" => Action::End,
                "attack" => Action::Attack { minion: number(w[1]).unwrap(), target: Some(number(w[2]).unwrap()) },
                "play" => Action::Play { card: number(w[1]).unwrap(), target: Some(target(w[2], w[3]).unwrap()) },
                "use" => Action::Use { minion: number(w[1]).unwrap(), target: Some(target(w[2], w[3]).unwrap()) },
                _ => Action::Discard { card: number(w[1]).unwrap() },
            };
            assert_eq!(back, a, "{text}");
        }
    }
}
