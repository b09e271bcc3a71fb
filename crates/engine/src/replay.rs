//! Replays: a match is its configuration, its seed and the list of `(seat, action)` applied.

use crate::{Game, RuleError, Seat, SetupError};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One applied action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move<A> {
    pub seat: Seat,
    pub action: A,
}

/// Everything needed to rebuild a match exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "C: Serialize, A: Serialize", deserialize = "C: Deserialize<'de>, A: Deserialize<'de>"))]
pub struct Replay<C, A> {
    pub config: C,
    pub seed: u64,
    pub moves: Vec<Move<A>>,
}

#[derive(Debug, Error)]
pub enum ReplayError {
    #[error("the match cannot be set up: {0}")]
    Setup(#[from] SetupError),
    #[error("move {index} was refused: {error}")]
    Refused { index: usize, error: RuleError },
}

impl<C, A> Replay<C, A> {
    pub fn new(config: C, seed: u64) -> Self {
        Replay { config, seed, moves: Vec::new() }
    }

    pub fn push(&mut self, seat: Seat, action: A) {
        self.moves.push(Move { seat, action });
    }
}

/// Rebuilds a match from its replay, returning the final state and every event in order.
pub fn run_replay<G: Game>(
    replay: &Replay<G::Config, G::Action>,
) -> Result<(G, Vec<G::Event>), ReplayError> {
    let mut game = G::new(&replay.config, replay.seed)?;
    let mut events = Vec::new();
    for (index, m) in replay.moves.iter().enumerate() {
        game.apply_into(m.seat, m.action.clone(), &mut events)
            .map_err(|error| ReplayError::Refused { index, error })?;
    }
    Ok((game, events))
}
