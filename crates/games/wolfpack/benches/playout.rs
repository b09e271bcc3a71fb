//! Wolf Pack playouts: `cargo bench -p wolfpack`. Five pilots against the rookie Ace.
//!
//! - `random_game`: the engine's `random_playout` (uniform random legal actions for every
//!   seat, the Ace included: the seed's random Ace, each drawn by Wolf Pack's
//!   `Game::random_legal_action` and checked by `apply`), one game per iteration.
//! - `random_game_fast`: the same fights (move for move, event for event) through
//!   `wolfpack::fast::random_playout`, which applies each drawn action without checking it
//!   again.
//! - `thousand_bot_games`: the `random` pilot bots and the `rookie` Ace through
//!   `engine::play_out`, reported as games per second.

use engine::{Game, MatchRng, PlayoutBuffers, play_out, random_playout};
use wolfpack::{Config, WolfPack};

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 200, sample_size = 20)]
fn random_game(bencher: divan::Bencher) {
    let config = Config::pilots(5);
    let mut buf = PlayoutBuffers::default();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(random_playout::<WolfPack>(&config, seed, &mut buf))
    });
}

#[divan::bench(sample_count = 200, sample_size = 20)]
fn random_game_fast(bencher: divan::Bencher) {
    let config = Config::pilots(5);
    let mut events = Vec::with_capacity(64);
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(wolfpack::fast::random_playout(&config, seed, &mut events))
    });
}

#[divan::bench(sample_count = 20)]
fn thousand_bot_games(bencher: divan::Bencher) {
    let config = Config::pilots(5);
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1_000usize)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..1_000 {
            seed += 1;
            let game = WolfPack::new(&config, seed).expect("valid");
            let mut bots = wolfpack::lineup(&game, "random").expect("known bot");
            let mut rng = MatchRng::new(seed);
            moves += play_out(game, &mut bots, &mut rng, None).expect("ends").moves;
        }
        divan::black_box(moves)
    });
}
