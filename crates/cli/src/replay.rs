//! `cardtable replay MATCH-ID`: a finished match's log, rebuilt from its seed and moves.

use anyhow::{Context, bail};
use clap::Args;
use engine::{Game, Move, Replay, Viewer, run_replay};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ReplayArgs {
    /// The match number (the server logs it when a match ends).
    match_id: i64,
    /// The server's database file.
    #[arg(long, default_value = "cardtable.db")]
    db: PathBuf,
    /// Print the raw record as JSON instead of the narrated log.
    #[arg(long)]
    json: bool,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    if !args.db.exists() {
        bail!("no database at {} (use --db)", args.db.display());
    }
    let Some(m) = store::read_match(&args.db, args.match_id).map_err(|e| anyhow::anyhow!("{e}"))? else {
        bail!("no match {} in {}", args.match_id, args.db.display());
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&m)?);
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<String> = serde_json::from_str(&m.players).context("players")?;
    println!("Match {} — {} in room {}, seed {}", m.id, m.game, m.room_id, m.seed);
    println!("Players: {}", names.join(", "));
    println!("Result: {}", m.result);
    match m.game.as_str() {
        "buckshot" => {
            let config: buckshot::Config = serde_json::from_str(&m.config).context("config")?;
            let moves: Vec<Move<buckshot::Action>> = serde_json::from_str(&m.log).context("log")?;
            let replay = Replay { config, seed: m.seed, moves };
            let (game, events) = run_replay::<buckshot::Buckshot>(&replay).map_err(|e| anyhow::anyhow!("{e}"))?;
            let start = buckshot::Buckshot::new(&replay.config, replay.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
            for e in start.start_events().iter().chain(&events) {
                if let Some(line) = buckshot::text::describe_event(e, &names) {
                    println!("  {line}");
                }
            }
            let _ = game.view(Viewer::Spectator);
        }
        _ => {
            let moves: Vec<serde_json::Value> = serde_json::from_str(&m.log).context("log")?;
            for (i, mv) in moves.iter().enumerate() {
                println!("  {i:>4}  {mv}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
