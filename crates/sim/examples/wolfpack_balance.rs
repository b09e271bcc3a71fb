//! The balance table: the pilots' win rate for every pilot count (1-5), Ace tier and pilot bot.
//! `cargo run --release -p sim --example wolfpack_balance -- [GAMES] [ACE_GAMES]` (defaults
//! 2,000 games a cell, 100 for the searching `ace` tier). Every cell is a [`sim::run`] batch
//! seeded with the pilot count: fight `i` is seeded `derive_seed(pilots, i)`, so the table is
//! reproducible and does not depend on the thread count. (Wolf Pack once had a runner of its
//! own because `sim` rotated its line-up over every seat; `sim` now leaves the house's seat,
//! the Ace, out of the line-up.) `wolfpack_balance tune GAMES` bisects the Ace health at which
//! random pilots beat the rookie Ace about half the time, for each pilot count and number of
//! Ace plays.

use sim::{SimOptions, SimReport};
use wolfpack::{AceTier, Config, WolfPack};

/// The pilots' figures of one batch.
struct Batch {
    pilot_wins: u64,
    mean_moves: f64,
    mean_turns: f64,
}

impl Batch {
    fn win_rate(&self, games: u64) -> f64 {
        if games == 0 { 0.0 } else { self.pilot_wins as f64 / games as f64 }
    }
}

/// `games` fights of `config`, every pilot played by `bot`, seeded `seed`.
fn run_batch(config: &Config, bot: &str, seed: u64, games: u64) -> Result<Batch, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bots = vec![bot.to_string(); usize::from(config.pilots)];
    let opts = SimOptions { games, seed, threads, bots, iterations_only: false };
    let r: SimReport = sim::run::<WolfPack>(config, &opts, &|_| {})?;
    if r.aborted > 0 {
        return Err(format!("{} fights ran past the step limit", r.aborted));
    }
    // The pilots win or lose together: seat 0 is always a pilot.
    let turns = r.means.get("turns").copied().unwrap_or(0.0);
    Ok(Batch { pilot_wins: r.wins[0], mean_moves: r.mean_moves, mean_turns: turns })
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("tune") {
        args.next();
        let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
        return tune(games);
    }
    if args.peek().map(String::as_str) == Some("cell") {
        // `balance cell PILOTS TIER BOT GAMES`: one cell of the table.
        args.next();
        let pilots: u8 = args.next().and_then(|a| a.parse().ok()).expect("PILOTS");
        let tier = args.next().and_then(|a| AceTier::parse(&a)).expect("TIER");
        let bot = args.next().expect("BOT");
        let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
        let r = run_batch(&Config::pilots(pilots).with_tier(tier), &bot, u64::from(pilots), games).expect("valid");
        println!(
            "{pilots} pilots, {} Ace, {bot} pilots: {:.1}% of {games}, {:.1} turns, {:.1} moves",
            tier.name(),
            100.0 * r.win_rate(games),
            r.mean_turns,
            r.mean_moves
        );
        return;
    }
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let ace_games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    println!("| pilots | Ace health, plays | Ace tier | pilot bots | games | pilots win | mean turns |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for pilots in 1..=5u8 {
        for tier in AceTier::ALL {
            for bot in wolfpack::PILOT_BOTS {
                let n = if tier == AceTier::Ace { ace_games } else { games };
                if n == 0 {
                    continue;
                }
                let config = Config::pilots(pilots).with_tier(tier);
                let r = run_batch(&config, bot, u64::from(pilots), n).expect("valid");
                println!(
                    "| {pilots} | {}, {} | {} | {bot} | {n} | {:.1}% | {:.1} |",
                    config.ace_health,
                    config.ace_plays,
                    tier.name(),
                    100.0 * r.win_rate(n),
                    r.mean_turns
                );
            }
        }
    }
}

fn tune(games: u64) {
    for pilots in 1..=5u8 {
        for plays in 1..=4u8 {
            let (mut lo, mut hi) = (1, 1_000);
            while hi - lo > 2 {
                let mid = (lo + hi) / 2;
                let mut c = Config::pilots(pilots);
                c.ace_health = mid;
                c.ace_plays = plays;
                let r = run_batch(&c, "random", u64::from(pilots), games).expect("valid");
                if r.pilot_wins * 2 > games { lo = mid } else { hi = mid }
            }
            println!("{pilots} pilots, {plays} plays: health {lo}");
        }
    }
}
