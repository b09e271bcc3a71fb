//! Replays: a match is its configuration, its seed and the list of `(seat, action)` applied.

use crate::{Game, RuleError, Seat, SetupError};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One entry of a match's log: an action a seat took, or a seat leaving the match (which the
/// rules handle through [`Game::leave`], not as a move anyone chooses).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Move<A> {
    Act { seat: Seat, action: A },
    Leave { seat: Seat },
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
        self.moves.push(Move::Act { seat, action });
    }
}

/// Rebuilds a match from its replay, returning the final state and every event in order.
pub fn run_replay<G: Game>(replay: &Replay<G::Config, G::Action>) -> Result<(G, Vec<G::Event>), ReplayError> {
    let mut game = G::new(&replay.config, replay.seed)?;
    let mut events = Vec::new();
    for (index, m) in replay.moves.iter().enumerate() {
        match m {
            Move::Act { seat, action } => game
                .apply_into(*seat, action.clone(), &mut events)
                .map_err(|error| ReplayError::Refused { index, error })?,
            Move::Leave { seat } => game.leave(*seat, &mut events),
        }
    }
    Ok((game, events))
}
