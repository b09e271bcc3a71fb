//! `cardtable sim GAME`: bot-vs-bot batches through the `sim` crate.

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sim::{SimOptions, SimReport};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Args)]
pub struct SimArgs {
    /// The game to simulate.
    #[arg(value_name = "GAME", help = format!("The game to simulate: {}", crate::GAMES))]
    game: String,
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
    /// one seat per game so no bot keeps a seat's advantage. Buckshot: random, heuristic.
    #[arg(long, value_delimiter = ',')]
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
    let report = match args.game.as_str() {
        "buckshot" => {
            let players = args.players.unwrap_or(4);
            sim::run::<buckshot::Buckshot>(
                &buckshot::Config::players(players),
                &opts,
                buckshot::bot,
                |g| vec![("rounds", u64::from(g.round())), ("turns", u64::from(g.turn_count()))],
                &progress,
            )
        }
        "ivanhoe" => sim::run::<ivanhoe::Ivanhoe>(
            &ivanhoe::Config { players: args.players.unwrap_or(3) },
            &opts,
            ivanhoe::bot,
            |g| vec![("tournaments", u64::from(g.tournaments()))],
            &progress,
        ),
        "sorcery" => {
            if args.players.is_some_and(|p| p != 2) {
                bail!("Sorcery is a two-player game");
            }
            sim::run::<sorcery::Sorcery>(
                &sorcery::Config::default(),
                &opts,
                sorcery::bot,
                |g| vec![("turns", u64::from(g.turn()))],
                &progress,
            )
        }
        other => bail!("unknown game `{other}` (known: {})", crate::GAMES),
    }
    .map_err(anyhow::Error::msg)
    .context("simulation failed")?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", render(&report));
    }
    Ok(if report.aborted > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
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
