//! One WebSocket connection, one task: it forwards the client's frames to the room (rate
//! limited) and drains the connection's outbound queue to the socket, whichever is ready.
//! Neither ever blocks the room: the room only ever `try_send`s to the queue. (One task, not
//! a reader and a writer over a split socket: half the tasks, no lock around the socket.)
//!
//! The room's channel counts packets, and a packet can be large (a sync of a crowded room),
//! so the task empties that channel at once into its own queue counted in bytes ([`OutQueue`]).
//! A client that stops reading fills the socket, then that queue; past `queue_bytes` it is
//! disconnected (close 1008) and the room treats it as any dropped connection. What one
//! client pins is bounded by the queue's cap, not by what the room says.

use crate::lobby::Lobby;
use crate::room::{ConnId, Outbound, Person};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Packets a second a connection may send, and the burst it may save up.
pub const RATE: f64 = 20.0;
pub const BURST: f64 = 40.0;
/// Outbound packets the room's channel holds for a connection. The connection's task empties
/// it whenever it runs; this only covers the moments it has not run yet.
const QUEUE: usize = 512;
/// WebSocket close code for a client that does not read (1008: policy violation).
pub const CLOSE_NOT_READING: u16 = 1008;
/// WebSocket close code for a frame over [`protocol::MAX_FRAME`] (1009: message too big).
pub const CLOSE_TOO_BIG: u16 = 1009;
/// WebSocket close code for a socket over a limit on sockets (1013: try again later).
pub const CLOSE_LIMIT: u16 = 1013;
/// WebSocket close code for a room that has closed (1001: going away).
pub const CLOSE_ROOM_GONE: u16 = 1001;
/// WebSocket close code for a room that is not on this server (any more): another node owns
/// it, it was handed over, or this node lost it (`4001`, reason "moved"). The client looks
/// the room up again (`GET /api/rooms/{id}`) and reconnects with its token where it lives.
pub const CLOSE_MOVED: u16 = 4001;
/// How long a goodbye (a close frame, the last packets at shutdown) may take to go out.
const GOODBYE: Duration = Duration::from_secs(1);
/// How long a room that moved has to end by itself (its last packets go out first) before its
/// sockets close anyway: a room whose write waits on a database link gone silent would
/// otherwise hold its players until the link came back.
pub const MOVED_GRACE: Duration = Duration::from_secs(1);

/// How one connection is served: its rate limit and its outbound cap.
#[derive(Clone, Copy)]
pub struct ConnLimits {
    /// Packets a second the client may send (bursts of `rate * BURST / RATE`).
    pub rate: f64,
    /// Bytes of packets queued for the client before it counts as not reading.
    pub queue_bytes: usize,
}

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

/// Packets waiting for the socket, counted in bytes against a cap.
pub struct OutQueue {
    packets: VecDeque<Outbound>,
    bytes: usize,
    cap: usize,
}

impl OutQueue {
    pub fn new(cap: usize) -> Self {
        OutQueue { packets: VecDeque::new(), bytes: 0, cap }
    }

    /// Queues `packet`, or refuses it (queue unchanged) if it would take the queue past its
    /// cap. An empty queue takes any one packet, so a single large packet is not by itself a
    /// reason to drop a client: the most a queue holds is its cap or one packet.
    pub fn push(&mut self, packet: Outbound) -> Result<(), Outbound> {
        let n = packet.as_str().len();
        if !self.packets.is_empty() && self.bytes + n > self.cap {
            return Err(packet);
        }
        self.bytes += n;
        self.packets.push_back(packet);
        Ok(())
    }

    pub fn pop(&mut self) -> Option<Outbound> {
        let p = self.packets.pop_front()?;
        self.bytes -= p.as_str().len();
        Some(p)
    }

    /// Bytes queued.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}

/// What woke the connection's task.
enum Event {
    Client(Option<Result<Message, axum::Error>>),
    /// The room is gone (the server is shutting down, or the room moved).
    RoomGone,
    /// The client is over its outbound cap.
    NotReading,
    WriteFailed,
}

/// Serves one WebSocket of room `id` (woken through the lobby if it is dormant), opened by
/// `person` if signed in.
pub async fn serve_socket(mut socket: WebSocket, lobby: &Lobby, id: &str, limits: ConnLimits, person: Option<Person>) {
    let conn: ConnId = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = mpsc::channel::<Outbound>(QUEUE);
    let Some(room) = lobby.connect(id, conn, tx, person).await else {
        // Let go between the lookup and the connection (a node): it moved.
        if lobby.node().cluster {
            goodbye(&mut socket, CLOSE_MOVED, "moved".into()).await;
        } else {
            goodbye(&mut socket, CLOSE_ROOM_GONE, "this room has closed".into()).await;
        }
        return;
    };
    let rate = limits.rate;
    let mut bucket = TokenBucket::new(rate, rate * BURST / RATE);
    let mut last_warning: Option<Instant> = None;
    let mut out = OutQueue::new(limits.queue_bytes);
    let mut unflushed = false;
    let moved = room.moved_signal();
    let mut moved = std::pin::pin!(async move {
        moved.await;
        tokio::time::sleep(MOVED_GRACE).await;
    });
    loop {
        // Updates first, so a client that floods us still hears the table promptly: take what
        // the room queued, give the socket what it will take (everything queued goes out in
        // one flush, one write on the socket), and only then read.
        let event = std::future::poll_fn(|cx| {
            if moved.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Event::RoomGone);
            }
            loop {
                match rx.poll_recv(cx) {
                    Poll::Ready(Some(p)) => {
                        // Over the cap counts only what the socket would not take: a burst
                        // (two full syncs back to back, say) is handed to the socket first.
                        let Err(p) = out.push(p) else { continue };
                        if let Err(e) = write_out(&mut socket, &mut out, &mut unflushed, cx) {
                            return Poll::Ready(e);
                        }
                        if out.push(p).is_err() {
                            return Poll::Ready(Event::NotReading);
                        }
                    }
                    Poll::Ready(None) => return Poll::Ready(Event::RoomGone),
                    Poll::Pending => break,
                }
            }
            if let Err(e) = write_out(&mut socket, &mut out, &mut unflushed, cx) {
                return Poll::Ready(e);
            }
            if unflushed {
                match socket.poll_flush_unpin(cx) {
                    Poll::Ready(Ok(())) => unflushed = false,
                    Poll::Ready(Err(_)) => return Poll::Ready(Event::WriteFailed),
                    Poll::Pending => {}
                }
            }
            socket.poll_next_unpin(cx).map(Event::Client)
        })
        .await;
        let frame = match event {
            Event::Client(frame) => frame,
            Event::RoomGone => {
                let frame = if room.moved() {
                    CloseFrame { code: CLOSE_MOVED, reason: "moved".into() }
                } else {
                    CloseFrame {
                        code: CLOSE_ROOM_GONE,
                        reason: "the room has closed, or the server is stopping".into(),
                    }
                };
                let _ = tokio::time::timeout(GOODBYE, async {
                    while let Some(p) = out.pop() {
                        socket.feed(Message::Text(p)).await?;
                    }
                    socket.send(Message::Close(Some(frame))).await
                })
                .await;
                return;
            }
            Event::NotReading => {
                tracing::info!(conn, queued = out.bytes(), "a client is not reading its packets; disconnecting it");
                // Free the queue now: the goodbye may never get through.
                drop(out);
                let reason = format!("not reading: over {} bytes of packets queued", limits.queue_bytes);
                goodbye(&mut socket, CLOSE_NOT_READING, reason).await;
                break;
            }
            Event::WriteFailed => break,
        };
        let posted = match frame {
            Some(Ok(Message::Text(text))) => {
                let now = Instant::now();
                if bucket.take(now) {
                    room.text_at(conn, text, now).await
                } else if last_warning.is_none_or(|t| now.duration_since(t).as_secs() >= 1) {
                    last_warning = Some(now);
                    room.rate_limited(conn).await
                } else {
                    continue;
                }
            }
            Some(Ok(Message::Binary(_))) => room.binary(conn).await,
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Err(e)) => {
                if !is_too_big(e) {
                    break;
                }
                goodbye(&mut socket, CLOSE_TOO_BIG, format!("a frame over {} bytes", protocol::MAX_FRAME)).await;
                // The rest of the frame is unread and cannot be skipped; closing now would
                // reset the connection, and a reset can destroy the close frame before the
                // client reads it. Give it a moment.
                tokio::time::sleep(GOODBYE).await;
                break;
            }
            Some(Ok(Message::Close(_))) | None => break,
        };
        if posted.is_err() {
            break;
        }
    }
    let _ = room.disconnect(conn).await;
}

/// Gives the socket every queued packet it will take now (they go out in one flush).
fn write_out(
    socket: &mut WebSocket,
    out: &mut OutQueue,
    unflushed: &mut bool,
    cx: &mut Context<'_>,
) -> Result<(), Event> {
    while !out.is_empty() {
        match socket.poll_ready_unpin(cx) {
            Poll::Ready(Ok(())) => {
                let p = out.pop().expect("not empty");
                if socket.start_send_unpin(Message::Text(p)).is_err() {
                    return Err(Event::WriteFailed);
                }
                *unflushed = true;
            }
            Poll::Ready(Err(_)) => return Err(Event::WriteFailed),
            Poll::Pending => break,
        }
    }
    Ok(())
}

/// Closes a socket to a room that is not on this server, with [`CLOSE_MOVED`] "moved".
pub async fn moved_socket(mut socket: WebSocket) {
    goodbye(&mut socket, CLOSE_MOVED, "moved".into()).await;
}

/// Tells a banned person's socket so (a `Banned` packet: the reason and the ban's end) and
/// closes it with [`protocol::CLOSE_BANNED`] ("banned until …" as the close reason).
pub async fn banned_socket(mut socket: WebSocket, ban: store::moderation::Ban) {
    let packet = protocol::ServerMsg::Banned { reason: crate::auth::ban_sentence(&ban), until: ban.until };
    let text = serde_json::to_string(&packet).expect("packets serialize");
    let _ = tokio::time::timeout(GOODBYE, socket.send(Message::Text(text.into()))).await;
    // A close reason holds at most 123 bytes: the end of the ban, not the moderator's words.
    let reason = match ban.until {
        Some(until) => format!("banned until {} UTC", crate::auth::utc(until)),
        None => "banned for good".to_string(),
    };
    goodbye(&mut socket, protocol::CLOSE_BANNED, reason).await;
}

/// Closes a socket refused by a limit, with code [`CLOSE_LIMIT`] and the reason.
pub async fn refuse_socket(mut socket: WebSocket, reason: String) {
    goodbye(&mut socket, CLOSE_LIMIT, reason).await;
}

/// Whether a read failed on a frame or message over the socket's size limit.
fn is_too_big(e: axum::Error) -> bool {
    use tokio_tungstenite::tungstenite::Error;
    matches!(e.into_inner().downcast_ref::<Error>(), Some(Error::Capacity(_)))
}

/// Sends a close frame, giving up after [`GOODBYE`] (a client that does not read may never
/// take it).
async fn goodbye(socket: &mut WebSocket, code: u16, reason: String) {
    let frame = CloseFrame { code, reason: reason.into() };
    let _ = tokio::time::timeout(GOODBYE, socket.send(Message::Close(Some(frame)))).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_counts_bytes_and_refuses_past_its_cap() {
        let mut q = OutQueue::new(10);
        assert!(q.push("abcd".into()).is_ok());
        assert!(q.push("efgh".into()).is_ok());
        assert_eq!(q.bytes(), 8);
        assert!(q.push("ijk".into()).is_err(), "8 + 3 > 10");
        assert_eq!(q.bytes(), 8);
        assert!(q.push("ij".into()).is_ok());
        assert_eq!(q.pop().as_deref(), Some("abcd"));
        assert_eq!(q.bytes(), 6);
        while q.pop().is_some() {}
        assert_eq!(q.bytes(), 0);
        // One packet larger than the cap still goes into an empty queue, and nothing after it.
        assert!(q.push("x".repeat(50).into()).is_ok());
        assert!(q.push("y".into()).is_err());
    }
}
