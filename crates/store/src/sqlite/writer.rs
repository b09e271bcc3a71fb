//! The one writing connection: batches in one transaction each, and its thread.

use super::*;

/// What each write of a batch hears once the batch commits (or fails to).
pub(crate) type Acks = Vec<Box<dyn FnOnce(Result<(), Arc<rusqlite::Error>>) + Send>>;

/// The writing connection and what it knows of the move log and the WAL.
pub(crate) struct Writer {
    pub(crate) conn: Connection,
    pub(crate) log: LogState,
    pub(crate) wal: Arc<WalState>,
    /// The file is this connection's alone: the writer checkpoints (on the store thread).
    pub(crate) exclusive: bool,
    /// Commits since the store opened, and that count at the last checkpoint it ran.
    pub(crate) commits: u64,
    pub(crate) checkpointed_at: u64,
}

impl Writer {
    /// Runs `batch` in one transaction and acknowledges each request once it commits.
    pub(crate) fn commit(&mut self, batch: Vec<Cmd>) {
        let mut acks: Acks = Vec::new();
        let started = std::time::Instant::now();
        // BEGIN and COMMIT as cached statements: `Connection::transaction` parses both again
        // for every batch (a fifth of a one-move commit's instructions).
        if let Err(e) = self.conn.prepare_cached("BEGIN").and_then(|mut st| st.execute([])) {
            crate::metrics::committed(crate::metrics::Backend::Sqlite, started.elapsed(), false);
            return fail_all(batch, &Arc::new(e));
        }
        for cmd in batch {
            run(&self.conn, cmd, &mut acks, &mut self.log);
        }
        let result = self.conn.prepare_cached("COMMIT").and_then(|mut st| st.execute([])).map(|_| ()).map_err(Arc::new);
        if result.is_err() && !self.conn.is_autocommit() {
            // Nothing of a failed batch stays (as a dropped `Transaction` would roll it back).
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        crate::metrics::committed(crate::metrics::Backend::Sqlite, started.elapsed(), result.is_ok());
        self.wal.dirty.store(true, Ordering::Relaxed);
        self.commits += 1;
        for ack in acks {
            ack(result.clone());
        }
    }

    /// Runs a [`Job::Run`] closure on the connection (outside any batch). A closure that
    /// changed something counts as a commit (the checkpoints follow commits); one that left a
    /// transaction open has it rolled back.
    pub(crate) fn run_closure(&mut self, f: Box<dyn FnOnce(&mut Connection) + Send>) {
        let before = self.conn.total_changes();
        f(&mut self.conn);
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        if self.conn.total_changes() != before {
            self.wal.dirty.store(true, Ordering::Relaxed);
            self.commits += 1;
        }
    }

    /// Whether [`Writer::maintain`] has work: dead moves to collect, or a WAL to restart.
    pub(crate) fn maintenance_due(&self) -> bool {
        self.log.appended_since_gc >= GC_EVERY
            || self.wal.frames.load(Ordering::Relaxed) > WAL_RESET_FRAMES
            || self.exclusive_checkpoint_due()
    }

    /// An exclusive writer's WAL has taken [`EXCLUSIVE_CHECKPOINT_COMMITS`] since it was last
    /// folded back.
    pub(crate) fn exclusive_checkpoint_due(&self) -> bool {
        self.exclusive && self.commits - self.checkpointed_at >= EXCLUSIVE_CHECKPOINT_COMMITS
    }

    /// Folds the WAL into the database (an exclusive writer's checkpoint: with no reader
    /// elsewhere it completes, and the next commit starts the WAL from its beginning).
    pub(crate) fn checkpoint_now(&mut self) {
        match checkpoint(&self.conn) {
            Ok(_) => {
                self.wal.frames.store(0, Ordering::Relaxed);
                self.checkpointed_at = self.commits;
            }
            Err(e) => tracing::error!("checkpoint failed: {e}"),
        }
    }

    pub(crate) fn maintain(&mut self) {
        if self.log.appended_since_gc >= GC_EVERY
            && let Err(e) = collect_garbage(&self.conn, &mut self.log, SWEEP_AT)
        {
            tracing::error!("collecting old moves failed: {e}");
        }
        if self.exclusive_checkpoint_due() {
            self.checkpoint_now();
        }
        if self.wal.frames.load(Ordering::Relaxed) > WAL_RESET_FRAMES {
            // No commit runs meanwhile (this holds the writer), so this checkpoint completes
            // and the next commit starts the WAL from its beginning.
            match checkpoint(&self.conn) {
                Ok(_) => self.wal.frames.store(0, Ordering::Relaxed),
                Err(e) => tracing::error!("checkpoint failed: {e}"),
            }
        }
    }
}

/// The store thread: reads, maintenance, and batches that found the writer busy.
pub(crate) fn worker(writer: &Mutex<Writer>, rx: &std_mpsc::Receiver<Job>) {
    let exclusive = writer.lock().expect("store writer lock").exclusive;
    // Commits counted at the last quiet tick: inline commits send the thread nothing, so a
    // timeout alone does not mean the server is quiet.
    let mut commits_seen = u64::MAX;
    loop {
        let job = if exclusive {
            // A quiet moment: fold the WAL back while nothing waits for the writer.
            match rx.recv_timeout(CHECKPOINT_EVERY) {
                Ok(job) => job,
                Err(std_mpsc::RecvTimeoutError::Timeout) => {
                    let mut w = writer.lock().expect("store writer lock");
                    let commits = w.commits;
                    if commits == commits_seen && commits != w.checkpointed_at {
                        w.checkpoint_now();
                    }
                    commits_seen = commits;
                    continue;
                }
                Err(std_mpsc::RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        // Group commit: everything already handed over goes into one transaction; the writes
        // are acknowledged only after it commits.
        let mut batch = Vec::new();
        let mut next = Some(job);
        // A closure ends the gathering: it runs after the batches handed over before it.
        let mut closure = None;
        while let Some(job) = next.take() {
            match job {
                Job::Batch(cmds) => batch.extend(cmds),
                Job::Maintain => {}
                Job::Run(f) => {
                    closure = Some(f);
                    break;
                }
            }
            if batch.len() < 1024 {
                next = rx.try_recv().ok();
            }
        }
        let mut w = writer.lock().expect("store writer lock");
        if !batch.is_empty() {
            w.commit(batch);
        }
        if let Some(f) = closure {
            w.run_closure(f);
        }
        w.maintain();
    }
}

pub(crate) fn run(tx: &Connection, cmd: Cmd, acks: &mut Acks, log: &mut LogState) {
    pub(crate) fn ack_after(acks: &mut Acks, r: rusqlite::Result<()>, ack: oneshot::Sender<Result<(), StoreError>>) {
        match r {
            Ok(()) => acks.push(Box::new(move |c| {
                let _ = ack.send(c.map_err(StoreError::Batch));
            })),
            Err(e) => {
                let _ = ack.send(Err(StoreError::Db(e)));
            }
        }
    }
    match cmd {
        Cmd::SaveRoom { id, game, snapshot, listing: _, ack } => {
            let r = tx
                .prepare_cached(&format!(
                    "INSERT INTO rooms (id, game, snapshot, moves_from) VALUES (?1, ?2, ?3, {NEXT_SEQ})
                     ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = unixepoch()"
                ))
                .and_then(|mut st| st.execute(params![id, game, snapshot]))
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::AppendMove { id, index, entry, ack } => {
            let r = tx
                .prepare_cached("INSERT INTO moves (room_id, idx, entry) VALUES (?1, ?2, ?3)")
                .and_then(|mut st| st.execute(params![id, index as i64, entry]))
                .map(|_| ());
            log.appended_since_gc += 1;
            log.rows += 1;
            ack_after(acks, r, ack);
        }
        Cmd::ResetMoves { id, snapshot, listing: _, ack } => {
            // The room's earlier moves are dead from here on; they are collected later.
            let r = tx
                .prepare_cached(&format!("UPDATE rooms SET snapshot = ?2, moves_from = {NEXT_SEQ} WHERE id = ?1"))
                .and_then(|mut st| st.execute(params![id, snapshot]))
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::DeleteRoom { id, ack } => {
            let run = |sql: &str| tx.prepare_cached(sql).and_then(|mut st| st.execute([&id]));
            let r = run("DELETE FROM rooms WHERE id = ?1")
                .and_then(|_| run("DELETE FROM chat WHERE room_id = ?1"))
                // Never drawn again (a replay is keyed on its room's id).
                .and_then(|_| run("INSERT OR IGNORE INTO retired_ids (id, retired_at) VALUES (?1, unixepoch())"))
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::AppendChat { id, entry, ack } => {
            let r = tx
                .prepare_cached("INSERT INTO chat (room_id, entry) VALUES (?1, ?2)")
                .and_then(|mut st| st.execute(params![id, entry]))
                .and_then(|_| {
                    tx.prepare_cached(
                        "DELETE FROM chat WHERE room_id = ?1 AND seq <= \
                         (SELECT seq FROM chat WHERE room_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)",
                    )?
                    .execute(params![id, CHAT_KEPT as i64])
                })
                .map(|_| ());
            ack_after(acks, r, ack);
        }
        Cmd::FinishMatch { record: m, number, ack } => {
            if let Err(e) = tx.prepare_cached("SAVEPOINT finish").and_then(|mut st| st.execute([])) {
                let _ = ack.send(Err(StoreError::Db(e)));
                return;
            }
            // Once per (room, number): a second record of the same match (restored after a
            // kill -9 that came between recording it and the room's return to the lobby)
            // replaces the first and keeps its id. Without a number, never a conflict.
            let r = tx
                .prepare_cached(
                    "INSERT INTO matches (room_id, game, seed, config, players, log, result, started_at, ended_at, match_no)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                 ON CONFLICT (room_id, match_no) DO UPDATE SET game = excluded.game, seed = excluded.seed,
                 config = excluded.config, players = excluded.players, log = excluded.log,
                 result = excluded.result, started_at = excluded.started_at, ended_at = excluded.ended_at
                 RETURNING id",
                )
                .and_then(|mut st| {
                    st.query_row(
                        params![
                            m.room_id,
                            m.game,
                            m.seed as i64,
                            m.config,
                            m.players,
                            m.log,
                            m.result,
                            m.started_at as i64,
                            m.ended_at as i64,
                            number.map(|n| n as i64)
                        ],
                        |row| row.get::<_, i64>(0),
                    )
                });
            // Its people with it, in the batch's transaction (a savepoint: a failure leaves
            // neither the match nor its people, and the batch's other writes go on).
            let r = r.and_then(|id| accounts::store_people(tx, id, &m.people).map(|()| id));
            let exec = |sql: &str| tx.prepare_cached(sql).and_then(|mut st| st.execute([])).map(|_| ());
            let r = match r {
                Ok(id) => exec("RELEASE finish").map(|()| id),
                Err(e) => {
                    let _ = exec("ROLLBACK TO finish").and_then(|()| exec("RELEASE finish"));
                    Err(e)
                }
            };
            match r {
                Ok(id) => {
                    acks.push(Box::new(move |c| {
                        let _ = ack.send(c.map(|()| id).map_err(StoreError::Batch));
                    }));
                }
                Err(e) => {
                    let _ = ack.send(Err(StoreError::Db(e)));
                }
            }
        }
        Cmd::LoadRooms { only, reply } => {
            let _ = reply.send(load_rooms(tx, only.as_deref()));
        }
        Cmd::GetMatch { id, reply } => {
            let _ = reply.send(get_match(tx, id));
        }
        Cmd::IdTaken { id, reply } => {
            // Cached, as the writes are: one is asked for every room created.
            let r = tx
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM rooms WHERE id = ?1) OR EXISTS (SELECT 1 FROM retired_ids WHERE id = ?1)",
                )
                .and_then(|mut st| st.query_row([&id], |r| r.get::<_, bool>(0)));
            let _ = reply.send(r.map_err(StoreError::Db));
        }
        Cmd::ListMatches { limit, reply } => {
            let r = tx
                .prepare(
                    "SELECT id, room_id, game, seed, config, players, log, result, started_at, ended_at
                     FROM matches ORDER BY id DESC LIMIT ?1",
                )
                .and_then(|mut st| st.query_map([limit], row_to_match)?.collect::<Result<Vec<_>, _>>())
                .map_err(StoreError::Db)
                .and_then(|mut ms| accounts::attach_people(tx, &mut ms).map(|()| ms));
            let _ = reply.send(r);
        }
    }
}

pub(crate) fn fail_all(batch: Vec<Cmd>, e: &Arc<rusqlite::Error>) {
    let err = || StoreError::Batch(e.clone());
    for cmd in batch {
        match cmd {
            Cmd::SaveRoom { ack, .. }
            | Cmd::AppendMove { ack, .. }
            | Cmd::ResetMoves { ack, .. }
            | Cmd::DeleteRoom { ack, .. }
            | Cmd::AppendChat { ack, .. } => {
                let _ = ack.send(Err(err()));
            }
            Cmd::FinishMatch { ack, .. } => {
                let _ = ack.send(Err(err()));
            }
            Cmd::LoadRooms { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
            Cmd::GetMatch { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
            Cmd::ListMatches { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
            Cmd::IdTaken { reply, .. } => {
                let _ = reply.send(Err(err()));
            }
        }
    }
}
