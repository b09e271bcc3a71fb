//! Three nodes on one PostgreSQL behind HAProxy, all on loopback, play a room of every game
//! while the test injects faults: kill -9 of nodes (two different ones, each restarted),
//! SIGSTOP of a room's owner past the TTL then SIGCONT, PostgreSQL restarted, a node cut off
//! from PostgreSQL (its own forwarder turned into a black hole) while its clients still reach
//! it, then healed, and a rolling restart (SIGTERM drain of every node in turn). After each:
//! every room plays again, every player holds its seat, and the logs check out (see
//! `cluster_harness::check`: no gap, no move twice, every acknowledged move kept, every table
//! a player saw equal to the replay of the log).
//!
//! Needs PostgreSQL (`CARDTABLE_TEST_PG`, see scripts/pg.sh; a fresh database is made on it and
//! dropped; the restart fault needs `CARDTABLE_PG_CTL` and is skipped without it) and HAProxy
//! (skipped with a note when `haproxy` is missing). A short heartbeat (200 ms) and TTL (600 ms)
//! keep it quick; `examples/cluster_bench.rs` measures with the defaults. docs/cluster-testing.md
//! tells how to run and read it.

#[path = "../../store/tests/pg_env/mod.rs"]
#[allow(dead_code)] // its schema helpers are for the other PostgreSQL tests
mod pg_env;

mod cluster_harness;

use cluster_harness::{self as h, Cluster, Ctl, NodeSettings, Pg, RoomPlan};
use std::time::{Duration, Instant};

const HEARTBEAT_MS: u64 = 200;
const TTL_MS: u64 = 600;
/// How long every room gets to play again after a fault.
const LIVE: Duration = Duration::from_secs(30);

async fn checkpoint(c: &Cluster, ctl: &Ctl, plans: &[RoomPlan], what: &str) {
    let t = c.check(ctl, plans).await.expect("the checks read PostgreSQL");
    let (closes, moved) = c.closes();
    eprintln!(
        "cluster: after {what}: {} ({closes} connections ended, {moved} of them 4001 moved; {} joins by name after a failover in the lobby)",
        t.summary(),
        c.lobby_rejoins()
    );
    assert!(t.clean(), "after {what}: {}\n{}", t.summary(), t.problems.join("\n"));
    // Issue 46: while a room moves, a client meets `503 moving` (a node's lookup) and the
    // proxy's own refusals, all JSON; an HTML page fails the run.
    let (moving, proxy, html) = c.refusals();
    eprintln!(
        "cluster: after {what}: clients met {moving} `503 moving` lookups and {proxy} JSON refusals of the proxy"
    );
    assert!(html.is_empty(), "after {what}: clients met refusals that are not JSON:\n{}", html.join("\n"));
    assert!(t.tables > 0 && t.acked > 0, "after {what}: nothing was compared: {}", t.summary());
}

async fn live(c: &Cluster, what: &str) -> Duration {
    c.all_live(what, LIVE).await.unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_behind_haproxy_survive_every_fault() {
    let Some(admin) = pg_env::pg_url() else { return };
    if !h::have("haproxy", "-v") {
        eprintln!("cluster test skipped: no `haproxy` on PATH (apt-get install haproxy)");
        return;
    }
    let t_start = Instant::now();
    let pg = Pg::external(&admin, std::env::var("CARDTABLE_PG_CTL").ok()).await.expect("a fresh database");
    let settings = NodeSettings { heartbeat_ms: HEARTBEAT_MS, ttl_ms: TTL_MS, cluster: true, threads: 1 };
    // CARDTABLE_BIN: another build of the server (as e2e/run.sh takes it).
    let bin = std::env::var_os("CARDTABLE_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_cardtable").into(), std::path::PathBuf::from);
    let mut c = Cluster::start(pg, &bin, 3, settings, true, true).await.unwrap_or_else(|e| panic!("{e}"));
    let ctl = Ctl::new(c.entry(), false, true, Duration::from_millis(15));
    let plans = c.make_rooms(1, 100).await.expect("a room of every game");
    c.start_players(&plans, &ctl).await;
    live(&c, "the start").await;
    checkpoint(&c, &ctl, &plans, "the start").await;

    // kill -9 of the busiest node, twice, different nodes; each restarted.
    let mut killed = Vec::new();
    for round in 1..=2 {
        let (k, rooms) = c.busiest(&plans, &killed).await.unwrap();
        killed.push(k);
        let id = c.nodes[k].id.clone();
        c.nodes[k].kill9();
        let took = live(&c, &format!("kill -9 of {id}")).await;
        eprintln!("cluster: kill -9 {id} (owner of {} rooms): every room playing again within {took:?}", rooms.len());
        c.restart(k).await.unwrap();
        checkpoint(&c, &ctl, &plans, &format!("kill -9 #{round} ({id})")).await;
    }
    // The killed nodes' players were told their rooms were moving (a node's lookup, or the
    // proxy's JSON for a socket to the dead node), not sent to the dead node by a lookup alone.
    let (moving, proxy, _) = c.refusals();
    assert!(moving + proxy > 0, "two kills, and no client met `503 moving` or a JSON refusal");

    // SIGSTOP of a room's owner past the TTL: survivors take its rooms, and once resumed it
    // writes nothing for them (their owner and epoch stay the survivors').
    let (k, rooms) = c.busiest(&plans, &[]).await.unwrap();
    let id = c.nodes[k].id.clone();
    let t0 = Instant::now();
    c.nodes[k].sigstop();
    c.moved_off(&plans, k, &rooms, LIVE).await.unwrap();
    live(&c, &format!("SIGSTOP of {id}")).await;
    let claimed = h::owners(&c.pg.url, &plans).await.unwrap();
    let stopped = t0.elapsed();
    assert!(stopped > Duration::from_millis(TTL_MS), "stopped for {stopped:?}, not past the TTL");
    c.nodes[k].sigcont();
    tokio::time::sleep(Duration::from_millis(4 * HEARTBEAT_MS + TTL_MS)).await;
    live(&c, &format!("SIGCONT of {id}")).await;
    let after = h::owners(&c.pg.url, &plans).await.unwrap();
    for r in &rooms {
        // Nothing wrote to the room's row since the survivor claimed it.
        assert_eq!(after[r], claimed[r], "room {r} changed hands after {id} resumed");
        assert_ne!(after[r].0.as_deref(), Some(id.as_str()), "{id} got room {r} back after its pause");
    }
    eprintln!("cluster: SIGSTOP {id} for {stopped:?} ({} rooms moved), SIGCONT: none came back to it", rooms.len());
    checkpoint(&c, &ctl, &plans, &format!("SIGSTOP/SIGCONT of {id}")).await;

    // PostgreSQL restarted mid-game.
    if c.pg.can_restart() {
        let pg = &c.pg;
        // pg_ctl blocks: off the runtime's workers.
        tokio::task::block_in_place(|| pg.restart(Duration::from_millis(300))).expect("PostgreSQL restarts");
        let took = c.all_live("PostgreSQL's restart", Duration::from_secs(40)).await.unwrap_or_else(|e| panic!("{e}"));
        eprintln!("cluster: PostgreSQL restarted: every room playing again within {took:?}");
        checkpoint(&c, &ctl, &plans, "PostgreSQL's restart").await;
    } else {
        eprintln!("cluster: PostgreSQL's restart skipped: no CARDTABLE_PG_CTL (the server is not the test's)");
    }

    // A node cut off from PostgreSQL (its forwarder a black hole), its clients still reaching
    // it; healed once its rooms play elsewhere.
    let (k, rooms) = c.busiest(&plans, &[]).await.unwrap();
    let id = c.nodes[k].id.clone();
    c.fwds[k].cut();
    c.moved_off(&plans, k, &rooms, LIVE).await.unwrap();
    live(&c, &format!("{id} cut off from PostgreSQL")).await;
    c.fwds[k].heal();
    tokio::time::sleep(Duration::from_millis(4 * HEARTBEAT_MS + TTL_MS)).await;
    live(&c, &format!("{id} healed")).await;
    let after = h::owners(&c.pg.url, &plans).await.unwrap();
    for r in &rooms {
        assert_ne!(after[r].0.as_deref(), Some(id.as_str()), "cut-off {id} kept room {r}");
    }
    eprintln!("cluster: {id} cut off from PostgreSQL ({} rooms moved), healed", rooms.len());
    checkpoint(&c, &ctl, &plans, &format!("{id} cut off and healed")).await;

    // Rolling restart: SIGTERM drain of every node in turn.
    let (_, moved_before) = c.closes();
    for k in 0..c.nodes.len() {
        let id = c.nodes[k].id.clone();
        let t0 = Instant::now();
        let status = c.nodes[k].drain(Duration::from_secs(15)).await;
        assert!(status.is_some_and(|s| s.success()), "{id} did not drain and exit 0 in 15 s: {status:?}");
        let exited = t0.elapsed();
        let took = live(&c, &format!("drain of {id}")).await;
        eprintln!("cluster: drain of {id}: exited after {exited:?}, every room playing again {took:?} later");
        c.restart(k).await.unwrap();
    }
    let (_, moved_after) = c.closes();
    assert!(moved_after > moved_before, "no drain closed a socket with 4001 moved");
    checkpoint(&c, &ctl, &plans, "the rolling restart").await;

    ctl.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let ended: u32 = c.players.iter().map(|p| p.state.lock().unwrap().ended).sum();
    eprintln!("cluster: done in {:?}; players saw {ended} match ends", t_start.elapsed());

    // The checks can fail: with every node stopped, the last move a player saw taken out of a
    // running match's log (as a lost write would be) is reported.
    for n in &mut c.nodes {
        n.kill9();
    }
    let (db, conn) = tokio_postgres::connect(&c.pg.url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let mut cut = 0;
    let mut cut_room = String::new();
    for p in &c.players {
        let Some((room, key, serial)) = ({
            let s = p.state.lock().unwrap();
            s.obs.last().map(|o| (s.room.clone(), o.key, o.serial))
        }) else {
            continue;
        };
        let snap: String = db.query_one("SELECT snapshot FROM rooms WHERE id = $1", &[&room]).await.unwrap().get(0);
        let snap: serde_json::Value = serde_json::from_str(&snap).unwrap();
        if serial == 0 || snap["match"].is_null() || snap["lastMatch"].as_i64() != key {
            continue;
        }
        let from = serial as i64 - 1;
        cut = db.execute("DELETE FROM moves WHERE room_id = $1 AND idx >= $2", &[&room, &from]).await.unwrap();
        cut_room = room;
        break;
    }
    assert!(cut > 0, "no running match with a move a player saw, to take out");
    let t = h::check_rooms(&c.pg.url, &plans, &c.players).await.unwrap();
    assert!(t.acked_lost > 0 && !t.clean(), "a move taken out of a log went unnoticed: {}", t.summary());
    eprintln!("cluster: a seen move taken out of a log is reported: {}", t.summary());

    // And a player's own move stored a second time (as a resend applied twice would be): a
    // copy of its last entry in another room's running log, appended at the end, is reported.
    let mut copied = None;
    for p in &c.players {
        let (room, name) = {
            let s = p.state.lock().unwrap();
            (s.room.clone(), s.name.clone())
        };
        if room == cut_room {
            continue;
        }
        let snap: String = db.query_one("SELECT snapshot FROM rooms WHERE id = $1", &[&room]).await.unwrap().get(0);
        let snap: serde_json::Value = serde_json::from_str(&snap).unwrap();
        let Some(seat) = snap["match"]["seats"].as_array().and_then(|s| s.iter().position(|n| n == name.as_str()))
        else {
            continue;
        };
        let rows = db.query("SELECT idx, entry FROM moves WHERE room_id = $1 ORDER BY idx", &[&room]).await.unwrap();
        let mine = rows.iter().rev().find_map(|r| {
            let e: serde_json::Value = serde_json::from_str(r.get::<_, &str>(1)).unwrap();
            (e["type"] == "Act" && e["seat"] == seat && e["by"].is_null()).then(|| r.get::<_, String>(1))
        });
        let Some(entry) = mine else { continue };
        let next = rows.len() as i64;
        db.execute("INSERT INTO moves (room_id, idx, entry) VALUES ($1, $2, $3)", &[&room, &next, &entry])
            .await
            .unwrap();
        copied = Some(room);
        break;
    }
    assert!(copied.is_some(), "no running log with a player's own move, to store twice");
    let u = h::check_rooms(&c.pg.url, &plans, &c.players).await.unwrap();
    assert!(
        u.applied_twice + u.unsent > t.applied_twice + t.unsent && !u.clean(),
        "a player's move stored twice went unnoticed: {}",
        u.summary()
    );
    eprintln!("cluster: a player's move stored twice is reported: {}", u.summary());
}

/// Raw HTTP with a page's `Origin` and the session cookie: `(status, head, body)`.
async fn page_request(
    addr: &str,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<&str>,
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let cookie = session.map(|id| format!("Cookie: ct_session={id}\r\n")).unwrap_or_default();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((resp.as_str(), ""));
    (head[9..12].parse().unwrap(), head.to_string(), body.to_string())
}

/// A session made on one node is the cluster's: after that node is killed, the same cookie
/// signs its person in on another node, directly and through HAProxy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_made_on_a_node_that_dies_works_on_the_others() {
    let Some(admin) = pg_env::pg_url() else { return };
    if !h::have("haproxy", "-v") {
        eprintln!("cluster test skipped: no `haproxy` on PATH (apt-get install haproxy)");
        return;
    }
    let pg = Pg::external(&admin, None).await.expect("a fresh database");
    let settings = NodeSettings { heartbeat_ms: HEARTBEAT_MS, ttl_ms: TTL_MS, cluster: true, threads: 1 };
    let bin = std::env::var_os("CARDTABLE_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_cardtable").into(), std::path::PathBuf::from);
    let mut c = Cluster::start(pg, &bin, 2, settings, false, true).await.unwrap_or_else(|e| panic!("{e}"));
    let one = c.nodes[0].addr();
    let (status, head, body) =
        page_request(&one, "POST", "/api/auth/register", None, Some(r#"{"name":"nadia","password":"hunter2hunter2"}"#))
            .await;
    assert_eq!(status, 200, "{body}");
    let cookie = head.lines().find_map(|l| l.strip_prefix("set-cookie: ct_session=")).expect("a session cookie");
    let session = cookie.split(';').next().unwrap().to_string();
    c.nodes[0].kill9();
    let two = c.nodes[1].addr();
    let (status, _, body) = page_request(&two, "GET", "/api/me", Some(&session), None).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"name\":\"nadia\""), "{body}");
    let (status, _, body) = page_request(&c.entry(), "GET", "/api/me", Some(&session), None).await;
    assert_eq!(status, 200, "through the proxy: {body}");
    // Signing out on the survivor ends it everywhere (the session lives in PostgreSQL).
    let (status, _, _) = page_request(&two, "POST", "/api/auth/logout", Some(&session), None).await;
    assert_eq!(status, 204);
    c.restart(0).await.unwrap();
    let (status, _, _) = page_request(&one, "GET", "/api/me", Some(&session), None).await;
    assert_eq!(status, 401);
}
