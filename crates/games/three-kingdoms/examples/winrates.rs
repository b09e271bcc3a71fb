//! Figures for the note (`docs/rules/three-kingdoms-balance.md`), 4-10 players, one thread:
//! `cargo run --release -p three-kingdoms --example winrates -- TABLE [GAMES] [PLAYERS..]`
//!
//! - `speed`: uniform random legal actions through the public API, games/s and moves/s in
//!   CPU time of this thread (`/proc/thread-self/schedstat`; wall time on a loaded machine
//!   says little), GAMES games per player count;
//! - `vs`: `heuristic` against `random`: the heuristic bots sit on one side (the Lord and the
//!   Loyalists, the Rebels, or the Spy), everyone else is random; GAMES games per cell, with
//!   the same side's win rate when every seat is random for comparison;
//! - `balance`: every seat `heuristic`: wins of the Lord's side, the Rebels, the Spy, GAMES
//!   games per player count.
//!
//! Every rate comes with its 95% Wilson interval. Games are numbered from a fixed seed per
//! table and player count, so a run is reproducible.

use engine::{Bot, Game, MatchRng, PlayoutBuffers, Seat, random_playout};
use three_kingdoms::{Config, Role, ThreeKingdoms, bot};

/// CPU time of this thread in seconds (falls back on wall time off Linux).
fn cpu_seconds(wall: &std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 / 1e9)
}

/// 95% Wilson score interval of `k` successes in `n`, in percent.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (100.0 * (centre - half).max(0.0), 100.0 * (centre + half).min(1.0))
}

fn rate(k: u64, n: u64) -> String {
    let (lo, hi) = wilson(k, n);
    format!("{:.1}% ({lo:.1}–{hi:.1})", 100.0 * k as f64 / n.max(1) as f64)
}

#[derive(Clone, Copy, PartialEq)]
enum SideOf {
    Lord,
    Rebels,
    Spy,
}

fn side_of(r: Role) -> SideOf {
    match r {
        Role::Lord | Role::Loyalist => SideOf::Lord,
        Role::Rebel => SideOf::Rebels,
        Role::Spy => SideOf::Spy,
    }
}

/// Plays one game; `who(role)` names the bot for a seat of that role. Returns the winning
/// side (None: no winner) and the moves.
fn play(players: u8, seed: u64, who: &dyn Fn(Role) -> &'static str) -> (Option<SideOf>, u64) {
    let game = ThreeKingdoms::new(&Config::players(players), seed).expect("setup");
    let mut bots: Vec<Box<dyn Bot<ThreeKingdoms>>> =
        Seat::all(players as usize).map(|s| bot(who(game.p(s).role)).expect("bot")).collect();
    let res = engine::play_out(game, &mut bots, &mut MatchRng::new(seed ^ 0xB07), None).expect("ends");
    let side = res.outcome.winners.first().map(|s| side_of(res.final_state.p(s).role));
    (side, res.moves as u64)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let table = args.first().map_or("balance", String::as_str);
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let mut counts: Vec<u8> = args.iter().skip(2).filter_map(|s| s.parse().ok()).collect();
    if counts.is_empty() {
        counts = (4..=10).collect();
    }
    let wall = std::time::Instant::now();
    match table {
        "speed" => {
            println!("| players | games | CPU s | games/s (CPU) | moves/s (CPU) | mean moves |");
            println!("|---|---|---|---|---|---|");
            for &players in &counts {
                let config = Config::players(players);
                let mut buf = PlayoutBuffers::<ThreeKingdoms>::default();
                let t0 = cpu_seconds(&wall);
                let mut moves = 0u64;
                for seed in 0..games {
                    moves += random_playout::<ThreeKingdoms>(&config, seed, &mut buf) as u64;
                }
                let secs = cpu_seconds(&wall) - t0;
                println!(
                    "| {players} | {games} | {secs:.2} | {:.0} | {:.2} M | {:.0} |",
                    games as f64 / secs,
                    moves as f64 / secs / 1e6,
                    moves as f64 / games as f64
                );
            }
        }
        "vs" => {
            println!(
                "| players | heuristic Lord side vs random | all random: Lord side | heuristic Rebels vs random | all random: Rebels | heuristic Spy vs random | all random: Spy |"
            );
            println!("|---|---|---|---|---|---|---|");
            for &players in &counts {
                let mut row = Vec::new();
                let base = u64::from(players) * 1_000_000;
                // The all-random games are shared by the three comparisons.
                let mut random_wins = [0u64; 3];
                for g in 0..games {
                    if let (Some(w), _) = play(players, base + g, &|_| "random") {
                        random_wins[w as usize] += 1;
                    }
                }
                for side in [SideOf::Lord, SideOf::Rebels, SideOf::Spy] {
                    let mut won = 0;
                    for g in 0..games {
                        let who = |r: Role| if side_of(r) == side { "heuristic" } else { "random" };
                        if play(players, base + g, &who).0 == Some(side) {
                            won += 1;
                        }
                    }
                    row.push(rate(won, games));
                    row.push(rate(random_wins[side as usize], games));
                }
                println!("| {players} | {} |", row.join(" | "));
            }
        }
        _ => {
            println!("| players | games | Lord + Loyalists | Rebels | Spy | no winner | mean moves |");
            println!("|---|---|---|---|---|---|---|");
            for &players in &counts {
                let base = u64::from(players) * 1_000_000 + 500_000;
                let (mut wins, mut none, mut moves) = ([0u64; 3], 0, 0);
                for g in 0..games {
                    let (w, m) = play(players, base + g, &|_| "heuristic");
                    moves += m;
                    match w {
                        Some(w) => wins[w as usize] += 1,
                        None => none += 1,
                    }
                }
                println!(
                    "| {players} | {games} | {} | {} | {} | {none} | {:.0} |",
                    rate(wins[0], games),
                    rate(wins[1], games),
                    rate(wins[2], games),
                    moves as f64 / games as f64
                );
            }
        }
    }
    eprintln!("CPU {:.1} s, wall {:.1} s", cpu_seconds(&wall), wall.elapsed().as_secs_f64());
}
