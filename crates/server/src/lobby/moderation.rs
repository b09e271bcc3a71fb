//! What a moderator does to the lobby's rooms: list every room (private and dormant ones too,
//! every node's on a cluster), close one with a message, and drop a banned person's
//! connections.

use super::{Lobby, Slot};
use crate::room::RoomHandle;
use serde_json::{Value, json};

/// The most rooms a moderator's list holds.
pub const ADMIN_ROOMS: u32 = 1000;

/// What became of a close asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// The room closed here; its players were told.
    Here,
    /// Another node owns it (or nobody does right now): the close waits in the store for its
    /// owner's next heartbeat.
    Asked,
    /// No such room.
    Missing,
}

impl Lobby {
    /// Every room for a moderator: `{id, game, players, state, spectators, private, node,
    /// createdAt}` (`dormant` for one out of memory here). On a cluster, every node's rooms,
    /// read from the rooms table the lobby lists from; on one server, its own.
    pub async fn admin_rooms(&self) -> Result<Vec<Value>, store::StoreError> {
        if self.node.cluster && self.store.cluster().is_some() {
            let rows = self.store.room_rows(ADMIN_ROOMS).await?;
            return Ok(rows
                .into_iter()
                .map(|r| {
                    let mut v = match r.listing.as_deref().and_then(|l| serde_json::from_str::<Value>(l).ok()) {
                        Some(v @ Value::Object(_)) => v,
                        _ => crate::room::listing_from_snapshot(&r.snapshot),
                    };
                    v["id"] = r.id.into();
                    v["game"] = r.game.into();
                    v["node"] = r.owner.map_or(Value::Null, Value::from);
                    v
                })
                .collect());
        }
        let node = self.node.id().to_string();
        let map = self.rooms.lock().expect("lobby lock");
        Ok(map
            .iter()
            .take(ADMIN_ROOMS as usize)
            .map(|(id, slot)| {
                let s = slot.summary(id);
                json!({
                    "id": s.id, "game": s.game, "players": s.players, "state": s.state,
                    "spectators": s.spectators, "private": s.private, "seeded": s.seeded,
                    "rated": s.rated,
                    "createdAt": s.created_at, "node": node, "dormant": matches!(slot, Slot::Dormant(_)),
                })
            })
            .collect())
    }

    /// A live handle of room `id` here, waking it if it is dormant; `None` if it is not here.
    async fn awake_handle(&self, id: &str) -> Option<RoomHandle> {
        for _ in 0..4 {
            let live = match self.rooms.lock().expect("lobby lock").get(id)? {
                Slot::Live(h) => Some(h.clone()),
                Slot::Dormant(_) => None,
            };
            match live {
                Some(h) => return Some(h),
                None => {
                    self.wake(id).await;
                    tokio::task::yield_now().await;
                }
            }
        }
        None
    }

    /// Closes room `id` with `message` for its players: here if this node runs it; on a
    /// cluster, a room another node owns gets the close through the store (its owner's
    /// heartbeat takes it, within a beat).
    pub async fn close_room(&self, id: &str, message: &str) -> Result<Closed, store::StoreError> {
        if let Some(h) = self.awake_handle(id).await {
            return match h.close(message.to_string()).await {
                Ok(true) => {
                    self.forget_closed(id, &h);
                    Ok(Closed::Here)
                }
                Ok(false) => Err(store::StoreError::Unavailable("the room's close could not be stored".into())),
                // Its task ended meanwhile (it closed by itself, or moved): look again.
                Err(_) if self.contains(id) => Err(store::StoreError::Unavailable("the room is moving".into())),
                Err(_) => self.close_elsewhere(id, message).await,
            };
        }
        self.close_elsewhere(id, message).await
    }

    async fn close_elsewhere(&self, id: &str, message: &str) -> Result<Closed, store::StoreError> {
        if !(self.node.cluster && self.store.cluster().is_some()) {
            return Ok(Closed::Missing);
        }
        if self.store.room_evidence(id).await?.is_none() {
            return Ok(Closed::Missing);
        }
        let at = crate::room::now_ms();
        self.store
            .request_close(store::moderation::RoomClose { room: id.to_string(), message: message.into(), at })
            .await?;
        Ok(Closed::Asked)
    }

    /// Closes the rooms whose close was asked for through the store and that this node runs
    /// (a cluster node's heartbeat; a server at its start).
    pub async fn take_closes(&self) {
        let closes = match self.store.take_closes().await {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("reading the rooms' closes asked for failed: {e}");
                return;
            }
        };
        for c in closes {
            match self.awake_handle(&c.room).await {
                Some(h) => match h.close(c.message.clone()).await {
                    Ok(true) => {
                        self.forget_closed(&c.room, &h);
                        tracing::info!(room = %c.room, "room closed, as a moderator asked");
                    }
                    _ => {
                        // Asked again, so the next beat tries again.
                        tracing::warn!(room = %c.room, "a room's close asked for failed; it is tried again");
                        let _ = self.store.request_close(c).await;
                    }
                },
                // Not run here (yet): on a cluster it is this node's on its row; the close
                // waits for it to run here.
                None => {
                    let _ = self.store.request_close(c).await;
                }
            }
        }
    }

    /// Takes a room that has just closed out of the lobby at once (its task does too as it
    /// ends, a moment later): a lookup right after the close finds no room.
    fn forget_closed(&self, id: &str, handle: &RoomHandle) {
        let mut map = self.rooms.lock().expect("lobby lock");
        if matches!(map.get(id), Some(Slot::Live(h)) if h.same(handle)) {
            map.remove(id);
        }
    }

    /// Drops `account`'s connections in every room this node runs, each told `Banned`.
    pub async fn expel(&self, account: i64, reason: &str, until: Option<u64>) {
        let live: Vec<RoomHandle> = (self.rooms.lock().expect("lobby lock").values())
            .filter_map(|s| match s {
                Slot::Live(h) => Some(h.clone()),
                Slot::Dormant(_) => None,
            })
            .collect();
        for h in live {
            let _ = h.expel(account, reason.to_string(), until).await;
        }
    }
}
