//! How a game plugs into a room: its packets, its part of `GameDataSync`, its bots. The room
//! actor is generic over this trait, so each room task is compiled for its game (no dynamic
//! dispatch on the hot path); the lobby picks the adapter by name when it spawns a room.
//!
//! An adapter renders from a [`Table`]: one viewer's `Game::view` and the match's public facts.
//! It never gets the game's state, so "only `view` leaves the engine" holds by the types.

use engine::{Bot, Decision, DecisionKind, Game, Seat, Viewer};
use serde::Serialize;
use serde_json::Value;

/// A card a seat may pass on as a whole (see [`GameAdapter::pass_scope`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassScope {
    /// Tells this card's windows from every other card's in the match.
    pub key: u64,
    /// The card is the seat's own, and answering now could only cancel it.
    pub own: bool,
}

/// How fast a room plays (see [`GameAdapter::pace`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// The range (ms after a decision opens) of the moment the room passes for a connected
    /// person who is not asked (drawn at random per decision).
    pub quiet_pass_ms: (u32, u32),
    /// At most this long a bot waits in a reaction window (`None`: the room's `botDelayMs`).
    /// The room never waits less than the slowest seated bot may think there, so a bot
    /// holding an answer and one without still answer at the same moment.
    pub window_bot_ms: Option<u64>,
}

impl Pace {
    pub const NORMAL: Pace = Pace { quiet_pass_ms: (1_000, 4_000), window_bot_ms: None };
}

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

/// The level a stand-in bot plays at, and the level a host's "Add bot" picks by default.
pub const STAND_IN_LEVEL: &str = "medium";

/// A running match as an adapter sees it: the match as `viewer` may see it (`Game::view`) and
/// the facts every member knows. For what everyone sees alike (`public_data`, `in_game`) the
/// viewer is `Viewer::Spectator`; for `private_data`, the viewer of the sync being built.
pub struct Table<'a, G: Game> {
    /// `Game::view(viewer)`: the only game state an adapter gets.
    pub view: &'a G::View,
    /// Whom `view` is for.
    pub viewer: Viewer,
    /// The usernames by seat (house seats included), as in `GameDataSync.seats`.
    pub names: &'a [String],
    /// What the engine waits for now (`Game::decision`): the seats, the kind, the serial.
    pub decision: Decision,
}

pub trait GameAdapter: Send + Sync + 'static {
    /// The game; its registry entry gives the difficulty levels ([`Self::bot`]).
    type G: Game + registry::Entry;

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

    /// A bot by name, as rooms ask for them: a difficulty level (`easy`, `medium`, `hard`,
    /// `expert`, the same for every game) or one of [`Self::make_bot`]'s names.
    fn bot(name: &str) -> Option<Box<dyn Bot<Self::G>>> {
        match name.parse::<search::Level>() {
            Ok(_) => registry::bot::<Self::G>(name).ok(),
            Err(_) => Self::make_bot(name),
        }
    }

    /// The bot that stands in for a disconnected player whose turn timer ran out: the
    /// `medium` level (the game's heuristic).
    fn stand_in_bot() -> Box<dyn Bot<Self::G>> {
        Self::bot(STAND_IN_LEVEL).expect("every game has the levels")
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

    /// Whether a connected person at `seat` has nothing to decide: a window they can only pass
    /// (Three Kingdoms asks every seat holding a card whether it plays a Negate, so that being
    /// asked reveals nothing). The room then does not wait on them: it answers the game's
    /// `timeout_action` for them at a random moment early in the clock (as a quick person
    /// would), while every page goes on showing the same clock as for a seat that could
    /// answer, so how long the window stays open does not tell the table what they hold
    /// (`docs/protocol.md`, "Clocks"). Default: never.
    fn only_passes(game: &Self::G, seat: Seat) -> bool {
        let _ = (game, seat);
        false
    }

    /// Whether games of this kind have cards a seat may pass on as a whole ([`Self::pass_scope`]):
    /// their seated viewers' `gameData` then carries `ownCards` and `autoPass`.
    const PASS_SCOPES: bool = false;

    /// The card whose window `seat` is asked in now, when it is one the seat may pass on as a
    /// whole (Three Kingdoms: a trick's Negate windows, every target and every Negate on
    /// it): `Act` with `forCard` passes the rest of it, and a window on the seat's own card
    /// ([`PassScope::own`]) is passed for it unless it asked for those (`SetPrompts`). The
    /// room passes such windows as it passes [`Self::only_passes`] ones: at the same random
    /// early moment, with the same clock shown, so nobody can tell them apart. Default: none.
    fn pass_scope(game: &Self::G, seat: Seat) -> Option<PassScope> {
        let _ = (game, seat);
        None
    }

    /// The room's pace from its `gameOptions` (already accepted by [`Self::config`]): when
    /// the room passes for a person who is not asked, and how long bots wait in windows.
    fn pace(options: &Value) -> Pace {
        let _ = options;
        Pace::NORMAL
    }

    /// Turns the `action` of an `Act {action}` packet from `seat` into an action. Every game
    /// takes any entry of its `GameDataSync.legal` here (the engine's action JSON). `names`
    /// are the usernames by seat. Default: the action's JSON read as the game's `Action`
    /// (a `bad_packet` refusal naming the game otherwise); override to refuse more (a seat
    /// that does not exist) with better codes.
    fn parse_act(action: Value, seat: Seat, names: &[String]) -> Result<<Self::G as Game>::Action, PacketError> {
        let _ = (seat, names);
        action_from_json(action, &format!("a {} action", Self::name()))
    }

    /// Whether `kind` (a packet's `type`) is one of this game's own action packets, besides
    /// `Act` (Buckshot's packets of the original protocol). Default: none.
    fn is_action_packet(kind: &str) -> bool {
        let _ = kind;
        false
    }

    /// Turns one of the game's own action packets (its JSON text; see
    /// [`Self::is_action_packet`]) from `seat` into an action. Default: refused (a game with
    /// no packets of its own is never asked).
    fn parse_action(packet: &str, seat: Seat, names: &[String]) -> Result<<Self::G as Game>::Action, PacketError> {
        let _ = (packet, seat, names);
        Err(PacketError::bad("this game takes its actions as Act {action}"))
    }

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
    /// `table` is the spectator's [`Table`] of the running match, `None` in the lobby (then
    /// `seats` is empty). Built once per update for the whole room.
    fn public_data(table: Option<&Table<'_, Self::G>>, seats: &mut [Fields], top: &mut Fields);

    /// Fields of `gameData` that only `table.viewer` sees (a checked shell, "your seat"),
    /// from that viewer's [`Table`]. Default: none.
    fn private_data(table: &Table<'_, Self::G>, top: &mut Fields) {
        let _ = (table, top);
    }

    /// Whether `seat` is still playing (not eliminated): the room's `inGame`, read from the
    /// spectator's [`Table`]. Default: yes.
    fn in_game(table: &Table<'_, Self::G>, seat: Seat) -> bool {
        let _ = (table, seat);
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

    /// Empty, with room for `bytes` of fields (a sync is rebuilt after every move: growing
    /// its buffers step by step was a tenth of the room's time).
    pub fn with_capacity(bytes: usize) -> Self {
        Fields { buf: Vec::with_capacity(bytes) }
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
        // Keys are the protocol's field names, which need no escaping: written as they are
        // (serde_json's escaping loop was a sixth of a sync's instructions). Any other key
        // still goes through it.
        // (A fold without an early exit: keys are short, and a branch per byte cost more.)
        let plain = key.bytes().fold(true, |ok, b| ok & (b >= 0x20) & (b != b'"') & (b != b'\\'));
        if plain {
            self.buf.push(b'"');
            self.buf.extend_from_slice(key.as_bytes());
            self.buf.extend_from_slice(b"\":");
        } else {
            serde_json::to_writer(&mut self.buf, key).expect("keys serialize");
            self.buf.push(b':');
        }
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

/// Refuses an action naming a seat the match does not have (`unknown_player`), before it
/// reaches the rules. `names` are the usernames by seat.
pub fn check_seat(named: Option<Seat>, names: &[String]) -> Result<(), PacketError> {
    match named {
        Some(s) if s.index() >= names.len() => Err(PacketError::new(
            protocol::codes::UNKNOWN_PLAYER,
            format!("there is no seat {} in this game (seats 0 to {})", s.0, names.len().saturating_sub(1)),
        )),
        _ => Ok(()),
    }
}

/// Reads the `action` of an `Act {"action": …}` packet, the shape every game's actions arrive
/// in, as the game's action; `what` names the action in the error ("an Ivanhoe action").
pub fn action_from_json<A: serde::de::DeserializeOwned>(action: Value, what: &str) -> Result<A, PacketError> {
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

    #[test]
    fn keys_are_written_as_serde_json_writes_them() {
        // Plain keys take the short way; any that needs escaping must come out the same.
        for key in ["gameData", "", "é ü", "b\"c", "back\\slash", "tab\there", "nul\u{0}", "del\u{7f}"] {
            let mut f = Fields::new();
            f.put(key, &1);
            assert_eq!(f.as_str(), format!("{}:1", serde_json::to_string(key).unwrap()), "key {key:?}");
        }
    }
}
