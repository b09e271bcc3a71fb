//! `cardtable bench search GAME`: the search bot's iterations per second on one core.

use clap::{Args, Subcommand};
use registry::{Entry, GameKind, GameVisitor};
use search::{BenchOptions, BenchReport, bench_search};
use std::io::Write;
use std::process::ExitCode;

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Subcommand)]
enum BenchWhat {
    /// Search iterations per second on one thread (each iteration: determinize, select,
    /// expand, random playout, back up), over positions drawn from random games, per CPU
    /// second of the searching thread (Linux; per wall second elsewhere), so a loaded machine
    /// does not lower the figure much.
    Search(SearchBenchArgs),
}

#[derive(Args)]
struct SearchBenchArgs {
    #[arg(value_name = "GAME", help = format!("The game: {}", GameKind::names()))]
    game: GameKind,
    /// Players (the game's default if not given; Wolf Pack counts its pilots).
    #[arg(long, visible_alias = "pilots")]
    players: Option<u8>,
    /// Searching time to accumulate, in seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Iterations per searched position.
    #[arg(long, default_value_t = 2_000)]
    iterations: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON line (`game`, `players`, `iterations_per_sec`, …) instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let BenchWhat::Search(a) = args.what;
    let opts = BenchOptions { seconds: a.seconds, seed: a.seed, iterations_per_search: a.iterations };
    let report = a.game.visit(Search { players: a.players, opts: &opts })?;
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", json(&report))?;
    } else {
        let per = if report.cpu_seconds.is_some() { "CPU second" } else { "second" };
        writeln!(
            out,
            "{}: {} players, {:.0} iterations per {per} ({} iterations over {} positions; {:.2} s of search wall, \
{} CPU; {:.0} iterations per wall second; one thread)",
            report.game,
            report.players,
            report.iterations_per_sec,
            report.iterations,
            report.positions,
            report.seconds,
            report.cpu_seconds.map_or("unknown".to_string(), |c| format!("{c:.2} s")),
            report.wall_iterations_per_sec,
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON line of a report.
fn json(r: &BenchReport) -> serde_json::Value {
    serde_json::json!({
        "game": r.game,
        "players": r.players,
        "iterations_per_sec": r.iterations_per_sec,
        "iterations": r.iterations,
        "positions": r.positions,
        "seconds": r.seconds,
        "cpu_seconds": r.cpu_seconds,
        "wall_iterations_per_sec": r.wall_iterations_per_sec,
        "threads": 1,
    })
}

struct Search<'a> {
    players: Option<u8>,
    opts: &'a BenchOptions,
}

impl GameVisitor for Search<'_> {
    type Out = anyhow::Result<BenchReport>;
    fn visit<G: Entry>(self) -> Self::Out {
        let config = G::config(self.players.unwrap_or(G::DEFAULT_PLAYERS)).map_err(anyhow::Error::msg)?;
        bench_search::<G>(&config, self.opts).map_err(anyhow::Error::msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short bench of every game answers with a positive rate and the fields the JSON line
    /// promises.
    #[test]
    fn every_game_benches() {
        let opts = BenchOptions { seconds: 0.05, seed: 3, iterations_per_search: 50 };
        for &kind in GameKind::ALL {
            let r = kind.visit(Search { players: None, opts: &opts }).unwrap();
            assert!(r.iterations_per_sec > 0.0 && r.iterations > 0, "{kind}: {r:?}");
            let j = json(&r);
            assert_eq!(j["game"], kind.name());
            assert_eq!(j["players"], r.players);
            assert!(j["iterations_per_sec"].as_f64().unwrap() > 0.0);
        }
        assert!(GameKind::Ivanhoe.visit(Search { players: Some(9), opts: &opts }).is_err());
    }
}
