//! `cardtable sorcery`: the Sorcery command-line game of the spec, with its single-dash
//! arguments (`-deck1 FILE -deck2 FILE -init FILE -testing -graphics`, plus `-seed N`,
//! `-unicode`, `-bot1 NAME`, `-bot2 NAME`). This module owns the command line: parsing the
//! arguments, reading the deck and init files, the exit codes, and standard input, output and
//! error; the game itself is the pure `sorcery::session::Session`. With `-graphics` the live
//! web display of [`graphics`] follows the game (standard output stays exactly the same).
//!
//! The golden transcripts (`crates/cli/tests/sorcery_transcripts/`) run `drive` (built for tests only) in-process.

mod graphics;
#[cfg(test)]
#[path = "sorcery_transcripts_test.rs"]
mod transcripts_test;

use graphics::{Display, keep_lines};
use registry::Entry;
use sorcery::session::{Options, Session};
use sorcery::{CardId, Sorcery};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

/// The command line of `cardtable sorcery` (spec 5.2, plus ours).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub deck1: Option<String>,
    pub deck2: Option<String>,
    pub init: Option<String>,
    pub graphics: bool,
    pub seed: Option<u64>,
    /// What the session itself needs: `-testing`, `-unicode`, `-bot1`, `-bot2`.
    pub options: Options,
}

fn usage() -> String {
    format!(
        "usage: cardtable sorcery [-deck1 FILE] [-deck2 FILE] [-init FILE] [-testing] [-graphics] \
[-seed N] [-unicode] [-bot1 NAME] [-bot2 NAME]   (bots: {}, {})",
        Sorcery::bot_names().join(", "),
        search::Level::NAMES.join(", ")
    )
}

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
            "testing" => a.options.testing = true,
            "graphics" => a.graphics = true,
            "unicode" | "fancy" => a.options.unicode = true,
            "seed" => {
                let v = value("a number")?;
                a.seed = Some(v.parse().map_err(|_| format!("-seed needs a whole number, not \"{v}\""))?);
            }
            "bot1" | "bot2" => {
                let known: Vec<&str> = Sorcery::bot_names().iter().chain(search::Level::NAMES).copied().collect();
                let v = value(&format!("a bot name ({})", known.join(" or ")))?;
                if !known.contains(&v.as_str()) {
                    return Err(format!("unknown bot \"{v}\" (choose from: {})", known.join(", ")));
                }
                a.options.bots[usize::from(name == "bot2")] = Some(v);
            }
            _ => return Err(format!("unknown argument \"{flag}\"")),
        }
    }
    Ok(a)
}

/// `cardtable play sorcery`: the same game, its options translated into the spec's.
pub fn play(args: &super::PlayArgs, table: &super::Table, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if let Some(game) = super::setup_game(args, |text| Sorcery::from_setup(&super::setup::clauses(text)))? {
        return from_position(args, table, game, super::stdin_lines(args)?, out);
    }
    let mut spec_args = Vec::new();
    if let Some(seed) = args.seed {
        spec_args.extend(["-seed".to_string(), seed.to_string()]);
    }
    if let Some(init) = &args.init {
        spec_args.extend(["-init".to_string(), init.display().to_string()]);
    }
    let seat_flag = if args.seat == 0 { "-bot2" } else { "-bot1" };
    spec_args.extend([seat_flag.to_string(), table.bots[0].clone()]);
    run(&spec_args)
}

/// `cardtable play sorcery --setup FILE`: the terminal game from the position `game` (the
/// file in the setup notation), the player in `args.seat`, the other seat's bot `table.bots[0]`.
/// The commands are the spec's; `--init` lines run first, then standard input.
pub(super) fn from_position(
    args: &super::PlayArgs,
    table: &super::Table,
    game: Sorcery,
    mut lines: crate::input::Lines,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let mut options = Options::default();
    options.bots[usize::from(args.seat == 0)] = Some(table.bots[0].clone());
    let seed = super::seed_or_clock(args.seed);
    let (mut session, first) = Session::from_position(&options, game, seed, |n| registry::bot::<Sorcery>(n).ok());
    write!(out, "{first}")?;
    let mut echo = super::Echo::new(args);
    while !session.is_over() {
        let Some(line) = echo.ask(&mut lines, out)? else { break };
        write!(out, "{}", session.feed(&line))?;
    }
    write!(out, "{}", session.finish())?;
    if let Some(path) = &args.setup {
        writeln!(out, "(replay: --setup {} --seed {seed})", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The binary's `cardtable sorcery ARGS`: the real files, terminal and clock.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    // Lines are read lazily, so each command is answered before the next is typed. Invalid
    // UTF-8 is replaced rather than ending the game.
    let stdin = std::io::stdin();
    let echo_input = !stdin.is_terminal();
    // What the page's log shows: the narration, and the commands typed at a terminal (piped
    // commands are echoed by the game itself).
    let log = RefCell::new(VecDeque::new());
    let mut lines = stdin.lock().split(b'\n').map_while(Result::ok).map(|bytes| {
        let mut line = String::from_utf8_lossy(&bytes).into_owned();
        if line.ends_with('\r') {
            line.pop();
        }
        if !echo_input {
            keep_lines(&mut log.borrow_mut(), &format!("> {line}"));
        }
        line
    });
    let seed = super::seed_or_clock(None);
    let parsed = parse_args(args);
    if parsed.as_ref().is_ok_and(|a| a.options.bots.iter().all(Option::is_none)) {
        // The spec's game is two people at one keyboard; say so (on standard error: standard
        // output is the spec's), and how to play the computer instead.
        eprintln!(
            "Two players at one keyboard: you type for player 1, then player 2, turn about. To play \
             against the computer instead, start with -bot2 medium (or -bot1)."
        );
    }
    let graphics = parsed.is_ok_and(|a| a.graphics);
    let mut display = if graphics {
        match Display::start() {
            Ok(d) => {
                eprintln!("Graphics: the board is at {} (it follows the game live).", d.url());
                d.open_browser();
                Some(d)
            }
            Err(e) => {
                eprintln!("-graphics: {e}");
                None
            }
        }
    } else {
        None
    };
    let shown = display.is_some();
    let mut show = |session: &Session| {
        if let Some(d) = display.as_mut() {
            d.show(session, &log.borrow());
        }
    };
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    let code = drive_watched(
        args,
        seed,
        &mut lines,
        Io {
            read_file: &mut |path| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}")),
            // A closed pipe (`| head`) must not crash the game; output is best effort.
            out: &mut |text| {
                if shown {
                    keep_lines(&mut log.borrow_mut(), text);
                }
                let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
            },
            err: &mut |text| {
                let _ = std::io::stderr().write_all(text.as_bytes());
            },
            echo_input,
        },
        if shown { Some(&mut show) } else { None },
    );
    Ok(ExitCode::from(code))
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
                return Ok(sorcery::DEFAULT_DECK.to_vec());
            }
        },
    };
    let deck = sorcery::deck::parse_deck(source, &text);
    for p in &deck.problems {
        (io.err)(&format!("Warning: {p}\n"));
    }
    Ok(deck.cards)
}

/// Runs `cardtable sorcery ARGS`: the whole terminal game. `input` yields the lines of
/// standard input (read lazily, so play is interactive). Returns the exit code: 0 when the
/// game ran (whatever its end), 1 when a file could not be read, 2 for bad arguments.
#[cfg(test)]
pub fn drive(args: &[String], default_seed: u64, input: &mut dyn Iterator<Item = String>, io: Io<'_>) -> u8 {
    drive_watched(args, default_seed, input, io, None)
}

/// `drive`, with a `display` that is shown the session once it is set up and again after
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
        (io.out)(&format!("{}\n\n{}\n", usage(), sorcery::text::HELP));
        return 0;
    }
    let args = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            (io.err)(&format!("cardtable sorcery: {e}\n{}\n", usage()));
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
    if args.seed.is_none() && !args.options.testing {
        (io.err)(&format!("Seed {seed} (play this deal again with -seed {seed}).\n"));
    }
    let (mut session, first) =
        match Session::new_with_bots(&args.options, decks, seed, |n| registry::bot::<Sorcery>(n).ok()) {
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
        assert!(a.options.testing && !a.graphics);
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.options.bots, [Some("random".into()), None]);
        assert!(parse_args(&s(&["-deck1"])).is_err());
        assert!(parse_args(&s(&["-bot2", "clever"])).is_err());
        assert!(parse_args(&s(&["-frobnicate"])).is_err());
        assert!(parse_args(&s(&["-seed", "x"])).is_err());
    }
}
