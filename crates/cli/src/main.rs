//! `cardtable`: the one binary. Subcommands live in their own modules; this file only parses
//! arguments and dispatches. Games are named through the `registry` crate.

mod admin;
mod bench_cmd;
mod config;
mod input;
mod ladder_cmd;
mod loadtest;
mod play;
mod population;
mod replay;
mod report;
mod serve;
mod sim_cmd;
mod users;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use registry::GameKind;
use std::process::ExitCode;

/// `cardtable --help`'s long description: the games come from the registry.
fn long_about() -> String {
    let mut s = String::from(
        "cardtable runs card games as pure rules engines with bots, batch simulation, terminal play and a web \
server.\n\nGames:\n",
    );
    for k in GameKind::ALL {
        let seats = k.seats();
        let seats = if seats.start() == seats.end() {
            format!("{} players", seats.start())
        } else {
            format!("{}-{} players", seats.start(), seats.end())
        };
        s.push_str(&format!("  {:<15} {:<12} {}\n", k.name(), seats, k.description()));
    }
    s.push_str(
        "\nQuick start:\n  \
cardtable serve                  the web server: open http://127.0.0.1:7878/\n  \
cardtable play buckshot          Buckshot in the terminal against bots\n  \
cardtable play ivanhoe           Ivanhoe in the terminal against bots\n  \
cardtable play three-kingdoms    Three Kingdoms in the terminal against bots\n  \
cardtable sim three-kingdoms --log --seed 7   one game told as a narrative log\n  \
cardtable play wolfpack --pilots 2   Wolf Pack: you and a bot pilot against the Ace\n  \
cardtable sorcery -testing       the Sorcery command-line game\n  \
cardtable sim buckshot --games 100000 --players 4 --bots heuristic\n  \
cardtable sim wolfpack --pilots 5 --ace veteran --bots heuristic\n  \
cardtable sim sorcery --games 200 --bots expert,heuristic --report report.html\n  \
cardtable ladder sorcery --games 100   every level against the others, rated\n  \
cardtable bench search buckshot --players 4 --json   search iterations/s\n  \
cardtable matches                the finished matches of the server's database\n  \
cardtable replay 1               one of them, narrated",
    );
    s
}

#[derive(Parser)]
#[command(name = "cardtable", version, about = "An engine and server for multiplayer card games", long_about = long_about())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// One value, parsed once at start: `serve`'s many flags make its variant large, which costs
// nothing here (boxing it would only make every use of it longer).
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Run the game server: a web lobby where friends create rooms, join, chat, spectate and
    /// play in the browser.
    Serve(serve::ServeArgs),
    /// Narrate a finished match from the server's database.
    Replay(replay::ReplayArgs),
    /// List the finished matches in the server's database, the newest first.
    Matches(replay::MatchesArgs),
    /// List the accounts in the server's database, by name.
    Users(users::UsersArgs),
    /// Show one account's profile: games played and won, its last matches.
    User(users::UserArgs),
    /// Moderation from the terminal: grant|revoke the admin role, rooms, close a room,
    /// ban|unban, reports, the moderation log.
    Admin(admin::AdminArgs),
    /// Load-test a server of its own over loopback: throughput, CPU, latency, memory, sockets.
    Loadtest(loadtest::LoadtestArgs),
    /// Run simulated people of known strengths through quick play on a real server and
    /// report how well their ratings found them (Spearman, mean error, waits, bot seats, CPU).
    Population(population::PopulationArgs),
    /// Play a game in the terminal against bots.
    Play(play::PlayArgs),
    /// Play many bot-vs-bot games and report win rates and speed.
    Sim(sim_cmd::SimArgs),
    /// Rate every level and bot of a game against the others (Bradley-Terry, 95% intervals).
    Ladder(ladder_cmd::LadderArgs),
    /// Benchmarks: `bench search GAME` measures the search bot's iterations per second.
    Bench(bench_cmd::BenchArgs),
    /// The Sorcery command-line game, with the arguments of its specification
    /// (-deck1 FILE, -deck2 FILE, -init FILE, -testing, -graphics, -seed N).
    #[command(disable_help_flag = true)]
    Sorcery {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Whether `e` comes from writing to a reader that went away (`cardtable replay 1 | head`).
fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

fn main() -> ExitCode {
    // `serve`'s flags may also come from CARDTABLE_* variables and a configuration file.
    let cmd = config::with_env(Cli::command());
    let parsed = match config::parse(cmd, std::env::args_os().collect()) {
        Ok(p) => p,
        Err(config::ParseError::Clap(e)) => e.exit(),
        Err(config::ParseError::File(e)) => {
            eprintln!("cardtable: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let cli = Cli::from_arg_matches(&parsed.matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        // `serve --print-config`: the settings, and nothing started.
        Command::Serve(args) if args.print_config() => {
            std::io::Write::write_all(&mut std::io::stdout(), parsed.print.unwrap_or_default().as_bytes())
                .map(|()| ExitCode::SUCCESS)
                .map_err(Into::into)
        }
        Command::Serve(args) => serve::run(args),
        Command::Loadtest(args) => loadtest::run(args),
        Command::Population(args) => population::run(args),
        Command::Replay(args) => replay::run(args, &mut std::io::stdout().lock()),
        Command::Matches(args) => replay::matches(args, &mut std::io::stdout().lock()),
        Command::Users(args) => users::users(args, &mut std::io::stdout().lock()),
        Command::User(args) => users::user(args, &mut std::io::stdout().lock()),
        Command::Admin(args) => admin::run(args, &mut std::io::stdout().lock()),
        Command::Play(args) => play::run(args),
        Command::Sim(args) => sim_cmd::run(args),
        Command::Ladder(args) => ladder_cmd::run(args),
        Command::Bench(args) => bench_cmd::run(args),
        Command::Sorcery { args } => play::sorcery::run(&args),
    };
    match result {
        Ok(code) => code,
        // The reader has all it wanted: stop without a word.
        Err(e) if is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cardtable: {e:#}");
            ExitCode::FAILURE
        }
    }
}
