//! The accept loop: hyper's HTTP/1 server on each accepted connection, with what
//! `axum::serve` cannot set: a header read timeout (which also ends kept-alive connections
//! that sit idle), caps on the connections open from one address and in all, and graceful
//! shutdown.
//!
//! A connection holds its [`Slot`] for as long as its socket lives: the slot travels inside
//! the socket (`Counted`), so a connection upgraded to a WebSocket keeps counting after
//! hyper hands the socket over. A connection over a cap gets `503` with a JSON reason and is
//! closed, except that past the cap in all a few connections are taken on for health checks
//! only ([`HEALTH_LANE`]): a monitor sees the server alive while every slot is taken.
//!
//! Connections are counted by their peer address: the accept loop has no request to read a
//! forwarded address from, so a configured trusted proxy's connections are capped in all
//! only (the requests they carry count against their forwarded clients: [`Limits::client_addr`]).

use crate::limits::{Limits, address_key};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// Headers on every HTTP answer: the page loads only its own files, no other site may frame
/// it, answers are taken as the type they say, and no address leaks to other sites.
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

/// How long a refused connection may take to receive its `503`.
const REFUSAL: Duration = Duration::from_secs(1);
/// Refusals in progress at once; past this a refused connection is closed without an answer
/// (someone opening connections that fast is not reading answers). Each holds a descriptor
/// for up to [`REFUSAL`]: they come out of [`crate::limits::RESERVED_FDS`].
const REFUSALS: usize = 32;

/// Connections taken on past the cap in all, for health checks only (see `serve_health_lane`),
/// at most [`HEALTH_LANE_PER_ADDR`] from one address. They come out of
/// [`crate::limits::RESERVED_FDS`], as refusals do.
pub const HEALTH_LANE: usize = 8;
/// A health-lane connection's share per address, so that one client cannot hold the lane.
pub const HEALTH_LANE_PER_ADDR: usize = 2;
/// How long a health-lane connection may take to send its request head before it gets the
/// full server's `503` (a slow client cannot sit in the lane).
const HEALTH_LANE_HEAD: Duration = Duration::from_secs(1);
/// The one path the health lane serves.
const HEALTH_PATH: &str = "/api/health";

/// Serves `app` on `listener` until `shutdown` resolves, then lets the HTTP requests in
/// progress finish. (WebSockets are their rooms' business: a room closes its sockets when it
/// stops.)
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Arc<Limits>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let counts = Arc::new(Counts::new(&limits));
    let refusing = Arc::new(AtomicUsize::new(0));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            () = &mut shutdown => break,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of descriptors, most likely: wait for some to close rather than spin.
                tracing::error!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Packets are small and latency matters: no Nagle delay on any connection.
        let _ = tcp.set_nodelay(true);
        // Past the cap in all, a health check may still come in by its own lane.
        let admitted = counts.admit(peer.ip()).or_else(|refusal| match refusal {
            Refusal::Full => counts.admit_to_lane(address_key(peer.ip())).ok_or(refusal),
            other => Err(other),
        });
        match admitted {
            Ok(slot) if slot.lane => {
                tokio::spawn(serve_health_lane(Counted { tcp, _slot: slot }, peer, app.clone()));
            }
            Ok(slot) => {
                let conn = serve_connection(Counted { tcp, _slot: slot }, peer, app.clone(), &limits, stop_rx.clone());
                tokio::spawn(conn);
            }
            Err(refusal) => {
                if refusing.fetch_add(1, Ordering::Relaxed) < REFUSALS {
                    tracing::debug!(%peer, reason = refusal.reason(), "connection refused");
                    let refusing = refusing.clone();
                    tokio::spawn(async move {
                        refuse(tcp, refusal).await;
                        refusing.fetch_sub(1, Ordering::Relaxed);
                    });
                } else {
                    refusing.fetch_sub(1, Ordering::Relaxed);
                }
            }
        }
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(stop_rx);
    // Every connection task holds a receiver: this returns when the last one has finished.
    stop_tx.closed().await;
    Ok(())
}

/// Errors about one incoming connection (it went away before we took it), not the listener.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

fn serve_connection(
    io: Counted,
    peer: std::net::SocketAddr,
    app: Router,
    limits: &Limits,
    mut stop: watch::Receiver<bool>,
) -> impl Future<Output = ()> + Send + 'static {
    let mut builder = http1::Builder::new();
    // A request head may hold 64 KiB, and a connection's read buffer 128 KiB (hyper's default
    // is 400 KiB): what a slow client can make the server hold while it sends its headers.
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(64 * 1024)
        .max_buf_size(128 * 1024);
    async move {
        // Each request carries its client's address (axum's `ConnectInfo`): the per-address
        // limits on rooms and sockets read it.
        let service = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(axum::extract::ConnectInfo(peer));
            tower_service::Service::call(&mut app.clone(), req)
        });
        let conn = builder.serve_connection(TokioIo::new(io), service).with_upgrades();
        let mut conn = pin!(conn);
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!("connection ended: {e}");
                }
            }
            _ = async { stop.wait_for(|stop| *stop).await.map(|_| ()) } => {
                conn.as_mut().graceful_shutdown();
                let _ = conn.await;
            }
        }
    }
}

/// A connection taken on past the cap in all: one request, read by hand within
/// [`HEALTH_LANE_HEAD`]. `GET` or `HEAD /api/health` is answered by the app as always (so a
/// monitor sees the server alive while every slot is taken), then the connection closes;
/// anything else, or nothing in time, gets the `503` of a refused connection.
async fn serve_health_lane(mut io: Counted, peer: std::net::SocketAddr, app: Router) {
    let mut head = Vec::with_capacity(512);
    let complete = tokio::time::timeout(HEALTH_LANE_HEAD, async {
        let mut chunk = [0u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = io.read(&mut chunk).await?;
            if n == 0 || head.len() + n > 16 * 1024 {
                return Ok::<bool, io::Error>(false);
            }
            head.extend_from_slice(&chunk[..n]);
        }
        Ok(true)
    })
    .await;
    let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
    let mut words = line.split(|&b| b == b' ');
    let (method, target) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
    let path = target.split(|&b| b == b'?').next().unwrap_or_default();
    let head_only = method == b"HEAD";
    if !matches!(complete, Ok(Ok(true))) || !(method == b"GET" || head_only) || path != HEALTH_PATH.as_bytes() {
        return refuse(io, Refusal::Full).await;
    }
    let mut req = axum::http::Request::new(axum::body::Body::empty());
    *req.uri_mut() = axum::http::Uri::from_static(HEALTH_PATH);
    req.extensions_mut().insert(axum::extract::ConnectInfo(peer));
    let Ok(res) = tower_service::Service::call(&mut app.clone(), req).await;
    let (parts, body) = res.into_parts();
    let Ok(body) = axum::body::to_bytes(body, 64 * 1024).await else { return };
    let mut answer = format!("HTTP/1.1 {}\r\n", parts.status);
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_LENGTH && name != axum::http::header::CONNECTION {
            answer.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap_or_default()));
        }
    }
    answer.push_str(&format!("content-length: {}\r\nconnection: close\r\n\r\n", body.len()));
    let _ = tokio::time::timeout(REFUSAL, async {
        io.write_all(answer.as_bytes()).await?;
        if !head_only {
            io.write_all(&body).await?;
        }
        io.shutdown().await
    })
    .await;
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server holds `Limits::conns` connections.
    Full,
    /// The client's address holds `Limits::conns_per_addr` connections.
    TooManyFromAddress,
}

impl Refusal {
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Full => "the server is at its connection limit; try again shortly",
            Refusal::TooManyFromAddress => "too many connections from your address; close some and try again",
        }
    }
}

/// Answers `503 {"error": reason}` without reading the request, then closes. The client's
/// request is read and dropped after the answer, so that closing does not reset the
/// connection (a reset can destroy the answer before the client reads it).
async fn refuse(mut tcp: impl AsyncRead + AsyncWrite + Unpin, refusal: Refusal) {
    let body = serde_json::json!({ "error": refusal.reason() }).to_string();
    let mut head = String::from("HTTP/1.1 503 Service Unavailable\r\n");
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let answer = format!(
        "{head}content-type: application/json\r\ncontent-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL, async {
        tcp.write_all(answer.as_bytes()).await?;
        tcp.shutdown().await?;
        let mut buf = [0u8; 1024];
        while tcp.read(&mut buf).await? > 0 {}
        Ok::<_, io::Error>(())
    })
    .await;
}

/// Open connections, in all and per address.
struct Counts {
    per_addr: usize,
    total: usize,
    /// Peers not capped per address (trusted proxies).
    uncapped: Vec<IpAddr>,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
    /// The health lane's connections, in all and per address.
    lane: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One admitted connection's place in `Counts`, given back when dropped.
pub struct Slot {
    counts: Arc<Counts>,
    /// The address counted against, if any.
    key: Option<IpAddr>,
    /// Taken on past the cap in all, for a health check only.
    lane: bool,
}

impl Counts {
    fn new(limits: &Limits) -> Self {
        Counts {
            per_addr: limits.conns_per_addr,
            total: limits.conns,
            uncapped: limits.trusted_proxies.iter().map(|p| p.to_canonical()).collect(),
            open: Mutex::new((0, HashMap::new())),
            lane: Mutex::new((0, HashMap::new())),
        }
    }

    /// A place in the health lane for `key`'s connection, if the lane has one for it.
    fn admit_to_lane(self: &Arc<Self>, key: IpAddr) -> Option<Slot> {
        let mut lane = self.lane.lock().expect("counts lock");
        let n = lane.1.get(&key).copied().unwrap_or(0);
        if lane.0 >= HEALTH_LANE || n >= HEALTH_LANE_PER_ADDR {
            return None;
        }
        lane.0 += 1;
        lane.1.insert(key, n + 1);
        Some(Slot { counts: self.clone(), key: Some(key), lane: true })
    }

    fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, Refusal> {
        let key = address_key(ip);
        let capped = self.per_addr != 0 && !self.uncapped.contains(&ip.to_canonical());
        let mut open = self.open.lock().expect("counts lock");
        if self.total != 0 && open.0 >= self.total {
            return Err(Refusal::Full);
        }
        if capped {
            let n = open.1.entry(key).or_insert(0);
            if *n >= self.per_addr {
                return Err(Refusal::TooManyFromAddress);
            }
            *n += 1;
        }
        open.0 += 1;
        Ok(Slot { counts: self.clone(), key: capped.then_some(key), lane: false })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = if self.lane { &self.counts.lane } else { &self.counts.open }.lock().expect("counts lock");
        open.0 -= 1;
        if let Some(key) = self.key
            && let Some(n) = open.1.get_mut(&key)
        {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&key);
            }
        }
    }
}

/// A socket that holds its connection's [`Slot`] for as long as it lives.
struct Counted {
    tcp: TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(per_addr: usize, total: usize) -> Arc<Counts> {
        let limits = Limits {
            conns_per_addr: per_addr,
            conns: total,
            trusted_proxies: vec!["10.0.0.100".parse().unwrap()],
            ..Limits::default()
        };
        Arc::new(Counts::new(&limits))
    }

    #[test]
    fn caps_per_address_and_in_all_and_slots_come_back() {
        let c = counts(2, 3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let s1 = c.admit(a).unwrap();
        let _s2 = c.admit(a).unwrap();
        assert_eq!(c.admit(a).err(), Some(Refusal::TooManyFromAddress));
        let _s3 = c.admit(b).unwrap();
        assert_eq!(c.admit(b).err(), Some(Refusal::Full));
        drop(s1);
        let _s4 = c.admit(a).unwrap();
        // Loopback is one address like any other; a trusted proxy is exempt from the
        // per-address cap, not from the total.
        let c = counts(1, 3);
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let _l = c.admit(lo).unwrap();
        assert_eq!(c.admit(lo).err(), Some(Refusal::TooManyFromAddress));
        let proxy: IpAddr = "10.0.0.100".parse().unwrap();
        let _p: Vec<Slot> = (0..2).map(|_| c.admit(proxy).unwrap()).collect();
        assert_eq!(c.admit(proxy).err(), Some(Refusal::Full));
    }

    #[test]
    fn the_health_lane_is_small_shared_and_its_places_come_back() {
        let c = counts(0, 1);
        let _full = c.admit("10.0.0.1".parse().unwrap()).unwrap();
        let a: IpAddr = "10.0.0.2".parse().unwrap();
        let mut lane: Vec<Slot> = (0..HEALTH_LANE_PER_ADDR).map(|_| c.admit_to_lane(a).unwrap()).collect();
        assert!(c.admit_to_lane(a).is_none(), "one address holds at most its share of the lane");
        for i in 3..(3 + HEALTH_LANE - HEALTH_LANE_PER_ADDR) {
            lane.push(c.admit_to_lane(format!("10.0.0.{i}").parse().unwrap()).expect("room in the lane"));
        }
        assert!(c.admit_to_lane("10.0.0.99".parse().unwrap()).is_none(), "the lane holds {HEALTH_LANE}");
        // The lane is not the main count: the server is still full for ordinary connections.
        assert_eq!(c.admit("10.0.0.98".parse().unwrap()).err(), Some(Refusal::Full));
        lane.truncate(0);
        assert!(c.admit_to_lane(a).is_some(), "places come back when lane connections close");
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let c = counts(1, 0);
        let _x = c.admit("2001:db8::1".parse().unwrap()).unwrap();
        assert!(c.admit("2001:db8::2".parse().unwrap()).is_err());
        let _y = c.admit("2001:db8:0:1::1".parse().unwrap()).unwrap();
        let _z = c.admit("10.0.0.9".parse().unwrap()).unwrap();
        assert!(c.admit("::ffff:10.0.0.9".parse().unwrap()).is_err());
    }
}
