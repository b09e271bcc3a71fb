//! People: the session cookie, guest identities, accounts (sign-up, sign-in, sign-out), the
//! account's own routes and its passkeys. Profiles are [`crate::profile`].
//!
//! A visitor's first page asks `POST /api/auth/guest` and gets a guest account and a session
//! cookie without a form. Signing up (`POST /api/auth/register`) turns that same account into a
//! member (its id, so every match it played, stays). The cookie holds an opaque random id of 256
//! bits; the database holds only its SHA-256 ([`accounts::new_session`]), so a copy of the
//! database signs nobody in.
//!
//! Safety, point by point:
//! - wrong name and wrong password are one answer (`401 bad_credentials`), after the same work:
//!   an unknown name is checked against a dummy Argon2id hash ([`accounts::verify_dummy`]);
//! - sign-in attempts are throttled per account name and per address (the numbers are
//!   [`accounts::SIGNIN_PER_ACCOUNT`] and [`accounts::SIGNIN_PER_ADDRESS`]): past them,
//!   `429` with `Retry-After`;
//! - every sign-in (register, login, passkey) makes a new session id and drops the old one, so a
//!   session planted before sign-in signs nobody in;
//! - every request that changes something checks `Origin` (`refuse_origin`) and takes
//!   JSON only (a cross-site form cannot send it without the browser asking first); the cookie
//!   is `HttpOnly; SameSite=Lax`, and `Secure` when the page came over HTTPS;
//! - nothing here logs a password, a session id or a hash.

// The helpers here answer a whole `Response` when they refuse: one per request, never on a
// move's path, so its size does not matter.
#![allow(clippy::result_large_err)]
use crate::error::{fail, store_down};
use crate::{AppState, Peer, refuse_origin};
use accounts::{NAME_HOLD_MS, Throttle};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::IpAddr;
use std::sync::Mutex;
use store::accounts::{Account, Taken};

/// The session cookie's name.
pub const COOKIE: &str = "ct_session";
/// How long a browser keeps the cookie (the store expires a session idle for 30 days first).
const COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// The server's memory of recent attempts (per node: a cluster's throttle is per node, so an
/// attacker spread over N nodes gets N times the attempts; the numbers are small either way).
pub struct Auth {
    signin_account: Mutex<Throttle>,
    signin_addr: Mutex<Throttle>,
    /// `None`: no cap on identities made per address (`Limits::accounts_per_hour_per_addr` 0).
    new_accounts_addr: Option<Mutex<Throttle>>,
    /// Addresses a banned account was refused from: no new guest identity from one of them
    /// for [`BANNED_ADDRESS_HOLD_MS`] (one "attempt" a window, taken by the refusal itself).
    banned_addrs: Mutex<Throttle>,
    /// Reports filed per account ([`REPORTS_PER_ACCOUNT`]).
    reports: Mutex<Throttle>,
}

/// How long an address a banned account was seen at may not make a new guest identity: a day.
/// (A banned guest who clears its cookie would otherwise be back at once under a new name.)
pub const BANNED_ADDRESS_HOLD_MS: u64 = 24 * 3600 * 1000;

/// Reports one account may file: 10 an hour.
pub const REPORTS_PER_ACCOUNT: (u32, u64) = (10, 3600 * 1000);

impl Auth {
    pub fn new(limits: &crate::limits::Limits) -> Auth {
        let t = |(limit, window): (u32, u64)| Mutex::new(Throttle::new(limit, window));
        let per_hour = u32::try_from(limits.accounts_per_hour_per_addr).unwrap_or(u32::MAX);
        Auth {
            signin_account: t(accounts::SIGNIN_PER_ACCOUNT),
            signin_addr: t(accounts::SIGNIN_PER_ADDRESS),
            new_accounts_addr: (per_hour > 0).then(|| t((per_hour, 3600 * 1000))),
            banned_addrs: t((1, BANNED_ADDRESS_HOLD_MS)),
            reports: t(REPORTS_PER_ACCOUNT),
        }
    }

    /// A banned account was refused from `addr`: new guests from there wait.
    fn banned_seen(&self, addr: Option<IpAddr>, now: u64) {
        let Some(addr) = addr else { return };
        let mut t = self.banned_addrs.lock().expect("throttle lock");
        t.prune(now);
        // Over its one a window already: the address is held from the first refusal on.
        let _ = t.attempt(&addr.to_string(), now);
    }

    /// Counts a report filed by `account`; `Err(retry_after_ms)` past the limit.
    pub(crate) fn report(&self, account: i64, now: u64) -> Result<(), u64> {
        let mut t = self.reports.lock().expect("throttle lock");
        t.prune(now);
        t.attempt(&account.to_string(), now)
    }

    /// Counts a sign-in attempt (or a password check) against the account `key` and the
    /// address; `Err(retry_after_ms)` when either is over its limit (nothing counted then).
    fn attempt(&self, key: &str, addr: Option<IpAddr>, now: u64) -> Result<(), u64> {
        let addr_key = addr.map(|a| a.to_string());
        let mut by_account = self.signin_account.lock().expect("throttle lock");
        let mut by_addr = self.signin_addr.lock().expect("throttle lock");
        by_account.prune(now);
        by_addr.prune(now);
        by_account.check(key, now)?;
        if let Some(a) = &addr_key {
            by_addr.check(a, now)?;
            by_addr.attempt(a, now)?;
        }
        by_account.attempt(key, now)
    }

    fn signed_in(&self, key: &str) {
        self.signin_account.lock().expect("throttle lock").clear(key);
    }

    /// Counts a new account (a guest, or a sign-up without a guest) made from `addr`.
    fn new_account(&self, addr: Option<IpAddr>, now: u64) -> Result<(), u64> {
        if let Some(addr) = addr {
            let banned = self.banned_addrs.lock().expect("throttle lock");
            banned.check(&addr.to_string(), now)?;
        }
        let (Some(addr), Some(t)) = (addr, &self.new_accounts_addr) else { return Ok(()) };
        let mut t = t.lock().expect("throttle lock");
        t.prune(now);
        t.attempt(&addr.to_string(), now)
    }
}

pub(crate) fn throttled(retry_after_ms: u64) -> Response {
    let secs = retry_after_ms.div_ceil(1000).max(1);
    let mut r =
        fail(StatusCode::TOO_MANY_REQUESTS, "too_many_attempts", format!("too many attempts: try again in {secs} s"));
    r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    r
}

/// `403 banned`: `{"error":"banned","reason":…,"until":ms}` (`until` null: for good).
pub fn banned(ban: &store::moderation::Ban) -> Response {
    let body = json!({ "error": protocol::codes::BANNED, "reason": ban_sentence(ban), "until": ban.until });
    (StatusCode::FORBIDDEN, Json(body)).into_response()
}

/// "2026-12-07 10:00" (UTC) for a time in ms since the epoch.
pub fn utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days to a civil date: count in 400-year eras of 146,097 days from 0000-03-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
}

/// "you are banned until 2026-12-07 10:00 UTC: cheating" (or "for good").
pub fn ban_sentence(ban: &store::moderation::Ban) -> String {
    let when = match ban.until {
        Some(until) => format!("until {} UTC", utc(until)),
        None => "for good".to_string(),
    };
    format!("you are banned {when}: {}", ban.reason)
}

/// The account's ban if one holds now; a refused banned account marks the address it came
/// from (see [`BANNED_ADDRESS_HOLD_MS`]).
pub(crate) async fn refuse_banned(state: &AppState, account: &Account, peer: Option<IpAddr>) -> Result<(), Response> {
    let now = crate::room::now_ms();
    match state.lobby.store().active_ban(account.id, now).await {
        Ok(None) => Ok(()),
        Ok(Some(ban)) => {
            state.auth.banned_seen(peer, now);
            tracing::info!(account = account.id, "a banned account was refused");
            Err(banned(&ban))
        }
        Err(e) => Err(store_down(&e)),
    }
}

/// The session id the request's cookie carries, if any.
pub fn cookie_session(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// Who is signed in on this request: the account and its session's hash.
pub struct SignedIn {
    pub account: Account,
    pub hash: String,
}

/// The request's signed-in account, if its cookie names a live session.
pub async fn signed_in(state: &AppState, headers: &HeaderMap) -> Result<Option<SignedIn>, Response> {
    let Some(id) = cookie_session(headers) else { return Ok(None) };
    let hash = accounts::hash_session_id(id);
    match state.lobby.store().session_account(&hash, crate::room::now_ms()).await {
        Ok(Some(account)) => Ok(Some(SignedIn { account, hash })),
        Ok(None) => Ok(None),
        Err(e) => Err(store_down(&e)),
    }
}

/// As [`signed_in`], for a route that needs someone signed in: `401 signed_out` otherwise.
pub async fn needs_signed_in(state: &AppState, headers: &HeaderMap) -> Result<SignedIn, Response> {
    signed_in(state, headers).await?.ok_or_else(signed_out)
}

/// The person a room sees on a WebSocket opened with this request's cookie.
pub async fn person(state: &AppState, headers: &HeaderMap) -> Result<Option<crate::room::Person>, Response> {
    Ok(signed_in(state, headers).await?.map(|s| crate::room::Person { account: s.account.id, name: s.account.name }))
}

/// Whether the page that sent this request came over HTTPS: its `Origin` says so (a browser
/// sends one with every request that changes something), or a trusted proxy's
/// `X-Forwarded-Proto` does. The cookie is then `Secure`.
fn over_https(state: &AppState, headers: &HeaderMap, peer_is_proxy: bool) -> bool {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let forwarded = headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok());
    state.limits.secure_cookies
        || origin.is_some_and(|o| o.to_ascii_lowercase().starts_with("https://"))
        || (peer_is_proxy && forwarded.is_some_and(|p| p.eq_ignore_ascii_case("https")))
}

/// The `Set-Cookie` value for session `id` (`None`: one that clears the cookie).
pub fn cookie(id: Option<&str>, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let v = match id {
        Some(id) => format!("{COOKIE}={id}; HttpOnly; SameSite=Lax; Path=/; Max-Age={COOKIE_MAX_AGE}{secure}"),
        None => format!("{COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&v).expect("a session id is base64url")
}

/// What the client is told of its own account.
pub async fn me_json(state: &AppState, a: &Account) -> Result<Value, Response> {
    let passkeys = state.lobby.store().passkeys(a.id).await.map_err(|e| store_down(&e))?.len();
    Ok(json!({
        "id": a.id, "name": a.name, "guest": a.guest, "createdAt": a.created_at,
        "renamed": a.renamed, "admin": a.admin, "passkeys": passkeys,
    }))
}

/// A new session for `account` (the old one, if any, ended: a new id at every sign-in), and
/// the answer `{"account": Me}` with its cookie.
pub(crate) async fn start_session(
    state: &AppState,
    headers: &HeaderMap,
    peer_is_proxy: bool,
    old: Option<&str>,
    account: &Account,
    status: StatusCode,
) -> Response {
    let store = state.lobby.store();
    if let Some(old) = old
        && let Err(e) = store.delete_session(old).await
    {
        return store_down(&e);
    }
    let token = accounts::new_session();
    if let Err(e) = store.create_session(&token.hash, account.id, crate::room::now_ms()).await {
        return store_down(&e);
    }
    let me = match me_json(state, account).await {
        Ok(me) => me,
        Err(r) => return r,
    };
    let mut r = (status, Json(json!({ "account": me }))).into_response();
    r.headers_mut().insert(header::SET_COOKIE, cookie(Some(&token.id), over_https(state, headers, peer_is_proxy)));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// Reads a JSON body (`Content-Type: application/json`, within the size and time limits): the
/// shared front of every request that changes something.
pub(crate) async fn read_json<T: serde::de::DeserializeOwned>(
    state: &AppState,
    headers: &HeaderMap,
    body: axum::body::Body,
) -> Result<T, Response> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(crate::error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (Content-Type: application/json)".into(),
        ));
    }
    // The headers are in (hyper's timer); the body has its own deadline, so a client cannot
    // hold a connection by sending it slowly.
    let timeout = state.limits.body_timeout;
    let body = match tokio::time::timeout(timeout, axum::body::to_bytes(body, crate::MAX_BODY)).await {
        Err(_) => {
            return Err(crate::error(
                StatusCode::REQUEST_TIMEOUT,
                format!("the request body did not arrive within {} s", timeout.as_secs_f64()),
            ));
        }
        Ok(Err(_)) => {
            return Err(crate::error(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is over {} bytes, or was cut off", crate::MAX_BODY),
            ));
        }
        Ok(Ok(body)) => body,
    };
    // An empty body reads as `{}`: a client may send its JSON header with nothing after it
    // (a sign-out), and a route that needs fields then names the one missing.
    let body: &[u8] = if body.is_empty() { b"{}" } else { &body };
    serde_json::from_slice(body).map_err(|e| crate::bad_request(format!("bad request body: {e}")))
}

/// The front of every request that changes something: its `Origin`, and its JSON body (an
/// empty body reads as `{}` for the routes that need none).
pub(crate) async fn changing<T: serde::de::DeserializeOwned>(
    state: &AppState,
    headers: &HeaderMap,
    body: axum::body::Body,
    needs_body: bool,
) -> Result<T, Response> {
    if let Some(refused) = refuse_origin(&state.limits, headers) {
        return Err(refused);
    }
    if !needs_body && headers.get(header::CONTENT_TYPE).is_none() {
        return serde_json::from_str("{}").map_err(|e| crate::bad_request(e.to_string()));
    }
    read_json(state, headers, body).await
}

/// Whether the request came through a trusted proxy (its `X-Forwarded-Proto` is believed).
pub struct FromProxy(pub bool);

impl axum::extract::FromRequestParts<AppState> for FromProxy {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
        Ok(FromProxy(peer.is_some_and(|p| state.limits.is_trusted_proxy(p))))
    }
}

/// `POST /api/auth/guest`: the current identity if the cookie has one, else a new guest.
pub async fn guest(
    State(state): State<AppState>,
    Peer(peer): Peer,
    FromProxy(proxy): FromProxy,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if let Err(r) = changing::<Value>(&state, &headers, body, false).await {
        return r;
    }
    match signed_in(&state, &headers).await {
        Err(r) => return r,
        Ok(Some(s)) => {
            if let Err(r) = refuse_banned(&state, &s.account, peer).await {
                return r;
            }
            return match me_json(&state, &s.account).await {
                Ok(me) => Json(json!({ "account": me })).into_response(),
                Err(r) => r,
            };
        }
        Ok(None) => {}
    }
    let now = crate::room::now_ms();
    if let Err(wait) = state.auth.new_account(peer, now) {
        return throttled(wait);
    }
    let store = state.lobby.store();
    // A free guest name: a few draws; the space (90,000 names a length) is wide.
    for _ in 0..8 {
        let name = accounts::random_guest_name();
        match store.create_account(&name, &accounts::name_key(&name), true, None, now).await {
            Ok(Ok(account)) => {
                return start_session(&state, &headers, proxy, None, &account, StatusCode::CREATED).await;
            }
            Ok(Err(Taken::Name)) => continue,
            Err(e) => return store_down(&e),
        }
    }
    fail(StatusCode::SERVICE_UNAVAILABLE, "no_guest_name", "no free guest name was found: try again")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// The checks of a name someone asks for: `400` with the rule's code.
fn check_name(name: &str) -> Result<String, Response> {
    accounts::check_name(name).map_err(|e| fail(StatusCode::BAD_REQUEST, e.code(), e.to_string()))?;
    Ok(accounts::name_key(name))
}

fn check_password(password: &str) -> Result<(), Response> {
    accounts::check_password(password).map_err(|e| fail(StatusCode::BAD_REQUEST, e.code(), e.to_string()))
}

async fn hash(password: String) -> String {
    tokio::task::spawn_blocking(move || accounts::hash_password(&password)).await.expect("hashing does not panic")
}

/// Checks `password` against `phc` (or, with none, against a dummy hash: the same work, so an
/// unknown name answers in the same time as a wrong password).
async fn verify(phc: Option<String>, password: String) -> bool {
    tokio::task::spawn_blocking(move || match phc {
        Some(phc) => accounts::verify_password(&phc, &password),
        None => {
            accounts::verify_dummy(&password);
            false
        }
    })
    .await
    .expect("verifying does not panic")
}

fn name_taken(name: &str) -> Response {
    fail(StatusCode::CONFLICT, "name_taken", format!("the name {name} is taken (or was in use recently)"))
}

/// `POST /api/auth/register {name, password}`: the current guest becomes a member under
/// `name` (its matches stay its own); with no session, a new member.
pub async fn register(
    State(state): State<AppState>,
    Peer(peer): Peer,
    FromProxy(proxy): FromProxy,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let req: Credentials = match changing(&state, &headers, body, true).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let key = match check_name(&req.name) {
        Ok(k) => k,
        Err(r) => return r,
    };
    if let Err(r) = check_password(&req.password) {
        return r;
    }
    let current = match signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    if let Some(s) = &current
        && !s.account.guest
    {
        return fail(StatusCode::CONFLICT, "already_member", "you are signed in to an account: sign out first");
    }
    if let Some(s) = &current
        && let Err(r) = refuse_banned(&state, &s.account, peer).await
    {
        return r;
    }
    let now = crate::room::now_ms();
    let store = state.lobby.store();
    let phc = hash(req.password).await;
    let account = match &current {
        Some(s) => {
            match store.rename_account(s.account.id, &req.name, &key, Some(phc), now + NAME_HOLD_MS, now).await {
                Ok(Ok(())) => match store.account(s.account.id).await {
                    Ok(Some(a)) => a,
                    Ok(None) => return fail(StatusCode::CONFLICT, "signed_out", "your account is gone"),
                    Err(e) => return store_down(&e),
                },
                Ok(Err(Taken::Name)) => return name_taken(&req.name),
                Err(e) => return store_down(&e),
            }
        }
        None => {
            if let Err(wait) = state.auth.new_account(peer, now) {
                return throttled(wait);
            }
            match store.create_account(&req.name, &key, false, Some(phc), now).await {
                Ok(Ok(a)) => a,
                Ok(Err(Taken::Name)) => return name_taken(&req.name),
                Err(e) => return store_down(&e),
            }
        }
    };
    tracing::info!(account = account.id, "account registered");
    start_session(&state, &headers, proxy, current.as_ref().map(|s| s.hash.as_str()), &account, StatusCode::OK).await
}

/// `POST /api/auth/login {name, password}`.
pub async fn login(
    State(state): State<AppState>,
    Peer(peer): Peer,
    FromProxy(proxy): FromProxy,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let req: Credentials = match changing(&state, &headers, body, true).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let key = accounts::name_key(&req.name);
    let now = crate::room::now_ms();
    if let Err(wait) = state.auth.attempt(&key, peer, now) {
        return throttled(wait);
    }
    let store = state.lobby.store();
    let found = match store.account_by_key(&key).await {
        Ok(found) => found.filter(|(a, _)| !a.deleted),
        Err(e) => return store_down(&e),
    };
    let (account, phc) = match found {
        Some((a, phc)) => (Some(a), phc),
        None => (None, None),
    };
    let ok = verify(phc, req.password).await;
    let Some(account) = account.filter(|_| ok) else {
        return fail(StatusCode::UNAUTHORIZED, "bad_credentials", "wrong name or password");
    };
    state.auth.signed_in(&key);
    if let Err(r) = refuse_banned(&state, &account, peer).await {
        return r;
    }
    let old = match signed_in(&state, &headers).await {
        Ok(s) => s.map(|s| s.hash),
        Err(r) => return r,
    };
    tracing::info!(account = account.id, "signed in");
    start_session(&state, &headers, proxy, old.as_deref(), &account, StatusCode::OK).await
}

fn signed_out() -> Response {
    fail(StatusCode::UNAUTHORIZED, "signed_out", "you are not signed in")
}

/// An empty answer that clears the cookie.
fn cleared(state: &AppState, headers: &HeaderMap, proxy: bool) -> Response {
    let mut r = StatusCode::NO_CONTENT.into_response();
    r.headers_mut().insert(header::SET_COOKIE, cookie(None, over_https(state, headers, proxy)));
    r
}

/// `POST /api/auth/logout`: ends this session.
pub async fn logout(
    State(state): State<AppState>,
    FromProxy(proxy): FromProxy,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if let Err(r) = changing::<Value>(&state, &headers, body, false).await {
        return r;
    }
    if let Some(id) = cookie_session(&headers)
        && let Err(e) = state.lobby.store().delete_session(&accounts::hash_session_id(id)).await
    {
        return store_down(&e);
    }
    cleared(&state, &headers, proxy)
}

/// `POST /api/auth/logout-all`: ends every session of the account, this one included.
pub async fn logout_all(
    State(state): State<AppState>,
    FromProxy(proxy): FromProxy,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if let Err(r) = changing::<Value>(&state, &headers, body, false).await {
        return r;
    }
    let s = match needs_signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match state.lobby.store().delete_sessions(s.account.id, None).await {
        Ok(n) => tracing::info!(account = s.account.id, sessions = n, "signed out everywhere"),
        Err(e) => return store_down(&e),
    }
    cleared(&state, &headers, proxy)
}

/// `GET /api/me`.
pub async fn me(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match signed_in(&state, &headers).await {
        Ok(Some(s)) => match me_json(&state, &s.account).await {
            Ok(me) => {
                let mut r = Json(me).into_response();
                r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                r
            }
            Err(r) => r,
        },
        Ok(None) => signed_out(),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Change {
    name: Option<String>,
    password: Option<String>,
    current_password: Option<String>,
}

/// Checks a member's current password for a change that needs it (throttled as a sign-in).
async fn confirm_password(
    state: &AppState,
    a: &Account,
    given: Option<String>,
    peer: Option<IpAddr>,
) -> Result<(), Response> {
    let Some(given) = given else {
        return Err(fail(StatusCode::BAD_REQUEST, "password_needed", "give your current password (currentPassword)"));
    };
    let key = accounts::name_key(&a.name);
    if let Err(wait) = state.auth.attempt(&key, peer, crate::room::now_ms()) {
        return Err(throttled(wait));
    }
    let phc = match state.lobby.store().account_by_key(&key).await {
        Ok(found) => found.and_then(|(_, phc)| phc),
        Err(e) => return Err(store_down(&e)),
    };
    if !verify(phc, given).await {
        return Err(fail(StatusCode::FORBIDDEN, "bad_credentials", "wrong password"));
    }
    state.auth.signed_in(&key);
    Ok(())
}

/// `PATCH /api/me {name?, password?, currentPassword?}`: a guest changes its name once; a
/// member changes its password (every other session ends).
pub async fn patch_me(
    State(state): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let req: Change = match changing(&state, &headers, body, true).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let s = match needs_signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let store = state.lobby.store();
    let now = crate::room::now_ms();
    if let Some(name) = &req.name {
        if !s.account.guest {
            return fail(StatusCode::FORBIDDEN, "rename_not_allowed", "a member's name does not change");
        }
        if s.account.renamed {
            return fail(
                StatusCode::FORBIDDEN,
                "rename_used",
                "a guest may change its name once; sign up to pick a name",
            );
        }
        let key = match check_name(name) {
            Ok(k) => k,
            Err(r) => return r,
        };
        match store.rename_account(s.account.id, name, &key, None, now + NAME_HOLD_MS, now).await {
            Ok(Ok(())) => {}
            Ok(Err(Taken::Name)) => return name_taken(name),
            Err(e) => return store_down(&e),
        }
    }
    if let Some(password) = req.password {
        if s.account.guest {
            return fail(StatusCode::FORBIDDEN, "guest", "a guest has no password: sign up to set one");
        }
        if let Err(r) = check_password(&password) {
            return r;
        }
        if let Err(r) = confirm_password(&state, &s.account, req.current_password, peer).await {
            return r;
        }
        let phc = hash(password).await;
        if let Err(e) = store.set_password(s.account.id, phc).await {
            return store_down(&e);
        }
        match store.delete_sessions(s.account.id, Some(&s.hash)).await {
            Ok(n) => tracing::info!(account = s.account.id, sessions = n, "password changed, other sessions ended"),
            Err(e) => return store_down(&e),
        }
    }
    match store.account(s.account.id).await {
        Ok(Some(a)) => match me_json(&state, &a).await {
            Ok(me) => Json(me).into_response(),
            Err(r) => r,
        },
        Ok(None) => signed_out(),
        Err(e) => store_down(&e),
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Delete {
    password: Option<String>,
}

/// `DELETE /api/me {password?}`: the account goes (a member confirms with its password); its
/// matches stay, under a name shown as deleted.
pub async fn delete_me(
    State(state): State<AppState>,
    Peer(peer): Peer,
    FromProxy(proxy): FromProxy,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let req: Delete = match changing(&state, &headers, body, false).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let s = match needs_signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    if !s.account.guest
        && let Err(r) = confirm_password(&state, &s.account, req.password, peer).await
    {
        return r;
    }
    let now = crate::room::now_ms();
    if let Err(e) = state.lobby.store().delete_account(s.account.id, now + NAME_HOLD_MS, now).await {
        return store_down(&e);
    }
    tracing::info!(account = s.account.id, "account deleted");
    cleared(&state, &headers, proxy)
}

/// `GET /api/me/export`: everything the server keeps of the account, as one JSON file.
pub async fn export(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let s = match needs_signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let store = state.lobby.store();
    let a = &s.account;
    let gather = async {
        let me = me_json(&state, a).await?;
        let sessions = store.sessions(a.id).await.map_err(|e| store_down(&e))?;
        let passkeys = store.passkeys(a.id).await.map_err(|e| store_down(&e))?;
        let profile = crate::profile::profile_of(store, a, u32::MAX).await.map_err(|e| store_down(&e))?;
        let matches = store.account_matches(a.id, u32::MAX).await.map_err(|e| store_down(&e))?;
        Ok::<_, Response>(json!({
            "exportedAt": crate::room::now_ms(),
            "account": me,
            "sessions": sessions.iter().map(|x| json!({"createdAt": x.created_at, "seenAt": x.seen_at})).collect::<Vec<_>>(),
            "passkeys": passkeys.iter().map(|p| json!({"createdAt": p.created_at})).collect::<Vec<_>>(),
            "profile": profile,
            "matches": matches.iter().map(crate::profile::record_json).collect::<Vec<_>>(),
        }))
    };
    match gather.await {
        Ok(v) => {
            let mut r = Json(v).into_response();
            let file = format!("attachment; filename=\"cardtable-account-{}.json\"", a.id);
            if let Ok(v) = HeaderValue::from_str(&file) {
                r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        Err(r) => r,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_writes_a_civil_date() {
        assert_eq!(super::utc(0), "1970-01-01 00:00");
        // 2026-12-06 09:45 UTC.
        assert_eq!(super::utc(1_796_550_300_000), "2026-12-06 09:45");
    }
}
