//! Search iterations per second on one core: `cargo bench -p search`. One sample is a
//! 1,000-iteration random-playout search from a mid-game position (the whole cycle: determinize,
//! select, expand, play out, back up); divan reports it as items (iterations) per second.

use divan::counter::ItemsCount;
use engine::{Game, MatchRng, Observation, Seat, derive_seed};
use search::{Budget, SearchBot};

const ITERATIONS: u64 = 1_000;

fn main() {
    divan::main();
}

/// Positions a few dozen random moves into games of `G`, where the seat to act has a choice.
fn positions<G: Game>(config: &G::Config, count: u64) -> Vec<(G, Seat)> {
    let mut rng = MatchRng::new(7);
    let mut out = Vec::new();
    let mut i = 0;
    while (out.len() as u64) < count {
        let mut game = G::new(config, derive_seed(7, i)).expect("setup");
        i += 1;
        let stop = 5 + rng.index(40);
        for step in 0.. {
            let Some(seat) = game.to_act().first() else { break };
            let legal = game.legal_actions(seat);
            if step >= stop && legal.len() > 1 {
                out.push((game.clone(), seat));
                break;
            }
            game.apply(seat, rng.pick(&legal).clone()).expect("legal");
        }
    }
    out
}

fn bench_game<G: Game>(bencher: divan::Bencher, config: &G::Config) {
    let positions = positions::<G>(config, 16);
    let mut bot = SearchBot::<G>::new(Budget::iterations(ITERATIONS));
    let mut rng = MatchRng::new(1);
    let mut k = 0;
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        let (game, seat) = &positions[k % positions.len()];
        k += 1;
        let legal = game.legal_actions(*seat);
        divan::black_box(bot.search(&Observation::new(game, *seat, &legal), &mut rng))
    });
}

#[divan::bench(args = [2, 4, 8], sample_count = 30, sample_size = 1)]
fn buckshot(bencher: divan::Bencher, players: u8) {
    bench_game::<buckshot::Buckshot>(bencher, &buckshot::Config::players(players));
}

#[divan::bench(args = [2, 3, 5], sample_count = 30, sample_size = 1)]
fn ivanhoe(bencher: divan::Bencher, players: u8) {
    bench_game::<ivanhoe::Ivanhoe>(bencher, &ivanhoe::Config { players });
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn sorcery(bencher: divan::Bencher) {
    bench_game::<sorcery::Sorcery>(bencher, &sorcery::Config::default());
}
