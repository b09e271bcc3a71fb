//! The room's live state types: its members, their connections, and the match being played.
//! Plain data; the room's behaviour (in the sibling modules) works on them.

use super::handle::{ConnId, Outbound, Person};
use engine::{Bot, Game, Move, Seat, SeatSet, Viewer};
use tokio::sync::mpsc;
use tokio::time::Instant;

pub(super) struct Member {
    pub(super) username: String,
    pub(super) token: String,
    pub(super) join_time: u64,
    /// `Some(kind)` for a bot.
    pub(super) bot: Option<String>,
    /// Joined while a game ran (or over the player limit): watches until the next game.
    pub(super) spectator: bool,
    pub(super) conn: Option<ConnId>,
    /// When the connection dropped (during a game; in the lobby a drop is a leave).
    pub(super) dropped_at: Option<Instant>,
    /// The account of a signed-in person (`None`: a bot, or a client without a session).
    pub(super) account: Option<i64>,
    /// Asked in the windows on their own cards too (`SetPrompts`); by default the room passes
    /// there for them (see `GameAdapter::pass_scope`).
    pub(super) own_cards: bool,
}

pub(super) struct Conn {
    pub(super) tx: mpsc::Sender<Outbound>,
    pub(super) member: Option<String>,
    /// What this connection may see, kept up to date by `Room::refresh_viewers` (a sync or
    /// an event reads it for every connection).
    pub(super) viewer: Viewer,
    /// Who is signed in on this connection, if anyone.
    pub(super) person: Option<Person>,
    /// The room has read a packet from it. Until then it is sent nothing: the answer to its
    /// first packet (`Joined` for a `Reconnect`, a table for a `GameDataRequest`) is the first
    /// thing it hears, never tables of the moves made while its packet was on its way.
    pub(super) heard: bool,
}

pub(super) struct Match<G: Game> {
    pub(super) game: G,
    pub(super) seed: u64,
    pub(super) config: G::Config,
    /// Usernames by seat (they stay even after a player leaves).
    pub(super) seats: Vec<String>,
    /// The account of each seat's person, by seat (`None`: a bot or an anonymous player): the
    /// match's record names them.
    pub(super) accounts: Vec<Option<i64>>,
    pub(super) bot_kinds: Vec<Option<String>>,
    pub(super) bots: Vec<Option<Box<dyn Bot<G>>>>,
    pub(super) moves: Vec<Move<G::Action>>,
    /// Who made the moves of `moves` that their seat's player did not choose: (index, by),
    /// in order. Stored with each such entry (`"by"`, see [`By`]); read back on a restore.
    pub(super) room_moves: Vec<(usize, By)>,
    /// The engine's decision serial after each number of moves: `serials[i]` is the one the
    /// table showed with `i` moves played (so `serials.len() == moves.len() + 1`). Rebuilt by
    /// replaying the log, like the game. It tells whether an action sent with an older table's
    /// `serial` still answers the decision open now ([`Match::check_serial`]).
    pub(super) serials: Vec<u32>,
    /// For each move of `moves`, the one seat that saw it if it was a secret move
    /// (`Game::is_secret`: Wolf Pack's unconfirmed choices), `None` if everyone did. A table's
    /// `serial` counts the moves its viewer saw ([`Match::serial`]), so the others' tables do
    /// not change at all when a seat changes a secret choice. Rebuilt by replaying the log.
    pub(super) secret: Vec<Option<Seat>>,
    pub(super) started_at: u64,
    /// Seats a stand-in bot plays until their person comes back (their turn timer ran out
    /// while they were disconnected, or they left the room).
    pub(super) stand_in: SeatSet,
    /// By seat: the card (`PassScope::key`) whose windows its person passed on as a whole
    /// (`Act` with `forCard`); the room passes that card's later windows for them.
    pub(super) passed_cards: Vec<Option<u64>>,
}

/// Who made a move of a seat: its player (a person, or the bot seated there), or the room
/// for the seat. Stored as `"by"` on a log entry (a move's JSON in the `moves` table and in a
/// recorded match's `log`) when it is not the player, so logs written before it read as the
/// players' moves; a replay ignores it (the rules apply the move the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum By {
    /// The seat's player: a person's `Act`, or the seat's own bot.
    Player,
    /// A connected person's decision clock ran out (the game's default answer, e.g. Wolf
    /// Pack's confirm clock proceeding), or the quiet pass for a person who could only pass.
    Clock,
    /// The stand-in bot of an absent person.
    StandIn,
}

impl By {
    /// The `"by"` value stored, `None` for the player (not stored).
    pub(crate) fn stored(self) -> Option<&'static str> {
        match self {
            By::Player => None,
            By::Clock => Some("clock"),
            By::StandIn => Some("standin"),
        }
    }

    /// Reads a stored entry's `"by"` (absent: the player; an unknown value, from a newer
    /// server: the room, as a clock's).
    pub(crate) fn of_entry(entry: &str) -> By {
        #[derive(serde::Deserialize)]
        struct Entry<'a> {
            #[serde(default, borrow)]
            by: Option<std::borrow::Cow<'a, str>>,
        }
        match serde_json::from_str::<Entry<'_>>(entry).ok().and_then(|e| e.by) {
            None => By::Player,
            Some(b) if b == "standin" => By::StandIn,
            Some(_) => By::Clock,
        }
    }

    /// A move's log entry: its JSON, with `"by"` when the room made it.
    pub(crate) fn entry<A: serde::Serialize>(self, m: &Move<A>) -> String {
        match self.stored() {
            None => serde_json::to_string(m).expect("moves serialize"),
            Some(by) => {
                let mut v = serde_json::to_value(m).expect("moves serialize");
                v["by"] = serde_json::Value::from(by);
                v.to_string()
            }
        }
    }
}

impl<G: Game> Match<G> {
    /// The match's log as stored with its record: its moves, each marked as it was stored.
    pub(super) fn log_json(&self) -> String {
        let mut marks = self.room_moves.iter().peekable();
        let entries: Vec<String> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let by = marks.next_if(|(j, _)| *j == i).map_or(By::Player, |(_, b)| *b);
                by.entry(m)
            })
            .collect();
        format!("[{}]", entries.join(","))
    }

    /// Notes the decision open after a move was added to `moves`, and who saw the move: `secret`
    /// is the mover's seat for a secret move (`Game::is_secret`, asked before it was applied).
    pub(super) fn note_move(&mut self, secret: Option<Seat>) {
        debug_assert_eq!(self.serials.len(), self.moves.len(), "one serial a table: moves.len() + 1 after this");
        self.serials.push(self.game.decision().serial);
        self.secret.push(secret);
    }

    /// Whether `viewer` saw the move `i` (everyone sees every move but another seat's secret one).
    fn saw(&self, i: usize, viewer: Viewer) -> bool {
        self.secret[i].is_none_or(|s| viewer.is(s))
    }

    /// The `serial` of the table `viewer` is shown: the number of moves of the match it saw.
    /// Every move but another seat's secret one moves it, so it is the number of moves in the
    /// log when there was no secret move.
    pub(super) fn serial(&self, viewer: Viewer) -> u64 {
        (0..self.moves.len()).filter(|&i| self.saw(i, viewer)).count() as u64
    }

    /// Whether an action of `seat` chosen from its table with `serial` may still be applied:
    /// `Err(reason)` if the table has moved on for it — the decision then open is over, or
    /// `seat` has acted since (the same move sent twice).
    pub(super) fn check_serial(&self, seat: Seat, serial: u64) -> Result<(), String> {
        let viewer = Viewer::seat(seat);
        let now = self.moves.len();
        let shown = self.serial(viewer);
        if serial > shown {
            return Err(format!("serial {serial} is not a table of this game (it is at {shown})"));
        }
        // The last number of moves at which this seat's table showed `serial`: before the move
        // that took it past `serial`, or now. The tables in between differed from it only by
        // other seats' secret moves, which this seat could not see.
        let then = (0..now).filter(|&i| self.saw(i, viewer)).nth(serial as usize).unwrap_or(now);
        if self.serials.get(then) != self.serials.get(now) {
            return Err(format!("the decision of serial {serial} is over (the table is at {shown}): look again"));
        }
        if self.moves[then..].iter().any(|m| matches!(m, Move::Act { seat: s, .. } if *s == seat)) {
            return Err(format!("you have already acted since serial {serial} (the table is at {shown})"));
        }
        Ok(())
    }
}

/// 128 bits from the operating system's cryptographic random source, as 32 hex digits: a
/// reconnect token. Never from a match's generator, the room's seed or the clock, all of
/// which a client can know or guess.
pub(super) fn random_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
