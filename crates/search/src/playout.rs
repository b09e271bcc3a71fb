//! How a search finishes a game from a new leaf.

use engine::{Bot, Game};
use std::fmt;
use std::sync::Arc;

/// The playout policy. A bot policy is a factory, because each search thread needs its own bot
/// (`Bot::choose` takes `&mut self`).
pub enum Playout<G: Game> {
    /// Uniform over the legal actions: the fastest.
    Random,
    /// A bot (typically the game's heuristic) picks every move: slower, often stronger.
    Bot(Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync>),
}

impl<G: Game> Playout<G> {
    pub fn bot(make: impl Fn() -> Box<dyn Bot<G>> + Send + Sync + 'static) -> Self {
        Playout::Bot(Arc::new(make))
    }

    /// One policy instance for one worker: `None` for random play.
    pub(crate) fn instance(&self) -> Option<Box<dyn Bot<G>>> {
        match self {
            Playout::Random => None,
            Playout::Bot(make) => Some(make()),
        }
    }
}

impl<G: Game> Clone for Playout<G> {
    fn clone(&self) -> Self {
        match self {
            Playout::Random => Playout::Random,
            Playout::Bot(make) => Playout::Bot(Arc::clone(make)),
        }
    }
}

impl<G: Game> fmt::Debug for Playout<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Playout::Random => f.write_str("Random"),
            Playout::Bot(_) => f.write_str("Bot"),
        }
    }
}
