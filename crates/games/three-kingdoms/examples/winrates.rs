//! Figures for the note: random-play speed and win rates by role, for 4-10 players.
//! `cargo run --release -p three-kingdoms --example winrates -- [GAMES]`
//!
//! - speed: uniform random legal actions through the public API (games/s, moves/s, one core);
//! - `heuristic` against `random`: the heuristic bots sit on one side (each role in turn), the
//!   rest are random; the table gives that side's win rate;
//! - role balance with all-`heuristic` tables: wins of the Lord's side, the Rebels, a Spy.

use engine::{Bot, Game, MatchRng, PlayoutBuffers, Seat, random_playout};
use std::time::Instant;
use three_kingdoms::{Config, Role, ThreeKingdoms, bot};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    println!("players | random games/s | moves/s | mean moves");
    for players in [4u8, 5, 6, 7, 8, 9, 10] {
        let config = Config::players(players);
        let mut buf = PlayoutBuffers::<ThreeKingdoms>::default();
        let t = Instant::now();
        let mut moves = 0;
        for seed in 0..games {
            moves += random_playout::<ThreeKingdoms>(&config, seed, &mut buf);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{players} | {:.0} | {:.0} | {:.0}",
            games as f64 / secs,
            moves as f64 / secs,
            moves as f64 / games as f64
        );
    }
    println!();
    println!("players | heuristic Lord side vs random | heuristic Rebels vs random | heuristic Spy vs random");
    for players in [4u8, 5, 6, 7, 8, 9, 10] {
        let config = Config::players(players);
        let mut row = Vec::new();
        for side in [Role::Lord, Role::Rebel, Role::Spy] {
            let n = games / 4;
            let mut won = 0;
            for seed in 0..n {
                let game = ThreeKingdoms::new(&config, seed).expect("setup");
                let mut bots: Vec<Box<dyn Bot<ThreeKingdoms>>> = Seat::all(players as usize)
                    .map(|s| {
                        let r = game.p(s).role;
                        let mine = r == side || (side == Role::Lord && r == Role::Loyalist);
                        bot(if mine { "heuristic" } else { "random" }).expect("bot")
                    })
                    .collect();
                let res = engine::play_out(game, &mut bots, &mut MatchRng::new(seed), None).expect("ends");
                let winner_role = res.outcome.winners.first().map(|s| res.final_state.p(s).role);
                if winner_role.is_some_and(|r| r == side || (side == Role::Lord && r == Role::Loyalist)) {
                    won += 1;
                }
            }
            row.push(format!("{:.1}%", 100.0 * won as f64 / n as f64));
        }
        println!("{players} | {}", row.join(" | "));
    }
    println!();
    println!("players | all heuristic: Lord side | Rebels | Spy | mean moves");
    for players in [4u8, 5, 6, 7, 8, 9, 10] {
        let config = Config::players(players);
        let n = games / 2;
        let (mut lord, mut rebels, mut spy, mut moves) = (0, 0, 0, 0);
        for seed in 0..n {
            let game = ThreeKingdoms::new(&config, seed).expect("setup");
            let mut bots: Vec<Box<dyn Bot<ThreeKingdoms>>> =
                (0..players).map(|_| bot("heuristic").expect("bot")).collect();
            let res = engine::play_out(game, &mut bots, &mut MatchRng::new(seed), None).expect("ends");
            moves += res.moves;
            match res.outcome.winners.first().map(|s| res.final_state.p(s).role) {
                Some(Role::Lord | Role::Loyalist) => lord += 1,
                Some(Role::Rebel) => rebels += 1,
                Some(Role::Spy) => spy += 1,
                None => {}
            }
        }
        let pct = |x: u64| format!("{:.1}%", 100.0 * x as f64 / n as f64);
        println!("{players} | {} | {} | {} | {:.0}", pct(lord), pct(rebels), pct(spy), moves as f64 / n as f64);
    }
}
