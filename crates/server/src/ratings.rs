//! Ratings over HTTP (issue 43): `GET /api/leaderboard/{game}` (the page
//! `/leaderboard/{game}` shows it), the ratings and rating histories a profile shows, and the
//! bots' ratings `GET /api/games` lists beside each level.

use crate::AppState;
use crate::error::{fail, store_down};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use registry::GameKind;
use serde_json::{Value, json};
use store::{Store, StoreError};

/// How many rated matches of each game a profile's rating history shows.
pub const HISTORY_POINTS: u32 = 100;

/// `GET /api/leaderboard/{game}`: `{game, title, minGames, size, rows: [{rank, name, guest,
/// rating, rd, games}]}`, the top [`store::ratings::LEADERBOARD_SIZE`] of the game (see
/// [`Store::leaderboard`] for who is listed); `404 no_game` for a name that is no game.
pub async fn leaderboard(State(state): State<AppState>, Path(game): Path<String>) -> Response {
    let Ok(kind) = game.parse::<GameKind>() else {
        return fail(StatusCode::NOT_FOUND, "no_game", format!("there is no game called {game}"));
    };
    match state.lobby.store().leaderboard(kind.name()).await {
        Ok(rows) => Json(board_json(kind, &rows)).into_response(),
        Err(e) => store_down(&e),
    }
}

fn board_json(kind: GameKind, rows: &[store::ratings::BoardRow]) -> Value {
    let rows: Vec<Value> = (rows.iter().enumerate())
        .map(|(i, b)| {
            json!({
                "rank": i + 1,
                "name": b.name,
                "guest": b.guest,
                "rating": b.r.round() as i64,
                "rd": b.rd.round() as i64,
                "games": b.games,
            })
        })
        .collect();
    json!({
        "game": kind.name(),
        "title": kind.title(),
        "minGames": store::ratings::LEADERBOARD_MIN_GAMES,
        "size": store::ratings::LEADERBOARD_SIZE,
        "rows": rows,
    })
}

/// A profile's `ratings`: one entry per game the account has played rated, `{game, rating,
/// rd, provisional, games, history: [{rating, at, match, left}]}` (the history oldest first,
/// its last [`HISTORY_POINTS`] matches), the rating as it stands now (widened for idle time).
pub async fn profile_ratings(store: &Store, account: i64, now: u64) -> Result<Vec<Value>, StoreError> {
    let mut out = Vec::new();
    for s in store.ratings(account).await? {
        let r = s.rating_at(now);
        let history: Vec<Value> = (store.rating_history(account, &s.game, HISTORY_POINTS).await?.iter())
            .map(|h| json!({ "rating": h.r.round() as i64, "at": h.at, "match": h.match_id, "left": h.left }))
            .collect();
        out.push(json!({
            "game": s.game,
            "rating": r.r.round() as i64,
            "rd": r.rd.round() as i64,
            "provisional": r.is_provisional(),
            "games": s.games,
            "history": history,
        }));
    }
    Ok(out)
}

/// `GET /api/games`: the registry's list of games, each with `botRatings`: every level's and
/// bot's fixed rating on the people's scale (`{"hard": 1582, ...}`, see `rating::bot_rating`).
pub fn games_json() -> Value {
    let games: Vec<Value> = (crate::games::offered().into_iter())
        .map(|g| {
            let mut v = serde_json::to_value(&g).expect("game infos serialize");
            let ratings: serde_json::Map<String, Value> = (rating::bot_ratings(g.name).iter())
                .map(|(level, r)| (level.clone(), Value::from(r.round() as i64)))
                .collect();
            v["botRatings"] = Value::Object(ratings);
            v
        })
        .collect();
    Value::Array(games)
}
