//! Random Ivanhoe playouts through the engine's public API: `cargo bench -p ivanhoe`.
//! One game = set up from a seed, then uniform random legal actions (Ivanhoe windows
//! included) until someone wins.

use engine::{Game, MatchRng};
use ivanhoe::{Action, Config, Event, Ivanhoe};

fn main() {
    divan::main();
}

/// Plays one game with reusable buffers, as the simulator does; returns the move count.
fn playout(seed: u64, config: &Config, legal: &mut Vec<Action>, events: &mut Vec<Event>) -> usize {
    let mut game = Ivanhoe::new(config, seed).expect("valid config");
    let mut rng = MatchRng::new(seed ^ 0xBEEF);
    let mut moves = 0;
    while let Some(seat) = game.to_act().first() {
        legal.clear();
        game.legal_actions_into(seat, legal);
        let action = *rng.pick(legal);
        events.clear();
        game.apply_into(seat, action, events).expect("legal");
        moves += 1;
    }
    moves
}

#[divan::bench(args = [3, 5], sample_count = 200, sample_size = 20)]
fn random_game(bencher: divan::Bencher, players: u8) {
    let config = Config { players };
    let mut legal = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(64);
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        divan::black_box(playout(seed, &config, &mut legal, &mut events))
    });
}

/// A whole 3-player game between three heuristic bots.
#[divan::bench(sample_count = 100, sample_size = 10)]
fn heuristic_game(bencher: divan::Bencher) {
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let mut bots: Vec<_> = (0..3).map(|_| ivanhoe::bot("heuristic").expect("bot")).collect();
        let game = Ivanhoe::new(&Config::default(), seed).expect("setup");
        divan::black_box(engine::play_out(game, &mut bots, &mut MatchRng::new(seed), None).expect("ends").moves)
    });
}
