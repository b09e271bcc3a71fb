//! Random Buckshot playouts through the engine's public API: `cargo bench -p buckshot`.
//! One game = set up from a seed, then uniform random legal actions until someone wins.

use buckshot::{Buckshot, Config};
use engine::{PlayoutBuffers, random_playout};

fn main() {
    divan::main();
}

#[divan::bench(args = [2, 4, 8], sample_count = 500, sample_size = 20)]
fn random_game(bencher: divan::Bencher, players: u8) {
    let config = Config::players(players);
    let mut buf = PlayoutBuffers::default();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(random_playout::<Buckshot>(&config, seed, &mut buf))
    });
}
