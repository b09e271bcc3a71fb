//! The server is killed with SIGKILL mid-game and restarted on the same database: the game
//! continues where it was, and players reclaim their seats with their tokens. On both stores:
//! a SQLite file, and PostgreSQL (`CARDTABLE_TEST_PG`, see `scripts/pg.sh`; opt out with
//! `CARDTABLE_SKIP_PG=1`). And PostgreSQL stopped and started while a room plays: the moves
//! made meanwhile are refused with `store_unavailable`, the server reconnects by itself, play
//! goes on, and nothing acknowledged is lost.

#[path = "../../store/tests/pg_env/mod.rs"]
mod pg_env;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

struct Proc {
    child: Child,
    addr: String,
}

/// Keeps reading the server's output so it never writes into a closed pipe.
fn drain(out: impl std::io::Read + Send + 'static) {
    std::thread::spawn(move || std::io::copy(&mut BufReader::new(out), &mut std::io::sink()));
}

fn start(db: &str) -> Proc {
    // The test plays a known deal (seed 77).
    start_allowing(db, "--allow-seeded-rooms")
}

/// A server on `db` that allows `allow` (`--allow-seeded-rooms` or `--allow-setup-rooms`).
fn start_allowing(db: &str, allow: &str) -> Proc {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardtable"))
        .args(["serve", "--addr", "127.0.0.1:0", allow, "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    drain(out);
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("the URL line").to_string();
    Proc { child, addr }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

async fn expect(ws: &mut Ws, ty: &str) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("a packet in time");
        if let Some(Ok(Message::Text(t))) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == ty {
                return v;
            }
        }
    }
}

async fn sync(ws: &mut Ws) -> Value {
    // Drop anything queued, then ask.
    while let Ok(Some(_)) = tokio::time::timeout(Duration::from_millis(30), ws.next()).await {}
    send(ws, json!({"type": "GameDataRequest"})).await;
    expect(ws, "GameDataSync").await["gameData"].clone()
}

async fn create_room(addr: &str) -> String {
    create_room_with(addr, json!({"game": "buckshot", "seed": 77})).await
}

async fn create_room_with(addr: &str, body: Value) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = body.to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    let start = resp.find("{\"id\"").unwrap();
    let v: Value = serde_json::from_str(&resp[start..resp[start..].find('}').unwrap() + start + 1]).unwrap();
    v["id"].as_str().unwrap().to_string()
}

/// The PostgreSQL tests of this file one at a time (one restarts the server under the other).
static PG: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test]
async fn kill_9_mid_game_and_restart() {
    let dir = std::env::temp_dir().join(format!("cardtable-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    kill_9_mid_game_and_restart_on(dir.join("k.db").to_str().unwrap()).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn kill_9_mid_game_and_restart_on_postgres() {
    let Some(url) = pg_env::pg_url() else { return };
    let _one = PG.lock().await;
    kill_9_mid_game_and_restart_on(&pg_env::fresh_schema(&url, "kill9").await).await;
}

async fn kill_9_mid_game_and_restart_on(db: &str) {
    let mut p = start(db);
    let room = create_room(&p.addr).await;
    let url = |addr: &str| format!("ws://{addr}/api/rooms/{room}/ws");
    let (mut a, _) = connect_async(url(&p.addr)).await.unwrap();
    let (mut b, _) = connect_async(url(&p.addr)).await.unwrap();
    send(&mut a, json!({"type": "JoinGame", "username": "alice"})).await;
    let ta = expect(&mut a, "Joined").await["token"].as_str().unwrap().to_string();
    send(&mut b, json!({"type": "JoinGame", "username": "bob"})).await;
    let tb = expect(&mut b, "Joined").await["token"].as_str().unwrap().to_string();
    send(&mut a, json!({"type": "StartGame"})).await;
    expect(&mut a, "GameStarted").await;
    for _ in 0..3 {
        let data = sync(&mut a).await;
        let turn = data["currentTurn"].as_str().unwrap().to_string();
        let ws = if turn == "alice" { &mut a } else { &mut b };
        send(ws, json!({"type": "ShootPlayer", "username": turn})).await;
        expect(ws, "ShootPlayer").await;
    }
    let before = sync(&mut a).await;
    assert_eq!(before["gameStarted"], true);

    // SIGKILL: no shutdown code runs.
    p.child.kill().unwrap();
    p.child.wait().unwrap();
    drop((a, b));

    let mut p = start(db);
    let (mut a, _) = connect_async(url(&p.addr)).await.unwrap();
    send(&mut a, json!({"type": "Reconnect", "token": ta})).await;
    expect(&mut a, "Joined").await;
    let after = expect(&mut a, "GameDataSync").await["gameData"].clone();
    for key in ["currentTurn", "turnCount", "round", "liveLeft", "blankLeft", "gameStarted", "host"] {
        assert_eq!(before[key], after[key], "{key} after the restart");
    }
    let lives = |d: &Value| d["players"].as_array().unwrap().iter().map(|p| p["lives"].clone()).collect::<Vec<_>>();
    assert_eq!(lives(&before), lives(&after));
    // And the game goes on.
    let (mut b, _) = connect_async(url(&p.addr)).await.unwrap();
    send(&mut b, json!({"type": "Reconnect", "token": tb})).await;
    expect(&mut b, "Joined").await;
    let turn = after["currentTurn"].as_str().unwrap().to_string();
    let ws = if turn == "alice" { &mut a } else { &mut b };
    send(ws, json!({"type": "ShootPlayer", "username": turn})).await;
    let shot = expect(ws, "ShootPlayer").await;
    assert_eq!(shot["by"], turn.as_str());
    let _ = p.child.kill();
    let _ = p.child.wait();
}

/// Buckshot's example position: three seats on 5, 2 and 5 lives, a live, a blank and a live
/// shell left, seat 1 (bob) to play. A deal from a seed has every seat on the same lives.
const BUCKSHOT_SETUP: &str = include_str!("../../../docs/setups/buckshot.txt");

#[tokio::test]
async fn kill_9_mid_game_of_a_set_up_room_and_restart() {
    let dir = std::env::temp_dir().join(format!("cardtable-kill9-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    kill_9_mid_game_of_a_set_up_room_and_restart_on(dir.join("k.db").to_str().unwrap()).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn kill_9_mid_game_of_a_set_up_room_and_restart_on_postgres() {
    let Some(url) = pg_env::pg_url() else { return };
    let _one = PG.lock().await;
    kill_9_mid_game_of_a_set_up_room_and_restart_on(&pg_env::fresh_schema(&url, "kill9setup").await).await;
}

fn lives(d: &Value) -> Vec<Value> {
    d["players"].as_array().unwrap().iter().map(|p| p["lives"].clone()).collect()
}

/// A room started from a position, killed mid-match: it comes back at the same point of the
/// position's match (not a fresh deal from the room's seed), play goes on to the end, and
/// `cardtable replay` of the stored match narrates it from the position.
async fn kill_9_mid_game_of_a_set_up_room_and_restart_on(db: &str) {
    let mut p = start_allowing(db, "--allow-setup-rooms");
    let room = create_room_with(&p.addr, json!({"game": "buckshot", "setup": BUCKSHOT_SETUP})).await;
    let url = |addr: &str| format!("ws://{addr}/api/rooms/{room}/ws");
    let names = ["alice", "bob", "cat"];
    let mut ws = Vec::new();
    let mut tokens = Vec::new();
    for name in names {
        let (mut w, _) = connect_async(url(&p.addr)).await.unwrap();
        send(&mut w, json!({"type": "JoinGame", "username": name})).await;
        tokens.push(expect(&mut w, "Joined").await["token"].as_str().unwrap().to_string());
        ws.push(w);
    }
    send(&mut ws[0], json!({"type": "StartGame"})).await;
    expect(&mut ws[0], "GameStarted").await;
    let start = sync(&mut ws[0]).await;
    assert_eq!(lives(&start), [json!(5), json!(2), json!(5)], "the position's lives: {start}");
    assert_eq!(
        (start["currentTurn"].clone(), start["liveLeft"].clone(), start["blankLeft"].clone()),
        (json!("bob"), json!(2), json!(1))
    );
    assert_eq!(start["setUp"], true);
    // Two shots: bob takes the live shell on cat, then cat shoots bob.
    for (by, at) in [(1, "cat"), (2, "bob")] {
        let data = sync(&mut ws[0]).await;
        assert_eq!(data["currentTurn"], names[by], "{data}");
        send(&mut ws[by], json!({"type": "ShootPlayer", "username": at})).await;
        expect(&mut ws[by], "ShootPlayer").await;
    }
    let before = sync(&mut ws[0]).await;
    assert_eq!(before["gameStarted"], true);

    // SIGKILL: no shutdown code runs.
    p.child.kill().unwrap();
    p.child.wait().unwrap();
    drop(ws);

    let mut p = start_allowing(db, "--allow-setup-rooms");
    let mut ws = Vec::new();
    for token in &tokens {
        let (mut w, _) = connect_async(url(&p.addr)).await.unwrap();
        send(&mut w, json!({"type": "Reconnect", "token": token})).await;
        expect(&mut w, "Joined").await;
        ws.push(w);
    }
    let after = sync(&mut ws[0]).await;
    for key in ["currentTurn", "turnCount", "round", "liveLeft", "blankLeft", "gameStarted", "host", "setUp"] {
        assert_eq!(before[key], after[key], "{key} after the restart");
    }
    assert_eq!(lives(&before), lives(&after), "lives after the restart");

    // And the match goes on to its end: whoever is to play shoots the next seat still alive.
    let mut shots = 2;
    let ended = loop {
        let data = sync(&mut ws[0]).await;
        if data["gameStarted"] != true {
            break data;
        }
        let turn = data["currentTurn"].as_str().unwrap().to_string();
        let by = names.iter().position(|n| *n == turn).unwrap();
        let alive = lives(&data);
        let at = (1..3).map(|k| (by + k) % 3).find(|&i| alive[i].as_u64() > Some(0)).unwrap();
        send(&mut ws[by], json!({"type": "ShootPlayer", "username": names[at]})).await;
        expect(&mut ws[by], "ShootPlayer").await;
        shots += 1;
        assert!(shots < 200, "the match does not end: {data}");
    };
    let id = ended["lastMatch"].as_i64().expect("the match was recorded");
    p.child.kill().unwrap();
    p.child.wait().unwrap();
    drop(ws);

    // `cardtable replay` rebuilds it from the position: every shot narrated, none refused.
    let out =
        Command::new(env!("CARGO_BIN_EXE_cardtable")).args(["replay", "--db", db, &id.to_string()]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("Match {id} — Buckshot in room {room}, from a position")), "{text}");
    assert!(!text.contains("cannot be narrated") && !text.contains("Note:"), "{text}");
    // The position's chamber, and bob out after two lives lost (a dealt seat has more).
    assert!(text.contains("Round 1: the chamber is loaded with 2 live and 1 blank."), "{text}");
    let bob_out = text.find("bob is out!").expect("bob is shot down");
    assert_eq!(text[..bob_out].matches("bob loses 1.").count(), 2, "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_cardtable"))
        .args(["replay", "--json", "--db", db, &id.to_string()])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["setUp"], true);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(shots), "every shot stored once: {v}");
}

/// Runs the tests' PostgreSQL control script (`scripts/pg.sh` exports it): `stop` or `start`.
fn pg_ctl(what: &str) {
    let ctl = std::env::var("CARDTABLE_PG_CTL")
        .expect("CARDTABLE_PG_CTL: the script that stops and starts the tests' PostgreSQL (scripts/pg.sh exports it)");
    let ok = Command::new(&ctl).arg(what).stdout(Stdio::null()).status().expect("run CARDTABLE_PG_CTL").success();
    assert!(ok, "{ctl} {what} failed");
}

/// The next packet of type `ty` or `ActionFailed`, whichever comes first.
async fn expect_or_failed(ws: &mut Ws, ty: &str) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a packet in time");
        if let Some(Ok(Message::Text(t))) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == ty || v["type"] == "ActionFailed" {
                return v;
            }
        }
    }
}

#[tokio::test]
async fn postgres_restarted_mid_game() {
    let Some(url) = pg_env::pg_url() else { return };
    let _one = PG.lock().await;
    let db = pg_env::fresh_schema(&url, "outage").await;
    let mut p = start(&db);
    let room = create_room(&p.addr).await;
    let url = |addr: &str| format!("ws://{addr}/api/rooms/{room}/ws");
    let (mut a, _) = connect_async(url(&p.addr)).await.unwrap();
    let (mut b, _) = connect_async(url(&p.addr)).await.unwrap();
    send(&mut a, json!({"type": "JoinGame", "username": "alice"})).await;
    let ta = expect(&mut a, "Joined").await["token"].as_str().unwrap().to_string();
    send(&mut b, json!({"type": "JoinGame", "username": "bob"})).await;
    expect(&mut b, "Joined").await;
    send(&mut a, json!({"type": "StartGame"})).await;
    expect(&mut a, "GameStarted").await;
    // Moves made before the outage: acknowledged (everyone heard of them).
    let mut acknowledged = 0;
    for _ in 0..2 {
        let data = sync(&mut a).await;
        let turn = data["currentTurn"].as_str().unwrap().to_string();
        let ws = if turn == "alice" { &mut a } else { &mut b };
        send(ws, json!({"type": "ShootPlayer", "username": turn})).await;
        expect(ws, "ShootPlayer").await;
        acknowledged += 1;
    }
    let before = sync(&mut a).await;
    // Both players have read every packet so far (a shot is told to both).
    sync(&mut b).await;

    pg_ctl("stop");
    // During the outage a move is refused, with the code and a message, and not made.
    let turn = before["currentTurn"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let ws = if turn == "alice" { &mut a } else { &mut b };
        send(ws, json!({"type": "ShootPlayer", "username": turn})).await;
        let answer = expect_or_failed(ws, "ShootPlayer").await;
        assert_eq!(answer["type"], "ActionFailed", "a move was made while the database was down: {answer}");
        assert_eq!(answer["code"], "store_unavailable");
        assert!(answer["reason"].as_str().unwrap().contains("database"), "{answer}");
    }
    let during = sync(&mut a).await;
    sync(&mut b).await;
    for key in ["currentTurn", "turnCount", "round", "liveLeft", "blankLeft"] {
        assert_eq!(before[key], during[key], "{key}: the refused move changed the game");
    }
    pg_ctl("start");

    // The server reconnects by itself: the same move goes through (after a retry or two while
    // the pool finds the database again).
    let mut made = false;
    for _ in 0..50 {
        let ws = if turn == "alice" { &mut a } else { &mut b };
        send(ws, json!({"type": "ShootPlayer", "username": turn})).await;
        let answer = expect_or_failed(ws, "ShootPlayer").await;
        if answer["type"] == "ShootPlayer" {
            made = true;
            break;
        }
        assert_eq!(answer["code"], "store_unavailable", "{answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(made, "play did not resume after PostgreSQL came back");
    acknowledged += 1;
    let data = sync(&mut a).await;
    if data["gameStarted"] == true {
        let turn = data["currentTurn"].as_str().unwrap().to_string();
        let ws = if turn == "alice" { &mut a } else { &mut b };
        send(ws, json!({"type": "ShootPlayer", "username": turn})).await;
        expect(ws, "ShootPlayer").await;
        acknowledged += 1;
    }
    let last = sync(&mut a).await;

    // Nothing acknowledged is lost: killed and restarted, the server has every one of them.
    p.child.kill().unwrap();
    p.child.wait().unwrap();
    drop((a, b));
    let mut p = start(&db);
    let (mut a, _) = connect_async(url(&p.addr)).await.unwrap();
    send(&mut a, json!({"type": "Reconnect", "token": ta})).await;
    expect(&mut a, "Joined").await;
    let after = expect(&mut a, "GameDataSync").await["gameData"].clone();
    for key in ["currentTurn", "turnCount", "round", "liveLeft", "blankLeft", "gameStarted"] {
        assert_eq!(last[key], after[key], "{key} after the restart ({acknowledged} moves acknowledged)");
    }
    let _ = p.child.kill();
    let _ = p.child.wait();
}
