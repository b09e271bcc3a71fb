//! `examples/bot.py`, the protocol's Python bot (issue 46: "a bot anyone can write"), plays a
//! match of each of the five games to its end: against one server, and against three nodes
//! behind HAProxy while the node running every room is killed (`kill -9`). Each bot prints a
//! JSON line: the recorded match's id, and the refusals it met on its way back in (`503
//! moving` from a node, the proxy's JSON, and anything that was not JSON, which fails).
//!
//! Needs a Python 3 that imports `websockets` (`apt-get install python3-websockets`;
//! scripts/test.sh installs it): skipped with a note without one. The cluster half also needs
//! PostgreSQL (`CARDTABLE_TEST_PG`, scripts/pg.sh) and HAProxy, as `tests/cluster.rs` does.

#[path = "../../store/tests/pg_env/mod.rs"]
#[allow(dead_code)] // its schema helpers are for the other PostgreSQL tests
mod pg_env;

// The fault test's harness: this test uses its processes and HTTP client.
mod cluster_harness;

use cluster_harness::{self as h, Cluster, NodeSettings, Pg};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const GAMES: [&str; 5] = ["buckshot", "sorcery", "ivanhoe", "wolfpack", "three-kingdoms"];

/// A Python that imports `websockets`: the one on `PATH`, or Debian's.
fn python() -> Option<String> {
    ["python3", "/usr/bin/python3"].into_iter().map(String::from).find(|p| {
        Command::new(p).args(["-c", "import websockets"]).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
    })
}

fn bot_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bot.py")
}

/// Processes killed when dropped (a failed assertion leaves nothing running).
struct Kids(Vec<(String, Child)>);

impl Drop for Kids {
    fn drop(&mut self) {
        for (_, c) in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Starts the bot for each `(what, args)`.
fn start_bots(python: &str, runs: &[(String, Vec<String>)]) -> Kids {
    Kids(
        runs.iter()
            .map(|(what, args)| {
                let child = Command::new(python)
                    .arg(bot_script())
                    .args(args)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("start examples/bot.py");
                (what.clone(), child)
            })
            .collect(),
    )
}

/// Waits for every bot to exit (at most `within`), and reads each one's JSON line.
fn finish(mut kids: Kids, within: Duration) -> Vec<(String, Value)> {
    let deadline = Instant::now() + within;
    let mut out = Vec::new();
    for (what, child) in &mut kids.0 {
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(Instant::now() < deadline, "the {what} bot did not finish its match within {within:?}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err);
        assert!(status.success(), "the {what} bot failed ({status}): {line}{err}");
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{what}: not a JSON line ({e}): {line}"));
        assert!(v["matchId"].is_i64(), "{what}: no recorded match: {v}");
        assert_eq!(v["notJson"], 0, "{what}: a refusal that was not JSON: {v}");
        eprintln!("python bot, {what}: {v}");
        out.push((what.clone(), v));
    }
    out
}

#[test]
fn the_python_bot_plays_every_game_to_its_end_on_one_server() {
    let Some(python) = python() else {
        eprintln!("python bot test skipped: no python3 with `websockets` (apt-get install python3-websockets)");
        return;
    };
    let dir = h::TempDir::new("pybot");
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardtable"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("db.sqlite"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut line = String::new();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    // The rest of what it prints, read (a closed pipe would fail its next line).
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let server = Kids(vec![("server".into(), server)]);
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("the URL line");
    let url = format!("http://{}", addr.trim());
    let runs: Vec<(String, Vec<String>)> =
        GAMES.iter().map(|g| (g.to_string(), vec![url.clone(), "--game".into(), g.to_string()])).collect();
    finish(start_bots(&python, &runs), Duration::from_secs(240));
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_bot_plays_every_game_through_haproxy_while_a_node_is_killed() {
    let Some(python) = python() else {
        eprintln!("python bot cluster test skipped: no python3 with `websockets` (apt-get install python3-websockets)");
        return;
    };
    let Some(admin) = pg_env::pg_url() else { return };
    if !h::have("haproxy", "-v") {
        eprintln!("python bot cluster test skipped: no `haproxy` on PATH (apt-get install haproxy)");
        return;
    }
    let pg = Pg::external(&admin, None).await.expect("a fresh database");
    let settings = NodeSettings { heartbeat_ms: 200, ttl_ms: 600, cluster: true, threads: 1 };
    let bin = std::env::var_os("CARDTABLE_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_cardtable").into(), std::path::PathBuf::from);
    let mut c = Cluster::start(pg, &bin, 3, settings, false, true).await.unwrap_or_else(|e| panic!("{e}"));
    // Every room on the first node (created there directly), the bots through the proxy: the
    // kill moves all five.
    let first = c.nodes[0].addr();
    let mut runs = Vec::new();
    let mut rooms = Vec::new();
    for (i, game) in GAMES.iter().enumerate() {
        let room = h::create_room(&first, game, 46 + i as u64).await.unwrap();
        let args =
            vec![format!("http://{}", c.entry()), "--room".into(), room.clone(), "--name".into(), format!("py{i}")];
        // Slow enough that no match is over before the kill (a Buckshot match can be three
        // moves of the bot's).
        let think = if *game == "buckshot" { "2000" } else { "400" };
        runs.push((game.to_string(), [args, vec!["--think-ms".into(), think.into()]].concat()));
        rooms.push(room);
    }
    let kids = start_bots(&python, &runs);
    // Once every room plays its match: kill -9 of their node.
    let t0 = Instant::now();
    loop {
        let mut playing = 0;
        for room in &rooms {
            if let Ok((200, v)) = h::http(&first, "GET", &format!("/api/rooms/{room}"), None).await
                && v["state"] == "playing"
            {
                playing += 1;
            }
        }
        if playing == rooms.len() {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "the bots' rooms did not all start within 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    c.nodes[0].kill9();
    eprintln!("python bots: every room playing after {:?}; node n1 killed", t0.elapsed());
    let results = tokio::task::spawn_blocking(move || finish(kids, Duration::from_secs(300))).await.unwrap();
    for (game, v) in &results {
        // Its room's node was killed mid-match: the bot got back in on another node.
        assert!(v["connections"].as_u64().unwrap_or(0) >= 2, "{game}: the bot never reconnected: {v}");
    }
    let moving: u64 = results.iter().map(|(_, v)| v["moving"].as_u64().unwrap_or(0)).sum();
    let proxy: u64 =
        results.iter().map(|(_, v)| v["proxy"].as_u64().unwrap_or(0) + v["unread"].as_u64().unwrap_or(0)).sum();
    eprintln!(
        "python bots: five matches played to their end through the kill; met {moving} `503 moving` lookups and {proxy} refusals of the proxy"
    );
}
