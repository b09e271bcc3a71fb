//! `cardtable play ivanhoe`: Ivanhoe in the terminal against bots. The rendering, the command
//! parser and the match loop are pure and live in `ivanhoe::text`; this file moves lines
//! between them and the terminal.

use super::{PlayArgs, Table};
use crate::input::Lines;
use engine::Seat;
use ivanhoe::text::Session;
use std::io::Write;
use std::process::ExitCode;

/// The game loop over any input and output (tests drive it in memory). Commands from `--init`,
/// and from standard input when it is not a terminal, are echoed after the prompt so the
/// output reads like a session.
/// `cardtable play ivanhoe` on standard input.
pub fn play(args: &PlayArgs, table: &Table, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    game(args, table, super::stdin_lines(args)?, out)
}

pub fn game(args: &PlayArgs, table: &Table, mut input: Lines, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut echo = super::Echo::new(args);
    let players = table.players;
    let seed = super::seed_or_clock(args.seed);
    let me = Seat(args.seat);
    let (mut session, opening) = match super::setup_game(args, ivanhoe::setup::position)? {
        Some(g) => (Session::with_game(g, me, &table.bots, seed).map_err(anyhow::Error::msg)?, String::new()),
        None => Session::new_with_bots(players, seed, me, &table.bots, |n| registry::bot::<ivanhoe::Ivanhoe>(n).ok())
            .map_err(anyhow::Error::msg)?,
    };
    writeln!(
        out,
        "Ivanhoe, {players} players, seed {seed}. You are P{} (seat {}). Type `help` for commands.",
        me.0 + 1,
        me.0
    )?;
    write!(out, "{opening}")?;
    write!(out, "{}", session.advance())?;
    write!(out, "{}", session.render())?;
    while !session.is_over() {
        let Some(line) = echo.ask(&mut input, out)? else {
            writeln!(out, "\nEnd of input: leaving the game.")?;
            return Ok(ExitCode::SUCCESS);
        };
        let (text, stop) = session.handle(&line);
        write!(out, "{text}")?;
        if stop {
            break;
        }
    }
    if session.is_over() {
        writeln!(out, "(replay: seed {seed})")?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use registry::GameKind;

    fn run_text(script: &str, seed: u64, players: u8, seat: u8) -> String {
        super::super::run_script(game, GameKind::Ivanhoe, players, seat, &["heuristic", "random"], seed, script)
    }

    #[test]
    fn bad_commands_change_nothing_and_end_of_input_is_clean() {
        let out = run_text("dance\nplay\nriposte P9\nknock down P4\nhelp\n", 5, 3, 0);
        assert!(out.contains("`P4` is not a player (P1..P3)"), "a 3-player game has no P4: {out}");
        assert!(out.contains("players are P1..P3;"), "{out}");
        assert!(out.contains("? unknown command or card `dance`"), "{out}");
        assert!(out.contains("? play which card?"), "{out}");
        assert!(out.contains("knock down <P>"), "{out}");
        assert!(out.contains("End of input"), "{out}");
    }

    #[test]
    fn a_game_can_be_played_to_the_end() {
        // Opening with whatever card works, otherwise ending the turn at once: the game ends.
        let mut cycle = String::new();
        for k in 1..=12 {
            cycle.push_str(&format!("start {k}\nstart red {k}\n"));
        }
        for c in ["Sq2", "Sq3", "R3", "R4", "R5", "B2", "B3", "B4", "B5", "Y2", "Y3", "Y4", "Pu3", "Pu4", "Pu5"] {
            cycle.push_str(&format!("keep {c}\n"));
        }
        cycle.push_str("pass\nend\ntoken purple\ntoken red\ntoken blue\ntoken yellow\ntoken green\n");
        let script = cycle.repeat(300);
        let out = run_text(&script, 11, 3, 1);
        assert!(out.contains("Game over:"), "{out}");
        let end = out.rfind("Game over:").unwrap();
        assert!(out[..end].ends_with('\n') && out.contains("Final table after "), "{out}");
        assert!(out.contains("(replay: seed 11)"), "{out}");
    }

    #[test]
    fn rejects_bad_options() {
        let args = |players, seat, bots: &[&str]| PlayArgs {
            game: GameKind::Ivanhoe,
            players: Some(players),
            seat,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            seed: Some(1),
            init: None,
            general: None,
            ace: None,
            setup: None,
        };
        let check = |a: &PlayArgs| GameKind::Ivanhoe.visit(super::super::Check(a)).map_err(|e| e.to_string());
        assert_eq!(check(&args(6, 0, &[])).unwrap_err(), "Ivanhoe is for 2 to 5 players, not 6");
        assert!(check(&args(3, 3, &[])).unwrap_err().contains("--seat 3"));
        assert_eq!(
            check(&args(3, 0, &["clever"])).unwrap_err(),
            "Ivanhoe has no bot called `clever` (its bots: random, heuristic; levels: easy, medium, hard, expert)"
        );
        assert_eq!(check(&args(3, 0, &["random"])).unwrap().bots, ["random", "heuristic"]);
    }
}
