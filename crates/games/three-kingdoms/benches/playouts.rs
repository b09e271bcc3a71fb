//! Random Three Kingdoms playouts through the engine's public API:
//! `cargo bench -p three-kingdoms`. One game = setup from a seed (general choices included),
//! then uniform random legal actions (every window and Negate poll) until the game ends.

use engine::{PlayoutBuffers, random_playout};
use three_kingdoms::{Config, ThreeKingdoms};

fn main() {
    divan::main();
}

#[divan::bench(args = [4, 5, 8, 10], sample_count = 50, sample_size = 20)]
fn random_game(bencher: divan::Bencher, players: u8) {
    let config = Config::players(players);
    let mut buf = PlayoutBuffers::default();
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        divan::black_box(random_playout::<ThreeKingdoms>(&config, seed, &mut buf))
    });
}
