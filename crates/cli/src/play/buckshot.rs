//! `cardtable play buckshot`: Buckshot in the terminal against bots. Rendering, narration and
//! the command parser are pure and live in `buckshot::text`; this file runs the match loop and
//! moves lines between it and the terminal.

use super::{PlayArgs, Table};
use crate::input::Lines;
use buckshot::text::{Command, HELP, describe_event, parse_command, render_view};
use buckshot::{Buckshot, Config};
use engine::{Bot, Game, MatchRng, Observation, Replay, Seat, Viewer};
use std::io::Write;
use std::process::ExitCode;

/// `cardtable play buckshot` on standard input.
pub fn play(args: &PlayArgs, table: &Table, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    game(args, table, super::stdin_lines(args)?, out)
}

/// The names of the bots' seats, in seat order.
const BOT_NAMES: [&str; 8] = ["ana", "ben", "cat", "dan", "eve", "fay", "gus", "hal"];

/// The game loop, over any input and output (tests drive it in memory).
pub fn game(args: &PlayArgs, table: &Table, mut input: Lines, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let players = table.players;
    let config = Config::players(players);
    let seed = super::seed_or_clock(args.seed);
    let mut game = match super::setup_game(args, |t| Buckshot::from_setup(&super::setup::clauses(t)))? {
        Some(g) => g,
        None => Buckshot::new(&config, seed).map_err(|e| anyhow::anyhow!("{e}"))?,
    };
    let me = Seat(args.seat);
    let mut bot_names = table.bots.iter();
    let mut names = Vec::new();
    let mut bots: Vec<Option<Box<dyn Bot<Buckshot>>>> = Vec::new();
    let mut others = BOT_NAMES.iter();
    for s in Seat::all(game.num_seats()) {
        if s == me {
            names.push("you".to_string());
            bots.push(None);
        } else {
            let kind = bot_names.next().expect("the registry named a bot for every other seat");
            let bot = registry::bot::<Buckshot>(kind)?;
            names.push(others.next().expect("8 names for 8 seats").to_string());
            bots.push(Some(bot));
        }
    }
    let viewer = Viewer::seat(me);
    let mut rng = MatchRng::new(seed ^ 0xB075);
    let mut replay = Replay::new(config, seed);
    writeln!(out, "Buckshot, {players} players, seed {seed}. You are seat {}. Type `help` for commands.", me.0)?;
    for e in game.start_events() {
        if let Some(line) = game.view_event(&e, viewer).and_then(|e| describe_event(&e, viewer, &names)) {
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
                    if let Some(line) = game.view_event(e, viewer).and_then(|e| describe_event(&e, viewer, &names)) {
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
    writeln!(out, "(replay: seed {seed}, {} moves)", replay.moves.len())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use registry::GameKind;

    fn run_text(script: &str, seed: u64) -> String {
        super::super::run_script(game, GameKind::Buckshot, 3, 0, &[], seed, script)
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
        assert!(out.contains(" the game!"), "{out}");
        assert!(out.contains("(replay: seed 11, "), "{out}");
    }
}
