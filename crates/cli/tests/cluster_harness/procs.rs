//! The cluster's processes: PostgreSQL, the nodes, HAProxy, and the per-node forwarders to
//! PostgreSQL. Each is stopped by its `Drop`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

const PG_BIN: &str = "/usr/lib/postgresql/15/bin";

/// A directory removed (with everything in it) when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("cardtable-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("make a temporary directory");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("CARDTABLE_KEEP_CLUSTER_DIR").is_some() {
            eprintln!("cluster: kept {}", self.0.display());
            return;
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A port nothing listens on now (the OS's pick; released at once).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0").local_addr().unwrap().port()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// `cmd` as the `postgres` user when we are root (initdb and the server refuse root).
fn as_pg(prog: &str) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", prog]);
        c
    } else {
        Command::new(prog)
    }
}

async fn pg_exec(url: &str, sql: &str) -> Result<(), String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.map_err(|e| format!("{e}"))?;
    let task = tokio::spawn(conn);
    // One statement at a time: CREATE and DROP DATABASE refuse to run inside a batch's
    // transaction.
    let mut r = Ok(());
    for stmt in sql.split(';') {
        if let Err(e) = client.batch_execute(stmt).await {
            r = Err(format!("{stmt}: {}", e.as_db_error().map_or_else(|| e.to_string(), |d| d.message().to_string())));
            break;
        }
    }
    drop(client);
    let _ = task.await;
    r
}

/// Where the cluster's PostgreSQL lives.
enum PgKind {
    /// A server of our own in a temporary directory (`initdb`): restartable at will.
    Own { dir: PathBuf, _tmp: TempDir },
    /// A fresh database on someone else's server (`CARDTABLE_TEST_PG`), dropped at the end;
    /// restartable only through `CARDTABLE_PG_CTL` (scripts/pg.sh's control script).
    External { admin_url: String, ctl: Option<String>, pg_dir: Option<PathBuf> },
}

pub struct Pg {
    kind: PgKind,
    /// The cluster's database.
    pub url: String,
    pub port: u16,
    db: String,
}

impl Pg {
    /// Whether this machine can start a PostgreSQL 15 of its own.
    pub fn can_own() -> bool {
        Path::new(PG_BIN).join("initdb").exists()
    }

    /// A PostgreSQL 15 of our own: initdb in a temporary directory, a free loopback port.
    pub fn own() -> Result<Pg, String> {
        let tmp = TempDir::new("cluster-pg");
        let dir = tmp.path().to_path_buf();
        if is_root() {
            let _ = Command::new("chown").args(["postgres:", dir.to_str().unwrap()]).status();
        }
        let data = dir.join("data");
        let out = as_pg(&format!("{PG_BIN}/initdb"))
            .args(["-D", data.to_str().unwrap(), "-U", "postgres", "-A", "trust", "-E", "UTF8"])
            .output()
            .map_err(|e| format!("initdb: {e}"))?;
        if !out.status.success() {
            return Err(format!("initdb failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let port = free_port();
        let conf = format!(
            "\nlisten_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = '{}'\nmax_connections = 200\nshared_buffers = 64MB\n",
            dir.display()
        );
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .open(data.join("postgresql.conf"))
            .and_then(|mut f| f.write_all(conf.as_bytes()))
            .map_err(|e| format!("postgresql.conf: {e}"))?;
        let pg = Pg {
            kind: PgKind::Own { dir: dir.clone(), _tmp: tmp },
            url: format!("postgres://postgres@127.0.0.1:{port}/cardtable"),
            port,
            db: "cardtable".into(),
        };
        pg.ctl("start")?;
        let out = as_pg(&format!("{PG_BIN}/createdb"))
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", "postgres", "cardtable"])
            .output()
            .map_err(|e| format!("createdb: {e}"))?;
        if !out.status.success() {
            return Err(format!("createdb failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        Ok(pg)
    }

    /// A fresh database on the server at `admin_url` (dropped when this is dropped).
    pub async fn external(admin_url: &str, ctl: Option<String>) -> Result<Pg, String> {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let db = format!("cluster_{}_{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        pg_exec(admin_url, &format!("DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}")).await?;
        let (base, _) = admin_url.rsplit_once('/').ok_or("CARDTABLE_TEST_PG has no /database")?;
        let (base, query) = match admin_url.split_once('?') {
            Some((_, q)) => (base, format!("?{q}")),
            None => (base, String::new()),
        };
        let port = base.rsplit_once(':').and_then(|(_, p)| p.parse().ok()).unwrap_or(5432);
        Ok(Pg {
            kind: PgKind::External {
                admin_url: admin_url.to_string(),
                ctl,
                pg_dir: std::env::var_os("CARDTABLE_PG_DIR").map(PathBuf::from),
            },
            url: format!("{base}/{db}{query}"),
            port,
            db,
        })
    }

    fn ctl(&self, what: &str) -> Result<(), String> {
        let status = match &self.kind {
            PgKind::Own { dir, .. } => as_pg(&format!("{PG_BIN}/pg_ctl"))
                .args(["-D", dir.join("data").to_str().unwrap(), "-l", dir.join("log").to_str().unwrap()])
                .args(["-w", "-t", "30", what, "-m", if what == "stop" { "immediate" } else { "fast" }])
                .stdout(Stdio::null())
                .status(),
            PgKind::External { ctl: Some(ctl), .. } => Command::new(ctl).arg(what).stdout(Stdio::null()).status(),
            PgKind::External { ctl: None, .. } => return Err("no CARDTABLE_PG_CTL: cannot restart PostgreSQL".into()),
        };
        match status {
            Ok(s) if s.success() => Ok(()),
            other => Err(format!("pg_ctl {what}: {other:?}")),
        }
    }

    /// Whether [`Pg::restart`] can work (our own server, or scripts/pg.sh's control script).
    pub fn can_restart(&self) -> bool {
        !matches!(self.kind, PgKind::External { ctl: None, .. })
    }

    /// Stops PostgreSQL (fast: sessions cut), waits `down`, and starts it again.
    pub fn restart(&self, down: Duration) -> Result<(), String> {
        match &self.kind {
            PgKind::Own { dir, .. } => {
                as_pg(&format!("{PG_BIN}/pg_ctl"))
                    .args(["-D", dir.join("data").to_str().unwrap(), "-w", "-t", "30", "stop", "-m", "fast"])
                    .stdout(Stdio::null())
                    .status()
                    .map_err(|e| e.to_string())?;
            }
            _ => self.ctl("stop")?,
        }
        std::thread::sleep(down);
        self.ctl("start")
    }

    /// The postmaster's pid (for its CPU), when we know its data directory.
    pub fn postmaster_pid(&self) -> Option<u32> {
        let data = match &self.kind {
            PgKind::Own { dir, .. } => dir.join("data"),
            PgKind::External { pg_dir: Some(d), .. } => d.join("data"),
            PgKind::External { .. } => return None,
        };
        std::fs::read_to_string(data.join("postmaster.pid")).ok()?.lines().next()?.trim().parse().ok()
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        match &self.kind {
            PgKind::Own { .. } => {
                let _ = self.ctl("stop");
            }
            PgKind::External { .. } if std::env::var_os("CARDTABLE_KEEP_CLUSTER_DIR").is_some() => {
                eprintln!("cluster: kept database {}", self.url);
            }
            PgKind::External { admin_url, .. } => {
                // Dropped from async code or not: a thread with a runtime of its own.
                let (url, db) = (admin_url.clone(), self.db.clone());
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
                    rt.block_on(pg_exec(&url, &format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))).ok()
                })
                .join();
            }
        }
    }
}

/// A TCP forwarder from a loopback port to PostgreSQL, owned by one node: `cut` makes it a
/// black hole (bytes in flight stay where they are, new connections hang) as a network
/// partition would, without root or namespaces; `heal` lets everything through again, the
/// held connections included (as TCP would once the partition heals).
pub struct Forwarder {
    pub port: u16,
    cut: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

async fn open(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|cut| !*cut).await;
}

async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut rx: watch::Receiver<bool>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        open(&mut rx).await;
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => {
                let _ = to.shutdown().await;
                return;
            }
            Ok(n) => n,
        };
        open(&mut rx).await;
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Forwarder {
    pub async fn start(upstream: SocketAddr) -> Forwarder {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a forwarder");
        let port = listener.local_addr().unwrap().port();
        let (cut, rx) = watch::channel(false);
        let task = tokio::spawn(async move {
            // Dropping the set (this task aborted) aborts every connection's task.
            let mut conns = tokio::task::JoinSet::new();
            loop {
                let Ok((client, _)) = listener.accept().await else { continue };
                while conns.try_join_next().is_some() {}
                let mut rx = rx.clone();
                conns.spawn(async move {
                    open(&mut rx).await;
                    let Ok(server) = TcpStream::connect(upstream).await else { return };
                    let _ = (client.set_nodelay(true), server.set_nodelay(true));
                    let (cr, cw) = client.into_split();
                    let (sr, sw) = server.into_split();
                    tokio::join!(pump(cr, sw, rx.clone()), pump(sr, cw, rx));
                });
            }
        });
        Forwarder { port, cut, task }
    }

    pub fn cut(&self) {
        self.cut.send_replace(true);
    }

    pub fn heal(&self) {
        self.cut.send_replace(false);
    }
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// How every node is started.
#[derive(Clone, Debug)]
pub struct NodeSettings {
    pub heartbeat_ms: u64,
    pub ttl_ms: u64,
    /// `--node-id` (a cluster node); false: today's single server on the same database.
    pub cluster: bool,
    /// `--threads` (0: the server's default).
    pub threads: usize,
}

/// One `cardtable serve` process on a fixed loopback port (the same port after a restart, as
/// HAProxy's configuration names it).
pub struct Node {
    pub id: String,
    pub port: u16,
    bin: PathBuf,
    db: String,
    settings: NodeSettings,
    log: PathBuf,
    child: Option<Child>,
    pub starts: u32,
}

impl Node {
    pub fn new(id: &str, bin: &Path, db: &str, settings: NodeSettings, dir: &Path) -> Node {
        Node {
            id: id.to_string(),
            port: free_port(),
            bin: bin.to_path_buf(),
            db: db.to_string(),
            settings,
            log: dir.join(format!("{id}.log")),
            child: None,
            starts: 0,
        }
    }

    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Starts the process (not waiting for it to serve: see [`Node::wait_ready`]).
    pub fn start(&mut self) {
        assert!(self.child.is_none(), "node {} runs already", self.id);
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).expect("a node log");
        let mut cmd = Command::new(&self.bin);
        cmd.args(["serve", "--db", &self.db, "--addr", &self.addr()]);
        if self.settings.cluster {
            cmd.args(["--node-id", &self.id, "--advertise", &format!("/n/{}", self.id)]);
            cmd.args(["--heartbeat-ms", &self.settings.heartbeat_ms.to_string()]);
            cmd.args(["--node-ttl-ms", &self.settings.ttl_ms.to_string()]);
        }
        if self.settings.threads > 0 {
            cmd.args(["--threads", &self.settings.threads.to_string()]);
        }
        // HAProxy connects from 127.0.0.2 (scripts/cluster.sh); every client is 127.0.0.1, so
        // the per-address caps are off and the packet rate high (machine-speed players).
        cmd.args([
            "--trusted-proxy",
            "127.0.0.2",
            "--rate-limit",
            "10000",
            "--empty-room-ttl",
            "3600",
            "--allow-seeded-rooms",
        ]);
        for cap in [
            "--max-conns-per-addr",
            "--max-rooms-per-minute-per-addr",
            "--max-rooms-per-addr",
            "--max-sockets-per-addr",
            "--max-lookup-misses-per-minute-per-addr",
        ] {
            cmd.args([cap, "0"]);
        }
        cmd.env("RUST_LOG", std::env::var("CARDTABLE_CLUSTER_LOG").unwrap_or_else(|_| "info".into()));
        let child =
            cmd.stdin(Stdio::null()).stdout(log.try_clone().unwrap()).stderr(log).spawn().expect("start a node");
        self.child = Some(child);
        self.starts += 1;
    }

    /// Waits until the node answers 200 on `/api/health`.
    pub async fn wait_ready(&mut self, within: Duration) -> Result<(), String> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(c) = self.child.as_mut()
                && let Ok(Some(status)) = c.try_wait()
            {
                return Err(format!("node {} exited: {status}\n{}", self.id, self.log_tail(30)));
            }
            if let Ok((200, _)) = super::http(&self.addr(), "GET", "/api/health", None).await {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err(format!("node {} not healthy within {within:?}\n{}", self.id, self.log_tail(30)))
    }

    pub fn log_tail(&self, lines: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    pub fn running(&self) -> bool {
        self.child.is_some()
    }

    fn signal(&self, sig: &str) {
        if let Some(pid) = self.pid() {
            let _ = Command::new("kill").args([&format!("-{sig}"), &pid.to_string()]).status();
        }
    }

    /// SIGKILL: nothing of the node's shutdown runs.
    pub fn kill9(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub fn sigstop(&self) {
        self.signal("STOP");
    }

    pub fn sigcont(&self) {
        self.signal("CONT");
    }

    /// SIGTERM (drain) and waits for the exit: its status, or `None` if it did not exit in
    /// `within` (then it is killed).
    pub async fn drain(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        self.signal("TERM");
        let deadline = Instant::now() + within;
        loop {
            let c = self.child.as_mut()?;
            if let Ok(Some(status)) = c.try_wait() {
                self.child = None;
                return Some(status);
            }
            if Instant::now() > deadline {
                self.kill9();
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn cpu_ticks(&self) -> u64 {
        self.pid().map_or(0, |p| super::cpu_ticks(p, false))
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // A stopped process dies of SIGKILL as well.
        self.kill9();
    }
}

/// HAProxy in front of the nodes, configured by `scripts/cluster.sh proxy-cfg`.
pub struct Haproxy {
    pub port: u16,
    child: Child,
    pub cfg: PathBuf,
    log: PathBuf,
}

impl Haproxy {
    /// Renders the configuration for `nodes` (id, loopback address) and starts HAProxy in the
    /// foreground (`-db`), as our child.
    pub fn start(nodes: &[(String, String)], dir: &Path) -> Result<Haproxy, String> {
        let port = free_port();
        let cfg = dir.join("haproxy.cfg");
        let script = super::repo_root().join("scripts/cluster.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg("proxy-cfg")
            .arg(port.to_string())
            .args(nodes.iter().map(|(id, addr)| format!("{id}={addr}")))
            .output()
            .map_err(|e| format!("{}: {e}", script.display()))?;
        if !out.status.success() || out.stdout.is_empty() {
            return Err(format!(
                "`scripts/cluster.sh proxy-cfg` did not print a configuration ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        std::fs::write(&cfg, &out.stdout).map_err(|e| e.to_string())?;
        let log = dir.join("haproxy.log");
        let logf = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let child = Command::new("haproxy")
            .args(["-db", "-f", cfg.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(logf.try_clone().unwrap())
            .stderr(logf)
            .spawn()
            .map_err(|e| format!("haproxy: {e}"))?;
        Ok(Haproxy { port, child, cfg, log })
    }

    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub async fn wait_ready(&mut self, within: Duration) -> Result<(), String> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                return Err(format!("haproxy exited: {status}\n{log}"));
            }
            if let Ok((200, _)) = super::http(&self.addr(), "GET", "/api/health", None).await {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err("haproxy did not answer /api/health with 200".into())
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
