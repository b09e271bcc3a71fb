//! What one client may cost the server, and what it gets past each limit. Every figure here
//! is documented in `docs/protocol.md` ("Limits (transport)"); `cardtable serve` has a flag
//! for each.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

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
    /// Rooms one address may create in any 60 seconds; 0 means no cap. Past it: `429`.
    pub rooms_per_minute_per_addr: usize,
    /// Live rooms created by one address (a closed room stops counting); 0 means no cap.
    /// Past it: `429`.
    pub rooms_per_addr: usize,
    /// Live rooms in all; 0 means no cap. Past it: `503`.
    pub rooms: usize,
    /// Room WebSockets open from one address; 0 means no cap. Past it the socket is opened and
    /// closed at once with code 1013 and a reason (a page cannot read an HTTP refusal of a
    /// WebSocket, but it can read a close reason).
    pub sockets_per_addr: usize,
    /// Room WebSockets open in all; 0 means no cap. Past it: closed with 1013 and a reason.
    pub sockets: usize,
    /// How long a room with nobody connected lives on (a link just shared, a page reloading);
    /// then it closes. A game whose people have all been gone this long ends as abandoned.
    pub empty_room_ttl: Duration,
    /// How long a room with nobody connected and no match stays in memory before it goes
    /// dormant (kept in the store only, woken by the next connection); at most
    /// `empty_room_ttl`.
    pub dormant_after: Duration,
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
            rooms_per_minute_per_addr: 30,
            rooms_per_addr: 20,
            rooms: 20_000,
            sockets_per_addr: 48,
            sockets: 15 * 1024,
            empty_room_ttl: Duration::from_secs(60),
            dormant_after: crate::lobby::DORMANT_AFTER,
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

/// A request refused by a limit: the HTTP status (429: this client is over its share; 503:
/// the server is full) and the reason, for the client to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub reason: String,
}

impl Refused {
    fn client(reason: String) -> Self {
        Refused { status: 429, reason }
    }

    fn server(reason: String) -> Self {
        Refused { status: 503, reason }
    }
}

/// What the clients use now: live rooms and room WebSockets, in all and by address, and each
/// address's recent room creations. Admission hands out a [`Ticket`] that gives its place
/// back when dropped (a room's lives as long as the room's task; a socket's as long as its
/// connection).
pub struct Usage {
    limits: Arc<Limits>,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    rooms: usize,
    sockets: usize,
    by_addr: HashMap<IpAddr, AddrUsage>,
}

#[derive(Default)]
struct AddrUsage {
    rooms: usize,
    sockets: usize,
    /// When this address created its rooms of the last minute, oldest first.
    created: VecDeque<Instant>,
}

impl AddrUsage {
    fn is_idle(&self) -> bool {
        self.rooms == 0 && self.sockets == 0 && self.created.is_empty()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Room,
    Socket,
}

/// A place counted in [`Usage`], given back when dropped.
pub struct Ticket {
    usage: Arc<Usage>,
    kind: Kind,
    /// The address counted against, if any (not loopback when exempt, not a restored room).
    addr: Option<IpAddr>,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ticket({:?}, {:?})", self.kind, self.addr)
    }
}

const MINUTE: Duration = Duration::from_secs(60);

impl Usage {
    pub fn new(limits: Arc<Limits>) -> Arc<Usage> {
        Arc::new(Usage { limits, counts: Mutex::new(Counts::default()) })
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The key `addr` is counted under, or `None` if it is not capped per address.
    fn key(&self, addr: Option<IpAddr>) -> Option<IpAddr> {
        let key = crate::accept::address_key(addr?);
        (!(self.limits.loopback_exempt && key.is_loopback())).then_some(key)
    }

    /// Live rooms and room sockets now, in all.
    pub fn totals(&self) -> (usize, usize) {
        let c = self.counts.lock().expect("usage lock");
        (c.rooms, c.sockets)
    }

    /// A room restored from the store: counted in all, never refused.
    pub fn admit_restored(self: &Arc<Self>) -> Ticket {
        self.counts.lock().expect("usage lock").rooms += 1;
        Ticket { usage: self.clone(), kind: Kind::Room, addr: None }
    }

    /// A new room created by a client at `addr` (`None`: unknown, counted in all only).
    pub fn admit_room(self: &Arc<Self>, addr: Option<IpAddr>) -> Result<Ticket, Refused> {
        self.admit_room_at(addr, Instant::now())
    }

    fn admit_room_at(self: &Arc<Self>, addr: Option<IpAddr>, now: Instant) -> Result<Ticket, Refused> {
        let l = &self.limits;
        let key = self.key(addr);
        let mut c = self.counts.lock().expect("usage lock");
        if l.rooms != 0 && c.rooms >= l.rooms {
            return Err(Refused::server(format!("the server holds its limit of {} rooms; try again later", l.rooms)));
        }
        if let Some(key) = key {
            let a = c.by_addr.entry(key).or_default();
            while a.created.front().is_some_and(|&t| now.saturating_duration_since(t) >= MINUTE) {
                a.created.pop_front();
            }
            let refused = if l.rooms_per_addr != 0 && a.rooms >= l.rooms_per_addr {
                Some(format!("your address has {} open rooms, the most it may have; use or leave one", a.rooms))
            } else if l.rooms_per_minute_per_addr != 0 && a.created.len() >= l.rooms_per_minute_per_addr {
                let wait =
                    a.created.front().map_or(MINUTE, |&t| MINUTE.saturating_sub(now.saturating_duration_since(t)));
                Some(format!(
                    "your address created {} rooms in the last minute, the most it may; try again in {} s",
                    a.created.len(),
                    wait.as_secs().max(1)
                ))
            } else {
                None
            };
            if let Some(reason) = refused {
                if a.is_idle() {
                    c.by_addr.remove(&key);
                }
                return Err(Refused::client(reason));
            }
            a.rooms += 1;
            a.created.push_back(now);
        }
        c.rooms += 1;
        Ok(Ticket { usage: self.clone(), kind: Kind::Room, addr: key })
    }

    /// A room WebSocket opened from `addr`.
    pub fn admit_socket(self: &Arc<Self>, addr: Option<IpAddr>) -> Result<Ticket, Refused> {
        let l = &self.limits;
        let key = self.key(addr);
        let mut c = self.counts.lock().expect("usage lock");
        if l.sockets != 0 && c.sockets >= l.sockets {
            return Err(Refused::server(format!(
                "the server holds its limit of {} connections to rooms; try again later",
                l.sockets
            )));
        }
        if let Some(key) = key {
            let a = c.by_addr.entry(key).or_default();
            if l.sockets_per_addr != 0 && a.sockets >= l.sockets_per_addr {
                return Err(Refused::client(format!(
                    "your address has {} connections to rooms open, the most it may; close some",
                    a.sockets
                )));
            }
            a.sockets += 1;
        }
        c.sockets += 1;
        Ok(Ticket { usage: self.clone(), kind: Kind::Socket, addr: key })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = self.usage.counts.lock().expect("usage lock");
        match self.kind {
            Kind::Room => c.rooms -= 1,
            Kind::Socket => c.sockets -= 1,
        }
        if let Some(key) = self.addr
            && let Some(a) = c.by_addr.get_mut(&key)
        {
            match self.kind {
                Kind::Room => a.rooms -= 1,
                Kind::Socket => a.sockets -= 1,
            }
            let now = Instant::now();
            while a.created.front().is_some_and(|&t| now.saturating_duration_since(t) >= MINUTE) {
                a.created.pop_front();
            }
            if a.is_idle() {
                c.by_addr.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(f: impl FnOnce(&mut Limits)) -> Arc<Usage> {
        let mut l = Limits { loopback_exempt: false, ..Limits::default() };
        f(&mut l);
        Usage::new(Arc::new(l))
    }

    #[test]
    fn room_creations_per_minute_and_live_rooms_per_address() {
        let u = usage(|l| {
            l.rooms_per_minute_per_addr = 3;
            l.rooms_per_addr = 2;
        });
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let r1 = u.admit_room(Some(a)).unwrap();
        let _r2 = u.admit_room(Some(a)).unwrap();
        let e = u.admit_room(Some(a)).unwrap_err();
        assert_eq!(e.status, 429);
        assert!(e.reason.contains("open rooms"), "{}", e.reason);
        drop(r1);
        let r3 = u.admit_room(Some(a)).unwrap();
        drop(r3);
        // Three in the last minute: the fourth waits for the first to age out.
        let e = u.admit_room(Some(a)).unwrap_err();
        assert!(e.reason.contains("in the last minute"), "{}", e.reason);
        let _other = u.admit_room(Some(b)).unwrap();
        let _r4 = u.admit_room_at(Some(a), Instant::now() + MINUTE).unwrap();
        // Restored rooms count in all, never against an address, and are never refused.
        let _restored = u.admit_restored();
        assert_eq!(u.totals().0, 4);
    }

    #[test]
    fn global_caps_refuse_with_503_and_loopback_is_exempt_per_address() {
        let u = usage(|l| {
            l.rooms = 2;
            l.sockets = 3;
            l.sockets_per_addr = 1;
            l.loopback_exempt = true;
        });
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let _a = u.admit_room(Some(lo)).unwrap();
        let _b = u.admit_room(Some(lo)).unwrap();
        assert_eq!(u.admit_room(Some(lo)).unwrap_err().status, 503);
        let _s1 = u.admit_socket(Some(lo)).unwrap();
        let _s2 = u.admit_socket(Some(lo)).unwrap();
        let x: IpAddr = "10.1.1.1".parse().unwrap();
        let s3 = u.admit_socket(Some(x)).unwrap();
        assert_eq!(u.admit_socket(Some("10.1.1.2".parse().unwrap())).unwrap_err().status, 503);
        drop(s3);
        let _s3 = u.admit_socket(Some(x)).unwrap();
        drop(_s1);
        assert_eq!(u.admit_socket(Some(x)).unwrap_err().status, 429);
        drop(_s3);
        assert!(u.counts.lock().unwrap().by_addr.is_empty(), "an idle address is forgotten");
    }

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
