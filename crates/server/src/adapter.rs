//! How a game plugs into a room: its packets, its part of `GameDataSync`, its bots. The room
//! actor is generic over this trait, so each room task is compiled for its game (no dynamic
//! dispatch on the hot path); the lobby picks the adapter by name when it spawns a room.

use engine::{Bot, DecisionKind, Game, Seat, Viewer};
use serde::Serialize;
use serde_json::Value;

/// A refusal to turn a packet into an action: a stable code and a readable reason.
#[derive(Debug, Clone, PartialEq)]
pub struct PacketError {
    pub code: &'static str,
    pub reason: String,
}

impl PacketError {
    /// A packet the server cannot read (`bad_packet`).
    pub fn bad(reason: impl Into<String>) -> Self {
        PacketError::new(protocol::codes::BAD_PACKET, reason)
    }

    pub fn new(code: &'static str, reason: impl Into<String>) -> Self {
        PacketError { code, reason: reason.into() }
    }
}

pub trait GameAdapter: Send + Sync + 'static {
    type G: Game;

    const MIN_PLAYERS: usize;
    const MAX_PLAYERS: usize;
    /// Whether the game's events carry turn changes (then the adapter emits `TurnStart` /
    /// `TurnEnd`); otherwise the room derives them from `to_act`.
    const TURN_PACKETS_FROM_EVENTS: bool = false;
    /// Whether `GameDataSync` carries the engine's `view` (games whose adapter already
    /// flattens everything into its own fields can leave it out).
    const SYNC_VIEW: bool = true;

    fn name() -> &'static str {
        <Self::G as Game>::NAME
    }

    /// The match config for `players` seats and the room's game options.
    fn config(players: usize, options: &Value) -> Result<<Self::G as Game>::Config, String>;

    fn bot_names() -> &'static [&'static str];

    /// The seats the house plays, after the seated players' (Wolf Pack's Ace): each one's name
    /// in `seats` (not a valid username, so no person can take it) and its bot's name (for
    /// [`Self::make_bot`]). Default: none.
    fn house_seats(config: &<Self::G as Game>::Config) -> Vec<(&'static str, &'static str)> {
        let _ = config;
        Vec::new()
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Self::G>>>;

    /// The bot that stands in for a disconnected player whose turn timer ran out.
    fn stand_in_bot() -> Box<dyn Bot<Self::G>> {
        Self::make_bot(Self::bot_names().last().expect("at least one bot")).expect("listed bot exists")
    }

    /// How long a connected person may take over a decision of this kind (the engine's
    /// `decision().kind`) before the game's `timeout_action` answers for them (a reaction
    /// window's pass). The room only runs this clock for a seat the game has a
    /// `timeout_action` for. `None`: no limit; only disconnected players are timed (by the
    /// room's turn timer). `options` are the room's `gameOptions` (already accepted by
    /// [`Self::config`]), for games whose clocks are room options.
    fn decision_timeout(
        game: &Self::G,
        seat: Seat,
        kind: DecisionKind,
        options: &Value,
    ) -> Option<std::time::Duration> {
        let _ = (game, seat, kind, options);
        None
    }

    /// Whether `kind` (a packet's `type`) is one of this game's action packets.
    fn is_action_packet(kind: &str) -> bool;

    /// Turns a game packet (its JSON text) from `seat` into an action. `names` are the
    /// usernames by seat.
    fn parse_action(packet: &str, seat: Seat, names: &[String]) -> Result<<Self::G as Game>::Action, PacketError>;

    /// The packets (serialized JSON) that tell `viewer` about `event`, which has already been
    /// redacted for that viewer by `Game::view_event`.
    fn event_packets(event: &<Self::G as Game>::Event, viewer: Viewer, names: &[String], out: &mut Vec<String>);

    /// Whether every viewer sees `event` alike (`view_event` changes nothing for anyone and
    /// `event_packets` does not depend on the viewer): then its packets are built once for
    /// the whole room. The default, `false`, is always correct.
    fn same_for_everyone(event: &<Self::G as Game>::Event) -> bool {
        let _ = event;
        false
    }

    /// The game's fields that every viewer sees alike: those of each seat's entry in `players`
    /// (`seats` holds one empty [`Fields`] per seat) and those of `gameData` itself (`top`).
    /// `game` is `None` in the lobby (then `seats` is empty). Built once per update for the
    /// whole room.
    fn public_data(game: Option<&Self::G>, names: &[String], seats: &mut [Fields], top: &mut Fields);

    /// Fields of `gameData` that only `viewer` sees (a checked shell, "your seat"). Default:
    /// none.
    fn private_data(game: &Self::G, viewer: Viewer, names: &[String], top: &mut Fields) {
        let _ = (game, viewer, names, top);
    }

    /// Whether `seat` is still playing (not eliminated): the room's `inGame`. Default: yes.
    fn in_game(game: &Self::G, seat: Seat) -> bool {
        let _ = (game, seat);
        true
    }

    /// Game fields of a player who is not seated in a running game: in the lobby
    /// (`lobby == true`) or a spectator who joined mid-game.
    fn unseated_player_fields(lobby: bool, out: &mut Fields) {
        let _ = (lobby, out);
    }
}

/// The fields of a JSON object written straight to text (`"key":value,…` without the braces),
/// so game data is serialized once, with no `serde_json::Value` in between; the room splices
/// fragments like this into the packets it sends.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields {
    buf: Vec<u8>,
}

impl Fields {
    pub fn new() -> Self {
        Fields::default()
    }

    /// Adds `"key":value`.
    pub fn put<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> &mut Self {
        self.key(key);
        serde_json::to_writer(&mut self.buf, value).expect("game data serializes");
        self
    }

    /// Adds `"key":json`, where `json` is already serialized JSON.
    pub fn put_raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.buf.extend_from_slice(json.as_bytes());
        self
    }

    /// Appends all of `other`'s fields.
    pub fn extend(&mut self, other: &Fields) -> &mut Self {
        if !other.buf.is_empty() {
            if !self.buf.is_empty() {
                self.buf.push(b',');
            }
            self.buf.extend_from_slice(&other.buf);
        }
        self
    }

    fn key(&mut self, key: &str) {
        if !self.buf.is_empty() {
            self.buf.push(b',');
        }
        serde_json::to_writer(&mut self.buf, key).expect("keys serialize");
        self.buf.push(b':');
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// The fields as text (without braces).
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf).expect("serde_json writes UTF-8")
    }

    /// The object these fields make, read back as a `T` (a `Player` for the packets that
    /// carry one).
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&format!("{{{}}}", self.as_str())).expect("fields make the object they are read as")
    }
}

/// Reads an `Act {"action": …}` packet, the shape every game's actions arrive in; `what` names
/// the action in the error ("an Ivanhoe action").
pub fn parse_act<A: serde::de::DeserializeOwned>(packet: &str, what: &str) -> Result<A, PacketError> {
    let Ok(Value::Object(mut obj)) = serde_json::from_str(packet) else {
        return Err(PacketError::bad("a packet is a JSON object"));
    };
    let action = obj.remove("action").ok_or_else(|| PacketError::bad("an Act packet needs `action`"))?;
    serde_json::from_value(action)
        .map_err(|e| PacketError::bad(format!("not {what} ({e}); see `legal` in GameDataSync for the forms")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    #[test]
    fn fields_write_an_object_body() {
        let mut f = Fields::new();
        assert_eq!(f.as_str(), "");
        f.put("a", &1).put("b\"c", "x\ny").put_raw("raw", "[1,2]");
        assert_eq!(f.as_str(), r#""a":1,"b\"c":"x\ny","raw":[1,2]"#);
        let map: Map<String, Value> = f.parse();
        assert_eq!(map["b\"c"], Value::String("x\ny".into()));
        let mut g = Fields::new();
        g.extend(&Fields::new()).extend(&f).put("z", &None::<u8>);
        assert_eq!(g.as_str(), r#""a":1,"b\"c":"x\ny","raw":[1,2],"z":null"#);
    }
}
