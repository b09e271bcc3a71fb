//! Memory returns: 10,000 rooms created, played and left (half of the games finished, half
//! abandoned) leave the server's resident memory within 5 MB of where it was after the first
//! 1,000. A test binary of its own, so that no other test's memory is counted.

mod common;

use common::{Server, http};
use serde_json::json;
use std::time::{Duration, Instant};

/// Resident memory of this process, in bytes (Linux).
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()).unwrap_or(0) * 4096
}

/// One room: created, joined, a game against a bot started, then left: by `LeaveGame` (the
/// bot wins; a finished match) or by dropping the connection (abandoned after the TTL).
async fn one_room(s: &Server, i: usize) {
    let id = s.room(json!({"game": "buckshot", "botDelayMs": 0, "seed": i})).await;
    let mut c = s.client(&id).await;
    c.join("ann").await;
    c.send(json!({"type": "AddBot"})).await;
    c.send(json!({"type": "StartGame"})).await;
    c.expect("GameStarted").await;
    if i.is_multiple_of(2) {
        c.send(json!({"type": "LeaveGame"})).await;
        c.expect("GameEnded").await;
    }
}

async fn rooms(s: &Server, range: std::ops::Range<usize>) {
    use futures_util::StreamExt;
    futures_util::stream::iter(range).for_each_concurrent(16, |i| one_room(s, i)).await;
    // Every room closes once its time with nobody in it has passed.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, list) = http(&s.addr, "GET", "/api/rooms", None).await;
        if list.as_array().is_some_and(|l| l.is_empty()) {
            break;
        }
        assert!(Instant::now() < deadline, "rooms still open: {list}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_returns_after_ten_thousand_rooms_are_created_played_and_left() {
    let dir = std::env::temp_dir().join(format!("cardtable-churn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.db");
    let _ = std::fs::remove_file(&path);
    let store = store::Store::open(&path).unwrap();
    let mut config = server::ServerConfig { rate_limit: 10_000.0, ..common::test_config(store.clone()) };
    config.limits.empty_room_ttl = Duration::from_secs(1);
    let s = Server::start_with(config).await;
    let t0 = Instant::now();
    rooms(&s, 0..1_000).await;
    let after_1k = rss();
    for k in 1..10 {
        rooms(&s, k * 1_000..(k + 1) * 1_000).await;
        eprintln!("after {}k rooms: RSS {:.1} MB", k + 1, rss() as f64 / 1_048_576.0);
    }
    let after_10k = rss();
    let mb = |b: u64| b as f64 / 1_048_576.0;
    eprintln!(
        "RSS after 1,000 rooms: {:.1} MB; after 10,000: {:.1} MB ({:.1} s)",
        mb(after_1k),
        mb(after_10k),
        t0.elapsed().as_secs_f64()
    );
    assert!(after_10k <= after_1k + 5 * 1_048_576, "RSS grew from {:.1} to {:.1} MB", mb(after_1k), mb(after_10k));
    assert!(store.load_rooms().await.unwrap().is_empty(), "every closed room left the database");
    assert_eq!(store.list_matches(20_000).await.unwrap().len(), 10_000, "every game is recorded");
    s.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
