//! The terminal game of the spec (section 5), as a pure line-in, text-out state machine: the
//! `cardtable sorcery` driver (in the `cli` crate: its arguments, files and exit codes) reads
//! the files and the lines and prints what comes back, and the golden transcript tests (also
//! in the `cli` crate) feed it the same way.
//!
//! Product decisions recorded here (rules reference, section 3):
//! - nothing is printed automatically at the start of a turn except one line naming the
//!   player and their magic; `board` and `hand` print on request;
//! - what happens is narrated one line per event (who played what, damage, deaths, triggers);
//! - errors are one line, `Error: ...`, and change nothing;
//! - a seat played by a bot is not asked for a name; its moves are echoed as the command a
//!   human would have typed;
//! - the end of input ends the game with no winner, as `quit` does.

use crate::action::{Action, Event, Target};
use crate::cards::CardId;
use crate::state::{Config, Sorcery, Status};
use crate::text::{self, Style};
use engine::{Bot, Game, MatchRng, Observation, Seat, SetupError, Viewer};
use std::fmt::Write as _;

/// How a session is played: the parts of `cardtable sorcery`'s command line the game itself
/// needs (the command line, its files and its exit codes are the `cli` crate's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The spec's `-testing` mode (see [`Config::terminal`]).
    pub testing: bool,
    /// Draw cards and the board with Unicode box drawing.
    pub unicode: bool,
    /// The bot playing each seat, by name (`None`: a person types its commands).
    pub bots: [Option<String>; 2],
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
    /// What is told once the names are known: the game's start, or a position's turn.
    opening: Vec<Event>,
}

impl Session {
    /// Sets the game up and returns the first prompt.
    pub fn new(args: &Options, decks: [Vec<CardId>; 2], seed: u64) -> Result<(Session, String), SetupError> {
        Session::new_with_bots(args, decks, seed, crate::bot)
    }

    /// As [`Session::new`], with the bots of `args` made by `make` (a tool's table, which may
    /// know more names than this crate's, such as difficulty levels).
    pub fn new_with_bots(
        args: &Options,
        decks: [Vec<CardId>; 2],
        seed: u64,
        make: fn(&str) -> Option<Box<dyn Bot<Sorcery>>>,
    ) -> Result<(Session, String), SetupError> {
        let bots = [0, 1].map(|i| args.bots[i].as_deref().and_then(make));
        let mut config = Config::terminal(decks, args.testing);
        if bots.iter().all(Option::is_some) {
            // Nobody can type `quit`: make sure two bots finish.
            config.turn_limit = Some(500);
        }
        let game = Sorcery::new(&config, seed)?;
        let opening = game.start_events();
        Ok(Session::start(args, game, bots, seed, opening))
    }

    /// A session from a position written in the setup notation ([`Sorcery::from_setup`]:
    /// `cardtable play sorcery --setup FILE`, a practice puzzle or a bug report's position),
    /// with the bots of `args` made by `make`. `-testing` (in `args` or the position) lifts the
    /// magic costs as usual. The first line, once the names are known, says whose turn it is.
    pub fn from_position(
        args: &Options,
        mut game: Sorcery,
        seed: u64,
        make: fn(&str) -> Option<Box<dyn Bot<Sorcery>>>,
    ) -> (Session, String) {
        let bots = [0, 1].map(|i| args.bots[i].as_deref().and_then(make));
        game.testing |= args.testing;
        if bots.iter().all(Option::is_some) {
            // Nobody can type `quit`: make sure two bots finish.
            game.turn_limit = Some(game.turn() + 500);
        }
        let player = game.active();
        let opening = vec![Event::TurnStarted { player, turn: game.turn(), magic: game.player(player).magic }];
        Session::start(args, game, bots, seed, opening)
    }

    fn start(
        args: &Options,
        game: Sorcery,
        bots: [Option<Box<dyn Bot<Sorcery>>>; 2],
        seed: u64,
        opening: Vec<Event>,
    ) -> (Session, String) {
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
            opening,
        };
        let mut out = String::new();
        s.next_prompt(&mut out);
        (s, out)
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
            for e in std::mem::take(&mut self.opening) {
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
                } else if matches!(name, "help" | "quit") {
                    // A command typed before the game starts is not a name.
                    let _ = writeln!(
                        out,
                        "First the players' names; `{name}` works once the game starts.\nEnter the name of player {}:",
                        i + 1
                    );
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

    /// One line per event (some routine ones print nothing), in the game's one narration.
    fn narrate(&self, e: &Event, out: &mut String) {
        let viewer = self.audience().unwrap_or(Viewer::Spectator);
        if let Some(line) = text::describe_event(e, viewer, &self.names) {
            out.push_str(&line);
            out.push('\n');
        }
    }
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

    #[test]
    fn commands_are_not_names() {
        let (mut s, first) = Session::new(&Options::default(), [Vec::new(), Vec::new()], 1).unwrap();
        assert_eq!(first, "Enter the name of player 1:\n");
        assert!(s.feed("help").ends_with("Enter the name of player 1:\n"));
        assert_eq!(s.feed("Ann"), "Enter the name of player 2:\n");
        assert_eq!(s.names(), ["Ann", ""]);
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
