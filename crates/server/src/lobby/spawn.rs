//! A room's task: the room built for its game's adapter type (the visitors handed to
//! [`visit_adapter`](crate::games::visit_adapter)), started, and taken out of the lobby (or
//! left there dormant) when it ends.

use super::dormant::Dormant;
use super::{Lobby, Rooms, Slot};
use crate::Error;
use crate::adapter::GameAdapter;
use crate::games::AdapterVisitor;
use crate::limits::Ticket;
use crate::room::{Inbox, Room, RoomHandle, RoomOptions, RunEnd};
use registry::GameKind;
use std::sync::{Arc, Weak};
use tokio::time::Instant;
use tracing::Instrument;

/// Starts a room's task. The task holds the room's [`Ticket`] (its place in the limits) and,
/// when the room closes, takes it out of the lobby: the room's memory goes with its task. A
/// room going dormant leaves its summary and ticket in the lobby instead. (Only a weak
/// reference to the lobby: a lobby dropped at shutdown ends its rooms.) Everything the task
/// logs is in `span` ([`Lobby::room_span`]).
fn spawn<A: GameAdapter>(
    room: Room<A>,
    inbox: Inbox,
    id: String,
    rooms: Weak<Rooms>,
    ticket: Ticket,
    handle: RoomHandle,
    span: tracing::Span,
) {
    let task = async move {
        let (mut room, mut inbox) = (room, inbox);
        loop {
            let end = room.run(inbox).await;
            let Some(rooms) = rooms.upgrade() else { return };
            let mut map = rooms.lock().expect("lobby lock");
            match end {
                // Connections post under this lock (see `Lobby::connect`): if none is waiting
                // now, none can arrive before the slot says dormant.
                RunEnd::Dormant(r, i, since) if i.is_empty() => {
                    let kind = A::name().parse::<GameKind>().expect("every adapter is a registry game");
                    let dormant = Dormant::new(kind, &r.summary_now(), since, ticket);
                    drop(r);
                    map.insert(id, Slot::Dormant(dormant));
                    return;
                }
                RunEnd::Dormant(r, i, _) => {
                    // Someone came in as it stopped: it goes on.
                    drop(map);
                    (room, inbox) = (*r, i);
                }
                RunEnd::Closed | RunEnd::HandlesGone => {
                    map.remove(&id);
                    drop(map);
                    drop(ticket);
                    return;
                }
                // Out of the lobby if it is still there (the room found itself fenced); a
                // room let go by the lobby is out already, and may be back as another task.
                RunEnd::Moved => {
                    if let Some(Slot::Live(h)) = map.get(&id)
                        && h.same(&handle)
                    {
                        map.remove(&id);
                    }
                    drop(map);
                    drop(ticket);
                    return;
                }
            }
        }
    };
    tokio::spawn(task.instrument(span));
}

impl Lobby {
    /// The span a room's task logs in: its id, its game and this node's id as fields (a
    /// root: whichever request started the room, its log lines are the room's).
    pub(super) fn room_span(&self, id: &str, game: &'static str) -> tracing::Span {
        tracing::info_span!(parent: None, "room", node = %self.node.id(), room = %id, game)
    }

    /// The server-wide times every room of this lobby lives by.
    pub(super) fn prepare<A: GameAdapter>(&self, room: &mut Room<A>) {
        let ttl = self.usage.limits().empty_room_ttl;
        room.set_empty_ttl(ttl);
        room.set_dormant_after(self.usage.limits().dormant_after.min(ttl));
        room.set_allow_autopilot(self.usage.limits().allow_autopilot);
    }
}

/// Rebuilds a stored room, puts it in the lobby and starts its task.
pub(super) struct RestoreRoom<'a> {
    pub(super) stored: &'a store::StoredRoom,
    pub(super) lobby: &'a Lobby,
    pub(super) ticket: Ticket,
    /// Since when its people are gone (now at a start; when it emptied for a dormant room).
    pub(super) since: Instant,
}

impl AdapterVisitor for RestoreRoom<'_> {
    type Out = Result<(), Error>;

    fn visit<A: GameAdapter>(self) -> Self::Out {
        let RestoreRoom { stored, lobby, ticket, since } = self;
        let store = &lobby.store;
        // Rebuilding replays the match through the game's rules; a panic there is a bug, but
        // it costs this room only, never the server (nor a restart loop).
        let rebuilt =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Room::<A>::restore(stored, store.clone(), since)))
                .unwrap_or_else(|_| Err(Error::restore(&stored.id, "rebuilding it panicked")));
        let (mut room, handle, rx) = rebuilt?;
        lobby.prepare(&mut room);
        // In the lobby before its task runs, so the task finds its own slot.
        lobby.rooms.lock().expect("lobby lock").insert(stored.id.clone(), Slot::Live(handle.clone()));
        let span = lobby.room_span(&stored.id, A::name());
        spawn(room, rx, stored.id.clone(), Arc::downgrade(&lobby.rooms), ticket, handle, span);
        Ok(())
    }
}

/// Checks a new room's options against its game, stores the room and starts its task.
pub(super) struct CreateRoom<'a> {
    pub(super) id: String,
    pub(super) options: RoomOptions,
    pub(super) lobby: &'a Lobby,
    pub(super) ticket: Ticket,
}

type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

impl<'a> AdapterVisitor for CreateRoom<'a> {
    type Out = BoxFuture<'a, Result<(), Error>>;

    fn visit<A: GameAdapter>(self) -> Self::Out {
        Box::pin(async move {
            let CreateRoom { id, options, lobby, ticket } = self;
            // The game's own options, as a match of any size would read them.
            if let Err(e) =
                (A::MIN_PLAYERS..=A::MAX_PLAYERS).try_for_each(|n| A::config(n, &options.game_options).map(drop))
            {
                return Err(Error::BadOptions(format!("gameOptions: {e}")));
            }
            let (mut room, handle, rx) = Room::<A>::create(id.clone(), options, lobby.store.clone());
            lobby.prepare(&mut room);
            // Stored and put in the lobby under the claims lock: between the two, the room is
            // this node's in the database but not in its lobby, and the heartbeat reclaimed it
            // (a second copy, a new epoch): the first copy's next write was refused and its
            // sockets closed 4001 "moved" at their first join (seen in cluster_nodes.rs).
            let _claims = lobby.claims().await;
            room.persist_new().await?;
            lobby.rooms.lock().expect("lobby lock").insert(id.clone(), Slot::Live(handle.clone()));
            let span = lobby.room_span(&id, A::name());
            spawn(room, rx, id, Arc::downgrade(&lobby.rooms), ticket, handle, span);
            Ok(())
        })
    }
}
