//! What one client may cost the server, and what it gets past each limit. Every figure here
//! is documented in `docs/protocol.md` ("Limits (transport)"); `cardtable serve` has a flag
//! for each.
//!
//! Who "one client" is: [`Limits::client_addr`] — the peer's address, or, for a peer that is a
//! configured trusted proxy, the client address it forwards (`X-Forwarded-For`). Nothing else
//! is exempt from the per-address caps (loopback included).
//!
//! A leaf of the server's modules: it imports none of them (the accept loop, the lobby and
//! the routes import it).

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// How long a room with nobody connected and no match stays in memory before it goes dormant
/// by default ([`Limits::dormant_after`]; at most the server's empty-room time). Short: waking
/// costs one read of the room from the store (about a millisecond, unseen by a page reloading),
/// while an empty room kept awake holds ~10 KB, and a server where tables are made and left all
/// the time has hundreds of them (at 145 rooms a second, 2 s kept ~290 awake: ~2.5 MB).
pub const DORMANT_AFTER: Duration = Duration::from_millis(500);

/// File descriptors kept back from the connection cap ([`conns_for_nofile`]): the listener,
/// the standard streams, the database (its file, journal and shared memory, the checkpoint),
/// the runtime's own (epoll, wakers), connections being refused, and a margin so that a
/// health check is accepted and answered when every connection slot is taken.
pub const RESERVED_FDS: u64 = 64;

/// Placement games by default ([`Limits::quickplay_placement`]): a newcomer's first three rated
/// games of a game in quick play are against bots. People who mostly meet each other can only
/// learn their level *relative* to each other; games against bots, whose ratings are fixed,
/// are what put a pool on the bots' scale, and they count most while a newcomer's rating is
/// still wide (docs/rating.md, "Placement").
pub const PLACEMENT_GAMES: u32 = 3;

/// The most open connections a process with `nofile` descriptors may take on and still have
/// [`RESERVED_FDS`] (or an eighth of the limit, whichever is more) for everything else: past
/// it the server refuses a connection with a 503 rather than failing to accept one.
pub fn conns_for_nofile(nofile: u64) -> usize {
    let reserve = RESERVED_FDS.max(nofile / 8);
    usize::try_from(nofile.saturating_sub(reserve)).unwrap_or(usize::MAX).max(1)
}

/// What a per-address cap counts against: the IPv4 address (an IPv4-mapped IPv6 address is
/// its IPv4 address), or an IPv6 address's /64 (one host commonly has a whole /64).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

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
    /// Reverse proxies whose `X-Forwarded-For` is believed (`serve --trusted-proxy ADDR`): a
    /// request from one of them counts against the client address it forwards (the last hop
    /// that is not itself a trusted proxy), and its connections are not capped per address
    /// (they carry many clients). From any other peer the header is ignored. Empty by default:
    /// every client is its peer address, loopback included.
    pub trusted_proxies: Vec<IpAddr>,
    /// Whether `POST /api/rooms` may choose the seed (`serve --allow-seeded-rooms`: tests and
    /// tournaments). A chosen seed lets its chooser replay the deal and read every hidden
    /// card, so by default it is refused (`400`), and where it is allowed the room is marked
    /// `seeded` to its members and in the lobby.
    pub allow_seeded_rooms: bool,
    /// Whether `POST /api/rooms` may give a position to start from (`serve
    /// --allow-setup-rooms`: puzzles, bug reports); such a room is marked `seeded` too.
    pub allow_setup_rooms: bool,
    /// Lookups of room ids that do not exist (`GET /api/rooms/{id}`, the room's WebSocket, a
    /// replay's `room`) one address may make in any minute, in bursts of as many; 0 means no
    /// cap. Past it every room lookup from the address, of a real id too, gets `429` until
    /// the minute has given some back: guessing a private room's id is as slow as guessing a
    /// token.
    pub lookup_misses_per_minute_per_addr: usize,
    /// Origins (`scheme://host[:port]`) allowed besides the server's own (the request's
    /// `Host`) to open a room's WebSocket or create a room from a page.
    pub allow_origins: Vec<String>,
    /// Session cookies always carry `Secure` (`serve --secure-cookies`: the server is reached
    /// over HTTPS through a proxy that does not say so). Without it a cookie is `Secure` when
    /// the page that asked for it came over HTTPS.
    pub secure_cookies: bool,
    /// Identities (guests, and sign-ups without one) one address may make in any hour; 0
    /// means no cap. Past it: `429` with `Retry-After`.
    pub accounts_per_hour_per_addr: usize,
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
    /// How long quick play looks for people before it fills a table's empty seats with bots
    /// (`serve --quickplay-wait`; zero: bots at once). See [`crate::quickplay`].
    pub quickplay_wait: Duration,
    /// The bots' delay (`botDelayMs`) at quick-play tables.
    pub quickplay_bot_delay_ms: u64,
    /// Placement: a person's first this many rated games of a game, when they quick-play
    /// alone, are against the bot nearest their rating, seated at once (`serve
    /// --quickplay-placement`; zero: none). See [`crate::quickplay`].
    pub quickplay_placement: u32,
    /// Members may hand their seat to a bot (`Autopilot`: simulated people, `cardtable
    /// population`). Off on a real server: a person's rating would be a bot's.
    pub allow_autopilot: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            queue_bytes: 1024 * 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            conns_per_addr: 64,
            conns: 16 * 1024,
            trusted_proxies: Vec::new(),
            allow_seeded_rooms: false,
            allow_setup_rooms: false,
            lookup_misses_per_minute_per_addr: 30,
            allow_origins: Vec::new(),
            secure_cookies: false,
            accounts_per_hour_per_addr: 30,
            rooms_per_minute_per_addr: 30,
            rooms_per_addr: 20,
            rooms: 20_000,
            sockets_per_addr: 48,
            sockets: 15 * 1024,
            empty_room_ttl: Duration::from_secs(60),
            dormant_after: DORMANT_AFTER,
            quickplay_wait: Duration::from_secs(15),
            quickplay_bot_delay_ms: 700,
            quickplay_placement: PLACEMENT_GAMES,
            allow_autopilot: false,
        }
    }
}

impl Limits {
    /// Whether `peer` is a configured trusted proxy.
    pub fn is_trusted_proxy(&self, peer: IpAddr) -> bool {
        let peer = peer.to_canonical();
        self.trusted_proxies.iter().any(|p| p.to_canonical() == peer)
    }

    /// The client a request counts against: `peer`, unless `peer` is a trusted proxy and
    /// `forwarded_for` (the `X-Forwarded-For` values, in order) names a client — then the
    /// last address in it that is not a trusted proxy (the hops before it are the client's
    /// own word). A trusted proxy that forwards nothing readable is its own client.
    pub fn client_addr<'a>(&self, peer: IpAddr, forwarded_for: impl IntoIterator<Item = &'a str>) -> IpAddr {
        if !self.is_trusted_proxy(peer) {
            return peer;
        }
        let hops: Vec<&str> = forwarded_for.into_iter().flat_map(|v| v.split(',')).collect();
        for hop in hops.iter().rev() {
            let Some(ip) = parse_hop(hop) else { return peer };
            if !self.is_trusted_proxy(ip) {
                return ip;
            }
        }
        peer
    }

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

/// One `X-Forwarded-For` entry: an address, bracketed or not, with or without a port.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    if let Ok(ip) = hop.parse() {
        return Some(ip);
    }
    if let Ok(sa) = hop.parse::<std::net::SocketAddr>() {
        return Some(sa.ip());
    }
    hop.strip_prefix('[').and_then(|h| h.strip_suffix(']')).and_then(|h| h.parse().ok())
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
    /// Each address's budget of lookups of unknown room ids (only addresses that missed).
    lookups: Mutex<HashMap<IpAddr, Bucket>>,
}

/// A token bucket: `tokens` left at `at`, refilled at the cap's rate up to the cap.
#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
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
    /// The address counted against, if any (not a restored room).
    addr: Option<IpAddr>,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ticket({:?}, {:?})", self.kind, self.addr)
    }
}

const MINUTE: Duration = Duration::from_secs(60);

fn refill(b: &mut Bucket, cap: usize, now: Instant) {
    let secs = now.saturating_duration_since(b.at).as_secs_f64();
    b.tokens = (b.tokens + secs * cap as f64 / 60.0).min(cap as f64);
    b.at = now;
}

impl Usage {
    pub fn new(limits: Arc<Limits>) -> Arc<Usage> {
        Arc::new(Usage { limits, counts: Mutex::new(Counts::default()), lookups: Mutex::new(HashMap::new()) })
    }

    /// Whether `addr` may look up a room id now: `Err(429)` while it is out of lookups (see
    /// [`Limits::lookup_misses_per_minute_per_addr`]), whether or not the id exists.
    pub fn may_look_up(&self, addr: Option<IpAddr>) -> Result<(), Refused> {
        self.may_look_up_at(addr, Instant::now())
    }

    fn may_look_up_at(&self, addr: Option<IpAddr>, now: Instant) -> Result<(), Refused> {
        let cap = self.limits.lookup_misses_per_minute_per_addr;
        let (Some(addr), true) = (addr, cap != 0) else { return Ok(()) };
        let mut lookups = self.lookups.lock().expect("lookups lock");
        let Some(b) = lookups.get_mut(&address_key(addr)) else { return Ok(()) };
        refill(b, cap, now);
        if b.tokens >= 1.0 {
            return Ok(());
        }
        let wait = ((1.0 - b.tokens) * 60.0 / cap as f64).ceil().max(1.0);
        Err(Refused::client(format!(
            "your address looked up {cap} room ids that do not exist within a minute; try again in {wait} s"
        )))
    }

    /// `addr` looked up a room id that does not exist: one lookup less.
    pub fn missed(&self, addr: Option<IpAddr>) {
        self.missed_at(addr, Instant::now());
    }

    fn missed_at(&self, addr: Option<IpAddr>, now: Instant) {
        let cap = self.limits.lookup_misses_per_minute_per_addr;
        let (Some(addr), true) = (addr, cap != 0) else { return };
        let mut lookups = self.lookups.lock().expect("lookups lock");
        // Addresses whose budget is whole again are forgotten, now and then (an address that
        // missed once costs a few bytes for a minute at most).
        if lookups.len() >= 4096 {
            lookups.retain(|_, b| {
                refill(b, cap, now);
                b.tokens < cap as f64
            });
        }
        let b = lookups.entry(address_key(addr)).or_insert(Bucket { tokens: cap as f64, at: now });
        refill(b, cap, now);
        b.tokens = (b.tokens - 1.0).max(0.0);
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The key `addr` (a client address: see [`Limits::client_addr`]) is counted under, or
    /// `None` if it is unknown.
    fn key(&self, addr: Option<IpAddr>) -> Option<IpAddr> {
        addr.map(address_key)
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
        let mut l = Limits::default();
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
    fn global_caps_refuse_with_503_and_loopback_is_capped_per_address_too() {
        let u = usage(|l| {
            l.rooms = 2;
            l.sockets = 3;
            l.sockets_per_addr = 1;
        });
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let _a = u.admit_room(Some(lo)).unwrap();
        let _b = u.admit_room(Some(lo)).unwrap();
        assert_eq!(u.admit_room(Some(lo)).unwrap_err().status, 503);
        let _s1 = u.admit_socket(Some(lo)).unwrap();
        assert_eq!(u.admit_socket(Some(lo)).unwrap_err().status, 429, "loopback is one client like any other");
        let _s2 = u.admit_socket(Some("127.0.0.2".parse().unwrap())).unwrap();
        let x: IpAddr = "10.1.1.1".parse().unwrap();
        let s3 = u.admit_socket(Some(x)).unwrap();
        assert_eq!(u.admit_socket(Some("10.1.1.2".parse().unwrap())).unwrap_err().status, 503);
        drop(s3);
        let _s3 = u.admit_socket(Some(x)).unwrap();
        drop(_s1);
        assert_eq!(u.admit_socket(Some(x)).unwrap_err().status, 429);
        drop((_s3, _s2, _a, _b));
        // An idle address is forgotten; 127.0.0.1 created rooms in the last minute, which its
        // entry remembers for the per-minute cap.
        let left: Vec<IpAddr> = u.counts.lock().unwrap().by_addr.keys().copied().collect();
        assert_eq!(left, [lo], "an idle address is forgotten");
    }

    #[test]
    fn unknown_id_lookups_are_throttled_per_address_and_come_back() {
        let u = usage(|l| l.lookup_misses_per_minute_per_addr = 3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let now = Instant::now();
        for _ in 0..3 {
            assert!(u.may_look_up_at(Some(a), now).is_ok());
            u.missed_at(Some(a), now);
        }
        let e = u.may_look_up_at(Some(a), now).unwrap_err();
        assert_eq!(e.status, 429);
        assert!(u.may_look_up_at(Some("10.0.0.2".parse().unwrap()), now).is_ok(), "another address is not held");
        // A third of a minute gives one back.
        assert!(u.may_look_up_at(Some(a), now + Duration::from_secs(20)).is_ok());
        let off = usage(|l| l.lookup_misses_per_minute_per_addr = 0);
        for _ in 0..10 {
            off.missed_at(Some(a), now);
        }
        assert!(off.may_look_up_at(Some(a), now).is_ok());
    }

    #[test]
    fn a_forwarded_address_counts_only_from_a_trusted_proxy() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let other: IpAddr = "10.9.9.9".parse().unwrap();
        let l = Limits { trusted_proxies: vec![proxy, "10.0.0.254".parse().unwrap()], ..Limits::default() };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(l.client_addr(other, ["1.2.3.4"]), other, "an untrusted peer's header is ignored");
        assert_eq!(l.client_addr(proxy, ["1.2.3.4"]), ip("1.2.3.4"));
        assert_eq!(
            l.client_addr(proxy, ["6.6.6.6, 1.2.3.4"]),
            ip("1.2.3.4"),
            "the last hop, not the client's own word"
        );
        assert_eq!(l.client_addr(proxy, ["6.6.6.6", "1.2.3.4, 10.0.0.254"]), ip("1.2.3.4"), "trusted hops are skipped");
        assert_eq!(l.client_addr(proxy, ["[2001:db8::1]:443"]), ip("2001:db8::1"));
        assert_eq!(l.client_addr(proxy, ["1.2.3.4:5678"]), ip("1.2.3.4"));
        assert_eq!(l.client_addr(proxy, ["unknown"]), proxy, "nothing readable: the proxy itself");
        assert_eq!(l.client_addr(proxy, Vec::<&str>::new()), proxy);
        assert_eq!(l.client_addr(ip("::ffff:127.0.0.1"), ["1.2.3.4"]), ip("1.2.3.4"));
    }

    #[test]
    fn the_connection_cap_keeps_descriptors_back() {
        assert_eq!(conns_for_nofile(1024), 1024 - 128);
        assert_eq!(conns_for_nofile(256), 256 - 64);
        assert_eq!(conns_for_nofile(65_536), 65_536 - 8192);
        assert_eq!(conns_for_nofile(10), 1);
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
