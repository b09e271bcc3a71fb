//! The generic random-play invariant suite. Every game's `tests/invariants.rs` calls
//! [`random_play_suite`]; it panics with the seed and step of the first broken promise.
//!
//! Checked on every step of every game:
//! - no panic; the game ends within its `step_limit`;
//! - while running, every seat in `to_act` has a legal action; at the end, nobody has one and
//!   `outcome` is `Some`;
//! - `decision().seats == to_act()`, and a decision that keeps its serial keeps its kind and
//!   gains no seat;
//! - the game's own `check_invariants` (card conservation and the like);
//! - `random_legal_action` draws what a pick from the legal list draws, with the same draws.
//!
//! Checked on every step of the first `deep_games` games (they are slower):
//! - `legal_actions ⇔ is_legal` over `candidate_actions` for every seat, and a refused action
//!   leaves the state untouched and emits no event;
//! - serde round trip of the state, of every view and of every event as each viewer sees it;
//! - redaction: `determinize(viewer)` never changes `view(viewer)` nor the viewer's legal
//!   actions, for every seat and the spectator;
//! - a secret move ([`Game::is_secret`]) changes no other viewer's view, no other seat's
//!   legal actions, not the decision, and no other viewer is told any of its events.
//!
//! Checked for every `replay_every`-th game: replaying `seed + moves` rebuilds the same state
//! and the same events.
//!
//! Also here: [`playthrough`], the recorder behind every game's golden playthrough, and
//! [`scenario`], the runner behind every game's table-driven rule scenarios.

mod golden;
pub mod scenario;

pub use golden::{Playthrough, playthrough, views};

use crate::{Bot, Game, MatchRng, Observation, Replay, Seat, Viewer, derive_seed, run_replay};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

#[derive(Clone, Debug)]
pub struct SuiteOptions {
    pub games: u64,
    pub base_seed: u64,
    pub deep_games: u64,
    pub replay_every: u64,
}

impl Default for SuiteOptions {
    fn default() -> Self {
        SuiteOptions { games: 1_000, base_seed: 0, deep_games: 100, replay_every: 10 }
    }
}

/// Totals from a suite run, for sanity checks in the calling test.
#[derive(Clone, Debug, Default)]
pub struct SuiteReport {
    pub games: u64,
    pub steps: u64,
    pub longest: usize,
    pub wins: Vec<u64>,
    /// Secret moves played in the deep-checked games (each checked to show nothing to anyone
    /// else).
    pub secret_moves: u64,
}

/// Plays `opts.games` random games of `G` from `config` and checks every invariant above.
pub fn random_play_suite<G: Game>(config: &G::Config, opts: &SuiteOptions) -> SuiteReport {
    let mut report = SuiteReport::default();
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut events = Vec::new();
    for i in 0..opts.games {
        let seed = derive_seed(opts.base_seed, i);
        let deep = i < opts.deep_games;
        let mut game = G::new(config, seed).unwrap_or_else(|e| panic!("seed {seed}: setup failed: {e}"));
        if report.wins.len() < game.num_seats() {
            report.wins.resize(game.num_seats(), 0);
        }
        let mut rng = MatchRng::new(seed ^ 0x5EED);
        let mut replay = Replay::new(config.clone(), seed);
        let mut all_events = Vec::new();
        let limit = game.step_limit();
        let mut step = 0usize;
        let mut previous: Option<crate::Decision> = None;
        loop {
            let ctx = || format!("seed {seed}, step {step}");
            if let Err(e) = game.check_invariants() {
                panic!("{}: invariant broken: {e}\n{game:?}", ctx());
            }
            if deep {
                deep_checks(&game, &mut rng, &ctx);
            }
            let to_act = game.to_act();
            let decision = game.decision();
            assert_eq!(decision.seats, to_act, "{}: decision() disagrees with to_act()", ctx());
            // The same decision (same serial) may lose seats as they answer, never gain one nor
            // change kind: a new wait needs a new serial, or a server would keep its old clock.
            if let Some(p) = previous.filter(|p| p.serial == decision.serial) {
                assert!(
                    p.kind == decision.kind && decision.seats.bits() & !p.seats.bits() == 0,
                    "{}: {decision:?} kept the serial of {p:?}",
                    ctx()
                );
            }
            previous = Some(decision);
            if let Some(outcome) = game.outcome() {
                assert!(to_act.is_empty(), "{}: game over but {to_act:?} must act", ctx());
                for s in Seat::all(game.num_seats()) {
                    assert!(game.legal_actions(s).is_empty(), "{}: game over but {s} has actions", ctx());
                }
                for w in outcome.winners.iter() {
                    report.wins[w.index()] += 1;
                }
                break;
            }
            assert!(!to_act.is_empty(), "{}: nobody to act and no outcome", ctx());
            assert!(step < limit, "{}: still running after {limit} steps", ctx());
            for s in to_act.iter() {
                legal.clear();
                game.legal_actions_into(s, &mut legal);
                assert!(!legal.is_empty(), "{}: {s} must act but has no legal action", ctx());
            }
            let seat = to_act.nth(rng.index(to_act.len())).expect("non-empty");
            legal.clear();
            game.legal_actions_into(seat, &mut legal);
            let mut picked_rng = rng.clone();
            let picked = game.random_legal_action(seat, &mut picked_rng, &mut scratch);
            let action = rng.pick(&legal).clone();
            assert!(
                picked.as_ref() == Some(&action) && picked_rng == rng,
                "{}: random_legal_action gave {picked:?}, a pick from the legal list {action:?} (or drew differently)",
                ctx()
            );
            replay.push(seat, action.clone());
            // The playouts' quiet move (no events read) leaves the same state.
            let quiet = deep.then(|| {
                let mut copy = game.clone();
                let mut scratch = Vec::new();
                if let Err(e) = copy.apply_quiet(seat, action.clone(), &mut scratch) {
                    panic!("{}: legal action {action:?} by {seat} refused when quiet: {e}", ctx());
                }
                copy
            });
            // What everyone but the mover sees before a secret move: it must stay the same.
            let others_before = (deep && game.is_secret(seat, &action)).then(|| others_see(&game, seat));
            events.clear();
            if let Err(e) = game.apply_into(seat, action.clone(), &mut events) {
                panic!("{}: legal action {action:?} by {seat} refused: {e}", ctx());
            }
            if let Some(before) = others_before {
                report.secret_moves += 1;
                assert!(
                    before == others_see(&game, seat),
                    "{}: the secret move {action:?} by {seat} changed what another viewer sees",
                    ctx()
                );
                for e in &events {
                    for v in Viewer::all(game.num_seats()).filter(|v| !v.is(seat)) {
                        let told = game.view_event(e, v);
                        assert!(told.is_none(), "{}: the secret move {action:?} by {seat} told {v:?} {told:?}", ctx());
                    }
                }
            }
            if let Some(quiet) = quiet {
                assert!(quiet == game, "{}: {action:?} by {seat} applied quietly left another state", ctx());
            }
            if deep {
                for e in &events {
                    for v in Viewer::all(game.num_seats()) {
                        if let Some(seen) = game.view_event(e, v) {
                            round_trip(&seen, &format!("{}: event {e:?} seen by {v:?}", ctx()));
                        }
                    }
                }
            }
            if i % opts.replay_every == 0 {
                all_events.append(&mut events);
            }
            step += 1;
        }
        report.games += 1;
        report.steps += step as u64;
        report.longest = report.longest.max(step);
        if i % opts.replay_every == 0 {
            let (again, again_events) =
                run_replay::<G>(&replay).unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e}"));
            assert!(again == game, "seed {seed}: replay reached a different state");
            assert!(again_events == all_events, "seed {seed}: replay produced different events");
        }
    }
    report
}

/// What every viewer but `mover` sees of `game`, each with what they may do: the views of the
/// other seats and the spectator, the other seats' legal actions, and the decision.
#[allow(clippy::type_complexity)]
fn others_see<G: Game>(game: &G, mover: Seat) -> (Vec<(G::View, Vec<G::Action>)>, crate::Decision) {
    let seen = Viewer::all(game.num_seats())
        .filter(|v| !v.is(mover))
        .map(|v| (game.view(v), v.as_seat().map(|s| game.legal_actions(s)).unwrap_or_default()))
        .collect();
    (seen, game.decision())
}

fn deep_checks<G: Game>(game: &G, rng: &mut MatchRng, ctx: &dyn Fn() -> String) {
    // legal ⇔ is_legal, and refusals change nothing.
    for seat in Seat::all(game.num_seats()) {
        let legal = game.legal_actions(seat);
        let mut candidates = game.candidate_actions(seat);
        candidates.extend(legal.iter().cloned());
        for a in &candidates {
            let listed = legal.contains(a);
            let mut copy = game.clone();
            let mut out = Vec::new();
            let accepted = copy.apply_into(seat, a.clone(), &mut out).is_ok();
            assert_eq!(listed, accepted, "{}: {seat} {a:?}: listed={listed} but apply accepted={accepted}", ctx());
            assert_eq!(listed, game.is_legal(seat, a), "{}: is_legal disagrees for {a:?}", ctx());
            if !accepted {
                assert!(copy == *game, "{}: refused {a:?} changed the state", ctx());
                assert!(out.is_empty(), "{}: refused {a:?} emitted events", ctx());
                let mut quiet = game.clone();
                assert!(
                    quiet.apply_quiet(seat, a.clone(), &mut out).is_err(),
                    "{}: {a:?} refused but accepted quietly",
                    ctx()
                );
                assert!(quiet == *game, "{}: refused {a:?} changed the state when quiet", ctx());
            }
        }
    }
    // serde round trips.
    round_trip(game, &format!("{}: state", ctx()));
    for v in Viewer::all(game.num_seats()) {
        let view = game.view(v);
        round_trip(&view, &format!("{}: view of {v:?}", ctx()));
        // Redaction: resampling what v cannot see changes nothing v sees.
        for _ in 0..2 {
            let d = game.determinize(v, rng);
            if let Err(e) = d.check_invariants() {
                panic!("{}: determinized for {v:?} breaks an invariant: {e}", ctx());
            }
            assert!(d.view(v) == view, "{}: determinizing for {v:?} changed its view", ctx());
            assert!(d.to_act() == game.to_act(), "{}: determinizing changed who acts", ctx());
            assert!(d.decision() == game.decision(), "{}: determinizing changed the decision", ctx());
            if let Some(s) = v.as_seat() {
                assert!(
                    d.legal_actions(s) == game.legal_actions(s),
                    "{}: determinizing changed {s}'s legal actions",
                    ctx()
                );
            }
        }
    }
}

/// Serializes to JSON and back, and checks the value survived.
pub fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, what: &str) {
    let json = serde_json::to_string(value).unwrap_or_else(|e| panic!("{what}: serialize: {e}"));
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{what}: deserialize: {e}\n{json}"));
    assert!(back == *value, "{what}: serde round trip changed the value\n{json}");
}

/// Checks that a bot decides from what its seat may see only: at each of its decisions in
/// `games` random games, the same bot (fresh from `make`) with the same RNG must choose the same
/// action when everything hidden from its seat is resampled.
pub fn bot_ignores_hidden_information<G: Game>(
    config: &G::Config,
    games: u64,
    make: &dyn Fn() -> Box<dyn Bot<G>>,
) -> u64 {
    let mut checked = 0;
    for i in 0..games {
        let seed = derive_seed(0xB07, i);
        let mut game = G::new(config, seed).expect("setup");
        let mut rng = MatchRng::new(seed);
        let mut steps = 0;
        while game.outcome().is_none() && steps < game.step_limit() {
            let seat = game.to_act().first().expect("someone acts");
            let legal = game.legal_actions(seat);
            let mut bot_rng = rng.fork();
            let chosen = make().choose(&Observation::new(&game, seat, &legal), &mut bot_rng.clone());
            let other = game.determinize(Viewer::seat(seat), &mut rng);
            let other_legal = other.legal_actions(seat);
            let again = make().choose(&Observation::new(&other, seat, &other_legal), &mut bot_rng);
            assert_eq!(chosen, again, "seed {seed}, step {steps}: the bot's choice depends on hidden information");
            checked += 1;
            game.apply(seat, chosen).expect("bot chose a legal action");
            steps += 1;
        }
    }
    checked
}
