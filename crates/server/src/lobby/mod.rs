//! The lobby: which rooms exist. A map from room id to a live room's handle or a dormant
//! room's summary, locked only to look up, insert or list — never across an `.await`.
//!
//! A room with nobody connected and no match goes dormant after [`DORMANT_AFTER`] (see
//! `room::life`): its task ends, and the lobby keeps its summary and its place in the limits.
//! The first connection to it wakes it (read back from the store, its task started again);
//! a dormant room nobody came back to is deleted once the server's empty-room time has passed
//! since it emptied, as a live room would have closed.

//!
//! Its parts: `spawn` (a room's task, built through the adapter dispatch
//! [`visit_adapter`]), `dormant` (dormancy and the sweeper), `cluster` (lookups on a cluster,
//! and the rooms a node claims and lets go).

mod cluster;
mod dormant;
mod moderation;
mod spawn;

use crate::Error;
use crate::games::visit_adapter;
use crate::limits::{Limits, Refused, Usage};
use crate::node::Node;
use crate::room::{ConnId, Outbound, Person, RoomHandle, RoomOptions, RoomSummary, TryConnect};
use dormant::{Dormant, spawn_sweeper};
use registry::GameKind;
use spawn::{CreateRoom, RestoreRoom};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio::time::Instant;

pub use crate::limits::DORMANT_AFTER;
pub use cluster::Whereabouts;
pub use moderation::{ADMIN_ROOMS, Closed};

/// A room as the lobby holds it.
enum Slot {
    Live(RoomHandle),
    Dormant(Dormant),
}

impl Slot {
    fn summary(&self, id: &str) -> RoomSummary {
        match self {
            Slot::Live(h) => h.summary(),
            Slot::Dormant(d) => d.summary(id),
        }
    }
}

/// The rooms by id. Each room's task removes its own entry when the room closes, or turns it
/// dormant; the sweeper removes dormant rooms past their time.
type Rooms = Mutex<BTreeMap<String, Slot>>;

pub struct Lobby {
    rooms: Arc<Rooms>,
    store: store::Store,
    usage: Arc<Usage>,
    /// This server as a node (the lone server is node `local`).
    node: Arc<Node>,
    /// Rooms read from the store that could not be run (damaged, an unknown game, a failed
    /// rebuild): left in the database, and not claimed again and again by the heartbeat.
    unrunnable: Mutex<std::collections::HashSet<String>>,
    /// Held across a claim and the adoption of what it claimed (the heartbeat's, a lookup's):
    /// one at a time, so neither claims again a room the other is about to run.
    claiming: tokio::sync::Mutex<()>,
    /// A cluster's list of every node's rooms, read from PostgreSQL at most once a second.
    listed: tokio::sync::Mutex<Option<(Instant, Arc<Vec<serde_json::Value>>)>>,
    /// Held while a dormant room is woken or dormant rooms are closed, so a room is never
    /// read back twice, nor woken as it is deleted.
    waking: Arc<tokio::sync::Mutex<()>>,
}

/// Why a room was not created: a bad request (`400`) or a limit ([`Refused`]: `429`/`503`).
#[derive(Debug)]
pub enum CreateError {
    Bad(Error),
    Refused(Refused),
}

/// The characters of a room id: lower-case letters and digits, none that reads as another.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
/// Characters in a room id: 16 from `ALPHABET` are 79 bits. The id is all a person needs
/// to reach a private room (its link), so it is as hard to guess as a token; and ids drawn
/// this large do not come round again (two in a billion rooms share one with a chance of
/// about one in a million), so a closed room's id, which its finished matches' replays are
/// keyed on, is never another room's.
pub const ID_LEN: usize = 16;

/// A room id from `fill` (random bytes) that `taken` does not know: each character is one
/// random byte below 248 (= 8 × 31, so every character is equally likely), others are drawn
/// again.
fn new_id_with(fill: &mut dyn FnMut(&mut [u8]), taken: impl Fn(&str) -> bool) -> String {
    let limit = (256 / ALPHABET.len() * ALPHABET.len()) as u8;
    loop {
        let mut id = String::with_capacity(ID_LEN);
        let mut bytes = [0u8; 32];
        while id.len() < ID_LEN {
            fill(&mut bytes);
            for &b in bytes.iter().filter(|&&b| b < limit) {
                if id.len() < ID_LEN {
                    id.push(ALPHABET[usize::from(b) % ALPHABET.len()] as char);
                }
            }
        }
        if !taken(&id) {
            return id;
        }
    }
}

/// The most rooms one page of `GET /api/rooms` lists.
pub const PAGE: usize = 100;

impl Lobby {
    /// A lobby with every room the store remembers, each back in its task, and the default
    /// [`Limits`].
    pub async fn restore(store: store::Store) -> Result<Lobby, Error> {
        Lobby::restore_with(store, Usage::new(Arc::new(Limits::default()))).await
    }

    /// A lobby with every room the store remembers, each back in its task, counted in `usage`
    /// (and closed when empty after its `empty_room_ttl`, like any room).
    pub async fn restore_with(store: store::Store, usage: Arc<Usage>) -> Result<Lobby, Error> {
        Lobby::restore_node(store, usage, Node::local()).await
    }

    /// As [`Lobby::restore_with`], for `node` (one of a cluster's: it restores the rooms it
    /// owns, or nobody does).
    pub async fn restore_node(store: store::Store, usage: Arc<Usage>, node: Arc<Node>) -> Result<Lobby, Error> {
        let lobby = Lobby {
            rooms: Arc::new(Mutex::new(BTreeMap::new())),
            store: store.clone(),
            usage,
            node,
            unrunnable: Mutex::new(Default::default()),
            claiming: tokio::sync::Mutex::new(()),
            listed: tokio::sync::Mutex::new(None),
            waking: Arc::new(tokio::sync::Mutex::new(())),
        };
        let ttl = lobby.usage.limits().empty_room_ttl;
        spawn_sweeper(Arc::downgrade(&lobby.rooms), store.clone(), lobby.waking.clone(), ttl);
        let rooms = store.load_rooms().await?;
        lobby.restore_rooms(rooms, "room restored");
        Ok(lobby)
    }

    /// Rebuilds `rooms` (read from the store) and starts their tasks; their people have the
    /// seat hold from now to come back.
    fn restore_rooms(&self, rooms: Vec<store::StoredRoom>, what: &str) {
        let now = Instant::now();
        for stored in rooms {
            // A room that cannot be rebuilt stays in the database for a person to look at; it
            // does not keep the server, or the other rooms, from starting.
            let unrunnable = || self.unrunnable.lock().expect("unrunnable lock").insert(stored.id.clone());
            if let Some(why) = &stored.damaged {
                tracing::error!(room = %stored.id, "room not restored: {why}; left in the database");
                unrunnable();
                continue;
            }
            let kind = match stored.game.parse::<GameKind>() {
                Ok(kind) => kind,
                Err(_) => {
                    tracing::warn!("room {} is for unknown game {}; left in the database", stored.id, stored.game);
                    unrunnable();
                    continue;
                }
            };
            let ticket = self.usage.admit_restored();
            let rebuilt = visit_adapter(kind, RestoreRoom { stored: &stored, lobby: self, ticket, since: now })
                .unwrap_or_else(|| Err(Error::NoAdapter(kind.title())));
            match rebuilt {
                Ok(()) => tracing::info!(room = %stored.id, moves = stored.moves.len(), "{what}"),
                Err(e) => {
                    tracing::error!(room = %stored.id, "room not restored: {e}; left in the database");
                    unrunnable();
                }
            }
        }
    }

    /// Whether room `id` was read from the store and could not be run (see `unrunnable`).
    pub fn unrunnable(&self, id: &str) -> bool {
        self.unrunnable.lock().expect("unrunnable lock").contains(id)
    }

    pub fn usage(&self) -> &Arc<Usage> {
        &self.usage
    }

    /// A new room's id: [`ID_LEN`] characters from the operating system's random source,
    /// none a room in the lobby has, nor the store (another node's room, or a room that closed:
    /// its id is retired, never drawn again, as its finished matches' replays are keyed on it).
    async fn new_id(&self) -> Result<String, store::StoreError> {
        loop {
            let id = new_id_with(
                &mut |bytes| getrandom::fill(bytes).expect("the operating system's random source works"),
                |id| self.rooms.lock().expect("lobby lock").contains_key(id),
            );
            if !self.store.id_taken(&id).await? {
                return Ok(id);
            }
        }
    }

    /// Creates a room for `game`, stores it, starts its task, and returns its id. Not counted
    /// against any address (see [`Lobby::create_from`]).
    pub async fn create(&self, game: &str, options: RoomOptions) -> Result<String, Error> {
        self.create_from(game, options, None).await.map_err(|e| match e {
            CreateError::Bad(e) => e,
            CreateError::Refused(r) => Error::Refused(r.reason),
        })
    }

    /// Creates a room for `game` asked for by a client at `from`, within the limits.
    pub async fn create_from(
        &self,
        game: &str,
        options: RoomOptions,
        from: Option<IpAddr>,
    ) -> Result<String, CreateError> {
        options.check().map_err(CreateError::Bad)?;
        if options.seed.is_some() && !self.usage.limits().allow_seeded_rooms {
            return Err(CreateError::Bad(Error::BadOptions(
                "a room's seed cannot be chosen on this server (whoever picks it can replay the deal and see every hidden card); \
                 leave `seed` out, or start the server with `cardtable serve --allow-seeded-rooms` (tests, tournaments)"
                    .into(),
            )));
        }
        let kind = game.parse::<GameKind>().map_err(|e| CreateError::Bad(e.into()))?;
        if self.node.draining() {
            return Err(CreateError::Refused(Refused {
                status: 503,
                reason: "this server is stopping: create the room on another (try again)".into(),
            }));
        }
        crate::setup_rooms::admit(options.setup.as_deref(), kind.name(), self.usage.limits())
            .map_err(CreateError::Bad)?;
        let ticket = self.usage.admit_room(from).map_err(CreateError::Refused)?;
        let id = self.new_id().await.map_err(|e| CreateError::Bad(e.into()))?;
        let create = CreateRoom { id: id.clone(), options, lobby: self, ticket };
        visit_adapter(kind, create)
            .ok_or(CreateError::Bad(Error::NoAdapter(kind.title())))?
            .await
            .map_err(CreateError::Bad)?;
        Ok(id)
    }

    /// The database the rooms and finished matches are kept in.
    pub fn store(&self) -> &store::Store {
        &self.store
    }

    /// Whether room `id` exists (live or dormant).
    pub fn contains(&self, id: &str) -> bool {
        self.rooms.lock().expect("lobby lock").contains_key(id)
    }

    /// Connects `conn` (of `person`, if signed in) to room `id` (its packets go to `tx`),
    /// waking the room if it is dormant; `None` if there is no such room (or it closed
    /// meanwhile).
    pub async fn connect(
        &self,
        id: &str,
        conn: ConnId,
        tx: mpsc::Sender<Outbound>,
        person: Option<Person>,
    ) -> Option<RoomHandle> {
        // A room may close or go dormant between two looks; a few looks settle it.
        for _ in 0..4 {
            let busy = {
                let map = self.rooms.lock().expect("lobby lock");
                match map.get(id)? {
                    Slot::Live(h) => match h.try_connect(conn, tx.clone(), person.clone()) {
                        Ok(()) => return Some(h.clone()),
                        Err(TryConnect::Busy) => Some(h.clone()),
                        // Its task has just ended: look again once the lobby knows how.
                        Err(TryConnect::Gone) => None,
                    },
                    Slot::Dormant(_) => None,
                }
            };
            match busy {
                Some(h) => return h.connect(conn, tx, person).await.ok().map(|()| h),
                None => {
                    self.wake(id).await;
                    tokio::task::yield_now().await;
                }
            }
        }
        None
    }

    /// The live public rooms with ids after `after`, at most `limit` (at most [`PAGE`]), and
    /// the id to ask for the next page after, if there are more.
    pub fn list_page(&self, after: Option<&str>, limit: usize) -> (Vec<RoomSummary>, Option<String>) {
        use std::ops::Bound;
        let limit = limit.clamp(1, PAGE);
        let mut page = Vec::new();
        let mut more = None;
        let rooms = self.rooms.lock().expect("lobby lock");
        let from = after.map_or(Bound::Unbounded, |a| Bound::Excluded(a.to_string()));
        for (id, slot) in rooms.range((from, Bound::Unbounded)) {
            let s = slot.summary(id);
            if s.private {
                continue;
            }
            if page.len() == limit {
                more = page.last().map(|p: &RoomSummary| p.id.clone());
                break;
            }
            page.push(s);
        }
        (page, more)
    }

    /// The first page of live public rooms (see [`Lobby::list_page`]).
    pub fn list(&self) -> Vec<RoomSummary> {
        self.list_page(None, PAGE).0
    }

    /// One room's summary, listed or private (whoever has the id has the link).
    pub fn summary(&self, id: &str) -> Option<RoomSummary> {
        self.rooms.lock().expect("lobby lock").get(id).map(|slot| slot.summary(id))
    }

    /// Rooms gone dormant (in the count of [`Lobby::len`]).
    pub fn dormant(&self) -> usize {
        self.rooms.lock().expect("lobby lock").values().filter(|s| matches!(s, Slot::Dormant(_))).count()
    }

    /// The rooms by game and state (dormant ones apart), and the people connected to them:
    /// `GET /metrics`' gauges, counted under the lobby's lock without copying a summary.
    pub fn census(&self) -> crate::metrics::Census {
        let mut census = crate::metrics::Census::new();
        for slot in self.rooms.lock().expect("lobby lock").values() {
            match slot {
                Slot::Live(h) => {
                    let (game, state, people) = h.census();
                    census.count(game, state, people);
                }
                Slot::Dormant(d) => census.count(d.kind().name(), "dormant", 0),
            }
        }
        census
    }

    /// Live rooms (awake or dormant).
    pub fn len(&self) -> usize {
        self.rooms.lock().expect("lobby lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_hold_64_bits_or_more_and_are_drawn_again_when_taken() {
        assert!(ID_LEN as f64 * (ALPHABET.len() as f64).log2() >= 64.0);
        // Bytes 248 and over would favour the first letters: they are skipped.
        let mut calls = 0;
        let mut fill = |b: &mut [u8]| {
            calls += 1;
            b.fill(if calls == 1 { 250 } else { 0 });
        };
        let id = new_id_with(&mut fill, |_| false);
        assert_eq!(id, "a".repeat(ID_LEN));
        // A taken id is drawn again: the same bytes twice give a new draw, not the old id.
        let mut n = 0u8;
        let mut fill = |b: &mut [u8]| {
            b.fill(n / 2);
            n += 1;
        };
        let first = "a".repeat(ID_LEN);
        let id = new_id_with(&mut fill, |id| id == first);
        assert_ne!(id, first);
        assert_eq!(id.len(), ID_LEN);
    }
}
