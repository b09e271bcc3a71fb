//! Match options.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    /// 2 to 8.
    pub players: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config { players: 4 }
    }
}

impl Config {
    pub const MIN_PLAYERS: u8 = 2;
    pub const MAX_PLAYERS: u8 = 8;

    pub fn players(players: u8) -> Self {
        Config { players }
    }
}
