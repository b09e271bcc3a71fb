//! How the rest of the server reaches a room: a [`RoomHandle`] whose methods post commands to
//! the room's task, and the summary the lobby lists.

use serde::Serialize;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot, watch};

/// One message to one connection: a serialized JSON packet; clones share the bytes.
pub type Outbound = axum::extract::ws::Utf8Bytes;

/// Identifies a connection within the server.
pub type ConnId = u64;

/// The signed-in person behind a connection (its session cookie, checked when the socket
/// opened): a room seats them under their account's name, and a match records the account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub account: i64,
    pub name: String,
}

/// What the lobby lists about a room.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoomSummary {
    pub id: String,
    pub game: &'static str,
    pub players: Vec<String>,
    pub state: &'static str,
    pub spectators: usize,
    /// Not listed (the room's `private` option).
    #[serde(skip)]
    pub private: bool,
    /// Its creator chose the seed (see `Limits::allow_seeded_rooms`): whoever knows the seed
    /// can work out every hidden card.
    pub seeded: bool,
    /// Its games count for the people's ratings (chosen at creation, never changed).
    pub rated: bool,
    /// When the room was made (ms since the epoch; 0: not known, a room stored before it was
    /// kept): a moderator's list shows its age. Not in the public list.
    #[serde(skip)]
    pub created_at: u64,
    /// Members with a connected socket (for `GET /metrics`).
    #[serde(skip)]
    pub connected: usize,
}

/// What a room's task is asked to do (through a [`RoomHandle`]'s methods).
pub(super) enum RoomCmd {
    Connect {
        conn: ConnId,
        tx: mpsc::Sender<Outbound>,
        person: Option<Person>,
    },
    Text {
        conn: ConnId,
        text: Outbound,
        /// When it was read off the socket.
        at: tokio::time::Instant,
    },
    Binary {
        conn: ConnId,
    },
    RateLimited {
        conn: ConnId,
    },
    Disconnect {
        conn: ConnId,
    },
    /// Test and shutdown support: resolves once everything before it was handled.
    Flush {
        done: oneshot::Sender<()>,
    },
    /// The room is no longer this server's (taken over, handed over, or let go): its task
    /// ends, writing nothing more (see [`RoomHandle::let_go`]).
    Moved,
    /// A moderator closes the room with `message` for its players; `done` hears whether it
    /// closed (false: the store refused, nothing changed).
    Close {
        message: String,
        done: oneshot::Sender<bool>,
    },
    /// `account` was banned: its connections hear `Banned` and are dropped.
    Expel {
        account: i64,
        reason: String,
        until: Option<u64>,
    },
}

/// The receiving end of a room's commands, handed to [`super::Room::run`].
pub struct Inbox(pub(super) mpsc::Receiver<RoomCmd>);

impl Inbox {
    /// No command is waiting (a room going dormant checks this under the lobby's lock, where
    /// connections post their `Connect`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Why [`RoomHandle::try_connect`] did not post.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryConnect {
    /// The room's queue is full: wait in line with [`RoomHandle::connect`].
    Busy,
    Gone,
}

/// Whether a room is no longer this server's (taken over, handed over, let go, or a write of
/// it found it fenced): shared by the room's task (which ends) and its connections (which
/// close `4001`, see `conn`), and watched by the connections so they close even while the task
/// waits on a write that will not come back (a link to the database gone silent).
#[derive(Clone)]
pub struct Moved(Arc<watch::Sender<bool>>);

impl Moved {
    fn new() -> Moved {
        Moved(Arc::new(watch::channel(false).0))
    }

    pub fn set(&self) {
        self.0.send_replace(true);
    }

    pub fn get(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once the room has moved.
    pub fn wait(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.0.subscribe();
        async move {
            // The sender lives as long as this handle's room: an error cannot happen while
            // anyone waits here; a moved room is all that resolves it.
            if rx.wait_for(|moved| *moved).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

/// The room's task has ended: nothing more can be sent to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomGone;

/// A room as the lobby and the connections see it: its id and game, a way to post it
/// commands (in order; each method waits only for room in the room's queue), and its summary.
#[derive(Clone)]
pub struct RoomHandle {
    pub id: String,
    pub game: &'static str,
    tx: mpsc::Sender<RoomCmd>,
    summary: Arc<Mutex<RoomSummary>>,
    /// The room moved to another server (or was handed over): its sockets close `4001`.
    moved: Moved,
}

impl RoomHandle {
    pub(super) fn new(
        id: String,
        game: &'static str,
        private: bool,
        seeded: bool,
        rated: bool,
    ) -> (Self, Inbox, Arc<Mutex<RoomSummary>>, Moved) {
        let (tx, rx) = mpsc::channel(1024);
        let summary = Arc::new(Mutex::new(RoomSummary {
            id: id.clone(),
            game,
            players: Vec::new(),
            state: "lobby",
            spectators: 0,
            private,
            seeded,
            rated,
            created_at: 0,
            connected: 0,
        }));
        let moved = Moved::new();
        (RoomHandle { id, game, tx, summary: summary.clone(), moved: moved.clone() }, Inbox(rx), summary, moved)
    }

    async fn post(&self, cmd: RoomCmd) -> Result<(), RoomGone> {
        self.tx.send(cmd).await.map_err(|_| RoomGone)
    }

    /// A new connection `conn` (of `person`, if signed in); the room sends its packets to `tx`.
    pub async fn connect(
        &self,
        conn: ConnId,
        tx: mpsc::Sender<Outbound>,
        person: Option<Person>,
    ) -> Result<(), RoomGone> {
        self.post(RoomCmd::Connect { conn, tx, person }).await
    }

    /// As [`RoomHandle::connect`], without waiting: the lobby posts a connection under its lock,
    /// so a room cannot go dormant between the lookup and the post.
    pub fn try_connect(
        &self,
        conn: ConnId,
        tx: mpsc::Sender<Outbound>,
        person: Option<Person>,
    ) -> Result<(), TryConnect> {
        self.tx.try_send(RoomCmd::Connect { conn, tx, person }).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => TryConnect::Busy,
            mpsc::error::TrySendError::Closed(_) => TryConnect::Gone,
        })
    }

    /// A text frame (a packet) from `conn`.
    pub async fn text(&self, conn: ConnId, text: Outbound) -> Result<(), RoomGone> {
        self.text_at(conn, text, tokio::time::Instant::now()).await
    }

    /// A text frame (a packet) from `conn`, read off its socket `at` (a move's latency counts
    /// from there).
    pub async fn text_at(&self, conn: ConnId, text: Outbound, at: tokio::time::Instant) -> Result<(), RoomGone> {
        self.post(RoomCmd::Text { conn, text, at }).await
    }

    /// `conn` sent a binary frame (refused with `binary_frame`).
    pub async fn binary(&self, conn: ConnId) -> Result<(), RoomGone> {
        self.post(RoomCmd::Binary { conn }).await
    }

    /// `conn` sends faster than its rate limit (told `rate_limited`).
    pub async fn rate_limited(&self, conn: ConnId) -> Result<(), RoomGone> {
        self.post(RoomCmd::RateLimited { conn }).await
    }

    /// `conn` closed (or was closed).
    pub async fn disconnect(&self, conn: ConnId) -> Result<(), RoomGone> {
        self.post(RoomCmd::Disconnect { conn }).await
    }

    /// Resolves once the room has handled everything posted before it.
    pub async fn flush(&self) -> Result<(), RoomGone> {
        let (done, flushed) = oneshot::channel();
        self.post(RoomCmd::Flush { done }).await?;
        flushed.await.map_err(|_| RoomGone)
    }

    /// Tells the room it is no longer this server's: its task ends after the command it is
    /// handling (whose writes, if the room is still this server's in the database, complete),
    /// writes nothing more, and its sockets close `4001` "moved".
    pub fn let_go(&self) {
        self.moved.set();
        // Only a wake-up: a full queue means the room is busy, and it reads the flag after
        // each command.
        let _ = self.tx.try_send(RoomCmd::Moved);
    }

    /// A moderator closes the room with `message`: answers whether it closed (false: the
    /// store refused; nothing changed).
    pub async fn close(&self, message: String) -> Result<bool, RoomGone> {
        let (done, closed) = oneshot::channel();
        self.post(RoomCmd::Close { message, done }).await?;
        closed.await.map_err(|_| RoomGone)
    }

    /// Drops `account`'s connections, each told `Banned` first (the ban holds until `until`).
    pub async fn expel(&self, account: i64, reason: String, until: Option<u64>) -> Result<(), RoomGone> {
        self.post(RoomCmd::Expel { account, reason, until }).await
    }

    /// Whether the room moved (taken over, handed over, let go, or a write found it fenced).
    pub fn moved(&self) -> bool {
        self.moved.get()
    }

    /// Resolves once the room has moved (see [`Moved`]).
    pub fn moved_signal(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        self.moved.wait()
    }

    /// Whether both handles reach the same room task.
    pub fn same(&self, other: &RoomHandle) -> bool {
        self.tx.same_channel(&other.tx)
    }

    /// Resolves once the room's task has ended.
    pub async fn gone(&self) {
        self.tx.closed().await
    }

    /// The room's game, state and members connected (for `GET /metrics`), without a copy of
    /// its summary.
    pub fn census(&self) -> (&'static str, &'static str, usize) {
        let s = self.summary.lock().expect("summary lock");
        (s.game, s.state, s.connected)
    }

    /// The room's latest summary (for the lobby's list).
    pub fn summary(&self) -> RoomSummary {
        self.summary.lock().expect("summary lock").clone()
    }
}
