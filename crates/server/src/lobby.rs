//! The lobby: which rooms exist. A map from room id to handle, locked only to look up, insert
//! or list — never across an `.await`.

use crate::Error;
use crate::adapter::GameAdapter;
use crate::room::{Inbox, Room, RoomHandle, RoomOptions, RoomSummary};
use registry::{GameInfo, GameKind};
use std::collections::BTreeMap;
use std::sync::Mutex;

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

pub struct Lobby {
    rooms: Mutex<BTreeMap<String, RoomHandle>>,
    store: store::Store,
}

fn spawn<A: GameAdapter>(room: Room<A>, inbox: Inbox) {
    tokio::spawn(room.run(inbox));
}

impl Lobby {
    /// A lobby with every room the store remembers, each back in its task.
    pub async fn restore(store: store::Store) -> Result<Lobby, Error> {
        let lobby = Lobby { rooms: Mutex::new(BTreeMap::new()), store: store.clone() };
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
            let rebuilt = visit_adapter(kind, RestoreRoom { stored: &stored, store: &store })
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

    /// Creates a room for `game`, stores it, starts its task, and returns its id.
    pub async fn create(&self, game: &str, options: RoomOptions) -> Result<String, Error> {
        options.check()?;
        let id = self.new_id();
        let kind = game.parse::<GameKind>()?;
        let create = visit_adapter(kind, CreateRoom { id: id.clone(), options, store: self.store.clone() })
            .ok_or(Error::NoAdapter(kind.title()))?;
        let handle = create.await?;
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

    pub fn list(&self) -> Vec<RoomSummary> {
        let handles: Vec<RoomHandle> = self.rooms.lock().expect("lobby lock").values().cloned().collect();
        handles.iter().map(RoomHandle::summary).collect()
    }

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
    store: &'a store::Store,
}

impl AdapterVisitor for RestoreRoom<'_> {
    type Out = Result<RoomHandle, Error>;

    fn visit<A: GameAdapter>(self) -> Self::Out {
        let RestoreRoom { stored, store } = self;
        // Rebuilding replays the match through the game's rules; a panic there is a bug, but
        // it costs this room only, never the server (nor a restart loop).
        let rebuilt =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Room::<A>::restore(stored, store.clone())))
                .unwrap_or_else(|_| Err(Error::restore(&stored.id, "rebuilding it panicked")));
        let (room, handle, rx) = rebuilt?;
        spawn(room, rx);
        Ok(handle)
    }
}

/// Checks a new room's options against its game, stores the room and starts its task.
struct CreateRoom {
    id: String,
    options: RoomOptions,
    store: store::Store,
}

type BoxFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>;

impl AdapterVisitor for CreateRoom {
    type Out = BoxFuture<Result<RoomHandle, Error>>;

    fn visit<A: GameAdapter>(self) -> Self::Out {
        Box::pin(async move {
            let CreateRoom { id, options, store } = self;
            // The game's own options, as a match of any size would read them.
            if let Err(e) =
                (A::MIN_PLAYERS..=A::MAX_PLAYERS).try_for_each(|n| A::config(n, &options.game_options).map(drop))
            {
                return Err(Error::BadOptions(format!("gameOptions: {e}")));
            }
            let (room, handle, rx) = Room::<A>::create(id, options, store);
            room.persist_new().await?;
            spawn(room, rx);
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
