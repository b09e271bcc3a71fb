//! Group commit, shared by both backends: the requests of one scheduler tick, gathered into one
//! batch and handed to the backend's writer as one transaction.

use crate::records::{MatchRecord, StoreError, StoredRoom};
use std::sync::Mutex;
use tokio::sync::oneshot;

pub(crate) enum Cmd {
    SaveRoom {
        id: String,
        game: String,
        snapshot: String,
        /// What the lobby lists about the room (JSON), kept on its row where every node of a
        /// cluster reads it (PostgreSQL; `None` keeps the last one; SQLite lists from memory).
        listing: Option<String>,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    AppendMove {
        id: String,
        index: u64,
        entry: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Clears a room's moves (a new match begins) and saves its snapshot.
    ResetMoves {
        id: String,
        snapshot: String,
        /// As in `SaveRoom`.
        listing: Option<String>,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    DeleteRoom {
        id: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    AppendChat {
        id: String,
        entry: String,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    FinishMatch {
        record: MatchRecord,
        /// The match's number in its room (`Some`: recorded once per room and number, a
        /// second record replacing the first; see [`crate::Store::record_match`]).
        number: Option<u64>,
        ack: oneshot::Sender<Result<i64, StoreError>>,
    },
    LoadRooms {
        /// One room (a dormant room woken), or every room (the server starting).
        only: Option<String>,
        reply: oneshot::Sender<Result<Vec<StoredRoom>, StoreError>>,
    },
    GetMatch {
        id: i64,
        reply: oneshot::Sender<Result<Option<MatchRecord>, StoreError>>,
    },
    ListMatches {
        limit: u32,
        reply: oneshot::Sender<Result<Vec<MatchRecord>, StoreError>>,
    },
    /// Whether a room id is in use or was ever used (a live room, or a retired id).
    IdTaken {
        id: String,
        reply: oneshot::Sender<Result<bool, StoreError>>,
    },
}

impl Cmd {
    /// A small write (committed inline); the rest are reads, which may take long.
    pub(crate) fn is_write(&self) -> bool {
        !matches!(self, Cmd::LoadRooms { .. } | Cmd::GetMatch { .. } | Cmd::ListMatches { .. } | Cmd::IdTaken { .. })
    }
}

/// Goes to the back of the scheduler's queue once: every task already scheduled runs before
/// this one goes on. Unlike `tokio::task::yield_now`, which defers the task until the runtime
/// has polled for IO, this costs no `epoll_wait` when nothing else is ready (one more system
/// call a move for a lone room); the rooms a batch gathers are those queued to run either way.
pub(crate) struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

/// A backend's side of group commit: where a tick's requests wait, and how they are handed to
/// its writer.
pub(crate) trait Gather {
    fn pending(&self) -> &Mutex<Vec<Cmd>>;
    /// Commits (or sends off to be committed) everything pending, if anything is.
    fn hand_over(&self);
}

/// Hands the batch over when the leading request stops waiting, even if it is cancelled.
pub(crate) struct HandOver<'a, G: Gather>(&'a G);

impl<G: Gather> Drop for HandOver<'_, G> {
    fn drop(&mut self) {
        self.0.hand_over();
    }
}

/// Adds a request to the tick's batch and waits for its answer.
pub(crate) async fn call<G: Gather, T>(
    gather: &G,
    make: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Cmd,
) -> Result<T, StoreError> {
    let (tx, rx) = oneshot::channel();
    let leads = {
        let mut pending = gather.pending().lock().expect("store queue lock");
        pending.push(make(tx));
        pending.len() == 1
    };
    if leads {
        // The first request since the last hand-over waits one scheduler round, so the
        // other rooms ready to run add theirs, then hands the batch to the writer.
        let _hand_over = HandOver(gather);
        YieldOnce(false).await;
    }
    rx.await.map_err(|_| StoreError::Closed)?
}
