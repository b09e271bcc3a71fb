//! Moderation over HTTP (issue 44): the admin console's routes, `/api/admin/...`, and the
//! players' reports, `POST /api/reports`.
//!
//! Every admin route needs a signed-in account with the admin role (granted from the terminal:
//! `cardtable admin grant NAME`; nobody is admin by default): `401 signed_out` without a
//! session, `403 not_admin` for anyone else, on every route and action alike. Every action (a
//! close, a ban, an unban, a report resolved) appends a row to the moderation log (who, what,
//! when, why) before it answers; the log has no route that changes it.
//!
//! - `GET /api/admin/rooms`: every room (private and dormant ones too; every node's on a
//!   cluster, from the rooms table the lobby lists from);
//! - `POST /api/admin/rooms/{id}/close {message, reason?}`: closes it; its players hear
//!   `RoomClosed` with the message (on a cluster, a room of another node is closed by its
//!   node's poll of the store, within [`CLOSE_POLL`]);
//! - `GET /api/admin/people?q=TEXT`: accounts whose name contains the text, with their bans;
//! - `GET /api/admin/people/{id}/sessions`;
//! - `POST /api/admin/people/{id}/ban {reason, minutes?}` (no `minutes`: for good) and
//!   `POST /api/admin/people/{id}/unban {reason?}`;
//! - `GET /api/admin/reports?all=true` (open ones only without it), each with the room's chat
//!   and last match when it was filed; `POST /api/admin/reports/{id}/resolve {reason?}`;
//! - `GET /api/admin/log?before=ID`: the moderation log, newest first.

// The helpers here answer a whole `Response` when they refuse: one per request, off the move
// path.
#![allow(clippy::result_large_err)]
use crate::auth::{SignedIn, changing, needs_signed_in, throttled};
use crate::error::{fail, store_down};
use crate::lobby::{Closed, Lobby};
use crate::{AppState, refuse_origin};
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Weak;
use std::time::Duration;
use store::accounts::Account;
use store::moderation::{Ban, NewReport, REPORT_KINDS};

/// How often a server on PostgreSQL looks for closes asked for of its rooms (by another node,
/// or from the terminal).
pub const CLOSE_POLL: Duration = Duration::from_secs(2);

/// The longest reason, message or report line: 500 characters, as a chat message.
const MAX_TEXT: usize = protocol::MAX_CHAT;

/// The longest ban in minutes: ten years (longer is "for good").
const MAX_BAN_MINUTES: u64 = 10 * 366 * 24 * 60;

/// Polls the store for closes asked for of this server's rooms, every [`CLOSE_POLL`], while
/// the lobby lives (PostgreSQL only: SQLite's file is this server's alone while it runs, so a
/// close asked for from the terminal is taken at the next start).
pub fn spawn_close_poller(lobby: Weak<Lobby>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CLOSE_POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(lobby) = lobby.upgrade() else { return };
            if lobby.store().postgres().is_none() || lobby.node().is_stopped() {
                return;
            }
            if lobby.node().connected() && !lobby.node().draining() {
                lobby.take_closes().await;
            }
        }
    });
}

/// The signed-in admin of this request: `401 signed_out`, or `403 not_admin`.
pub async fn needs_admin(state: &AppState, headers: &HeaderMap) -> Result<SignedIn, Response> {
    let s = needs_signed_in(state, headers).await?;
    if !s.account.admin {
        return Err(fail(StatusCode::FORBIDDEN, "not_admin", "only an admin may do this"));
    }
    Ok(s)
}

/// The front of an admin action: `Origin`, the admin role (before the body is read, so every
/// action answers a non-admin alike), then the JSON body.
async fn admin_action<T: serde::de::DeserializeOwned>(
    state: &AppState,
    headers: &HeaderMap,
    body: axum::body::Body,
) -> Result<(SignedIn, T), Response> {
    if let Some(refused) = refuse_origin(&state.limits, headers) {
        return Err(refused);
    }
    let admin = needs_admin(state, headers).await?;
    let req = changing(state, headers, body, true).await?;
    Ok((admin, req))
}

fn no_store(v: Value) -> Response {
    let mut r = Json(v).into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// A text a moderator or a player gives: trimmed, at most [`MAX_TEXT`] characters, no control
/// characters; `field` names it in the refusal.
fn text(field: &str, value: &str, required: bool) -> Result<String, Response> {
    let v = value.trim();
    if v.is_empty() {
        if required {
            return Err(fail(StatusCode::BAD_REQUEST, "bad_text", format!("give a {field}")));
        }
        return Ok(String::new());
    }
    if v.chars().count() > MAX_TEXT || v.chars().any(|c| c.is_control()) {
        return Err(fail(
            StatusCode::BAD_REQUEST,
            "bad_text",
            format!("a {field} has at most {MAX_TEXT} characters and no control characters or line breaks"),
        ));
    }
    Ok(v.to_string())
}

/// How the moderation log names an account.
pub fn account_target(a: &Account) -> String {
    format!("{} (#{})", a.name, a.id)
}

/// Appends to the moderation log: `503` if the store refuses (the action was done; the answer
/// says the log could not be written, and the server's log has it).
async fn write_log(
    state: &AppState,
    admin: &Account,
    action: &str,
    target: &str,
    reason: &str,
) -> Result<i64, Response> {
    let at = crate::room::now_ms();
    match state.lobby.store().log_moderation(Some(admin.id), action, target, reason, at).await {
        Ok(id) => {
            tracing::info!(admin = admin.id, action, target, "moderation: {reason}");
            Ok(id)
        }
        Err(e) => {
            tracing::error!(admin = admin.id, action, target, "moderation log not written: {e}");
            Err(store_down(&e))
        }
    }
}

/// `GET /api/admin/rooms`.
pub async fn rooms(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Err(r) = needs_admin(&state, &headers).await {
        return r;
    }
    match state.lobby.admin_rooms().await {
        Ok(rooms) => no_store(json!(rooms)),
        Err(e) => store_down(&e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseReq {
    message: String,
    #[serde(default)]
    reason: String,
}

/// `POST /api/admin/rooms/{id}/close {message, reason?}`.
pub async fn close_room(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let (admin, req): (_, CloseReq) = match admin_action(&state, &headers, body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let message = match text("message", &req.message, true) {
        Ok(m) => m,
        Err(r) => return r,
    };
    let reason = match text("reason", &req.reason, false) {
        Ok(r) if r.is_empty() => message.clone(),
        Ok(r) => r,
        Err(r) => return r,
    };
    let closed = match state.lobby.close_room(&id, &message).await {
        Ok(c) => c,
        Err(e) => return store_down(&e),
    };
    let how = match closed {
        Closed::Missing => return fail(StatusCode::NOT_FOUND, "no_room", format!("no room {id}")),
        Closed::Here => "closed",
        Closed::Asked => "asked",
    };
    match write_log(&state, &admin.account, "close_room", &format!("room {id}"), &reason).await {
        Ok(entry) => Json(json!({ "room": id, "status": how, "log": entry })).into_response(),
        Err(r) => r,
    }
}

/// `?q=TEXT`.
#[derive(Deserialize)]
pub struct Search {
    #[serde(default)]
    q: String,
}

/// An account as the console shows it, with its ban if one holds.
fn person_json(a: &Account, ban: Option<&Ban>) -> Value {
    json!({
        "id": a.id, "name": a.name, "guest": a.guest, "admin": a.admin, "createdAt": a.created_at,
        "deleted": a.deleted,
        "ban": ban.map(|b| json!({ "until": b.until, "reason": b.reason, "by": b.by, "at": b.at })),
    })
}

/// `GET /api/admin/people?q=TEXT`: at most 50, by name.
pub async fn people(State(state): State<AppState>, headers: HeaderMap, Query(search): Query<Search>) -> Response {
    if let Err(r) = needs_admin(&state, &headers).await {
        return r;
    }
    let store = state.lobby.store();
    let now = crate::room::now_ms();
    let found = match store.search_accounts(search.q.trim(), 50).await {
        Ok(f) => f,
        Err(e) => return store_down(&e),
    };
    let bans: HashMap<i64, Ban> = match store.bans(now).await {
        Ok(b) => b.into_iter().map(|b| (b.account, b)).collect(),
        Err(e) => return store_down(&e),
    };
    no_store(json!(found.iter().map(|a| person_json(a, bans.get(&a.id))).collect::<Vec<_>>()))
}

/// The account `id` (a live one): `404 no_account` otherwise.
async fn account(state: &AppState, id: i64) -> Result<Account, Response> {
    match state.lobby.store().account(id).await {
        Ok(Some(a)) if !a.deleted => Ok(a),
        Ok(_) => Err(fail(StatusCode::NOT_FOUND, "no_account", format!("no account {id}"))),
        Err(e) => Err(store_down(&e)),
    }
}

/// `GET /api/admin/people/{id}/sessions`.
pub async fn sessions(State(state): State<AppState>, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    if let Err(r) = needs_admin(&state, &headers).await {
        return r;
    }
    let a = match account(&state, id).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match state.lobby.store().sessions(a.id).await {
        Ok(list) => no_store(json!(
            list.iter().map(|s| json!({ "createdAt": s.created_at, "seenAt": s.seen_at })).collect::<Vec<_>>()
        )),
        Err(e) => store_down(&e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BanReq {
    reason: String,
    /// How long; absent: for good.
    minutes: Option<u64>,
}

/// `POST /api/admin/people/{id}/ban {reason, minutes?}`: the person's connections on this node
/// are dropped (told `Banned`); their next sign-in, socket or join anywhere is refused.
pub async fn ban(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let (admin, req): (_, BanReq) = match admin_action(&state, &headers, body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let reason = match text("reason", &req.reason, true) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.minutes.is_some_and(|m| m == 0 || m > MAX_BAN_MINUTES) {
        return fail(
            StatusCode::BAD_REQUEST,
            "bad_duration",
            format!("minutes is 1 to {MAX_BAN_MINUTES}; leave it out to ban for good"),
        );
    }
    let target = match account(&state, id).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    if target.id == admin.account.id {
        return fail(StatusCode::BAD_REQUEST, "ban_self", "an admin does not ban themselves");
    }
    let now = crate::room::now_ms();
    let until = req.minutes.map(|m| now + m * 60_000);
    let ban = Ban { account: target.id, until, reason: reason.clone(), by: Some(admin.account.id), at: now };
    if let Err(e) = state.lobby.store().ban(ban.clone()).await {
        return store_down(&e);
    }
    let how = match until {
        Some(u) => format!("until {} UTC", crate::auth::utc(u)),
        None => "for good".into(),
    };
    let entry =
        match write_log(&state, &admin.account, "ban", &account_target(&target), &format!("{how}: {reason}")).await {
            Ok(e) => e,
            Err(r) => return r,
        };
    state.lobby.expel(target.id, &crate::auth::ban_sentence(&ban), until).await;
    Json(json!({ "account": person_json(&target, Some(&ban)), "log": entry })).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReasonReq {
    #[serde(default)]
    reason: String,
}

/// `POST /api/admin/people/{id}/unban {reason?}`.
pub async fn unban(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let (admin, req): (_, ReasonReq) = match admin_action(&state, &headers, body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let reason = match text("reason", &req.reason, false) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let target = match account(&state, id).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match state.lobby.store().unban(target.id).await {
        Ok(true) => {}
        Ok(false) => return fail(StatusCode::CONFLICT, "not_banned", format!("{} is not banned", target.name)),
        Err(e) => return store_down(&e),
    }
    match write_log(&state, &admin.account, "unban", &account_target(&target), &reason).await {
        Ok(entry) => Json(json!({ "account": person_json(&target, None), "log": entry })).into_response(),
        Err(r) => r,
    }
}

/// `?all=true`.
#[derive(Deserialize)]
pub struct ReportsQuery {
    #[serde(default)]
    all: bool,
}

/// Names of the accounts `ids`, by id (a deleted one shows as deleted).
async fn names(state: &AppState, ids: Vec<i64>) -> Result<HashMap<i64, String>, Response> {
    let found = state.lobby.store().accounts_by_ids(&ids).await.map_err(|e| store_down(&e))?;
    Ok(found.into_iter().map(|a| (a.id, if a.deleted { "(deleted)".to_string() } else { a.name })).collect())
}

/// `GET /api/admin/reports?all=true`: newest first, at most 200.
pub async fn reports(State(state): State<AppState>, headers: HeaderMap, Query(q): Query<ReportsQuery>) -> Response {
    if let Err(r) = needs_admin(&state, &headers).await {
        return r;
    }
    let list = match state.lobby.store().reports(!q.all, 200).await {
        Ok(l) => l,
        Err(e) => return store_down(&e),
    };
    let ids = list.iter().flat_map(|r| [r.report.reporter, r.report.target]).collect();
    let names = match names(&state, ids).await {
        Ok(n) => n,
        Err(r) => return r,
    };
    let person = |id: i64| json!({ "id": id, "name": names.get(&id) });
    no_store(json!(
        list.iter()
            .map(|r| {
                let chat: Value = serde_json::from_str(&r.report.chat).unwrap_or(Value::Array(Vec::new()));
                json!({
                    "id": r.id, "reporter": person(r.report.reporter), "target": person(r.report.target),
                    "room": r.report.room, "match": r.report.match_id, "kind": r.report.kind,
                    "line": r.report.line, "chat": chat, "at": r.report.at, "resolved": r.resolved,
                })
            })
            .collect::<Vec<_>>()
    ))
}

/// `POST /api/admin/reports/{id}/resolve {reason?}`.
pub async fn resolve_report(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let (admin, req): (_, ReasonReq) = match admin_action(&state, &headers, body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let reason = match text("reason", &req.reason, false) {
        Ok(r) => r,
        Err(r) => return r,
    };
    match state.lobby.store().resolve_report(id).await {
        Ok(true) => {}
        Ok(false) => return fail(StatusCode::NOT_FOUND, "no_report", format!("no open report {id}")),
        Err(e) => return store_down(&e),
    }
    match write_log(&state, &admin.account, "resolve_report", &format!("report #{id}"), &reason).await {
        Ok(entry) => Json(json!({ "report": id, "log": entry })).into_response(),
        Err(r) => r,
    }
}

/// `?before=ID`.
#[derive(Deserialize)]
pub struct LogQuery {
    before: Option<i64>,
}

/// `GET /api/admin/log?before=ID`: 100 a page, newest first.
pub async fn log_page(state: &AppState, before: Option<i64>) -> Result<Value, Response> {
    let rows = state.lobby.store().moderation_log(before, 100).await.map_err(|e| store_down(&e))?;
    let names = names(state, rows.iter().filter_map(|r| r.admin).collect()).await?;
    Ok(json!(
        rows.iter()
            .map(|r| json!({
                "id": r.id,
                "admin": r.admin.map(|id| json!({ "id": id, "name": names.get(&id) })),
                "action": r.action, "target": r.target, "reason": r.reason, "at": r.at,
            }))
            .collect::<Vec<_>>()
    ))
}

/// `GET /api/admin/log?before=ID`.
pub async fn log(State(state): State<AppState>, headers: HeaderMap, Query(q): Query<LogQuery>) -> Response {
    if let Err(r) = needs_admin(&state, &headers).await {
        return r;
    }
    match log_page(&state, q.before).await {
        Ok(v) => no_store(v),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportReq {
    room: String,
    /// The reported player's username in the room.
    player: String,
    kind: String,
    #[serde(default)]
    line: String,
}

/// `POST /api/reports {room, player, kind, line?}`: a signed-in member of the room reports
/// another (`kind`: `chat`, `cheating` or `leaving`). The report keeps the room's chat and last
/// finished match as they are now. `201 {"id"}`.
pub async fn file_report(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Body) -> Response {
    let req: ReportReq = match changing(&state, &headers, body, true).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let me = match needs_signed_in(&state, &headers).await {
        Ok(s) => s.account,
        Err(r) => return r,
    };
    if !REPORT_KINDS.contains(&req.kind.as_str()) {
        return fail(StatusCode::BAD_REQUEST, "bad_kind", format!("kind is one of {}", REPORT_KINDS.join(", ")));
    }
    let line = match text("line", &req.line, false) {
        Ok(l) => (!l.is_empty()).then_some(l),
        Err(r) => return r,
    };
    let now = crate::room::now_ms();
    let store = state.lobby.store();
    let evidence = match store.room_evidence(&req.room).await {
        Ok(Some(e)) => e,
        Ok(None) => return fail(StatusCode::NOT_FOUND, "no_room", format!("no room {}", req.room)),
        Err(e) => return store_down(&e),
    };
    let people = crate::room::accounts_in_snapshot(&evidence.snapshot);
    if !people.iter().any(|(_, a)| *a == me.id) {
        return fail(StatusCode::FORBIDDEN, "not_in_room", "only someone in the room may report one of its players");
    }
    let Some(&(_, target)) = people.iter().find(|(name, _)| name.eq_ignore_ascii_case(&req.player)) else {
        return fail(
            StatusCode::NOT_FOUND,
            "unknown_player",
            format!("nobody signed in is called {} in this room", req.player),
        );
    };
    if target == me.id {
        return fail(StatusCode::BAD_REQUEST, "report_self", "you cannot report yourself");
    }
    if let Err(wait) = state.auth.report(me.id, now) {
        return throttled(wait);
    }
    let chat: Vec<Value> = evidence.chat.iter().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let report = NewReport {
        reporter: me.id,
        target,
        room: req.room.clone(),
        match_id: evidence.last_match,
        kind: req.kind.clone(),
        line,
        chat: Value::Array(chat).to_string(),
        at: now,
    };
    match store.file_report(report).await {
        Ok(id) => {
            tracing::info!(report = id, room = %req.room, kind = %req.kind, "a player filed a report");
            (StatusCode::CREATED, Json(json!({ "id": id }))).into_response()
        }
        Err(e) => store_down(&e),
    }
}

/// The live account called `name` (any case, as sign-in finds it): for the terminal's actions.
pub async fn account_by_name(store: &store::Store, name: &str) -> Result<Option<Account>, store::StoreError> {
    Ok(store.account_by_key(&accounts::name_key(name)).await?.map(|(a, _)| a))
}
