//! The lobby: which rooms exist. A map from room id to handle, locked only to look up, insert
//! or list — never across an `.await`.

use crate::Error;
use crate::adapter::GameAdapter;
use crate::limits::{Limits, Refused, Ticket, Usage};
use crate::room::{Inbox, Room, RoomHandle, RoomOptions, RoomSummary};
use registry::{GameInfo, GameKind};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};

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

/// The rooms by id. Each room's task removes its own entry when the room closes.
type Rooms = Mutex<BTreeMap<String, RoomHandle>>;

pub struct Lobby {
    rooms: Arc<Rooms>,
    store: store::Store,
    usage: Arc<Usage>,
}

/// Why a room was not created: a bad request (`400`) or a limit ([`Refused`]: `429`/`503`).
#[derive(Debug)]
pub enum CreateError {
    Bad(Error),
    Refused(Refused),
}

/// The most rooms one page of `GET /api/rooms` lists.
pub const PAGE: usize = 100;

/// Starts a room's task. The task holds the room's [`Ticket`] (its place in the limits) and,
/// when the room closes, takes it out of the lobby: the room's memory goes with its task.
/// (Only a weak reference to the lobby: a lobby dropped at shutdown ends its rooms.)
fn spawn<A: GameAdapter>(room: Room<A>, inbox: Inbox, id: String, rooms: Weak<Rooms>, ticket: Ticket) {
    tokio::spawn(async move {
        room.run(inbox).await;
        if let Some(rooms) = rooms.upgrade() {
            rooms.lock().expect("lobby lock").remove(&id);
        }
        drop(ticket);
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
        let lobby = Lobby { rooms: Arc::new(Mutex::new(BTreeMap::new())), store: store.clone(), usage };
        for stored in store.load_rooms().await? {
            // A room that cannot be rebuilt stays in the database for a person to look at; it
            // does not keep the server, or the other rooms, from starting.
            if let Some(why) = &stored.damaged {
                tracing::error!(room = %stored.id, "room not restored: {why}; left in the database");
                continue;
            }
            let kind = match stored.game.parse::<GameKind>() {
                Ok(kind) => kind,
                Err(_) => {
                    tracing::warn!("room {} is for unknown game {}; left in the database", stored.id, stored.game);
                    continue;
                }
            };
            let ticket = lobby.usage.admit_restored();
            let rebuilt = visit_adapter(kind, RestoreRoom { stored: &stored, lobby: &lobby, ticket })
                .unwrap_or_else(|| Err(Error::NoAdapter(kind.title())));
            let handle = match rebuilt {
                Ok(handle) => handle,
                Err(e) => {
                    tracing::error!(room = %stored.id, "room not restored: {e}; left in the database");
                    continue;
                }
            };
            tracing::info!(room = %stored.id, moves = stored.moves.len(), "room restored");
            lobby.rooms.lock().expect("lobby lock").insert(stored.id.clone(), handle);
        }
        Ok(lobby)
    }

    pub fn usage(&self) -> &Arc<Usage> {
        &self.usage
    }

    fn new_id(&self) -> String {
        const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
        loop {
            // From the operating system, so nobody can list the rooms' ids from the clock.
            let mut bytes = [0u8; 6];
            getrandom::fill(&mut bytes).expect("the operating system's random source works");
            let id: String = bytes.iter().map(|&b| ALPHABET[usize::from(b) % ALPHABET.len()] as char).collect();
            if !self.rooms.lock().expect("lobby lock").contains_key(&id) {
                return id;
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
        let kind = game.parse::<GameKind>().map_err(|e| CreateError::Bad(e.into()))?;
        let ticket = self.usage.admit_room(from).map_err(CreateError::Refused)?;
        let id = self.new_id();
        let create = CreateRoom { id: id.clone(), options, lobby: self, ticket };
        let handle = visit_adapter(kind, create)
            .ok_or(CreateError::Bad(Error::NoAdapter(kind.title())))?
            .await
            .map_err(CreateError::Bad)?;
        self.rooms.lock().expect("lobby lock").insert(id.clone(), handle);
        Ok(id)
    }

    /// The database the rooms and finished matches are kept in.
    pub fn store(&self) -> &store::Store {
        &self.store
    }

    pub fn get(&self, id: &str) -> Option<RoomHandle> {
        self.rooms.lock().expect("lobby lock").get(id).cloned()
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
        for h in rooms.range((from, Bound::Unbounded)).map(|(_, h)| h) {
            let s = h.summary();
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
        self.get(id).map(|h| h.summary())
    }

    /// Live rooms.
    pub fn len(&self) -> usize {
        self.rooms.lock().expect("lobby lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Rebuilds a stored room and starts its task.
struct RestoreRoom<'a> {
    stored: &'a store::StoredRoom,
    lobby: &'a Lobby,
    ticket: Ticket,
}

impl AdapterVisitor for RestoreRoom<'_> {
    type Out = Result<RoomHandle, Error>;

    fn visit<A: GameAdapter>(self) -> Self::Out {
        let RestoreRoom { stored, lobby, ticket } = self;
        let store = &lobby.store;
        // Rebuilding replays the match through the game's rules; a panic there is a bug, but
        // it costs this room only, never the server (nor a restart loop).
        let rebuilt =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Room::<A>::restore(stored, store.clone())))
                .unwrap_or_else(|_| Err(Error::restore(&stored.id, "rebuilding it panicked")));
        let (mut room, handle, rx) = rebuilt?;
        room.set_empty_ttl(lobby.usage.limits().empty_room_ttl);
        spawn(room, rx, stored.id.clone(), Arc::downgrade(&lobby.rooms), ticket);
        Ok(handle)
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
    type Out = BoxFuture<'a, Result<RoomHandle, Error>>;

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
            room.set_empty_ttl(lobby.usage.limits().empty_room_ttl);
            room.persist_new().await?;
            spawn(room, rx, id, Arc::downgrade(&lobby.rooms), ticket);
            Ok(handle)
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
}
