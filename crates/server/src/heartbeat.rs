//! The heartbeat loop that drives a node's lobby (see `node.rs` for what a node is): every
//! `beat`, one round trip refreshes this node's row and answers the rooms it still owns; the
//! rooms another node took over are let go, and orphans claimed.

use crate::lobby::Lobby;
use crate::node::{CLAIM_BATCH, Node};
use std::sync::{Arc, Weak};
use tracing::Instrument;

/// Ticks the node's heartbeat every period until the lobby is gone or the node stops (in the
/// span of its caller: the node's, see `cardtable serve`).
pub(crate) fn spawn(node: Arc<Node>, lobby: Weak<Lobby>) {
    let beats = async move {
        let mut tick = tokio::time::interval(node.config.heartbeat);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(lobby) = lobby.upgrade() else { return };
            if node.is_stopped() {
                return;
            }
            beat(&node, &lobby).await;
        }
    };
    tokio::spawn(beats.instrument(tracing::Span::current()));
}

/// One heartbeat: refresh, let go of rooms lost, claim orphans.
pub(crate) async fn beat(node: &Node, lobby: &Lobby) {
    let Some(shared) = lobby.store().cluster() else { return };
    // The rooms run here, with the epochs held, before the question: any of them was stored
    // before it was sent, so the answer lists it unless another node took it.
    let held = lobby.held_epochs();
    let owned = match shared.heartbeat(node.incarnation, node.config.ttl).await {
        Ok(Some(owned)) => owned,
        Ok(None) => {
            tracing::error!(
                node = node.id(),
                incarnation = node.incarnation,
                "a newer incarnation of this node has registered: this one stops (its rooms are the newer one's)"
            );
            node.must_stop();
            lobby.let_go_all("superseded by a newer incarnation of this node");
            return;
        }
        Err(e) => {
            node.heartbeat_failed();
            tracing::warn!(node = node.id(), "heartbeat failed: {e}");
            let_go_if_cut_off(node, lobby);
            return;
        }
    };
    node.heartbeat_ok();
    for (id, before) in held {
        // Held at the same epoch since before the question (a room woken meanwhile claims a new
        // one: judged at the next tick).
        let now = shared.held_epoch(&id);
        if now != Some(before) {
            continue;
        }
        if owned.get(&id) != Some(&before) {
            tracing::warn!(room = %id, epoch = before, "room taken over by another node: its actor stops");
            shared.forget(&id);
            lobby.let_go(&id);
            crate::metrics::room_lost();
        }
    }
    if node.draining() {
        return;
    }
    // Claims and adoptions one at a time (a lookup may be claiming a room right now).
    let _claims = lobby.claims().await;
    // Rooms this node owns but does not run (let go while it was cut off, and nobody took
    // them): run them again.
    let mine: Vec<String> = owned.keys().filter(|id| !lobby.contains(id) && !lobby.unrunnable(id)).cloned().collect();
    if !mine.is_empty() {
        match shared.reclaim_own(&mine).await {
            Ok(rooms) => lobby.adopt(rooms),
            Err(e) => tracing::warn!("reclaiming this node's rooms failed: {e}"),
        }
    }
    if node.may_claim() {
        match shared.claim_orphans(node.config.ttl, CLAIM_BATCH, None).await {
            Ok(rooms) => {
                if !rooms.is_empty() {
                    tracing::info!(node = node.id(), rooms = rooms.len(), "claimed the rooms of a node gone");
                }
                lobby.adopt(rooms);
            }
            Err(e) => tracing::warn!("claiming orphaned rooms failed: {e}"),
        }
    }
}

/// No heartbeat for a TTL: another node may own this node's rooms by now (and this one can
/// write nothing for them): their sockets close "moved", and their clients look again.
fn let_go_if_cut_off(node: &Node, lobby: &Lobby) {
    if !node.connected() && !lobby.is_empty() {
        lobby.let_go_all("cut off from the database for a TTL");
    }
}
