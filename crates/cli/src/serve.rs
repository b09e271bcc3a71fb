//! `cardtable serve`: the game server.

use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
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
    /// Open connections allowed from one address (0: no cap). Loopback clients are not
    /// capped per address (a reverse proxy on this machine).
    #[arg(long, default_value_t = server::limits::Limits::default().conns_per_addr)]
    max_conns_per_addr: usize,
    /// Open connections allowed in all (0: no cap); never more than the process's
    /// file descriptor limit allows.
    #[arg(long, default_value_t = server::limits::Limits::default().conns)]
    max_conns: usize,
    /// A page origin (`https://cards.example`) allowed, besides the server's own, to open
    /// rooms' WebSockets and create rooms; repeat for several.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origins: Vec<String>,
    /// Seconds a room lives on with nobody connected (a link just shared, a page reloading)
    /// before it closes; a running game whose people have all been gone this long ends as
    /// abandoned (recorded with its log).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    empty_room_ttl: f64,
    /// Rooms one address may create in any minute (0: no cap; loopback is not capped per
    /// address). Past it: HTTP 429.
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
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,tower=warn,hyper=warn".into()),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a person at a terminal: a log file or a pipe gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
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
    rt.block_on(serve(args, nofile))
}

/// A timeout flag in seconds (at least a millisecond, at most a day).
fn seconds(s: f64) -> std::time::Duration {
    std::time::Duration::from_secs_f64(if s.is_finite() { s.clamp(0.001, 86_400.0) } else { 86_400.0 })
}

async fn serve(args: ServeArgs, nofile: Option<u64>) -> anyhow::Result<ExitCode> {
    // The global cap stays under the descriptor limit (with room for the database and the
    // listener), so that the server refuses with a 503 rather than failing to accept.
    let mut max_conns = args.max_conns;
    if let Some(n) = nofile {
        let room = usize::try_from(n.saturating_sub(64)).unwrap_or(usize::MAX).max(1);
        max_conns = if max_conns == 0 { room } else { max_conns.min(room) };
    }
    let limits = server::limits::Limits {
        queue_bytes: args.queue_bytes.max(1),
        header_timeout: seconds(args.header_timeout),
        body_timeout: seconds(args.body_timeout),
        conns_per_addr: args.max_conns_per_addr,
        conns: max_conns,
        allow_origins: args.allow_origins,
        rooms_per_minute_per_addr: args.max_rooms_per_minute_per_addr,
        rooms_per_addr: args.max_rooms_per_addr,
        rooms: args.max_rooms,
        sockets_per_addr: args.max_sockets_per_addr,
        sockets: args.max_sockets,
        empty_room_ttl: seconds(args.empty_room_ttl),
        ..Default::default()
    };
    let addr = if args.lan { SocketAddr::from(([0, 0, 0, 0], args.addr.port())) } else { args.addr };
    // The server keeps its database to itself (no file locks per commit; a second server on
    // the same file is refused rather than running the same rooms twice).
    let store = store::Store::open_location(&args.db, true).await.map_err(|e| match e {
        store::StoreError::InUse(_) => anyhow::anyhow!("{e}: stop that server first, or give this one its own --db"),
        e => anyhow::anyhow!("cannot open {}: {e}", args.db),
    })?;
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    let shown = if local.ip().is_unspecified() { SocketAddr::from(([127, 0, 0, 1], local.port())) } else { local };
    // Tests and scripts read the first line to find the port. Output errors (a closed pipe)
    // must not stop the server.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "cardtable serving on http://{shown}/  (database: {})", args.db);
    if args.lan {
        for iface in if_addrs::get_if_addrs().unwrap_or_default() {
            if !iface.is_loopback() && iface.ip().is_ipv4() {
                let _ = writeln!(out, "  on your network: http://{}:{}/  ({})", iface.ip(), local.port(), iface.name);
            }
        }
    }
    let _ = writeln!(out, "Open the address in a browser to create or join a room. Ctrl-C stops the server.");
    let _ = out.flush();
    drop(out);
    let shutdown = async {
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
        let _ = writeln!(std::io::stderr(), "shutting down");
    };
    let config = server::ServerConfig { rate_limit: args.rate_limit, limits, ..server::ServerConfig::new(store) };
    server::run(listener, config, shutdown).await?;
    Ok(ExitCode::SUCCESS)
}
