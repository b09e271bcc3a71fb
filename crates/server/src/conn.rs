//! One WebSocket connection, one task: it forwards the client's frames to the room (rate
//! limited) and drains the connection's outbound queue to the socket, whichever is ready.
//! Neither ever blocks the room: the room only ever `try_send`s to the queue. (One task, not
//! a reader and a writer over a split socket: half the tasks, no lock around the socket.)

use crate::room::{ConnId, Outbound, RoomCmd, RoomHandle};
use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::mpsc;
use tokio::time::Instant;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Packets a second a connection may send, and the burst it may save up.
pub const RATE: f64 = 20.0;
pub const BURST: f64 = 40.0;
/// Outbound packets queued per connection before a slow client starts losing them.
const QUEUE: usize = 512;

/// A token bucket: `rate` tokens a second, at most `burst` saved.
pub struct TokenBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(rate: f64, burst: f64) -> Self {
        TokenBucket { tokens: burst, rate, burst, last: Instant::now() }
    }

    pub fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

pub async fn serve_socket(mut socket: WebSocket, room: RoomHandle, rate: f64) {
    let conn: ConnId = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = mpsc::channel::<Outbound>(QUEUE);
    if room.tx.send(RoomCmd::Connect { conn, tx }).await.is_err() {
        return;
    }
    let mut bucket = TokenBucket::new(rate, rate * BURST / RATE);
    let mut last_warning: Option<Instant> = None;
    loop {
        tokio::select! {
            // Updates first, so a client that floods us still hears the table promptly.
            biased;
            msg = rx.recv() => {
                let Some(msg) = msg else {
                    // The room is gone (the server is shutting down).
                    let _ = socket.close().await;
                    return;
                };
                // Everything already queued goes out in one flush (one write on the socket).
                let mut fed = socket.feed(Message::Text(msg)).await;
                while fed.is_ok()
                    && let Ok(more) = rx.try_recv()
                {
                    fed = socket.feed(Message::Text(more)).await;
                }
                if fed.is_err() || socket.flush().await.is_err() {
                    break;
                }
            }
            frame = socket.next() => {
                let cmd = match frame {
                    Some(Ok(Message::Text(text))) => {
                        let now = Instant::now();
                        if bucket.take(now) {
                            RoomCmd::Text { conn, text }
                        } else if last_warning.is_none_or(|t| now.duration_since(t).as_secs() >= 1) {
                            last_warning = Some(now);
                            RoomCmd::RateLimited { conn }
                        } else {
                            continue;
                        }
                    }
                    Some(Ok(Message::Binary(_))) => RoomCmd::Binary { conn },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                if room.tx.send(cmd).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(RoomCmd::Disconnect { conn }).await;
}
