//! `cardtable serve`: the game server. Every flag may also be set by its `CARDTABLE_*`
//! environment variable or in a configuration file (`--config`): see `config`.

use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use tracing::Instrument;

/// How the log is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Lines for a person (coloured at a terminal).
    Human,
    /// One JSON object a line (a log collector's), with the room's and the node's ids as
    /// fields of the span they happen in.
    Json,
}

#[derive(Args)]
pub struct ServeArgs {
    /// A TOML file of settings, each key a flag's long name (`max-conns = 5000`, `lan = true`,
    /// `allow-origin = ["https://cards.example"]`). A flag on the command line wins over its
    /// CARDTABLE_* environment variable, which wins over the file. An unknown key is an error.
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// Print the settings in effect (each with where it came from; passwords masked) as a
    /// configuration file, and exit.
    #[arg(long)]
    print_config: bool,
    /// Serve `GET /metrics` (Prometheus) on this address instead of on --addr: an address
    /// only the monitoring reaches, such as 127.0.0.1:9464.
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    metrics_addr: Option<SocketAddr>,
    /// Record no metrics and serve no `GET /metrics` (not with --metrics-addr).
    #[arg(long)]
    no_metrics: bool,
    /// How the log on standard error is written: `human` lines, or `json`, one object a line.
    /// Which lines: RUST_LOG (`warn`; `info,server::room=debug`; default `info`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Human)]
    log_format: LogFormat,
    /// Address to listen on, `IP:PORT` or `HOST:PORT` (`localhost:7878`: the host name is
    /// looked up); port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = parse_addr)]
    addr: SocketAddr,
    /// Where rooms and finished matches live: a SQLite file (created if missing; `:memory:`
    /// keeps nothing), or a PostgreSQL URL (`postgres://user@host/dbname`).
    #[arg(long, default_value = "cardtable.db")]
    db: store::Location,
    /// Listen on every network interface (port from --addr) and print the addresses friends
    /// on the local network can open.
    #[arg(long)]
    lan: bool,
    /// Threads that run rooms and connections (0: one per CPU this process may use). With one,
    /// the server runs on a single-threaded scheduler, which costs less per move.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Packets a second each connection may send, bursts of twice that (at least 20).
    #[arg(long, default_value_t = 20.0)]
    rate_limit: f64,
    /// Bytes of packets queued for one WebSocket before its client counts as not reading and
    /// is disconnected (its seat is held as for any drop).
    #[arg(long, default_value_t = server::limits::Limits::default().queue_bytes)]
    queue_bytes: usize,
    /// Seconds a client has to send a request's headers; a kept-alive connection idle this
    /// long is closed too.
    #[arg(long, default_value_t = 10.0)]
    header_timeout: f64,
    /// Seconds a client has to send a request's body.
    #[arg(long, default_value_t = 10.0)]
    body_timeout: f64,
    /// Open connections allowed from one address (0: no cap). Every address is capped,
    /// loopback included, except a --trusted-proxy's.
    #[arg(long, default_value_t = server::limits::Limits::default().conns_per_addr)]
    max_conns_per_addr: usize,
    /// Open connections allowed in all (0: as many as the descriptor limit allows); never
    /// more than the process's file descriptor limit allows with a reserve kept back (for the
    /// database, the listener and a health check): the limit and the cap are logged at start.
    #[arg(long, default_value_t = server::limits::Limits::default().conns)]
    max_conns: usize,
    /// A reverse proxy (its IP address) whose X-Forwarded-For is believed: requests through
    /// it count against the client address it forwards, and its own connections are not
    /// capped per address. Repeat for several. From any other peer the header is ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Let POST /api/rooms choose the seed (tests, tournaments). Whoever picks a seed can
    /// replay the deal and see every hidden card: without this flag a seed is refused (400),
    /// and with it such a room is marked seeded to its members and in the lobby.
    #[arg(long)]
    allow_seeded_rooms: bool,
    /// Let `POST /api/rooms` start a room from a position (`setup`: the game's setup notation,
    /// docs/setups/; puzzles, bug reports). Off by default: whoever wrote the position knows
    /// every card; with it such a room is marked seeded to its members and in the lobby.
    #[arg(long)]
    allow_setup_rooms: bool,
    /// Lookups of room ids that do not exist one address may make in any minute (0: no cap).
    /// Past it every room lookup from the address gets HTTP 429 for a while.
    #[arg(long, default_value_t = server::limits::Limits::default().lookup_misses_per_minute_per_addr)]
    max_lookup_misses_per_minute_per_addr: usize,
    /// A page origin (`https://cards.example`) allowed, besides the server's own, to open
    /// rooms' WebSockets and create rooms; repeat for several.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origins: Vec<String>,
    /// Mark session cookies `Secure` always (the server is reached over HTTPS through a proxy
    /// that does not send `X-Forwarded-Proto`); without it a cookie is `Secure` when the page
    /// that asked for it came over HTTPS.
    #[arg(long)]
    secure_cookies: bool,
    /// Identities (guests, and sign-ups without one) one address may make in any hour (0: no
    /// cap). Past it: HTTP 429.
    #[arg(long, default_value_t = server::limits::Limits::default().accounts_per_hour_per_addr)]
    max_accounts_per_hour_per_addr: usize,
    /// Seconds a room lives on with nobody connected (a link just shared, a page reloading)
    /// before it closes; a running game whose people have all been gone this long ends as
    /// abandoned (recorded with its log).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    empty_room_ttl: f64,
    /// Seconds quick play looks for people before it fills a table's empty seats with the
    /// bots nearest its rating (0: bots at once).
    #[arg(long, value_name = "SECONDS", default_value_t = 15.0)]
    quickplay_wait: f64,
    /// The bots' delay before each move at quick-play tables, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 700)]
    quickplay_bot_delay_ms: u64,
    /// Placement: a person's first N rated games of a game, when they quick-play alone, are
    /// against the bot nearest their rating, at once, so that their rating starts on the
    /// bots' scale (0: meet people from the first game).
    #[arg(long, value_name = "N", default_value_t = server::limits::PLACEMENT_GAMES)]
    quickplay_placement: u32,
    /// Let people hand their seat to a bot (the `Autopilot` packet): simulated people of known
    /// strength for `cardtable population`. Never on a real server (a person's rating would be
    /// a bot's).
    #[arg(long)]
    allow_autopilot: bool,
    /// Rooms one address may create in any minute (0: no cap). Past it: HTTP 429.
    #[arg(long, default_value_t = server::limits::Limits::default().rooms_per_minute_per_addr)]
    max_rooms_per_minute_per_addr: usize,
    /// Live rooms one address may have created (0: no cap). Past it: HTTP 429.
    #[arg(long, default_value_t = server::limits::Limits::default().rooms_per_addr)]
    max_rooms_per_addr: usize,
    /// Live rooms in all (0: no cap). Past it: HTTP 503.
    #[arg(long, default_value_t = server::limits::Limits::default().rooms)]
    max_rooms: usize,
    /// Room WebSockets open from one address (0: no cap). Past it the socket is closed at
    /// once (code 1013) with the reason.
    #[arg(long, default_value_t = server::limits::Limits::default().sockets_per_addr)]
    max_sockets_per_addr: usize,
    /// Room WebSockets open in all (0: no cap). Past it: closed at once (code 1013).
    #[arg(long, default_value_t = server::limits::Limits::default().sockets)]
    max_sockets: usize,
    /// Run as node ID of a cluster: several servers on one PostgreSQL (--db postgres://…)
    /// behind a proxy. Each start registers a new incarnation of the node; rooms of a node
    /// gone silent are taken over by the others. Without it: one server (node `local`).
    #[arg(long, value_name = "ID", value_parser = parse_node_id)]
    node_id: Option<String>,
    /// The path prefix the proxy routes to this node (`/n/n1`): `GET /api/rooms/{id}` tells
    /// clients to connect to a room's WebSocket under its owner's prefix.
    #[arg(long, value_name = "PREFIX", default_value = "", requires = "node_id")]
    advertise: String,
    /// Milliseconds between a node's heartbeats (each refreshes its row and learns which rooms
    /// it still owns, then claims orphaned rooms).
    #[arg(long, value_name = "MS", default_value_t = 1000, requires = "node_id",
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    heartbeat_ms: u64,
    /// Milliseconds after which a node whose heartbeat is that old (by PostgreSQL's clock)
    /// counts as gone, and its rooms are taken over.
    #[arg(long, value_name = "MS", default_value_t = 3000, requires = "node_id",
          value_parser = clap::value_parser!(u64).range(30..=600_000))]
    node_ttl_ms: u64,
}

impl ServeArgs {
    /// `--print-config`: print the settings (`config`), start nothing.
    pub fn print_config(&self) -> bool {
        self.print_config
    }
}

/// `--node-id`: 1-64 letters, digits, `-` or `_` (it is in logs, rows and proxy paths).
fn parse_node_id(s: &str) -> Result<String, String> {
    let ok = !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok { Ok(s.to_string()) } else { Err(format!("`{s}`: a node id is 1-64 letters, digits, `-` or `_`")) }
}

/// `--addr`: an address (`127.0.0.1:7878`, `[::1]:7878`), or a host name and port
/// (`localhost:7878`) looked up once, its first IPv4 address preferred (`localhost` is then
/// 127.0.0.1 wherever it also names ::1). A value that is neither says what to write.
fn parse_addr(s: &str) -> Result<SocketAddr, String> {
    if let Ok(a) = s.parse() {
        return Ok(a);
    }
    let Some((host, port)) = s.rsplit_once(':').filter(|(h, _)| !h.is_empty()) else {
        return Err(format!("`{s}` is not HOST:PORT; write an address and a port, like 127.0.0.1:7878"));
    };
    if port.parse::<u16>().is_err() {
        return Err(format!("`{port}` is not a port (0 to 65535); write an address and a port, like 127.0.0.1:7878"));
    }
    let found: Vec<SocketAddr> = std::net::ToSocketAddrs::to_socket_addrs(s)
        .map_err(|e| format!("cannot look up `{host}` ({e}); write an address and a port, like 127.0.0.1:7878"))?
        .collect();
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| format!("`{host}` has no address; write an address and a port, like 127.0.0.1:7878"))
}

/// The log's filter without RUST_LOG. The migration library's "Database migrated to version N"
/// at every start is noise: warnings only from it.
const DEFAULT_LOG: &str = "info,tower=warn,hyper=warn,rusqlite_migration=warn";

fn init_log(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| DEFAULT_LOG.into());
    let log = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        // Colour codes only for a person at a terminal: a log file or a pipe gets plain text.
        LogFormat::Human => log.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())).init(),
        // The event's fields beside its message, and the fields of the span it happened in
        // (`room`: its id, game and node; `node`: the node's id) under `span`.
        LogFormat::Json => log.json().flatten_event(true).with_current_span(true).with_span_list(false).init(),
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    init_log(args.log_format);
    // Each connection is a file descriptor: allow as many as the system lets us.
    let nofile = rlimit::increase_nofile_limit(u64::MAX).ok();
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // One thread needs no work stealing: a current-thread scheduler wakes a task without the
    // cross-thread bookkeeping (the store and blocking work keep their own threads either way).
    let rt = if threads == 1 {
        tokio::runtime::Builder::new_current_thread().enable_all().build()?
    } else {
        tokio::runtime::Builder::new_multi_thread().worker_threads(threads).enable_all().build()?
    };
    // The node's id on what the server logs outside its rooms (theirs carry it too): always in
    // JSON, and in a cluster; a lone server's human lines stay as they were.
    let span = if args.node_id.is_some() || args.log_format == LogFormat::Json {
        tracing::info_span!("node", node = %args.node_id.as_deref().unwrap_or(server::node::LOCAL))
    } else {
        tracing::Span::none()
    };
    rt.block_on(serve(args, nofile).instrument(span))
}

/// A timeout flag in seconds (at least a millisecond, at most a day).
fn seconds(s: f64) -> std::time::Duration {
    std::time::Duration::from_secs_f64(if s.is_finite() { s.clamp(0.001, 86_400.0) } else { 86_400.0 })
}

async fn serve(args: ServeArgs, nofile: Option<u64>) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.config {
        tracing::info!(file = %path.display(), "settings read from the configuration file");
    }
    if args.no_metrics && args.metrics_addr.is_some() {
        anyhow::bail!("--no-metrics serves no metrics: leave out --metrics-addr, or --no-metrics");
    }
    // Before any room is built (rooms take their metrics' handles when they are).
    let metrics = (!args.no_metrics).then(server::metrics::install);
    // The global cap stays under the descriptor limit (with a reserve for the database, the
    // listener, refusals and a health check), so that the server refuses with a 503 rather
    // than failing to accept.
    let mut max_conns = args.max_conns;
    match nofile {
        Some(n) => {
            let room = server::limits::conns_for_nofile(n);
            max_conns = if max_conns == 0 { room } else { max_conns.min(room) };
            tracing::info!(
                "file descriptor limit {n}: at most {max_conns} connections ({} kept back)",
                n.saturating_sub(room as u64)
            );
        }
        None => tracing::warn!("the file descriptor limit could not be read: connections capped at {max_conns} only"),
    }
    if !args.trusted_proxies.is_empty() {
        tracing::info!("trusted proxies (their X-Forwarded-For counts): {:?}", args.trusted_proxies);
    }
    if args.allow_seeded_rooms {
        tracing::warn!("rooms may be created with a chosen seed (--allow-seeded-rooms): they are marked seeded");
    }
    if args.allow_setup_rooms {
        tracing::warn!("rooms may start from a position (--allow-setup-rooms): they are marked seeded");
    }
    let limits = server::limits::Limits {
        queue_bytes: args.queue_bytes.max(1),
        header_timeout: seconds(args.header_timeout),
        body_timeout: seconds(args.body_timeout),
        conns_per_addr: args.max_conns_per_addr,
        conns: max_conns,
        trusted_proxies: args.trusted_proxies,
        allow_seeded_rooms: args.allow_seeded_rooms,
        allow_setup_rooms: args.allow_setup_rooms,
        lookup_misses_per_minute_per_addr: args.max_lookup_misses_per_minute_per_addr,
        allow_origins: args.allow_origins,
        secure_cookies: args.secure_cookies,
        accounts_per_hour_per_addr: args.max_accounts_per_hour_per_addr,
        rooms_per_minute_per_addr: args.max_rooms_per_minute_per_addr,
        rooms_per_addr: args.max_rooms_per_addr,
        rooms: args.max_rooms,
        sockets_per_addr: args.max_sockets_per_addr,
        sockets: args.max_sockets,
        empty_room_ttl: seconds(args.empty_room_ttl),
        quickplay_wait: seconds(args.quickplay_wait),
        quickplay_bot_delay_ms: args.quickplay_bot_delay_ms.min(server::room::MAX_BOT_DELAY_MS),
        quickplay_placement: args.quickplay_placement,
        allow_autopilot: args.allow_autopilot,
        ..Default::default()
    };
    let addr = if args.lan { SocketAddr::from(([0, 0, 0, 0], args.addr.port())) } else { args.addr };
    let node_config = match (&args.node_id, &args.db) {
        (None, _) => None,
        (Some(id), store::Location::Postgres(_)) => {
            let mut c = server::node::NodeConfig::new(id, &args.advertise);
            c.heartbeat = std::time::Duration::from_millis(args.heartbeat_ms);
            c.ttl = std::time::Duration::from_millis(args.node_ttl_ms);
            if c.ttl <= c.heartbeat {
                anyhow::bail!(
                    "--node-ttl-ms ({}) must be longer than --heartbeat-ms ({}): a node would count as gone between two of its heartbeats",
                    args.node_ttl_ms,
                    args.heartbeat_ms
                );
            }
            Some(c)
        }
        (Some(_), store::Location::Sqlite(_)) => anyhow::bail!(
            "--node-id makes this server one node of several sharing one PostgreSQL: give --db a PostgreSQL URL \
             (postgres://user@host/dbname); a SQLite file belongs to one server"
        ),
    };
    // The server keeps its database to itself (no file locks per commit; a second server on
    // the same file is refused rather than running the same rooms twice).
    let opened = match (&node_config, &args.db) {
        (Some(c), store::Location::Postgres(url)) => store::Store::connect_node(url, &c.id).await,
        _ => store::Store::open_location(&args.db, true).await,
    };
    let store = opened.map_err(|e| match e {
        store::StoreError::InUse(_) => anyhow::anyhow!("{e}: stop that server first, or give this one its own --db"),
        e => anyhow::anyhow!("cannot open {}: {e}", args.db),
    })?;
    let node = match node_config {
        Some(c) => Some(
            server::node::Node::register(&store, c)
                .await
                .map_err(|e| anyhow::anyhow!("cannot register the node on {}: {e}", args.db))?,
        ),
        None => None,
    };
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let metrics_listener = match args.metrics_addr {
        Some(a) => Some(
            tokio::net::TcpListener::bind(a)
                .await
                .map_err(|e| anyhow::anyhow!("cannot listen on {a} (--metrics-addr): {e}"))?,
        ),
        None => None,
    };
    let metrics_local = metrics_listener.as_ref().map(|l| l.local_addr()).transpose()?;
    let local = listener.local_addr()?;
    let shown = if local.ip().is_unspecified() { SocketAddr::from(([127, 0, 0, 1], local.port())) } else { local };
    // Tests and scripts read the first line to find the port. Output errors (a closed pipe)
    // must not stop the server.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "cardtable serving on http://{shown}/  (database: {})", args.db);
    if let Some(node) = &node {
        // Scripts and tests read this line: the node, its incarnation, its address.
        let _ = writeln!(out, "cardtable node {} incarnation {} listening on {shown}", node.id(), node.incarnation);
    }
    if args.lan {
        for iface in if_addrs::get_if_addrs().unwrap_or_default() {
            if !iface.is_loopback() && iface.ip().is_ipv4() {
                let _ = writeln!(out, "  on your network: http://{}:{}/  ({})", iface.ip(), local.port(), iface.name);
            }
        }
    }
    if let Some(m) = metrics_local {
        let _ = writeln!(out, "  metrics (Prometheus): http://{m}/metrics");
    }
    let _ = writeln!(out, "Open the address in a browser to create or join a room. Ctrl-C stops the server.");
    let _ = out.flush();
    drop(out);
    let json = args.log_format == LogFormat::Json;
    let shutdown = async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
            tokio::select! {
                _ = ctrl_c => {},
                _ = term.recv() => {},
            }
        }
        #[cfg(not(unix))]
        let _ = ctrl_c.await;
        // In JSON, a line like every other (a log collector reads one object a line).
        if json {
            tracing::info!("shutting down");
        } else {
            let _ = writeln!(std::io::stderr(), "shutting down");
        }
    };
    let config = server::ServerConfig {
        rate_limit: args.rate_limit,
        limits,
        node,
        metrics,
        metrics_listener,
        ..server::ServerConfig::new(store)
    };
    server::run(listener, config, shutdown).await?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_addr;

    #[test]
    fn addr_takes_an_address_or_a_host_name_and_says_what_to_write_otherwise() {
        assert_eq!(parse_addr("127.0.0.1:7899").unwrap().to_string(), "127.0.0.1:7899");
        assert_eq!(parse_addr("[::1]:7899").unwrap().to_string(), "[::1]:7899");
        let local = parse_addr("localhost:7899").unwrap();
        assert!(local.ip().is_loopback() && local.port() == 7899, "{local}");
        for bad in ["localhost", "localhost:http", ":7899", "localhost:99999"] {
            let e = parse_addr(bad).unwrap_err();
            assert!(e.contains("like 127.0.0.1:7878"), "{bad}: {e}");
        }
    }
}
