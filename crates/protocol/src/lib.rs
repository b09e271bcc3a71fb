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
    /// A person hands their seat to a bot of `level` that plays it for them, a move at
    /// random instead with probability `noise` (only on a server started with
    /// `--allow-autopilot`: simulated people of known strength, `cardtable population`).
    Autopilot {
        level: String,
        #[serde(default)]
        noise: f64,
    },
    /// A game action in the game's own JSON (games without dedicated packets). `serial` is
    /// the `serial` of the `GameDataSync` the action was chosen from: an action for a table
    /// that has moved on since (a double click, an old `legal` entry) is refused with
    /// [`codes::STALE_ACTION`]. Without it the action is judged against the table as it is
    /// now (older clients).
    ///
    /// `forCard: true` (with the game's Pass) passes this window and every later window of
    /// the same card for the sender (Three Kingdoms: the Negate windows of one trick, all its
    /// targets and the Negates played on it); refused with [`codes::NOT_OFFERED`] where the
    /// game has no such card open.
    Act {
        action: serde_json::Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        serial: Option<u64>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        for_card: bool,
    },
    /// A seated player's prompt setting for the match: `ownCards: true` asks them in the
    /// windows on their own cards too (Three Kingdoms: whether to Negate their own trick,
    /// e.g. a Barbarians on a friend); by default the room passes there for them.
    SetPrompts {
        own_cards: bool,
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
        "Autopilot",
        "Act",
        "SetPrompts",
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
    /// The player's rating in the room's game (issue 43): a person's with an identity (a
    /// member or a guest), or a bot level's fixed one from the ladder. Absent for anonymous
    /// players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// A person's rating is provisional (its deviation is above 110): shown "1523?".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
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
    /// To the sender of a `JoinGame` or `Reconnect` that did not make it a member. `code` is
    /// stable (see [`codes`]).
    PlayerJoinRejected {
        reason: String,
        code: String,
    },
    HostSet {
        username: Option<String>,
    },
    GameDataSync {
        game_data: serde_json::Value,
    },
    /// A match starts. `match_number`: its number in the room (0 for the room's first match,
    /// then 1, 2, …; the tables' `matchNumber`): a client tells a new match from the same one
    /// restored after a failover (whose `serial` also counts from its first move) by it.
    GameStarted {
        #[serde(default)]
        match_number: u64,
    },
    TurnStart {
        username: String,
    },
    TurnEnd {
        username: String,
    },
    /// To the sender only: the packet was allowed but failed. `code` is stable. `serial`: the
    /// `serial` of the refused action packet (`Act`, or a game's own action packet) when it
    /// carried one, so a client with several moves in flight knows which one this answers;
    /// absent for every other packet (and left out of the JSON, as older servers did).
    ActionFailed {
        reason: String,
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        serial: Option<u64>,
    },
    /// To the mover only, once its action is stored (before anyone hears of the move): the
    /// `serial` its packet carried (absent when it carried none) and `index`, the move's place
    /// in the match's log (the table after it has `serial` at least `index + 1`). Optional to
    /// read: the tables say the same, later.
    Acted {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        serial: Option<u64>,
        index: u64,
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
        /// The recorded match's id (`GET /api/matches/{id}?room=…`); absent from older servers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        /// Its number in the room (as `GameStarted`'s).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        match_number: Option<u64>,
    },
    /// A game event of a game without dedicated packets (its own event JSON, as this client
    /// may see it).
    GameEvent {
        event: serde_json::Value,
    },
    /// To everyone in the room: a moderator closed it, with `message` for its players. A
    /// running game ends as abandoned; the socket closes next (1001) and the room is gone.
    RoomClosed {
        message: String,
    },
    /// To a banned person's socket (opened while banned, or open when the ban came): `until`
    /// is when the ban ends (ms since the epoch), absent for good. The socket closes next
    /// ([`CLOSE_BANNED`]).
    Banned {
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until: Option<u64>,
    },
}

/// WebSocket close code after [`ServerMsg::Banned`]: the person is banned (the close reason
/// says until when).
pub const CLOSE_BANNED: u16 = 4003;

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
    // `PlayerJoinRejected` (with `BAD_USERNAME`).
    /// Another member has this username (ignoring case).
    pub const USERNAME_TAKEN: &str = "username_taken";
    /// The username is that of a seat in the running game whose player left: only its token
    /// could have reclaimed it, and now nobody can until the game ends.
    pub const SEAT_IN_PLAY: &str = "seat_in_play";
    /// This connection already is a member (as the reason says); leave first.
    pub const ALREADY_JOINED: &str = "already_joined";
    /// The token is not (or no longer) that of a member.
    pub const UNKNOWN_TOKEN: &str = "unknown_token";
    /// The room has as many members as it takes.
    pub const ROOM_FULL: &str = "room_full";
    // Refused actions and room packets (`ActionFailed`).
    /// The action answers a table that has moved on since (its `serial` is not the room's
    /// now, or this seat has moved since): it was not applied.
    pub const STALE_ACTION: &str = "stale_action";
    /// The packet needs a member of the room: join first.
    pub const NOT_JOINED: &str = "not_joined";
    /// The member has no seat in the running game (a watcher, or someone who left it).
    pub const NOT_PLAYING: &str = "not_playing";
    /// No game is running in the room.
    pub const NO_GAME: &str = "no_game";
    /// Only the host may send this packet.
    pub const NOT_HOST: &str = "not_host";
    /// Not while a game runs (bots are added and removed in the lobby).
    pub const GAME_RUNNING: &str = "game_running";
    /// A quick-play table before its first match: the server seats it (no bots added or
    /// removed, no early start).
    pub const QUICK_TABLE: &str = "quick_table";
    /// `Autopilot` on a server not started with `--allow-autopilot`, or for an unknown level.
    pub const NO_AUTOPILOT: &str = "no_autopilot";
    /// The person is banned (`Banned`, and the HTTP refusals `{"error":"banned","until":…}`).
    pub const BANNED: &str = "banned";
    /// `Act` with `forCard`: the sender is not in a window of a card it could pass on as a
    /// whole, or the action is not the pass.
    pub const NOT_OFFERED: &str = "not_offered";
}

/// Whether `c` is a directional formatting character that opens or closes a span:
/// embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
fn bidi_control(c: char) -> Option<Bidi> {
    Some(match c {
        '\u{202A}'..='\u{202E}' if c != '\u{202C}' => Bidi::OpenEmbedding,
        '\u{202C}' => Bidi::CloseEmbedding,
        '\u{2066}'..='\u{2068}' => Bidi::OpenIsolate,
        '\u{2069}' => Bidi::CloseIsolate,
        _ => return None,
    })
}

enum Bidi {
    OpenEmbedding,
    CloseEmbedding,
    OpenIsolate,
    CloseIsolate,
}

/// Whether every directional embedding, override and isolate in `s` is closed in `s`, in
/// order (a PDF closes the latest embedding, a PDI the latest isolate, neither across the
/// other). An unbalanced one would reverse or reorder the text shown after the message.
pub fn bidi_balanced(s: &str) -> bool {
    let mut open: Vec<bool> = Vec::new(); // true: an isolate
    for c in s.chars() {
        match bidi_control(c) {
            Some(Bidi::OpenEmbedding) => open.push(false),
            Some(Bidi::OpenIsolate) => open.push(true),
            Some(Bidi::CloseEmbedding) if open.last() == Some(&false) => {
                open.pop();
            }
            Some(Bidi::CloseIsolate) if open.last() == Some(&true) => {
                open.pop();
            }
            Some(_) => return false,
            None => {}
        }
    }
    open.is_empty()
}

/// Checks a chat message: 1 to 500 characters, no control characters (NUL, escapes, line
/// breaks, the line and paragraph separators U+2028 and U+2029), every directional
/// embedding, override and isolate (U+202A-U+202E, U+2066-U+2069) closed within the message
/// ([`bidi_balanced`]), and something to see — not only spaces and invisible marks
/// (byte-order marks, zero-width spaces and joiners, direction marks). A message that fails
/// is refused whole, never altered.
pub fn check_chat(message: &str) -> Result<(), String> {
    let len = message.chars().count();
    if len == 0 || len > MAX_CHAT {
        return Err(format!("a chat message has 1 to {MAX_CHAT} characters"));
    }
    if message.chars().any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')) {
        return Err("a chat message may not contain control characters or line breaks".into());
    }
    if !bidi_balanced(message) {
        return Err(
            "a chat message may not leave a direction override or isolate (U+202A-U+202E, U+2066-U+2069) open or close one it did not open".into(),
        );
    }
    if message.chars().all(|c| c.is_whitespace() || is_invisible(c)) {
        return Err("a chat message needs something visible in it".into());
    }
    Ok(())
}

/// Characters that draw nothing on their own (format characters, fillers, selectors).
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1D159}' | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
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
        let s = serde_json::to_string(&ServerMsg::ActionFailed { reason: "x".into(), code: "c".into(), serial: None })
            .unwrap();
        assert_eq!(s, r#"{"type":"ActionFailed","reason":"x","code":"c"}"#);
        let s =
            serde_json::to_string(&ServerMsg::ActionFailed { reason: "x".into(), code: "c".into(), serial: Some(7) })
                .unwrap();
        assert_eq!(s, r#"{"type":"ActionFailed","reason":"x","code":"c","serial":7}"#);
        // An older server's refusal (no serial) still reads.
        let old: ServerMsg = serde_json::from_str(r#"{"type":"ActionFailed","reason":"x","code":"c"}"#).unwrap();
        assert_eq!(old, ServerMsg::ActionFailed { reason: "x".into(), code: "c".into(), serial: None });
        let s = serde_json::to_string(&ServerMsg::GameDataSync { game_data: serde_json::json!({}) }).unwrap();
        assert_eq!(s, r#"{"type":"GameDataSync","gameData":{}}"#);
        let s = serde_json::to_string(&ServerMsg::RoomClosed { message: "bye".into() }).unwrap();
        assert_eq!(s, r#"{"type":"RoomClosed","message":"bye"}"#);
        let s = serde_json::to_string(&ServerMsg::Banned { reason: "r".into(), until: Some(5) }).unwrap();
        assert_eq!(s, r#"{"type":"Banned","reason":"r","until":5}"#);
        let s = serde_json::to_string(&ServerMsg::Banned { reason: "r".into(), until: None }).unwrap();
        assert_eq!(s, r#"{"type":"Banned","reason":"r"}"#);
        let s = serde_json::to_string(&ServerMsg::GameStarted { match_number: 2 }).unwrap();
        assert_eq!(s, r#"{"type":"GameStarted","matchNumber":2}"#);
        let s = serde_json::to_string(&ServerMsg::Acted { serial: Some(12), index: 13 }).unwrap();
        assert_eq!(s, r#"{"type":"Acted","serial":12,"index":13}"#);
        let s = serde_json::to_string(&ServerMsg::Acted { serial: None, index: 0 }).unwrap();
        assert_eq!(s, r#"{"type":"Acted","index":0}"#);
        let s = serde_json::to_string(&ServerMsg::GameEnded {
            winner: Some("bob".into()),
            match_id: Some(41),
            match_number: Some(2),
        })
        .unwrap();
        assert_eq!(s, r#"{"type":"GameEnded","winner":"bob","matchId":41,"matchNumber":2}"#);
        // An older server's packets still read.
        let old: ServerMsg = serde_json::from_str(r#"{"type":"GameStarted"}"#).unwrap();
        assert_eq!(old, ServerMsg::GameStarted { match_number: 0 });
        let old: ServerMsg = serde_json::from_str(r#"{"type":"GameEnded","winner":null}"#).unwrap();
        assert_eq!(old, ServerMsg::GameEnded { winner: None, match_id: None, match_number: None });
    }

    #[test]
    fn chat_messages() {
        for good in ["hi", "naïve café 👋", "a\u{200b}b", &"x".repeat(MAX_CHAT)] {
            assert!(check_chat(good).is_ok(), "{good:?}");
        }
        for bad in ["", "   ", "\u{0}", "a\nb", "\u{feff}", "\u{200b} \u{200d}", "\u{1b}[1m", &"x".repeat(MAX_CHAT + 1)]
        {
            assert!(check_chat(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn chat_direction_controls_must_balance_and_separators_are_refused() {
        for bad in [
            "\u{202E}gnp.exe",
            "a\u{202A}b",
            "x\u{202C}",
            "\u{2066}hi",
            "hi\u{2069}",
            "\u{2067}a\u{202C}",
            "\u{202B}a\u{2069}",
            "a\u{2028}b",
            "a\u{2029}b",
            "\u{2066}\u{202A}x\u{2069}\u{202C}",
        ] {
            assert!(check_chat(bad).is_err(), "{bad:?}");
        }
        for good in ["\u{2067}שלום\u{2069} ok", "\u{202B}a\u{2066}b\u{2069}\u{202C}", "x\u{200F}y"] {
            assert!(check_chat(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn acts_carry_an_optional_serial() {
        let m: ClientMsg = serde_json::from_str(r#"{"type":"Act","action":{"type":"Pass"},"serial":7}"#).unwrap();
        assert_eq!(m, ClientMsg::Act { action: serde_json::json!({"type":"Pass"}), serial: Some(7), for_card: false });
        let m: ClientMsg = serde_json::from_str(r#"{"type":"Act","action":1}"#).unwrap();
        assert_eq!(m, ClientMsg::Act { action: serde_json::json!(1), serial: None, for_card: false });
        let m: ClientMsg = serde_json::from_str(r#"{"type":"Act","action":{"type":"Pass"},"forCard":true}"#).unwrap();
        assert_eq!(m, ClientMsg::Act { action: serde_json::json!({"type":"Pass"}), serial: None, for_card: true });
        let m: ClientMsg = serde_json::from_str(r#"{"type":"SetPrompts","ownCards":true}"#).unwrap();
        assert_eq!(m, ClientMsg::SetPrompts { own_cards: true });
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"Act","action":1,"serial":"x"}"#).is_err());
    }

    #[test]
    fn usernames() {
        assert!(check_username("alice_01-x").is_ok());
        for bad in ["", "a b", "<script>", "seventeen_chars_x", "émile"] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
    }
}
