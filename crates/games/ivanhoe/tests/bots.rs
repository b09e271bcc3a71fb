//! The heuristic bot against random bots. Win rates are printed (run with `--nocapture`);
//! the 3-player one must reach 60%.

use engine::{Game, MatchRng, derive_seed, play_out};
use ivanhoe::{Config, Ivanhoe, bot};

/// Plays `games` games with the heuristic in seat `i % players` and random bots elsewhere;
/// returns the heuristic's win rate.
fn heuristic_win_rate(players: u8, games: u64) -> f64 {
    let mut wins = 0u64;
    for i in 0..games {
        let seed = derive_seed(0x1A40E, i);
        let hero = (i % u64::from(players)) as usize;
        let mut bots: Vec<_> =
            (0..players as usize).map(|s| bot(if s == hero { "heuristic" } else { "random" }).expect("bot")).collect();
        let game = Ivanhoe::new(&Config { players }, seed).expect("setup");
        let result = play_out(game, &mut bots, &mut MatchRng::new(seed ^ 0xB07), None).expect("finishes");
        if result.outcome.winners.contains(engine::Seat(hero as u8)) {
            wins += 1;
        }
    }
    wins as f64 / games as f64
}

#[test]
fn heuristic_beats_two_random_bots() {
    let rate = heuristic_win_rate(3, 600);
    eprintln!("heuristic vs 2 random (3 players): {:.1}%", rate * 100.0);
    assert!(rate >= 0.60, "heuristic won only {:.1}% of 3-player games", rate * 100.0);
}

#[test]
fn heuristic_beats_four_random_bots() {
    let rate = heuristic_win_rate(5, 400);
    eprintln!("heuristic vs 4 random (5 players): {:.1}%", rate * 100.0);
    assert!(rate >= 0.40, "heuristic won only {:.1}% of 5-player games", rate * 100.0);
}

#[test]
fn heuristic_games_finish_and_are_reproducible() {
    let run = |seed| {
        let mut bots: Vec<_> = (0..3).map(|_| bot("heuristic").expect("bot")).collect();
        let game = Ivanhoe::new(&Config::default(), seed).expect("setup");
        play_out(game, &mut bots, &mut MatchRng::new(seed), None).expect("finishes")
    };
    for seed in 0..20 {
        let (a, b) = (run(seed), run(seed));
        assert_eq!(a.outcome, b.outcome);
        assert_eq!(a.final_state, b.final_state);
        assert!(a.final_state.outcome().is_some());
    }
}
