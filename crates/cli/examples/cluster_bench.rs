//! The cluster's benchmark (issue 25, "What it must show"), not a timed test:
//!
//! 1. Throughput, same driver, same run: rooms of every game played by machine-speed players
//!    (moves picked from `legal`) through HAProxy on 3 nodes, then directly on 1 node without
//!    the proxy (each on a fresh PostgreSQL of its own), as moves per CPU-second of every
//!    process (nodes + HAProxy + PostgreSQL's postmaster with its children, from
//!    /proc/<pid>/stat), and where the CPU goes.
//! 2. Faults with the default heartbeat (1 s) and TTL (3 s): kill -9 of a room's owner (the
//!    failover time: the kill to that room's next table, p50/p99), SIGSTOP past the TTL then
//!    SIGCONT, PostgreSQL restarted, a node cut off from PostgreSQL then healed, and SIGTERM
//!    drains, while rooms of every game play; then the checks of the test (tests/cluster.rs):
//!    acknowledged moves lost, moves applied twice, seats lost, games that differ from their
//!    replay.
//!
//! ```text
//! cargo build --release -p cli --bin cardtable --example cluster_bench
//! nice -n 10 target/release/examples/cluster_bench --kills 50 --faults 200
//! ```
//! Options: `--kills N` (kill -9 among the faults, at least), `--faults N` (all faults),
//! `--seconds S` (each throughput window), `--rooms-per-game N`, `--heartbeat-ms`, `--ttl-ms`,
//! `--only throughput|faults|single` (single: today's server on PostgreSQL alone), `--bin PATH` (default: `cardtable` next to this example's
//! directory). Needs PostgreSQL 15's binaries (/usr/lib/postgresql/15/bin) and `haproxy`.

#[path = "../tests/cluster_harness/mod.rs"]
mod cluster_harness;

use cluster_harness::{self as h, Cluster, Ctl, NodeSettings, Pg, RoomPlan};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

struct Args {
    kills: usize,
    faults: usize,
    seconds: u64,
    rooms_per_game: usize,
    heartbeat_ms: u64,
    ttl_ms: u64,
    only: Option<String>,
    bin: PathBuf,
}

fn args() -> Args {
    let mut a = Args {
        kills: 50,
        faults: 200,
        seconds: 30,
        rooms_per_game: 2,
        heartbeat_ms: 1000,
        ttl_ms: 3000,
        only: None,
        bin: std::env::current_exe()
            .ok()
            .and_then(|p| Some(p.parent()?.parent()?.join("cardtable")))
            .unwrap_or_else(|| PathBuf::from("target/release/cardtable")),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--kills" => a.kills = val().parse().expect("--kills N"),
            "--faults" => a.faults = val().parse().expect("--faults N"),
            "--seconds" => a.seconds = val().parse().expect("--seconds S"),
            "--rooms-per-game" => a.rooms_per_game = val().parse().expect("--rooms-per-game N"),
            "--heartbeat-ms" => a.heartbeat_ms = val().parse().expect("--heartbeat-ms MS"),
            "--ttl-ms" => a.ttl_ms = val().parse().expect("--ttl-ms MS"),
            "--only" => a.only = Some(val()),
            "--bin" => a.bin = PathBuf::from(val()),
            other => panic!("unknown option {other} (see the file's header)"),
        }
    }
    a
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn new_pg() -> Pg {
    if Pg::can_own() {
        Pg::own().unwrap_or_else(|e| panic!("{e}"))
    } else {
        panic!(
            "the benchmark starts PostgreSQL itself: it needs /usr/lib/postgresql/15/bin (apt-get install postgresql)"
        )
    }
}

/// One throughput window: `nodes` nodes (behind HAProxy when `proxy`) on a PostgreSQL of their
/// own, players at machine speed; answers a printed line.
async fn throughput(a: &Args, label: &str, nodes: usize, proxy: bool, cluster: bool) -> String {
    let settings = NodeSettings { heartbeat_ms: a.heartbeat_ms, ttl_ms: a.ttl_ms, cluster, threads: 0 };
    let c = Cluster::start(new_pg(), &a.bin, nodes, settings, false, proxy).await.unwrap_or_else(|e| panic!("{e}"));
    let mut c = c;
    let ctl = Ctl::new(c.entry(), !proxy, std::env::var_os("CLUSTER_BENCH_KEEP").is_some(), Duration::ZERO);
    let plans = c.make_rooms(a.rooms_per_game, 1).await.unwrap_or_else(|e| panic!("{e}"));
    c.start_players(&plans, &ctl).await;
    c.all_live("warm-up", Duration::from_secs(60)).await.unwrap_or_else(|e| panic!("{e}"));
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (m0, cpu0, t0) = (c.stored_moves().await.unwrap(), c.cpu(), Instant::now());
    tokio::time::sleep(Duration::from_secs(a.seconds)).await;
    let (m1, cpu1, secs) = (c.stored_moves().await.unwrap(), c.cpu(), t0.elapsed().as_secs_f64());
    ctl.stop.store(true, Ordering::SeqCst);
    let tps = h::ticks_per_second();
    let d = cpu1.since(cpu0);
    let moves = (m1 - m0) as f64;
    let cpu_s = d.total() as f64 / tps;
    let us = |ticks: u64| ticks as f64 / tps * 1e6 / moves;
    let t = c.check(&ctl, &plans).await;
    if let Ok(t) = &t {
        for p in t.problems.iter().take(10) {
            println!("  problem: {p}");
        }
    }
    let line = format!(
        "{label}: {} rooms, {moves} moves in {secs:.1} s ({:.0} moves/s), CPU {cpu_s:.2} s: {:.0} moves per CPU-second; per move {:.0} us = nodes {:.0} + HAProxy {:.0} + PostgreSQL {:.0}; checks: {}",
        plans.len(),
        moves / secs,
        moves / cpu_s,
        us(d.total()),
        us(d.nodes),
        us(d.proxy),
        us(d.pg),
        t.map_or_else(|e| e, |t| t.summary())
    );
    println!("{line}");
    line
}

#[derive(Clone, Copy, Debug)]
enum Fault {
    Kill,
    Stop,
    PgRestart,
    Cut,
    Drain,
}

/// The newest table any player of `room` has seen: (match, serial).
fn newest(c: &Cluster, room: &str, before: Option<Instant>) -> Option<(Option<i64>, u64)> {
    let mut best = None;
    for p in c.players.iter().filter(|p| p.room == room) {
        let s = p.state.lock().unwrap();
        for o in s.obs.iter().rev() {
            if before.is_some_and(|b| o.at >= b) {
                continue;
            }
            let k = Some((o.key, o.serial));
            if k > best {
                best = k;
            }
            break;
        }
    }
    best
}

/// The time from `t0` to the first table of `room` newer than `mark` seen on a connection
/// opened after `t0` (a table already on its way from the killed owner does not count).
fn played_again(c: &Cluster, room: &str, mark: Option<(Option<i64>, u64)>, t0: Instant) -> Option<Duration> {
    let mut first: Option<Instant> = None;
    for p in c.players.iter().filter(|p| p.room == room) {
        let s = p.state.lock().unwrap();
        for o in s.obs.iter().rev() {
            if Some((o.key, o.serial)) <= mark || o.at < t0 {
                break;
            }
            if o.since > t0 && first.is_none_or(|f| o.at < f) {
                first = Some(o.at);
            }
        }
    }
    first.map(|f| f - t0)
}

async fn faults(a: &Args) -> Vec<String> {
    let mut out = Vec::new();
    let settings = NodeSettings { heartbeat_ms: a.heartbeat_ms, ttl_ms: a.ttl_ms, cluster: true, threads: 0 };
    let mut c = Cluster::start(new_pg(), &a.bin, 3, settings, true, true).await.unwrap_or_else(|e| panic!("{e}"));
    let ctl = Ctl::new(c.entry(), false, false, Duration::from_millis(5));
    let mut plans: Vec<RoomPlan> = c.make_rooms(a.rooms_per_game, 500).await.unwrap_or_else(|e| panic!("{e}"));
    c.start_players(&plans, &ctl).await;
    c.all_live("warm-up", Duration::from_secs(60)).await.unwrap_or_else(|e| panic!("{e}"));
    let ttl = Duration::from_millis(a.ttl_ms);
    let live_within = Duration::from_secs(30);
    let others = [Fault::Stop, Fault::PgRestart, Fault::Cut, Fault::Drain];
    let mut failover: Vec<f64> = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut not_live = 0;
    let mut stuck_rooms: Vec<String> = Vec::new();
    let mut censored = 0;
    let mut aborted = false;
    let mut kills = 0;
    let mut other_i = 0;
    let t_run = Instant::now();
    for i in 0..a.faults {
        // Kills first among every other fault until enough, then the rest in turn.
        let kills_left = a.kills.saturating_sub(kills);
        let faults_left = a.faults - i;
        let fault = if kills_left > 0 && (kills_left >= faults_left || i % 2 == 0) {
            Fault::Kill
        } else {
            other_i += 1;
            others[(other_i - 1) % others.len()]
        };
        let result: Result<(), String> = async {
            match fault {
                Fault::Kill => {
                    let own = h::owners(&c.pg.url, &plans).await?;
                    // A room with an owner that runs: kill that owner.
                    let pick = plans.iter().cycle().skip(i % plans.len()).take(plans.len()).find_map(|p| {
                        if c.retired.contains(&p.id) {
                            return None;
                        }
                        let o = own.get(&p.id)?.0.clone()?;
                        let k = c.nodes.iter().position(|n| n.id == o && n.running())?;
                        Some((p.id.clone(), k))
                    });
                    let Some((room, k)) = pick else { return Err("no room with a running owner".into()) };
                    let t0 = Instant::now();
                    let mark = newest(&c, &room, Some(t0));
                    c.nodes[k].kill9();
                    kills += 1;
                    let deadline = t0 + live_within;
                    let took = loop {
                        if let Some(d) = played_again(&c, &room, mark, t0) {
                            break d;
                        }
                        if Instant::now() > deadline {
                            // Counted at the limit (a lower bound), not left out.
                            failover.push(live_within.as_secs_f64());
                            censored += 1;
                            let _ = c.restart(k).await;
                            return Err(format!("room {room} not playing {live_within:?} after kill -9 of its owner"));
                        }
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    };
                    failover.push(took.as_secs_f64());
                    c.all_live("kill -9", live_within).await?;
                    c.restart(k).await?;
                }
                Fault::Stop => {
                    let (k, rooms) = c.busiest(&plans, &[]).await?;
                    c.nodes[k].sigstop();
                    let t0 = Instant::now();
                    let r = c.moved_off(&plans, k, &rooms, live_within).await;
                    if t0.elapsed() < ttl {
                        tokio::time::sleep(ttl - t0.elapsed()).await;
                    }
                    let live = c.all_live("SIGSTOP", live_within).await;
                    c.nodes[k].sigcont();
                    r?;
                    live?;
                    tokio::time::sleep(Duration::from_millis(a.heartbeat_ms * 2)).await;
                    let own = h::owners(&c.pg.url, &plans).await?;
                    let id = c.nodes[k].id.clone();
                    if let Some(r) = rooms.iter().find(|r| own[*r].0.as_deref() == Some(id.as_str())) {
                        return Err(format!("{id} got room {r} back after SIGCONT"));
                    }
                    c.all_live("SIGCONT", live_within).await?;
                }
                Fault::PgRestart => {
                    let pg = &c.pg;
                    tokio::task::block_in_place(|| pg.restart(Duration::from_millis(500)))?;
                    c.all_live("PostgreSQL's restart", Duration::from_secs(60)).await?;
                }
                Fault::Cut => {
                    let (k, rooms) = c.busiest(&plans, &[]).await?;
                    c.fwds[k].cut();
                    let r = c.moved_off(&plans, k, &rooms, live_within).await;
                    let live = if r.is_ok() { c.all_live("cut off", live_within).await.map(drop) } else { Ok(()) };
                    c.fwds[k].heal();
                    r?;
                    live?;
                    c.all_live("healed", live_within).await?;
                }
                Fault::Drain => {
                    let k = i % c.nodes.len();
                    if !c.nodes[k].running() {
                        c.restart(k).await?;
                    }
                    let status = c.nodes[k].drain(Duration::from_secs(15)).await;
                    if !status.is_some_and(|s| s.success()) {
                        return Err(format!("{} did not drain and exit 0: {status:?}", c.nodes[k].id));
                    }
                    c.all_live("drain", live_within).await?;
                    c.restart(k).await?;
                }
            }
            Ok(())
        }
        .await;
        *counts.entry(format!("{fault:?}")).or_default() += 1;
        if let Err(e) = result {
            not_live += 1;
            eprintln!("fault {i} ({fault:?}): {e}");
            // Put the cluster back together before going on: heal, resume, restart the dead;
            // if rooms still do not play, restart every node (kill -9), counted as a repair.
            for k in 0..c.nodes.len() {
                c.fwds[k].heal();
                c.nodes[k].sigcont();
                if !c.nodes[k].running() {
                    let _ = c.restart(k).await;
                }
            }
            // A room that still does not play is given up on (counted, still checked) and
            // replaced by a fresh room of its game, so the run goes on with the same load.
            let before = c.room_progress();
            tokio::time::sleep(Duration::from_secs(10)).await;
            let now = c.room_progress();
            let stuck: Vec<String> = before.keys().filter(|r| now[*r] < before[*r] + 3).cloned().collect();
            for r in stuck {
                c.retired.insert(r.clone());
                stuck_rooms.push(r.clone());
                let game = plans.iter().find(|p| p.id == r).map(|p| p.game.clone()).unwrap();
                let kind: registry::GameKind = game.parse().unwrap();
                let min = usize::from(*kind.seats().start()).max(2);
                let bots = usize::from(min >= 4);
                let n = stuck_rooms.len();
                let people: Vec<String> = (0..min - bots).map(|j| format!("{}x{n}p{j}", &game[..3])).collect();
                match h::create_room(&c.entry(), &game, 9000 + n as u64).await {
                    Ok(id) => {
                        let plan = RoomPlan { id, game, people, bots };
                        c.start_players(std::slice::from_ref(&plan), &ctl).await;
                        plans.push(plan);
                    }
                    Err(e) => {
                        eprintln!("fault {i}: no replacement room: {e}; stopping");
                        aborted = true;
                    }
                }
            }
            if aborted {
                break;
            }
        }
        if (i + 1) % 25 == 0 {
            let mut sorted = failover.clone();
            sorted.sort_by(f64::total_cmp);
            eprintln!(
                "{} faults in {:.0} s, {counts:?}; failover p50 {:.2} s p99 {:.2} s over {} kills; {not_live} faults with rooms not live",
                i + 1,
                t_run.elapsed().as_secs_f64(),
                pct(&sorted, 50.0),
                pct(&sorted, 99.0),
                sorted.len()
            );
        }
    }
    let t = c.check(&ctl, &plans).await;
    ctl.stop.store(true, Ordering::SeqCst);
    failover.sort_by(f64::total_cmp);
    let (closes, moved) = c.closes();
    out.push(format!(
        "faults: {} injected in {:.0} s ({counts:?}), heartbeat {} ms, TTL {} ms, {} rooms",
        counts.values().sum::<usize>(),
        t_run.elapsed().as_secs_f64(),
        a.heartbeat_ms,
        a.ttl_ms,
        plans.len()
    ));
    out.push(format!(
        "failover (kill -9 of a room's owner to that room's next table): {} kills ({censored} of them not back within 30 s, counted as 30 s), p50 {:.2} s, p99 {:.2} s, max {:.2} s",
        failover.len(),
        pct(&failover, 50.0),
        pct(&failover, 99.0),
        failover.last().copied().unwrap_or(f64::NAN)
    ));
    out.push(format!(
        "faults after which some room did not play again within 30 s: {not_live}; rooms that never played again (given up on and replaced, still checked): {} {stuck_rooms:?}{}",
        stuck_rooms.len(),
        if aborted { "; the run stopped early: the cluster did not recover" } else { "" }
    ));
    out.push(format!(
        "player connections ended: {closes}, of them 4001 moved: {moved}; joins by name after a failover in the lobby: {}",
        c.lobby_rejoins()
    ));
    match t {
        Ok(t) => {
            out.push(format!("checks: {}", t.summary()));
            // Every problem kept (up to 40): the first ones may all be of one room.
            for p in &t.problems {
                out.push(format!("  problem: {p}"));
            }
        }
        Err(e) => out.push(format!("checks failed to run: {e}")),
    }
    for l in &out {
        println!("{l}");
    }
    out
}

fn main() {
    let a = args();
    assert!(a.bin.exists(), "no server binary at {} (cargo build --release -p cli, or --bin PATH)", a.bin.display());
    assert!(h::have("haproxy", "-v"), "the benchmark needs haproxy (apt-get install haproxy)");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        println!("cluster_bench: binary {}", a.bin.display());
        let mut lines = Vec::new();
        let only = a.only.as_deref();
        if only.is_none() || only == Some("throughput") {
            lines.push(throughput(&a, "3 nodes behind HAProxy", 3, true, true).await);
            lines.push(throughput(&a, "1 node, no proxy", 1, false, true).await);
        }
        if only.is_none() || only == Some("throughput") || only == Some("single") {
            lines.push(throughput(&a, "single server (no --node-id) on PostgreSQL, no proxy", 1, false, false).await);
        }
        if only.is_none() || only == Some("faults") {
            lines.extend(faults(&a).await);
        }
        println!("\n== summary ==");
        for l in lines {
            println!("{l}");
        }
    });
}
