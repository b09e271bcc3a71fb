//! Profiles: `GET /api/users/{name}` (and the page `/u/{name}` that shows it), the same data
//! `cardtable user NAME` prints. A profile is public: the name, when it joined, games played
//! and won per game, its rating in each game it played rated with its history (see
//! [`crate::ratings`]), and the last 50 matches with their opponents (people by their account's
//! name today, bots by level), the result and a replay link.

use crate::AppState;
use crate::error::{fail, store_down};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::collections::HashMap;
use store::accounts::Account;
use store::{MatchRecord, Store, StoreError};

/// How many matches a profile lists.
pub const PROFILE_MATCHES: u32 = 50;

/// How a deleted account's name is shown.
pub const DELETED_NAME: &str = "(deleted)";

/// `GET /api/users/{name}`.
pub async fn user(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    match profile(state.lobby.store(), &name, PROFILE_MATCHES).await {
        Ok(Some(p)) => Json(p).into_response(),
        Ok(None) => fail(StatusCode::NOT_FOUND, "no_user", format!("nobody is called {name}")),
        Err(e) => store_down(&e),
    }
}

/// The profile of the account called `name` (any case, any look-alike spelling of it), with
/// its last `matches` matches; `None` if there is none (or it was deleted).
pub async fn profile(store: &Store, name: &str, matches: u32) -> Result<Option<Value>, StoreError> {
    let key = accounts::name_key(name);
    let Some((account, _)) = store.account_by_key(&key).await?.filter(|(a, _)| !a.deleted) else {
        return Ok(None);
    };
    profile_of(store, &account, matches).await.map(Some)
}

/// The profile of `account`.
pub async fn profile_of(store: &Store, account: &Account, matches: u32) -> Result<Value, StoreError> {
    let stats = store.account_stats(account.id).await?;
    let records = store.account_matches(account.id, matches).await?;
    // Every account met, read once: a renamed guest shows under its name of today.
    let mut ids: Vec<i64> = records.iter().flat_map(|m| m.people.iter().map(|p| p.account)).collect();
    ids.sort_unstable();
    ids.dedup();
    let names: HashMap<i64, Account> = store.accounts_by_ids(&ids).await?.into_iter().map(|a| (a.id, a)).collect();
    let games: Vec<Value> = stats.iter().map(|g| json!({ "game": g.game, "played": g.played, "won": g.won })).collect();
    let list: Vec<Value> = records.iter().map(|m| match_entry(m, account.id, &names)).collect();
    let ratings = crate::ratings::profile_ratings(store, account.id, crate::room::now_ms()).await?;
    Ok(json!({
        "name": account.name,
        "guest": account.guest,
        "joined": account.created_at,
        "games": games,
        "ratings": ratings,
        "matches": list,
    }))
}

/// One match as a profile lists it, from the side of `me`.
fn match_entry(m: &MatchRecord, me: i64, accounts: &HashMap<i64, Account>) -> Value {
    let names: Vec<String> = serde_json::from_str(&m.players).unwrap_or_default();
    let result: Value = serde_json::from_str(&m.result).unwrap_or(Value::Null);
    let bots: Vec<Option<String>> =
        result.get("bots").and_then(|b| serde_json::from_value(b.clone()).ok()).unwrap_or_default();
    let mine = m.people.iter().find(|p| p.account == me);
    let seat = mine.map(|p| p.seat as usize);
    let abandoned = result.get("abandoned").and_then(Value::as_bool).unwrap_or(false);
    let outcome = match mine {
        _ if abandoned => "abandoned",
        Some(p) if p.won => "won",
        _ => "lost",
    };
    let opponents: Vec<Value> = (0..names.len())
        .filter(|&s| Some(s) != seat)
        .map(|s| {
            let person = m.people.iter().find(|p| p.seat as usize == s);
            match (person.and_then(|p| accounts.get(&p.account)), bots.get(s).cloned().flatten()) {
                (Some(a), _) if a.deleted => json!({ "name": DELETED_NAME, "seat": s }),
                (Some(a), _) => json!({ "name": a.name, "seat": s, "account": true, "guest": a.guest }),
                (None, Some(level)) => json!({ "name": names[s], "seat": s, "bot": level }),
                (None, None) => json!({ "name": names[s], "seat": s }),
            }
        })
        .collect();
    json!({
        "id": m.id,
        "room": m.room_id,
        "game": m.game,
        "startedAt": m.started_at,
        "endedAt": m.ended_at,
        "seat": seat,
        "result": outcome,
        "opponents": opponents,
        "replay": format!("/replay/{}?room={}", m.id, m.room_id),
    })
}

/// A whole match record as JSON (an account's export).
pub fn record_json(m: &MatchRecord) -> Value {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or_else(|_| Value::String(s.to_string()));
    json!({
        "id": m.id,
        "room": m.room_id,
        "game": m.game,
        "seed": m.seed,
        "config": parse(&m.config),
        "players": parse(&m.players),
        "people": m.people.iter().map(|p| json!({"seat": p.seat, "account": p.account, "won": p.won})).collect::<Vec<_>>(),
        "log": parse(&m.log),
        "result": parse(&m.result),
        "startedAt": m.started_at,
        "endedAt": m.ended_at,
    })
}
