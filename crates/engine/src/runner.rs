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
        // The legal list is built only if the bot reads it (cheap bots may draw from the
        // game's `LegalShape`); `apply_into` below checks the choice either way.
        let mut obs = Observation::lazy(&game, seat, std::mem::take(&mut legal));
        let action = bots[seat.index()].choose(&obs, rng);
        legal = obs.take_buffer();
        if let Some(r) = record.as_deref_mut() {
            r.push(seat, action.clone());
        }
        // Nobody reads a playout's events: a game may skip making them.
        game.apply_quiet(seat, action, &mut events).expect("a bot chose an action outside its legal list");
        moves += 1;
    }
}

/// Reusable buffers for [`random_playout`]: keep one per thread and no game allocates per move.
pub struct PlayoutBuffers<G: Game> {
    pub legal: Vec<G::Action>,
    pub events: Vec<G::Event>,
}

impl<G: Game> Default for PlayoutBuffers<G> {
    fn default() -> Self {
        PlayoutBuffers { legal: Vec::with_capacity(256), events: Vec::with_capacity(64) }
    }
}

/// Plays a new game from `seed` to the end with uniform random legal actions
/// ([`Game::random_legal_action`]: the same draws as picking from the legal list), through the
/// public API only (the benchmarks' unit of work). The bot RNG is derived from the seed.
/// Returns the number of moves.
pub fn random_playout<G: Game>(config: &G::Config, seed: u64, buf: &mut PlayoutBuffers<G>) -> usize {
    let mut game = G::new(config, seed).expect("a valid config");
    let mut rng = MatchRng::new(seed ^ 0xBEEF);
    let mut moves = 0;
    while let Some(seat) = game.to_act().first() {
        let action =
            game.random_legal_action(seat, &mut rng, &mut buf.legal).expect("a seat to act has a legal action");
        game.apply_quiet(seat, action, &mut buf.events).expect("a listed action is legal");
        moves += 1;
    }
    moves
}
