//! Several servers on one PostgreSQL, in one test process: each node runs on its own thread
//! with its own single-threaded runtime, so a node can be killed (its runtime dropped: no
//! drain, no last write, its heartbeat simply stops, as after `kill -9`), paused (its thread
//! blocked: no heartbeat, no room, no socket runs, as under SIGSTOP) and resumed, or drained
//! (its shutdown, as SIGTERM). Heartbeat 100 ms, TTL 300 ms, so the tests are quick.
//!
//! PostgreSQL from `CARDTABLE_TEST_PG` (`source scripts/pg.sh`); without it the tests fail
//! saying how to run them, unless `CARDTABLE_SKIP_PG=1` (as the store's PostgreSQL tests).
//! The multi-process harness (HAProxy, kill -9, SIGSTOP of real processes) is elsewhere.

#[path = "../../store/tests/pg_env/mod.rs"]
mod pg_env;

use crate::common;

use common::{Client, http, http_full, test_config};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::connect_async;

const HEARTBEAT: Duration = Duration::from_millis(100);
const TTL: Duration = Duration::from_millis(300);

/// One node on its own thread and runtime.
pub(crate) struct TestNode {
    pub(crate) id: String,
    pub(crate) addr: String,
    node: Arc<server::node::Node>,
    rt: tokio::runtime::Handle,
    drain: Option<tokio::sync::oneshot::Sender<()>>,
    kill: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl TestNode {
    fn start(url: &str, id: &str) -> TestNode {
        TestNode::start_with(url, id, |_| {})
    }

    /// As [`TestNode::start`], its config changed by `tune` (quick play's wait).
    pub(crate) fn start_with(url: &str, id: &str, tune: fn(&mut server::ServerConfig)) -> TestNode {
        let (tx, rx) = std::sync::mpsc::channel();
        let (url, id_) = (url.to_string(), id.to_string());
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let handle = rt.handle().clone();
            let result = rt.block_on(async move {
                let store = store::Store::connect_node(&url, &id_).await.unwrap();
                let mut cfg = server::node::NodeConfig::new(&id_, &format!("/n/{id_}"));
                cfg.heartbeat = HEARTBEAT;
                cfg.ttl = TTL;
                let node = server::node::Node::register(&store, cfg).await.unwrap();
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let addr = listener.local_addr().unwrap().to_string();
                let (drain_tx, drain_rx) = tokio::sync::oneshot::channel::<()>();
                let (kill_tx, kill_rx) = tokio::sync::oneshot::channel::<()>();
                tx.send((addr, handle, node.clone(), drain_tx, kill_tx)).unwrap();
                let mut config = test_config(store);
                config.rate_limit = 10_000.0;
                config.node = Some(node);
                tune(&mut config);
                tokio::select! {
                    r = server::run(listener, config, async { let _ = drain_rx.await; }) => r.map_err(|e| e.to_string()),
                    _ = kill_rx => Ok(()),
                }
            });
            // The runtime goes here, and every task of the node with it.
            drop(rt);
            result
        });
        let (addr, rt, node, drain, kill) = rx.recv().expect("the node starts");
        TestNode { id: id.to_string(), addr, node, rt, drain: Some(drain), kill: Some(kill), thread: Some(thread) }
    }

    /// As `kill -9`: everything of the node stops at once, nothing is handed over.
    fn kill(&mut self) {
        let _ = self.kill.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap().unwrap();
    }

    /// As SIGSTOP for `d`, then SIGCONT: the node's thread is blocked (nothing of it runs).
    fn pause(&self, d: Duration) {
        self.rt.spawn(async move { std::thread::sleep(d) });
    }

    /// As SIGTERM: the node drains and stops; answers what `run` answered.
    fn drain(&mut self) -> Result<(), String> {
        let _ = self.drain.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap()
    }

    async fn client(&self, room: &str) -> Client {
        let (ws, _) = connect_async(format!("ws://{}/api/rooms/{room}/ws", self.addr)).await.unwrap();
        Client { ws, seen: Vec::new(), closed: None }
    }

    async fn room(&self, body: Value) -> String {
        let (status, v) = http(&self.addr, "POST", "/api/rooms", Some(body)).await;
        assert_eq!(status, 201, "{v}");
        v["id"].as_str().unwrap().to_string()
    }
}

impl Drop for TestNode {
    fn drop(&mut self) {
        if let Some(kill) = self.kill.take() {
            let _ = kill.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

pub(crate) async fn cluster(name: &str) -> Option<String> {
    let url = pg_env::pg_url()?;
    Some(pg_env::fresh_schema(&url, name).await)
}

/// Asks `node` where room `id` lives until it answers 200 (retrying 503 "moving" as a client
/// does), within `within`.
async fn resolve(node: &TestNode, id: &str, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let (status, head, v) = http_full(&node.addr, "GET", &format!("/api/rooms/{id}"), None).await;
        match status {
            200 => return v,
            503 => {
                assert_eq!(v["error"], "moving", "{v}");
                assert!(head.contains("retry-after: 1"), "{head}");
            }
            s => panic!("GET /api/rooms/{id} on {}: {s} {v}", node.id),
        }
        assert!(Instant::now() < deadline, "room {id} not live again within {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Asks `node` where room `id` lives until it names node `on`, within `within`.
async fn resolve_to(node: &TestNode, id: &str, on: &str, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let v = resolve(node, id, within).await;
        if v["node"] == on {
            return v;
        }
        assert!(Instant::now() < deadline, "room {id} not on {on} within {within:?}: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The moves the database holds for room `id`.
async fn stored_moves(url: &str, id: &str) -> Vec<String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client
        .query("SELECT entry FROM moves WHERE room_id = $1 ORDER BY idx", &[&id])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

async fn owner(url: &str, id: &str) -> Option<String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client.query_one("SELECT owner FROM rooms WHERE id = $1", &[&id]).await.unwrap().get(0)
}

fn failures(packets: &[Value]) -> Vec<String> {
    packets.iter().filter(|p| p["type"] == "ActionFailed").map(|p| p["code"].as_str().unwrap().to_string()).collect()
}

/// An Ivanhoe table for alice and bob on `node`, started: (alice, bob, their tokens).
async fn table(node: &TestNode) -> (String, Client, Client, String, String) {
    let room = node.room(json!({"game": "ivanhoe", "seed": 9, "botDelayMs": 60_000})).await;
    let mut a = node.client(&room).await;
    let ta = a.join("alice").await;
    let mut b = node.client(&room).await;
    let tb = b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    (room, a, b, ta, tb)
}

/// Whichever of the two is to move: (their client, their token, their table).
async fn mover<'a>(a: &'a mut Client, b: &'a mut Client, ta: &str, tb: &str) -> (&'a mut Client, String, Value) {
    let da = a.sync().await;
    if !da["legal"].as_array().unwrap().is_empty() {
        return (a, ta.to_string(), da);
    }
    let db = b.sync().await;
    assert!(!db["legal"].as_array().unwrap().is_empty(), "somebody is to move: {da} {db}");
    (b, tb.to_string(), db)
}

fn closed_moved(c: &Client) -> bool {
    c.closed.as_deref().is_some_and(|why| why.contains("4001") && why.contains("moved"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_room_is_claimed_and_a_resent_move_applies_once() {
    let Some(url) = cluster("cluster_kill").await else { return };
    let mut n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b, ta, tb) = table(&n1).await;
    let v = resolve(&n2, &room, TTL).await;
    assert_eq!((v["node"].as_str(), v["path"].as_str()), (Some("n1"), Some("/n/n1")), "{v}");
    // A move, acknowledged by n1 (stored before anyone hears of it).
    let (who, token, d) = mover(&mut a, &mut b, &ta, &tb).await;
    let act = json!({"type": "Act", "action": d["legal"][0], "serial": d["serial"]});
    who.send(act.clone()).await;
    assert!(failures(&who.drain(300).await).is_empty());
    let serial = d["serial"].as_u64().unwrap();
    assert_eq!(stored_moves(&url, &room).await.len() as u64, serial + 1);
    // n1 dies; n2 takes the room over once n1's heartbeat is a TTL old.
    tokio::time::sleep(TTL).await; // n2 has been connected for a TTL: it may claim
    let killed = Instant::now();
    n1.kill();
    drop((a, b));
    let v = resolve_to(&n2, &room, "n2", Duration::from_secs(5)).await;
    let took = killed.elapsed();
    assert_eq!((v["node"].as_str(), v["path"].as_str()), (Some("n2"), Some("/n/n2")), "{v}");
    assert_eq!(owner(&url, &room).await.as_deref(), Some("n2"));
    eprintln!("kill to claimed: {took:?} (TTL {TTL:?}, heartbeat {HEARTBEAT:?})");
    assert!(took < TTL + 10 * HEARTBEAT, "claimed within the TTL and a few heartbeats: {took:?}");
    // The player comes back on n2 with their token: same seat, same table, the move counted.
    let mut c = n2.client(&room).await;
    c.send(json!({"type": "Reconnect", "token": token})).await;
    c.expect("Joined").await;
    let now = c.sync().await;
    assert_eq!(now["serial"], serial + 1, "restored from snapshot + log: {now}");
    // The move resent with its serial after the failover (its answer was lost with n1) is
    // refused as stale, and not played twice.
    c.send(act).await;
    assert_eq!(failures(&c.drain(300).await), ["stale_action"]);
    assert_eq!(stored_moves(&url, &room).await.len() as u64, serial + 1, "no move twice");
    // A move the new owner has not seen applies once; sent again, it is stale.
    if let Some(next) = now["legal"].as_array().and_then(|l| l.first()).cloned() {
        let act = json!({"type": "Act", "action": next, "serial": now["serial"]});
        c.send(act.clone()).await;
        c.send(act).await;
        assert_eq!(failures(&c.drain(300).await), ["stale_action"]);
        assert_eq!(stored_moves(&url, &room).await.len() as u64, serial + 2, "applied once");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_node_writes_nothing_for_the_room_it_lost_and_its_sockets_close_moved() {
    let Some(url) = cluster("cluster_pause").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b, ta, tb) = table(&n1).await;
    let (who, token, d) = mover(&mut a, &mut b, &ta, &tb).await;
    let before = stored_moves(&url, &room).await;
    tokio::time::sleep(TTL).await;
    // n1 is paused for ten TTLs; n2 claims the room (a lookup triggers the claim at once).
    n1.pause(10 * TTL);
    let v = resolve_to(&n2, &room, "n2", Duration::from_secs(5)).await;
    assert_eq!(v["path"], "/n/n2", "{v}");
    // A move sent to the paused n1 waits in its socket; when n1 resumes it cannot store it.
    let act = json!({"type": "Act", "action": d["legal"][0], "serial": d["serial"]});
    who.send(act.clone()).await;
    let got = who.drain(10 * TTL.as_millis() as u64 + 2_000).await;
    assert!(!got.iter().any(|p| p["type"] == "GameDataSync"), "n1 told nobody of a move: {got:?}");
    assert!(closed_moved(who), "the socket closes 4001 moved: {:?}", who.closed);
    assert_eq!(stored_moves(&url, &room).await, before, "nothing of n1's was written after it lost the room");
    assert_eq!(owner(&url, &room).await.as_deref(), Some("n2"));
    // n1 still serves (it did not lose the database, only the room), and points at n2.
    let v = resolve(&n1, &room, Duration::from_secs(2)).await;
    assert_eq!(v["node"], "n2", "{v}");
    let mut other = n1.client(&room).await;
    other.drain(500).await;
    assert!(closed_moved(&other), "a socket to a room another node owns closes 4001: {:?}", other.closed);
    // The player moves to n2 and plays the move there, once.
    let mut c = n2.client(&room).await;
    c.send(json!({"type": "Reconnect", "token": token})).await;
    c.expect("Joined").await;
    c.send(act).await;
    assert!(failures(&c.drain(300).await).is_empty());
    assert_eq!(stored_moves(&url, &room).await.len(), before.len() + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_node_hands_every_room_over_and_peers_claim_them_at_once() {
    let Some(url) = cluster("cluster_drain").await else { return };
    let mut n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b, ta, tb) = table(&n1).await;
    let quiet = n1.room(json!({"game": "buckshot"})).await;
    let (_, _, d) = mover(&mut a, &mut b, &ta, &tb).await;
    let moves = stored_moves(&url, &room).await;
    tokio::time::sleep(TTL).await;
    let drained = Instant::now();
    let n1_addr = n1.addr.clone();
    assert_eq!(n1.drain(), Ok(()), "a drained node exits cleanly");
    let took_drain = drained.elapsed();
    a.drain(500).await;
    b.drain(500).await;
    assert!(closed_moved(&a) && closed_moved(&b), "sockets close 4001 moved: {:?} {:?}", a.closed, b.closed);
    assert!(tokio::net::TcpStream::connect(&n1_addr).await.is_err(), "n1 has stopped listening");
    // The peers claim within a second (n2's next heartbeat, or at the first lookup).
    for id in [&room, &quiet] {
        let v = resolve_to(&n2, id, "n2", Duration::from_secs(1)).await;
        assert_eq!(v["path"], "/n/n2", "{v}");
    }
    let took = drained.elapsed();
    eprintln!("drain took {took_drain:?}; both rooms live on n2 {took:?} after SIGTERM");
    assert!(took < Duration::from_secs(2), "{took:?}");
    // No game cut short: the table is as it was, log intact.
    assert_eq!(stored_moves(&url, &room).await, moves);
    let mut c = n2.client(&room).await;
    c.send(json!({"type": "Reconnect", "token": ta})).await;
    c.expect("Joined").await;
    assert_eq!(c.sync().await["serial"], d["serial"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_node_is_unhealthy_and_refuses_new_rooms() {
    let Some(url) = cluster("cluster_unhealthy").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let (st, v) = http(&n1.addr, "GET", "/api/health", None).await;
    assert_eq!((st, v["node"].as_str(), v["state"].as_str()), (200, Some("n1"), Some("serving")), "{v}");
    n1.node.start_draining();
    let (st, v) = http(&n1.addr, "GET", "/api/health", None).await;
    assert_eq!((st, v["error"].as_str(), v["state"].as_str()), (503, Some("draining"), Some("draining")), "{v}");
    let (st, v) = http(&n1.addr, "POST", "/api/rooms", Some(json!({"game": "buckshot"}))).await;
    assert_eq!(st, 503, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_every_nodes_rooms_and_ids_are_the_clusters() {
    let Some(url) = cluster("cluster_lobby").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let r1 = n1.room(json!({"game": "buckshot"})).await;
    let r2 = n2.room(json!({"game": "ivanhoe", "rated": true})).await;
    let hidden = n2.room(json!({"game": "buckshot", "private": true})).await;
    let mut alice = n2.client(&r2).await;
    alice.join("alice").await;
    // Within the cache's second, each node lists both public rooms, with where they live.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for n in [&n1, &n2] {
        let (st, list) = http(&n.addr, "GET", "/api/rooms", None).await;
        assert_eq!(st, 200);
        let list = list.as_array().unwrap();
        let ids: Vec<&str> = list.iter().map(|r| r["id"].as_str().unwrap()).collect();
        let mut want = vec![r1.as_str(), r2.as_str()];
        want.sort();
        assert_eq!(ids, want, "on {}: {list:?}", n.id);
        let e2 = list.iter().find(|r| r["id"] == r2.as_str()).unwrap();
        assert_eq!(
            (e2["node"].as_str(), e2["path"].as_str(), e2["game"].as_str()),
            (Some("n2"), Some("/n/n2"), Some("ivanhoe"))
        );
        assert_eq!(e2["players"], json!(["alice"]), "{e2}");
        // Whether a room is rated travels with its listing: from the other node too.
        let e1 = list.iter().find(|r| r["id"] == r1.as_str()).unwrap();
        assert_eq!((&e1["rated"], &e2["rated"]), (&json!(false), &json!(true)), "on {}: {list:?}", n.id);
        assert!(!ids.contains(&hidden.as_str()), "a private room is not listed");
    }
    // Any node answers where a room lives, private ones too (the link is the key).
    let v = resolve(&n1, &hidden, TTL).await;
    assert_eq!((v["node"].as_str(), v["path"].as_str()), (Some("n2"), Some("/n/n2")));
    let (st, _) = http(&n1.addr, "GET", "/api/rooms/nosuchroom", None).await;
    assert_eq!(st, 404);
    // A room that closes retires its id for the whole cluster.
    let pg = store::Store::connect_node(&url, "probe").await.unwrap();
    pg.delete_room(&r1).await.ok();
    assert!(pg.id_taken(&r1).await.unwrap() && pg.id_taken(&r2).await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_claims_nothing_before_it_has_been_connected_for_a_ttl() {
    let Some(url) = cluster("cluster_outage").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let room = n1.room(json!({"game": "buckshot"})).await;
    // As after an outage: n1's heartbeat is stale (it is paused), and n3 has only just
    // (re)connected. n3 must not take the room until it has been connected for a TTL.
    n1.pause(20 * TTL);
    tokio::time::sleep(TTL + HEARTBEAT).await;
    let started = Instant::now();
    let n3 = TestNode::start(&url, "n3");
    let mut claimed_at = None;
    while started.elapsed() < 10 * TTL {
        // A lookup may trigger a claim too; it waits the same.
        let (st, v) = http(&n3.addr, "GET", &format!("/api/rooms/{room}"), None).await;
        let owner = owner(&url, &room).await;
        if owner.as_deref() == Some("n3") {
            // Claimed by this lookup, or by n3's heartbeat since.
            claimed_at = Some(started.elapsed());
            assert_eq!(resolve(&n3, &room, TTL).await["node"], "n3");
            break;
        }
        assert_eq!(owner.as_deref(), Some("n1"));
        assert_eq!((st, v["error"].as_str()), (503, Some("moving")), "{v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let at = claimed_at.expect("n3 claims the room once connected for a TTL");
    eprintln!("n3 claimed {at:?} after it started (TTL {TTL:?})");
    assert!(at >= TTL, "not before a TTL of connection: {at:?}");
    drop(n3);
}

/// A TCP forwarder between a node and PostgreSQL that can cut the node off (every connection
/// dropped, new ones refused), or silence the link (nothing fails: bytes stop, in flight and
/// new, as in a partition), and heal: the node still serves its clients meanwhile.
struct Link {
    port: u16,
    cut: Arc<std::sync::atomic::AtomicBool>,
    silent: tokio::sync::watch::Sender<bool>,
    conns: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

/// Copies `from` to `to` while the link is not silent (a silent one holds what it read).
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut silent: tokio::sync::watch::Receiver<bool>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let _ = silent.wait_for(|s| !*s).await;
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Link {
    async fn to(url: &str) -> Link {
        let target = url.split('@').nth(1).unwrap().split('/').next().unwrap().to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (silent, quiet) = tokio::sync::watch::channel(false);
        let conns: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();
        let (c, cs) = (cut.clone(), conns.clone());
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                if c.load(std::sync::atomic::Ordering::SeqCst) {
                    continue; // dropped: refused
                }
                let (target, mut quiet) = (target.clone(), quiet.clone());
                cs.lock().unwrap().push(tokio::spawn(async move {
                    let _ = quiet.wait_for(|s| !*s).await;
                    if let Ok(out) = tokio::net::TcpStream::connect(&target).await {
                        let ((ir, iw), (or, ow)) = (inbound.into_split(), out.into_split());
                        tokio::join!(pump(ir, ow, quiet.clone()), pump(or, iw, quiet));
                    }
                }));
            }
        });
        Link { port, cut, silent, conns }
    }

    /// `url` with its host and port replaced by this forwarder's.
    fn url(&self, url: &str) -> String {
        let (head, rest) = url.split_once('@').unwrap();
        let (_, path) = rest.split_once('/').unwrap();
        format!("{head}@127.0.0.1:{}/{path}", self.port)
    }

    fn cut(&self) {
        self.cut.store(true, std::sync::atomic::Ordering::SeqCst);
        for c in self.conns.lock().unwrap().drain(..) {
            c.abort();
        }
    }

    /// Nothing passes, nothing fails: every statement the node sends from now on hangs.
    fn silence(&self) {
        self.silent.send_replace(true);
    }

    fn heal(&self) {
        self.cut.store(false, std::sync::atomic::Ordering::SeqCst);
        self.silent.send_replace(false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_the_database_lets_its_rooms_go_and_a_peer_takes_them() {
    let Some(url) = cluster("cluster_cutoff").await else { return };
    let link = Link::to(&url).await;
    let n1 = TestNode::start(&link.url(&url), "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b, ta, tb) = table(&n1).await;
    let (who, token, d) = mover(&mut a, &mut b, &ta, &tb).await;
    let before = stored_moves(&url, &room).await;
    tokio::time::sleep(TTL).await;
    let cut = Instant::now();
    link.cut();
    // n1 can write nothing: the move is refused (store_unavailable or, once let go, its socket
    // closes 4001); within a TTL and a few heartbeats its sockets close "moved".
    let act = json!({"type": "Act", "action": d["legal"][0], "serial": d["serial"]});
    who.send(act.clone()).await;
    let got = who.drain(TTL.as_millis() as u64 * 4).await;
    assert!(!got.iter().any(|p| p["type"] == "GameDataSync"), "nobody heard of an unstored move: {got:?}");
    assert!(closed_moved(who), "the cut-off node lets its rooms go: {:?} ({got:?})", who.closed);
    eprintln!("cut off to sockets closed: {:?}", cut.elapsed());
    let (st, v) = http(&n1.addr, "GET", "/api/health", None).await;
    assert_eq!((st, v["state"].as_str()), (503, Some("disconnected")), "{v}");
    peer_takes_over_then_heal(&url, &link, &n1, &n2, &room, &token, act, &before).await;
}

/// After n1, cut off, let `room` go with the move `act` of the player holding `token` unstored
/// (`before`: the moves stored until then): n2 takes the room once n1's heartbeat is a TTL old,
/// the player reconnects there and the move is made; healed, n1 serves again but does not take
/// the room back (n2 is alive and owns it), and the log holds the move once.
#[allow(clippy::too_many_arguments)]
async fn peer_takes_over_then_heal(
    url: &str,
    link: &Link,
    n1: &TestNode,
    n2: &TestNode,
    room: &str,
    token: &str,
    act: Value,
    before: &[String],
) {
    let v = resolve_to(n2, room, "n2", Duration::from_secs(5)).await;
    assert_eq!(v["path"], "/n/n2");
    assert_eq!(stored_moves(url, room).await, before, "the move was not stored");
    let mut c = n2.client(room).await;
    c.send(json!({"type": "Reconnect", "token": token})).await;
    c.expect("Joined").await;
    c.send(act).await;
    assert!(failures(&c.drain(300).await).is_empty());
    link.heal();
    let deadline = Instant::now() + Duration::from_secs(5);
    while http(&n1.addr, "GET", "/api/health", None).await.0 != 200 {
        assert!(Instant::now() < deadline, "n1 reconnects by itself");
        tokio::time::sleep(HEARTBEAT).await;
    }
    tokio::time::sleep(TTL * 2).await;
    assert_eq!(owner(url, room).await.as_deref(), Some("n2"));
    assert_eq!(resolve(n1, room, TTL).await["node"], "n2");
    assert_eq!(stored_moves(url, room).await.len(), before.len() + 1, "the move once");
}

/// A link that goes silent rather than failing (a partition: nothing answers, nothing errs)
/// while a move is being stored: the move is neither acknowledged nor refused (its fate is the
/// database's), the node lets its rooms go once its heartbeat has gone unanswered for a TTL,
/// and their sockets close "moved" although the room still waits on the write; a lookup on
/// the cut-off node answers 503 at once; the player's move, sent again where the room lives
/// now, is made once, and the write that waited is refused by the new epoch when the link
/// heals. Before, the sockets stayed open (and silent) for as long as the link was silent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_database_link_goes_silent_mid_write_lets_its_rooms_go() {
    let Some(url) = cluster("cluster_silent").await else { return };
    let link = Link::to(&url).await;
    let n1 = TestNode::start(&link.url(&url), "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b, ta, tb) = table(&n1).await;
    let (who, token, d) = mover(&mut a, &mut b, &ta, &tb).await;
    let before = stored_moves(&url, &room).await;
    tokio::time::sleep(TTL).await;
    let silent = Instant::now();
    link.silence();
    let act = json!({"type": "Act", "action": d["legal"][0], "serial": d["serial"]});
    who.send(act.clone()).await;
    // A TTL after the last heartbeat the node lets its rooms go; their sockets close at most
    // MOVED_GRACE later.
    let got = who.drain((TTL + server::conn::MOVED_GRACE).as_millis() as u64 + 1_500).await;
    assert!(!got.iter().any(|p| p["type"] == "ActionFailed"), "a move of unknown fate is not refused: {got:?}");
    assert!(!got.iter().any(|p| p["type"] == "GameDataSync"), "nobody heard of an unstored move: {got:?}");
    assert!(closed_moved(who), "the silent node lets its rooms go: {:?} ({got:?})", who.closed);
    eprintln!("link silent to sockets closed: {:?}", silent.elapsed());
    let asked = Instant::now();
    let (st, v) = http(&n1.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(st, 503, "a lookup the node cannot answer says so: {v}");
    assert!(asked.elapsed() < Duration::from_secs(3), "within its time limit, not hanging: {:?}", asked.elapsed());
    // n2 takes the room and the player's move is made there once; what n1 sent into the
    // silence arrives when the link heals, and is refused by the room's new epoch.
    peer_takes_over_then_heal(&url, &link, &n1, &n2, &room, &token, act, &before).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_the_database_cannot_store_is_refused_and_nothing_starts() {
    let Some(url) = cluster("cluster_start_cut").await else { return };
    let link = Link::to(&url).await;
    let n1 = TestNode::start(&link.url(&url), "n1");
    let room = n1.room(json!({"game": "buckshot", "seed": 9, "botDelayMs": 60_000})).await;
    let mut a = n1.client(&room).await;
    a.join("alice").await;
    let mut b = n1.client(&room).await;
    b.join("bob").await;
    link.cut();
    // The match cannot be stored: refused (store_unavailable or, once let go, room_moved or
    // the socket closed 4001), and nobody hears of a game.
    a.send(json!({"type": "StartGame"})).await;
    let got = a.drain(TTL.as_millis() as u64 * 4).await;
    assert!(!got.iter().any(|p| p["type"] == "GameStarted"), "a start not stored does not start: {got:?}");
    let refused = failures(&got).iter().any(|c| c == "store_unavailable" || c == "room_moved");
    assert!(refused || closed_moved(&a), "the start is refused: {got:?} ({:?})", a.closed);
    assert!(!b.drain(100).await.iter().any(|p| p["type"] == "GameStarted"));
}

/// Makes PostgreSQL refuse every `op` (`INSERT`, `UPDATE`) on `table` whose row satisfies
/// `when` (`true`: all), as a database that cannot take the write would, while the node stays
/// connected (its heartbeat goes on: nothing moves). Undone by [`allow`].
async fn refuse(url: &str, table: &str, op: &str, when: &str) {
    pg_env::exec(
        url,
        &format!(
            "CREATE OR REPLACE FUNCTION refuse_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF {when} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$;
             CREATE TRIGGER refuse_{table} BEFORE {op} ON {table} FOR EACH ROW EXECUTE FUNCTION refuse_{table}();"
        ),
    )
    .await;
}

async fn allow(url: &str, table: &str) {
    pg_env::exec(url, &format!("DROP TRIGGER refuse_{table} ON {table}")).await;
}

/// The finished matches stored for room `id`: (id, log).
async fn stored_matches(url: &str, id: &str) -> Vec<(i64, String)> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let rows = client.query("SELECT id, log FROM matches WHERE room_id = $1 ORDER BY id", &[&id]).await.unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

/// A two-seat Buckshot table on `node`, started: (room, alice, bob). Alice leaving ends it.
async fn duel(node: &TestNode) -> (String, Client, Client) {
    let room = node.room(json!({"game": "buckshot", "seed": 9, "botDelayMs": 60_000})).await;
    let mut a = node.client(&room).await;
    a.join("alice").await;
    let mut b = node.client(&room).await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    b.expect("GameStarted").await;
    (room, a, b)
}

/// What room `id`'s row lists it as (`state` of its listing).
async fn listed_state(url: &str, id: &str) -> String {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let listing: Option<String> =
        client.query_one("SELECT listing FROM rooms WHERE id = $1", &[&id]).await.unwrap().get(0);
    let v: Value = serde_json::from_str(&listing.expect("a listing")).unwrap();
    v["state"].as_str().unwrap().to_string()
}

/// What `node` lists room `id` as, once its list cache (a second) has caught up.
async fn listed_on(node: &TestNode, id: &str) -> Value {
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (st, list) = http(&node.addr, "GET", "/api/rooms", None).await;
    assert_eq!(st, 200);
    list.as_array().unwrap().iter().find(|r| r["id"] == id).cloned().unwrap_or(Value::Null)
}

/// A match's start and its end store the room's snapshot and its listing in one write (the
/// listing once had a second write of its own): from then on every node lists the room as
/// playing, and back in the lobby.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_a_room_playing_from_its_start_and_in_the_lobby_from_its_end() {
    let Some(url) = cluster("cluster_listing_state").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b) = duel(&n1).await;
    assert_eq!(listed_state(&url, &room).await, "playing");
    let e = listed_on(&n2, &room).await;
    assert_eq!((e["state"].as_str(), e["players"].clone()), (Some("playing"), json!(["alice", "bob"])), "{e}");
    a.send(json!({"type": "LeaveGame"})).await;
    b.expect("GameEnded").await;
    assert_eq!(listed_state(&url, &room).await, "lobby");
    let e = listed_on(&n2, &room).await;
    assert_eq!((e["state"].as_str(), e["players"].clone()), (Some("lobby"), json!(["bob"])), "{e}");
}

/// The end of a match is told only once it is stored: while the database refuses to record it
/// the match stays (its last move stored, so nothing is lost), nobody hears it ended, and the
/// room records it by itself as soon as it can. (The 40-fault run lost an Ivanhoe match this
/// way: its end was announced, the record refused, and the next match's start cleared its
/// moves.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_end_the_database_refuses_waits_and_is_recorded_once_it_can() {
    let Some(url) = cluster("cluster_end_refused").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let (room, mut a, mut b) = duel(&n1).await;
    refuse(&url, "matches", "INSERT", "true").await;
    a.send(json!({"type": "LeaveGame"})).await;
    let got = b.drain(800).await;
    assert!(got.iter().any(|p| p["type"] == "PlayerLeft"), "the leave itself is stored and told: {got:?}");
    assert!(!got.iter().any(|p| p["type"] == "GameEnded"), "an end not recorded is not told: {got:?}");
    assert_eq!(stored_moves(&url, &room).await.len(), 1, "the leave (the match's last move) is stored");
    assert!(stored_matches(&url, &room).await.is_empty());
    let d = b.sync().await;
    assert_eq!(d["gameStarted"], true, "the match is still the room's: {d}");
    allow(&url, "matches").await;
    b.expect("GameEnded").await;
    let matches = stored_matches(&url, &room).await;
    assert_eq!(matches.len(), 1, "{matches:?}");
    assert!(matches[0].1.contains("Leave"), "its log ends with the leave: {}", matches[0].1);
    assert!(stored_moves(&url, &room).await.is_empty(), "back in the lobby, its moves cleared");
    assert_eq!(b.sync().await["lastMatch"], matches[0].0);
}

/// A match recorded by an owner that stopped before its room went back to the lobby is
/// recorded again by the node that restores the room (it replays the match, which is over):
/// once per (room, match number), so it is stored once. (The 40-fault run stored a Three
/// Kingdoms match twice this way.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_recorded_by_a_node_that_died_before_the_lobby_is_stored_once() {
    let Some(url) = cluster("cluster_end_twice").await else { return };
    let mut n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let (room, mut a, mut b) = duel(&n1).await;
    // The record goes in; the room's return to the lobby (its snapshot) does not.
    refuse(&url, "rooms", "UPDATE", "NEW.snapshot IS DISTINCT FROM OLD.snapshot").await;
    a.send(json!({"type": "LeaveGame"})).await;
    let got = b.drain(800).await;
    assert!(!got.iter().any(|p| p["type"] == "GameEnded"), "{got:?}");
    assert_eq!(stored_matches(&url, &room).await.len(), 1, "recorded");
    assert_eq!(stored_moves(&url, &room).await.len(), 1, "and still the room's match");
    n1.kill();
    allow(&url, "rooms").await;
    resolve_to(&n2, &room, "n2", Duration::from_secs(5)).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while !stored_moves(&url, &room).await.is_empty() {
        assert!(Instant::now() < deadline, "n2 ends the restored match");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let matches = stored_matches(&url, &room).await;
    assert_eq!(matches.len(), 1, "one match, stored once: {matches:?}");
}

/// A join, a chat line and a leave are stored before anyone hears of them: refused by the
/// database, the sender is told `store_unavailable` and nothing changes; once it can, each
/// goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_chat_line_or_leave_the_database_refuses_is_refused_and_changes_nothing() {
    let Some(url) = cluster("cluster_chat_leave_refused").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let (room, mut a, mut b) = duel(&n1).await;
    // A join's token is its way back: not stored, not given.
    refuse(&url, "rooms", "UPDATE", "true").await;
    let mut c = n1.client(&room).await;
    c.send(json!({"type": "JoinGame", "username": "carol"})).await;
    let r = c.expect("PlayerJoinRejected").await;
    assert_eq!(r["code"], "store_unavailable", "{r}");
    assert!(!b.drain(100).await.iter().any(|p| p["type"] == "PlayerJoined"));
    allow(&url, "rooms").await;
    c.join("carol").await;
    refuse(&url, "chat", "INSERT", "true").await;
    a.send(json!({"type": "SendNewChatMessage", "message": "hello"})).await;
    assert_eq!(failures(&a.drain(300).await), ["store_unavailable"]);
    assert!(!b.drain(100).await.iter().any(|p| p["type"] == "NewChatMessageSent"));
    assert!(b.sync().await["chat"].as_array().unwrap().is_empty(), "no line");
    allow(&url, "chat").await;
    a.send(json!({"type": "SendNewChatMessage", "message": "hello"})).await;
    b.expect("NewChatMessageSent").await;
    refuse(&url, "moves", "INSERT", "true").await;
    a.send(json!({"type": "LeaveGame"})).await;
    assert_eq!(failures(&a.drain(300).await), ["store_unavailable"]);
    let got = b.drain(100).await;
    assert!(!got.iter().any(|p| p["type"] == "PlayerLeft" || p["type"] == "GameEnded"), "{got:?}");
    assert!(stored_moves(&url, &room).await.is_empty());
    let d = a.sync().await;
    assert_eq!((d["you"].as_str(), d["gameStarted"].as_bool()), (Some("alice"), Some(true)), "still seated: {d}");
    allow(&url, "moves").await;
    a.send(json!({"type": "LeaveGame"})).await;
    b.expect("GameEnded").await;
    assert_eq!(stored_matches(&url, &room).await.len(), 1);
}

/// The members the database's snapshot of room `id` holds.
async fn stored_members(url: &str, id: &str) -> Vec<String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let snap: String = client.query_one("SELECT snapshot FROM rooms WHERE id = $1", &[&id]).await.unwrap().get(0);
    let snap: Value = serde_json::from_str(&snap).unwrap();
    snap["members"].as_array().unwrap().iter().map(|m| m["username"].as_str().unwrap().to_string()).collect()
}

/// Every lobby change a member asks for (a bot added, the host handed on, a leave) is stored
/// before anyone hears of it: refused by the database, the sender is told `store_unavailable`
/// and nothing changes. A change the room makes itself (a member dropped in the lobby leaves)
/// cannot be refused: its snapshot is written again until it is stored, so a failover never
/// restores the room as it was before. (`Room::save` only logged a refusal: the room went on
/// with a change the database did not have.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_change_the_database_refuses_is_refused_or_stored_once_it_can() {
    let Some(url) = cluster("cluster_lobby_refused").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let room = n1.room(json!({"game": "ivanhoe", "seed": 9})).await;
    let mut a = n1.client(&room).await;
    a.join("alice").await;
    let mut b = n1.client(&room).await;
    b.join("bob").await;
    let mut c = n1.client(&room).await;
    c.join("carol").await;
    a.drain(200).await;
    b.drain(200).await;
    c.drain(200).await;
    refuse(&url, "rooms", "UPDATE", "true").await;
    a.send(json!({"type": "AddBot"})).await;
    assert_eq!(failures(&a.drain(300).await), ["store_unavailable"], "a bot not stored is not added");
    a.send(json!({"type": "SetHost", "username": "bob"})).await;
    assert_eq!(failures(&a.drain(300).await), ["store_unavailable"], "a host not stored is not made");
    b.send(json!({"type": "LeaveGame"})).await;
    assert_eq!(failures(&b.drain(300).await), ["store_unavailable"], "a leave not stored is not made");
    let got = c.drain(200).await;
    assert!(
        !got.iter().any(|p| ["PlayerJoined", "HostSet", "PlayerLeft"].contains(&p["type"].as_str().unwrap())),
        "nobody hears of a change not stored: {got:?}"
    );
    let d = c.sync().await;
    assert_eq!(d["host"], "alice", "{d}");
    // Carol's connection drops: in the lobby she leaves, which cannot be refused.
    drop(c);
    b.expect("PlayerLeft").await;
    assert!(stored_members(&url, &room).await.contains(&"carol".to_string()), "not stored yet");
    allow(&url, "rooms").await;
    let deadline = Instant::now() + Duration::from_secs(3);
    while stored_members(&url, &room).await.contains(&"carol".to_string()) {
        assert!(Instant::now() < deadline, "carol's leave is stored once the database can");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    a.send(json!({"type": "AddBot"})).await;
    b.expect("PlayerJoined").await;
    a.send(json!({"type": "SetHost", "username": "bob"})).await;
    b.expect("HostSet").await;
    assert_eq!(stored_members(&url, &room).await, ["alice", "bob", "bot-ana"]);
}

/// Moderation on a cluster (issue 44): an admin on one node sees every node's rooms, and closes
/// a room another node owns: the close goes through the store, the owner's poll takes it, and
/// the room's players hear the admin's message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_on_one_node_closes_a_room_another_node_owns() {
    let Some(url) = cluster("cluster_admin_close").await else { return };
    let n1 = TestNode::start(&url, "n1");
    let n2 = TestNode::start(&url, "n2");
    let room = n2.room(json!({"game": "buckshot", "private": true})).await;
    let mut c = n2.client(&room).await;
    c.join("kim").await;
    // The admin signs up on n1 (accounts are shared) and is granted the role in the database.
    let session = crate::common::people::member(&n1.addr, "boss", "a long enough password").await;
    let me = crate::common::people::req(&n1.addr, "GET", "/api/me", Some(&session), None).await;
    let store = store::Store::connect(&url).await.unwrap();
    store.set_admin(me.body["id"].as_i64().unwrap(), true).await.unwrap();
    let rooms = crate::common::people::req(&n1.addr, "GET", "/api/admin/rooms", Some(&session), None).await.body;
    let listed =
        rooms.as_array().unwrap().iter().find(|r| r["id"] == room.as_str()).expect("every node's rooms").clone();
    assert_eq!((listed["node"].as_str(), listed["private"].as_bool()), (Some("n2"), Some(true)), "{listed}");
    assert_eq!(listed["players"], json!(["kim"]));
    let r = crate::common::people::req(
        &n1.addr,
        "POST",
        &format!("/api/admin/rooms/{room}/close"),
        Some(&session),
        Some(json!({"message": "closed from another node"})),
    )
    .await;
    assert_eq!((r.status, r.body["status"].as_str()), (200, Some("asked")), "{}", r.body);
    let closed = c.expect("RoomClosed").await;
    assert_eq!(closed["message"], "closed from another node");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, _) = http(&n1.addr, "GET", &format!("/api/rooms/{room}"), None).await;
        if status == 404 {
            break;
        }
        assert!(Instant::now() < deadline, "the closed room is gone everywhere ({status})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let log = store.moderation_log(None, 5).await.unwrap();
    assert_eq!((log[0].action.as_str(), log[0].target.clone()), ("close_room", format!("room {room}")));
}
