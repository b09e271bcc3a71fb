//! The lobby: which rooms exist. A map from room id to a live room's handle or a dormant
//! room's summary, locked only to look up, insert or list — never across an `.await`.
//!
//! A room with nobody connected and no match goes dormant after [`DORMANT_AFTER`] (see
//! `room::life`): its task ends, and the lobby keeps its summary and its place in the limits.
//! The first connection to it wakes it (read back from the store, its task started again);
//! a dormant room nobody came back to is deleted once the server's empty-room time has passed
//! since it emptied, as a live room would have closed.

use crate::Error;
use crate::adapter::GameAdapter;
use crate::limits::{Limits, Refused, Ticket, Usage};
use crate::node::Node;
use crate::room::{ConnId, Inbox, Outbound, Person, Room, RoomHandle, RoomOptions, RoomSummary, RunEnd, TryConnect};
use registry::{GameInfo, GameKind};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

pub use crate::limits::DORMANT_AFTER;
/// How often dormant rooms past their time are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Code that works for any game's adapter: [`visit_adapter`] calls `visit` with the adapter
/// type of a [`GameKind`].
pub trait AdapterVisitor {
    type Out;
    fn visit<A: GameAdapter>(self) -> Self::Out;
}

/// The one place a [`GameKind`] becomes the server's adapter type; `None` for a game the
/// server has no adapter for yet. The `match` is exhaustive, so a game added to the registry
/// does not build until it has its line here.
pub fn visit_adapter<V: AdapterVisitor>(kind: GameKind, v: V) -> Option<V::Out> {
    Some(match kind {
        GameKind::Buckshot => v.visit::<crate::games::buckshot::BuckshotAdapter>(),
        GameKind::Ivanhoe => v.visit::<crate::games::ivanhoe::IvanhoeAdapter>(),
        GameKind::Sorcery => v.visit::<crate::games::sorcery::SorceryAdapter>(),
        GameKind::WolfPack => v.visit::<crate::games::wolfpack::WolfPackAdapter>(),
        GameKind::ThreeKingdoms => v.visit::<crate::games::three_kingdoms::ThreeKingdomsAdapter>(),
    })
}

/// Every game a room can be created for (those with an adapter), as `GET /api/games` lists them.
pub fn games() -> Vec<GameInfo> {
    struct Has;
    impl AdapterVisitor for Has {
        type Out = ();
        fn visit<A: GameAdapter>(self) {}
    }
    GameKind::ALL.iter().filter(|&&k| visit_adapter(k, Has).is_some()).map(|k| k.info()).collect()
}

/// A room as the lobby holds it.
enum Slot {
    Live(RoomHandle),
    Dormant(Dormant),
}

/// What the lobby keeps of a dormant room: enough to list it, wake it, and close it on time —
/// kept small (held inline, one allocation for the names), since a busy public server has
/// thousands of these for every room in use.
struct Dormant {
    kind: GameKind,
    private: bool,
    seeded: bool,
    spectators: u32,
    /// The players' names, one per line (a username has no line break: `protocol::check_username`).
    players: Box<str>,
    /// Since when nobody is connected (its empty-room time counts from here).
    since: Instant,
    /// Its place in the limits, handed to its task when it wakes (`None` while it wakes).
    ticket: Option<Ticket>,
}

impl Dormant {
    fn new(kind: GameKind, summary: &RoomSummary, since: Instant, ticket: Ticket) -> Dormant {
        Dormant {
            kind,
            private: summary.private,
            seeded: summary.seeded,
            spectators: u32::try_from(summary.spectators).unwrap_or(u32::MAX),
            players: summary.players.join("\n").into_boxed_str(),
            since,
            ticket: Some(ticket),
        }
    }

    /// Its summary as listed (a dormant room has no match: it is in its lobby).
    fn summary(&self, id: &str) -> RoomSummary {
        RoomSummary {
            id: id.to_string(),
            game: self.kind.name(),
            players: self.players.split('\n').filter(|p| !p.is_empty()).map(str::to_string).collect(),
            state: "lobby",
            spectators: self.spectators as usize,
            private: self.private,
            seeded: self.seeded,
        }
    }
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

/// Starts a room's task. The task holds the room's [`Ticket`] (its place in the limits) and,
/// when the room closes, takes it out of the lobby: the room's memory goes with its task. A
/// room going dormant leaves its summary and ticket in the lobby instead. (Only a weak
/// reference to the lobby: a lobby dropped at shutdown ends its rooms.)
fn spawn<A: GameAdapter>(
    room: Room<A>,
    inbox: Inbox,
    id: String,
    rooms: Weak<Rooms>,
    ticket: Ticket,
    handle: RoomHandle,
) {
    tokio::spawn(async move {
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
    });
}

/// Deletes dormant rooms nobody came back to within `ttl` of their emptying, every
/// [`SWEEP_EVERY`], until the lobby is gone.
fn spawn_sweeper(rooms: Weak<Rooms>, store: store::Store, waking: Arc<tokio::sync::Mutex<()>>, ttl: Duration) {
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
        self.restore_rooms(rooms, "room claimed: restored from its snapshot and log");
    }

    /// The rooms this node runs (live or dormant) with the epoch it holds for each
    /// (PostgreSQL; nothing on SQLite).
    pub fn held_epochs(&self) -> Vec<(String, i64)> {
        let Some(pg) = self.store.postgres() else { return Vec::new() };
        let ids: Vec<String> = self.rooms.lock().expect("lobby lock").keys().cloned().collect();
        ids.into_iter().filter_map(|id| pg.held_epoch(&id).map(|e| (id, e))).collect()
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
        if let Some(pg) = self.store.postgres() {
            match pg.release_all().await {
                Ok(n) => tracing::info!(node = self.node.id(), rooms = n, "drained: every room handed over"),
                Err(e) => tracing::error!(
                    node = self.node.id(),
                    "handing the rooms over failed: {e}; they will be claimed after the TTL"
                ),
            }
        }
    }

    pub fn usage(&self) -> &Arc<Usage> {
        &self.usage
    }

    /// The server-wide times every room of this lobby lives by.
    fn prepare<A: GameAdapter>(&self, room: &mut Room<A>) {
        let ttl = self.usage.limits().empty_room_ttl;
        room.set_empty_ttl(ttl);
        room.set_dormant_after(self.usage.limits().dormant_after.min(ttl));
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
        crate::setup_rooms::admit(&options, kind.name(), self.usage.limits()).map_err(CreateError::Bad)?;
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

    /// Reads dormant room `id` back from the store and starts its task (nothing if it is not
    /// dormant).
    async fn wake(&self, id: &str) {
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

    /// Live rooms (awake or dormant).
    pub fn len(&self) -> usize {
        self.rooms.lock().expect("lobby lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        let Some(pg) = self.store.postgres().filter(|_| self.node.cluster) else { return Ok(Whereabouts::Missing) };
        if !self.node.connected() {
            // Cut off for a TTL: the database would not answer (or only after the time limit),
            // and the client does better to ask another node now.
            return Err(store::StoreError::Unavailable("this node cannot reach the database".into()));
        }
        let ttl = self.node.config.ttl;
        let Some(found) = pg.locate(id, ttl).await? else { return Ok(Whereabouts::Missing) };
        let _claims = self.claims().await;
        if self.contains(id) {
            // Claimed meanwhile (the heartbeat, another lookup).
            return Ok(Whereabouts::Here);
        }
        if found.owner.as_deref() == Some(self.node.id()) {
            if self.node.draining() || !self.node.connected() {
                return Ok(Whereabouts::Moving);
            }
            let rooms = pg.reclaim_own(&[id.to_string()]).await?;
            self.adopt(rooms);
        } else if found.live {
            return Ok(Whereabouts::Elsewhere {
                node: found.owner.unwrap_or_default(),
                path: found.advertise,
                summary: summary_from_listing(id, &found.game, found.listing.as_deref()),
            });
        } else if self.node.may_claim() {
            let rooms = pg.claim_orphans(ttl, 1, Some(id)).await?;
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
        let Some(pg) = self.store.postgres() else { return Ok((Vec::new(), None)) };
        let list = {
            let mut cached = self.listed.lock().await;
            match &*cached {
                Some((at, list)) if at.elapsed() < LISTED_FOR => list.clone(),
                _ => {
                    let rows = pg.listed().await?;
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

/// Rebuilds a stored room, puts it in the lobby and starts its task.
struct RestoreRoom<'a> {
    stored: &'a store::StoredRoom,
    lobby: &'a Lobby,
    ticket: Ticket,
    /// Since when its people are gone (now at a start; when it emptied for a dormant room).
    since: Instant,
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
        spawn(room, rx, stored.id.clone(), Arc::downgrade(&lobby.rooms), ticket, handle);
        Ok(())
    }
}

/// Checks a new room's options against its game, stores the room and starts its task.
struct CreateRoom<'a> {
    id: String,
    options: RoomOptions,
    lobby: &'a Lobby,
    ticket: Ticket,
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
            spawn(room, rx, id, Arc::downgrade(&lobby.rooms), ticket, handle);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind's adapter is for that kind's game, and agrees with the registry on seats.
    #[test]
    fn every_kind_has_its_own_adapter() {
        struct Facts;
        impl AdapterVisitor for Facts {
            type Out = (&'static str, usize, usize);
            fn visit<A: GameAdapter>(self) -> Self::Out {
                (A::name(), A::MIN_PLAYERS, A::MAX_PLAYERS)
            }
        }
        for &kind in GameKind::ALL {
            let Some((name, min, max)) = visit_adapter(kind, Facts) else { continue };
            assert_eq!(name, kind.name());
            assert_eq!((min, max), (usize::from(*kind.seats().start()), usize::from(*kind.seats().end())), "{kind}");
        }
    }

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
