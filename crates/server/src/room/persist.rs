//! What a room stores and how it comes back: the snapshot written after every change, and the
//! room rebuilt from it (its match replayed move by move from the seed).

use super::Room;
use super::handle::{Inbox, RoomHandle};
use super::options::RoomOptions;
use super::state::{By, Match, Member};
use crate::Error;
use crate::adapter::GameAdapter;
use engine::{Game, Move, SeatSet};
use protocol::ChatMessage;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::Instant;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MemberSnap {
    username: String,
    token: String,
    join_time: u64,
    bot: Option<String>,
    spectator: bool,
    /// A signed-in member's account (absent for bots, anonymous clients and older snapshots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    account: Option<i64>,
    /// Asked on their own cards too (`SetPrompts`); absent when not, and in older snapshots.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    own_cards: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MatchSnap {
    seed: u64,
    config: Value,
    seats: Vec<String>,
    /// Each seat's account, by seat (absent when no seat has one, and in older snapshots).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    accounts: Vec<Option<i64>>,
    bots: Vec<Option<String>>,
    started_at: u64,
    /// The rules version that is playing the match (`engine::Game::RULES_VERSION`): a build
    /// with other rules that cannot replay its moves says so. Absent in older snapshots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules_version: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Snapshot {
    options: RoomOptions,
    members: Vec<MemberSnap>,
    host: Option<String>,
    /// Only in snapshots written before the chat had its own table (store v3 moves them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    chat: Vec<ChatMessage>,
    matches_played: u64,
    base_seed: u64,
    /// The stored id of the room's last finished match (its end screen and replay).
    #[serde(default)]
    last_match: Option<i64>,
    /// Who won it (a dormant room woken shows the same end screen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_winner: Option<String>,
    #[serde(rename = "match")]
    current: Option<MatchSnap>,
    /// When the room was made (ms; absent in older snapshots).
    #[serde(default, skip_serializing_if = "is_zero")]
    created_at: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The signed-in members of a stored room and the people of its running match: `(username,
/// account)` for each that has an account (a report names its target by username).
pub fn accounts_in_snapshot(snapshot: &str) -> Vec<(String, i64)> {
    let Ok(snap) = serde_json::from_str::<Snapshot>(snapshot) else { return Vec::new() };
    let mut out: Vec<(String, i64)> =
        snap.members.iter().filter_map(|m| Some((m.username.clone(), m.account?))).collect();
    if let Some(cur) = &snap.current {
        for (seat, account) in cur.seats.iter().zip(&cur.accounts) {
            if let Some(a) = account
                && !out.iter().any(|(_, b)| b == a)
            {
                out.push((seat.clone(), *a));
            }
        }
    }
    out
}

/// A stored room's players (members not watching), state and age, as a moderator's list
/// shows a room that no node lists (SQLite read without a server; a row with no listing).
pub fn listing_from_snapshot(snapshot: &str) -> serde_json::Value {
    let Ok(snap) = serde_json::from_str::<Snapshot>(snapshot) else {
        return serde_json::json!({ "players": [], "state": "unknown", "damaged": true });
    };
    let players: Vec<&str> = snap.members.iter().filter(|m| !m.spectator).map(|m| m.username.as_str()).collect();
    serde_json::json!({
        "players": players,
        "state": if snap.current.is_some() { "playing" } else { "lobby" },
        "spectators": snap.members.iter().filter(|m| m.spectator).count(),
        "private": snap.options.private,
        "createdAt": snap.created_at,
    })
}

impl<A: GameAdapter> Room<A> {
    /// Rebuilds a stored room: members (all disconnected since `since`, each given the hold
    /// time from then to come back), chat, and the match replayed move by move from its seed.
    /// `since` is now for a server starting, and when the room went dormant for one woken.
    pub fn restore(
        stored: &store::StoredRoom,
        store: store::Store,
        since: Instant,
    ) -> Result<(Self, RoomHandle, Inbox), Error> {
        let id = stored.id.as_str();
        let snap: Snapshot = serde_json::from_str(&stored.snapshot).map_err(|e| Error::restore(id, e))?;
        // Stored before the checks, or edited: options out of range are not run.
        snap.options.check().map_err(|e| Error::restore(id, e))?;
        let (mut room, handle, inbox) = Self::build(stored.id.clone(), snap.options, store, snap.base_seed);
        room.empty_since = Some(since);
        room.members = snap
            .members
            .into_iter()
            .map(|m| Member {
                dropped_at: m.bot.is_none().then_some(since),
                username: m.username,
                token: m.token,
                join_time: m.join_time,
                bot: m.bot,
                spectator: m.spectator,
                conn: None,
                account: m.account,
                own_cards: m.own_cards,
            })
            .collect();
        room.host = snap.host;
        room.chat = snap.chat;
        for line in &stored.chat {
            match serde_json::from_str(line) {
                Ok(msg) => room.chat.push(msg),
                Err(e) => tracing::warn!(room = %stored.id, "a chat line not restored: {e}"),
            }
        }
        let extra = room.chat.len().saturating_sub(store::CHAT_KEPT);
        room.chat.drain(..extra);
        room.set_created_at(snap.created_at);
        room.matches_played = snap.matches_played;
        if room.matches_played > 0 || snap.current.is_some() {
            // A quick-play table whose first match has started seats as any room from then on.
            room.quick_deadline = None;
        }
        room.last_match = snap.last_match;
        room.last_winner = snap.last_winner;
        if let Some(ms) = snap.current {
            // A match that does not rebuild under other rules than those that played it is
            // said to be theirs, not a damaged record.
            let note = A::name().parse().ok().and_then(|kind| crate::rules_version::rules_note(kind, ms.rules_version));
            let failed = |why: String| match &note {
                Some(note) => {
                    Error::restore(id, format!("{note}, and its running match does not rebuild on it: {why}"))
                }
                None => Error::restore(id, why),
            };
            let config: <A::G as Game>::Config =
                serde_json::from_value(ms.config).map_err(|e| failed(format!("config: {e}")))?;
            let setup = room.options.setup.as_deref();
            let mut game = crate::setup_rooms::new_game::<A::G>(A::name(), &config, ms.seed, setup, None)
                .map_err(|e| failed(e.to_string()))?;
            let mut moves = Vec::with_capacity(stored.moves.len());
            let mut serials = Vec::with_capacity(stored.moves.len() + 1);
            serials.push(game.decision().serial);
            let mut scratch = Vec::new();
            let mut room_moves = Vec::new();
            let mut secret = Vec::with_capacity(stored.moves.len());
            for (i, entry) in stored.moves.iter().enumerate() {
                let m: Move<<A::G as Game>::Action> =
                    serde_json::from_str(entry).map_err(|e| failed(format!("move {i}: {e}")))?;
                match &m {
                    Move::Act { seat, action } => {
                        // Who saw it, as when it was played: every table's serial comes back.
                        secret.push(game.is_secret(*seat, action).then_some(*seat));
                        game.apply_into(*seat, action.clone(), &mut scratch)
                            .map_err(|e| failed(format!("move {i} refused on replay: {e}")))?
                    }
                    Move::Leave { seat } => {
                        secret.push(None);
                        game.leave(*seat, &mut scratch)
                    }
                }
                scratch.clear();
                match By::of_entry(entry) {
                    By::Player => {}
                    by => room_moves.push((i, by)),
                }
                moves.push(m);
                serials.push(game.decision().serial);
            }
            let bots = ms.bots.iter().map(|b| b.as_deref().and_then(A::bot)).collect();
            let mut accounts = ms.accounts;
            accounts.resize(ms.seats.len(), None);
            room.current = Some(Match {
                game,
                seed: ms.seed,
                config,
                seats: ms.seats,
                accounts,
                bot_kinds: ms.bots,
                bots,
                moves,
                secret,
                room_moves,
                serials,
                started_at: ms.started_at,
                stand_in: SeatSet::EMPTY,
                passed_cards: Vec::new(),
            });
        }
        room.publish_summary();
        Ok((room, handle, inbox))
    }

    pub(super) fn snapshot(&self) -> String {
        let snap = Snapshot {
            options: self.options.clone(),
            members: self
                .members
                .iter()
                .map(|m| MemberSnap {
                    username: m.username.clone(),
                    token: m.token.clone(),
                    join_time: m.join_time,
                    bot: m.bot.clone(),
                    spectator: m.spectator,
                    account: m.account,
                    own_cards: m.own_cards,
                })
                .collect(),
            host: self.host.clone(),
            chat: Vec::new(),
            matches_played: self.matches_played,
            base_seed: self.base_seed,
            last_match: self.last_match,
            last_winner: self.last_winner.clone(),
            current: self.current.as_ref().map(|c| MatchSnap {
                seed: c.seed,
                config: serde_json::to_value(&c.config).expect("configs serialize"),
                seats: c.seats.clone(),
                accounts: if c.accounts.iter().any(Option::is_some) { c.accounts.clone() } else { Vec::new() },
                bots: c.bot_kinds.clone(),
                started_at: c.started_at,
                rules_version: Some(<A::G as Game>::RULES_VERSION),
            }),
            created_at: self.created_at,
        };
        serde_json::to_string(&snap).expect("snapshots serialize")
    }

    /// Stores a newly created room, so its link works even before anyone joins.
    pub async fn persist_new(&self) -> Result<(), Error> {
        Ok(self.store.save_room_listed(&self.id, A::name(), self.snapshot(), self.cluster_listing()).await?)
    }

    /// Stores the room after a change it cannot refuse (a change the room makes itself: a
    /// member gone in the lobby, the host role passed on, the snapshot after a stored leave,
    /// start or end): also drops the cached room fields and refreshes the connections'
    /// viewers. Refused by the store, the snapshot is written again every [`super::STORE_RETRY`]
    /// until it is stored (`Lost` stops the room instead), so that a failover never restores
    /// an older one. A change a member asks for uses [`Room::try_save`] and is refused instead.
    pub(super) async fn save(&mut self) {
        if let Err(e) = self.try_save().await {
            tracing::error!(room = %self.id, "saving the room failed, it is tried again: {e}");
            self.unsaved = true;
            self.retry_store_later();
        }
    }

    /// After a write that stored the whole snapshot and its listing with something else
    /// (`reset_moves_listed`: a match starting or ending): the rest of what [`Room::save`]
    /// does. (Writing the same snapshot again cost a commit, two in every match.)
    pub(super) fn saved_whole(&mut self) {
        self.refresh_derived();
        self.unsaved = false;
    }

    /// The listing a write of the whole room carries: a cluster lists every node's rooms from
    /// their rows; one server lists from memory and stores none.
    pub(super) fn cluster_listing(&self) -> Option<String> {
        self.store.keeps_listings().then(|| self.listing())
    }

    /// Drops the cached room fields and refreshes the viewers and the summary from the room as
    /// it is now: before a snapshot is stored, and after a change was taken back (its snapshot
    /// refused), so that they are as they were before it.
    pub(super) fn refresh_derived(&mut self) {
        self.room_fields.lock().expect("room fields lock").take();
        self.refresh_viewers();
        self.publish_summary();
    }

    /// Writes again a snapshot the store refused (see [`Room::save`]); `true` once nothing
    /// waits to be stored.
    pub(super) async fn save_unsaved(&mut self) -> bool {
        if !self.unsaved {
            return true;
        }
        if let Err(e) = self.try_save().await {
            tracing::error!(room = %self.id, "saving the room failed again: {e}");
            self.retry_store_later();
            return false;
        }
        true
    }

    /// As [`Room::save`], answering the store's refusal (noted already: `Lost` stops the room)
    /// for a caller that must not go on without it.
    pub(super) async fn try_save(&mut self) -> Result<(), store::StoreError> {
        self.refresh_derived();
        let saved = self.store.save_room_listed(&self.id, A::name(), self.snapshot(), self.cluster_listing()).await;
        match &saved {
            // A whole snapshot: whatever an earlier refused one held is in it.
            Ok(()) => self.unsaved = false,
            Err(e) => self.note_store_error(e),
        }
        saved
    }
}

impl<A: GameAdapter> Room<A> {
    /// Undoes the last move of the current match (its write was refused): the game is rebuilt
    /// from its seed and the moves before it, as a restart would (the hot path keeps no copy).
    pub(super) fn take_back_last_move(&mut self, stand_in: SeatSet) {
        let setup = self.options.setup.clone();
        let Some(cur) = self.current.as_mut() else { return };
        cur.moves.pop();
        let n = cur.moves.len();
        cur.room_moves.retain(|(i, _)| *i < n);
        // And the decision serial noted after it (`serials` has one more entry than `moves`):
        // left behind, every later serial would be read one table off by `check_serial`.
        cur.serials.truncate(cur.moves.len() + 1);
        cur.secret.truncate(cur.moves.len());
        let mut game = crate::setup_rooms::new_game::<A::G>(A::name(), &cur.config, cur.seed, setup.as_deref(), None)
            .expect("the match was made from this config and seed");
        let mut scratch = Vec::new();
        for m in &cur.moves {
            match m {
                Move::Act { seat, action } => {
                    game.apply_into(*seat, action.clone(), &mut scratch).expect("a move it took replays")
                }
                Move::Leave { seat } => game.leave(*seat, &mut scratch),
            }
            scratch.clear();
        }
        cur.game = game;
        cur.stand_in = stand_in;
    }
}

/// What a member hears when a change they asked for (`what` was not done) could not be stored.
pub(super) fn change_refusal(e: &store::StoreError, what: &str) -> String {
    match e {
        store::StoreError::Lost(_) => store_refusal(e),
        _ => format!("{what}: the server cannot reach its database right now; try again in a moment"),
    }
}

/// What a player hears when their move could not be stored.
pub(super) fn store_refusal(e: &store::StoreError) -> String {
    match e {
        store::StoreError::Lost(_) => "this room has moved to another server: reconnect to play on".into(),
        _ => "the move was not made: the server cannot reach its database right now; try again in a moment".into(),
    }
}
