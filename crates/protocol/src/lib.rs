//! # protocol — the packets of a room
//!
//! JSON text frames; `type` names the packet; fields are camelCase. The room-level packets
//! were first designed for Buckshot (they serve every game), plus a few of ours
//! (`Reconnect`, `Joined`, `AddBot`, `RemoveBot`). Each game adds its own action packets and
//! action broadcasts: Buckshot's are in [`buckshot`]; other games use the generic
//! [`ClientMsg::Act`] carrying the game's own action JSON and [`ServerMsg::GameEvent`].
//! `docs/protocol.md` documents every packet with example JSON.

pub mod buckshot;

use serde::{Deserialize, Serialize};

/// Largest text frame the server reads (bigger frames close the connection).
pub const MAX_FRAME: usize = 64 * 1024;
/// Chat messages are 1..=500 characters.
pub const MAX_CHAT: usize = 500;
/// Usernames: 1..=16 of letters, digits, `_`, `-`.
pub const MAX_USERNAME: usize = 16;

/// Room-level packets a client sends. Game action packets are parsed by the room's game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum ClientMsg {
    JoinGame {
        username: String,
    },
    LeaveGame,
    SetHost {
        username: String,
    },
    GameDataRequest,
    StartGame,
    SendNewChatMessage {
        message: String,
    },
    /// Reclaims a seat after a dropped connection, with the token from `Joined`.
    Reconnect {
        token: String,
    },
    /// Host, before the start: add a bot (`bot` names its kind; default: the game's best).
    AddBot {
        #[serde(default)]
        bot: Option<String>,
    },
    /// Host, before the start: remove a bot by its username.
    RemoveBot {
        username: String,
    },
    /// A game action in the game's own JSON (games without dedicated packets).
    Act {
        action: serde_json::Value,
    },
}

impl ClientMsg {
    /// The `type` names of the room-level packets.
    pub const TYPES: &'static [&'static str] = &[
        "JoinGame",
        "LeaveGame",
        "SetHost",
        "GameDataRequest",
        "StartGame",
        "SendNewChatMessage",
        "Reconnect",
        "AddBot",
        "RemoveBot",
        "Act",
    ];
}

/// A player as every client sees them. Game-specific fields (Buckshot's lives, items,
/// isSkipped) are merged in by the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Player {
    pub username: String,
    /// Playing in the current game (alive, seated).
    pub in_game: bool,
    pub is_spectator: bool,
    /// Milliseconds since the Unix epoch, set by the server.
    pub join_time: u64,
    pub is_bot: bool,
    /// Whether a connection is attached (bots: always true).
    pub connected: bool,
    #[serde(flatten)]
    pub game: serde_json::Map<String, serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    pub message: String,
    pub player: Player,
    pub timestamp: u64,
}

/// Room-level packets the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum ServerMsg {
    /// To the joiner only: your username and the secret token that reclaims your seat.
    Joined {
        username: String,
        token: String,
    },
    PlayerJoined {
        player: Player,
    },
    PlayerJoinRejected {
        reason: String,
    },
    HostSet {
        username: Option<String>,
    },
    GameDataSync {
        game_data: serde_json::Value,
    },
    GameStarted,
    TurnStart {
        username: String,
    },
    TurnEnd {
        username: String,
    },
    /// To the sender only: the packet was allowed but failed. `code` is stable.
    ActionFailed {
        reason: String,
        code: String,
    },
    ShowAlert {
        text: String,
    },
    NewChatMessageSent {
        message: String,
        player: Player,
        timestamp: u64,
    },
    PlayerLeft {
        username: String,
    },
    GameEnded {
        winner: Option<String>,
    },
    /// A game event of a game without dedicated packets (its own event JSON, as this client
    /// may see it).
    GameEvent {
        event: serde_json::Value,
    },
}

/// Stable codes of `ActionFailed` (a game's rule errors add their own codes).
pub mod codes {
    pub const BAD_PACKET: &str = "bad_packet";
    pub const BINARY_FRAME: &str = "binary_frame";
    pub const RATE_LIMITED: &str = "rate_limited";
    pub const BAD_USERNAME: &str = "bad_username";
    pub const BAD_MESSAGE: &str = "bad_message";
    pub const NOT_ENOUGH_PLAYERS: &str = "not_enough_players";
    pub const TOO_MANY_PLAYERS: &str = "too_many_players";
    pub const UNKNOWN_PLAYER: &str = "unknown_player";
    pub const UNKNOWN_BOT: &str = "unknown_bot";
}

/// Checks a username: 1 to 16 letters, digits, `_` or `-`.
pub fn check_username(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a username needs at least one character".into());
    }
    if name.chars().count() > MAX_USERNAME {
        return Err(format!("a username has at most {MAX_USERNAME} characters"));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err("a username may only use letters, digits, _ and -".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_packets_parse_as_documented() {
        let m: ClientMsg = serde_json::from_str(r#"{"type":"JoinGame","username":"alice"}"#).unwrap();
        assert_eq!(m, ClientMsg::JoinGame { username: "alice".into() });
        let m: ClientMsg = serde_json::from_str(r#"{"type":"AddBot"}"#).unwrap();
        assert_eq!(m, ClientMsg::AddBot { bot: None });
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"JoinGame","username":5}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"Nope"}"#).is_err());
    }

    #[test]
    fn server_packets_serialize_camel_case() {
        let s = serde_json::to_string(&ServerMsg::ActionFailed { reason: "x".into(), code: "c".into() }).unwrap();
        assert_eq!(s, r#"{"type":"ActionFailed","reason":"x","code":"c"}"#);
        let s = serde_json::to_string(&ServerMsg::GameDataSync { game_data: serde_json::json!({}) }).unwrap();
        assert_eq!(s, r#"{"type":"GameDataSync","gameData":{}}"#);
    }

    #[test]
    fn usernames() {
        assert!(check_username("alice_01-x").is_ok());
        for bad in ["", "a b", "<script>", "seventeen_chars_x", "émile"] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
    }
}
