//! Buckshot's action packets (client → server) and action broadcasts (server → client), as
//! `docs/protocol.md` names them. Players are named by username on the wire.

use buckshot::{Item, Shell};
use serde::{Deserialize, Serialize};

/// A Buckshot action packet from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum BuckshotAction {
    ShootPlayer {
        username: String,
    },
    UseSkipItem {
        target: String,
    },
    UseDoubleDamageItem,
    UseChamberCheckItem,
    UseRebalancerItem {
        kind: Shell,
    },
    UseQuickshotItem,
    /// Take `item` from `target` and use it at once; `itemTarget` / `kind` are the stolen
    /// item's own arguments (Skip's target, Rebalancer's kind).
    UseStealItem {
        target: String,
        item: Item,
        #[serde(default)]
        item_target: Option<String>,
        #[serde(default)]
        kind: Option<Shell>,
    },
    UseAddLifeItem,
    UseShootAirItem,
}

impl BuckshotAction {
    pub const TYPES: &'static [&'static str] = &[
        "ShootPlayer",
        "UseSkipItem",
        "UseDoubleDamageItem",
        "UseChamberCheckItem",
        "UseRebalancerItem",
        "UseQuickshotItem",
        "UseStealItem",
        "UseAddLifeItem",
        "UseShootAirItem",
    ];
}

/// The public broadcast of each Buckshot action and game event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum BuckshotBroadcast {
    RoundStarted {
        round: u32,
        live: u8,
        blank: u8,
    },
    ShootPlayer {
        username: String,
        by: String,
        shell: Shell,
        damage: u8,
    },
    UseSkipItem {
        target: String,
        by: String,
    },
    UseDoubleDamageItem {
        by: String,
    },
    /// Everyone learns who checked; the shell goes to the user alone as `UseChamberCheckResult`.
    UseChamberCheckItem {
        by: String,
    },
    UseChamberCheckResult {
        shell: Shell,
    },
    UseRebalancerItem {
        by: String,
        kind: Shell,
        added: u8,
        live: u8,
        blank: u8,
    },
    UseQuickshotItem {
        by: String,
    },
    UseStealItem {
        by: String,
        target: String,
        item: Item,
    },
    UseAddLifeItem {
        by: String,
        lives: u8,
    },
    UseShootAirItem {
        by: String,
        shell: Shell,
    },
    TurnSkipped {
        username: String,
    },
    PlayerEliminated {
        username: String,
        by: Option<String>,
    },
}
