//! No foolish moves: each game's short list of moves a searching level must never choose while
//! a clearly better one is legal (its bot module's `foolish`), checked at the decisions of one
//! seat in games against the heuristic, the seat rotating: wherever a foolish move and a
//! sensible one are both legal there, the `hard` level — as the lobby and the sims build it,
//! with its own iterations — chooses; elsewhere the heuristic plays that seat too (the search is
//! what the test pays for, and only those decisions test it). The test counts the decisions
//! where a foolish move was on offer, so it cannot pass by never meeting one.

use engine::{MatchRng, Observation, Seat, Viewer, derive_seed};
use registry::{Entry, Level};
use search::Foolish;

/// Decisions with a foolish move on offer that a check looks at: past this many it stops.
const ENOUGH: u64 = 60;

/// Plays up to `games` games as the module says, stopping once [`ENOUGH`] decisions have been
/// seen where `hard` had a foolish move and a sensible one to choose from; returns how many it
/// saw and the foolish moves it chose.
fn check<G: Entry>(games: u64, foolish: Foolish<G>) -> (u64, Vec<String>)
where
    G::Action: std::fmt::Debug,
{
    let config = G::default_config();
    let (mut offered, mut chosen) = (0, Vec::new());
    let mut played = 0;
    for g in 0..games {
        if offered >= ENOUGH {
            break;
        }
        played += 1;
        let seed = derive_seed(28, g);
        let mut game = G::new(&config, seed).expect("setup");
        let n = game.num_seats();
        let lineup: Vec<Seat> = Seat::all(n).filter(|s| game.house_bot(*s).is_none()).collect();
        let searcher = lineup[(g as usize) % lineup.len()];
        let mut bots: Vec<_> = Seat::all(n)
            .map(|s| match game.house_bot(s) {
                Some(b) => b,
                None => registry::bot::<G>("heuristic").expect("a heuristic"),
            })
            .collect();
        let mut hard = registry::level_bot::<G>(Level::Hard, G::SEARCH, true);
        let mut rng = MatchRng::new(derive_seed(seed, 1));
        let mut steps = 0;
        while game.outcome().is_none() && steps < game.step_limit() {
            let Some(seat) = game.to_act().first() else { break };
            let legal = game.legal_actions(seat);
            let obs = Observation::new(&game, seat, &legal);
            // The searcher's view where a foolish move and a sensible one are both legal.
            let on_offer = (seat == searcher).then(|| game.view(Viewer::seat(seat))).filter(|view| {
                let bad: Vec<bool> = legal.iter().map(|a| foolish(view, seat, a)).collect();
                bad.iter().any(|b| *b) && bad.iter().any(|b| !*b)
            });
            let action = if let Some(view) = on_offer {
                let action = hard.choose(&obs, &mut rng);
                offered += 1;
                if foolish(&view, seat, &action) {
                    chosen.push(format!("game {g}, move {steps}: {action:?}"));
                }
                action
            } else {
                bots[seat.index()].choose(&obs, &mut rng)
            };
            game.apply(seat, action).expect("a legal action");
            steps += 1;
        }
    }
    eprintln!("{}: {offered} decisions with a foolish move on offer in {played} games", G::NAME);
    (offered, chosen)
}

/// [`check`]'s verdict: at least 20 decisions offered a foolish move, and none was chosen.
fn assert_no_foolish_move<G: Entry>(games: u64, foolish: Foolish<G>)
where
    G::Action: std::fmt::Debug,
{
    let (offered, chosen) = check::<G>(games, foolish);
    assert!(offered >= 20, "only {offered} decisions offered a foolish move");
    assert!(chosen.is_empty(), "{} foolish moves of {offered} offered: {chosen:#?}", chosen.len());
}

/// Sorcery: `hard` never silences (or banishes, or fatigues, or burns) its own minion nor
/// strengthens the opponent's.
#[test]
fn sorcery_hard_makes_no_foolish_move() {
    assert_no_foolish_move::<sorcery::Sorcery>(30, sorcery::bots::foolish);
}

/// Wolf Pack: a `hard` pilot never heals a pilot at full health.
#[test]
fn wolfpack_hard_makes_no_foolish_move() {
    assert_no_foolish_move::<wolfpack::WolfPack>(40, wolfpack::bots::foolish);
}

/// Buckshot: `hard` never shoots itself with a shell it knows is live, nor an opponent with one
/// it knows is a blank.
#[test]
fn buckshot_hard_makes_no_foolish_move() {
    assert_no_foolish_move::<buckshot::Buckshot>(60, buckshot::foolish);
}

/// Ivanhoe: `hard` never plays a Charge, Countercharge, Disgrace or Adapt that takes cards from
/// its own display only.
#[test]
fn ivanhoe_hard_makes_no_foolish_move() {
    assert_no_foolish_move::<ivanhoe::Ivanhoe>(30, ivanhoe::bots::foolish);
}

/// Three Kingdoms: a `hard` Loyalist never attacks (or duels, dismantles, steals from, or
/// Acedias) the Lord, and a `hard` Rebel never saves the dying Lord.
#[test]
fn three_kingdoms_hard_makes_no_foolish_move() {
    assert_no_foolish_move::<three_kingdoms::ThreeKingdoms>(36, three_kingdoms::bots::foolish);
}
