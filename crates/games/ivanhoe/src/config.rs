//! The setup of a match: how many play.

use serde::{Deserialize, Serialize};

/// Setup of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// 2 to 5.
    pub players: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config { players: 3 }
    }
}
