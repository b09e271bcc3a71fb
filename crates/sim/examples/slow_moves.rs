//! Finds the searching levels' slowest decisions: plays ladder-style fixtures (a searching
//! level, uncapped, alternating seats with another bot, on the ladder's deals) and prints every
//! decision whose CPU time passes a threshold, with what the position was, so it can be
//! replayed (`deal`, `swapped` and the move number fix it).
//!
//! `cargo run --release -p sim --example slow_moves -- [GAMES] [THRESHOLD_MS] [LEVEL] [OTHERS,..] [SEED]`

use engine::{Bot, Game, MatchRng, Observation, Seat, derive_seed};
use registry::Entry;
use sim::thread_cpu;
use std::time::Duration;
use three_kingdoms::ThreeKingdoms;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `replay FILE LEVEL [TIMES]`: search a saved position again (for a profiler).
    if args.first().map(String::as_str) == Some("replay") {
        let (game, seat): (ThreeKingdoms, Seat) =
            serde_json::from_str(&std::fs::read_to_string(&args[1]).expect("a saved position")).expect("json");
        let mut legal = Vec::new();
        game.legal_actions_into(seat, &mut legal);
        let times: u32 = args.get(3).map_or(1, |s| s.parse().expect("times"));
        for i in 0..times {
            let mut bot = registry::bot_iterations_only::<ThreeKingdoms>(&args[2]).expect("a bot");
            let start = thread_cpu();
            let a = bot.choose(&Observation::new(&game, seat, &legal), &mut MatchRng::new(u64::from(i)));
            println!(
                "{} legal, {:.0} ms, chose {a:?}",
                legal.len(),
                thread_cpu().saturating_sub(start).as_secs_f64() * 1e3
            );
        }
        return;
    }
    let games: u64 = args.first().map_or(20, |s| s.parse().expect("games"));
    let threshold = Duration::from_millis(args.get(1).map_or(250, |s| s.parse().expect("ms")));
    let level = args.get(2).map_or("hard", String::as_str).to_string();
    let others: Vec<String> =
        args.get(3).map_or("random,easy,seed", String::as_str).split(',').map(str::to_string).collect();
    let seed: u64 = args.get(4).map_or(1, |s| s.parse().expect("seed"));
    let config = <ThreeKingdoms as Entry>::config(5).expect("5 players");
    let mut worst = Duration::ZERO;
    let mut decisions = 0u64;
    let mut total = Duration::ZERO;
    for other in &others {
        // `DEAL=d` plays that deal alone.
        let deals: Vec<u64> = match std::env::var("DEAL") {
            Ok(d) => vec![d.parse().expect("DEAL")],
            Err(_) => (0..games.div_ceil(2)).collect(),
        };
        for deal in deals {
            for swapped in [false, true] {
                let game_seed = derive_seed(seed, deal);
                let mut game = ThreeKingdoms::new(&config, game_seed).expect("config");
                let n = game.num_seats();
                let mut bots: Vec<(bool, Box<dyn Bot<ThreeKingdoms>>)> = (0..n)
                    .map(|s| {
                        let mine = (s % 2 == 0) != swapped;
                        let name = if mine { &level } else { other };
                        (mine, registry::bot_iterations_only::<ThreeKingdoms>(name).expect("a bot"))
                    })
                    .collect();
                let mut rng = MatchRng::new(derive_seed(game_seed, 0xB07));
                let (mut legal, mut events) = (Vec::new(), Vec::new());
                let mut moves = 0usize;
                while game.outcome().is_none() && moves < game.step_limit() {
                    let Some(seat) = game.to_act().first() else { break };
                    legal.clear();
                    game.legal_actions_into(seat, &mut legal);
                    let obs = Observation::new(&game, seat, &legal);
                    let (mine, bot) = &mut bots[seat.index()];
                    let start = thread_cpu();
                    let a = bot.choose(&obs, &mut rng);
                    let t = thread_cpu().saturating_sub(start);
                    if *mine && legal.len() > 1 {
                        decisions += 1;
                        total += t;
                        worst = worst.max(t);
                        if t >= threshold {
                            let file = format!("slow-{level}-{other}-{deal}-{swapped}-{moves}.json");
                            std::fs::write(&file, serde_json::to_string(&(&game, seat)).expect("json")).expect("write");
                            println!(
                                "{level} vs {other} deal {deal} swapped {swapped} move {moves} seat {} {:.0} ms, {} legal, chose {a:?}\n  legal: {legal:?}",
                                seat.index(),
                                t.as_secs_f64() * 1e3,
                                legal.len()
                            );
                        }
                    }
                    game.apply_quiet(seat, a, &mut events).expect("legal");
                    moves += 1;
                }
            }
        }
        eprintln!(
            "{level} vs {other}: {decisions} decisions, mean {:.1} ms, worst {:.0} ms",
            total.as_secs_f64() * 1e3 / decisions.max(1) as f64,
            worst.as_secs_f64() * 1e3
        );
    }
}
