//! `cardtable play wolfpack`: you fly one pilot, bots fly the others, the house's Ace policy
//! (at `--ace`'s tier) plays the Ace. Rendering, narration and the command parser are pure and
//! live in `wolfpack::text`; this file runs the seats and moves lines. The host's confirm
//! steps are immediate here (the rules' `Proceed`, played for you when you are the host).

use super::{PlayArgs, Table};
use crate::input::Lines;
use engine::{Game, MatchRng, Observation, Seat, Viewer};
use registry::Entry;
use std::io::Write;
use std::process::ExitCode;
use wolfpack::text::{Command, HELP, describe_event, parse_command, render_view};
use wolfpack::{Action, Phase, WolfPack};

/// `cardtable play wolfpack` on standard input.
pub fn play(args: &PlayArgs, table: &Table, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    game(args, table, super::stdin_lines(args)?, out)
}

/// The game loop over any input and output (tests drive it in memory). Commands from `--init`,
/// and from standard input when it is not a terminal, are echoed after the prompt.
pub fn game(args: &PlayArgs, table: &Table, mut input: Lines, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut echo = super::Echo::new(args);
    let seed = super::seed_or_clock(args.seed);
    let me = Seat(args.seat);
    let mut config = <WolfPack as Entry>::config(table.players).map_err(anyhow::Error::msg)?;
    if let Some(tier) = &args.ace {
        WolfPack::set_option(&mut config, "ace", tier).map_err(anyhow::Error::msg)?;
    }
    let mut g = match super::setup_game(args, WolfPack::from_setup)? {
        // A position: the Ace's tier is still `--ace`'s (it picks the Ace's bot).
        Some(mut g) => {
            g.set_ace_tier(config.ace_tier);
            config = *g.config();
            g
        }
        None => WolfPack::new(&config, seed).map_err(|e| anyhow::anyhow!("{e}"))?,
    };
    let n = g.num_seats();
    // One bot per seat other than yours: the named pilot bots in order, the house's Ace last.
    let mut others = table.bots.iter();
    let mut bots: Vec<Option<Box<dyn engine::Bot<WolfPack>>>> = (0..n)
        .map(|i| {
            let s = Seat(i as u8);
            if s == me {
                None
            } else {
                g.house_bot(s).or_else(|| others.next().and_then(|b| registry::bot::<WolfPack>(b).ok()))
            }
        })
        .collect();
    let names: Vec<String> = (0..n)
        .map(|i| {
            // The game's narration has no second person: you are "pilot K", marked "(you)".
            if i + 1 == n { "the Ace".to_string() } else { format!("pilot {}", i + 1) }
        })
        .collect();
    let mut rng = MatchRng::new(seed ^ 0xB07);
    // A position's fight is replayed from its file (and the bots' seed); a dealt one from its seed.
    let replay = match &args.setup {
        Some(path) => format!("replay: --setup {} --seed {seed}", path.display()),
        None => format!("replay: seed {seed}"),
    };
    writeln!(
        out,
        "Wolf Pack, {} pilot{} against the {} Ace, seed {seed}. You are pilot {} (seat {}). Type `help` for commands.",
        table.players,
        if table.players == 1 { "" } else { "s" },
        config.ace_tier.name(),
        me.0 + 1,
        me.0
    )?;
    let viewer = Viewer::seat(me);
    let mut before = g.view(viewer);
    // A fresh deal's opening draws; a position has none (`start_events` would deal afresh).
    let opening = if args.setup.is_some() { Vec::new() } else { g.start_events() };
    for e in opening {
        if let Some(seen) = g.view_event(&e, viewer)
            && let Some(line) = describe_event(&seen, &before, &names)
        {
            writeln!(out, "  {line}")?;
        }
    }
    let mut shown = false;
    while g.outcome().is_none() {
        let acting = g.to_act();
        // Every other seat that may act now acts; the host's confirm is yours but immediate.
        let next = acting.iter().find(|&s| s != me).or_else(|| {
            (matches!(g.phase(), Phase::Confirm | Phase::BossPhaseConfirm) && acting.contains(me)).then_some(me)
        });
        if let Some(seat) = next {
            let action = match bots[seat.index()].as_mut() {
                Some(bot) => {
                    let legal = g.legal_actions(seat);
                    bot.choose(&Observation::new(&g, seat, &legal), &mut rng)
                }
                None => Action::Proceed,
            };
            before = g.view(viewer);
            let events = g.apply(seat, action).map_err(|e| anyhow::anyhow!("a bot's move was refused: {e}"))?;
            for e in &events {
                if let Some(seen) = g.view_event(e, viewer)
                    && let Some(line) = describe_event(&seen, &before, &names)
                {
                    writeln!(out, "  {line}")?;
                }
            }
            shown = false;
            continue;
        }
        if !acting.contains(me) {
            anyhow::bail!("nobody can act: a rules bug");
        }
        let view = g.view(viewer);
        if !shown {
            write!(out, "{}", render_view(&view, &names))?;
            shown = true;
        }
        let Some(line) = echo.ask(&mut input, out)? else {
            writeln!(out, "\nEnd of input: leaving the game.")?;
            return Ok(ExitCode::SUCCESS);
        };
        match parse_command(&line, Some(me), &view, &names) {
            Ok(Command::Help) => writeln!(out, "{HELP}")?,
            Ok(Command::Look) => write!(out, "{}", render_view(&view, &names))?,
            Ok(Command::Quit) => {
                writeln!(out, "You leave the fight. ({replay})")?;
                return Ok(ExitCode::SUCCESS);
            }
            Ok(Command::Act(action)) => {
                before = view;
                match g.apply(me, action) {
                    Ok(events) => {
                        for e in &events {
                            if let Some(seen) = g.view_event(e, viewer)
                                && let Some(line) = describe_event(&seen, &before, &names)
                            {
                                writeln!(out, "  {line}")?;
                            }
                        }
                        shown = false;
                    }
                    Err(e) => writeln!(out, "? {e}")?,
                }
            }
            Err(e) => writeln!(out, "? {e}")?,
        }
    }
    write!(out, "{}", render_view(&g.view(viewer), &names))?;
    writeln!(out, "Game over after {} turns. ({replay})", g.turn())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use registry::GameKind;

    fn run_text(script: &str, seed: u64, pilots: u8, seat: u8) -> String {
        super::super::run_script(game, GameKind::WolfPack, pilots, seat, &[], seed, script)
    }

    #[test]
    fn bad_commands_change_nothing_and_end_of_input_is_clean() {
        let out = run_text("dance\nplay 9\nplay sweeping fire\nhelp\nlook\n", 5, 2, 0);
        assert!(out.contains("? unknown command `dance`"), "{out}");
        assert!(out.contains("? you have no card 9"), "{out}");
        assert!(out.contains("discard <card>"), "help: {out}");
        assert!(out.contains("Your hand:") && out.contains("the Ace"), "{out}");
        assert!(out.contains("waiting for pilot 1"), "{out}");
        assert!(!out.contains("pilot 1 confirmed"), "nothing was played: {out}");
        assert!(out.contains("End of input"), "{out}");
    }

    #[test]
    fn a_fight_can_be_played_to_the_end() {
        // Play the first card at its default target, or discard when that is refused.
        let script = "play 1\ndiscard 1\nplay 2\nplay 3\n".repeat(400);
        for (pilots, seat) in [(1, 0), (3, 1)] {
            let out = run_text(&script, 11, pilots, seat);
            assert!(out.contains("Game over after"), "{out}");
            assert!(out.contains("(replay: seed 11)"), "{out}");
            let me = format!("pilot {} (you)", seat + 1);
            assert!(out.contains(&me), "{me}: {out}");
        }
    }
}
