//! The engine's random-play invariant suite over every pilot count: at least 100,000 games per
//! run, every step of the first games deep-checked (legal ⇔ is_legal, refusals change nothing,
//! serde round trips, redaction under determinization), replays checked.

use engine::testing::{SuiteOptions, bot_ignores_hidden_information, random_play_suite};
use wolfpack::{Config, WolfPack};

#[test]
fn random_play_all_pilot_counts() {
    let mut total = 0;
    for pilots in 1..=5u8 {
        // Fewer of the longer fights (a 5-pilot random fight is about 350 steps, a 1-pilot one 80).
        let games = [30_000, 25_000, 20_000, 15_000, 10_000][usize::from(pilots) - 1];
        let opts = SuiteOptions { games, base_seed: u64::from(pilots), deep_games: 15, replay_every: 100 };
        let report = random_play_suite::<WolfPack>(&Config::pilots(pilots), &opts);
        assert_eq!(report.games, games);
        // Unconfirmed choices were played and checked to show nothing to the other seats.
        assert!(report.secret_moves > 20, "only {} secret moves checked", report.secret_moves);
        let ace = report.wins[usize::from(pilots)];
        let pilots_won = report.wins[0];
        // The pilots win or lose together: every game has exactly one winning side.
        assert_eq!(ace + pilots_won, games, "{:?}", report.wins);
        assert!(report.wins[..usize::from(pilots)].iter().all(|&w| w == pilots_won), "{:?}", report.wins);
        eprintln!(
            "{pilots} pilots: {games} games, {} steps, longest {}, pilots won {pilots_won}",
            report.steps, report.longest
        );
        total += report.games;
    }
    assert!(total >= 100_000, "only {total} games");
}

#[test]
fn bots_ignore_hidden_information() {
    for name in wolfpack::BOTS.iter().filter(|n| **n != "ace") {
        for pilots in [1, 3, 5] {
            let checked = bot_ignores_hidden_information::<WolfPack>(&Config::pilots(pilots), 20, &|| {
                wolfpack::bot(name).unwrap()
            });
            assert!(checked > 200, "{name}: only {checked} decisions checked");
        }
    }
}

/// The bots' fights (not only uniform random ones) keep every invariant at every step and end.
#[test]
fn bot_fights_keep_the_invariants() {
    use engine::{Game, MatchRng, Observation, derive_seed};
    use wolfpack::AceTier;
    let mut fights = 0;
    for pilots in 1..=5u8 {
        for tier in [AceTier::Rookie, AceTier::Veteran, AceTier::Ace] {
            for bot in wolfpack::PILOT_BOTS {
                let n = if tier == AceTier::Ace { 2 } else { 40 };
                for i in 0..n {
                    let seed = derive_seed(u64::from(pilots) * 31, i);
                    let mut g = WolfPack::new(&Config::pilots(pilots).with_tier(tier), seed).unwrap();
                    let mut bots = wolfpack::lineup(&g, bot).unwrap();
                    let mut rng = MatchRng::new(seed);
                    let mut steps = 0;
                    while let Some(seat) = g.to_act().first() {
                        let legal = g.legal_actions(seat);
                        let a = bots[seat.index()].choose(&Observation::new(&g, seat, &legal), &mut rng);
                        g.apply(seat, a).unwrap();
                        g.check_invariants().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                        steps += 1;
                        assert!(steps < g.step_limit());
                    }
                    assert!(g.winner().is_some());
                    fights += 1;
                }
            }
        }
    }
    assert_eq!(fights, 5 * 2 * (40 + 40 + 2));
}
