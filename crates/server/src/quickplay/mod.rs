//! Quick play (issue 43): "Play now" seats a person (or a party of friends) at a table of a
//! game within the server's wait, with people of a like rating if there are any and the bots
//! nearest the table's rating in the other seats.
//!
//! - `POST /api/quickplay {game, players?, party?}` queues the signed-in person (or their
//!   party) and answers a ticket; `GET /api/quickplay/{ticket}/ws` tells its waiting client how
//!   long it has waited and then where it is seated (room, node, path); `GET` and `DELETE
//!   /api/quickplay/{ticket}` ask and cancel over HTTP.
//! - `POST /api/parties` makes a party (its link `/party/{id}`), `POST /api/parties/{id}/join`
//!   joins it, `GET /api/parties/{id}` shows it (with its ticket once its leader queued it).
//!
//! A person alone whose rated games of the game are fewer than the server's placement count
//! ([`crate::limits::Limits::quickplay_placement`]) is not queued: a **placement game** seats
//! them at once with the bot nearest their rating, so that ratings start on the bots' scale
//! (docs/rating.md, "Placement").
//!
//! The matching is [`matching::plan`] (the window, the wait, the bots). Where the queue lives:
//! on a lone server in one actor task (`memory`); on a cluster in PostgreSQL (`shared`,
//! `quickplay_queue`), matched by whichever node claims the waiting tickets, so that people
//! connected to different nodes meet. Either way the room is made on the matching node and
//! every ticket says where it is: its people join it as any room ([`crate::room::options::
//! QuickTable`] reserves their seats and starts the game once they are in).

pub mod matching;
mod memory;
mod shared;

use crate::AppState;
use crate::error::fail;
use crate::lobby::Lobby;
use crate::room::RoomOptions;
use crate::room::options::{QuickSeat, QuickTable};
use axum::Json;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use registry::GameKind;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// How long the people of a quick-play table have to join it before its game starts without
/// those who did not come (bots take their seats).
pub const JOIN_SECONDS: u64 = 30;
/// A waiting ticket nobody has asked about (its socket, or `GET`) for this long leaves the
/// queue: a page closed without cancelling does not get a table it will never join. A page
/// that reloads is back well within it.
pub const UNWATCHED: Duration = Duration::from_secs(5);
/// A seated ticket is kept this long after it was last asked about, so a client that missed
/// the news (a dropped socket) still finds its table.
pub const SEATED_KEPT: Duration = Duration::from_secs(60);
/// The most people in a party (the largest table of any game).
pub const MAX_PARTY: usize = 8;

/// Where a ticket was seated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seated {
    pub room: String,
    pub node: String,
    pub path: String,
    /// The bots' levels, one a seat.
    pub bots: Vec<String>,
}

/// A ticket as its people see it.
#[derive(Clone, Debug, PartialEq)]
pub struct TicketInfo {
    pub ticket: String,
    pub game: GameKind,
    pub players: usize,
    pub people: Vec<QuickSeat>,
    pub rating: f64,
    pub waited: Duration,
    pub seated: Option<Seated>,
}

impl TicketInfo {
    /// What a waiting client is told: `QuickPlayWaiting` or `QuickPlaySeated`.
    pub fn message(&self, wait: Duration) -> serde_json::Value {
        let people: Vec<&str> = self.people.iter().map(|p| p.name.as_str()).collect();
        match &self.seated {
            None => serde_json::json!({
                "type": "QuickPlayWaiting", "ticket": self.ticket, "game": self.game.name(),
                "players": self.players, "people": people, "rating": self.rating.round(),
                "window": matching::window(self.waited).round(),
                "waitedMs": self.waited.as_millis() as u64,
                "botsInMs": wait.saturating_sub(self.waited).as_millis() as u64,
            }),
            Some(s) => serde_json::json!({
                "type": "QuickPlaySeated", "ticket": self.ticket, "game": self.game.name(),
                "players": self.players, "people": people, "room": s.room, "node": s.node,
                "path": s.path, "bots": s.bots, "waitedMs": self.waited.as_millis() as u64,
            }),
        }
    }
}

/// A party of friends who queue together.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Party {
    pub id: String,
    pub leader: String,
    #[serde(skip)]
    pub leader_account: i64,
    #[serde(skip)]
    pub members: Vec<QuickSeat>,
    /// The members' names, the leader first.
    pub people: Vec<String>,
    /// The ticket the party waits on (or was seated by), once it queued.
    pub ticket: Option<String>,
    pub link: String,
}

/// A ticket just queued, and whether it is a placement game: `(n, of)`, the person's `n`th
/// placement game of `of`.
pub struct Queued {
    pub info: TicketInfo,
    pub placing: Option<(u64, u64)>,
}

/// Why quick play refused.
#[derive(Debug)]
pub enum QpError {
    /// No such party, or not one of its members.
    NoParty,
    /// The party is larger than the table.
    PartyTooBig,
    /// The party has as many people as any table takes.
    PartyFull,
    Store(store::StoreError),
    /// A placement table could not be made (the server's room limit, its database).
    Table(crate::Error),
}

/// Quick play's queue, wherever it lives.
pub struct QuickPlay {
    backend: Backend,
    /// How long before bots fill a table's empty seats.
    pub wait: Duration,
}

enum Backend {
    Memory(memory::Handle),
    Shared,
}

impl QuickPlay {
    /// The queue of `lobby`'s server: in PostgreSQL for a node of a cluster, else in an actor
    /// task; its matcher runs until the lobby is gone.
    pub fn start(lobby: &Arc<Lobby>, wait: Duration) -> Arc<QuickPlay> {
        let backend = if lobby.node().cluster && lobby.store().cluster().is_some() {
            shared::spawn_matcher(Arc::downgrade(lobby), wait);
            Backend::Shared
        } else {
            Backend::Memory(memory::spawn(Arc::downgrade(lobby), wait))
        };
        Arc::new(QuickPlay { backend, wait })
    }

    /// Queues `people` (one person, or a party) for a table of `players` of `game`.
    pub async fn enqueue(
        &self,
        lobby: &Lobby,
        game: GameKind,
        players: usize,
        people: Vec<QuickSeat>,
    ) -> Result<Queued, QpError> {
        let (rating, games) = table_rating(lobby, game, &people).await.map_err(QpError::Store)?;
        let ticket = new_ticket();
        let mut info = TicketInfo { ticket, game, players, people, rating, waited: Duration::ZERO, seated: None };
        // Placement: a person alone who has played fewer rated games of this game than the
        // server's placement count sits with the bot nearest their rating at once, without
        // queueing (a party plays together, so it never places).
        let placement = lobby.usage().limits().quickplay_placement;
        let placing = (info.people.len() == 1 && games < u64::from(placement)).then_some(games + 1);
        if placing.is_some() {
            let seated =
                seat_table(lobby, game, info.people.clone(), rating, players - 1).await.map_err(QpError::Table)?;
            info.seated = Some(seated);
            crate::metrics::quickplay_wait(game.name(), Duration::ZERO);
        }
        match &self.backend {
            Backend::Memory(h) => h.enqueue(info.clone()).await,
            Backend::Shared => shared::enqueue(lobby, &info).await.map_err(QpError::Store)?,
        }
        Ok(Queued { info, placing: placing.map(|n| (n, u64::from(placement))) })
    }

    /// Ticket `ticket`, if `account` is one of its people (marks it watched).
    pub async fn status(&self, lobby: &Lobby, ticket: &str, account: i64) -> Result<Option<TicketInfo>, QpError> {
        let info = match &self.backend {
            Backend::Memory(h) => h.status(ticket).await,
            Backend::Shared => shared::status(lobby, ticket).await.map_err(QpError::Store)?,
        };
        Ok(info.filter(|i| i.people.iter().any(|p| p.account == account)))
    }

    /// Takes a waiting ticket of `account`'s out of the queue; `true` if it was waiting.
    pub async fn cancel(&self, lobby: &Lobby, ticket: &str, account: i64) -> Result<bool, QpError> {
        match &self.backend {
            Backend::Memory(h) => Ok(h.cancel(ticket, account).await),
            Backend::Shared => shared::cancel(lobby, ticket, account).await.map_err(QpError::Store),
        }
    }

    fn parties(&self) -> Option<&memory::Handle> {
        match &self.backend {
            Backend::Memory(h) => Some(h),
            Backend::Shared => None,
        }
    }
}

/// The mean rating in `game` of `people`, as quick play matches on it: each one's Glicko-2
/// rating as it stands now (widened for the time since it was last rated), a newcomer's
/// 1500 for one who has none; and the fewest rated games of it any of them has played.
async fn table_rating(lobby: &Lobby, game: GameKind, people: &[QuickSeat]) -> Result<(f64, u64), store::StoreError> {
    let accounts: Vec<i64> = people.iter().map(|p| p.account).collect();
    let rated = lobby.store().game_ratings(game.name(), &accounts).await?;
    let now = crate::room::now_ms();
    let own = |a: &i64| rated.iter().find(|r| r.account == *a);
    let total: f64 = accounts.iter().map(|a| own(a).map_or(rating::INITIAL_R, |r| r.rating_at(now).r)).sum();
    let fewest = accounts.iter().map(|a| own(a).map_or(0, |r| r.games)).min().unwrap_or(0);
    Ok((total / accounts.len().max(1) as f64, fewest))
}

/// The bot levels of `game` with their fixed ratings (the ladder's, anchored `medium` = 1500),
/// those a room can seat only.
pub fn bot_levels(game: GameKind) -> Vec<(String, f64)> {
    rating::bot_ratings(game.name())
        .iter()
        .filter(|(l, _)| search::Level::NAMES.contains(&l.as_str()))
        .cloned()
        .collect()
}

/// Makes the room of a planned table on this node: `people` reserved, `bots` seats for the
/// level nearest `rating`. Answers where it is.
pub(crate) async fn seat_table(
    lobby: &Lobby,
    game: GameKind,
    people: Vec<QuickSeat>,
    rating: f64,
    bots: usize,
) -> Result<Seated, crate::Error> {
    let levels = bot_levels(game);
    let level = matching::nearest_level(&levels, rating).unwrap_or(crate::adapter::STAND_IN_LEVEL).to_string();
    let bots = vec![level; bots];
    let limits = lobby.usage().limits();
    // Quick play's games are rated (issue 43): a table of strangers matched by rating.
    let options = RoomOptions {
        rated: true,
        bot_delay_ms: limits.quickplay_bot_delay_ms,
        private: true,
        quickplay: Some(QuickTable { people, bots: bots.clone(), join_seconds: JOIN_SECONDS }),
        ..RoomOptions::default()
    };
    let room = lobby.create(game.name(), options).await?;
    let node = lobby.node();
    Ok(Seated { room, node: node.id().to_string(), path: node.path().to_string(), bots })
}

/// A ticket or party id: 128 bits from the operating system, as 32 hex digits (whoever holds
/// a party's id can join it: it is its link).
fn new_ticket() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn qp_error(e: QpError) -> Response {
    match e {
        QpError::NoParty => fail(StatusCode::NOT_FOUND, "no_party", "no such party, or you are not in it"),
        QpError::PartyTooBig => {
            fail(StatusCode::BAD_REQUEST, "party_too_big", "the party has more people than the table has seats")
        }
        QpError::PartyFull => {
            fail(StatusCode::CONFLICT, "party_full", format!("a party has at most {MAX_PARTY} people"))
        }
        QpError::Store(e) | QpError::Table(crate::Error::Store(e)) => crate::error::store_down(&e),
        QpError::Table(e) => fail(StatusCode::SERVICE_UNAVAILABLE, "no_table", format!("no table could be made: {e}")),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct QueueRequest {
    game: String,
    #[serde(default)]
    players: Option<usize>,
    #[serde(default)]
    party: Option<String>,
}

/// The signed-in person of a request that changes something (the origin checked, the body
/// read), or the refusal.
async fn signed_person<T: serde::de::DeserializeOwned>(
    state: &AppState,
    headers: &HeaderMap,
    body: axum::body::Body,
) -> Result<(crate::room::Person, T), Response> {
    if let Some(refused) = crate::refuse_origin(&state.limits, headers) {
        return Err(refused);
    }
    let req: T = crate::auth::read_json(state, headers, body).await?;
    match crate::auth::person(state, headers).await? {
        Some(p) => Ok((p, req)),
        None => Err(fail(StatusCode::UNAUTHORIZED, "signed_out", "you are not signed in")),
    }
}

async fn reader(state: &AppState, headers: &HeaderMap) -> Result<crate::room::Person, Response> {
    crate::auth::person(state, headers)
        .await?
        .ok_or_else(|| fail(StatusCode::UNAUTHORIZED, "signed_out", "you are not signed in"))
}

/// `POST /api/quickplay {game, players?, party?}`.
pub async fn queue(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Body) -> Response {
    let (person, req) = match signed_person::<QueueRequest>(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Ok(game) = req.game.parse::<GameKind>() else {
        return fail(
            StatusCode::BAD_REQUEST,
            "unknown_game",
            format!("no game {} (games: {})", req.game, GameKind::names()),
        );
    };
    let seats = game.seats();
    let players = req.players.unwrap_or(usize::from(game.default_players()));
    if !(usize::from(*seats.start())..=usize::from(*seats.end())).contains(&players) {
        let reason =
            format!("{} is played by {} to {} players, not {players}", game.title(), seats.start(), seats.end());
        return fail(StatusCode::BAD_REQUEST, "bad_players", reason);
    }
    let qp = &state.quickplay;
    let people = match &req.party {
        None => vec![QuickSeat { account: person.account, name: person.name.clone() }],
        Some(id) => match qp.parties() {
            Some(h) => match h.party(id).await {
                Some(p) if p.members.iter().any(|m| m.account == person.account) => p.members,
                _ => return qp_error(QpError::NoParty),
            },
            None => return qp_error(QpError::NoParty),
        },
    };
    if people.len() > players {
        return qp_error(QpError::PartyTooBig);
    }
    // Leaving rated games repeatedly makes a person wait before the next quick play (a party
    // waits for its members).
    let now = crate::room::now_ms();
    for p in &people {
        match state.lobby.store().leave_penalty(p.account, now).await {
            Ok(penalty) if penalty.waiting(now) => return cooldown(&p.name, penalty.until - now),
            Ok(_) => {}
            Err(e) => return crate::error::store_down(&e),
        }
    }
    let Queued { info, placing } = match qp.enqueue(&state.lobby, game, players, people).await {
        Ok(q) => q,
        Err(e) => return qp_error(e),
    };
    if let (Some(id), Some(h)) = (&req.party, qp.parties()) {
        h.party_queued(id, &info.ticket).await;
    }
    let mut body = info.message(qp.wait);
    body["wait"] = qp.wait.as_secs_f64().into();
    if let Some((n, of)) = placing {
        body["placement"] = serde_json::json!({ "game": n, "of": of });
    }
    (StatusCode::CREATED, Json(body)).into_response()
}

/// `GET /api/quickplay/{ticket}`: the ticket's `QuickPlayWaiting` or `QuickPlaySeated`.
pub async fn ticket(State(state): State<AppState>, headers: HeaderMap, Path(ticket): Path<String>) -> Response {
    let person = match reader(&state, &headers).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    match state.quickplay.status(&state.lobby, &ticket, person.account).await {
        Ok(Some(info)) => Json(info.message(state.quickplay.wait)).into_response(),
        Ok(None) => no_ticket(),
        Err(e) => qp_error(e),
    }
}

/// `429 cooldown` with `Retry-After`: `name` left rated games too often lately.
fn cooldown(name: &str, ms: u64) -> Response {
    let secs = ms.div_ceil(1000);
    let mut r = fail(
        StatusCode::TOO_MANY_REQUESTS,
        "cooldown",
        format!("{name} left rated games too often lately: quick play again in {secs} s"),
    );
    if let Ok(v) = axum::http::HeaderValue::from_str(&secs.to_string()) {
        r.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
    }
    r
}

fn no_ticket() -> Response {
    fail(StatusCode::NOT_FOUND, "no_ticket", "no such ticket: it was cancelled, or nobody asked about it for a while")
}

/// `DELETE /api/quickplay/{ticket}`: leaves the queue.
pub async fn cancel(State(state): State<AppState>, headers: HeaderMap, Path(ticket): Path<String>) -> Response {
    if let Some(refused) = crate::refuse_origin(&state.limits, &headers) {
        return refused;
    }
    let person = match reader(&state, &headers).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    match state.quickplay.cancel(&state.lobby, &ticket, person.account).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => no_ticket(),
        Err(e) => qp_error(e),
    }
}

/// How often a waiting socket looks at its ticket, and how often it tells its client.
const LOOK_EVERY: Duration = Duration::from_millis(200);
const TELL_EVERY: Duration = Duration::from_secs(1);
/// Close code of a ticket socket whose ticket is gone (cancelled, expired, someone else's).
pub const CLOSE_NO_TICKET: u16 = 4004;

/// `GET /api/quickplay/{ticket}/ws`: the wait, then the seat.
pub async fn socket(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(ticket): Path<String>,
    crate::Peer(peer): crate::Peer,
    ws: WebSocketUpgrade,
) -> Response {
    if let Some(refused) = crate::refuse_origin(&state.limits, &headers) {
        return refused;
    }
    let person = match reader(&state, &headers).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let admitted = state.lobby.usage().admit_socket(peer);
    ws.max_message_size(4096).on_upgrade(move |socket| async move {
        let _admitted = match admitted {
            Ok(t) => t,
            Err(r) => return crate::conn::refuse_socket(socket, r.reason).await,
        };
        watch_ticket(socket, state, ticket, person.account).await;
    })
}

async fn watch_ticket(mut socket: WebSocket, state: AppState, ticket: String, account: i64) {
    let qp = state.quickplay.clone();
    let mut look = tokio::time::interval(LOOK_EVERY);
    let mut told: Option<tokio::time::Instant> = None;
    let close = |code: u16, reason: &'static str| Message::Close(Some(CloseFrame { code, reason: reason.into() }));
    loop {
        tokio::select! {
            _ = look.tick() => {
                let info = match qp.status(&state.lobby, &ticket, account).await {
                    Ok(Some(info)) => info,
                    Ok(None) => {
                        let _ = socket.send(close(CLOSE_NO_TICKET, "no such ticket")).await;
                        return;
                    }
                    // The database out of reach for a moment: ask again at the next look.
                    Err(_) => continue,
                };
                let seated = info.seated.is_some();
                if seated || told.is_none_or(|t| t.elapsed() >= TELL_EVERY) {
                    let text = info.message(qp.wait).to_string();
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                    told = Some(tokio::time::Instant::now());
                }
                if seated {
                    let _ = socket.send(close(1000, "seated")).await;
                    return;
                }
            }
            msg = socket.next() => match msg {
                Some(Ok(Message::Text(text))) => {
                    #[derive(Deserialize)]
                    struct Kind { #[serde(rename = "type")] kind: String }
                    let kind = serde_json::from_str::<Kind>(&text).map(|k| k.kind).unwrap_or_default();
                    if kind == "CancelQuickPlay" {
                        let _ = qp.cancel(&state.lobby, &ticket, account).await;
                        let text = serde_json::json!({"type": "QuickPlayCancelled", "ticket": ticket}).to_string();
                        let _ = socket.send(Message::Text(text.into())).await;
                        let _ = socket.send(close(1000, "cancelled")).await;
                        return;
                    }
                    let text = serde_json::json!({
                        "type": "ActionFailed", "code": protocol::codes::BAD_PACKET,
                        "reason": "a quick-play socket takes {\"type\":\"CancelQuickPlay\"} only",
                    }).to_string();
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                // Gone: the ticket stays until nobody has asked about it for `UNWATCHED` (a
                // page that reloads finds it again).
                Some(Err(_)) | None => return,
            },
        }
    }
}

/// `POST /api/parties`: a new party led by the signed-in person.
pub async fn new_party(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Body) -> Response {
    let (person, _) = match signed_person::<serde_json::Value>(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some(h) = state.quickplay.parties() else { return no_parties() };
    let party = h.new_party(QuickSeat { account: person.account, name: person.name }).await;
    (StatusCode::CREATED, Json(party)).into_response()
}

/// `GET /api/parties/{id}`.
pub async fn get_party(State(state): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if let Err(r) = reader(&state, &headers).await {
        return r;
    }
    let Some(h) = state.quickplay.parties() else { return no_parties() };
    match h.party(&id).await {
        Some(p) => Json(p).into_response(),
        None => qp_error(QpError::NoParty),
    }
}

/// `POST /api/parties/{id}/join`.
pub async fn join_party(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::body::Body,
) -> Response {
    let (person, _) = match signed_person::<serde_json::Value>(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some(h) = state.quickplay.parties() else { return no_parties() };
    match h.join_party(&id, QuickSeat { account: person.account, name: person.name }).await {
        Ok(p) => Json(p).into_response(),
        Err(e) => qp_error(e),
    }
}

/// `POST /api/parties/{id}/leave`.
pub async fn leave_party(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::body::Body,
) -> Response {
    let (person, _) = match signed_person::<serde_json::Value>(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some(h) = state.quickplay.parties() else { return no_parties() };
    h.leave_party(&id, person.account).await;
    StatusCode::NO_CONTENT.into_response()
}

/// Parties live in the memory of a lone server for now.
fn no_parties() -> Response {
    fail(
        StatusCode::NOT_IMPLEMENTED,
        "no_parties",
        "parties are not kept on a cluster yet: queue on your own, or play on one server",
    )
}
