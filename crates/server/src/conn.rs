//! One WebSocket connection: a reader that rate-limits and forwards frames to the room, and a
//! writer that drains the connection's outbound queue. Neither ever blocks the room.

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

pub async fn serve_socket(socket: WebSocket, room: RoomHandle, rate: f64) {
    let conn: ConnId = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Outbound>(QUEUE);
    if room.tx.send(RoomCmd::Connect { conn, tx }).await.is_err() {
        return;
    }
    let writer = tokio::spawn(async move {
        // Everything already queued goes out in one flush (one write on the socket).
        while let Some(msg) = rx.recv().await {
            if sink.feed(Message::Text(msg)).await.is_err() {
                return;
            }
            while let Ok(more) = rx.try_recv() {
                if sink.feed(Message::Text(more)).await.is_err() {
                    return;
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = TokenBucket::new(rate, rate * BURST / RATE);
    let mut last_warning: Option<Instant> = None;
    while let Some(frame) = stream.next().await {
        let cmd = match frame {
            Ok(Message::Text(text)) => {
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
            Ok(Message::Binary(_)) => RoomCmd::Binary { conn },
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
        };
        if room.tx.send(cmd).await.is_err() {
            break;
        }
    }
    let _ = room.tx.send(RoomCmd::Disconnect { conn }).await;
    writer.abort();
}
