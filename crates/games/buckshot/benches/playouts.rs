//! Random Buckshot playouts through the engine's public API: `cargo bench -p buckshot`.
//! One game = set up from a seed, then uniform random legal actions until someone wins.

use buckshot::{Buckshot, Config};
use engine::{Game, MatchRng};

fn main() {
    divan::main();
}

/// Plays one game with reusable buffers, as the simulator does; returns the move count.
fn playout(seed: u64, config: &Config, legal: &mut Vec<buckshot::Action>, events: &mut Vec<buckshot::Event>) -> usize {
    let mut game = Buckshot::new(config, seed).expect("valid config");
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

#[divan::bench(args = [2, 4, 8], sample_count = 500, sample_size = 20)]
fn random_game(bencher: divan::Bencher, players: u8) {
    let config = Config::players(players);
    let mut legal = Vec::with_capacity(64);
    let mut events = Vec::with_capacity(16);
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(playout(seed, &config, &mut legal, &mut events))
    });
}
