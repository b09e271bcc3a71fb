//! The server as one node of several on one PostgreSQL (`cardtable serve --node-id`).
//!
//! A node registers with a new incarnation at every start ([`Node::register`]) and keeps its
//! heartbeat row fresh (the loop is `heartbeat.rs`): every `beat`, one round trip (the store's
//! `PgStore::heartbeat`) refreshes `nodes.heartbeat = now()` (PostgreSQL's clock decides freshness, never a node's)
//! and answers the rooms this node still owns with their epochs. A room it runs that the
//! answer no longer lists at the epoch it holds was taken over: its actor stops and its
//! sockets close `4001` "moved" ([`crate::conn::CLOSE_MOVED`]). A node that finds a newer
//! incarnation of itself registered stops.
//!
//! Every tick, once it has been connected to PostgreSQL for a full TTL (after an outage every
//! heartbeat looks stale at once: no mass takeover), a node claims rooms whose owner is gone
//! (none, or a heartbeat older than the TTL), a few at a time with `FOR UPDATE SKIP LOCKED`,
//! and restores each from snapshot + log as a restart does. A node that has not reached
//! PostgreSQL for a TTL lets its rooms go (their sockets close "moved"): another node may own
//! them by now, and the clients find out where from any node.
//!
//! Every statement of this loop (and of a lookup) is bounded by the node's TTL (the store's
//! time limit): a link that goes silent instead of failing (a partition) must not hold the
//! loop, or a node cut off would never notice. A room waiting on a write over such a link is
//! let go all the same, and its sockets close (`conn::MOVED_GRACE`).
//!
//! Without `--node-id` the server is one node named `local` ([`Node::local`]) that does none
//! of this.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// The node name of a lone server.
pub const LOCAL: &str = store::postgres::DEFAULT_NODE;
/// Rooms a node claims in one tick at most (the orphans of a dead node spread over the
/// survivors, a batch each per tick).
pub const CLAIM_BATCH: i64 = 32;
/// The shortest time limit a node's statements get (see [`Node::register`]).
pub const MIN_TIME_LIMIT: Duration = Duration::from_secs(1);

/// What `--node-id`, `--advertise`, `--heartbeat-ms` and `--node-ttl-ms` say.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    pub id: String,
    /// The path prefix the proxy routes to this node (`/n/n1`); clients connect to a room's
    /// WebSocket under it.
    pub advertise: String,
    pub heartbeat: Duration,
    /// A node whose heartbeat is older than this (by PostgreSQL's clock) is gone.
    pub ttl: Duration,
}

impl NodeConfig {
    pub fn new(id: &str, advertise: &str) -> NodeConfig {
        NodeConfig {
            id: id.to_string(),
            advertise: advertise.to_string(),
            heartbeat: Duration::from_secs(1),
            ttl: Duration::from_secs(3),
        }
    }
}

/// What the node's health says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    Serving,
    /// SIGTERM: handing its rooms over, then stopping.
    Draining,
    /// PostgreSQL has not answered its heartbeat.
    Disconnected,
}

impl NodeState {
    pub fn name(self) -> &'static str {
        match self {
            NodeState::Serving => "serving",
            NodeState::Draining => "draining",
            NodeState::Disconnected => "disconnected",
        }
    }
}

/// This server as a node: its name, where it is reached, and its standing with PostgreSQL.
pub struct Node {
    pub config: NodeConfig,
    /// One of several on PostgreSQL (`--node-id`), or the lone server.
    pub cluster: bool,
    pub incarnation: i64,
    draining: AtomicBool,
    link: Mutex<Link>,
    /// Set when the node must stop (a newer incarnation of it registered).
    stop: watch::Sender<bool>,
}

/// The node's contact with PostgreSQL.
#[derive(Default)]
struct Link {
    /// Since when heartbeats have gone through without a gap of a TTL.
    connected_since: Option<Instant>,
    /// When the last heartbeat went through.
    last_ok: Option<Instant>,
}

impl Node {
    /// The lone server (no `--node-id`): node `local`, no path prefix, always serving.
    pub fn local() -> Arc<Node> {
        Arc::new(Node {
            config: NodeConfig::new(LOCAL, ""),
            cluster: false,
            incarnation: 0,
            draining: AtomicBool::new(false),
            link: Mutex::new(Link::default()),
            stop: watch::channel(false).0,
        })
    }

    /// Registers node `config.id` on `store` (PostgreSQL) with a new incarnation.
    pub async fn register(store: &store::Store, config: NodeConfig) -> Result<Arc<Node>, crate::Error> {
        let shared = store.cluster().ok_or_else(|| {
            crate::Error::Store(store::StoreError::Unavailable(
                "a node of a cluster (--node-id) needs a PostgreSQL --db (postgres://…)".into(),
            ))
        })?;
        if shared.node() != config.id {
            return Err(crate::Error::Store(store::StoreError::Unavailable(format!(
                "the store writes as node {}, not {}",
                shared.node(),
                config.id
            ))));
        }
        // Lookups, claims and reads within the node's TTL: one that hangs (a silent link) must
        // not hold this node's heartbeat loop for longer than its rooms are its own; never
        // under a second, though (a short TTL in a test on a busy machine).
        shared.set_time_limit(config.ttl.max(MIN_TIME_LIMIT));
        let incarnation = shared.register(&config.advertise).await?;
        let now = Instant::now();
        Ok(Arc::new(Node {
            config,
            cluster: true,
            incarnation,
            draining: AtomicBool::new(false),
            link: Mutex::new(Link { connected_since: Some(now), last_ok: Some(now) }),
            stop: watch::channel(false).0,
        }))
    }

    pub fn id(&self) -> &str {
        &self.config.id
    }

    /// The path prefix clients reach this node under (`""` for a lone server).
    pub fn path(&self) -> &str {
        &self.config.advertise
    }

    pub fn state(&self) -> NodeState {
        if self.draining() {
            NodeState::Draining
        } else if self.cluster && !self.reachable() {
            NodeState::Disconnected
        } else {
            NodeState::Serving
        }
    }

    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Marks the node draining: health answers 503, new rooms are refused (the drain sets it
    /// first; tests set it alone).
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// The last heartbeat went through.
    pub fn reachable(&self) -> bool {
        self.link.lock().expect("node link lock").connected_since.is_some()
    }

    /// A heartbeat went through within the last TTL (otherwise another node may own this
    /// node's rooms by now).
    pub fn connected(&self) -> bool {
        self.link.lock().expect("node link lock").last_ok.is_some_and(|t| t.elapsed() < self.config.ttl)
    }

    /// Connected to PostgreSQL for a full TTL (claims wait for this), and not draining.
    pub fn may_claim(&self) -> bool {
        if !self.cluster || self.draining() {
            return false;
        }
        let link = self.link.lock().expect("node link lock");
        link.connected_since.is_some_and(|t| t.elapsed() >= self.config.ttl)
    }

    pub(crate) fn heartbeat_ok(&self) {
        let now = Instant::now();
        let mut link = self.link.lock().expect("node link lock");
        // A gap of a TTL (an outage, or this process paused) is a new connection: the
        // claims wait a TTL again.
        if link.last_ok.is_none_or(|t| now.duration_since(t) >= self.config.ttl) {
            link.connected_since = Some(now);
        }
        link.connected_since.get_or_insert(now);
        link.last_ok = Some(now);
    }

    pub(crate) fn heartbeat_failed(&self) {
        self.link.lock().expect("node link lock").connected_since = None;
    }

    /// Resolves once the node must stop (superseded by a newer incarnation of itself).
    pub async fn stopped(&self) {
        let mut rx = self.stop.subscribe();
        let _ = rx.wait_for(|s| *s).await;
    }

    /// Whether the node was told to stop.
    pub fn is_stopped(&self) -> bool {
        *self.stop.borrow()
    }

    pub(crate) fn must_stop(&self) {
        self.stop.send_replace(true);
    }
}
