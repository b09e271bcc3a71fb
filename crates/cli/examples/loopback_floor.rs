//! The floor under `cardtable loadtest`: what the kernel alone charges a server for one Buckshot
//! move over loopback TCP, with no game, room, database, JSON or WebSocket framing.
//!
//! Same traffic shape as the load test: K matches of 4 clients, closed loop; a move is one
//! small packet in (the shot) and one write of ~1.5 KB to each of the match's 4 clients (the
//! broadcast, TurnEnd, TurnStart and GameDataSync a real move sends, coalesced per client as
//! the server does). The server is a single-threaded tokio process pinned to core 0, the
//! driver one pinned to core 1. Prints moves per server CPU-second, the ceiling for any server
//! that speaks this protocol on this machine.
//!
//! `cargo run --release -p cli --example loopback_floor -- [matches] [seconds]`

use std::process::{Command, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Bytes a client receives per move in the real protocol (4 frames, ~1.5 KB).
const UPDATE: usize = 1500;
/// Bytes of a shot.
const SHOT: usize = 64;

fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    if args.get(1).map(String::as_str) == Some("--serve") {
        rt.block_on(serve());
        return;
    }
    let matches: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(32);
    let seconds: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
    let exe = std::env::current_exe().expect("exe");
    let mut child = Command::new("taskset")
        .args(["-c", "0"])
        .arg(&exe)
        .arg("--serve")
        .stdout(Stdio::piped())
        .spawn()
        .expect("taskset");
    let _ = Command::new("taskset").args(["-cp", "1", &std::process::id().to_string()]).output();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().expect("stdout")), &mut line)
        .expect("port");
    let addr = line.trim().to_string();
    let pid = child.id();
    let local = tokio::task::LocalSet::new();
    let moves = local.block_on(&rt, drive(&addr, matches, seconds, pid));
    let _ = child.kill();
    let _ = child.wait();
    println!("{moves}");
}

async fn serve() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("{}", listener.local_addr().expect("addr"));
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async move {
            loop {
                // A match: 4 connections; a shot from any of them goes to all 4 as an update.
                let mut socks = Vec::new();
                for _ in 0..4 {
                    let (s, _) = listener.accept().await.expect("accept");
                    s.set_nodelay(true).expect("nodelay");
                    socks.push(s);
                }
                let (mut readers, writers): (Vec<_>, Vec<_>) = socks.into_iter().map(TcpStream::into_split).unzip();
                let writers = Rc::new(tokio::sync::Mutex::new(writers));
                for mut r in readers.drain(..) {
                    let writers = writers.clone();
                    tokio::task::spawn_local(async move {
                        let mut shot = [0u8; SHOT];
                        let update = [b'x'; UPDATE];
                        while r.read_exact(&mut shot).await.is_ok() {
                            for w in writers.lock().await.iter_mut() {
                                if w.write_all(&update).await.is_err() {
                                    return;
                                }
                            }
                        }
                    });
                }
            }
        })
        .await;
}

async fn drive(addr: &str, matches: usize, seconds: u64, pid: u32) -> String {
    let count = Rc::new(std::cell::Cell::new(0u64));
    let until = Instant::now() + Duration::from_secs(seconds) + Duration::from_millis(500);
    for _ in 0..matches {
        let mut socks = Vec::new();
        for _ in 0..4 {
            let s = TcpStream::connect(addr).await.expect("connect");
            s.set_nodelay(true).expect("nodelay");
            socks.push(s);
        }
        let count = count.clone();
        tokio::task::spawn_local(async move {
            // The players take turns: each move, the next one shoots and all 4 read the update.
            let mut buf = vec![0u8; UPDATE];
            let mut turn = 0;
            while Instant::now() < until {
                if socks[turn].write_all(&[b's'; SHOT]).await.is_err() {
                    return;
                }
                for s in &mut socks {
                    if s.read_exact(&mut buf).await.is_err() {
                        return;
                    }
                }
                count.set(count.get() + 1);
                turn = (turn + 1) % 4;
            }
        });
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (m0, c0, t0) = (count.get(), cpu_seconds(pid), Instant::now());
    tokio::time::sleep(Duration::from_secs(seconds) - Duration::from_millis(100)).await;
    let (m1, c1, t1) = (count.get(), cpu_seconds(pid), Instant::now());
    let moves = (m1 - m0) as f64;
    format!(
        "loopback floor: {matches} matches x 4 clients: {:.0} moves/s, {:.0} moves per server CPU-second",
        moves / (t1 - t0).as_secs_f64(),
        moves / (c1 - c0).max(1e-9)
    )
}
