//! Terminal play until the CLI has it: `cargo run -p three-kingdoms --example play -- [PLAYERS] [SEAT] [SEED]`.
//! You play one seat; heuristic bots play the others. Type the number of an action, or
//! `pass`, `end`, `help`. Bad commands change nothing.

use engine::{Game, MatchRng, Observation, Seat, Viewer};
use std::io::BufRead;
use three_kingdoms::text::{describe_action, describe_event, names, parse_command, render_view};
use three_kingdoms::{Config, ThreeKingdoms, bot};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let players = args.first().copied().unwrap_or(5) as u8;
    let me = Seat(args.get(1).copied().unwrap_or(0) as u8);
    let seed = args.get(2).copied().unwrap_or(1);
    let (mut g, _) = ThreeKingdoms::new_with_events(&Config::players(players), seed).expect("4 to 10 players");
    let mut bots: Vec<_> = (0..players).map(|_| bot("heuristic").expect("bot")).collect();
    let mut rng = MatchRng::new(seed);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while g.outcome().is_none() {
        let seat = g.to_act().first().expect("someone acts");
        let legal = g.legal_actions(seat);
        let action = if seat == me {
            print!("\n{}", render_view(&g, &g.view(Viewer::seat(me))));
            for (i, a) in legal.iter().enumerate() {
                println!("  {}. {}", i + 1, describe_action(&g, a));
            }
            loop {
                let Some(Ok(line)) = lines.next() else { return };
                match parse_command(&line, &legal) {
                    Ok(a) => break a,
                    Err(e) => println!("{e}"),
                }
            }
        } else {
            bots[seat.index()].choose(&Observation::new(&g, seat, &legal), &mut rng)
        };
        for e in g.apply(seat, action).expect("a listed action") {
            if let Some(seen) = g.view_event(&e, Viewer::seat(me))
                && let Some(line) = describe_event(&seen, Viewer::seat(me), &names(&g))
            {
                println!("{line}");
            }
        }
    }
}
