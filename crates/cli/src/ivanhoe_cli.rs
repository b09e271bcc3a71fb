//! `cardtable play ivanhoe`: Ivanhoe in the terminal against bots. The rendering, the command
//! parser and the match loop are pure and live in `ivanhoe::text`; this file moves lines
//! between them and the terminal.

use crate::input::Lines;
use crate::play_buckshot::{PlayArgs, seed_or_clock};
use anyhow::bail;
use engine::Seat;
use ivanhoe::text::Session;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// The game loop over any input and output (tests drive it in memory). Commands from `--init`,
/// and from standard input when it is not a terminal, are echoed after the prompt so the
/// output reads like a session.
pub fn play(args: &PlayArgs, mut input: Lines, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut echo_init = match &args.init {
        Some(path) => std::fs::read_to_string(path).map_or(0, |t| t.lines().count()),
        None => 0,
    };
    let echo_rest = !std::io::stdin().is_terminal();
    let players = args.players.unwrap_or(3);
    if !(2..=5).contains(&players) {
        bail!("Ivanhoe is for 2 to 5 players, not {players}");
    }
    if args.seat >= players {
        bail!("--seat {} is not a seat of a {players}-player game (0..{})", args.seat, players - 1);
    }
    let seed = seed_or_clock(args.seed);
    let me = Seat(args.seat);
    let (mut session, opening) = Session::new(players, seed, me, &args.bots).map_err(anyhow::Error::msg)?;
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
        write!(out, "> ")?;
        out.flush()?;
        let Some(line) = input.next_line() else {
            writeln!(out, "\nEnd of input: leaving the game.")?;
            return Ok(ExitCode::SUCCESS);
        };
        if echo_init > 0 || echo_rest {
            writeln!(out, "{line}")?;
            echo_init = echo_init.saturating_sub(1);
        }
        let (text, stop) = session.handle(&line);
        write!(out, "{text}")?;
        if stop {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(script: &str, seed: u64, players: u8, seat: u8) -> String {
        let args = PlayArgs {
            game: "ivanhoe".into(),
            players: Some(players),
            seat,
            bots: vec!["heuristic".into(), "random".into()],
            seed: Some(seed),
            init: None,
        };
        let input = Lines::new(None, Box::new(std::io::Cursor::new(script.to_string()))).unwrap();
        let mut out = Vec::new();
        play(&args, input, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bad_commands_change_nothing_and_end_of_input_is_clean() {
        let out = run_text("dance\nplay\nriposte P9\nhelp\n", 5, 3, 0);
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
    }

    #[test]
    fn rejects_bad_options() {
        let args =
            PlayArgs { game: "ivanhoe".into(), players: Some(6), seat: 0, bots: vec![], seed: Some(1), init: None };
        let input = Lines::new(None, Box::new(std::io::empty())).unwrap();
        assert!(play(&args, input, &mut Vec::new()).is_err());
    }
}
