//! `cardtable sim GAME`: bot-vs-bot batches through the `sim` crate.

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use registry::{Entry, GameKind, GameVisitor};
use sim::{SimOptions, SimReport};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

#[derive(Args)]
pub struct SimArgs {
    /// The game to simulate.
    #[arg(value_name = "GAME", help = format!("The game to simulate: {}", GameKind::names()))]
    game: GameKind,
    /// Number of games to play.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Players per game (for games with a variable count).
    #[arg(long)]
    players: Option<u8>,
    /// Base seed: the same seed gives the same results, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bots in seat order, comma-separated (missing seats are `random`). The line-up rotates
    /// one seat per game so no bot keeps a seat's advantage.
    #[arg(long, value_delimiter = ',', long_help = bots_help())]
    bots: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: SimArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = SimOptions { games: args.games, seed: args.seed, threads, bots: args.bots.clone() };
    let bar = (std::io::stderr().is_terminal() && !args.json).then(|| {
        let b = ProgressBar::new(args.games);
        b.set_style(
            ProgressStyle::with_template("{spinner} {pos}/{len} games {wide_bar} {per_sec} eta {eta}")
                .expect("valid template"),
        );
        b
    });
    let progress = |done: u64| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    let report = args
        .game
        .visit(Batch { players: args.players, opts: &opts, progress: &progress })?
        .map_err(anyhow::Error::msg)
        .context("simulation failed")?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        write!(out, "{}", render(&report))?;
    }
    Ok(if report.aborted > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// `--bots`'s long help: every game's bots.
fn bots_help() -> String {
    let mut s = "Bots in seat order, comma-separated (missing seats are `random`). The line-up rotates one seat \
per game so no bot keeps a seat's advantage. Each game's bots:"
        .to_string();
    for k in GameKind::ALL {
        s.push_str(&format!("\n  {:<10} {}", k.name(), k.bot_names().join(", ")));
    }
    s
}

/// One batch of the chosen game.
struct Batch<'a> {
    players: Option<u8>,
    opts: &'a SimOptions,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl GameVisitor for Batch<'_> {
    type Out = anyhow::Result<Result<SimReport, String>>;
    fn visit<G: Entry>(self) -> Self::Out {
        let config = G::config(self.players.unwrap_or(G::DEFAULT_PLAYERS)).map_err(anyhow::Error::msg)?;
        Ok(sim::run::<G>(&config, self.opts, self.progress))
    }
}

fn pct(n: u64, of: u64) -> f64 {
    if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 }
}

/// The human-readable report.
pub fn render(r: &SimReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} games in {:.2} s — {:.0} games/s on {} thread{} (seed {})",
        r.game,
        r.games,
        r.seconds,
        r.games_per_sec,
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.seed
    );
    let _ = writeln!(s, "wins by seat:");
    for (seat, w) in r.wins.iter().enumerate() {
        let _ = writeln!(s, "  seat {seat}: {w:>9} ({:5.1}%)", pct(*w, r.games));
    }
    let _ = writeln!(s, "wins by bot (line-up rotates each game):");
    for (bot, w) in &r.wins_by_bot {
        let _ = writeln!(s, "  {bot:<14} {w:>9} ({:5.1}%)", pct(*w, r.games));
    }
    if r.no_winner > 0 {
        let _ = writeln!(s, "no winner: {} ({:.1}%)", r.no_winner, pct(r.no_winner, r.games));
    }
    let _ = writeln!(s, "mean moves per game: {:.2}", r.mean_moves);
    for (k, v) in &r.means {
        let _ = writeln!(s, "mean {k} per game: {v:.2}");
    }
    if r.aborted > 0 {
        let _ = writeln!(s, "ABORTED (ran past the step limit): {}", r.aborted);
    }
    s
}
