//! How a match is set up: the decks, testing mode, and the limits simulations need.

use crate::cards::{CardId, DEFAULT_DECK};
use serde::{Deserialize, Serialize};

/// How a match is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Each player's deck, first entry on top (the order of a deck file).
    pub decks: [Vec<CardId>; 2],
    /// The spec's `-testing` mode: no shuffle, `draw` and `discard`, and playing a card or
    /// using an ability without enough magic sets magic to 0 instead of being refused.
    pub testing: bool,
    /// The match is drawn when this turn would start (an addition for bots and simulations,
    /// which must end; the terminal game uses `None`).
    pub turn_limit: Option<u32>,
    /// The match is drawn at the end of a turn when neither player can ever damage the
    /// other again (no minion in play, none in any hand or deck, no Raise Dead).
    pub draw_when_stuck: bool,
}

impl Default for Config {
    /// The handout's default deck for both players, shuffled, with the simulation limits.
    fn default() -> Self {
        Config {
            decks: [DEFAULT_DECK.to_vec(), DEFAULT_DECK.to_vec()],
            testing: false,
            turn_limit: Some(300),
            draw_when_stuck: true,
        }
    }
}
