//! # server — the cardtable game server
//!
//! `run(listener, config, shutdown)` serves, on one listener:
//! - `GET /` and `GET /r/{id}`: the web client (embedded); `GET /{asset}`: its files;
//! - `GET /api/health` → `{"status":"ok"}`;
//! - `GET /api/rooms` → `[{id, game, players, state, spectators}]`;
//! - `POST /api/rooms` `{"game": NAME, "seed": N?, ...options}` → `{"id": ...}`;
//! - `GET /api/rooms/{id}/ws`: the room's WebSocket (see `docs/protocol.md`).
//!
//! Each room is one task ([`room::Room`]); connections reach it through a [`room::RoomHandle`].
//! Rooms and finished matches are kept in SQLite ([`store`]); on start, every stored room is
//! restored and its players can reconnect with their tokens.

pub mod adapter;
pub mod assets;
pub mod conn;
pub mod games;
pub mod limits;
pub mod lobby;
pub mod room;
pub mod watch;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use limits::Limits;
use lobby::Lobby;
use room::RoomOptions;
use serde::Deserialize;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;

pub struct ServerConfig {
    pub store: store::Store,
    /// Packets a second each connection may send (bursts of twice as many). The rules ask
    /// for at least 20.
    pub rate_limit: f64,
    /// What one client may cost the server (see [`Limits`]).
    pub limits: Limits,
}

impl ServerConfig {
    pub fn new(store: store::Store) -> Self {
        ServerConfig { store, rate_limit: conn::RATE, limits: Limits::default() }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub lobby: Arc<Lobby>,
    pub rate_limit: f64,
    pub limits: Arc<Limits>,
}

/// Serves until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let lobby = Lobby::restore(config.store).await.map_err(std::io::Error::other)?;
    let state = AppState {
        lobby: Arc::new(lobby),
        rate_limit: config.rate_limit.max(conn::RATE),
        limits: Arc::new(config.limits),
    };
    // Packets are small and latency matters: no Nagle delay on any connection.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app(state)).with_graceful_shutdown(shutdown).await
}

pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/api/health", get(|| async { Json(serde_json::json!({"status": "ok"})) }))
        .route("/api/rooms", get(list_rooms).post(create_room))
        .route("/api/rooms/{id}/ws", get(room_socket))
        .route("/", get(|| async { asset("index.html") }))
        .route("/r/{id}", get(|| async { asset("index.html") }))
        .route("/{*path}", get(|Path(path): Path<String>| async move { asset(&path) }))
        .with_state(state)
}

fn asset(path: &str) -> Response {
    match assets::find(path) {
        Some(a) => ([(header::CONTENT_TYPE, a.mime), (header::CACHE_CONTROL, "no-cache")], a.body).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

async fn list_rooms(State(state): State<AppState>) -> impl IntoResponse {
    Json(state.lobby.list())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateRoom {
    game: String,
    #[serde(flatten)]
    options: RoomOptions,
}

fn bad_request(message: String) -> Response {
    (StatusCode::BAD_REQUEST, Json(serde_json::json!({ "error": message }))).into_response()
}

async fn create_room(State(state): State<AppState>, body: axum::body::Bytes) -> Response {
    let req: CreateRoom = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return bad_request(format!("bad request body: {e}")),
    };
    match state.lobby.create(&req.game, req.options).await {
        Ok(id) => (StatusCode::CREATED, Json(serde_json::json!({ "id": id }))).into_response(),
        Err(e) => bad_request(e),
    }
}

async fn room_socket(State(state): State<AppState>, Path(id): Path<String>, ws: WebSocketUpgrade) -> Response {
    let Some(room) = state.lobby.get(&id) else {
        return (StatusCode::NOT_FOUND, Json(serde_json::json!({ "error": format!("no room {id}") }))).into_response();
    };
    // Small buffers: an idle connection should cost a few KiB, not the default 256 KiB, so
    // a server can hold tens of thousands (the read buffer grows for a large frame).
    ws.max_message_size(protocol::MAX_FRAME)
        .max_frame_size(protocol::MAX_FRAME)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| {
            let limits = conn::ConnLimits { rate: state.rate_limit, queue_bytes: state.limits.queue_bytes };
            conn::serve_socket(socket, room, limits)
        })
}
