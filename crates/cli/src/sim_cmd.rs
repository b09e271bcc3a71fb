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
    /// Players per game (for games with a variable count; Wolf Pack's pilots, also `--pilots`).
    #[arg(long, visible_alias = "pilots")]
    players: Option<u8>,
    /// Wolf Pack: the Ace's tier (rookie, veteran, ace); the Ace is the house's seat.
    #[arg(long)]
    ace: Option<String>,
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
        .visit(Batch { players: args.players, ace: args.ace.as_deref(), opts: &opts, progress: &progress })?
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
    ace: Option<&'a str>,
    opts: &'a SimOptions,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl GameVisitor for Batch<'_> {
    type Out = anyhow::Result<Result<SimReport, String>>;
    fn visit<G: Entry>(self) -> Self::Out {
        let mut config = G::config(self.players.unwrap_or(G::DEFAULT_PLAYERS)).map_err(anyhow::Error::msg)?;
        if let Some(tier) = self.ace {
            G::set_option(&mut config, "ace", tier).map_err(anyhow::Error::msg)?;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn wolfpack(pilots: u8, ace: &str, threads: usize, games: u64) -> Result<SimReport, String> {
        let opts = SimOptions { games, seed: 7, threads, bots: vec!["heuristic".into(), "random".into()] };
        "wolfpack"
            .parse::<GameKind>()
            .unwrap()
            .visit(Batch { players: Some(pilots), ace: Some(ace), opts: &opts, progress: &|_| {} })
            .map_err(|e| e.to_string())?
    }

    /// The Ace stays the house's seat (last), the line-up rotates over the pilots only, and the
    /// figures do not depend on the thread count.
    #[test]
    fn wolfpack_sims_the_same_on_any_thread_count() {
        let one = wolfpack(3, "veteran", 1, 600).unwrap();
        let two = wolfpack(3, "veteran", 2, 600).unwrap();
        assert_eq!(one.games, 600);
        assert_eq!((&one.wins, &one.wins_by_bot, one.mean_moves), (&two.wins, &two.wins_by_bot, two.mean_moves));
        assert_eq!(one.wins.len(), 4, "three pilots and the Ace");
        assert_eq!(one.wins_by_bot.len(), 3, "the line-up is the pilots': {:?}", one.wins_by_bot);
        assert_eq!(one.aborted, 0);
        // Co-operative: the pilots win together, so every pilot seat has the same wins.
        assert!(one.wins[0] == one.wins[1] && one.wins[1] == one.wins[2]);
        assert_eq!(one.wins[0] + one.wins[3], 600);
        // The tier is the Ace's: a different tier, different results.
        let rookie = wolfpack(3, "rookie", 2, 600).unwrap();
        assert_ne!(rookie.wins, one.wins);
        let err = wolfpack(3, "boss", 1, 10).unwrap_err();
        assert!(err.contains("no Ace tier `boss`"), "{err}");
        let err = wolfpack(6, "rookie", 1, 10).unwrap_err();
        assert!(err.contains("Wolf Pack is for 1 to 5 players, not 6"), "{err}");
    }
}
