//! The lobby as one node of a cluster: where a room is (here, on another node, moving), every
//! node's rooms listed from PostgreSQL, and the rooms this node claims, holds and lets go.

use super::{Lobby, PAGE, Slot};
use crate::node::Node;
use crate::room::RoomHandle;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

impl Lobby {
    /// Taken around a claim and the adoption of its rooms (see `claiming`).
    pub(crate) async fn claims(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.claiming.lock().await
    }

    /// This server as a node.
    pub fn node(&self) -> &Arc<Node> {
        &self.node
    }

    /// Runs rooms this node has just claimed (from a node gone, or handed over), restored from
    /// their snapshot and log as at a restart; a stale task of the same room, if one is left,
    /// is let go first.
    pub fn adopt(&self, rooms: Vec<store::StoredRoom>) {
        for stored in &rooms {
            self.let_go(&stored.id);
        }
        crate::metrics::rooms_claimed(rooms.len());
        self.restore_rooms(rooms, "room claimed: restored from its snapshot and log");
    }

    /// The rooms this node runs (live or dormant) with the epoch it holds for each
    /// (PostgreSQL; nothing on SQLite).
    pub fn held_epochs(&self) -> Vec<(String, i64)> {
        let Some(shared) = self.store.cluster() else { return Vec::new() };
        let ids: Vec<String> = self.rooms.lock().expect("lobby lock").keys().cloned().collect();
        ids.into_iter().filter_map(|id| shared.held_epoch(&id).map(|e| (id, e))).collect()
    }

    /// Stops running room `id` here (another node owns it now, or it is handed over): its
    /// task ends writing nothing more, its sockets close `4001` "moved"; a dormant one is
    /// simply dropped. Answers its handle if it was live.
    pub fn let_go(&self, id: &str) -> Option<RoomHandle> {
        let slot = self.rooms.lock().expect("lobby lock").remove(id);
        match slot {
            Some(Slot::Live(h)) => {
                h.let_go();
                Some(h)
            }
            _ => None,
        }
    }

    /// Lets every room go (see [`Lobby::let_go`]); answers the live ones' handles.
    pub fn let_go_all(&self, why: &str) -> Vec<RoomHandle> {
        let ids: Vec<String> = self.rooms.lock().expect("lobby lock").keys().cloned().collect();
        if !ids.is_empty() {
            tracing::warn!(rooms = ids.len(), "letting every room go: {why}");
        }
        ids.iter().filter_map(|id| self.let_go(id)).collect()
    }

    /// SIGTERM on a node: refuse new rooms, stop every room (each finishes what it is doing,
    /// its writes complete), then hand them all over in one statement (no owner, epoch + 1)
    /// for the other nodes to claim at once. Their sockets are closed `4001` "moved".
    pub async fn drain(&self) {
        self.node.start_draining();
        let handles = self.let_go_all("draining");
        let stopped = futures_util::future::join_all(handles.iter().map(|h| h.gone()));
        if tokio::time::timeout(std::time::Duration::from_secs(5), stopped).await.is_err() {
            tracing::warn!("some rooms did not stop within 5 s; handed over anyway (their writes are fenced)");
        }
        if let Some(shared) = self.store.cluster() {
            match shared.release_all().await {
                Ok(n) => {
                    crate::metrics::rooms_handed_over(n);
                    tracing::info!(node = self.node.id(), rooms = n, "drained: every room handed over")
                }
                Err(e) => tracing::error!(
                    node = self.node.id(),
                    "handing the rooms over failed: {e}; they will be claimed after the TTL"
                ),
            }
        }
    }
}

/// Where a room is, as a node answers a lookup of it.
pub enum Whereabouts {
    /// This node runs it.
    Here,
    /// Another node, alive, owns it: its name, its path prefix, and the room's summary.
    Elsewhere { node: String, path: String, summary: serde_json::Value },
    /// Nobody alive owns it right now (its node died or is draining, and no node has claimed
    /// it yet): ask again in a moment.
    Moving,
    /// No such room.
    Missing,
}

/// A room's summary as the lobby lists it, from its id, game and stored listing (`private`
/// left out: the caller filters on it).
fn summary_from_listing(id: &str, game: &str, listing: Option<&str>) -> serde_json::Value {
    let mut v = serde_json::json!({
        "id": id, "game": game, "players": [], "state": "lobby", "spectators": 0, "seeded": false,
        "rated": false,
    });
    if let Some(serde_json::Value::Object(fields)) = listing.and_then(|l| serde_json::from_str(l).ok()) {
        for (k, val) in fields {
            if k != "private" {
                v[k] = val;
            }
        }
    }
    v
}

/// How long a cluster's list of rooms (read from PostgreSQL) is reused.
const LISTED_FOR: Duration = Duration::from_secs(1);

impl Lobby {
    /// Where room `id` is. On a node: this node's, or where the database says it lives; a room
    /// whose owner is gone is claimed at once (when this node may claim), and one this node
    /// owns on its row but does not run (it let it go while cut off) is run again.
    pub async fn locate(&self, id: &str) -> Result<Whereabouts, store::StoreError> {
        if self.contains(id) {
            return Ok(Whereabouts::Here);
        }
        // A room that cannot be run is left in the database, as on a lone server: not found.
        if self.unrunnable(id) {
            return Ok(Whereabouts::Missing);
        }
        let Some(shared) = self.store.cluster().filter(|_| self.node.cluster) else { return Ok(Whereabouts::Missing) };
        if !self.node.connected() {
            // Cut off for a TTL: the database would not answer (or only after the time limit),
            // and the client does better to ask another node now.
            return Err(store::StoreError::Unavailable("this node cannot reach the database".into()));
        }
        let ttl = self.node.config.ttl;
        let Some(found) = shared.locate(id, ttl).await? else { return Ok(Whereabouts::Missing) };
        let _claims = self.claims().await;
        if self.contains(id) {
            // Claimed meanwhile (the heartbeat, another lookup).
            return Ok(Whereabouts::Here);
        }
        if found.owner.as_deref() == Some(self.node.id()) {
            if self.node.draining() || !self.node.connected() {
                return Ok(Whereabouts::Moving);
            }
            let rooms = shared.reclaim_own(&[id.to_string()]).await?;
            self.adopt(rooms);
        } else if found.live {
            return Ok(Whereabouts::Elsewhere {
                node: found.owner.unwrap_or_default(),
                path: found.advertise,
                summary: summary_from_listing(id, &found.game, found.listing.as_deref()),
            });
        } else if self.node.may_claim() {
            let rooms = shared.claim_orphans(ttl, 1, Some(id)).await?;
            if !rooms.is_empty() {
                tracing::info!(room = %id, "claimed at its lookup: its node is gone");
            }
            self.adopt(rooms);
        }
        Ok(if self.contains(id) { Whereabouts::Here } else { Whereabouts::Moving })
    }

    /// A page of every node's public rooms (a cluster's `GET /api/rooms`), each with its node
    /// and path, read from PostgreSQL at most once every `LISTED_FOR`; and the id to ask
    /// the next page after, if there are more.
    pub async fn cluster_page(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<(Vec<serde_json::Value>, Option<String>), store::StoreError> {
        let Some(shared) = self.store.cluster() else { return Ok((Vec::new(), None)) };
        let list = {
            let mut cached = self.listed.lock().await;
            match &*cached {
                Some((at, list)) if at.elapsed() < LISTED_FOR => list.clone(),
                _ => {
                    let rows = shared.listed().await?;
                    let list: Vec<serde_json::Value> = rows
                        .into_iter()
                        .filter(|r| {
                            let private = r.listing.as_deref().and_then(|l| {
                                serde_json::from_str::<serde_json::Value>(l).ok()?.get("private")?.as_bool()
                            });
                            // A row no node listed (nor said public) is not shown.
                            private == Some(false)
                        })
                        .map(|r| {
                            let mut v = summary_from_listing(&r.id, &r.game, r.listing.as_deref());
                            v["node"] = r.owner.unwrap_or_default().into();
                            v["path"] = r.advertise.into();
                            v
                        })
                        .collect();
                    let list = Arc::new(list);
                    *cached = Some((Instant::now(), list.clone()));
                    list
                }
            }
        };
        let limit = limit.clamp(1, PAGE);
        let from = after.map_or(0, |a| list.partition_point(|v| v["id"].as_str().is_some_and(|id| id <= a)));
        let page: Vec<serde_json::Value> = list.iter().skip(from).take(limit).cloned().collect();
        let more = (from + limit < list.len()).then(|| page.last().and_then(|v| v["id"].as_str()).map(str::to_string));
        Ok((page, more.flatten()))
    }
}
