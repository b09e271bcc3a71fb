//! The room's options, set at creation (`POST /api/rooms`) and checked again on restore.

use crate::Error;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Room options, set at creation (`POST /api/rooms`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RoomOptions {
    /// The first match's seed (later matches derive theirs from it). Default: random. It
    /// stays on the server: anyone who knew it could replay the deal and see every hidden
    /// card, so it is never sent to a client (see [`RoomOptions::public`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// A position to start every match from, in the game's setup notation
    /// ([`crate::setup_rooms`]); never sent to a client, as the seed is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// How long a dropped player keeps their seat during a game.
    pub hold_seconds: u64,
    /// How long a disconnected player's turn waits before a bot plays it.
    pub turn_seconds: u64,
    /// How long bots wait before acting, so people can follow.
    pub bot_delay_ms: u64,
    /// How many members beyond the game's seats may watch: a join past it is refused
    /// (`room_full`).
    pub max_spectators: u64,
    /// Game-specific options, passed to the game's adapter.
    pub game_options: Value,
    /// Not listed in `GET /api/rooms`: only those given the link find it.
    pub private: bool,
    /// Rated: each match's end moves the ratings of the identities that played it (issue
    /// 43; see `room::rated`). Default casual. A room with a chosen seed or a set-up position
    /// is never rated (its deal can be known in advance).
    pub rated: bool,
    /// A table quick play seated (`crate::quickplay`): set by the server, never by
    /// `POST /api/rooms`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quickplay: Option<QuickTable>,
}

/// Who quick play seated at a room: the people whose seats are reserved (only they may sit
/// down before its first match; anyone else who joins watches), and the bots that fill the
/// rest. The first match starts by itself once every one of them has joined, or after
/// `join_seconds` with those who came (bots of the same level take the seats of those who did
/// not).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QuickTable {
    pub people: Vec<QuickSeat>,
    /// The bots' levels, one a seat.
    pub bots: Vec<String>,
    pub join_seconds: u64,
}

/// A seat quick play reserved for an identity (a person or a guest).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QuickSeat {
    pub account: i64,
    pub name: String,
}

impl Default for RoomOptions {
    fn default() -> Self {
        RoomOptions {
            seed: None,
            setup: None,
            hold_seconds: 60,
            turn_seconds: 30,
            bot_delay_ms: 700,
            max_spectators: 64,
            game_options: Value::Null,
            private: false,
            quickplay: None,
            rated: false,
        }
    }
}

/// The ranges of the room options (inclusive), checked at creation and again on restore.
pub const MAX_HOLD_SECONDS: u64 = 86_400;
pub const MAX_TURN_SECONDS: u64 = 86_400;
pub const MAX_BOT_DELAY_MS: u64 = 60_000;
pub const MAX_SPECTATORS: u64 = 256;
/// `gameOptions` serialized: every sync carries the options, so they stay small.
pub const MAX_GAME_OPTIONS_BYTES: usize = 4 * 1024;

impl RoomOptions {
    /// The options as clients see them: all but the seed (and a quick-play table's account
    /// ids).
    pub fn public(&self) -> RoomOptions {
        RoomOptions { seed: None, setup: None, quickplay: None, ..self.clone() }
    }

    /// Whether every option is in its range; if not, a reason naming the option.
    pub fn check(&self) -> Result<(), Error> {
        for (name, value, max) in [
            ("holdSeconds", self.hold_seconds, MAX_HOLD_SECONDS),
            ("turnSeconds", self.turn_seconds, MAX_TURN_SECONDS),
            ("botDelayMs", self.bot_delay_ms, MAX_BOT_DELAY_MS),
            ("maxSpectators", self.max_spectators, MAX_SPECTATORS),
        ] {
            if value > max {
                return Err(Error::BadOptions(format!("{name} is at most {max}, not {value}")));
            }
        }
        if self.rated && (self.seed.is_some() || self.setup.is_some()) {
            return Err(Error::BadOptions(
                "a room with a chosen seed or a set-up position is never rated (its deal can be known in advance): \
                 leave `rated` out"
                    .into(),
            ));
        }
        let size = serde_json::to_string(&self.game_options).map_or(usize::MAX, |s| s.len());
        if size > MAX_GAME_OPTIONS_BYTES {
            return Err(Error::BadOptions(format!(
                "gameOptions take at most {MAX_GAME_OPTIONS_BYTES} bytes of JSON, not {size}"
            )));
        }
        Ok(())
    }
}
