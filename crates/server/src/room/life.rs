//! The room's own life: it closes once nobody has been connected for the server's empty-room
//! time, and a running game none of whose people is connected for that long ends as
//! abandoned (recorded like any finished match).

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
    }

    /// When the game is abandoned or the room closes, whichever is first.
    pub(super) fn life_deadline(&self) -> Option<Instant> {
        [self.gone_since, self.empty_since].into_iter().flatten().min().map(|t| later(t, self.empty_ttl))
    }

    /// Ends an abandoned game, or closes an empty room, if its time has come; `true` if so.
    pub(super) async fn on_life_timer(&mut self) -> bool {
        let now = Instant::now();
        let ttl = self.empty_ttl;
        let due = move |t: Option<Instant>| t.is_some_and(|t| later(t, ttl) <= now);
        let mut acted = false;
        if due(self.gone_since) {
            tracing::info!(room = %self.id, "the game's people have all been gone for {ttl:?}: abandoned");
            self.end_match(None).await;
            self.broadcast(&ServerMsg::ShowAlert {
                text: "Everyone playing left: the game is over, abandoned.".to_string(),
            });
            self.sync_all();
            self.gone_since = None;
            acted = true;
        }
        if due(self.empty_since) {
            self.end_match(None).await;
            if let Err(e) = self.store.delete_room(&self.id).await {
                tracing::error!(room = %self.id, "deleting the closed room failed: {e}");
            }
            tracing::info!(room = %self.id, "room closed: nobody connected for {ttl:?}");
            self.closed = true;
            acted = true;
        }
        acted
    }
}
