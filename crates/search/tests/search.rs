//! The search bot's promises: reproducible for a seed and iteration budget, the same for a
//! seed and thread count whatever the scheduling, legal choices at every level, whole games
//! finished (Ivanhoe's reaction windows included), and a time budget that stops in time.

use engine::{Bot, Game, MatchRng, Observation, Seat, derive_seed, play_out};
use search::{Budget, Level, SearchBot, SearchLevels};
use std::time::{Duration, Instant};

/// A position some random moves into a game, where the seat to act has a choice.
fn position<G: Game>(config: &G::Config, seed: u64, moves: usize) -> (G, Seat) {
    let mut game = G::new(config, seed).expect("setup");
    let mut rng = MatchRng::new(seed);
    for step in 0.. {
        let seat = game.to_act().first().expect("the game is still running");
        let legal = game.legal_actions(seat);
        if step >= moves && legal.len() > 1 {
            return (game, seat);
        }
        game.apply(seat, rng.pick(&legal).clone()).expect("legal");
    }
    unreachable!()
}

fn visits<G: Game>(game: &G, seat: Seat, bot: &mut SearchBot<G>, seed: u64) -> Vec<u64> {
    let legal = game.legal_actions(seat);
    bot.search(&Observation::new(game, seat, &legal), &mut MatchRng::new(seed));
    bot.stats().root_visits.clone()
}

#[test]
fn same_seed_and_budget_same_search() {
    let (game, seat) = position::<buckshot::Buckshot>(&buckshot::Config::players(4), 3, 6);
    for threads in [1, 3] {
        let mut a = SearchBot::new(Budget::iterations(1_500)).threads(threads);
        let mut b = SearchBot::new(Budget::iterations(1_500)).threads(threads);
        let first = visits(&game, seat, &mut a, 11);
        assert_eq!(first.iter().sum::<u64>(), 1_500, "every iteration visits one root action");
        assert_eq!(a.stats().iterations, 1_500);
        assert_eq!(first, visits(&game, seat, &mut b, 11), "{threads} threads");
        // The same bot again (its buffers and trees reused) agrees too.
        assert_eq!(first, visits(&game, seat, &mut a, 11), "{threads} threads, reused");
        assert_ne!(first, visits(&game, seat, &mut a, 12), "another seed searches differently");
    }
}

#[test]
fn threads_share_the_budget() {
    let (game, seat) = position::<ivanhoe::Ivanhoe>(&ivanhoe::Config { players: 3 }, 5, 10);
    let mut bot = SearchBot::new(Budget::iterations(1_001)).threads(4);
    let v = visits(&game, seat, &mut bot, 1);
    assert_eq!(v.iter().sum::<u64>(), 1_001);
}

#[test]
fn a_time_budget_stops_in_time() {
    let (game, seat) = position::<sorcery::Sorcery>(&sorcery::Config::default(), 2, 8);
    let mut bot = SearchBot::new(Budget::time(Duration::from_millis(40)));
    let start = Instant::now();
    visits(&game, seat, &mut bot, 1);
    let took = start.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    assert!(bot.stats().iterations > 0);
    // An iteration cap ends a timed search early.
    let mut capped = SearchBot::new(Budget::capped(10, Duration::from_secs(30)));
    visits(&game, seat, &mut capped, 1);
    assert_eq!(capped.stats().iterations, 10);
}

/// Plays whole games with `level` in seat 0 and the heuristic elsewhere; all must finish.
fn games_finish<G: Game>(config: &G::Config, by_name: fn(&str) -> Option<Box<dyn Bot<G>>>, games: u64) {
    for level in Level::ALL {
        for i in 0..games {
            let seed = derive_seed(0x1E7E1, i);
            let game = G::new(config, seed).expect("setup");
            let mut bots: Vec<Box<dyn Bot<G>>> = (0..game.num_seats())
                .map(|s| {
                    if s == 0 {
                        level.bot_by_name(by_name, SearchLevels::RANDOM.iterations(200, 400))
                    } else {
                        by_name("heuristic").unwrap()
                    }
                })
                .collect();
            let r = play_out(game, &mut bots, &mut MatchRng::new(seed), None);
            assert!(r.is_some_and(|r| r.final_state.outcome().is_some()), "{} {level} game {i}", G::NAME);
        }
    }
}

#[test]
fn every_level_finishes_games() {
    games_finish::<buckshot::Buckshot>(&buckshot::Config::players(3), buckshot::bot, 2);
    games_finish::<ivanhoe::Ivanhoe>(&ivanhoe::Config { players: 3 }, ivanhoe::bot, 1);
}

#[test]
fn search_finds_the_obvious_shot() {
    // Buckshot, heads-up, each player on one life: whoever fires a shell known to be live
    // wins. Find positions where the seat to act knows the next shell is live and may shoot
    // the opponent, and check the search takes the win.
    let mut found = 0;
    for seed in 0..400 {
        let mut game = buckshot::Buckshot::new(&buckshot::Config::players(2), seed).unwrap();
        let mut rng = MatchRng::new(seed);
        while let Some(seat) = game.to_act().first() {
            let legal = game.legal_actions(seat);
            let view = game.view(engine::Viewer::seat(seat));
            let other = Seat(1 - seat.0);
            let shoot = buckshot::Action::Shoot { target: other };
            if view.next_shell == Some(buckshot::Shell::Live)
                && game.lives(other) == 1
                && legal.contains(&shoot)
                && view.quickshot == buckshot::Quickshot::Off
            {
                let mut bot = SearchBot::<buckshot::Buckshot>::new(Budget::iterations(400));
                let choice = bot.choose(&Observation::new(&game, seat, &legal), &mut rng.clone());
                let mut after = game.clone();
                after.apply(seat, choice).unwrap();
                assert!(
                    after.outcome().is_some_and(|o| o.winners.contains(seat)) || choice != shoot,
                    "seed {seed}: the shot did not win"
                );
                assert_eq!(choice, shoot, "seed {seed}: the search passed up a winning shot");
                found += 1;
                break;
            }
            game.apply(seat, *rng.pick(&legal)).unwrap();
        }
    }
    assert!(found >= 3, "only {found} positions found");
}

/// A cut-off search scores its playouts with the game's estimate: reproducible, steered by the
/// estimate (its visits differ from a search to the end's), and a cutoff of 0 plays to the end.
#[test]
fn a_cutoff_search_uses_the_estimate() {
    use std::sync::Arc;
    let (game, seat) = position::<sorcery::Sorcery>(&sorcery::Config::default(), 4, 8);
    let estimate: search::Evaluator<sorcery::Sorcery> = Arc::new(sorcery::bots::win_estimate);
    let mut a = SearchBot::new(Budget::iterations(800)).cutoff(6, Arc::clone(&estimate));
    let mut b = SearchBot::new(Budget::iterations(800)).cutoff(6, estimate);
    let first = visits(&game, seat, &mut a, 3);
    assert_eq!(first.iter().sum::<u64>(), 800);
    assert_eq!(first, visits(&game, seat, &mut b, 3), "reproducible");
    let mut full = SearchBot::new(Budget::iterations(800));
    assert_ne!(first, visits(&game, seat, &mut full, 3), "the estimate, not the end of the game, scored it");
    // Cutoff 0 plays to the end, as without one.
    let mut zero = SearchBot::new(Budget::iterations(800)).cutoff(0, Arc::new(|_: &sorcery::Sorcery, _| 1.0));
    assert_eq!(visits(&game, seat, &mut zero, 3), visits(&game, seat, &mut full, 3));
}
