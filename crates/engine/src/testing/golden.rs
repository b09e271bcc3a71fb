//! Golden playthroughs: a seeded match between bots written out as JSON (every action with the
//! decision it answered, every event and what each viewer was told of it, and every viewer's
//! view at intervals), for a game's `tests/golden.rs` to pin with an insta snapshot.

use crate::{Bot, Game, MatchRng, Observation, Viewer};
use serde_json::{Map, Value, json};

/// A recorded match: `log` in order, and the final views by viewer.
#[derive(Clone, Debug)]
pub struct Playthrough {
    pub log: Vec<Value>,
    pub final_views: Value,
}

/// Plays `game` to its end (or `max_steps`) with `bots[seat]` choosing for each seat (the
/// lowest seat of `to_act` moves first), drawing bot randomness from `rng`. Every
/// `views_every` steps (0: never) the log gets every viewer's view.
pub fn playthrough<G: Game>(
    mut game: G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut MatchRng,
    views_every: usize,
    max_steps: usize,
) -> Playthrough {
    let mut log = Vec::new();
    for e in game.start_events() {
        log.push(event_entry(&game, &e));
    }
    let mut steps = 0;
    while let Some(seat) = game.to_act().first() {
        if steps == max_steps {
            break;
        }
        if views_every > 0 && steps % views_every == 0 {
            log.push(json!({ "step": steps, "views": views(&game) }));
        }
        let legal = game.legal_actions(seat);
        let action = bots[seat.index()].choose(&Observation::new(&game, seat, &legal), rng);
        log.push(json!({ "seat": seat, "action": action, "decision": game.decision() }));
        let events = game.apply(seat, action).expect("a bot chose a legal action");
        for e in &events {
            log.push(event_entry(&game, e));
        }
        steps += 1;
    }
    log.push(json!({ "step": steps, "outcome": game.outcome() }));
    Playthrough { log, final_views: views(&game) }
}

/// Every viewer's view, keyed `seat 0`, `seat 1`, ..., `spectator`.
pub fn views<G: Game>(game: &G) -> Value {
    let mut m = Map::new();
    for v in Viewer::all(game.num_seats()) {
        m.insert(viewer_key(v), serde_json::to_value(game.view(v)).expect("a view serializes"));
    }
    Value::Object(m)
}

/// An event, plus what each viewer who is not told all of it sees instead (`null`: nothing).
fn event_entry<G: Game>(game: &G, e: &G::Event) -> Value {
    let mut entry = json!({ "event": e });
    let mut redacted = Map::new();
    for v in Viewer::all(game.num_seats()) {
        let seen = game.view_event(e, v);
        if seen.as_ref() != Some(e) {
            redacted.insert(viewer_key(v), serde_json::to_value(seen).expect("an event serializes"));
        }
    }
    if !redacted.is_empty() {
        entry["seen"] = Value::Object(redacted);
    }
    entry
}

fn viewer_key(v: Viewer) -> String {
    match v.as_seat() {
        Some(s) => s.to_string(),
        None => "spectator".into(),
    }
}
