//! `cardtable play three-kingdoms`: Three Kingdoms in the terminal against bots. The rendering
//! (`render_view`), the numbered menu of legal actions (`describe_action`) and the command
//! parser (`parse_command`) are pure and live in `three_kingdoms::text`; this file moves lines
//! between them and the terminal.

use super::{PlayArgs, Table};
use crate::input::Lines;
use ::three_kingdoms::text::{describe_action, describe_event, names, parse_command, render_view};
use ::three_kingdoms::{Action, Config, Event, ThreeKingdoms};
use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer};
use std::io::Write;
use std::process::ExitCode;

const HELP: &str = "\
Commands (bad ones change nothing):
  <number>   the action of that number in the menu: use a card (with its targets), answer a
             window with a card, use a skill, discard, choose, ...
  pass, p    pass when a window asks you (no Dodge, no Negate, no Peach, ...)
  end, e     end your Play phase
  done       finish a choice of several cards
  yes, no    answer a yes/no question
  look       show the table again
  help       this text
  quit       leave the game
";

/// `cardtable play three-kingdoms` on standard input.
pub fn play(args: &PlayArgs, table: &Table, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    game(args, table, super::stdin_lines(args)?, out)
}

/// Writes the events `me` may see, in the game's words.
fn tell(g: &ThreeKingdoms, me: Seat, events: &[Event], out: &mut dyn Write) -> std::io::Result<()> {
    let names = names(g);
    for e in events {
        if let Some(seen) = g.view_event(e, Viewer::seat(me))
            && let Some(line) = describe_event(&seen, Viewer::seat(me), &names)
        {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// The game loop over any input and output (tests drive it in memory). Commands from `--init`,
/// and from standard input when it is not a terminal, are echoed after the prompt.
pub fn game(args: &PlayArgs, table: &Table, mut input: Lines, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut echo = super::Echo::new(args);
    let players = table.players;
    let seed = super::seed_or_clock(args.seed);
    let me = Seat(args.seat);
    let (mut g, start) = match super::setup_game(args, |t| three_kingdoms::setup::Scenario::parse(t)?.build())? {
        Some(g) => (g, Vec::new()),
        None => ThreeKingdoms::new_with_events(&Config::players(players), seed)
            .map_err(|e| anyhow::anyhow!("cannot start: {e}"))?,
    };
    // One bot per other seat, in seat order.
    let mut names_iter = table.bots.iter();
    let mut bots: Vec<Option<Box<dyn Bot<ThreeKingdoms>>>> = Vec::new();
    for s in 0..players {
        bots.push(if s == me.0 {
            None
        } else {
            let name = names_iter.next().map_or("heuristic", String::as_str);
            Some(registry::bot::<ThreeKingdoms>(name)?)
        });
    }
    let mut rng = MatchRng::new(seed ^ 0x7E_4A11);
    let mut wanted_general = args.general.clone();
    writeln!(out, "Three Kingdoms, {players} players, seed {seed}. You are seat {}. Type `help` for commands.", me.0)?;
    tell(&g, me, &start, out)?;
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut show = true;
    let mut steps = 0;
    while g.outcome().is_none() && steps < g.step_limit() {
        let Some(seat) = g.to_act().first() else { break };
        legal.clear();
        g.legal_actions_into(seat, &mut legal);
        let action = if seat == me && legal.as_slice() == [Action::Pass] {
            // A window asks every seat with a hand card (so being asked reveals nothing); when
            // passing is all the player can do, it is done for them.
            writeln!(out, "(Nothing to answer with: you pass.)")?;
            Action::Pass
        } else if seat == me {
            // `--general NAME`: taken as soon as it is offered.
            let pick = wanted_general.take().and_then(|w| {
                let found = legal.iter().copied().find(
                    |a| matches!(a, Action::ChooseGeneral { general } if general.name().eq_ignore_ascii_case(w.trim())),
                );
                if found.is_none() && legal.iter().any(|a| matches!(a, Action::ChooseGeneral { .. })) {
                    let _ = writeln!(out, "{w} is not among the generals offered to you.");
                } else if found.is_none() {
                    // Not choosing yet: keep the wish for later.
                    return Some(Err(w));
                }
                found.map(Ok)
            });
            match pick {
                Some(Ok(a)) => a,
                Some(Err(w)) => {
                    wanted_general = Some(w);
                    match ask(&g, me, &legal, &mut input, out, &mut show, &mut echo, seed)? {
                        Some(a) => a,
                        None => return Ok(ExitCode::SUCCESS),
                    }
                }
                None => match ask(&g, me, &legal, &mut input, out, &mut show, &mut echo, seed)? {
                    Some(a) => a,
                    None => return Ok(ExitCode::SUCCESS),
                },
            }
        } else {
            let bot = bots[seat.index()].as_mut().expect("a bot at every other seat");
            bot.choose(&Observation::new(&g, seat, &legal), &mut rng)
        };
        events.clear();
        if let Err(e) = g.apply_into(seat, action, &mut events) {
            // A listed action is legal; should one be refused, nothing changed.
            writeln!(out, "? {e}")?;
            continue;
        }
        if seat == me {
            show = true;
        }
        tell(&g, me, &events, out)?;
        steps += 1;
    }
    writeln!(out, "Game over.")?;
    if let Some(w) = g.winners() {
        writeln!(out, "{}", if w.contains(me) { "You win!" } else { "You lose." })?;
    }
    writeln!(out, "(replay: seed {seed})")?;
    Ok(ExitCode::SUCCESS)
}

/// Shows the table and the menu (when something changed) and reads commands until one is a
/// legal action. `None`: the player left (`quit` or end of input).
#[allow(clippy::too_many_arguments, reason = "the loop's state, passed down rather than bundled")]
fn ask(
    g: &ThreeKingdoms,
    me: Seat,
    legal: &[Action],
    input: &mut Lines,
    out: &mut dyn Write,
    show: &mut bool,
    echo: &mut super::Echo,
    seed: u64,
) -> anyhow::Result<Option<Action>> {
    loop {
        if *show {
            write!(out, "\n{}", render_view(g, &g.view(Viewer::seat(me))))?;
            for (i, a) in legal.iter().enumerate() {
                writeln!(out, "  {}. {}", i + 1, describe_action(g, a))?;
            }
            *show = false;
        }
        let Some(line) = echo.ask(input, out)? else {
            writeln!(out, "\nEnd of input: leaving the game (seed {}).", seed)?;
            return Ok(None);
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "" => continue,
            "help" | "h" | "?" => {
                write!(out, "{HELP}")?;
                continue;
            }
            "look" | "l" => {
                *show = true;
                continue;
            }
            "quit" | "q" => {
                writeln!(out, "You leave the game (seed {}).", seed)?;
                return Ok(None);
            }
            _ => {}
        }
        match parse_command(&line, legal) {
            Ok(a) => return Ok(Some(a)),
            Err(e) => writeln!(out, "? {e}")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use registry::GameKind;

    fn run_text(script: &str, seed: u64, players: u8, seat: u8) -> String {
        super::super::run_script(game, GameKind::ThreeKingdoms, players, seat, &[], seed, script)
    }

    #[test]
    fn bad_commands_change_nothing_and_end_of_input_is_clean() {
        let out = run_text("dance\n999\nhelp\nlook\n", 3, 5, 0);
        assert!(out.contains("? unknown command 'dance'"), "{out}");
        assert!(out.contains("? there is no action 999"), "{out}");
        assert!(out.contains("end, e     end your Play phase"), "{out}");
        assert!(out.contains("End of input: leaving the game"), "{out}");
        assert!(out.contains("Three Kingdoms, 5 players, seed 3. You are seat 0."), "{out}");
    }

    /// Always the first menu entry, to the end of the game.
    #[test]
    fn first_entry_plays_to_the_end() {
        for (players, seat) in [(5, 2), (4, 0)] {
            let out = run_text(&"1\n".repeat(20_000), 9, players, seat);
            assert!(out.contains("Game over."), "{out}");
            assert!(out.contains("(replay: seed 9)"), "{out}");
            // The player sees their own cards: dealt and drawn by name, and numbered in the view.
            assert!(out.contains("You drew ") && out.contains("  hand: [1] "), "{out}");
            assert!(!out.contains("End of input"), "{out}");
            // Windows where passing is all the player can do are passed without a prompt.
            assert!(out.contains("(Nothing to answer with: you pass.)"), "{out}");
            assert!(!out.contains("  1. pass\n> "), "{out}");
        }
    }
}
