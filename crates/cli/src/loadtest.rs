//! `cardtable loadtest`: keeps K Buckshot matches of 4 clients busy over loopback against a
//! server process of its own, then holds N idle sockets open, and reports throughput, server
//! CPU, move-to-update latency and memory.
//!
//! The server runs as a child process (`cardtable serve` on 127.0.0.1:0, a fresh database)
//! pinned to core 0; the driver pins itself to core 1 and runs on one thread, so the two do
//! not compete. Server CPU time and RSS come from `/proc/<pid>`.
//!
//! The driver is closed-loop: each client, when `TurnStart` names it, shoots (itself, which is
//! always legal) and measures the time until the server's `ShootPlayer` broadcast reaches it.
//! Finished games are restarted by their host until the time is up.
//!
//! `--server PROGRAM` drives another server through the same packets: it is started in place
//! of `cardtable serve`, with the same arguments, and must print `http://ADDR/` on its first
//! line. `crates/server/examples/protocol_floor.rs` is such a program: our stack (tokio, axum,
//! the WebSocket) sending the same packets with no rules and no store, the floor of this
//! driver's figures for any server built on it.

use anyhow::{Context, bail};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::io::Write as _;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitCode, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;

#[derive(Args)]
pub struct LoadtestArgs {
    /// Concurrent matches (4 clients each).
    #[arg(long, default_value_t = 32)]
    matches: usize,
    /// Seconds of play to measure.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Idle sockets to open and hold afterwards (0 skips that phase).
    #[arg(long, default_value_t = 10_000)]
    sockets: usize,
    /// Pin the server to core 0 and the driver to core 1 (needs `taskset`).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pin: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Drive this program instead of `cardtable serve` (started with `serve`'s arguments; it
    /// prints `http://ADDR/` on its first line), e.g. `target/release/examples/protocol_floor`.
    #[arg(long, value_name = "PROGRAM")]
    server: Option<std::path::PathBuf>,
    /// The server's `--db` (default: a fresh SQLite file in a temporary directory), e.g. a
    /// `postgres://user@host/dbname` of an empty database to measure PostgreSQL.
    #[arg(long, value_name = "DB")]
    db: Option<String>,
    /// A shell command run (`sh -c`) just before the measured window starts and just after it
    /// ends, with `LOADTEST_MARK=start` or `end` in its environment (e.g. to sample a database
    /// server's own CPU and commits over the same window: `scripts/pg-vs-sqlite.sh`).
    #[arg(long, value_name = "COMMAND")]
    window_hook: Option<String>,
    /// Every client signs in first (a guest identity: `POST /api/auth/guest`) and opens its
    /// socket with the session cookie, so the room seats it as an account and records its
    /// matches to it: what people cost beside anonymous clients (`scripts/accounts-cost.sh`).
    #[arg(long)]
    signed_in: bool,
    /// Start the server with `--no-metrics` (it records no metrics): what recording them costs,
    /// beside a run without this flag (`scripts/metrics-cost.sh`).
    #[arg(long)]
    no_metrics: bool,
    /// After play, open rooms (of every game, nobody in them) until the server has this many,
    /// then time `--scrapes` requests of `GET /metrics` (0: none).
    #[arg(long, value_name = "ROOMS", default_value_t = 0)]
    scrape_rooms: usize,
    /// How many times `GET /metrics` is timed with `--scrape-rooms`.
    #[arg(long, default_value_t = 20)]
    scrapes: usize,
}

/// Runs the `--window-hook` command, if any, and waits for it without stalling the clients
/// (a stalled driver would inflate the latencies of the moves answered meanwhile).
async fn window_hook(args: &LoadtestArgs, mark: &str) -> anyhow::Result<()> {
    let Some(cmd) = &args.window_hook else { return Ok(()) };
    let mut child = Command::new("sh").arg("-c").arg(cmd).env("LOADTEST_MARK", mark).spawn()?;
    let status = loop {
        match child.try_wait()? {
            Some(status) => break status,
            None => tokio::time::sleep(Duration::from_millis(2)).await,
        }
    };
    if !status.success() {
        bail!("--window-hook failed at {mark}: {status}");
    }
    Ok(())
}

pub(crate) struct ServerProc {
    child: Child,
    pub(crate) addr: String,
    pub(crate) pid: u32,
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(
    pin: bool,
    db: &std::ffi::OsStr,
    program: Option<&std::path::Path>,
    no_metrics: bool,
) -> anyhow::Result<ServerProc> {
    let extra: Vec<String> = if no_metrics { vec!["--no-metrics".into()] } else { Vec::new() };
    start_server_with(pin, db, program, &extra)
}

/// As [`start_server`], with more arguments for `serve` (quick play's, for `cardtable
/// population`).
pub(crate) fn start_server_with(
    pin: bool,
    db: &std::ffi::OsStr,
    program: Option<&std::path::Path>,
    extra: &[String],
) -> anyhow::Result<ServerProc> {
    let exe = match program {
        Some(p) => p.to_path_buf(),
        None => std::env::current_exe()?,
    };
    let mut cmd = if pin {
        let mut c = Command::new("taskset");
        c.args(["-c", "0"]).arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    // Closed-loop clients send as fast as the server answers; the per-connection limit (20 a
    // second for people) is raised so it measures the server, not the limiter. Every client
    // is 127.0.0.1, so nothing is capped per address; the rooms are created with seeds.
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "100000", "--allow-seeded-rooms"]);
    for cap in [
        "--max-conns-per-addr",
        "--max-sockets-per-addr",
        "--max-rooms-per-addr",
        "--max-rooms-per-minute-per-addr",
        "--max-accounts-per-hour-per-addr",
    ] {
        cmd.args([cap, "0"]);
    }
    cmd.arg("--db").arg(db);
    cmd.args(extra);
    cmd.env("RUST_LOG", "warn").stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = cmd.spawn().with_context(|| format!("starting the server {}", exe.display()))?;
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    out.read_line(&mut line)?;
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .with_context(|| format!("unexpected server output: {line}"))?
        .to_string();
    let pid = child.id();
    Ok(ServerProc { child, addr, pid })
}

/// utime + stime of a process, in seconds.
pub(crate) fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of stat; here 0-based after ')' they are 11, 12.
    (ticks(11) + ticks(12)) / 100.0
}

fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

async fn http_post(addr: &str, path: &str, body: &Value) -> anyhow::Result<Value> {
    Ok(http_post_full(addr, path, body).await?.0)
}

/// As [`http_post`], with the session id the answer's cookie sets, if any.
async fn http_post_full(addr: &str, path: &str, body: &Value) -> anyhow::Result<(Value, Option<String>)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = body.to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut resp = String::new();
    s.read_to_string(&mut resp).await?;
    let start = resp.find('{').context("no JSON in the response")?;
    let end = resp.rfind('}').context("no JSON in the response")?;
    let session = resp
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ct_session="))
        .and_then(|c| c.split(';').next())
        .map(str::to_string);
    Ok((serde_json::from_str(&resp[start..=end])?, session))
}

#[derive(Default)]
struct Stats {
    moves: u64,
    latencies_us: Vec<u32>,
    games: u64,
    errors: u64,
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One client of one match, until `until`.
async fn client(mut ws: Ws, name: String, host: bool, until: Instant, stats: Rc<RefCell<Stats>>) {
    let mut sent_at: Option<Instant> = None;
    let shoot = json!({"type": "ShootPlayer", "username": name}).to_string();
    let start = json!({"type": "StartGame"}).to_string();
    let me_turn = format!("\"username\":\"{name}\"");
    let me_by = format!("\"by\":\"{name}\"");
    loop {
        let remaining = until.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            break;
        }
        let msg = match tokio::time::timeout(remaining, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => t,
            Ok(Some(Ok(_))) => continue,
            Ok(_) => {
                stats.borrow_mut().errors += 1;
                return;
            }
            Err(_) => break,
        };
        let text = msg.as_str();
        // Cheap dispatch on the packet type: the driver must not be the bottleneck.
        if text.starts_with("{\"type\":\"TurnStart\"") && text.contains(&me_turn) {
            sent_at = Some(Instant::now());
            if ws.send(Message::Text(shoot.clone().into())).await.is_err() {
                return;
            }
        } else if text.starts_with("{\"type\":\"ShootPlayer\"") {
            if let Some(t) = sent_at.take()
                && text.contains(&me_by)
            {
                let mut s = stats.borrow_mut();
                s.moves += 1;
                s.latencies_us.push(t.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
            }
        } else if host && text.starts_with("{\"type\":\"GameEnded\"") {
            stats.borrow_mut().games += 1;
            if ws.send(Message::Text(start.clone().into())).await.is_err() {
                return;
            }
        }
    }
    let _ = ws.close(None).await;
}

async fn setup_match(
    addr: &str,
    i: usize,
    signed_in: bool,
    until: Instant,
    stats: Rc<RefCell<Stats>>,
) -> anyhow::Result<()> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let room = http_post(addr, "/api/rooms", &json!({"game": "buckshot", "seed": i, "botDelayMs": 0})).await?;
    let id = room["id"].as_str().context("room id")?.to_string();
    let mut sockets = Vec::new();
    for p in 0..4 {
        let mut request = format!("ws://{addr}/api/rooms/{id}/ws").into_client_request()?;
        if signed_in {
            let (_, session) = http_post_full(addr, "/api/auth/guest", &json!({})).await?;
            let session = session.context("no session cookie from /api/auth/guest")?;
            request.headers_mut().insert("cookie", format!("ct_session={session}").parse()?);
        }
        let (mut ws, _) = connect_async_with_config(request, None, true).await?;
        // As long as a guest's name (`guest-48213`): names travel in most packets, so
        // `--signed-in` against anonymous clients compares the accounts, not the names' bytes.
        let name = format!("anon-{:05}", (i * 4 + p) % 100_000);
        ws.send(Message::Text(json!({"type": "JoinGame", "username": name}).to_string().into())).await?;
        // Wait for our Joined: a signed-in client is seated under its account's name.
        let name = loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) if t.as_str().starts_with("{\"type\":\"Joined\"") => {
                    let v: Value = serde_json::from_str(t.as_str())?;
                    break v["username"].as_str().context("Joined without a username")?.to_string();
                }
                Some(Ok(_)) => {}
                _ => bail!("connection closed while joining"),
            }
        };
        sockets.push((ws, name));
    }
    sockets[0].0.send(Message::Text(json!({"type": "StartGame"}).to_string().into())).await?;
    for (p, (ws, name)) in sockets.into_iter().enumerate() {
        tokio::task::spawn_local(client(ws, name, p == 0, until, stats.clone()));
    }
    Ok(())
}

pub(crate) fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

pub fn run(args: LoadtestArgs) -> anyhow::Result<ExitCode> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let dir = std::env::temp_dir().join(format!("cardtable-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let pin = args.pin && Command::new("taskset").arg("-V").output().is_ok();
    let db = args.db.as_ref().map_or_else(|| dir.join("load.db").into_os_string(), Into::into);
    let server = start_server(pin, &db, args.server.as_deref(), args.no_metrics)?;
    if pin {
        // This process (the driver) goes to the other core.
        let _ = Command::new("taskset").args(["-cp", "1", &std::process::id().to_string()]).output();
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let local = tokio::task::LocalSet::new();
    let report = local.block_on(&rt, drive(&args, &server))?;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        let r = &report;
        writeln!(
            out,
            "cardtable loadtest: {} matches x 4 clients, {} s, server pinned: {pin}, metrics: {}{}",
            args.matches,
            args.seconds,
            if args.no_metrics { "off" } else { "on" },
            args.server.as_ref().map_or(String::new(), |p| format!(", server: {}", p.display()))
        )?;
        writeln!(out, "  moves/s:                     {:.0}", r["movesPerSec"].as_f64().unwrap_or(0.0))?;
        writeln!(out, "  moves per server CPU-second: {:.0}", r["movesPerCpuSec"].as_f64().unwrap_or(0.0))?;
        writeln!(out, "  server CPU used:             {:.2} s", r["serverCpuSec"].as_f64().unwrap_or(0.0))?;
        writeln!(
            out,
            "  latency p50 / p99:           {:.3} / {:.3} ms",
            r["p50Ms"].as_f64().unwrap_or(0.0),
            r["p99Ms"].as_f64().unwrap_or(0.0)
        )?;
        writeln!(out, "  games finished:              {}", r["games"])?;
        writeln!(out, "  server RSS after play:       {:.1} MB", r["rssMb"].as_f64().unwrap_or(0.0))?;
        if args.sockets > 0 {
            writeln!(
                out,
                "  idle sockets held:           {} (server RSS {:.1} MB, health {})",
                r["socketsHeld"],
                r["rssSocketsMb"].as_f64().unwrap_or(0.0),
                r["healthWithSockets"]
            )?;
        }
        if args.scrape_rooms > 0 {
            writeln!(
                out,
                "  GET /metrics, {} rooms:     p50 {:.2} ms, max {:.2} ms ({} bytes)",
                r["scrapeRooms"],
                r["scrapeP50Ms"].as_f64().unwrap_or(0.0),
                r["scrapeMaxMs"].as_f64().unwrap_or(0.0),
                r["scrapeBytes"]
            )?;
        }
        if r["errors"].as_u64().unwrap_or(0) > 0 {
            writeln!(out, "  errors:                      {}", r["errors"])?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn drive(args: &LoadtestArgs, server: &ServerProc) -> anyhow::Result<Value> {
    let stats = Rc::new(RefCell::new(Stats::default()));
    // Set up every match, then measure a clean window after a short warm-up.
    let start_setup = Instant::now();
    let until =
        start_setup + Duration::from_secs(args.seconds) + Duration::from_millis(200 * args.matches as u64 / 8 + 500);
    for i in 0..args.matches {
        setup_match(&server.addr, i, args.signed_in, until, stats.clone()).await?;
    }
    // Warm up, then measure.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (m0, cpu0, t0) = (stats.borrow().moves, cpu_seconds(server.pid), Instant::now());
    stats.borrow_mut().latencies_us.clear();
    // Sampled as long after m0 as the end's after m1.
    window_hook(args, "start").await?;
    let window = until.saturating_duration_since(Instant::now()).saturating_sub(Duration::from_millis(100));
    tokio::time::sleep(window).await;
    let (m1, cpu1, t1) = (stats.borrow().moves, cpu_seconds(server.pid), Instant::now());
    window_hook(args, "end").await?;
    let rss = rss_mb(server.pid);
    // Let the clients close.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let moves = m1 - m0;
    let secs = (t1 - t0).as_secs_f64();
    let cpu = cpu1 - cpu0;
    let mut lat = std::mem::take(&mut stats.borrow_mut().latencies_us);
    lat.sort_unstable();
    let mut report = json!({
        "matches": args.matches,
        "seconds": secs,
        "moves": moves,
        "movesPerSec": moves as f64 / secs,
        "serverCpuSec": cpu,
        "movesPerCpuSec": if cpu > 0.0 { moves as f64 / cpu } else { 0.0 },
        "p50Ms": percentile(&lat, 0.50),
        "p99Ms": percentile(&lat, 0.99),
        "games": stats.borrow().games,
        "errors": stats.borrow().errors,
        "rssMb": rss,
        "signedIn": args.signed_in,
        "metrics": !args.no_metrics,
    });
    if args.scrape_rooms > 0 {
        let (rooms, times, bytes) = time_scrapes(&server.addr, args.scrape_rooms, args.scrapes).await?;
        report["scrapeRooms"] = json!(rooms);
        report["scrapeBytes"] = json!(bytes);
        report["scrapeP50Ms"] = json!(percentile(&times, 0.5));
        report["scrapeMaxMs"] = json!(percentile(&times, 1.0));
    }
    if args.sockets > 0 {
        let (held, rss_sockets, healthy) = hold_sockets(&server.addr, server.pid, args.sockets).await?;
        report["socketsHeld"] = json!(held);
        report["rssSocketsMb"] = json!(rss_sockets);
        report["healthWithSockets"] = json!(healthy);
    }
    Ok(report)
}

/// Opens rooms (of every game in turn) until the server has `rooms`, then asks for
/// `GET /metrics` `n` times: the rooms it had, each request's time (µs, from the request sent
/// to the page read), and the page's size.
async fn time_scrapes(addr: &str, rooms: usize, n: usize) -> anyhow::Result<(u64, Vec<u32>, usize)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let get = async |path: &str| -> anyhow::Result<String> {
        let mut s = tokio::net::TcpStream::connect(addr).await?;
        s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await?;
        let mut page = String::new();
        s.read_to_string(&mut page).await?;
        if !page.starts_with("HTTP/1.1 200") {
            bail!("GET {path}: {}", page.lines().next().unwrap_or_default());
        }
        Ok(page)
    };
    let count = async || -> anyhow::Result<u64> {
        let page = get("/api/health").await?;
        let body: Value = serde_json::from_str(page.split_once("\r\n\r\n").map_or("", |(_, b)| b))?;
        body["rooms"].as_u64().context("health without rooms")
    };
    let games = registry::GameKind::ALL;
    let have = count().await?;
    for i in (have as usize)..rooms {
        http_post(addr, "/api/rooms", &json!({"game": games[i % games.len()].name()})).await?;
    }
    let rooms = count().await?;
    let mut times = Vec::with_capacity(n);
    let mut bytes = 0;
    for _ in 0..n {
        let t = Instant::now();
        bytes = get("/metrics").await?.len();
        times.push(t.elapsed().as_micros() as u32);
    }
    times.sort_unstable();
    Ok((rooms, times, bytes))
}

/// Opens `n` WebSockets (spread over rooms of 100 watchers), checks the server still answers,
/// and reports its memory while they are open.
async fn hold_sockets(addr: &str, pid: u32, n: usize) -> anyhow::Result<(usize, f64, bool)> {
    let mut held = Vec::with_capacity(n);
    let mut room = String::new();
    for i in 0..n {
        if i % 100 == 0 {
            let r = http_post(addr, "/api/rooms", &json!({"game": "buckshot"})).await?;
            room = r["id"].as_str().context("room id")?.to_string();
        }
        match connect_async_with_config(format!("ws://{addr}/api/rooms/{room}/ws"), None, true).await {
            Ok((ws, _)) => held.push(ws),
            Err(e) => {
                eprintln!("stopped at {i} sockets: {e}");
                break;
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss = rss_mb(pid);
    // Every held socket still answers.
    let mut healthy = true;
    for ws in held.iter_mut().step_by(997) {
        ws.send(Message::Text(json!({"type": "GameDataRequest"}).to_string().into())).await?;
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) if t.as_str().contains("GameDataSync") => {}
            _ => healthy = false,
        }
    }
    Ok((held.len(), rss, healthy))
}
