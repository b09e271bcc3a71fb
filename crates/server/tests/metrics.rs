//! `GET /metrics`: the page is Prometheus text (every line a comment, a `# HELP`, a `# TYPE` or
//! a sample of a typed family, read by a Prometheus parser and, where it is installed, passed
//! by `promtool check metrics`), its names follow the conventions, and its counts move with a
//! game played through the real server. A binary of its own: the recorder is the process's,
//! and the counts must be this test's alone.

mod common;

use common::{Client, Server};
use prometheus_parse::{LineInfo, Scrape, Value as Sample};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// The page at `path` on `addr`: its status, content type and body.
async fn get(addr: &str, path: &str) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").expect("a head and a body");
    let status = head[9..12].parse().unwrap();
    let content_type = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type: ").map(str::to_string))
        .unwrap_or_default();
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { unchunk(body) } else { body.to_string() };
    (status, content_type, body)
}

/// A chunked body's bytes.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n").expect("a chunk size");
        let size = usize::from_str_radix(size.trim(), 16).expect("a hex chunk size");
        if size == 0 {
            return out;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
}

/// A sample's labels and value.
type Series = Vec<(HashMap<String, String>, f64)>;

/// One page, read: its samples by name and labels (histograms as their `+Inf` count).
struct Page {
    text: String,
    samples: HashMap<String, Series>,
}

impl Page {
    /// The value of `name` with (at least) `labels`, 0 where the series is absent.
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let Some(series) = self.samples.get(name) else { return 0.0 };
        series
            .iter()
            .filter(|(l, _)| labels.iter().all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v)))
            .map(|(_, v)| v)
            .sum()
    }

    fn has(&self, name: &str) -> bool {
        self.samples.contains_key(name)
    }
}

/// The page read strictly: no line the text format does not have, every sample a number and of
/// a family with a `# TYPE`, names and labels as the conventions (and this server) want them.
fn read(text: String) -> Page {
    let mut typed: HashMap<String, String> = HashMap::new();
    for line in text.lines() {
        match LineInfo::parse(line) {
            LineInfo::Type { metric_name, metric_alias, sample_type } => {
                let name = metric_alias.unwrap_or(metric_name);
                let kind = line.split_whitespace().nth(3).unwrap_or_default().to_string();
                assert!(typed.insert(name.clone(), kind).is_none(), "{name} typed twice");
                assert!(!matches!(sample_type, prometheus_parse::SampleType::Untyped), "{line}");
            }
            LineInfo::Sample { metric_name, value, timestamp, .. } => {
                assert!(value.parse::<f64>().is_ok() || value == "+Inf" || value == "NaN", "{line}");
                assert!(timestamp.is_none(), "no timestamps: {line}");
                let family = ["_bucket", "_sum", "_count"]
                    .iter()
                    .find_map(|s| {
                        metric_name.strip_suffix(s).filter(|f| typed.get(*f).is_some_and(|t| t == "histogram"))
                    })
                    .unwrap_or(metric_name);
                assert!(typed.contains_key(family), "a sample before its # TYPE: {line}");
            }
            LineInfo::Doc { .. } | LineInfo::Empty => {}
            LineInfo::Ignored => panic!("not Prometheus text: {line:?}"),
        }
    }
    for (name, kind) in &typed {
        assert!(name.starts_with("cardtable_"), "{name}: not cardtable_");
        match kind.as_str() {
            "counter" => assert!(name.ends_with("_total"), "counter {name}: not _total"),
            "histogram" => assert!(name.ends_with("_seconds"), "histogram {name}: not in seconds"),
            "gauge" => assert!(!name.ends_with("_total"), "gauge {name}"),
            other => panic!("{name}: {other}"),
        }
    }
    let scrape = Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).expect("the page parses");
    let mut samples: HashMap<String, Series> = HashMap::new();
    for s in scrape.samples {
        let labels: HashMap<String, String> = s.labels.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        // Bounded label values only: nothing names a room or a person.
        for key in labels.keys() {
            assert!(
                ["game", "state", "code", "backend", "level", "outcome", "version", "le"].contains(&key.as_str()),
                "label {key} on {}",
                s.metric
            );
        }
        let value = match s.value {
            Sample::Counter(v) | Sample::Gauge(v) | Sample::Untyped(v) => v,
            // Its count: the `+Inf` bucket.
            Sample::Histogram(buckets) => {
                let inf = buckets.iter().find(|b| b.less_than.is_infinite()).expect("a +Inf bucket");
                let sorted = buckets.windows(2).all(|w| w[0].count <= w[1].count);
                assert!(sorted, "{}: buckets not cumulative", s.metric);
                inf.count
            }
            Sample::Summary(_) => panic!("{}: a summary (histograms have buckets here)", s.metric),
        };
        samples.entry(s.metric).or_default().push((labels, value));
    }
    if let Ok(out) = promtool(&text) {
        assert!(out.status.success(), "promtool check metrics:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    Page { text, samples }
}

/// `promtool check metrics` on `text`, where promtool is installed (else an error).
fn promtool(text: &str) -> std::io::Result<std::process::Output> {
    use std::io::Write;
    let mut child = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    child.stdin.take().expect("piped").write_all(text.as_bytes())?;
    child.wait_with_output()
}

async fn page(addr: &str) -> Page {
    let (status, content_type, body) = get(addr, "/metrics").await;
    assert_eq!(status, 200, "{body}");
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");
    read(body)
}

/// Plays the started game of `a` and `b` to its end by their first legal actions: the moves
/// made.
async fn play_out(a: &mut Client, b: &mut Client, mid_game: &mut Option<Page>, addr: &str) -> u64 {
    let mut moves = 0;
    for _ in 0..4000 {
        for c in [&mut *a, &mut *b] {
            let d = c.sync().await;
            if c.seen.iter().any(|p| p["type"] == "GameEnded") {
                return moves;
            }
            let failed: Vec<&Value> = c.seen.iter().filter(|p| p["type"] == "ActionFailed").collect();
            assert!(failed.is_empty(), "{failed:?}");
            c.seen.clear();
            if let Some(action) = d["legal"].as_array().and_then(|l| l.first()).cloned() {
                c.send(json!({"type": "Act", "action": action})).await;
                moves += 1;
                if moves == 3 && mid_game.is_none() {
                    // A page in the middle of the game (after the move is answered).
                    c.sync().await;
                    *mid_game = Some(page(addr).await);
                }
            }
        }
    }
    panic!("the game did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_page_is_prometheus_text_and_counts_a_game() {
    let exporter = server::metrics::install();
    let store = store::Store::memory().unwrap();
    let s = Server::start_with(server::ServerConfig {
        rate_limit: 10_000.0,
        metrics: Some(exporter.clone()),
        ..common::test_config(store)
    })
    .await;

    let before = page(&s.addr).await;
    // Every game's series are there before any is played (a rate reads 0, not nothing).
    for game in ["buckshot", "ivanhoe", "sorcery", "three-kingdoms", "wolfpack"] {
        assert!(before.samples[server::metrics::MOVES].iter().any(|(l, _)| l["game"] == game), "{game}");
    }
    for name in [
        server::metrics::ROOMS,
        server::metrics::PEOPLE,
        server::metrics::SOCKETS,
        server::metrics::MOVE_SECONDS,
        server::metrics::QUICKPLAY_WAIT_SECONDS,
        server::metrics::ROOMS_CLAIMED,
        server::metrics::ROOMS_HANDED_OVER,
        server::metrics::BUILD_INFO,
    ] {
        assert!(before.has(name), "{name} missing:\n{}", before.text);
    }
    let buckshot = [("game", "buckshot")];
    let sqlite = [("backend", "sqlite")];

    let room = s.room(json!({"game": "buckshot", "seed": 11, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    // A refusal: only the host starts the game.
    b.send(json!({"type": "StartGame"})).await;
    b.expect("ActionFailed").await;
    b.seen.clear();
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut mid = None;
    let moves = play_out(&mut a, &mut b, &mut mid, &s.addr).await;
    a.sync().await;
    let after = page(&s.addr).await;
    let mid = mid.expect("a page mid-game");

    let delta = |name: &str, labels: &[(&str, &str)]| after.value(name, labels) - before.value(name, labels);
    assert!(moves > 3);
    assert_eq!(delta(server::metrics::MOVES, &buckshot), moves as f64, "every move counted once");
    let timed = format!("{}_count", server::metrics::MOVE_SECONDS);
    assert_eq!(delta(&timed, &buckshot), moves as f64, "every person's move timed");
    let sum = format!("{}_sum", server::metrics::MOVE_SECONDS);
    assert!(delta(&sum, &buckshot) > 0.0);
    assert_eq!(delta(server::metrics::MATCHES, &[("game", "buckshot"), ("outcome", "won")]), 1.0);
    assert_eq!(delta(server::metrics::REFUSALS, &[("code", "not_host")]), 1.0);
    // Each move is stored, in group commits (at least one for a move that waits alone).
    let commits = delta(server::metrics::STORE_COMMITS, &sqlite);
    assert!((1.0..=moves as f64 + 20.0).contains(&commits), "{commits} commits for {moves} moves");
    let timed = format!("{}_count", server::metrics::STORE_COMMIT_SECONDS);
    assert_eq!(delta(&timed, &sqlite), commits, "every commit timed");
    assert_eq!(after.value(server::metrics::STORE_ERRORS, &sqlite), 0.0);

    // What the server holds, counted at each page.
    assert_eq!(mid.value(server::metrics::ROOMS, &[("game", "buckshot"), ("state", "playing")]), 1.0, "{}", mid.text);
    assert_eq!(mid.value(server::metrics::ROOMS, &[("game", "buckshot"), ("state", "lobby")]), 0.0);
    assert_eq!(after.value(server::metrics::ROOMS, &[("game", "buckshot"), ("state", "playing")]), 0.0);
    assert_eq!(after.value(server::metrics::ROOMS, &[("game", "buckshot"), ("state", "lobby")]), 1.0);
    assert_eq!(mid.value(server::metrics::PEOPLE, &[]), 2.0);
    assert_eq!(mid.value(server::metrics::SOCKETS, &[]), 2.0);
    // A watcher has a socket but is no member.
    let _watcher = s.client(&room).await;
    let watched = page(&s.addr).await;
    assert_eq!(watched.value(server::metrics::SOCKETS, &[]), 3.0);
    assert_eq!(watched.value(server::metrics::PEOPLE, &[]), 2.0);
    // A quick play (a newcomer's placement game, seated at once) records its wait.
    let (session, _) = common::people::guest(&s.addr).await;
    let r =
        common::people::req(&s.addr, "POST", "/api/quickplay", Some(&session), Some(json!({"game": "sorcery"}))).await;
    assert_eq!((r.status, &r.body["type"]), (201, &json!("QuickPlaySeated")), "{}", r.body);
    let waits = format!("{}_count", server::metrics::QUICKPLAY_WAIT_SECONDS);
    let seated = page(&s.addr).await;
    assert_eq!(seated.value(&waits, &[("game", "sorcery")]) - after.value(&waits, &[("game", "sorcery")]), 1.0);
    let labels: HashSet<&str> = after.samples.keys().map(String::as_str).collect();
    assert!(!after.text.contains(&room), "a room id in the page");
    assert!(!after.text.contains("alice"), "a name in the page: {labels:?}");
    s.stop().await;

    // On a listener of its own the page is not on the public one.
    let metrics_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics_addr = metrics_listener.local_addr().unwrap().to_string();
    let s = Server::start_with(server::ServerConfig {
        metrics: Some(exporter),
        metrics_listener: Some(metrics_listener),
        ..common::test_config(store::Store::memory().unwrap())
    })
    .await;
    let (status, _, _) = get(&s.addr, "/metrics").await;
    assert_eq!(status, 404);
    let own = page(&metrics_addr).await;
    assert!(own.has(server::metrics::MOVES));
    s.stop().await;
}

#[test]
fn a_page_that_is_not_prometheus_text_is_refused() {
    // The reader above must be able to fail: a line of no format, a sample with no # TYPE, a
    // counter without `_total`.
    for bad in [
        "# TYPE cardtable_x_total counter\ncardtable_x_total{game=\"a\"} 1\nnonsense = 3\n",
        "cardtable_y_total 1\n",
        "# TYPE cardtable_z counter\ncardtable_z 1\n",
        "# TYPE cardtable_w_total counter\ncardtable_w_total{room=\"abc\"} 1\n",
    ] {
        let bad = bad.to_string();
        assert!(std::panic::catch_unwind(move || read(bad)).is_err());
    }
}

#[test]
fn the_dashboard_asks_for_names_the_server_has() {
    use server::metrics::*;
    let known = [
        ROOMS,
        PEOPLE,
        SOCKETS,
        MOVES,
        MOVE_SECONDS,
        MATCHES,
        REFUSALS,
        ROOMS_CLAIMED,
        ROOMS_HANDED_OVER,
        ROOMS_LOST,
        BOT_THINK_SECONDS,
        QUICKPLAY_WAIT_SECONDS,
        BUILD_INFO,
        STORE_COMMITS,
        STORE_COMMIT_SECONDS,
        STORE_ERRORS,
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("deploy/grafana-dashboard.json")).unwrap();
    let dashboard: Value = serde_json::from_str(&text).expect("the dashboard is JSON");
    let mut asked = 0;
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().unwrap() {
            let expr = target["expr"].as_str().unwrap();
            for (i, _) in expr.match_indices("cardtable_") {
                let name: String = expr[i..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let family = ["_bucket", "_sum", "_count"].iter().find_map(|s| name.strip_suffix(s)).unwrap_or(&name);
                assert!(known.contains(&family), "{}: {name} is no metric of the server", panel["title"]);
                asked += 1;
            }
            if expr.contains("job=") {
                assert!(expr.contains("job=\"cardtable\""), "{expr}: the job of deploy/prometheus.yml");
            }
        }
    }
    assert!(asked > 10);
    let scrape = std::fs::read_to_string(root.join("deploy/prometheus.yml")).unwrap();
    assert!(scrape.contains("job_name: cardtable"));
}
