//! The balance table: the pilots' win rate for every pilot count (1-5), Ace tier and pilot bot.
//! `cargo run --release -p wolfpack --example balance -- [GAMES] [ACE_GAMES]` (defaults 2,000
//! games a cell, 100 for the searching `ace` tier). Game `i` of a cell is seeded with
//! `derive_seed(pilots, i)`, its bots with the seed, so the table is reproducible.

use engine::{Game, MatchRng, derive_seed, play_out};
use wolfpack::{AceTier, Config, Side, WolfPack};

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("tune") {
        args.next();
        let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
        return tune(games);
    }
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let ace_games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    println!("| pilots | Ace tier | pilot bots | games | pilots win | mean turns |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for pilots in 1..=5u8 {
        for tier in AceTier::ALL {
            for bot in wolfpack::PILOT_BOTS {
                let n = if tier == AceTier::Ace { ace_games } else { games };
                let (wins, turns) = cell(pilots, tier, bot, n);
                println!(
                    "| {pilots} | {} | {bot} | {n} | {:.1}% | {:.1} |",
                    tier.name(),
                    100.0 * wins as f64 / n as f64,
                    turns as f64 / n as f64
                );
            }
        }
    }
}

/// `tune GAMES`: for each pilot count and Ace plays, the Ace health at which random pilots
/// beat the rookie Ace about half the time (a bisection on health).
fn tune(games: u64) {
    for pilots in 1..=5u8 {
        for plays in 1..=4u8 {
            let (mut lo, mut hi) = (1, 1_000);
            while hi - lo > 2 {
                let mid = (lo + hi) / 2;
                let mut c = Config::pilots(pilots);
                c.ace_health = mid;
                c.ace_plays = plays;
                let (wins, _) = run(&c, "random", games);
                if wins * 2 > games { lo = mid } else { hi = mid }
            }
            println!("{pilots} pilots, {plays} plays: health {lo}");
        }
    }
}

/// Pilots' wins and total turns over `n` fights.
fn cell(pilots: u8, tier: AceTier, bot: &str, n: u64) -> (u64, u64) {
    run(&Config::pilots(pilots).with_tier(tier), bot, n)
}

fn run(config: &Config, bot: &str, n: u64) -> (u64, u64) {
    let pilots = config.pilots;
    let (mut wins, mut turns) = (0, 0);
    for i in 0..n {
        let seed = derive_seed(u64::from(pilots), i);
        let game = WolfPack::new(config, seed).expect("valid config");
        let mut bots = wolfpack::lineup(&game, bot).expect("known bot");
        let mut rng = MatchRng::new(seed ^ 0xB07);
        let result = play_out(game, &mut bots, &mut rng, None).expect("the fight ends");
        wins += u64::from(result.final_state.winner() == Some(Side::Pilots));
        turns += u64::from(result.final_state.turn());
    }
    (wins, turns)
}
