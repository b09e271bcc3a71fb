//! A read-only live page for a game played somewhere else (the terminal's `-graphics`): it
//! serves the web client's files, a page that mounts the game module's `watch` export, and a
//! WebSocket that pushes every new snapshot (a JSON text the caller builds) to every open page.

use axum::Router;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::response::{Html, Response};
use axum::routing::get;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::watch;

#[derive(Clone)]
struct WatchState {
    page: Arc<str>,
    snapshots: watch::Receiver<String>,
}

/// The page: the shell's top bar and the game module's `watch(root, socketPath)`. `game` and
/// `title` come from code (a game name), never from a user.
fn page(game: &str, title: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="dark">
  <title>{title} · cardtable</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/style.css">
  <script type="module">
    import {{ watch }} from '/games/{game}.js';
    watch(document.getElementById('app'), '/api/watch/ws');
  </script>
</head>
<body>
  <header class="topbar">
    <span class="brand">cardtable</span>
    <span id="conn-status" class="conn-status" role="status" aria-live="polite"></span>
  </header>
  <main id="app" tabindex="-1">
    <noscript>The live view needs JavaScript.</noscript>
  </main>
</body>
</html>
"#
    )
}

/// Serves the live page of `game` (its module must export `watch`) until `shutdown`
/// resolves. Each page gets the latest snapshot on connecting and every later one.
pub async fn serve_watch(
    listener: TcpListener,
    game: &'static str,
    title: &'static str,
    snapshots: watch::Receiver<String>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = WatchState { page: page(game, title).into(), snapshots };
    let app = Router::new()
        .route("/", get(|State(s): State<WatchState>| async move { Html(s.page.to_string()) }))
        .route("/api/watch/ws", get(socket))
        .route("/{*path}", get(|Path(path): Path<String>| async move { crate::asset(&path) }))
        .with_state(state);
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await
}

async fn socket(State(s): State<WatchState>, ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(protocol::MAX_FRAME).on_upgrade(move |socket| push(socket, s.snapshots))
}

async fn push(mut socket: WebSocket, mut snapshots: watch::Receiver<String>) {
    loop {
        let text = snapshots.borrow_and_update().clone();
        if socket.send(Message::Text(text.into())).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
                changed = snapshots.changed() => {
                    if changed.is_err() {
                        // The game is gone: say goodbye so the page can tell.
                        let _ = socket.send(Message::Close(None)).await;
                        return;
                    }
                    break;
                }
                incoming = socket.recv() => {
                    // The page only listens; anything but a close is ignored.
                    match incoming {
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                        Some(Ok(_)) => {}
                    }
                }
            }
        }
    }
}
