//! `cardtable play GAME`: a terminal game against bots. Buckshot lives here; other games'
//! terminal drivers are dispatched from `run`.

use crate::input::Lines;
use anyhow::bail;
use buckshot::text::{Command, HELP, describe_event, parse_command, render_view};
use buckshot::{Buckshot, Config};
use clap::Args;
use engine::{Bot, Game, MatchRng, Observation, Replay, Seat, Viewer};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[arg(value_name = "GAME", help = format!("The game to play: {}", crate::GAMES))]
    pub game: String,
    /// Number of players, you included.
    #[arg(long)]
    pub players: Option<u8>,
    /// Your seat (0 = first).
    #[arg(long, default_value_t = 0)]
    pub seat: u8,
    /// Bots for the other seats in order, comma-separated (default: heuristic).
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Seed for the deal (default: from the clock; printed so a game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A file of commands to run before reading standard input.
    #[arg(long)]
    pub init: Option<PathBuf>,
}

pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    })
}

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    match args.game.as_str() {
        "buckshot" => {
            let lines = Lines::new(args.init.as_deref(), Box::new(std::io::stdin()))?;
            play(&args, lines, &mut std::io::stdout().lock())
        }
        "ivanhoe" => {
            let lines = Lines::new(args.init.as_deref(), Box::new(std::io::stdin()))?;
            crate::ivanhoe_cli::play(&args, lines, &mut std::io::stdout().lock())
        }
        "sorcery" => {
            // Sorcery has the command-line interface of its specification; translate.
            let mut spec_args = Vec::new();
            if let Some(seed) = args.seed {
                spec_args.extend(["-seed".to_string(), seed.to_string()]);
            }
            if let Some(init) = &args.init {
                spec_args.extend(["-init".to_string(), init.display().to_string()]);
            }
            let bot = args.bots.first().map_or("heuristic", String::as_str);
            let seat_flag = if args.seat == 0 { "-bot2" } else { "-bot1" };
            spec_args.extend([seat_flag.to_string(), bot.to_string()]);
            crate::sorcery_cli::run(&spec_args)
        }
        other => bail!("unknown game `{other}` (known: {})", crate::GAMES),
    }
}

const BOT_NAMES: [&str; 8] = ["ana", "ben", "cat", "dan", "eve", "fay", "gus", "hal"];

/// The game loop, over any input and output (tests drive it in memory).
pub fn play(args: &PlayArgs, mut input: Lines, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let players = args.players.unwrap_or(4);
    let config = Config::players(players);
    let seed = seed_or_clock(args.seed);
    let mut game = Buckshot::new(&config, seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let me = Seat(args.seat);
    if usize::from(args.seat) >= game.num_seats() {
        bail!("--seat {} is not a seat of a {players}-player game (0..{})", args.seat, players - 1);
    }
    let mut bot_names = args.bots.iter();
    let mut names = Vec::new();
    let mut bots: Vec<Option<Box<dyn Bot<Buckshot>>>> = Vec::new();
    let mut others = BOT_NAMES.iter();
    for s in Seat::all(game.num_seats()) {
        if s == me {
            names.push("you".to_string());
            bots.push(None);
        } else {
            let kind = bot_names.next().map_or("heuristic", String::as_str);
            let bot = buckshot::bot(kind)
                .ok_or_else(|| anyhow::anyhow!("unknown bot `{kind}` (known: {:?})", buckshot::BOTS))?;
            names.push(others.next().expect("8 names for 8 seats").to_string());
            bots.push(Some(bot));
        }
    }
    let viewer = Viewer::seat(me);
    let mut rng = MatchRng::new(seed ^ 0xB075);
    let mut replay = Replay::new(config, seed);
    writeln!(out, "Buckshot, {players} players, seed {seed}. You are seat {}. Type `help` for commands.", me.0)?;
    for e in game.start_events() {
        if let Some(line) = game.view_event(&e, viewer).and_then(|e| describe_event(&e, &names)) {
            writeln!(out, "{line}")?;
        }
    }
    let mut show = true;
    let mut events = Vec::new();
    while game.outcome().is_none() {
        let seat = game.to_act().first().expect("running game has a seat to act");
        let action = if let Some(bot) = bots[seat.index()].as_mut() {
            let legal = game.legal_actions(seat);
            bot.choose(&Observation::new(&game, seat, &legal), &mut rng)
        } else {
            if show {
                write!(out, "\n{}", render_view(&game.view(viewer), &names))?;
                show = false;
            }
            write!(out, "> ")?;
            out.flush()?;
            let Some(line) = input.next_line() else {
                writeln!(out, "\nEnd of input: leaving the game.")?;
                return Ok(ExitCode::SUCCESS);
            };
            match parse_command(&line, Some(me), &names) {
                Ok(Command::Act(a)) => a,
                Ok(Command::Help) => {
                    writeln!(out, "{HELP}")?;
                    continue;
                }
                Ok(Command::Look) => {
                    show = true;
                    continue;
                }
                Ok(Command::Quit) => {
                    writeln!(out, "You leave the game. (replay: seed {seed}, {} moves)", replay.moves.len())?;
                    return Ok(ExitCode::SUCCESS);
                }
                Err(msg) => {
                    writeln!(out, "{msg}")?;
                    continue;
                }
            }
        };
        events.clear();
        match game.apply_into(seat, action, &mut events) {
            Ok(()) => {
                replay.push(seat, action);
                for e in &events {
                    if let Some(line) = game.view_event(e, viewer).and_then(|e| describe_event(&e, &names)) {
                        writeln!(out, "{line}")?;
                    }
                }
                show = true;
            }
            Err(e) => writeln!(out, "Not allowed: {e}. Nothing changed.")?,
        }
    }
    write!(out, "\n{}", render_view(&game.view(viewer), &names))?;
    let winner = game.outcome().and_then(|o| o.winners.first());
    if winner == Some(me) {
        writeln!(out, "You win!")?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(script: &str, seed: u64) -> String {
        let args =
            PlayArgs { game: "buckshot".into(), players: Some(3), seat: 0, bots: vec![], seed: Some(seed), init: None };
        let input = Lines::new(None, Box::new(std::io::Cursor::new(script.to_string()))).unwrap();
        let mut out = Vec::new();
        play(&args, input, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bad_commands_change_nothing_and_end_of_input_is_clean() {
        let out = run_text("dance\nuse banana\nshoot zed\nhelp\n", 3);
        assert!(out.contains("unknown command `dance`"), "{out}");
        assert!(out.contains("no item called `banana`"), "{out}");
        assert!(out.contains("no player called `zed`"), "{out}");
        assert!(out.contains("steal <player>"), "{out}");
        assert!(out.contains("End of input"), "{out}");
    }

    #[test]
    fn a_game_can_be_played_to_the_end() {
        // Shooting yourself every turn: the game still ends (someone wins).
        let script = "shoot me\n".repeat(200);
        let out = run_text(&script, 11);
        assert!(out.contains("wins the game!"), "{out}");
    }
}
