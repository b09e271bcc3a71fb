//! How a game plugs into a room: its packets, its part of `GameDataSync`, its bots. The room
//! actor is generic over this trait, so each room task is compiled for its game (no dynamic
//! dispatch on the hot path); the lobby picks the adapter by name when it spawns a room.

use engine::{Bot, Game, Seat, Viewer};
use serde_json::{Map, Value};

/// A refusal to turn a packet into an action: a stable code and a readable reason.
#[derive(Debug, Clone, PartialEq)]
pub struct PacketError {
    pub code: &'static str,
    pub reason: String,
}

impl PacketError {
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

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Self::G>>>;

    /// The bot that stands in for a disconnected player whose turn timer ran out.
    fn stand_in_bot() -> Box<dyn Bot<Self::G>> {
        Self::make_bot(Self::bot_names().last().expect("at least one bot")).expect("listed bot exists")
    }

    /// How long a connected person may take over a decision before the game's
    /// `timeout_action` answers for them (a reaction window's pass). `None`: no limit; only
    /// disconnected players are timed (by the room's turn timer).
    fn decision_timeout(game: &Self::G, seat: Seat) -> Option<std::time::Duration> {
        let _ = (game, seat);
        None
    }

    /// Whether `kind` (a packet's `type`) is one of this game's action packets.
    fn is_action_packet(kind: &str) -> bool;

    /// Turns a game packet from `seat` into an action. `names` are the usernames by seat.
    fn parse_action(packet: Value, seat: Seat, names: &[String]) -> Result<<Self::G as Game>::Action, PacketError>;

    /// The packets (serialized JSON) that tell `viewer` about `event`, which has already been
    /// redacted for that viewer by `Game::view_event`.
    fn event_packets(event: &<Self::G as Game>::Event, viewer: Viewer, names: &[String], out: &mut Vec<String>);

    /// Game fields for each seat's entry of `players` (by seat), and for `gameData` itself.
    /// `game` is `None` in the lobby.
    fn game_data(
        game: Option<&Self::G>,
        viewer: Viewer,
        names: &[String],
    ) -> (Vec<Map<String, Value>>, Map<String, Value>);

    /// Game fields of a player who is not seated in a running game: in the lobby
    /// (`lobby == true`) or a spectator who joined mid-game.
    fn unseated_player_fields(lobby: bool) -> Map<String, Value> {
        let _ = lobby;
        Map::new()
    }
}
