//! The heuristic bot against the random bot, default decks, both seat orders.

use engine::{Bot, Game, MatchRng, RandomBot, Seat, derive_seed, play_out};
use sorcery::bots::HeuristicBot;
use sorcery::{Config, Sorcery};

/// Plays `games` deals twice (the heuristic in each seat); returns (wins, draws, played).
fn heuristic_vs_random(games: u64) -> (u64, u64, u64) {
    let (mut wins, mut draws) = (0, 0);
    for i in 0..games {
        for heuristic_seat in 0..2u8 {
            let seed = derive_seed(77, i);
            let game = Sorcery::new(&Config::default(), seed).unwrap();
            let mut bots: Vec<Box<dyn Bot<Sorcery>>> = vec![Box::new(RandomBot), Box::new(RandomBot)];
            bots[heuristic_seat as usize] = Box::new(HeuristicBot);
            let mut rng = MatchRng::new(seed ^ 1);
            let r = play_out(game, &mut bots, &mut rng, None).expect("the game ends");
            if r.outcome.winners.contains(Seat(heuristic_seat)) {
                wins += 1;
            } else if r.outcome.winners.is_empty() {
                draws += 1;
            }
        }
    }
    (wins, draws, 2 * games)
}

#[test]
fn heuristic_wins_at_least_80_percent_against_random() {
    let (wins, draws, played) = heuristic_vs_random(1000);
    let rate = wins as f64 / played as f64;
    println!("heuristic vs random: {wins}/{played} won ({:.1}%), {draws} drawn", 100.0 * rate);
    assert!(rate >= 0.8, "win rate {rate}");
}
