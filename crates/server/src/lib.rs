//! # server — the cardtable game server
//!
//! `run(listener, config, shutdown)` serves, on one listener:
//! - `GET /` and `GET /r/{id}`: the web client (embedded); `GET /{asset}`: its files;
//! - `GET /api/health` → `{"status":"ok","rooms":N,"dormantRooms":D}`;
//! - `GET /api/games` → `[{name, title, description, minPlayers, maxPlayers, defaultPlayers,
//!   bots, levels, ratings, botRatings}]`, every game a room can be created for (the registry's
//!   `GameInfo`, and each level's fixed rating on the people's scale: [`ratings`]);
//! - `GET /api/games/{game}/cards` → the card table of a game whose cards travel as ids (Three
//!   Kingdoms: `[{id, name, suit, rank, kind}]`), `404` for the others;
//! - `GET /api/rooms?after=ID&limit=N` → `[{id, game, players, state, spectators}]`: live,
//!   listed rooms by id, at most 100 a page (a `Link: <…>; rel="next"` header when there are
//!   more); `GET /api/rooms/{id}` → one room's summary, listed or not;
//! - `POST /api/rooms` `{"game": NAME, "seed": N?, ...options}` → `{"id": ...}` (or `429`/`503`
//!   with `{"error"}` over a limit: [`limits`]; a `seed` only where the server allows seeded
//!   rooms, else `400`);
//! - looking up a room id that does not exist (`GET /api/rooms/{id}`, its WebSocket, a
//!   replay's `room`) costs the client's address one of its lookups: past them, `429`;
//! - `GET /api/rooms/{id}/ws`: the room's WebSocket (see `docs/protocol.md`);
//! - `GET /api/matches/{id}?seat=N&steps=all|last`: a finished match rebuilt, the table after
//!   every move as one seat (or a spectator) saw it ([`replay`]); `GET /api/matches?room=ID`:
//!   the room's recorded matches, newest first, paged;
//! - `GET /rules` and `GET /rules/{game}`: the rules pages of `docs/rules`, as HTML ([`rules`]);
//! - `GET /replay/{id}`: the web client's replay viewer;
//! - `GET /api/leaderboard/{game}` → the game's top 100 rated people, and `GET
//!   /leaderboard/{game}`, the page that shows it ([`ratings`]);
//! - `GET /metrics`: Prometheus metrics ([`metrics`]), when the server records them and
//!   serves them here (not on a listener of their own: [`ServerConfig::metrics_listener`]).
//!
//! Connections come through [`accept::serve`] (hyper, with header timeouts and connection
//! caps: [`limits::Limits`]); every answer carries [`SECURITY_HEADERS`].
//!
//! Each room is one task ([`room::Room`]); connections reach it through a [`room::RoomHandle`].
//! Rooms and finished matches are kept in SQLite or PostgreSQL ([`store`]); on start, every stored room is
//! restored and its players can reconnect with their tokens. A room nobody is connected to
//! closes after `Limits::empty_room_ttl` (its game, if one runs, recorded as abandoned), and
//! leaves memory, the list and the database.

pub mod accept;
pub mod adapter;
pub mod admin;
pub mod assets;
pub mod auth;
pub mod conn;
pub mod error;
pub mod games;
pub mod heartbeat;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod node;
pub mod passkey;
pub mod profile;
pub mod quickplay;
pub mod ratings;
pub mod replay;
pub mod room;
pub mod rules;
pub mod rules_version;
pub mod setup_rooms;
pub mod watch;

pub use accept::SECURITY_HEADERS;
pub use error::Error;

use axum::Json;
use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Query, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use limits::{Limits, Usage};
use lobby::{CreateError, Lobby};
use room::RoomOptions;
use serde::Deserialize;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tokio::net::TcpListener;

pub struct ServerConfig {
    pub store: store::Store,
    /// Packets a second each connection may send (bursts of twice as many). The rules ask
    /// for at least 20.
    pub rate_limit: f64,
    /// What one client may cost the server (see [`Limits`]).
    pub limits: Limits,
    /// This server as one node of a cluster on PostgreSQL ([`node::Node::register`]);
    /// `None`: the lone server of today (node `local`).
    pub node: Option<Arc<node::Node>>,
    /// Prometheus metrics ([`metrics::install`]); `None`: none recorded, no `/metrics`.
    pub metrics: Option<metrics::Exporter>,
    /// A listener of their own for `GET /metrics` (an address not reachable from outside);
    /// `None`: served on the main listener.
    pub metrics_listener: Option<TcpListener>,
}

impl ServerConfig {
    pub fn new(store: store::Store) -> Self {
        ServerConfig {
            store,
            rate_limit: conn::RATE,
            limits: Limits::default(),
            node: None,
            metrics: None,
            metrics_listener: None,
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub lobby: Arc<Lobby>,
    pub rate_limit: f64,
    pub limits: Arc<Limits>,
    /// Sign-in throttles ([`auth::Auth`]).
    pub auth: Arc<auth::Auth>,
    /// Quick play's queue and parties ([`quickplay`]).
    pub quickplay: Arc<quickplay::QuickPlay>,
    /// The metrics page, when it is served on this router.
    pub metrics: Option<metrics::Exporter>,
}

/// Serves until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = Arc::new(config.limits);
    let node = config.node.unwrap_or_else(node::Node::local);
    let lobby = Lobby::restore_node(config.store, Usage::new(limits.clone()), node.clone())
        .await
        .map_err(std::io::Error::other)?;
    let lobby = Arc::new(lobby);
    // Closes a moderator asked for from the terminal while the server was stopped, or (on
    // PostgreSQL) from another node or the terminal while it runs: taken now and polled.
    lobby.take_closes().await;
    admin::spawn_close_poller(Arc::downgrade(&lobby));
    let auth = Arc::new(auth::Auth::new(&limits));
    let exporter = config.metrics;
    // Its own listener, or this router's `/metrics`.
    let metrics_task = match (&exporter, config.metrics_listener) {
        (Some(m), Some(l)) => Some(tokio::spawn(serve_metrics(l, lobby.clone(), m.clone()))),
        _ => None,
    };
    if let Some(m) = &exporter {
        spawn_upkeep(m.clone(), Arc::downgrade(&lobby));
    }
    let metrics = if metrics_task.is_some() { None } else { exporter };
    let quickplay = quickplay::QuickPlay::start(&lobby, limits.quickplay_wait);
    let state = AppState {
        lobby: lobby.clone(),
        rate_limit: config.rate_limit.max(conn::RATE),
        limits,
        auth,
        quickplay,
        metrics,
    };
    let served = serve_node(listener, state, node, shutdown).await;
    if let Some(task) = metrics_task {
        task.abort();
    }
    served
}

/// Serves `GET /metrics` alone on `listener` (an address for Prometheus only).
async fn serve_metrics(listener: TcpListener, lobby: Arc<Lobby>, exporter: metrics::Exporter) {
    let app = Router::new().route(
        "/metrics",
        get(move || {
            let (lobby, exporter) = (lobby.clone(), exporter.clone());
            async move { metrics_response(&exporter, &lobby) }
        }),
    );
    if let Err(e) = axum::serve(listener, app).await {
        tracing::error!("the metrics listener failed: {e}");
    }
}

/// Folds the histograms' samples every [`metrics::UPKEEP_EVERY`] while the lobby lives (nobody
/// may ask for the page for a long while).
fn spawn_upkeep(exporter: metrics::Exporter, lobby: std::sync::Weak<Lobby>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(metrics::UPKEEP_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if lobby.strong_count() == 0 {
                return;
            }
            exporter.upkeep();
        }
    });
}

fn metrics_response(exporter: &metrics::Exporter, lobby: &Lobby) -> Response {
    // The text format's media type, version 0.0.4.
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        exporter.render(&lobby.census(), lobby.usage().totals().1),
    )
        .into_response()
}

/// `GET /metrics` on the main router: `404` where metrics are off or served elsewhere.
async fn metrics_page(State(state): State<AppState>) -> Response {
    match &state.metrics {
        Some(m) => metrics_response(m, &state.lobby),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// Serves `state`'s router on `listener` until `shutdown` (a lone server), or as a cluster's
/// node: heartbeats, and a drain at shutdown.
async fn serve_node(
    listener: TcpListener,
    state: AppState,
    node: Arc<node::Node>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.limits.clone();
    let lobby = state.lobby.clone();
    if !node.cluster {
        return accept::serve(listener, app(state), limits, shutdown).await;
    }
    heartbeat::spawn(node.clone(), Arc::downgrade(&lobby));
    // A node drains at shutdown (its rooms handed over before it stops serving), and stops
    // at once when a newer incarnation of it registered.
    let stopping = {
        let node = node.clone();
        async move {
            tokio::select! {
                () = shutdown => lobby.drain().await,
                () = node.stopped() => {}
            }
        }
    };
    accept::serve(listener, app(state), limits, stopping).await?;
    if node.is_stopped() {
        return Err(std::io::Error::other(format!(
            "node {} incarnation {} stopped: a newer incarnation of it registered",
            node.id(),
            node.incarnation
        )));
    }
    Ok(())
}

/// `{"status":"ok","rooms":N,"dormantRooms":D,"node":ID,"state":"serving"}`: rooms in the
/// lobby, how many of them are dormant (out of memory until someone comes back), and this
/// node. A node that drains answers `503 {"error":"draining",…}`, one that cannot reach
/// PostgreSQL `503 {"error":"database unreachable",…}` (a proxy's health check takes it out).
async fn health(State(state): State<AppState>) -> Response {
    let node = state.lobby.node();
    let body = |status: &str| {
        serde_json::json!({
            "status": status, "rooms": state.lobby.len(), "dormantRooms": state.lobby.dormant(),
            "node": node.id(), "state": node.state().name(),
        })
    };
    match node.state() {
        node::NodeState::Serving => Json(body("ok")).into_response(),
        node::NodeState::Draining => {
            let mut v = body("draining");
            v["error"] = "draining".into();
            (StatusCode::SERVICE_UNAVAILABLE, Json(v)).into_response()
        }
        node::NodeState::Disconnected => {
            let mut v = body("disconnected");
            v["error"] = "database unreachable".into();
            (StatusCode::SERVICE_UNAVAILABLE, Json(v)).into_response()
        }
    }
}

pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/metrics", get(metrics_page))
        .route("/api/games", get(|| async { Json(ratings::games_json()) }))
        .route("/api/games/{game}/cards", get(game_cards))
        .route("/api/rooms", get(list_rooms).post(create_room))
        .route("/api/rooms/{id}", get(room_summary))
        .route("/api/rooms/{id}/ws", get(room_socket))
        .route("/api/matches", get(replay::room_matches))
        .route("/api/matches/{id}", get(replay::get_match))
        .route("/api/auth/guest", post(auth::guest))
        .route("/api/auth/register", post(auth::register))
        .route("/api/auth/login", post(auth::login))
        .route("/api/auth/logout", post(auth::logout))
        .route("/api/auth/logout-all", post(auth::logout_all))
        .route("/api/auth/passkey/register/start", post(passkey::register_start))
        .route("/api/auth/passkey/register/finish", post(passkey::register_finish))
        .route("/api/auth/passkey/login/start", post(passkey::login_start))
        .route("/api/auth/passkey/login/finish", post(passkey::login_finish))
        .route("/api/me", get(auth::me).patch(auth::patch_me).delete(auth::delete_me))
        .route("/api/me/export", get(auth::export))
        .route("/api/users/{name}", get(profile::user))
        .route("/api/quickplay", post(quickplay::queue))
        .route("/api/quickplay/{ticket}", get(quickplay::ticket).delete(quickplay::cancel))
        .route("/api/quickplay/{ticket}/ws", get(quickplay::socket))
        .route("/api/parties", post(quickplay::new_party))
        .route("/api/parties/{id}", get(quickplay::get_party))
        .route("/api/parties/{id}/join", post(quickplay::join_party))
        .route("/api/parties/{id}/leave", post(quickplay::leave_party))
        .route("/api/leaderboard/{game}", get(ratings::leaderboard))
        .route("/api/reports", post(admin::file_report))
        .route("/api/admin/rooms", get(admin::rooms))
        .route("/api/admin/rooms/{id}/close", post(admin::close_room))
        .route("/api/admin/people", get(admin::people))
        .route("/api/admin/people/{id}/sessions", get(admin::sessions))
        .route("/api/admin/people/{id}/ban", post(admin::ban))
        .route("/api/admin/people/{id}/unban", post(admin::unban))
        .route("/api/admin/reports", get(admin::reports))
        .route("/api/admin/reports/{id}/resolve", post(admin::resolve_report))
        .route("/api/admin/log", get(admin::log))
        .route("/admin", get(|| async { asset("index.html") }))
        .route("/rules", get(|| async { rules::page("README") }))
        .route("/rules/{game}", get(|Path(game): Path<String>| async move { rules::page(&game) }))
        .route("/", get(|| async { asset("index.html") }))
        .route("/r/{id}", get(|| async { asset("index.html") }))
        .route("/replay/{id}", get(|| async { asset("index.html") }))
        .route("/u/{name}", get(|| async { asset("index.html") }))
        .route("/party/{id}", get(|| async { asset("index.html") }))
        .route("/leaderboard/{game}", get(|| async { asset("index.html") }))
        .route("/{*path}", get(|Path(path): Path<String>| async move { asset(&path) }))
        .layer(axum::middleware::map_response(with_security_headers))
        .with_state(state)
}

async fn with_security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A `403` unless the request's `Origin` is the server's own or allowed (see
/// [`Limits::origin_allowed`]): another site's page may neither open a room's WebSocket
/// (which the browser allows across origins) nor create rooms.
pub(crate) fn refuse_origin(limits: &Limits, headers: &HeaderMap) -> Option<Response> {
    let text = |name| headers.get(name).map(|v: &HeaderValue| v.to_str().unwrap_or("?"));
    let origin = text(header::ORIGIN);
    let allowed = limits.origin_allowed(origin, text(header::HOST));
    (!allowed)
        .then(|| error(StatusCode::FORBIDDEN, format!("origin {} is not allowed here", origin.unwrap_or_default())))
}

fn asset(path: &str) -> Response {
    match assets::find(path) {
        Some(a) => ([(header::CONTENT_TYPE, a.mime), (header::CACHE_CONTROL, "no-cache")], a.body).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The client's address: the peer the accept loop recorded, or, for a trusted proxy, the
/// client it forwards ([`Limits::client_addr`]). `None` if the router is served some other way.
pub struct Peer(pub Option<IpAddr>);

impl FromRequestParts<AppState> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        let forwarded = parts.headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok());
        Ok(Peer(peer.map(|p| state.limits.client_addr(p, forwarded))))
    }
}

/// `429` if `peer` has looked up too many room ids that do not exist (whether or not this one
/// does: the answer must not tell).
pub(crate) fn refuse_lookup(state: &AppState, peer: Option<IpAddr>) -> Option<Response> {
    state.lobby.usage().may_look_up(peer).err().map(refused)
}

#[derive(Deserialize)]
struct Page {
    after: Option<String>,
    limit: Option<usize>,
}

async fn list_rooms(State(state): State<AppState>, Query(page): Query<Page>) -> Response {
    let (after, limit) = (page.after, page.limit.unwrap_or(lobby::PAGE));
    let (mut response, next) = if state.lobby.node().cluster {
        // Every node's rooms, from PostgreSQL (cached for a second).
        match state.lobby.cluster_page(after.as_deref(), limit).await {
            Ok((rooms, next)) => (Json(rooms).into_response(), next),
            Err(e) => return unavailable(&e),
        }
    } else {
        let (rooms, next) = state.lobby.list_page(after.as_deref(), limit);
        (Json(rooms).into_response(), next)
    };
    if let Some(next) = next
        && let Ok(link) = HeaderValue::from_str(&format!("</api/rooms?after={next}&limit={limit}>; rel=\"next\""))
    {
        response.headers_mut().insert(header::LINK, link);
    }
    response
}

/// `GET /api/games/{game}/cards`: the card table of a game whose cards travel as ids.
async fn game_cards(Path(game): Path<String>) -> Response {
    match games::cards(&game) {
        Some(table) => Json(table).into_response(),
        None => error(StatusCode::NOT_FOUND, format!("no card table for {game}")),
    }
}

async fn room_summary(State(state): State<AppState>, Peer(peer): Peer, Path(id): Path<String>) -> Response {
    if let Some(refused) = refuse_lookup(&state, peer) {
        return refused;
    }
    let node = state.lobby.node();
    let whereabouts = match state.lobby.locate(&id).await {
        Ok(w) => w,
        Err(e) => return unavailable(&e),
    };
    let here = |s: serde_json::Value| {
        let mut s = s;
        s["node"] = node.id().into();
        s["path"] = node.path().into();
        Json(s).into_response()
    };
    match whereabouts {
        lobby::Whereabouts::Here => match state.lobby.summary(&id) {
            Some(s) => here(serde_json::to_value(s).expect("summaries serialize")),
            None => moving(&id),
        },
        lobby::Whereabouts::Elsewhere { node, path, mut summary } => {
            summary["node"] = node.into();
            summary["path"] = path.into();
            Json(summary).into_response()
        }
        lobby::Whereabouts::Moving => moving(&id),
        lobby::Whereabouts::Missing => {
            state.lobby.usage().missed(peer);
            error(StatusCode::NOT_FOUND, format!("no room {id}"))
        }
    }
}

/// `503 {"error":"moving"}` with `retry-after: 1`: no live node owns the room right now (its
/// node died or drains, and none has claimed it yet).
fn moving(id: &str) -> Response {
    let body = serde_json::json!({
        "error": "moving",
        "reason": format!("room {id} is moving to another server: ask again in a moment"),
    });
    let mut response = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// `503` for a store error (PostgreSQL unreachable), with `retry-after: 1`.
fn unavailable(e: &store::StoreError) -> Response {
    let mut response = error(StatusCode::SERVICE_UNAVAILABLE, format!("the database cannot be reached: {e}"));
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

pub(crate) fn refused(r: limits::Refused) -> Response {
    metrics::refused(match r.status {
        429 => "http_429",
        503 => "http_503",
        _ => "http_other",
    });
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    let mut response = error(status, r.reason);
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
    response
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateRoom {
    game: String,
    #[serde(flatten)]
    options: RoomOptions,
}

pub(crate) fn bad_request(message: String) -> Response {
    error(StatusCode::BAD_REQUEST, message)
}

/// The most a `POST /api/rooms` body may hold.
pub(crate) const MAX_BODY: usize = protocol::MAX_FRAME;

pub(crate) fn error(status: StatusCode, message: String) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

async fn create_room(
    State(state): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if let Some(refused) = refuse_origin(&state.limits, &headers) {
        return refused;
    }
    // JSON only: a cross-site HTML form can send text/plain or a form encoding without the
    // browser asking first, but not application/json.
    let req: CreateRoom = match auth::read_json(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.options.quickplay.is_some() {
        return bad_request("`quickplay` is set by quick play (POST /api/quickplay), not by a room's creator".into());
    }
    match state.lobby.create_from(&req.game, req.options, peer).await {
        Ok(id) => (StatusCode::CREATED, Json(serde_json::json!({ "id": id }))).into_response(),
        Err(CreateError::Bad(e)) => bad_request(e.to_string()),
        Err(CreateError::Refused(r)) => refused(r),
    }
}

async fn room_socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Peer(peer): Peer,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    if let Some(refused) = refuse_origin(&state.limits, &headers) {
        return refused;
    }
    if let Some(refused) = refuse_lookup(&state, peer) {
        return refused;
    }
    // Not here: on a node, a room that lives elsewhere (or is moving) gets its socket opened
    // and closed at once `4001` "moved" (a page cannot read the HTTP answer to a refused
    // WebSocket, but it can read a close frame): the client looks the room up again.
    let moved = match state.lobby.locate(&id).await {
        Ok(lobby::Whereabouts::Here) => false,
        Ok(lobby::Whereabouts::Missing) => {
            state.lobby.usage().missed(peer);
            return (StatusCode::NOT_FOUND, Json(serde_json::json!({ "error": format!("no room {id}") })))
                .into_response();
        }
        Ok(lobby::Whereabouts::Elsewhere { .. } | lobby::Whereabouts::Moving) => true,
        Err(e) => return unavailable(&e),
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => return e.into_response(),
    };
    // Who opens it: a signed-in person joins the room under their account's name.
    let person = match auth::person(&state, &headers).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    if moved {
        return ws.on_upgrade(conn::moved_socket);
    }
    // A banned person hears so on the socket (a page cannot read a refused upgrade's answer).
    if let Some(p) = &person {
        let now = room::now_ms();
        match state.lobby.store().active_ban(p.account, now).await {
            Ok(Some(ban)) => return ws.on_upgrade(move |socket| conn::banned_socket(socket, ban)),
            Ok(None) => {}
            Err(e) => return unavailable(&e),
        }
    }
    // Over a limit the socket is opened and closed at once with the reason: a page cannot read
    // the HTTP answer to a refused WebSocket, but it can read a close frame's reason.
    let ticket = state.lobby.usage().admit_socket(peer);
    // Small buffers: an idle connection should cost a few KiB, not the default 256 KiB, so
    // a server can hold tens of thousands (the read buffer grows for a large frame). The read
    // buffer is zeroed up to its size before every read attempt, so it is kept to what a
    // client's packets need (a move is well under 1 KiB).
    ws.max_message_size(protocol::MAX_FRAME)
        .max_frame_size(protocol::MAX_FRAME)
        .read_buffer_size(1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| async move {
            let ticket = match ticket {
                Ok(t) => t,
                Err(r) => {
                    metrics::refused("socket_limit");
                    return conn::refuse_socket(socket, r.reason).await;
                }
            };
            let limits = conn::ConnLimits { rate: state.rate_limit, queue_bytes: state.limits.queue_bytes };
            conn::serve_socket(socket, &state.lobby, &id, limits, person).await;
            drop(ticket);
        })
}
