//! What one client may cost the server, and what it gets past each limit. Every figure here
//! is documented in `docs/protocol.md` ("Limits (transport)"); `cardtable serve` has a flag
//! for each.

use std::time::Duration;

pub struct Limits {
    /// Serialized packets queued for one WebSocket and not yet taken by its socket. A client
    /// that stops reading while its room keeps talking reaches it and is disconnected
    /// (close 1008); its seat is held as for any dropped connection.
    pub queue_bytes: usize,
    /// How long a client has to send a request's headers, and how long a kept-alive
    /// connection may wait before its next request (hyper's header timer covers both).
    pub header_timeout: Duration,
    /// How long a client has to send a request's body once its headers are in.
    pub body_timeout: Duration,
    /// Open connections (HTTP and WebSocket) from one IP address; 0 means no cap.
    pub conns_per_addr: usize,
    /// Open connections in all; 0 means no cap.
    pub conns: usize,
    /// Loopback peers are not capped per address: behind a reverse proxy on the same machine
    /// every client comes from 127.0.0.1 (the global cap still applies).
    pub loopback_exempt: bool,
    /// Origins (`scheme://host[:port]`) allowed besides the server's own (the request's
    /// `Host`) to open a room's WebSocket or create a room from a page.
    pub allow_origins: Vec<String>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            queue_bytes: 1024 * 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            conns_per_addr: 64,
            conns: 16 * 1024,
            loopback_exempt: true,
            allow_origins: Vec::new(),
        }
    }
}
