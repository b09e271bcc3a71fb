//! The room's own life: it closes once nobody has been connected for the server's empty-room
//! time, and a running game none of whose people is connected for that long ends as
//! abandoned (recorded like any finished match).
//!
//! Before it closes, a room with nobody connected and no match goes **dormant** after a few
//! seconds: its task ends and its memory is freed, and the lobby keeps only its summary.
//! Everything about it is in the store already (every change is saved before anyone hears of
//! it), so the first connection to it wakes it: the lobby reads it back and starts its task
//! again. A server where rooms are created and left all the time (each kept for the seat hold
//! after its people left) holds a few hundred bytes for each such room instead of kilobytes.

use super::Room;
use super::clock::later;
use crate::adapter::GameAdapter;
use protocol::ServerMsg;
use std::time::Duration;
use tokio::time::Instant;

impl<A: GameAdapter> Room<A> {
    /// How long the room lives on with nobody connected before it closes, and how long a
    /// running game's people may all be gone before it ends as abandoned (the server's
    /// `--empty-room-ttl`, the same for every room).
    pub fn set_empty_ttl(&mut self, ttl: Duration) {
        self.empty_ttl = ttl;
    }

    /// Notes since when nobody is connected, and since when none of the running game's people.
    pub(super) fn note_presence(&mut self) {
        let now = Instant::now();
        if self.conns.is_empty() {
            self.empty_since.get_or_insert(now);
        } else {
            self.empty_since = None;
        }
        let gone = self.current.as_ref().is_some_and(|cur| {
            !self.members.iter().any(|m| m.bot.is_none() && m.conn.is_some() && cur.seats.contains(&m.username))
        });
        if gone {
            self.gone_since.get_or_insert(now);
        } else {
            self.gone_since = None;
        }
        let connected = self.members.iter().filter(|m| m.bot.is_none() && m.conn.is_some()).count();
        if connected != self.connected {
            self.connected = connected;
            self.summary.lock().expect("summary lock").connected = connected;
        }
    }

    /// Lets the room go dormant after `after` with nobody connected and no match (the lobby
    /// sets it; a room driven on its own never does).
    pub fn set_dormant_after(&mut self, after: Duration) {
        self.dormant_after = Some(after);
    }

    /// When the room may go dormant, if it may.
    fn dormant_deadline(&self) -> Option<Instant> {
        // A snapshot not stored yet keeps the room in memory: woken, it would be read back older.
        if self.unsaved {
            return None;
        }
        let after = self.dormant_after?;
        let empty = self.empty_since.filter(|_| self.current.is_none())?;
        Some(later(empty.max(self.awake_since), after))
    }

    /// When the game is abandoned, the room closes or goes dormant, whichever is first.
    pub(super) fn life_deadline(&self) -> Option<Instant> {
        let ends = [self.gone_since, self.empty_since].into_iter().flatten().min().map(|t| later(t, self.empty_ttl));
        [ends, self.dormant_deadline()].into_iter().flatten().min()
    }

    /// Ends an abandoned game, or closes an empty room, if its time has come; `true` if so.
    pub(super) async fn on_life_timer(&mut self) -> bool {
        let now = Instant::now();
        let ttl = self.empty_ttl;
        let due = move |t: Option<Instant>| t.is_some_and(|t| later(t, ttl) <= now);
        let mut acted = false;
        if due(self.gone_since) {
            tracing::info!(room = %self.id, "the game's people have all been gone for {ttl:?}: abandoned");
            if !self.end_match(None).await {
                // Not stored: the game goes on as it was, and its end is tried again (the
                // retry wait keeps this from spinning).
                return true;
            }
            self.broadcast(&ServerMsg::ShowAlert {
                text: "Everyone playing left: the game is over, abandoned.".to_string(),
            });
            self.sync_all();
            self.gone_since = None;
            acted = true;
        }
        if due(self.empty_since) {
            // A room closes only once its match is recorded and the room is deleted: a close
            // the store refused is tried again, so nothing of the match is dropped unrecorded.
            if !self.end_match(None).await {
                return true;
            }
            if let Err(e) = self.store.delete_room(&self.id).await {
                self.note_store_error(&e);
                tracing::error!(room = %self.id, "deleting the closed room failed, the close waits: {e}");
                self.retry_store_later();
                return true;
            }
            tracing::info!(room = %self.id, "room closed: nobody connected for {ttl:?}");
            self.closed = true;
            acted = true;
        } else if self.dormant_deadline().is_some_and(|t| t <= now) {
            tracing::debug!(room = %self.id, "room dormant: nobody connected");
            self.dormant = true;
            acted = true;
        }
        acted
    }

    /// A moderator closes the room: a running game ends as abandoned (recorded like any
    /// finished match), the room is deleted from the store, everyone connected hears
    /// `RoomClosed` with the moderator's message, and the task ends (the sockets close 1001).
    /// False if the store refused either write: the room goes on as it was.
    pub(super) async fn close_by_moderator(&mut self, message: &str) -> bool {
        if !self.end_match(None).await {
            return false;
        }
        if let Err(e) = self.store.delete_room(&self.id).await {
            self.note_store_error(&e);
            tracing::error!(room = %self.id, "deleting a room a moderator closed failed: {e}");
            // The match's end is stored: the others hear of it as after any move.
            self.sync_all();
            return false;
        }
        tracing::info!(room = %self.id, "room closed by a moderator");
        self.broadcast(&ServerMsg::RoomClosed { message: message.to_string() });
        self.closed = true;
        true
    }

    /// `account` was banned: each of its connections hears `Banned` and is dropped (as a
    /// connection that went away: a seat in a running game is held, as for any drop).
    pub(super) async fn expel(&mut self, account: i64, reason: String, until: Option<u64>) {
        let conns: Vec<super::ConnId> = (self.conns.iter())
            .filter(|(_, c)| c.person.as_ref().is_some_and(|p| p.account == account))
            .map(|(id, _)| *id)
            .collect();
        for conn in conns {
            self.send(conn, super::sync::json(&ServerMsg::Banned { reason: reason.clone(), until }));
            tracing::info!(room = %self.id, account, "a banned person's connection dropped");
            // Its sender goes with it: the connection's task sends what is queued and closes.
            self.on_disconnect(conn).await;
        }
    }
}
