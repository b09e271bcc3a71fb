//! `cardtable play GAME`: a game in the terminal against bots. The checks every game shares
//! (the game's name, the player count, the seat, the bots' names) are made here through the
//! registry; each game's terminal driver is its own module.

mod buckshot;
mod ivanhoe;
pub mod setup;
pub mod sorcery;
mod three_kingdoms;
mod wolfpack;

use crate::input::Lines;
use anyhow::bail;
use clap::Args;
use registry::{Entry, GameKind, GameVisitor};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[arg(value_name = "GAME", help = format!("The game to play: {}", GameKind::names()))]
    pub game: GameKind,
    /// Number of players, you included (default: the game's usual count). Wolf Pack counts
    /// its pilots (`--pilots`); the Ace is the house's.
    #[arg(long, visible_alias = "pilots")]
    pub players: Option<u8>,
    /// Your seat (0 = first).
    #[arg(long, default_value_t = 0)]
    pub seat: u8,
    /// Bots for the other seats in order, comma-separated (default: heuristic): a level (easy,
    /// medium, hard, expert) or one of the game's bots (`cardtable sim --help` lists them).
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Seed for the deal (default: from the clock; printed so a game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A file of commands to run before reading standard input.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// The general you want, taken when it is offered (three-kingdoms).
    #[arg(long)]
    pub general: Option<String>,
    /// Start from a position written in the game's setup notation instead of a fresh deal (a
    /// practice puzzle, a bug report's position); the player count is the position's. One
    /// example per game in docs/setups/ (docs/setups/README.md): wolfpack.txt
    /// (`pilots 2`, `p0 health 20 hand OpenFire,DodgeRoll`, `ace health 30 hand ...`),
    /// buckshot.txt, three-kingdoms.txt, ivanhoe.txt, sorcery.txt.
    #[arg(long, value_name = "FILE")]
    pub setup: Option<PathBuf>,
    /// Wolf Pack: the Ace's tier (rookie, veteran, ace).
    #[arg(long)]
    pub ace: Option<String>,
}

/// `seed`, or one from the clock.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    })
}

/// A game's terminal game on standard input and `out`. `table` is what the registry checked:
/// the player count, and one bot name for each other seat.
type Driver = fn(&PlayArgs, &Table, &mut dyn Write) -> anyhow::Result<ExitCode>;

/// Which input lines are written back after the prompt, so that a session fed from `--init` or
/// a pipe reads like one typed at a terminal: the `--init` file's lines, and every line when
/// standard input is not a terminal.
struct Echo {
    init_left: usize,
    rest: bool,
}

impl Echo {
    fn new(args: &PlayArgs) -> Echo {
        use std::io::IsTerminal;
        let init_left = match &args.init {
            Some(path) => std::fs::read_to_string(path).map_or(0, |t| t.lines().count()),
            None => 0,
        };
        Echo { init_left, rest: !std::io::stdin().is_terminal() }
    }

    /// Prompts with `> `, reads the next command line and echoes it if it is one to echo.
    /// `None` at the end of input.
    fn ask(&mut self, input: &mut Lines, out: &mut dyn Write) -> std::io::Result<Option<String>> {
        write!(out, "> ")?;
        out.flush()?;
        let Some(line) = input.next_line() else { return Ok(None) };
        if self.init_left > 0 || self.rest {
            writeln!(out, "{line}")?;
            self.init_left = self.init_left.saturating_sub(1);
        }
        Ok(Some(line))
    }
}

/// The position of `--setup`, parsed by `parse`, or `None` for a fresh deal. `run` has read
/// and checked the file already; a driver started otherwise (tests) gets the same errors.
fn setup_game<G>(args: &PlayArgs, parse: impl FnOnce(&str) -> Result<G, String>) -> anyhow::Result<Option<G>> {
    let Some(path) = &args.setup else { return Ok(None) };
    let text = setup::read(path)?;
    setup::guarded(|| parse(&text)).map(Some).map_err(|e| setup::error(&path.display().to_string(), &text, &e))
}

/// The lines a driver reads: the `--init` file's, then standard input's.
fn stdin_lines(args: &PlayArgs) -> anyhow::Result<Lines> {
    Lines::new(args.init.as_deref(), Box::new(std::io::stdin()))
}

/// What `play` settled before handing over to a game's driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub players: u8,
    /// The bot of each seat other than the player's, in seat order.
    pub bots: Vec<String>,
}

/// The games that can be played in the terminal. A game without a driver is played in the
/// browser (`cardtable serve`); adding one is a module here and a line below.
fn driver(kind: GameKind) -> Option<Driver> {
    #[allow(unreachable_patterns, reason = "the registry may list games with no terminal driver yet")]
    match kind {
        GameKind::Buckshot => Some(buckshot::play),
        GameKind::Ivanhoe => Some(ivanhoe::play),
        GameKind::Sorcery => Some(sorcery::play),
        GameKind::ThreeKingdoms => Some(three_kingdoms::play),
        GameKind::WolfPack => Some(wolfpack::play),
        _ => None,
    }
}

/// Checks the player count, the seat and the bots against the game's entry.
struct Check<'a>(&'a PlayArgs);

impl GameVisitor for Check<'_> {
    type Out = anyhow::Result<Table>;
    fn visit<G: Entry>(self) -> anyhow::Result<Table> {
        let args = self.0;
        let players = args.players.unwrap_or(G::DEFAULT_PLAYERS);
        G::check_players(players).map_err(anyhow::Error::msg)?;
        if args.seat >= players {
            bail!("--seat {} is not a seat of a {players}-player game (0..{})", args.seat, players - 1);
        }
        let others = usize::from(players - 1);
        if args.bots.len() > others {
            bail!("{} bots named for {others} other seat{}", args.bots.len(), if others == 1 { "" } else { "s" });
        }
        let mut bots = args.bots.clone();
        bots.resize(others, G::DEFAULT_BOT.to_string());
        registry::bots::<G>(&bots)?;
        Ok(Table { players, bots })
    }
}

pub fn run(mut args: PlayArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.setup {
        let text = setup::read(path)?;
        let n = setup::players(args.game, &text).map_err(|e| setup::error(&path.display().to_string(), &text, &e))?;
        match args.players {
            Some(p) if p != n => bail!("--players {p}, but the setup file {} has {n}", path.display()),
            _ => args.players = Some(n),
        }
    }
    let table = args.game.visit(Check(&args))?;
    let Some(play) = driver(args.game) else {
        bail!("{} has no terminal game yet: play it in the browser (`cardtable serve`)", args.game.title());
    };
    play(&args, &table, &mut std::io::stdout().lock())
}

/// A game's loop over in-memory input and output.
#[cfg(test)]
type Loop = fn(&PlayArgs, &Table, Lines, &mut dyn Write) -> anyhow::Result<ExitCode>;

/// Plays `script` through `game_loop` in memory, for a game of `players` with the player in
/// `seat` (tests). The options are checked as `cardtable play` checks them.
#[cfg(test)]
fn run_script(
    game_loop: Loop,
    game: GameKind,
    players: u8,
    seat: u8,
    bots: &[&str],
    seed: u64,
    script: &str,
) -> String {
    let args = PlayArgs {
        game,
        players: Some(players),
        seat,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        seed: Some(seed),
        init: None,
        general: None,
        ace: None,
        setup: None,
    };
    let table = game.visit(Check(&args)).expect("valid options");
    let input = Lines::new(None, Box::new(std::io::Cursor::new(script.to_string()))).expect("in memory");
    let mut out = Vec::new();
    game_loop(&args, &table, input, &mut out).expect("the game runs");
    String::from_utf8(out).expect("text")
}
