//! `cardtable population GAME --people N --games M`: N simulated people play M games each
//! through quick play on a real server, and the report says how well the ratings found their
//! true strengths.
//!
//! Each person is a guest identity whose seat is played by a bot level of known strength (the
//! `Autopilot` packet, which the server takes only with `--allow-autopilot`), now and then a
//! legal move at random instead (`--noise`). The levels come round in turn (`--levels`), so
//! N people are N / levels of each. A person's true strength is its level's fixed rating (the
//! committed ladder, anchored `medium` = 1500: `rating::bot_rating`). Every person queues
//! (`POST /api/quickplay`), waits on its ticket's socket, joins the room it is seated at,
//! hands its seat to its bot, and queues again when the game ends, until it has played M.
//!
//! Reported: the Spearman rank correlation of the final ratings against the true strengths,
//! their mean absolute error, the queue waits (p50, p95; of every game, and of the games that
//! were not placement games, which are seated at once), the share of seats bots filled, and
//! the server's CPU time. The server is a `cardtable serve` child process of this binary
//! (a fresh SQLite file, `--quickplay-wait`, bots without delay), or the one at `--url` (which
//! must allow autopilot).

use anyhow::{Context, bail};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[derive(Args)]
pub struct PopulationArgs {
    /// The game (`sorcery`, `ivanhoe`, ...).
    game: String,
    /// Simulated people.
    #[arg(long, default_value_t = 60)]
    people: usize,
    /// Games each person plays.
    #[arg(long, default_value_t = 30)]
    games: usize,
    /// The people's strengths: bot levels (or game bots) from the game's ladder, dealt in
    /// turn. `expert` searches for 145-217 ms a move in Sorcery and Ivanhoe: left out by default.
    #[arg(long, value_delimiter = ',', default_value = "random,easy,medium,hard")]
    levels: Vec<String>,
    /// The chance that a person plays a legal move at random instead of its level's.
    #[arg(long, default_value_t = 0.05)]
    noise: f64,
    /// Seconds a person rests between games, on average (each rest drawn evenly from 0 to
    /// twice this): 0 queues again at once, so all N people are always in the queue or at a
    /// table; people who pause leave fewer in the queue at a time, and quick play seats bots
    /// more often.
    #[arg(long, default_value_t = 0.0)]
    pause: f64,
    /// The server's `--quickplay-wait` in seconds (an own server only).
    #[arg(long, default_value_t = 1.0)]
    wait: f64,
    /// The server's `--quickplay-placement`: each person's first N games are against bots
    /// (an own server only).
    #[arg(long, default_value_t = server::limits::PLACEMENT_GAMES)]
    placement: u32,
    /// The server's `--threads` (an own server only; 0: one per CPU).
    #[arg(long, default_value_t = 0)]
    server_threads: usize,
    /// Players at each table (default: the game's own default).
    #[arg(long)]
    players: Option<usize>,
    /// Drive the server at this address (`http://127.0.0.1:7878`) instead of starting one; it
    /// must run with `--allow-autopilot`.
    #[arg(long)]
    url: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// What the people saw, added up.
#[derive(Default)]
struct Tally {
    waits_ms: Vec<u32>,
    /// The waits of the games that were not placement games (those are seated at once).
    queued_waits_ms: Vec<u32>,
    placements: u64,
    seats: u64,
    bot_seats: u64,
    games: u64,
    errors: Vec<String>,
}

pub fn run(args: PopulationArgs) -> anyhow::Result<ExitCode> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let game: registry::GameKind = args.game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut truth = Vec::new();
    for level in &args.levels {
        let r = rating::bot_rating(game.name(), level)
            .with_context(|| format!("{level} has no rating in {}'s ladder (docs/bot-ladder.md)", game.title()))?;
        truth.push((level.clone(), r));
    }
    if args.people == 0 || args.games == 0 || truth.is_empty() {
        bail!("--people, --games and --levels must not be empty");
    }
    let dir = std::env::temp_dir().join(format!("cardtable-population-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let server = match &args.url {
        Some(_) => None,
        None => {
            let extra: Vec<String> = [
                "--allow-autopilot",
                "--quickplay-bot-delay-ms",
                "0",
                "--quickplay-wait",
                &args.wait.to_string(),
                "--quickplay-placement",
                &args.placement.to_string(),
                "--threads",
                &args.server_threads.to_string(),
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            let db = dir.join("population.db");
            Some(crate::loadtest::start_server_with(false, db.as_os_str(), None, &extra)?)
        }
    };
    let addr = match (&args.url, &server) {
        (Some(u), _) => u.trim_start_matches("http://").trim_end_matches('/').to_string(),
        (None, Some(s)) => s.addr.clone(),
        (None, None) => unreachable!("a server was started"),
    };
    let cpu0 = server.as_ref().map(|s| crate::loadtest::cpu_seconds(s.pid));
    let started = Instant::now();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let result = rt.block_on(drive(&args, game, &truth, &addr));
    let wall = started.elapsed().as_secs_f64();
    let cpu = server.as_ref().map(|s| crate::loadtest::cpu_seconds(s.pid) - cpu0.unwrap_or(0.0));
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    let (people, tally) = result?;
    let report = report(&args, game, &truth, &people, &tally, wall, cpu);
    if args.json {
        println!("{report}");
    } else {
        print_text(&report);
    }
    Ok(ExitCode::SUCCESS)
}

/// One simulated person: its level, true rating, name, and final rating.
struct Person {
    level: String,
    truth: f64,
    name: String,
    session: String,
    rating: Option<f64>,
}

async fn drive(
    args: &PopulationArgs,
    game: registry::GameKind,
    truth: &[(String, f64)],
    addr: &str,
) -> anyhow::Result<(Vec<Person>, Tally)> {
    let mut people = Vec::new();
    for i in 0..args.people {
        let (status, body, session) = http(addr, "POST", "/api/auth/guest", None, Some(&json!({}))).await?;
        let session = session.filter(|_| status == 201).with_context(|| format!("no guest identity: {body}"))?;
        let (level, r) = truth[i % truth.len()].clone();
        let name = body["account"]["name"].as_str().unwrap_or_default().to_string();
        people.push(Person { level, truth: r, name, session, rating: None });
    }
    let tally = Rc::new(RefCell::new(Tally::default()));
    let runs = people.iter().enumerate().map(|(i, p)| {
        let tally = tally.clone();
        async move {
            // Each person's rests from a generator of its own, seeded by its index.
            let mut rng = engine::MatchRng::new(i as u64);
            for g in 0..args.games {
                if g > 0 && args.pause > 0.0 {
                    let unit = f64::from(rng.next_u32()) / f64::from(u32::MAX);
                    tokio::time::sleep(Duration::from_secs_f64(2.0 * args.pause * unit)).await;
                }
                if let Err(e) = play_one(args, game, addr, p, &tally).await {
                    tally.borrow_mut().errors.push(format!("{}: {e:#}", p.name));
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
    });
    futures_util::future::join_all(runs).await;
    // The ratings once every game is recorded (the last results may still be on their way).
    tokio::time::sleep(Duration::from_millis(500)).await;
    for p in &mut people {
        p.rating = fetch_rating(addr, p, game).await;
    }

    let tally = Rc::try_unwrap(tally).map_err(|_| anyhow::anyhow!("tally still shared"))?.into_inner();
    Ok((people, tally))
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn socket(addr: &str, path: &str, session: &str) -> anyhow::Result<Ws> {
    let mut request = format!("ws://{addr}{path}").into_client_request()?;
    request.headers_mut().insert("cookie", format!("ct_session={session}").parse()?);
    request.headers_mut().insert("origin", format!("http://{addr}").parse()?);
    Ok(tokio_tungstenite::connect_async(request).await?.0)
}

/// The next JSON packet, within `within`.
async fn next(ws: &mut Ws, within: Duration) -> anyhow::Result<Value> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => bail!("nothing from the server for {within:?}"),
            Ok(None) => bail!("the socket closed"),
            Ok(Some(Err(e))) => bail!("the socket failed: {e}"),
            Ok(Some(Ok(Message::Text(t)))) => return Ok(serde_json::from_str(&t)?),
            Ok(Some(Ok(Message::Close(f)))) => bail!("the socket closed: {f:?}"),
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// One game of person `p`: queue, wait, sit down, let its bot play, to the end.
async fn play_one(
    args: &PopulationArgs,
    game: registry::GameKind,
    addr: &str,
    p: &Person,
    tally: &RefCell<Tally>,
) -> anyhow::Result<()> {
    let asked = Instant::now();
    let mut body = json!({"game": game.name()});
    if let Some(n) = args.players {
        body["players"] = n.into();
    }
    let (status, queued, _) = http(addr, "POST", "/api/quickplay", Some(&p.session), Some(&body)).await?;
    if status != 201 {
        bail!("quick play refused ({status}): {queued}");
    }
    let ticket = queued["ticket"].as_str().context("no ticket")?.to_string();
    let placement = queued["type"] == "QuickPlaySeated";
    let mut w = socket(addr, &format!("/api/quickplay/{ticket}/ws"), &p.session).await?;
    let seat = loop {
        let v = next(&mut w, Duration::from_secs(60)).await?;
        if v["type"] == "QuickPlaySeated" {
            break v;
        }
    };
    let waited = asked.elapsed();
    drop(w);
    let room = seat["room"].as_str().context("no room")?;
    let path = seat["path"].as_str().unwrap_or_default();
    let mut ws = socket(addr, &format!("{path}/api/rooms/{room}/ws"), &p.session).await?;
    ws.send(Message::Text(json!({"type": "JoinGame", "username": "x"}).to_string().into())).await?;
    loop {
        let v = next(&mut ws, Duration::from_secs(30)).await?;
        match v["type"].as_str() {
            Some("Joined") => break,
            Some("PlayerJoinRejected") => bail!("not seated: {v}"),
            _ => {}
        }
    }
    let pilot = json!({"type": "Autopilot", "level": p.level, "noise": args.noise});
    ws.send(Message::Text(pilot.to_string().into())).await?;
    // A game of searching bots can take minutes; a server that says nothing for this long
    // is stuck.
    loop {
        let v = next(&mut ws, Duration::from_secs(300)).await?;
        match v["type"].as_str() {
            Some("GameEnded") => break,
            Some("ActionFailed") if v["code"] == "no_autopilot" => bail!("the server refuses autopilot: {v}"),
            _ => {}
        }
    }
    let _ = ws.send(Message::Text(json!({"type": "LeaveGame"}).to_string().into())).await;
    let _ = ws.close(None).await;
    let mut t = tally.borrow_mut();
    let ms = u32::try_from(waited.as_millis()).unwrap_or(u32::MAX);
    t.waits_ms.push(ms);
    if placement {
        t.placements += 1;
    } else {
        t.queued_waits_ms.push(ms);
    }
    let players = seat["players"].as_u64().unwrap_or(0);
    let bots = seat["bots"].as_array().map_or(0, |b| b.len() as u64);
    // Each person counts its own table's seats once per person at it: the share comes out
    // the same as counting each table once.
    t.seats += players;
    t.bot_seats += bots;
    t.games += 1;
    Ok(())
}

/// A person's rating in `game` now, from their public profile.
async fn fetch_rating(addr: &str, p: &Person, game: registry::GameKind) -> Option<f64> {
    let (status, v, _) = http(addr, "GET", &format!("/api/users/{}", p.name), Some(&p.session), None).await.ok()?;
    if status != 200 {
        return None;
    }
    // `ratings`: one entry a game played rated, `{game, rating, rd, ...}` (docs/protocol.md).
    let ratings = v.get("ratings")?;
    let entry = match ratings {
        Value::Array(list) => list.iter().find(|r| r["game"] == game.name())?.clone(),
        Value::Object(map) => map.get(game.name())?.clone(),
        _ => return None,
    };
    entry.get("rating").or_else(|| entry.get("r")).and_then(Value::as_f64)
}

/// One HTTP request with the page's `Origin` and the session cookie: status, JSON body, and
/// the session a `Set-Cookie` starts.
async fn http(
    addr: &str,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<&Value>,
) -> anyhow::Result<(u16, Value, Option<String>)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = body.map(Value::to_string).unwrap_or_default();
    let cookie = session.map(|s| format!("Cookie: ct_session={s}\r\n")).unwrap_or_default();
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut resp = String::new();
    s.read_to_string(&mut resp).await?;
    let status: u16 = resp.get(9..12).and_then(|c| c.parse().ok()).context("no HTTP status")?;
    let (head, rest) = resp.split_once("\r\n\r\n").unwrap_or((resp.as_str(), ""));
    let value = match (rest.find(['{', '[']), rest.rfind(['}', ']'])) {
        (Some(a), Some(b)) if a <= b => serde_json::from_str(&rest[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let session = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().starts_with("set-cookie: ct_session=").then(|| l[23..].to_string()))
        .and_then(|c| c.split(';').next().map(str::to_string));
    Ok((status, value, session))
}

/// Ranks from 1, ties sharing their mean rank.
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    if va == 0.0 || vb == 0.0 { 0.0 } else { cov / (va * vb).sqrt() }
}

/// Spearman's rank correlation (Pearson's on the ranks, ties averaged).
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

fn report(
    args: &PopulationArgs,
    game: registry::GameKind,
    truth: &[(String, f64)],
    people: &[Person],
    tally: &Tally,
    wall: f64,
    cpu: Option<f64>,
) -> Value {
    let rated: Vec<&Person> = people.iter().filter(|p| p.rating.is_some()).collect();
    let finals: Vec<f64> = rated.iter().filter_map(|p| p.rating).collect();
    let truths: Vec<f64> = rated.iter().map(|p| p.truth).collect();
    let spearman = (rated.len() >= 2).then(|| spearman(&finals, &truths));
    let mae = (!rated.is_empty())
        .then(|| finals.iter().zip(&truths).map(|(f, t)| (f - t).abs()).sum::<f64>() / rated.len() as f64);
    let mut waits = tally.waits_ms.clone();
    waits.sort_unstable();
    let mut queued = tally.queued_waits_ms.clone();
    queued.sort_unstable();
    let per_level: Vec<Value> = truth
        .iter()
        .map(|(level, r)| {
            let mine: Vec<f64> = rated.iter().filter(|p| &p.level == level).filter_map(|p| p.rating).collect();
            let mean = mine.iter().sum::<f64>() / mine.len().max(1) as f64;
            let sd = (mine.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / mine.len().max(1) as f64).sqrt();
            json!({"level": level, "true": r.round(), "people": mine.len(), "mean": mean.round(), "sd": sd.round()})
        })
        .collect();
    json!({
        "game": game.name(), "people": args.people, "gamesEach": args.games, "levels": args.levels,
        "noise": args.noise, "waitS": args.wait, "placement": args.placement, "url": args.url,
        "gamesPlayed": tally.games, "rated": rated.len(),
        "spearman": spearman, "meanAbsError": mae,
        // `percentile` reads thousandths: milliseconds in, seconds out.
        "waitP50S": crate::loadtest::percentile(&waits, 0.5),
        "waitP95S": crate::loadtest::percentile(&waits, 0.95),
        "placementGames": tally.placements,
        "queuedWaitP50S": crate::loadtest::percentile(&queued, 0.5),
        "queuedWaitP95S": crate::loadtest::percentile(&queued, 0.95),
        "botSeatShare": if tally.seats == 0 { 0.0 } else { tally.bot_seats as f64 / tally.seats as f64 },
        "serverCpuS": cpu, "wallS": wall, "perLevel": per_level, "pauseS": args.pause,
        "errors": tally.errors.len(), "firstErrors": tally.errors.iter().take(5).collect::<Vec<_>>(),
    })
}

fn print_text(r: &Value) {
    let f = |v: &Value, d: usize| v.as_f64().map_or("n/a".to_string(), |x| format!("{x:.d$}"));
    println!(
        "{}: {} people x {} games ({} played, {} rated), levels {}, noise {}, wait {} s, pause {} s, placement {}",
        r["game"].as_str().unwrap_or("?"),
        r["people"],
        r["gamesEach"],
        r["gamesPlayed"],
        r["rated"],
        r["levels"],
        r["noise"],
        r["waitS"],
        r["pauseS"],
        r["placement"]
    );
    println!("  Spearman {}   mean absolute error {}", f(&r["spearman"], 3), f(&r["meanAbsError"], 1));
    println!(
        "  queue wait p50 {} s, p95 {} s; bots filled {}% of seats",
        f(&r["waitP50S"], 2),
        f(&r["waitP95S"], 2),
        f(&json!(r["botSeatShare"].as_f64().unwrap_or(0.0) * 100.0), 1)
    );
    println!(
        "  {} placement games; the others' wait p50 {} s, p95 {} s",
        r["placementGames"],
        f(&r["queuedWaitP50S"], 2),
        f(&r["queuedWaitP95S"], 2)
    );
    println!("  server CPU {} s over {} s", f(&r["serverCpuS"], 1), f(&r["wallS"], 1));
    for l in r["perLevel"].as_array().into_iter().flatten() {
        println!(
            "  {:>8}: true {:>5}, final mean {:>5} (sd {:>4}) over {} people",
            l["level"].as_str().unwrap_or("?"),
            l["true"],
            l["mean"],
            l["sd"],
            l["people"]
        );
    }
    if r["errors"].as_u64().unwrap_or(0) > 0 {
        println!("  {} errors, first: {}", r["errors"], r["firstErrors"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_ranks_ties_by_their_mean() {
        assert_eq!(ranks(&[10.0, 20.0, 20.0, 5.0]), vec![2.0, 3.5, 3.5, 1.0]);
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[30.0, 20.0, 10.0]) + 1.0).abs() < 1e-12);
        // Four people of two true strengths, found in the right order: the ties in the truth
        // keep it below 1.
        let s = spearman(&[1400.0, 1450.0, 1600.0, 1650.0], &[1.0, 1.0, 2.0, 2.0]);
        assert!((s - 0.894_427).abs() < 1e-5, "{s}");
    }
}
