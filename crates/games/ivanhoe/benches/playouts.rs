//! Random Ivanhoe playouts through the engine's public API: `cargo bench -p ivanhoe`.
//! One game = set up from a seed, then uniform random legal actions (Ivanhoe windows
//! included) until someone wins.

use engine::{Game, MatchRng, PlayoutBuffers, random_playout};
use ivanhoe::{Config, Ivanhoe};

fn main() {
    divan::main();
}

#[divan::bench(args = [3, 5], sample_count = 200, sample_size = 20)]
fn random_game(bencher: divan::Bencher, players: u8) {
    let config = Config { players };
    let mut buf = PlayoutBuffers::default();
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        divan::black_box(random_playout::<Ivanhoe>(&config, seed, &mut buf))
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
