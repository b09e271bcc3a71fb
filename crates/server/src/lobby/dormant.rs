//! Dormant rooms: what the lobby keeps of a room whose task has ended (nobody connected, no
//! match), how the first connection wakes it, and the sweeper that deletes the ones nobody
//! came back to.

use super::{Lobby, RestoreRoom, Rooms, Slot};
use crate::Error;
use crate::games::visit_adapter;
use crate::limits::Ticket;
use crate::room::RoomSummary;
use registry::GameKind;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::time::Instant;

/// How often dormant rooms past their time are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// What the lobby keeps of a dormant room: enough to list it, wake it, and close it on time —
/// kept small (held inline, one allocation for the names), since a busy public server has
/// thousands of these for every room in use.
pub(super) struct Dormant {
    kind: GameKind,
    private: bool,
    seeded: bool,
    rated: bool,
    spectators: u32,
    /// When the room was made (ms).
    created_at: u64,
    /// The players' names, one per line (a username has no line break: `protocol::check_username`).
    players: Box<str>,
    /// Since when nobody is connected (its empty-room time counts from here).
    since: Instant,
    /// Its place in the limits, handed to its task when it wakes (`None` while it wakes).
    ticket: Option<Ticket>,
}

impl Dormant {
    pub(super) fn new(kind: GameKind, summary: &RoomSummary, since: Instant, ticket: Ticket) -> Dormant {
        Dormant {
            kind,
            private: summary.private,
            seeded: summary.seeded,
            rated: summary.rated,
            spectators: u32::try_from(summary.spectators).unwrap_or(u32::MAX),
            created_at: summary.created_at,
            players: summary.players.join("\n").into_boxed_str(),
            since,
            ticket: Some(ticket),
        }
    }

    /// Its summary as listed (a dormant room has no match: it is in its lobby).
    pub(super) fn summary(&self, id: &str) -> RoomSummary {
        RoomSummary {
            id: id.to_string(),
            game: self.kind.name(),
            players: self.players.split('\n').filter(|p| !p.is_empty()).map(str::to_string).collect(),
            state: "lobby",
            spectators: self.spectators as usize,
            private: self.private,
            seeded: self.seeded,
            rated: self.rated,
            created_at: self.created_at,
            connected: 0,
        }
    }

    /// Its game.
    pub(super) fn kind(&self) -> GameKind {
        self.kind
    }
}

/// Deletes dormant rooms nobody came back to within `ttl` of their emptying, every
/// [`SWEEP_EVERY`], until the lobby is gone.
pub(super) fn spawn_sweeper(
    rooms: Weak<Rooms>,
    store: store::Store,
    waking: Arc<tokio::sync::Mutex<()>>,
    ttl: Duration,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let _waking = waking.lock().await;
            let now = Instant::now();
            let expired: Vec<String> = {
                let Some(live) = rooms.upgrade() else { return };
                let map = live.lock().expect("lobby lock");
                map.iter()
                    .filter(|(_, slot)| matches!(slot, Slot::Dormant(d) if d.since + ttl <= now))
                    .map(|(id, _)| id.clone())
                    .collect()
            };
            // Out of the database first, then out of the lobby: a room no longer listed is gone
            // from both. Nothing wakes them meanwhile (waking waits for `_waking`).
            for id in &expired {
                if let Err(e) = store.delete_room(id).await {
                    tracing::error!(room = %id, "deleting the closed room failed: {e}");
                }
                tracing::info!(room = %id, "room closed: nobody connected for {ttl:?} (it was dormant)");
            }
            let Some(live) = rooms.upgrade() else { return };
            let mut map = live.lock().expect("lobby lock");
            for id in &expired {
                map.remove(id);
            }
        }
    });
}

impl Lobby {
    /// Reads dormant room `id` back from the store and starts its task (nothing if it is not
    /// dormant).
    pub(super) async fn wake(&self, id: &str) {
        let _waking = self.waking.lock().await;
        let (kind, since, ticket) = {
            let mut map = self.rooms.lock().expect("lobby lock");
            let Some(Slot::Dormant(d)) = map.get_mut(id) else { return };
            let Some(ticket) = d.ticket.take() else { return };
            (d.kind, d.since, ticket)
        };
        let stored = match self.store.load_room(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => {
                tracing::error!(room = %id, "a dormant room is not in the store; dropped");
                self.rooms.lock().expect("lobby lock").remove(id);
                return;
            }
            Err(e) => {
                tracing::error!(room = %id, "waking a dormant room failed: {e}");
                if let Some(Slot::Dormant(d)) = self.rooms.lock().expect("lobby lock").get_mut(id) {
                    d.ticket = Some(ticket);
                }
                return;
            }
        };
        let rebuilt = visit_adapter(kind, RestoreRoom { stored: &stored, lobby: self, ticket, since })
            .unwrap_or_else(|| Err(Error::NoAdapter(kind.title())));
        match rebuilt {
            Ok(()) => tracing::debug!(room = %id, "dormant room woken"),
            Err(e) => {
                tracing::error!(room = %id, "a dormant room could not be rebuilt: {e}; left in the database");
                self.rooms.lock().expect("lobby lock").remove(id);
            }
        }
    }
}
