//! A cardtable cluster on loopback for the fault-injection test (`tests/cluster.rs`) and the
//! benchmark (`examples/cluster_bench.rs`): PostgreSQL, N `cardtable serve --node-id` processes
//! (each reaching PostgreSQL through its own forwarder in this process, which the harness can
//! cut and heal), HAProxy in front (its configuration rendered from `deploy/haproxy.cfg` by
//! `scripts/cluster.sh proxy-cfg`, the one source of truth), and players: WebSocket clients
//! that play any game from `GameDataSync.legal`, reconnect with their token through the proxy
//! after "moved" (close 4001) or a dropped connection, resend an unanswered move with its
//! `serial`, and remember every table they saw. The checks then read PostgreSQL: every room's
//! move log and finished matches are replayed with the server's own replay code and compared
//! with what each player saw, move by move.
//!
//! Every process and directory it makes is stopped and removed by a `Drop` guard, so a failing
//! test leaves nothing running.
#![allow(dead_code)] // the test and the benchmark use different parts

pub mod check;
pub mod cluster;
pub mod player;
pub mod procs;

#[allow(unused_imports)] // the test and the benchmark use different parts
pub use check::{Totals, check_rooms};
#[allow(unused_imports)]
pub use cluster::{Cluster, Cpu, owners, via};
#[allow(unused_imports)]
pub use player::{Ctl, Player, RoomPlan, create_room, http};
#[allow(unused_imports)]
pub use procs::{Forwarder, Haproxy, Node, NodeSettings, Pg, TempDir};

use std::path::PathBuf;

/// The repository's root (for `scripts/cluster.sh` and `deploy/haproxy.cfg`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root")
}

/// Whether `prog` runs (`haproxy -v`).
pub fn have(prog: &str, arg: &str) -> bool {
    std::process::Command::new(prog)
        .arg(arg)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// CPU time (utime + stime, and with `children` the reaped children's cutime + cstime) of
/// `pid` in clock ticks, from /proc/<pid>/stat; 0 when the process is gone.
pub fn cpu_ticks(pid: u32, children: bool) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0 };
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return 0 };
    let f: Vec<u64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0)).collect();
    // rest[0] is field 3 (state); utime is field 14 → index 11.
    let (ut, st, cut, cst) = (f[11], f[12], f[13], f[14]);
    if children { ut + st + cut + cst } else { ut + st }
}

/// The live children of `pid` (from /proc/<pid>/task/*/children).
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(s.split_whitespace().filter_map(|x| x.parse::<u32>().ok()));
            }
        }
    }
    out
}

/// PostgreSQL's CPU as issue 24 measured it: the postmaster with its reaped children, plus its
/// live children (the backends, the checkpointer, the WAL writer, ...).
pub fn pg_cpu_ticks(postmaster: u32) -> u64 {
    cpu_ticks(postmaster, true) + children_of(postmaster).into_iter().map(|c| cpu_ticks(c, false)).sum::<u64>()
}

/// Clock ticks a second (`getconf CLK_TCK`; 100 on Linux).
pub fn ticks_per_second() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}
