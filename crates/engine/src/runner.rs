//! Plays a match between bots to the end: the loop the simulator, the benchmarks and the
//! tests share.

use crate::{Bot, Game, MatchRng, Observation, Outcome, Replay, Seat};

/// What one bot-played match produced.
#[derive(Clone, Debug)]
pub struct MatchResult<G: Game> {
    pub outcome: Outcome,
    pub moves: usize,
    pub final_state: G,
}

/// Plays `game` to the end with `bots[seat]` choosing for each seat. When several seats must
/// act, the lowest acts first. `rng` drives the bots only; the game draws from its own RNG.
///
/// Returns `None` if the match runs past the game's `step_limit` (a bug in the rules).
pub fn play_out<G: Game>(
    mut game: G,
    bots: &mut [Box<dyn Bot<G> + '_>],
    rng: &mut MatchRng,
    mut record: Option<&mut Replay<G::Config, G::Action>>,
) -> Option<MatchResult<G>> {
    let limit = game.step_limit();
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut moves = 0;
    loop {
        if let Some(outcome) = game.outcome() {
            return Some(MatchResult { outcome, moves, final_state: game });
        }
        if moves >= limit {
            return None;
        }
        let seat: Seat = game.to_act().first()?;
        legal.clear();
        game.legal_actions_into(seat, &mut legal);
        let action = {
            let obs = Observation::new(&game, seat, &legal);
            bots[seat.index()].choose(&obs, rng)
        };
        if let Some(r) = record.as_deref_mut() {
            r.push(seat, action.clone());
        }
        events.clear();
        game.apply_into(seat, action, &mut events).expect("a bot chose an action outside its legal list");
        moves += 1;
    }
}
