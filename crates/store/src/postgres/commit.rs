//! The committer task: each batch gathered in a tick (and every batch that queued while the
//! last one committed) becomes one transaction, its statements pipelined on one connection.

use super::{Epochs, TimeLimit, checkout_within, unreachable};
use crate::batch::Cmd;
use crate::records::{CHAT_KEPT, MatchRecord, StoreError};
use deadpool_postgres::{Client, Object, Pool};
use futures_util::future::join_all;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::Statement;

/// At most this many requests go into one transaction.
const BATCH_MAX: usize = 1024;

/// The epoch a write carries for a room this node never claimed nor created: no row has it,
/// so the write is refused as `Lost` (or finds nothing to delete).
const NOT_OURS: i64 = -1;

/// A write of the batch, its parameters owned here so a failed transaction can be retried.
enum Op {
    Save { id: String, game: String, snapshot: String, listing: Option<String>, epoch: i64 },
    Move { id: String, index: i64, entry: String, epoch: i64 },
    Reset { id: String, snapshot: String, listing: Option<String>, epoch: i64 },
    Delete { id: String, epoch: i64 },
    Chat { id: String, entry: String, epoch: i64 },
    Finish { record: MatchRecord, number: Option<i64>, epoch: Option<i64> },
}

enum Ack {
    Unit(oneshot::Sender<Result<(), StoreError>>),
    Id(oneshot::Sender<Result<i64, StoreError>>),
}

struct Item {
    room: String,
    op: Op,
    ack: Ack,
}

/// What a write found: done (with a match's id), or refused because the room's epoch moved.
enum Outcome {
    Done(Option<i64>),
    Lost,
    /// The batch's moves statement: the rooms whose moves were not stored.
    Moves(std::collections::HashSet<String>),
}

impl Ack {
    fn send(self, r: Result<Option<i64>, StoreError>) {
        match self {
            Ack::Unit(ack) => {
                let _ = ack.send(r.map(|_| ()));
            }
            Ack::Id(ack) => {
                let _ = ack.send(r.map(|id| id.unwrap_or_default()));
            }
        }
    }
}

/// The statements, prepared once per connection (the pool's statement cache).
struct Stmts {
    save: Statement,
    append: Statement,
    reset: Statement,
    delete: Statement,
    chat: Statement,
    chat_trim: Statement,
    finish_fenced: Statement,
    finish: Statement,
}

const MATCH_COLS: &str = "room_id, game, seed, config, players, log, result, started_at, ended_at, match_no";
const MATCH_PARAMS: &str =
    "$1::text, $2::text, $3::bigint, $4::text, $5::text, $6::text, $7::text, $8::bigint, $9::bigint, $10::bigint";
/// A match is recorded once per (room, number): recorded again (a node restoring a room whose
/// last owner recorded the match and stopped before the room went back to the lobby), the new
/// record replaces the first and keeps its id. The writes are fenced, so the later one is the
/// room's owner's. Without a number (`NULL`), never a conflict.
const MATCH_UPSERT: &str = "ON CONFLICT (room_id, match_no) DO UPDATE SET game = excluded.game,
    seed = excluded.seed, config = excluded.config, players = excluded.players, log = excluded.log,
    result = excluded.result, started_at = excluded.started_at, ended_at = excluded.ended_at";

/// The rest of a finish statement after its `WITH m AS (INSERT INTO matches ... RETURNING id)`:
/// stores the match's people (seats, accounts and wins as three arrays from parameter `$first`
/// on), replacing those an earlier record of it had, and answers the match's id.
fn match_people(first: usize) -> String {
    let (seats, accounts, won) = (first, first + 1, first + 2);
    format!(
        ", d AS (DELETE FROM match_people WHERE match_id IN (SELECT id FROM m) AND NOT (seat = ANY(${seats}::bigint[]))),
         p AS (INSERT INTO match_people (match_id, seat, account_id, won)
             SELECT m.id, x.seat, x.account, x.won FROM m,
             unnest(${seats}::bigint[], ${accounts}::bigint[], ${won}::bool[]) AS x (seat, account, won)
             ON CONFLICT (match_id, seat) DO UPDATE SET account_id = excluded.account_id, won = excluded.won)
         SELECT id FROM m"
    )
}

impl Stmts {
    async fn prepare(c: &Client) -> Result<Stmts, tokio_postgres::Error> {
        // Every write that concerns a room reads its row FOR SHARE with the epoch this node
        // holds: a claim (which bumps the epoch) waits for this transaction, and once it has
        // happened the write matches no row.
        // The match's people go with it in the same statement (none if it was refused).
        let finish_fenced = format!(
            "WITH m AS (INSERT INTO matches ({MATCH_COLS}) SELECT {MATCH_PARAMS} FROM rooms
             WHERE id = $1 AND epoch = $11 FOR SHARE {MATCH_UPSERT} RETURNING id) {}",
            match_people(12)
        );
        // A match of a room that has no row (an import, a test) is simply recorded; one of a
        // room another node holds is not.
        let finish = format!(
            "WITH m AS (INSERT INTO matches ({MATCH_COLS}) SELECT {MATCH_PARAMS}
             WHERE NOT EXISTS (SELECT 1 FROM rooms WHERE id = $1) {MATCH_UPSERT} RETURNING id) {}",
            match_people(11)
        );
        let (save, append, reset, delete, chat, chat_trim, finish_fenced, finish) = tokio::try_join!(
            c.prepare_cached(
                "INSERT INTO rooms (id, game, snapshot, owner, epoch, listing) VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = now(),
                 listing = coalesce(excluded.listing, rooms.listing)
                 WHERE rooms.epoch = excluded.epoch AND rooms.owner IS NOT DISTINCT FROM excluded.owner"
            ),
            // Every move of the batch in one statement (arrays, one row a move): a request
            // costs both sides more than a row does.
            // It answers the rooms whose moves were not all stored (their epoch moved: `Lost`),
            // normally none: a row a move back cost the committer more than the insert.
            c.prepare_cached(
                "WITH m AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])
                     AS m (room_id, idx, entry, epoch)),
                 ins AS (INSERT INTO moves (room_id, idx, entry)
                     SELECT m.room_id, m.idx, m.entry FROM m
                     JOIN rooms r ON r.id = m.room_id AND r.epoch = m.epoch
                     FOR SHARE OF r
                     ON CONFLICT (room_id, idx) DO UPDATE SET entry = excluded.entry
                     RETURNING room_id)
                 SELECT m.room_id FROM m GROUP BY m.room_id
                 HAVING count(*) > (SELECT count(*) FROM ins WHERE ins.room_id = m.room_id)"
            ),
            c.prepare_cached(
                "WITH r AS (UPDATE rooms SET snapshot = $2, updated_at = now(), listing = coalesce($4::text, rooms.listing)
                     WHERE id = $1 AND epoch = $3 RETURNING id),
                 d AS (DELETE FROM moves WHERE room_id IN (SELECT id FROM r))
                 SELECT count(*) FROM r"
            ),
            c.prepare_cached(
                "WITH r AS (DELETE FROM rooms WHERE id = $1 AND epoch = $2 RETURNING id),
                 m AS (DELETE FROM moves WHERE room_id IN (SELECT id FROM r)),
                 c AS (DELETE FROM chat WHERE room_id IN (SELECT id FROM r)),
                 x AS (INSERT INTO retired_ids (id) SELECT id FROM r ON CONFLICT DO NOTHING)
                 SELECT (SELECT count(*) FROM r), (SELECT count(*) FROM rooms WHERE id = $1)"
            ),
            c.prepare_cached(
                "INSERT INTO chat (room_id, entry) SELECT id, $2::text FROM rooms WHERE id = $1 AND epoch = $3 FOR SHARE"
            ),
            c.prepare_cached(
                "DELETE FROM chat WHERE room_id = $1 AND seq <=
                 (SELECT seq FROM chat WHERE room_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)"
            ),
            c.prepare_cached(&finish_fenced),
            c.prepare_cached(&finish),
        )?;
        Ok(Stmts { save, append, reset, delete, chat, chat_trim, finish_fenced, finish })
    }
}

/// Runs batches until every handle to the store is gone.
pub(super) async fn committer(
    pool: Pool,
    epochs: Epochs,
    node: String,
    limit: TimeLimit,
    mut rx: mpsc::UnboundedReceiver<Vec<Cmd>>,
) {
    // The connection and its statements, kept from one batch to the next (a pool checkout and
    // eight statement-cache lookups a batch were a measurable share of the committer's CPU);
    // given back when it fails, and taken again for the next batch.
    let mut conn: Option<(Object, Stmts)> = None;
    while let Some(mut batch) = rx.recv().await {
        while batch.len() < BATCH_MAX {
            match rx.try_recv() {
                Ok(more) => batch.extend(more),
                Err(_) => break,
            }
        }
        let items = prepare_items(batch, &epochs);
        commit(&pool, &mut conn, &epochs, items, &node, limit.get()).await;
    }
}

/// Turns requests into writes, each carrying the epoch this node holds for its room.
fn prepare_items(batch: Vec<Cmd>, epochs: &Epochs) -> Vec<Item> {
    let mut epochs = epochs.lock().expect("epochs lock");
    let mut items = Vec::with_capacity(batch.len());
    for cmd in batch {
        let held = |epochs: &std::collections::HashMap<String, i64>, id: &str| epochs.get(id).copied();
        let (room, op, ack) = match cmd {
            Cmd::SaveRoom { id, game, snapshot, listing, ack } => {
                // A room this node has not claimed is one it creates: epoch 0, owned here.
                let epoch = *epochs.entry(id.clone()).or_insert(0);
                (id.clone(), Op::Save { id, game, snapshot, listing, epoch }, Ack::Unit(ack))
            }
            Cmd::AppendMove { id, index, entry, ack } => {
                let epoch = held(&epochs, &id).unwrap_or(NOT_OURS);
                (id.clone(), Op::Move { id, index: index as i64, entry, epoch }, Ack::Unit(ack))
            }
            Cmd::ResetMoves { id, snapshot, listing, ack } => {
                let epoch = held(&epochs, &id).unwrap_or(NOT_OURS);
                (id.clone(), Op::Reset { id, snapshot, listing, epoch }, Ack::Unit(ack))
            }
            Cmd::DeleteRoom { id, ack } => {
                let epoch = held(&epochs, &id).unwrap_or(NOT_OURS);
                (id.clone(), Op::Delete { id, epoch }, Ack::Unit(ack))
            }
            Cmd::AppendChat { id, entry, ack } => {
                let epoch = held(&epochs, &id).unwrap_or(NOT_OURS);
                (id.clone(), Op::Chat { id, entry, epoch }, Ack::Unit(ack))
            }
            Cmd::FinishMatch { record, number, ack } => {
                // A match of a room this node holds is fenced by its epoch; see `finish` for
                // one it never held.
                let epoch = held(&epochs, &record.room_id);
                let number = number.map(|n| n as i64);
                (record.room_id.clone(), Op::Finish { record, number, epoch }, Ack::Id(ack))
            }
            Cmd::LoadRooms { reply, .. } => {
                let _ = reply.send(Err(StoreError::Closed));
                continue;
            }
            Cmd::GetMatch { reply, .. } => {
                let _ = reply.send(Err(StoreError::Closed));
                continue;
            }
            Cmd::ListMatches { reply, .. } => {
                let _ = reply.send(Err(StoreError::Closed));
                continue;
            }
            Cmd::IdTaken { reply, .. } => {
                let _ = reply.send(Err(StoreError::Closed));
                continue;
            }
        };
        items.push(Item { room, op, ack });
    }
    items
}

type Step<'a> = Pin<Box<dyn Future<Output = Result<Outcome, tokio_postgres::Error>> + Send + 'a>>;

fn step<'a>(c: &'a Client, s: &'a Stmts, node: &'a str, op: &'a Op) -> Step<'a> {
    Box::pin(async move {
        let affected = |n: u64| if n == 0 { Outcome::Lost } else { Outcome::Done(None) };
        Ok(match op {
            Op::Save { id, game, snapshot, listing, epoch } => {
                affected(c.execute(&s.save, &[id, game, snapshot, &node, epoch, listing]).await?)
            }
            Op::Move { .. } => unreachable!("moves go in one statement a batch (`moves_step`)"),
            Op::Reset { id, snapshot, listing, epoch } => {
                let n: i64 = c.query_one(&s.reset, &[id, snapshot, epoch, listing]).await?.get(0);
                affected(n as u64)
            }
            Op::Delete { id, epoch } => {
                let row = c.query_one(&s.delete, &[id, epoch]).await?;
                let (deleted, existed): (i64, i64) = (row.get(0), row.get(1));
                if deleted == 0 && existed > 0 { Outcome::Lost } else { Outcome::Done(None) }
            }
            Op::Chat { id, entry, epoch } => {
                let kept = CHAT_KEPT as i64;
                let add: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [id, entry, epoch];
                let trim: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [id, &kept];
                let (added, _) = tokio::try_join!(c.execute(&s.chat, &add), c.execute(&s.chat_trim, &trim))?;
                affected(added)
            }
            Op::Finish { record: m, number, epoch } => {
                type Param<'p> = &'p (dyn tokio_postgres::types::ToSql + Sync);
                let (seed, started, ended) = (m.seed as i64, m.started_at as i64, m.ended_at as i64);
                let people = crate::accounts::people_by_seat(&m.people);
                let seats: Vec<i64> = people.iter().map(|p| i64::from(p.seat)).collect();
                let accounts: Vec<i64> = people.iter().map(|p| p.account).collect();
                let won: Vec<bool> = people.iter().map(|p| p.won).collect();
                let record: [Param<'_>; 10] =
                    [&m.room_id, &m.game, &seed, &m.config, &m.players, &m.log, &m.result, &started, &ended, number];
                let mut params = record.to_vec();
                let statement = match epoch {
                    Some(epoch) => {
                        params.push(epoch);
                        &s.finish_fenced
                    }
                    None => &s.finish,
                };
                params.extend([&seats as Param<'_>, &accounts, &won]);
                match c.query_opt(statement, &params).await? {
                    Some(row) => Outcome::Done(Some(row.get(0))),
                    None => Outcome::Lost,
                }
            }
        })
    })
}

/// Runs `items` as one transaction, pipelined: `BEGIN`, every move of the batch in one
/// statement, each other write, `COMMIT` (a batch of moves alone: the one statement), all sent before
/// the first answer is read (tokio-postgres sends a request when its future is first polled,
/// and `join_all` polls them in order). A failed statement aborts the transaction, and its
/// `COMMIT` then rolls back: any error means nothing of `items` was stored.
async fn transaction(c: &Client, s: &Stmts, node: &str, items: &[Item]) -> Result<Vec<Outcome>, tokio_postgres::Error> {
    let started = std::time::Instant::now();
    let result = pipelined(c, s, node, items).await;
    crate::metrics::committed(crate::metrics::Backend::Postgres, started.elapsed(), result.is_ok());
    result
}

/// [`transaction`]'s statements, sent and answered.
async fn pipelined(c: &Client, s: &Stmts, node: &str, items: &[Item]) -> Result<Vec<Outcome>, tokio_postgres::Error> {
    let mut steps: Vec<Step<'_>> = Vec::with_capacity(items.len() + 3);
    // A batch of moves alone is one statement, atomic in the implicit transaction its `Sync`
    // ends: no `BEGIN` and `COMMIT` around it (two requests fewer for both sides; the usual
    // batch while games play).
    let wrapped = items.iter().any(|i| !matches!(i.op, Op::Move { .. }));
    if wrapped {
        steps.push(Box::pin(async { c.batch_execute("BEGIN").await.map(|()| Outcome::Done(None)) }));
    }
    let (mut rooms, mut indexes, mut entries, mut epochs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for item in items {
        if let Op::Move { id, index, entry, epoch } = &item.op {
            rooms.push(id.as_str());
            indexes.push(*index);
            entries.push(entry.as_str());
            epochs.push(*epoch);
        }
    }
    let batched = !rooms.is_empty();
    if batched {
        steps.push(Box::pin(async move {
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 4] = [&rooms, &indexes, &entries, &epochs];
            let rows = c.query(&s.append, &params).await?;
            Ok(Outcome::Moves(rows.iter().map(|r| r.get::<_, String>(0)).collect()))
        }));
    }
    for item in items.iter().filter(|i| !matches!(i.op, Op::Move { .. })) {
        steps.push(step(c, s, node, &item.op));
    }
    if wrapped {
        steps.push(Box::pin(async { c.batch_execute("COMMIT").await.map(|()| Outcome::Done(None)) }));
    }
    let results = join_all(steps).await;
    let last = results.len() - 1;
    let statement = |i: usize| !wrapped || i != 0 && i != last;
    let mut outcomes = Vec::with_capacity(items.len());
    let mut first_error: Option<tokio_postgres::Error> = None;
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(o) if statement(i) => outcomes.push(o),
            Ok(_) => {}
            // The statements after a failed one only say the transaction was aborted: keep
            // the error that caused it.
            Err(e) => {
                let aborted = e.code() == Some(&tokio_postgres::error::SqlState::IN_FAILED_SQL_TRANSACTION);
                if first_error.is_none() || !aborted && first_error.as_ref().is_some_and(|f| f.code() == e.code()) {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    // Back in the order of `items`: each move by whether it was stored.
    let mut others = outcomes.into_iter();
    let refused = match batched.then(|| others.next()).flatten() {
        Some(Outcome::Moves(refused)) => refused,
        _ => Default::default(),
    };
    Ok(items
        .iter()
        .map(|item| match &item.op {
            Op::Move { id, .. } => {
                if refused.contains(id) {
                    Outcome::Lost
                } else {
                    Outcome::Done(None)
                }
            }
            _ => others.next().expect("one outcome a statement"),
        })
        .collect())
}

/// Commits `items` and answers each. A statement that fails (not the connection) fails the
/// transaction; its writes are then tried one transaction each, so one bad write does not
/// fail the others of its tick (as on SQLite).
///
/// Taking a connection (and preparing its statements) is bounded by `limit` (nothing is
/// written yet). A transaction is not: past a time limit its writes' fate would be unknown,
/// and a room told "not stored" of a move that was would play on from a table the log does
/// not hold (a node paused under SIGSTOP finds every timer past on waking, before its
/// connection has read the answer waiting in the socket). A transaction on a link gone silent
/// waits for the link or for TCP (`tcp_user_timeout`, see `session_limits`); meanwhile a
/// node lets its rooms go once its heartbeat fails (the server closes their sockets even while
/// a room waits on a write), and when the link heals the write is refused by the room's new
/// epoch.
async fn commit(
    pool: &Pool,
    conn: &mut Option<(Object, Stmts)>,
    epochs: &Epochs,
    items: Vec<Item>,
    node: &str,
    limit: std::time::Duration,
) {
    if conn.as_ref().is_some_and(|(c, _)| c.is_closed()) {
        *conn = None;
    }
    if conn.is_none() {
        match connect(pool, limit).await {
            Ok(c) => *conn = Some(c),
            Err(e) => {
                let msg = e.to_string();
                return match e {
                    StoreError::PostgresBatch(e) => fail_all(items, || StoreError::PostgresBatch(e.clone())),
                    _ => fail_all(items, || StoreError::Unavailable(msg.clone())),
                };
            }
        }
    }
    let Some((client, stmts)) = conn.as_ref() else { unreachable!("connected above") };
    let (client, stmts): (&Client, &Stmts) = (client, stmts);
    match transaction(client, stmts, node, &items).await {
        Ok(outcomes) => answer(epochs, items, outcomes),
        Err(e) if items.len() > 1 && !unreachable(&e) && !client.is_closed() => {
            for item in items {
                let one = std::slice::from_ref(&item);
                match transaction(client, stmts, node, one).await {
                    Ok(outcomes) => answer(epochs, vec![item], outcomes),
                    Err(e) => item.ack.send(Err(error(e))),
                }
            }
        }
        Err(e) => {
            let e = Arc::new(e);
            let lost = unreachable(&e) || client.is_closed();
            if unreachable(&e) {
                fail_all(items, || StoreError::Unavailable(e.to_string()));
            } else {
                fail_all(items, || StoreError::PostgresBatch(e.clone()));
            }
            if lost {
                *conn = None;
            }
        }
    }
}

/// A connection from `pool` with the statements prepared on it, within `limit` (a connection
/// that outlives it is not given back to the pool).
async fn connect(pool: &Pool, limit: std::time::Duration) -> Result<(Object, Stmts), StoreError> {
    checkout_within(pool, limit, async |client| {
        Stmts::prepare(client).await.map_err(|e| {
            if unreachable(&e) {
                StoreError::Unavailable(e.to_string())
            } else {
                StoreError::PostgresBatch(Arc::new(e))
            }
        })
    })
    .await
}

/// Answers every item with the error `e` makes.
fn fail_all(items: Vec<Item>, e: impl Fn() -> StoreError) {
    for item in items {
        item.ack.send(Err(e()));
    }
}

fn error(e: tokio_postgres::Error) -> StoreError {
    if unreachable(&e) { StoreError::Unavailable(e.to_string()) } else { StoreError::Postgres(e) }
}

fn answer(epochs: &Epochs, items: Vec<Item>, outcomes: Vec<Outcome>) {
    for (item, outcome) in items.into_iter().zip(outcomes) {
        match outcome {
            Outcome::Done(id) => {
                if matches!(item.op, Op::Delete { .. }) {
                    epochs.lock().expect("epochs lock").remove(&item.room);
                }
                item.ack.send(Ok(id));
            }
            Outcome::Lost => item.ack.send(Err(StoreError::Lost(item.room))),
            Outcome::Moves(_) => unreachable!("answered per move"),
        }
    }
}
