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

impl Limits {
    /// Whether a request with this `Origin` header may open a WebSocket or create a room.
    /// No `Origin` (a program, not a page) is allowed; a page is allowed from the server's
    /// own origin (its authority is the request's `Host`) or from `allow_origins`. `null`
    /// (a sandboxed frame, a file) is not.
    pub fn origin_allowed(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let Some(origin) = origin else { return true };
        let origin = origin.trim().trim_end_matches('/');
        if self.allow_origins.iter().any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(origin)) {
            return true;
        }
        let Some((scheme, authority)) = origin.split_once("://") else { return false };
        let Some(host) = host else { return false };
        let default_port = match scheme.to_ascii_lowercase().as_str() {
            "http" => ":80",
            "https" => ":443",
            _ => return false,
        };
        let authority = authority.strip_suffix(default_port).unwrap_or(authority);
        let host = host.trim();
        let host = host.strip_suffix(":80").or_else(|| host.strip_suffix(":443")).unwrap_or(host);
        !authority.is_empty() && authority.eq_ignore_ascii_case(host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        let l = Limits { allow_origins: vec!["https://friends.example/".into()], ..Limits::default() };
        let ok = |o: Option<&str>, h: Option<&str>| l.origin_allowed(o, h);
        assert!(ok(None, None));
        assert!(ok(Some("http://localhost:7878"), Some("localhost:7878")));
        assert!(ok(Some("http://LocalHost:7878"), Some("localhost:7878")));
        assert!(ok(Some("https://cards.example"), Some("cards.example")));
        assert!(ok(Some("http://cards.example:80"), Some("cards.example")));
        assert!(ok(Some("https://cards.example"), Some("cards.example:443")));
        assert!(ok(Some("https://friends.example"), Some("cards.example")));
        assert!(!ok(Some("http://localhost:7879"), Some("localhost:7878")));
        assert!(!ok(Some("http://evil.example"), Some("cards.example")));
        assert!(!ok(Some("http://cards.example.evil.example"), Some("cards.example")));
        assert!(!ok(Some("null"), Some("cards.example")));
        assert!(!ok(Some("ftp://cards.example"), Some("cards.example")));
        assert!(!ok(Some("http://cards.example"), None));
        assert!(!ok(Some("http://"), Some("")));
    }
}
