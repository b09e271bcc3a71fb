//! Random Sorcery playouts with the default decks: `cargo bench -p sorcery`.
//! One game = set up from a seed (both decks shuffled), then uniform random legal actions
//! until someone wins (or the configured turn limit draws the game).

use engine::{Game, MatchRng};
use sorcery::{Action, Config, Event, Sorcery};

fn main() {
    divan::main();
}

/// Plays one game with reusable buffers, as the simulator does; returns the move count.
fn playout(seed: u64, config: &Config, legal: &mut Vec<Action>, events: &mut Vec<Event>) -> usize {
    let mut game = Sorcery::new(config, seed).expect("valid config");
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

#[divan::bench]
fn random_game(bencher: divan::Bencher) {
    let config = Config::default();
    let mut legal = Vec::with_capacity(128);
    let mut events = Vec::with_capacity(32);
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(playout(seed, &config, &mut legal, &mut events))
    });
}

/// 1,000 games per sample, reported as games per second (steadier on a busy machine).
#[divan::bench(sample_count = 20)]
fn thousand_random_games(bencher: divan::Bencher) {
    let config = Config::default();
    let mut legal = Vec::with_capacity(128);
    let mut events = Vec::with_capacity(32);
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1_000usize)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..1_000 {
            seed += 1;
            moves += playout(seed, &config, &mut legal, &mut events);
        }
        divan::black_box(moves)
    });
}
