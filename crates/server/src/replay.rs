//! Finished matches for the browser: `GET /api/matches/{id}` rebuilds a stored match from its
//! seed and moves and returns the table after every move, as one viewer saw it, in the shape
//! of `GameDataSync.gameData` (so each game's page draws a replay with the code that draws a
//! live table), with the narration of each move.
//!
//! Only finished matches are stored, so nothing here can show a running game's hidden cards;
//! a viewer may still pick any seat, or the spectator's view.
//!
//! Query: `room=ID`, the room the match was played in (required: match ids count up, so
//! without it anyone could read every match in turn, a private room's too; a room's id is
//! what its members and the links it gives out hold), `seat=N` (a seat index) or
//! `player=NAME` (that player's seat; absent, or a name not at the table: the spectator's
//! view), and `steps=last` (only the final table, for the end screen) or `steps=all` (the
//! default). The seed is not given out: a room's later matches derive theirs from it.

use crate::adapter::{Fields, GameAdapter, Table};
use crate::games::{AdapterVisitor, visit_adapter};
pub use crate::rules_version::{rules_note, rules_version_of};
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use engine::{Game, Move, Seat, Viewer};
use registry::{Entry, GameKind, GameVisitor};
use serde::Deserialize;
use serde_json::{Value, json};
use store::MatchRecord;

#[derive(Deserialize)]
pub struct ReplayQuery {
    room: Option<String>,
    seat: Option<u8>,
    player: Option<String>,
    steps: Option<String>,
}

fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// `GET /api/matches/{id}`.
pub async fn get_match(
    State(state): State<crate::AppState>,
    crate::Peer(peer): crate::Peer,
    Path(id): Path<i64>,
    Query(q): Query<ReplayQuery>,
) -> Response {
    // A match of another room is a room id guessed wrong: throttled as a lookup of an unknown
    // room is (see `Limits::lookup_misses_per_minute_per_addr`).
    if let Some(refused) = crate::refuse_lookup(&state, peer) {
        return refused;
    }
    let only_last = match q.steps.as_deref() {
        None | Some("all") => false,
        Some("last") => true,
        Some(other) => return error(StatusCode::BAD_REQUEST, format!("steps is `all` or `last`, not `{other}`")),
    };
    let Some(room) = q.room else {
        return error(
            StatusCode::BAD_REQUEST,
            format!("name the room match {id} was played in (room=ID): the replay link of its end screen has it"),
        );
    };
    // Another room's match is answered as one that does not exist: nothing tells which ids
    // are matches of which rooms.
    let record = match state.lobby.store().get_match(id).await {
        Ok(Some(m)) if m.room_id == room => m,
        Ok(_) => {
            state.lobby.usage().missed(peer);
            return error(StatusCode::NOT_FOUND, format!("no finished match {id} in room {room}"));
        }
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, format!("reading match {id} failed: {e}")),
    };
    // Rebuilding runs the game's rules over every move: off the async workers.
    let seat = q.seat.or_else(|| {
        let names: Vec<String> = serde_json::from_str(&record.players).ok()?;
        let name = q.player.as_deref()?;
        names.iter().position(|n| n == name).and_then(|i| u8::try_from(i).ok())
    });
    let built = tokio::task::spawn_blocking(move || replay(&record, seat, only_last)).await;
    match built {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err((status, e))) => error(status, e),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("rebuilding match {id} failed")),
    }
}

#[derive(Deserialize)]
pub struct ListQuery {
    room: Option<String>,
    before: Option<i64>,
    limit: Option<u32>,
}

/// The most matches `GET /api/matches?room=ID` lists at once, and how many when not asked.
pub const MATCH_PAGE: u32 = 100;
pub const MATCH_PAGE_DEFAULT: u32 = 20;

/// `GET /api/matches?room=ID&before=MATCH&limit=N`: the room's recorded matches, newest first
/// (at most `limit`, 1 to 100, default 20; those recorded before match `before`), each with
/// its number in the room (the `matchNumber` its tables and `GameStarted` carried) and its
/// replay link; a `Link: <…>; rel="next"` header when there are more. A room id that names no
/// room (live, dormant or closed) and no match is `404` and counts as a lookup of an unknown
/// id, as `GET /api/rooms/{id}` does. No seed, no moves: the replay has them.
pub async fn room_matches(
    State(state): State<crate::AppState>,
    crate::Peer(peer): crate::Peer,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Some(refused) = crate::refuse_lookup(&state, peer) {
        return refused;
    }
    let Some(room) = q.room else {
        return error(StatusCode::BAD_REQUEST, "name the room whose matches to list (room=ID)".into());
    };
    let limit = q.limit.unwrap_or(MATCH_PAGE_DEFAULT);
    if !(1..=MATCH_PAGE).contains(&limit) {
        return error(StatusCode::BAD_REQUEST, format!("limit is 1 to {MATCH_PAGE}, not {limit}"));
    }
    let store = state.lobby.store();
    // One more than asked: whether there is a next page.
    let mut list = match store.room_matches(&room, q.before, limit + 1).await {
        Ok(l) => l,
        Err(e) => return error(StatusCode::SERVICE_UNAVAILABLE, format!("reading the matches failed: {e}")),
    };
    if list.is_empty() && q.before.is_none() {
        match store.id_taken(&room).await {
            Ok(true) => {}
            Ok(false) => {
                state.lobby.usage().missed(peer);
                return error(StatusCode::NOT_FOUND, format!("no room {room}"));
            }
            Err(e) => return error(StatusCode::SERVICE_UNAVAILABLE, format!("reading the rooms failed: {e}")),
        }
    }
    let more = list.len() > limit as usize;
    list.truncate(limit as usize);
    let body: Vec<Value> = list.iter().map(|(m, number)| match_summary(m, *number)).collect();
    let mut response = Json(body).into_response();
    if more
        && let Some((last, _)) = list.last()
        && let Ok(link) = axum::http::HeaderValue::from_str(&format!(
            "</api/matches?room={room}&before={}&limit={limit}>; rel=\"next\"",
            last.id
        ))
    {
        response.headers_mut().insert(axum::http::header::LINK, link);
    }
    response
}

/// A recorded match as `GET /api/matches?room=` lists it.
fn match_summary(m: &MatchRecord, number: Option<u64>) -> Value {
    let result: Value = serde_json::from_str(&m.result).unwrap_or(Value::Null);
    let players: Value = serde_json::from_str(&m.players).unwrap_or(Value::Null);
    json!({
        "id": m.id,
        "number": number,
        "room": m.room_id,
        "game": m.game,
        "players": players,
        "winners": result.get("winners").cloned().unwrap_or(Value::Array(Vec::new())),
        "abandoned": result.get("abandoned").and_then(Value::as_bool).unwrap_or(false),
        "moves": moves_of(m),
        "startedAt": m.started_at,
        "endedAt": m.ended_at,
        "replay": format!("/replay/{}?room={}", m.id, m.room_id),
    })
}

type Failure = (StatusCode, String);

/// A rebuild that failed (`e`), explained by the rules version when it differs: the stored
/// moves are intact, the rules that read them are not the ones that recorded them.
fn rebuild_failure(m: &MatchRecord, kind: GameKind, e: &str) -> Failure {
    match rules_note(kind, rules_version_of(&m.result)) {
        Some(note) => {
            (StatusCode::CONFLICT, format!("match {}: {note}, and its moves do not replay on this build ({e})", m.id))
        }
        None => (StatusCode::INTERNAL_SERVER_ERROR, format!("match {}: the stored moves cannot be read: {e}", m.id)),
    }
}

/// The match as JSON: its summary and its steps for the viewer at `seat` (or a spectator).
pub fn replay(m: &MatchRecord, seat: Option<u8>, only_last: bool) -> Result<Value, Failure> {
    let unreadable = |what: &str, e: &dyn std::fmt::Display| {
        (StatusCode::INTERNAL_SERVER_ERROR, format!("match {}: the stored {what} cannot be read: {e}", m.id))
    };
    let kind: GameKind = m.game.parse().map_err(|e| unreadable("game", &e))?;
    let names: Vec<String> = serde_json::from_str(&m.players).map_err(|e| unreadable("players", &e))?;
    let result: Value = serde_json::from_str(&m.result).map_err(|e| unreadable("result", &e))?;
    if let Some(s) = seat
        && usize::from(s) >= names.len()
    {
        return Err((StatusCode::BAD_REQUEST, format!("match {} has seats 0 to {}", m.id, names.len() - 1)));
    }
    let viewer = seat.map_or(Viewer::Spectator, |s| Viewer::seat(Seat(s)));
    let tables = visit_adapter(kind, Tables { m, names: &names, viewer })
        .ok_or_else(|| (StatusCode::NOT_FOUND, format!("{} has no tables on the server", kind.title())))?
        .map_err(|e| rebuild_failure(m, kind, &e))?;
    let lines = kind.visit(Lines { m, names: &names, viewer }).map_err(|e| rebuild_failure(m, kind, &e))?;
    let from = if only_last { tables.len() - 1 } else { 0 };
    let steps: Vec<Value> = tables
        .into_iter()
        .zip(lines)
        .enumerate()
        .skip(from)
        .map(|(index, (table, lines))| json!({ "index": index, "lines": lines, "gameData": table }))
        .collect();
    Ok(json!({
        "id": m.id,
        "room": m.room_id,
        "game": m.game,
        "title": kind.title(),
        "players": names,
        "winners": result.get("winners").cloned().unwrap_or(Value::Array(Vec::new())),
        // Everyone left before the end: no winner, and not a draw either.
        "abandoned": result.get("abandoned").and_then(Value::as_bool).unwrap_or(false),
        "moves": moves_of(m),
        "startedAt": m.started_at,
        "endedAt": m.ended_at,
        "seat": seat,
        // The rules that recorded it (null: before versions were stored), and a sentence when
        // they are not this build's (the replay may then differ from what was played).
        "rulesVersion": rules_version_of(&m.result),
        "rulesNote": rules_note(kind, rules_version_of(&m.result)),
        "steps": steps,
    }))
}

fn moves_of(m: &MatchRecord) -> usize {
    serde_json::from_str::<Vec<Value>>(&m.log).map_or(0, |v| v.len())
}

/// Plays the stored moves of game `G` from its seed, calling `each` with the game after the
/// start and after every move, with the events of that step.
fn rebuild<G: Game + 'static>(m: &MatchRecord, mut each: impl FnMut(&G, &[G::Event])) -> Result<(), String> {
    let config: G::Config = serde_json::from_str(&m.config).map_err(|e| format!("config: {e}"))?;
    let moves: Vec<Move<G::Action>> = serde_json::from_str(&m.log).map_err(|e| format!("moves: {e}"))?;
    let setup = crate::setup_rooms::of_result(&m.result);
    let mut game = crate::setup_rooms::new_game::<G>(&m.game, &config, m.seed, setup.as_deref(), None)
        .map_err(|e| e.to_string())?;
    each(&game, &game.start_events());
    let mut events = Vec::new();
    for (index, mv) in moves.into_iter().enumerate() {
        events.clear();
        match mv {
            Move::Act { seat, action } => {
                game.apply_into(seat, action, &mut events).map_err(|e| format!("move {index} was refused: {e}"))?;
            }
            Move::Leave { seat } => game.leave(seat, &mut events),
        }
        each(&game, &events);
    }
    Ok(())
}

/// Every step's `gameData` (as JSON values) for one viewer, built by the game's adapter.
struct Tables<'a> {
    m: &'a MatchRecord,
    names: &'a [String],
    viewer: Viewer,
}

impl AdapterVisitor for Tables<'_> {
    type Out = Result<Vec<Value>, String>;
    fn visit<A: GameAdapter>(self) -> Self::Out {
        let mut out = Vec::new();
        rebuild::<A::G>(self.m, |game, _| out.push(table::<A>(game, self.names, self.viewer)))?;
        Ok(out)
    }
}

/// One table as a room would sync it to `viewer` mid-game, with `replay: true`, no legal
/// actions, no chat and nobody's clock.
fn table<A: GameAdapter>(game: &A::G, names: &[String], viewer: Viewer) -> Value {
    // The adapter sees views only, as in a room: the spectator's for what everyone sees,
    // the viewer's for their own fields.
    let public_view = game.view(Viewer::Spectator);
    let public = Table { view: &public_view, viewer: Viewer::Spectator, names, decision: game.decision() };
    let own_view = game.view(viewer);
    let own = Table { view: &own_view, viewer, names, decision: game.decision() };
    let mut seats = vec![Fields::new(); names.len()];
    let mut top = Fields::new();
    A::public_data(Some(&public), &mut seats, &mut top);
    let players: Vec<Value> = names
        .iter()
        .zip(&seats)
        .enumerate()
        .map(|(i, (name, fields))| {
            let mut p = Fields::new();
            p.put("username", name)
                .put("inGame", &A::in_game(&public, Seat(i as u8)))
                .put("isSpectator", &false)
                .put("joinTime", &0)
                .put("isBot", &false)
                .put("connected", &true)
                .extend(fields);
            p.parse()
        })
        .collect();
    let you = viewer.as_seat().and_then(|s| names.get(s.index()));
    let over = game.outcome().is_some();
    let waiting: Vec<Value> = if over {
        Vec::new()
    } else {
        game.decision()
            .seats
            .iter()
            .filter_map(|s| names.get(s.index()))
            .map(|n| json!({ "username": n, "msLeft": null }))
            .collect()
    };
    let mut t = Fields::new();
    t.put("you", &you)
        .put_raw("players", &serde_json::to_string(&players).expect("values serialize"))
        .put("game", A::name())
        .put("host", &None::<String>)
        .put("gameStarted", &true)
        .put("replay", &true)
        .put("chat", &Vec::<Value>::new())
        .put("bots", &Vec::<String>::new())
        .put("seats", names)
        .put("minPlayers", &A::MIN_PLAYERS)
        .put("maxPlayers", &A::MAX_PLAYERS)
        .put("waitingOn", &waiting)
        .extend(&top);
    A::private_data(&own, &mut t);
    if A::SYNC_VIEW {
        t.put("view", &own_view);
    }
    t.put("legal", &Vec::<Value>::new());
    t.parse()
}

/// Every step's narration for one viewer, in the game's own words (the registry's
/// `describe_event` over what that viewer was told).
struct Lines<'a> {
    m: &'a MatchRecord,
    names: &'a [String],
    viewer: Viewer,
}

impl GameVisitor for Lines<'_> {
    type Out = Result<Vec<Vec<String>>, String>;
    fn visit<G: Entry>(self) -> Self::Out {
        let mut out = Vec::new();
        rebuild::<G>(self.m, |game, events| {
            out.push(
                events
                    .iter()
                    .filter_map(|e| game.view_event(e, self.viewer))
                    .filter_map(|e| G::describe_event(&e, self.viewer, self.names))
                    .collect(),
            );
        })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{MatchRng, Replay, play_out};

    /// A seeded match of `G` between heuristic bots, recorded as the room records one.
    struct Record;

    impl GameVisitor for Record {
        type Out = MatchRecord;
        fn visit<G: Entry>(self) -> MatchRecord {
            let config = G::config(*G::SEATS.start().max(&2)).expect("config");
            let game = G::new(&config, 7).expect("set up");
            let seats = game.num_seats();
            let names: Vec<String> = (0..seats).map(|i| format!("p{i}")).collect();
            let mut bots: Vec<_> = (0..seats)
                .map(|i| game.house_bot(Seat(i as u8)).unwrap_or_else(|| registry::bot::<G>("heuristic").unwrap()))
                .collect();
            let mut replay = Replay::new(config.clone(), 7);
            let result = play_out(game, &mut bots, &mut MatchRng::new(11), Some(&mut replay)).expect("ends");
            let winners: Vec<&String> = result.outcome.winners.iter().map(|s| &names[s.index()]).collect();
            MatchRecord {
                id: 1,
                room_id: "test".into(),
                game: G::NAME.into(),
                seed: 7,
                config: serde_json::to_string(&config).unwrap(),
                players: serde_json::to_string(&names).unwrap(),
                log: serde_json::to_string(&replay.moves).unwrap(),
                // As a room records it (room/play.rs `end_match`).
                result: json!({ "winners": winners, "rulesVersion": G::RULES_VERSION }).to_string(),
                started_at: 1_000,
                ended_at: 61_000,
                people: Vec::new(),
            }
        }
    }

    #[test]
    fn a_finished_match_rebuilds_step_by_step_for_any_viewer() {
        struct Has;
        impl AdapterVisitor for Has {
            type Out = ();
            fn visit<A: GameAdapter>(self) {}
        }
        for &kind in GameKind::ALL {
            if visit_adapter(kind, Has).is_none() {
                continue;
            }
            let m = kind.visit(Record);
            let all = replay(&m, Some(0), false).unwrap();
            let steps = all["steps"].as_array().unwrap();
            assert_eq!(
                steps.len(),
                all["moves"].as_u64().unwrap() as usize + 1,
                "{kind}: one step per move, and the deal"
            );
            let last = &steps.last().unwrap()["gameData"];
            assert_eq!(last["you"], "p0", "{kind}");
            assert_eq!(last["gameStarted"], true, "{kind}");
            assert_eq!(last["replay"], true, "{kind}");
            assert_eq!(last["legal"], json!([]), "{kind}");
            assert_eq!(last["waitingOn"], json!([]), "{kind}: nobody waited on at the end");
            assert!(
                last["players"].as_array().is_some_and(|p| p.len() == m.players.matches(',').count() + 1),
                "{kind}"
            );
            assert!(steps.iter().any(|s| s["lines"].as_array().is_some_and(|l| !l.is_empty())), "{kind}: narrated");

            // The end screen's question: just the last table, the same as the whole replay's.
            let end = replay(&m, Some(0), true).unwrap();
            assert_eq!(end["steps"].as_array().unwrap().len(), 1);
            assert_eq!(end["steps"][0], *steps.last().unwrap(), "{kind}");
            assert_eq!(end["winners"], serde_json::from_str::<Value>(&m.result).unwrap()["winners"]);

            // A spectator's table is not seat 0's (no `you`), and seats past the table are refused.
            let spectator = replay(&m, None, true).unwrap();
            assert_eq!(spectator["steps"][0]["gameData"]["you"], Value::Null, "{kind}");
            let e = replay(&m, Some(99), true).unwrap_err();
            assert_eq!(e.0, StatusCode::BAD_REQUEST);
        }
    }

    #[test]
    fn a_match_of_other_rules_says_which_rules_recorded_it() {
        let m = GameKind::ThreeKingdoms.visit(Record);
        let same = replay(&m, None, true).unwrap();
        assert_eq!((same["rulesVersion"].clone(), same["rulesNote"].clone()), (json!(1), Value::Null));

        // Replays, but under other rules: said next to the steps.
        let mut other = m.clone();
        other.result = json!({ "winners": [], "rulesVersion": 7 }).to_string();
        let v = replay(&other, None, true).unwrap();
        assert_eq!(v["rulesVersion"], 7);
        assert_eq!(v["rulesNote"], "this match was recorded by Three Kingdoms rules version 7; this build is 1");

        // Does not replay on this build: a conflict of versions, named, not a broken record.
        let mut moves: Vec<Value> = serde_json::from_str(&m.log).unwrap();
        moves.insert(3, moves[2].clone());
        other.log = serde_json::to_string(&moves).unwrap();
        let (status, e) = replay(&other, None, false).unwrap_err();
        assert_eq!(status, StatusCode::CONFLICT, "{e}");
        assert!(
            e.contains("recorded by Three Kingdoms rules version 7; this build is 1, and its moves do not replay on this build (move 3 was refused"),
            "{e}"
        );
        other.result = json!({ "winners": [] }).to_string();
        let (status, e) = replay(&other, None, false).unwrap_err();
        assert_eq!(status, StatusCode::CONFLICT, "{e}");
        assert!(e.contains("rules older than version 1 (before versions were stored)"), "{e}");
        // The same rules: the record itself is at fault.
        other.result = m.result.clone();
        assert_eq!(replay(&other, None, false).unwrap_err().0, StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn a_damaged_record_is_an_error_not_a_panic() {
        let mut m = GameKind::Buckshot.visit(Record);
        m.log = "[{\"Act\":{\"seat\":0,\"action\":\"nonsense\"}}]".into();
        assert_eq!(replay(&m, None, false).unwrap_err().0, StatusCode::INTERNAL_SERVER_ERROR);
        m.game = "chess".into();
        assert!(replay(&m, None, false).is_err());
    }
}
