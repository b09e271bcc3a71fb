//! Random Sorcery playouts with the default decks: `cargo bench -p sorcery`.
//! One game = set up from a seed (both decks shuffled), then uniform random legal actions
//! until someone wins (or the configured turn limit draws the game).

use engine::{PlayoutBuffers, random_playout};
use sorcery::{Config, Sorcery};

fn main() {
    divan::main();
}

#[divan::bench]
fn random_game(bencher: divan::Bencher) {
    let config = Config::default();
    let mut buf = PlayoutBuffers::default();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(random_playout::<Sorcery>(&config, seed, &mut buf))
    });
}

/// 1,000 games per sample, reported as games per second (steadier on a busy machine).
#[divan::bench(sample_count = 20)]
fn thousand_random_games(bencher: divan::Bencher) {
    let config = Config::default();
    let mut buf = PlayoutBuffers::default();
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1_000usize)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..1_000 {
            seed += 1;
            moves += random_playout::<Sorcery>(&config, seed, &mut buf);
        }
        divan::black_box(moves)
    });
}
