//! Passkeys (WebAuthn, through `webauthn-rs`): a signed-in account adds one, and later signs in
//! with it instead of a password, without typing its name (a discoverable credential: the
//! authenticator says whose it is, so the server never answers "no such name").
//!
//! Each ceremony is two requests: `…/start` answers the options for the browser's
//! `navigator.credentials.create()` or `.get()` with a `challenge` id; `…/finish` sends the
//! browser's answer with that id. The ceremony's state lives in the store for five minutes
//! (taken once), so on a cluster the two requests may reach different nodes.
//!
//! The relying party is the page's own origin: its host is the RP id (`localhost`, or the
//! domain the server is reached at; WebAuthn refuses bare IP addresses) and the origin must be
//! one `refuse_origin` allows.

// The helpers here answer a whole `Response` when they refuse: one per request, never on a
// move's path, so its size does not matter.
#![allow(clippy::result_large_err)]
use crate::auth::{FromProxy, needs_signed_in, signed_in};
use crate::error::{fail, store_down};
use crate::{AppState, refuse_origin};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::json;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, Passkey, PasskeyRegistration, PublicKeyCredential, RegisterPublicKeyCredential, Url,
    Uuid, Webauthn, WebauthnBuilder,
};

/// How long a ceremony may take.
const CEREMONY_MS: u64 = 5 * 60 * 1000;

/// The relying party for the page that sent this request (its `Origin`).
fn relying_party(state: &AppState, headers: &HeaderMap) -> Result<Webauthn, Response> {
    if let Some(refused) = refuse_origin(&state.limits, headers) {
        return Err(refused);
    }
    let bad = || fail(StatusCode::BAD_REQUEST, "no_origin", "passkeys need a page's Origin header");
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()).ok_or_else(bad)?;
    let url = Url::parse(origin).map_err(|_| bad())?;
    let host = url.host_str().ok_or_else(bad)?.to_string();
    WebauthnBuilder::new(&host, &url).and_then(|b| b.rp_name("cardtable").build()).map_err(|e| {
        fail(StatusCode::BAD_REQUEST, "passkeys_unavailable", format!("passkeys cannot work on this address: {e}"))
    })
}

/// The WebAuthn user handle of an account: its id, as the 16 bytes a UUID holds.
fn user_handle(account: i64) -> Uuid {
    Uuid::from_u128(account as u128)
}

fn cred_key(id: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(id)
}

async fn put_state<T: serde::Serialize>(state: &AppState, value: &T) -> Result<String, Response> {
    let id = accounts::random_id(24);
    let data = serde_json::to_string(value).expect("ceremony states serialize");
    let expires = crate::room::now_ms() + CEREMONY_MS;
    state.lobby.store().put_challenge(&id, data, expires).await.map_err(|e| store_down(&e))?;
    Ok(id)
}

async fn take_state<T: serde::de::DeserializeOwned>(state: &AppState, id: &str) -> Result<T, Response> {
    let expired = || fail(StatusCode::BAD_REQUEST, "challenge_expired", "this passkey request expired: start again");
    let data = state.lobby.store().take_challenge(id, crate::room::now_ms()).await.map_err(|e| store_down(&e))?;
    serde_json::from_str(&data.ok_or_else(expired)?).map_err(|_| expired())
}

fn refused(e: impl std::fmt::Display) -> Response {
    fail(StatusCode::UNAUTHORIZED, "passkey_refused", format!("the passkey was not accepted: {e}"))
}

/// `POST /api/auth/passkey/register/start`: options to create a passkey for the signed-in
/// account.
pub async fn register_start(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let rp = match relying_party(&state, &headers) {
        Ok(rp) => rp,
        Err(r) => return r,
    };
    let s = match needs_signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let existing = match state.lobby.store().passkeys(s.account.id).await {
        Ok(p) => p,
        Err(e) => return store_down(&e),
    };
    let exclude: Vec<_> = existing
        .iter()
        .filter_map(|p| serde_json::from_str::<Passkey>(&p.data).ok())
        .map(|p| p.cred_id().clone())
        .collect();
    let name = &s.account.name;
    let (mut options, reg) = match rp.start_passkey_registration(user_handle(s.account.id), name, name, Some(exclude)) {
        Ok(x) => x,
        Err(e) => return fail(StatusCode::BAD_REQUEST, "passkeys_unavailable", e.to_string()),
    };
    // Signing in names nobody (`login_start` lists no credentials), so a passkey must be one its
    // authenticator finds by itself: discoverable. webauthn-rs asks for "discouraged", which
    // security keys and Chromium's virtual authenticator follow, making a passkey that could
    // never sign in here. (The authenticator's choice is not checked: a key that makes a
    // non-discoverable one anyway simply is not offered at sign-in.)
    if let Some(selection) = options.public_key.authenticator_selection.as_mut() {
        selection.resident_key = Some(webauthn_rs_proto::ResidentKeyRequirement::Required);
        selection.require_resident_key = true;
    }
    let challenge = match put_state(&state, &(s.account.id, reg)).await {
        Ok(id) => id,
        Err(r) => return r,
    };
    Json(json!({ "challenge": challenge, "options": options })).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterFinish {
    challenge: String,
    credential: RegisterPublicKeyCredential,
}

/// `POST /api/auth/passkey/register/finish {challenge, credential}`.
pub async fn register_finish(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Body) -> Response {
    let rp = match relying_party(&state, &headers) {
        Ok(rp) => rp,
        Err(r) => return r,
    };
    let req: RegisterFinish = match crate::auth::read_json(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let s = match needs_signed_in(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let (account, reg): (i64, PasskeyRegistration) = match take_state(&state, &req.challenge).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    if account != s.account.id {
        return fail(StatusCode::BAD_REQUEST, "challenge_expired", "this passkey request was another account's");
    }
    let passkey = match rp.finish_passkey_registration(&req.credential, &reg) {
        Ok(p) => p,
        Err(e) => return refused(e),
    };
    let key = cred_key(passkey.cred_id().as_ref());
    let store = state.lobby.store();
    match store.passkey(&key).await {
        Ok(None) => {}
        Ok(Some(_)) => return fail(StatusCode::CONFLICT, "passkey_taken", "this passkey is registered already"),
        Err(e) => return store_down(&e),
    }
    let data = serde_json::to_string(&passkey).expect("passkeys serialize");
    if let Err(e) = store.add_passkey(account, &key, data, crate::room::now_ms()).await {
        return store_down(&e);
    }
    tracing::info!(account, "passkey added");
    match crate::auth::me_json(&state, &s.account).await {
        Ok(me) => Json(json!({ "account": me })).into_response(),
        Err(r) => r,
    }
}

/// `POST /api/auth/passkey/login/start`: options to sign in with any passkey of this site.
pub async fn login_start(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let rp = match relying_party(&state, &headers) {
        Ok(rp) => rp,
        Err(r) => return r,
    };
    let (mut options, auth) = match rp.start_discoverable_authentication() {
        Ok(x) => x,
        Err(e) => return fail(StatusCode::BAD_REQUEST, "passkeys_unavailable", e.to_string()),
    };
    // A button's sign-in, not the browser's autofill ("conditional") one.
    options.mediation = None;
    let challenge = match put_state(&state, &auth).await {
        Ok(id) => id,
        Err(r) => return r,
    };
    Json(json!({ "challenge": challenge, "options": options })).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoginFinish {
    challenge: String,
    credential: PublicKeyCredential,
}

/// `POST /api/auth/passkey/login/finish {challenge, credential}`: a new session.
pub async fn login_finish(
    State(state): State<AppState>,
    FromProxy(proxy): FromProxy,
    crate::Peer(peer): crate::Peer,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let rp = match relying_party(&state, &headers) {
        Ok(rp) => rp,
        Err(r) => return r,
    };
    let req: LoginFinish = match crate::auth::read_json(&state, &headers, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let auth: DiscoverableAuthentication = match take_state(&state, &req.challenge).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let (handle, cred_id) = match rp.identify_discoverable_authentication(&req.credential) {
        Ok(x) => x,
        Err(e) => return refused(e),
    };
    let key = cred_key(cred_id);
    let store = state.lobby.store();
    let (account, data) = match store.passkey(&key).await {
        Ok(Some(x)) => x,
        Ok(None) => return refused("it is not registered here"),
        Err(e) => return store_down(&e),
    };
    if handle != user_handle(account) {
        return refused("it belongs to another account");
    }
    let Ok(mut passkey) = serde_json::from_str::<Passkey>(&data) else {
        return refused("its stored copy cannot be read");
    };
    let result = match rp.finish_discoverable_authentication_v2(&req.credential, auth, &passkey) {
        Ok(r) => r,
        Err(e) => return refused(e),
    };
    if passkey.update_credential(&result) == Some(true) {
        let data = serde_json::to_string(&passkey).expect("passkeys serialize");
        if let Err(e) = store.update_passkey(&key, data).await {
            return store_down(&e);
        }
    }
    let account = match store.account(account).await {
        Ok(Some(a)) if !a.deleted => a,
        Ok(_) => return refused("its account is gone"),
        Err(e) => return store_down(&e),
    };
    let old = match signed_in(&state, &headers).await {
        Ok(s) => s.map(|s| s.hash),
        Err(r) => return r,
    };
    if let Err(r) = crate::auth::refuse_banned(&state, &account, peer).await {
        return r;
    }
    tracing::info!(account = account.id, "signed in with a passkey");
    crate::auth::start_session(&state, &headers, proxy, old.as_deref(), &account, StatusCode::OK).await
}
