//! The room's live state types: its members, their connections, and the match being played.
//! Plain data; the room's behaviour (in the sibling modules) works on them.

use super::handle::{ConnId, Outbound};
use engine::{Bot, Game, Move, SeatSet};
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
}

pub(super) struct Conn {
    pub(super) tx: mpsc::Sender<Outbound>,
    pub(super) member: Option<String>,
}

pub(super) struct Match<G: Game> {
    pub(super) game: G,
    pub(super) seed: u64,
    pub(super) config: G::Config,
    /// Usernames by seat (they stay even after a player leaves).
    pub(super) seats: Vec<String>,
    pub(super) bot_kinds: Vec<Option<String>>,
    pub(super) bots: Vec<Option<Box<dyn Bot<G>>>>,
    pub(super) moves: Vec<Move<G::Action>>,
    pub(super) started_at: u64,
    /// Seats a stand-in bot plays until their turn ends (their owner's turn timer ran out).
    pub(super) stand_in: SeatSet,
}

/// 128 bits from the operating system's cryptographic random source, as 32 hex digits: a
/// reconnect token. Never from a match's generator, the room's seed or the clock, all of
/// which a client can know or guess.
pub(super) fn random_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
