//! Collecting the move log's dead rows.

use super::*;

/// Dead moves are collected after this many appends, at most [`GC_CHUNK`] at a time (a
/// bounded, small delete: no pause for the rooms waiting on the commit)...
pub(crate) const GC_EVERY: u64 = 512;
pub(crate) const GC_CHUNK: u64 = 2048;
/// ...and every move is checked against its room once the log holds this many rows and twice
/// as many as after the last such sweep (a room whose match never ends holds back the cheap
/// collection, which only removes the log's oldest rows).
pub(crate) const SWEEP_AT: u64 = 100_000;

/// Moves (by `seq`) a sweep deletes from in one transaction.
pub(crate) const SWEEP_WINDOW: i64 = 4096;

/// Where the next move's `seq` will start a room's match.
pub(crate) const NEXT_SEQ: &str = "(SELECT coalesce(max(seq), 0) + 1 FROM moves)";

/// The writer's bookkeeping of the move log.
#[derive(Default)]
pub(crate) struct LogState {
    pub(crate) appended_since_gc: u64,
    /// Rows in `moves` (an estimate: counted at open and after each sweep).
    pub(crate) rows: u64,
    pub(crate) rows_after_sweep: u64,
}

/// Removes dead moves: cheaply those older than every room's current match, and all of
/// them when the log has grown large (see [`SWEEP_AT`]).
pub(crate) fn collect_garbage(conn: &Connection, log: &mut LogState, sweep_at: u64) -> rusqlite::Result<()> {
    log.appended_since_gc = 0;
    let oldest = format!("coalesce((SELECT min(moves_from) FROM rooms), {NEXT_SEQ})");
    let chunk_end = format!("(SELECT coalesce(min(seq), 0) + {GC_CHUNK} FROM moves)");
    let deleted = conn.execute(&format!("DELETE FROM moves WHERE seq < min({oldest}, {chunk_end})"), [])? as u64;
    log.rows = log.rows.saturating_sub(deleted);
    if log.rows >= sweep_at && log.rows >= 2 * log.rows_after_sweep {
        // A window of the log at a time, each its own transaction: one delete over the whole
        // log held every page it dirtied at once (the server's memory grew by megabytes at the
        // first sweep, and kept them).
        let (lo, hi): (i64, i64) =
            conn.query_row("SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM moves", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        let mut sweep = conn.prepare_cached(
            "DELETE FROM moves WHERE seq >= ?1 AND seq < ?2 AND seq < \
             coalesce((SELECT moves_from FROM rooms WHERE rooms.id = moves.room_id), 9223372036854775807)",
        )?;
        let mut from = lo;
        while from <= hi {
            sweep.execute(params![from, from + SWEEP_WINDOW])?;
            from += SWEEP_WINDOW;
        }
        log.rows = conn.query_row("SELECT count(*) FROM moves", [], |r| r.get::<_, i64>(0))? as u64;
        log.rows_after_sweep = log.rows;
    }
    Ok(())
}
