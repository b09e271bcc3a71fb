//! The WAL folded back into the database: by a thread of its own, or by an exclusive writer.

use super::*;

/// How often the checkpoint thread folds the WAL back into the database while writes come in.
pub(crate) const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);
/// Past this many frames in the WAL the writer completes a checkpoint itself, between two
/// commits, so the WAL starts over. The checkpoint thread cannot complete one while commits
/// keep coming (each pass leaves the frames written meanwhile), and a WAL only starts over
/// once every frame is in the database; on a server that is ever quiet for a moment, it does
/// so by itself. Under constant load this caps the WAL (64 MiB with 1 KiB pages) at the price
/// of one short stall (the last frames and two fsyncs) every few seconds.
pub(crate) const WAL_RESET_FRAMES: u64 = 65_536;
/// An exclusive store (no second connection, so no checkpoint thread) folds the WAL back on
/// its own thread after this many commits, or after [`CHECKPOINT_EVERY`] without a request.
/// Rare and large rather than often and small: each one holds the writer for a few
/// milliseconds (the pages changed since the last, and two fsyncs), and a few stalls a
/// second would show in every latency percentile.
pub(crate) const EXCLUSIVE_CHECKPOINT_COMMITS: u64 = 8_192;

/// What the two threads tell each other about the WAL.
#[derive(Default)]
pub(crate) struct WalState {
    /// Commits since the last checkpoint.
    pub(crate) dirty: AtomicBool,
    /// Frames in the WAL at the last checkpoint.
    pub(crate) frames: AtomicU64,
}

/// Runs a PASSIVE checkpoint; returns the frames in the WAL.
pub(crate) fn checkpoint(conn: &Connection) -> rusqlite::Result<u64> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1)).map(|n| n.max(0) as u64)
}

/// Folds the WAL into the database every [`CHECKPOINT_EVERY`] while there are writes, and once
/// more when the store closes. PASSIVE: it never blocks the writer (pages the writer is
/// changing are simply left for the next round).
pub(crate) fn checkpoint_loop(conn: &Connection, stop: &std_mpsc::Receiver<()>, wal: &WalState, file: &Path) {
    let run = || match checkpoint(conn) {
        Ok(frames) => wal.frames.store(frames, Ordering::Relaxed),
        Err(e) => tracing::error!("checkpoint of {} failed: {e}", file.display()),
    };
    loop {
        match stop.recv_timeout(CHECKPOINT_EVERY) {
            Err(std_mpsc::RecvTimeoutError::Timeout) => {
                if wal.dirty.swap(false, Ordering::Relaxed) {
                    run();
                }
            }
            // The writer has stopped.
            _ => {
                run();
                return;
            }
        }
    }
}
