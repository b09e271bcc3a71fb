//! Search iterations per second on one core, per game, through [`search::bench_search`]:
//! `cargo run --release -p search --example speed [SECONDS]`.

use search::{BenchOptions, BenchReport, bench_search};

fn main() {
    let seconds = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let opts = BenchOptions { seconds, ..BenchOptions::default() };
    let show = |r: Result<BenchReport, String>| {
        let r = r.expect("bench");
        println!(
            "{:<9} {} players: {:>9.0} iterations/s ({} iterations over {} positions in {:.2} s)",
            r.game, r.players, r.iterations_per_sec, r.iterations, r.positions, r.seconds
        );
    };
    for players in [2, 4, 8] {
        show(bench_search::<buckshot::Buckshot>(&buckshot::Config::players(players), &opts));
    }
    for players in [2, 3, 5] {
        show(bench_search::<ivanhoe::Ivanhoe>(&ivanhoe::Config { players }, &opts));
    }
    show(bench_search::<sorcery::Sorcery>(&sorcery::Config::default(), &opts));
}
