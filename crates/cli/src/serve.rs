//! `cardtable serve`: the game server.

use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
    addr: SocketAddr,
    /// SQLite database file for rooms and finished matches (created if missing;
    /// `:memory:` keeps nothing).
    #[arg(long, default_value = "cardtable.db")]
    db: PathBuf,
    /// Listen on every network interface (port from --addr) and print the addresses friends
    /// on the local network can open.
    #[arg(long)]
    lan: bool,
    /// Packets a second each connection may send, bursts of twice that (at least 20).
    #[arg(long, default_value_t = 20.0)]
    rate_limit: f64,
    /// Bytes of packets queued for one WebSocket before its client counts as not reading and
    /// is disconnected (its seat is held as for any drop).
    #[arg(long, default_value_t = server::limits::Limits::default().queue_bytes)]
    queue_bytes: usize,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,tower=warn,hyper=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    // Each connection is a file descriptor: allow as many as the system lets us.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(serve(args))
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let addr = if args.lan { SocketAddr::from(([0, 0, 0, 0], args.addr.port())) } else { args.addr };
    let store = store::Store::open(&args.db).map_err(|e| anyhow::anyhow!("cannot open {}: {e}", args.db.display()))?;
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    let shown = if local.ip().is_unspecified() { SocketAddr::from(([127, 0, 0, 1], local.port())) } else { local };
    // Tests and scripts read the first line to find the port. Output errors (a closed pipe)
    // must not stop the server.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "cardtable serving on http://{shown}/  (database: {})", args.db.display());
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
    let limits = server::limits::Limits { queue_bytes: args.queue_bytes.max(1), ..Default::default() };
    let config = server::ServerConfig { rate_limit: args.rate_limit, limits, ..server::ServerConfig::new(store) };
    server::run(listener, config, shutdown).await?;
    Ok(ExitCode::SUCCESS)
}
