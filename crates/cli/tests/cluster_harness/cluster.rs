//! The whole cluster as one value: PostgreSQL, the forwarders, the nodes, HAProxy and the
//! players, with the waits and checks the test and the benchmark share.

use super::{Ctl, Forwarder, Haproxy, Node, NodeSettings, Pg, Player, RoomPlan, TempDir, Totals};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Fields drop in order: players first, then the proxy, the nodes, the forwarders,
/// PostgreSQL, and the directory last.
pub struct Cluster {
    pub players: Vec<Player>,
    /// Rooms given up on (the benchmark replaces a room that never plays again): no longer
    /// waited for, still checked.
    pub retired: std::collections::HashSet<String>,
    pub proxy: Option<Haproxy>,
    pub nodes: Vec<Node>,
    pub fwds: Vec<Forwarder>,
    pub pg: Pg,
    pub dir: TempDir,
}

/// `url` with its port replaced by `port` (a node's forwarder).
pub fn via(url: &str, port: u16) -> String {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let (auth, path) = rest.split_once('/').expect("a URL with a database");
    let host = auth.rsplit_once(':').map_or(auth, |(h, _)| h);
    format!("{scheme}://{host}:{port}/{path}")
}

/// Every room's owner and epoch, read from PostgreSQL directly (not through a forwarder).
pub async fn owners(pg: &str, rooms: &[RoomPlan]) -> Result<HashMap<String, (Option<String>, i64)>, String> {
    let (db, conn) = tokio_postgres::connect(pg, tokio_postgres::NoTls).await.map_err(|e| e.to_string())?;
    let task = tokio::spawn(conn);
    let ids: Vec<String> = rooms.iter().map(|r| r.id.clone()).collect();
    let rows =
        db.query("SELECT id, owner, epoch FROM rooms WHERE id = ANY($1)", &[&ids]).await.map_err(|e| e.to_string())?;
    drop(db);
    let _ = task.await;
    Ok(rows.iter().map(|r| (r.get::<_, String>(0), (r.get::<_, Option<String>>(1), r.get::<_, i64>(2)))).collect())
}

/// PostgreSQL's sessions on the cluster's database that are not idle, with the locks they
/// hold on rooms (for a failure's message).
pub async fn activity(pg: &str) -> String {
    let go = async {
        let (db, conn) = tokio_postgres::connect(pg, tokio_postgres::NoTls).await.map_err(|e| e.to_string())?;
        let task = tokio::spawn(conn);
        let rows = db
            .query(
                "SELECT a.pid, a.state, extract(epoch FROM now() - a.xact_start)::float8, left(a.query, 160),
                        (SELECT string_agg(l.mode, ',') FROM pg_locks l WHERE l.pid = a.pid AND l.relation = 'rooms'::regclass)
                 FROM pg_stat_activity a
                 WHERE a.datname = current_database() AND a.state <> 'idle' AND a.pid <> pg_backend_pid()",
                &[],
            )
            .await
            .map_err(|e| e.to_string())?;
        drop(db);
        let _ = task.await;
        Ok::<_, String>(
            rows.iter()
                .map(|r| {
                    format!(
                        "pid {} {:?} for {:?} s, locks on rooms {:?}: {:?}",
                        r.get::<_, i32>(0),
                        r.get::<_, Option<String>>(1),
                        r.get::<_, Option<f64>>(2),
                        r.get::<_, Option<String>>(4),
                        r.get::<_, Option<String>>(3)
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    tokio::time::timeout(Duration::from_secs(5), go)
        .await
        .map_or_else(|_| "timed out".into(), |r| r.unwrap_or_else(|e| e))
}

/// CPU ticks of the cluster's processes at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cpu {
    pub nodes: u64,
    pub proxy: u64,
    pub pg: u64,
}

impl Cpu {
    pub fn since(self, before: Cpu) -> Cpu {
        Cpu {
            nodes: self.nodes.saturating_sub(before.nodes),
            proxy: self.proxy.saturating_sub(before.proxy),
            pg: self.pg.saturating_sub(before.pg),
        }
    }

    pub fn total(self) -> u64 {
        self.nodes + self.proxy + self.pg
    }
}

impl Cluster {
    /// `n` nodes on `pg` (each through a forwarder of its own when `forwarders`), HAProxy in
    /// front when `proxy`; waits until all serve.
    pub async fn start(
        pg: Pg,
        bin: &Path,
        n: usize,
        settings: NodeSettings,
        forwarders: bool,
        proxy: bool,
    ) -> Result<Cluster, String> {
        let dir = TempDir::new("cluster");
        let mut fwds = Vec::new();
        let mut nodes = Vec::new();
        for k in 1..=n {
            let db = if forwarders {
                let f = Forwarder::start(pg.addr()).await;
                let db = via(&pg.url, f.port);
                fwds.push(f);
                db
            } else {
                pg.url.clone()
            };
            nodes.push(Node::new(&format!("n{k}"), bin, &db, settings.clone(), dir.path()));
        }
        let mut c = Cluster { players: Vec::new(), retired: Default::default(), proxy: None, nodes, fwds, pg, dir };
        for node in &mut c.nodes {
            node.start();
        }
        for node in &mut c.nodes {
            node.wait_ready(Duration::from_secs(30)).await?;
        }
        if proxy {
            let ids: Vec<(String, String)> = c.nodes.iter().map(|n| (n.id.clone(), n.addr())).collect();
            let mut p = Haproxy::start(&ids, c.dir.path())?;
            p.wait_ready(Duration::from_secs(10)).await?;
            c.proxy = Some(p);
        }
        Ok(c)
    }

    /// Where players connect: HAProxy, or the first node.
    pub fn entry(&self) -> String {
        self.proxy.as_ref().map_or_else(|| self.nodes[0].addr(), Haproxy::addr)
    }

    /// `per_game` rooms of every game, with people enough to start (Three Kingdoms: three
    /// and a bot).
    pub async fn make_rooms(&self, per_game: usize, seed: u64) -> Result<Vec<RoomPlan>, String> {
        let mut plans = Vec::new();
        for r in 0..per_game {
            for (i, kind) in registry::GameKind::ALL.iter().enumerate() {
                let min = usize::from(*kind.seats().start()).max(2);
                let bots = usize::from(min >= 4);
                let people = (0..min - bots).map(|j| format!("{}{r}p{j}", &kind.name()[..3])).collect();
                let id = super::create_room(&self.entry(), kind.name(), seed + (r * 10 + i) as u64).await?;
                plans.push(RoomPlan { id, game: kind.name().to_string(), people, bots });
            }
        }
        Ok(plans)
    }

    /// Every room's players: the hosts first (the first to join is host), then the others.
    pub async fn start_players(&mut self, plans: &[RoomPlan], ctl: &Arc<Ctl>) {
        for plan in plans {
            self.players.push(Player::start(plan, 0, ctl.clone()));
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        for plan in plans {
            for j in 1..plan.people.len() {
                self.players.push(Player::start(plan, j, ctl.clone()));
            }
        }
    }

    pub fn room_progress(&self) -> HashMap<String, u64> {
        let mut out = HashMap::new();
        for p in self.players.iter().filter(|p| !self.retired.contains(&p.room)) {
            *out.entry(p.room.clone()).or_insert(0) += p.progress();
        }
        out
    }

    /// Waits until every room has moved on (a few new tables seen) since now; the time it
    /// took, or which rooms did not and why.
    pub async fn all_live(&self, what: &str, within: Duration) -> Result<Duration, String> {
        let t0 = Instant::now();
        let start = self.room_progress();
        loop {
            let now = self.room_progress();
            let stuck: Vec<&String> = start.keys().filter(|r| now[*r] < start[*r] + 3).collect();
            if stuck.is_empty() {
                return Ok(t0.elapsed());
            }
            if t0.elapsed() > within {
                let mut why = String::new();
                for p in self.players.iter().filter(|p| stuck.contains(&&p.room)) {
                    let s = p.state.lock().unwrap();
                    why += &format!(
                        "\n  {} in {}: connected {} at {:?}, last error {:?}, last closes {:?}; last table: {}; last notes: {:?}",
                        s.name,
                        s.room,
                        s.connected,
                        s.path,
                        s.last_error,
                        s.closes.iter().rev().take(2).map(|c| &c.1).collect::<Vec<_>>(),
                        s.last_table,
                        s.notes.iter().rev().take(2).collect::<Vec<_>>()
                    );
                }
                for n in &self.nodes {
                    why += &format!("\n--- {} ---\n{}", n.id, n.log_tail(15));
                }
                let stuck_ids: Vec<RoomPlan> = stuck
                    .iter()
                    .map(|r| RoomPlan { id: (*r).clone(), game: String::new(), people: vec![], bots: 0 })
                    .collect();
                why += &format!("\n--- owners ---\n{:?}", owners(&self.pg.url, &stuck_ids).await);
                why += &format!("\n--- PostgreSQL sessions not idle ---\n{}", activity(&self.pg.url).await);
                return Err(format!("{what}: rooms {stuck:?} did not play again within {within:?}:{why}"));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Pauses play, checks every room, resumes.
    pub async fn check(&self, ctl: &Ctl, plans: &[RoomPlan]) -> Result<Totals, String> {
        ctl.pause(true);
        tokio::time::sleep(Duration::from_millis(400)).await;
        let t = super::check_rooms(&self.pg.url, plans, &self.players).await;
        ctl.pause(false);
        t
    }

    /// Joins by name after the room forgot a member dropped in the lobby.
    pub fn lobby_rejoins(&self) -> u32 {
        self.players.iter().map(|p| p.state.lock().unwrap().lobby_rejoins).sum()
    }

    /// Refusals players met on their way to a room: lookups answered `503 moving` by a node,
    /// the proxy's own JSON refusals, and every refusal that was not JSON (an HTML page).
    pub fn refusals(&self) -> (u32, u32, Vec<String>) {
        let (mut moving, mut proxy, mut html) = (0, 0, Vec::new());
        for p in &self.players {
            let s = p.state.lock().unwrap();
            moving += s.moving;
            proxy += s.proxy_json;
            html.extend(s.html.iter().map(|h| format!("{}: {h}", s.name)));
        }
        (moving, proxy, html)
    }

    /// Connections players saw end, and how many of them with 4001 "moved".
    pub fn closes(&self) -> (usize, usize) {
        let mut all = 0;
        let mut moved = 0;
        for p in &self.players {
            let s = p.state.lock().unwrap();
            all += s.closes.len();
            moved += s.closes.iter().filter(|c| c.1.starts_with("4001")).count();
        }
        (all, moved)
    }

    /// The running node owning most rooms (and which rooms), skipping `not`.
    pub async fn busiest(&self, plans: &[RoomPlan], not: &[usize]) -> Result<(usize, Vec<String>), String> {
        let own = owners(&self.pg.url, plans).await?;
        let mut best: Option<(usize, Vec<String>)> = None;
        for (k, n) in self.nodes.iter().enumerate() {
            if not.contains(&k) || !n.running() {
                continue;
            }
            let rooms: Vec<String> =
                own.iter().filter(|(_, (o, _))| o.as_deref() == Some(n.id.as_str())).map(|(r, _)| r.clone()).collect();
            if best.as_ref().is_none_or(|b| rooms.len() > b.1.len()) {
                best = Some((k, rooms));
            }
        }
        best.ok_or_else(|| "no running node".into())
    }

    /// Waits until none of `rooms` is owned by node `k` any more.
    pub async fn moved_off(
        &self,
        plans: &[RoomPlan],
        k: usize,
        rooms: &[String],
        within: Duration,
    ) -> Result<(), String> {
        let id = self.nodes[k].id.as_str();
        let t0 = Instant::now();
        loop {
            let own = owners(&self.pg.url, plans).await?;
            if rooms.iter().all(|r| own.get(r).is_some_and(|o| o.0.as_deref() != Some(id))) {
                return Ok(());
            }
            if t0.elapsed() > within {
                return Err(format!("rooms of {id} not claimed by others within {within:?}: {own:?}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn restart(&mut self, k: usize) -> Result<(), String> {
        self.nodes[k].start();
        self.nodes[k].wait_ready(Duration::from_secs(30)).await
    }

    /// CPU ticks of every node, HAProxy and PostgreSQL (postmaster with its children) now.
    pub fn cpu(&self) -> Cpu {
        Cpu {
            nodes: self.nodes.iter().map(Node::cpu_ticks).sum(),
            proxy: self.proxy.as_ref().map_or(0, |p| super::cpu_ticks(p.pid(), false)),
            pg: self.pg.postmaster_pid().map_or(0, super::pg_cpu_ticks),
        }
    }

    /// Moves stored in the database (the running matches' and the finished ones').
    pub async fn stored_moves(&self) -> Result<i64, String> {
        let (db, conn) =
            tokio_postgres::connect(&self.pg.url, tokio_postgres::NoTls).await.map_err(|e| e.to_string())?;
        let task = tokio::spawn(conn);
        let row = db
            .query_one(
                "SELECT (SELECT count(*) FROM moves) + (SELECT coalesce(sum(json_array_length(log::json)), 0) FROM matches)::bigint",
                &[],
            )
            .await
            .map_err(|e| e.to_string())?;
        drop(db);
        let _ = task.await;
        Ok(row.get(0))
    }
}
