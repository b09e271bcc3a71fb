//! `cardtable`: the one binary. Subcommands live in their own modules; this file only parses
//! arguments and dispatches.

mod input;
mod ivanhoe_cli;
mod loadtest;
mod play_buckshot;
mod replay;
mod serve;
mod sim_cmd;
mod sorcery_cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

const GAMES: &str = "buckshot, ivanhoe, sorcery";

#[derive(Parser)]
#[command(
    name = "cardtable",
    version,
    about = "An engine and server for multiplayer card games",
    long_about = "cardtable runs five card games — Buckshot, Sorcery, Ivanhoe, Wolf Pack and Three \
Kingdoms — as pure rules engines with bots, batch simulation, terminal play and a web server.\n\n\
Quick start:\n  \
cardtable serve                  the web server: open http://127.0.0.1:7878/\n  \
cardtable play buckshot          Buckshot in the terminal against bots\n  \
cardtable play ivanhoe           Ivanhoe in the terminal against bots\n  \
cardtable sorcery -testing       the Sorcery command-line game\n  \
cardtable sim buckshot --games 100000 --players 4 --bots heuristic"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the game server: a web lobby where friends create rooms, join, chat, spectate and
    /// play in the browser.
    Serve(serve::ServeArgs),
    /// Print a finished match's log from the server's database.
    Replay(replay::ReplayArgs),
    /// Load-test a server of its own over loopback: throughput, CPU, latency, memory, sockets.
    Loadtest(loadtest::LoadtestArgs),
    /// Play a game in the terminal against bots.
    Play(play_buckshot::PlayArgs),
    /// Play many bot-vs-bot games and report win rates and speed.
    Sim(sim_cmd::SimArgs),
    /// The Sorcery command-line game, with the arguments of its specification
    /// (-deck1 FILE, -deck2 FILE, -init FILE, -testing, -graphics, -seed N).
    #[command(disable_help_flag = true)]
    Sorcery {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Loadtest(args) => loadtest::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Play(args) => play_buckshot::run(args),
        Command::Sim(args) => sim_cmd::run(args),
        Command::Sorcery { args } => sorcery_cli::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cardtable: {e:#}");
            ExitCode::FAILURE
        }
    }
}
