//! The checks after a fault, from PostgreSQL and the players' records: every room's move log
//! (the `moves` table for the match being played, `matches` for the finished ones) has no gap
//! and replays with the game's rules; every table a player saw equals the replay of the log
//! at that serial (so no move a player saw was lost or changed); every move a player saw
//! applied is in the log, none twice, none that nobody sent; every player kept its seat.

use super::player::{Attempt, Outcome, Player, RoomPlan, game_fields, hash_value};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt::Write;

/// What the checks found, summed over rooms.
#[derive(Debug, Default, Clone)]
pub struct Totals {
    pub rooms: usize,
    /// Matches checked (finished and running).
    pub matches: usize,
    /// Moves in the logs checked.
    pub moves: usize,
    /// Tables players saw, each compared with the replay.
    pub tables: usize,
    /// Moves the players saw applied.
    pub acked: usize,
    /// Moves sent again after a reconnect (with the serial they were chosen at), and of those
    /// the ones in the log (once: a second time counts in `applied_twice`).
    pub resent: usize,
    pub resent_in_log: usize,
    /// Moves a player saw applied that are not in the log (or a table seen past the log's end).
    pub acked_lost: usize,
    /// Log entries of a player's seat that repeat a move it sent (and resent after a
    /// reconnect) that is in the log already.
    pub applied_twice: usize,
    /// Log entries of a player's seat marked as the room's (`"by"`: a decision's clock ran
    /// out, a quiet pass, a stand-in bot). Not a failure by itself.
    pub server_moves: usize,
    /// Log entries of a player's seat stored as the player's own (no `"by"`) that it never
    /// sent (or sent and saw refused), and that repeat no resent move.
    pub unsent: usize,
    /// Seats a player lost (a reconnect refused, another seat, not seated).
    pub seats_lost: usize,
    /// Matches whose log does not replay, or whose replay differs from what a player saw.
    pub replay_diff: usize,
    /// Gaps in a room's `moves` indices.
    pub gaps: usize,
    /// Matches some player saw that are not in the database.
    pub matches_missing: usize,
    /// Finished matches stored twice (same seed, seats and log).
    pub matches_twice: usize,
    /// One line per problem (the first few of each kind).
    pub problems: Vec<String>,
}

impl Totals {
    pub fn clean(&self) -> bool {
        self.acked_lost == 0
            && self.applied_twice == 0
            && self.unsent == 0
            && self.seats_lost == 0
            && self.replay_diff == 0
            && self.gaps == 0
            && self.matches_missing == 0
            && self.matches_twice == 0
    }

    fn problem(&mut self, p: String) {
        if self.problems.len() < 40 {
            self.problems.push(p);
        }
    }

    pub fn summary(&self) -> String {
        format!(
            "{} rooms, {} matches, {} moves, {} tables compared, {} moves acknowledged ({} sent again after a reconnect, {} of those in the log once): {} acknowledged lost, {} applied twice, {} the players' that they never sent, {} seats lost, {} differ from their replay, {} gaps, {} matches missing, {} matches stored twice; {} moves made by the rooms' clocks and stand-ins",
            self.rooms,
            self.matches,
            self.moves,
            self.tables,
            self.acked,
            self.resent,
            self.resent_in_log,
            self.acked_lost,
            self.applied_twice,
            self.unsent,
            self.seats_lost,
            self.replay_diff,
            self.gaps,
            self.matches_missing,
            self.matches_twice,
            self.server_moves
        )
    }
}

/// Where two JSON values differ (the first few paths), for a readable failure.
fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    if out.len() >= 6 || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                diff(va, y.get(k).unwrap_or(&Value::Null), &format!("{path}.{k}"), out);
            }
            for (k, vb) in y {
                if !x.contains_key(k) {
                    diff(&Value::Null, vb, &format!("{path}.{k}"), out);
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(va, vb, &format!("{path}[{i}]"), out);
            }
        }
        _ => {
            let cut = |v: &Value| v.to_string().chars().take(160).collect::<String>();
            out.push(format!("{path}: seen {} / replay {}", cut(a), cut(b)));
        }
    }
}

/// Checks every room of `plans` against what `players` recorded. Read with the players
/// paused, so that no match starts or ends while the rows are read (the checks hold anyway
/// for the rows read; pausing keeps the last tables comparable).
pub async fn check_rooms(pg_url: &str, plans: &[RoomPlan], players: &[Player]) -> Result<Totals, String> {
    let (db, conn) = tokio_postgres::connect(pg_url, tokio_postgres::NoTls).await.map_err(|e| format!("check: {e}"))?;
    let conn_task = tokio::spawn(conn);
    let mut t = Totals::default();
    for plan in plans {
        t.rooms += 1;
        let room = plan.id.as_str();
        let row = db
            .query_opt("SELECT snapshot FROM rooms WHERE id = $1", &[&room])
            .await
            .map_err(|e| format!("rooms: {e}"))?;
        let Some(row) = row else {
            t.matches_missing += 1;
            t.problem(format!("room {room} ({}) is not in the rooms table", plan.game));
            continue;
        };
        let snap: Value =
            serde_json::from_str(row.get::<_, &str>(0)).map_err(|e| format!("snapshot of {room}: {e}"))?;
        let moves = db
            .query("SELECT idx, entry FROM moves WHERE room_id = $1 ORDER BY idx", &[&room])
            .await
            .map_err(|e| format!("moves: {e}"))?;
        let mut entries = Vec::new();
        for (i, r) in moves.iter().enumerate() {
            let idx: i64 = r.get(0);
            if idx != i as i64 {
                t.gaps += 1;
                t.problem(format!("room {room} ({}): move index {idx} where {i} was due", plan.game));
            }
            entries.push(r.get::<_, String>(1));
        }
        let finished = db
            .query(
                "SELECT id, game, seed, config, players, log, result, started_at, ended_at FROM matches WHERE room_id = $1 ORDER BY id",
                &[&room],
            )
            .await
            .map_err(|e| format!("matches: {e}"))?;
        // Each match, keyed as the players key it: the room's lastMatch while it was played.
        let mut records: Vec<(Option<i64>, store::MatchRecord, bool)> = Vec::new();
        let mut prev = None;
        for r in &finished {
            let m = store::MatchRecord {
                id: r.get(0),
                room_id: room.to_string(),
                game: r.get(1),
                seed: r.get::<_, i64>(2) as u64,
                config: r.get(3),
                players: r.get(4),
                log: r.get(5),
                result: r.get(6),
                started_at: r.get::<_, i64>(7) as u64,
                ended_at: r.get::<_, i64>(8) as u64,
                people: Vec::new(),
            };
            let id = m.id;
            records.push((prev, m, true));
            prev = Some(id);
        }
        let current = &snap["match"];
        if current.is_object() {
            records.push((
                snap["lastMatch"].as_i64(),
                store::MatchRecord {
                    id: 0,
                    room_id: room.to_string(),
                    game: plan.game.clone(),
                    seed: current["seed"].as_u64().unwrap_or(0),
                    config: current["config"].to_string(),
                    players: current["seats"].to_string(),
                    log: format!("[{}]", entries.join(",")),
                    // A set-up room's running match starts from the room's position, as the
                    // recorded ones do from their result's (server::setup_rooms::of_result).
                    result: match snap["options"]["setup"].as_str() {
                        Some(setup) => json!({ "setup": setup }).to_string(),
                        None => "{}".into(),
                    },
                    started_at: 0,
                    ended_at: 0,
                    people: Vec::new(),
                },
                false,
            ));
        } else if !entries.is_empty() {
            t.gaps += 1;
            t.problem(format!("room {room}: {} moves stored and no match running", entries.len()));
        }
        let mine: Vec<&Player> = players.iter().filter(|p| p.room == plan.id).collect();
        let states: Vec<_> = mine.iter().map(|p| p.state.lock().unwrap()).collect();
        // Matches seen by a player but absent from the database.
        for s in &states {
            for key in s.seats.keys() {
                if !records.iter().any(|(k, _, _)| k == key) {
                    t.matches_missing += 1;
                    t.problem(format!("room {room}: {} played match {key:?}, which is not stored", s.name));
                }
            }
            if !s.seat_errors.is_empty() {
                t.seats_lost += s.seat_errors.len();
                t.problem(format!("room {room}: {} lost its seat: {:?}", s.name, s.seat_errors));
            }
        }
        // A finished match recorded twice (a survivor finishing again a match its dead owner
        // had recorded) is a move log applied twice.
        for (i, (_, a, a_done)) in records.iter().enumerate() {
            for (_, b, b_done) in &records[i + 1..] {
                if *a_done && *b_done && a.seed == b.seed && a.players == b.players && a.log == b.log {
                    t.matches_twice += 1;
                    t.problem(format!(
                        "room {room} ({}): matches {} and {} are one match recorded twice",
                        plan.game, a.id, b.id
                    ));
                }
            }
        }
        // The replay of every log, per seat a player held (computed once), as game fields.
        let mut logs: Vec<Vec<Value>> = Vec::new();
        for (key, record, _) in &records {
            t.matches += 1;
            let log: Vec<Value> = serde_json::from_str(&record.log).unwrap_or_else(|e| {
                t.problem(format!("room {room} match {key:?}: the log does not parse: {e}"));
                Vec::new()
            });
            t.moves += log.len();
            logs.push(log);
        }
        let mut replays: HashMap<(usize, usize), Vec<Value>> = HashMap::new();
        let mut keys: Vec<Option<i64>> = records.iter().map(|r| r.0).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            // Usually one match a key; two when a room lost track of its last match (then a
            // table a player saw must be in one of them).
            let group: Vec<usize> = (0..records.len()).filter(|&i| records[i].0 == key).collect();
            let mut differs = false;
            for s in &states {
                let Some(&seat) = s.seats.get(&key) else { continue };
                for &i in &group {
                    if let std::collections::hash_map::Entry::Vacant(slot) = replays.entry((i, seat)) {
                        let steps = match server::replay::replay(&records[i].1, Some(seat as u8), false) {
                            Ok(v) => v["steps"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .map(|s| game_fields(&s["gameData"], &plan.people))
                                .collect(),
                            Err((_, e)) => {
                                differs = true;
                                t.problem(format!(
                                    "room {room} ({}) match {key:?}: the log does not replay: {e}",
                                    plan.game
                                ));
                                Vec::new()
                            }
                        };
                        slot.insert(steps);
                    }
                }
                // Every table the player saw in this match, against the replay at its serial.
                for o in s.obs.iter().filter(|o| o.key == key) {
                    t.tables += 1;
                    let mut long_enough = None;
                    let mut same = false;
                    for &i in &group {
                        if let Some(f) = replays[&(i, seat)].get(o.serial as usize) {
                            long_enough.get_or_insert(f);
                            if hash_value(f) == o.hash {
                                same = true;
                                break;
                            }
                        }
                    }
                    if same {
                        continue;
                    }
                    match long_enough {
                        Some(replayed) => {
                            let mut d = Vec::new();
                            if let Some(f) = &o.fields {
                                diff(f, replayed, "", &mut d);
                            }
                            if !differs {
                                t.problem(format!(
                                    "room {room} ({}) match {key:?}: {} saw a table at serial {} that the replay of the log does not give: {d:?}",
                                    plan.game, s.name, o.serial
                                ));
                            }
                            differs = true;
                        }
                        None => {
                            t.acked_lost += 1;
                            let longest = group.iter().map(|&i| logs[i].len()).max().unwrap_or(0);
                            let near: Vec<String> = s
                                .attempts
                                .iter()
                                .filter(|a| a.key == key && a.serial + 3 >= longest as u64)
                                .map(|a| format!("[serial {} {:?} x{} {}]", a.serial, a.outcome, a.sends, a.action))
                                .collect();
                            let kinds: Vec<&str> =
                                group.iter().map(|&i| if records[i].2 { "finished" } else { "running" }).collect();
                            t.problem(format!(
                                "room {room} ({}) match {key:?} ({kinds:?}): {} (seat {seat}) saw {} moves played, the log has {longest}; its last moves: {near:?}",
                                plan.game, s.name, o.serial
                            ));
                        }
                    }
                }
                // The seat's moves in each log against the moves the player sent, in order.
                let attempts: Vec<&Attempt> = s.attempts.iter().filter(|a| a.key == key).collect();
                let mut in_some_log = vec![false; attempts.len()];
                for &i in &group {
                    let m = match_seat(&logs[i], seat, &attempts);
                    t.server_moves += m.room;
                    for (idx, twice) in m.extra {
                        let e = &logs[i][idx];
                        let from = m.matched[..idx].iter().flatten().last().map_or(0, |j| j + 1);
                        let mut sent = String::new();
                        for a in attempts.iter().skip(from.saturating_sub(1)).take(3) {
                            let _ = write!(sent, " [{} {:?} x{}: {}]", a.serial, a.outcome, a.sends, a.action);
                        }
                        // Evidence for the reader: the log around it and the player's closes.
                        let around: Vec<String> = logs[i]
                            .iter()
                            .enumerate()
                            .skip(idx.saturating_sub(4))
                            .take(6)
                            .map(|(n, e)| format!("{n}: {e}"))
                            .collect();
                        let what = if twice {
                            t.applied_twice += 1;
                            "repeats a resent move already in the log"
                        } else {
                            t.unsent += 1;
                            "is stored as the player's own and it never sent it"
                        };
                        t.problem(format!(
                            "room {room} ({}) match {key:?}: move {idx} of {} ({}) {what} (sent:{sent}; the log around it: {around:?}; closes: {:?})",
                            plan.game,
                            s.name,
                            e["action"],
                            s.closes.iter().rev().take(3).map(|(_, why)| why).collect::<Vec<_>>()
                        ));
                    }
                    for j in m.matched.into_iter().flatten() {
                        in_some_log[j] = true;
                    }
                }
                for (j, a) in attempts.iter().enumerate() {
                    if a.sends > 1 {
                        t.resent += 1;
                        t.resent_in_log += usize::from(in_some_log[j]);
                    }
                    if a.outcome == Outcome::Acked {
                        t.acked += 1;
                        if !in_some_log[j] {
                            t.acked_lost += 1;
                            // Evidence for the reader: how it was sent, what the logs hold from
                            // its serial on, and a refusal that came after it was taken as applied.
                            let late: Vec<&String> = s
                                .late_refusals
                                .iter()
                                .filter(|(i, _)| std::ptr::eq(&s.attempts[*i], *a))
                                .map(|(_, code)| code)
                                .collect();
                            let after: Vec<String> = group
                                .iter()
                                .flat_map(|&i| logs[i].iter().skip(a.serial as usize).take(3))
                                .map(|e| e.to_string())
                                .collect();
                            let near: Vec<String> = attempts
                                .iter()
                                .filter(|b| b.serial + 3 >= a.serial && b.serial <= a.serial + 3)
                                .map(|b| {
                                    format!(
                                        "[serial {} {:?} x{} conn {} {}]",
                                        b.serial, b.outcome, b.sends, b.conn, b.action
                                    )
                                })
                                .collect();
                            t.problem(format!(
                                "room {room} ({}) match {key:?}: {}'s move at serial {} ({}) was seen applied and is not in the log (sent {}x, on connection {}, multi {}; refused afterwards: {late:?}; the log from that serial: {after:?}; its moves near it: {near:?}; closes: {:?})",
                                plan.game, s.name, a.serial, a.action, a.sends, a.conn, a.multi,
                                s.closes.iter().rev().take(3).map(|(_, why)| why).collect::<Vec<_>>()
                            ));
                        }
                    }
                }
            }
            if differs {
                t.replay_diff += 1;
            }
        }
    }
    drop(db);
    let _ = conn_task.await;
    Ok(t)
}

/// How one seat's entries of one log match the moves its player sent.
#[derive(Debug, Default)]
pub struct SeatMatch {
    /// For each entry of the log, the attempt it is (an index into the attempts).
    pub matched: Vec<Option<usize>>,
    /// Entries of the seat the room made (marked `"by"`): counted, never matched.
    pub room: usize,
    /// Entries of the seat stored as its player's that match no move it sent: (index, whether
    /// it repeats a move resent after a reconnect, between its first application and the
    /// player's next move — a move applied twice).
    pub extra: Vec<(usize, bool)>,
}

/// Matches the entries of `seat` in `log` against the moves its player sent (`attempts`, in
/// the order sent), in order: an entry is the first unmatched attempt after the last matched
/// one with the same action, chosen at or before the entry's index, and not refused on the
/// connection it was sent on. Entries the room made for the seat (`"by"` set) are only
/// counted: a clock's answer may equal a move the player sent (Wolf Pack's Proceed), and
/// without the mark it would be taken for that move applied twice.
pub fn match_seat(log: &[Value], seat: usize, attempts: &[&Attempt]) -> SeatMatch {
    let mut m = SeatMatch { matched: vec![None; log.len()], ..SeatMatch::default() };
    let mut used = vec![false; attempts.len()];
    let mut from = 0;
    for (idx, e) in log.iter().enumerate() {
        if e["type"] != "Act" || e["seat"].as_u64() != Some(seat as u64) {
            continue;
        }
        if !e["by"].is_null() {
            m.room += 1;
            continue;
        }
        // The entry is one of the player's attempts from `from` on, and cannot skip one the room
        // took (`Acked`: stored, so it must match an entry of its own). Among the candidates up
        // to the first taken one, the last: an attempt whose fate is unknown (resent after a
        // reconnect and refused as stale) may never have been applied, so it must not take the
        // entry of a later move the room is known to have taken (the 200-fault run of
        // 2026-11-29 reported a Wolf Pack Proceed and Three Kingdoms Passes "lost" that way).
        let bound = (from..attempts.len()).find(|&j| attempts[j].outcome == Outcome::Acked).unwrap_or(attempts.len());
        let found = (from..attempts.len().min(bound + 1)).rev().find(|&j| {
            let a = attempts[j];
            !matches!(a.outcome, Outcome::Refused(_)) && a.serial as usize <= idx && a.action == e["action"]
        });
        match found {
            Some(j) => {
                used[j] = true;
                m.matched[idx] = Some(j);
                from = j + 1;
            }
            None => {
                // A second copy of a resent move would be applied after the first and before
                // the player chose its next move (from a later table).
                let twice = attempts.iter().enumerate().any(|(j, a)| {
                    let next = attempts.get(j + 1).map_or(u64::MAX, |n| n.serial);
                    used[j] && a.sends > 1 && a.action == e["action"] && a.serial as usize <= idx && (idx as u64) < next
                });
                m.extra.push((idx, twice));
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn attempt(serial: u64, action: Value, outcome: Outcome, sends: u32) -> Attempt {
        Attempt { key: None, serial, seat: 0, action, outcome, sends, multi: false, conn: 1, at: Instant::now() }
    }

    fn act(seat: usize, action: Value) -> Value {
        json!({"type": "Act", "seat": seat, "action": action})
    }

    /// The shape of the 200-fault run's "applied twice": the player's Proceed at serial 2,
    /// resent after a reconnect, and a later Proceed of the seat. Made by the room's clock
    /// (marked), it is counted as the room's; stored as the player's, it is a move applied
    /// twice; and an unmarked entry the player never sent is caught too.
    #[test]
    fn a_resent_move_applied_twice_is_caught_and_a_clocks_move_is_not() {
        let proceed = json!({"type": "Proceed"});
        let sent = [attempt(2, proceed.clone(), Outcome::Acked, 2)];
        let attempts: Vec<&Attempt> = sent.iter().collect();
        let mut log = vec![act(1, json!(1)), act(1, json!(2)), act(0, proceed.clone()), act(1, json!(3))];
        let mut clock = act(0, proceed.clone());
        clock["by"] = json!("clock");
        log.push(clock);
        let m = match_seat(&log, 0, &attempts);
        assert_eq!((m.matched[2], m.room, m.extra.len()), (Some(0), 1, 0), "{m:?}");

        log[4] = act(0, proceed.clone());
        let m = match_seat(&log, 0, &attempts);
        assert_eq!(m.extra, vec![(4, true)], "a resend applied twice went unnoticed: {m:?}");

        // Not resent: an unmarked copy is a move the player never sent (not "twice").
        let once = [attempt(2, proceed.clone(), Outcome::Acked, 1)];
        let m = match_seat(&log, 0, &once.iter().collect::<Vec<_>>());
        assert_eq!(m.extra, vec![(4, false)], "{m:?}");
        // A move refused on its own connection is never matched.
        let refused = [attempt(2, proceed, Outcome::Refused("stale_action".into()), 1)];
        let m = match_seat(&log, 0, &refused.iter().collect::<Vec<_>>());
        assert_eq!(m.extra, vec![(2, false), (4, false)], "{m:?}");
    }

    /// The shape of the 2026-11-29 run's Wolf Pack "lost" move: a Proceed at serial 76 whose fate
    /// is unknown (resent, refused as stale), then the player's taken Proceed at 79, Select at 80
    /// and Proceed at 81; the log holds exactly the three taken ones at 79-81. The unknown one was
    /// never applied: every taken move is in the log once.
    #[test]
    fn a_move_of_unknown_fate_does_not_take_the_entry_of_a_later_taken_move() {
        let proceed = json!({"type": "Proceed"});
        let select = json!({"type": "Select", "card": 0, "target": 2, "confirm": true});
        let sent = [
            attempt(76, proceed.clone(), Outcome::Unknown, 2),
            attempt(79, proceed.clone(), Outcome::Acked, 1),
            attempt(80, select.clone(), Outcome::Acked, 1),
            attempt(81, proceed.clone(), Outcome::Acked, 1),
        ];
        let attempts: Vec<&Attempt> = sent.iter().collect();
        let mut log: Vec<Value> = (0..79).map(|i| act(1, json!(i))).collect();
        log.extend([act(0, proceed.clone()), act(0, select), act(0, proceed.clone())]);
        let m = match_seat(&log, 0, &attempts);
        assert_eq!((m.matched[79], m.matched[80], m.matched[81]), (Some(1), Some(2), Some(3)), "{m:?}");
        assert!(m.extra.is_empty(), "{m:?}");

        // Applied after all (its entry before the next taken move's): matched to it.
        log[77] = act(0, proceed.clone());
        let m = match_seat(&log, 0, &attempts);
        assert_eq!((m.matched[77], m.matched[79]), (Some(0), Some(1)), "{m:?}");
        assert!(m.extra.is_empty(), "{m:?}");
    }
}
