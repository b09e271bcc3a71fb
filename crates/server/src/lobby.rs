//! The lobby: which rooms exist. A map from room id to handle, locked only to look up, insert
//! or list — never across an `.await`.

use crate::adapter::GameAdapter;
use crate::room::{Room, RoomHandle, RoomOptions, RoomSummary};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The games a room can be created for.
pub const GAMES: &[&str] = &["buckshot", "ivanhoe", "sorcery", "wolfpack"];

/// Runs `$body` with `$A` bound to the adapter type of the game named `$game`, or `$other`
/// if no game has that name. Adding a game to the server is one line here and one in `GAMES`.
macro_rules! with_adapter {
    ($game:expr, $A:ident => $body:expr, else $other:expr) => {
        match $game {
            "buckshot" => {
                type $A = crate::games::buckshot::BuckshotAdapter;
                $body
            }
            "ivanhoe" => {
                type $A = crate::games::ivanhoe::IvanhoeAdapter;
                $body
            }
            "sorcery" => {
                type $A = crate::games::sorcery::SorceryAdapter;
                $body
            }
            "wolfpack" => {
                type $A = crate::games::wolfpack::WolfPackAdapter;
                $body
            }
            _ => $other,
        }
    };
}

pub struct Lobby {
    rooms: Mutex<BTreeMap<String, RoomHandle>>,
    store: store::Store,
}

fn spawn<A: GameAdapter>(room: Room<A>, rx: tokio::sync::mpsc::Receiver<crate::room::RoomCmd>) {
    tokio::spawn(room.run(rx));
}

impl Lobby {
    /// A lobby with every room the store remembers, each back in its task.
    pub async fn restore(store: store::Store) -> Result<Lobby, String> {
        let lobby = Lobby { rooms: Mutex::new(BTreeMap::new()), store: store.clone() };
        for stored in store.load_rooms().await? {
            // A room that cannot be rebuilt stays in the database for a person to look at; it
            // does not keep the server, or the other rooms, from starting.
            if let Some(why) = &stored.damaged {
                tracing::error!(room = %stored.id, "room not restored: {why}; left in the database");
                continue;
            }
            let handle = with_adapter!(stored.game.as_str(), A => {
                // Rebuilding replays the match through the game's rules; a panic there is a
                // bug, but it costs this room only, never the server (nor a restart loop).
                let rebuilt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    Room::<A>::restore(&stored, store.clone())
                }))
                .unwrap_or_else(|_| Err(format!("room {}: rebuilding it panicked", stored.id)));
                match rebuilt {
                    Ok((room, handle, rx)) => {
                        spawn(room, rx);
                        handle
                    }
                    Err(e) => {
                        tracing::error!(room = %stored.id, "room not restored: {e}; left in the database");
                        continue;
                    }
                }
            }, else {
                tracing::warn!("room {} is for unknown game {}; left in the database", stored.id, stored.game);
                continue;
            });
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
    pub async fn create(&self, game: &str, options: RoomOptions) -> Result<String, String> {
        options.check()?;
        let id = self.new_id();
        let handle = with_adapter!(game, A => {
            // The game's own options, as a match of any size would read them.
            if let Err(e) = (A::MIN_PLAYERS..=A::MAX_PLAYERS).try_for_each(|n| A::config(n, &options.game_options).map(drop)) {
                return Err(format!("gameOptions: {e}"));
            }
            let (room, handle, rx) = Room::<A>::create(id.clone(), options, self.store.clone());
            room.persist_new().await?;
            spawn(room, rx);
            handle
        }, else return Err(format!("unknown game `{game}` (known: {})", GAMES.join(", "))));
        self.rooms.lock().expect("lobby lock").insert(id.clone(), handle);
        Ok(id)
    }

    pub fn get(&self, id: &str) -> Option<RoomHandle> {
        self.rooms.lock().expect("lobby lock").get(id).cloned()
    }

    pub fn list(&self) -> Vec<RoomSummary> {
        let handles: Vec<RoomHandle> = self.rooms.lock().expect("lobby lock").values().cloned().collect();
        handles.iter().map(|h| h.summary.lock().expect("summary lock").clone()).collect()
    }

    pub fn len(&self) -> usize {
        self.rooms.lock().expect("lobby lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
