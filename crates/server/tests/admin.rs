//! Moderation (issue 44): the admin routes refuse everyone but an admin, every admin action is
//! in the moderation log, a ban refuses sign-in, sockets and joins and says until when, a banned
//! guest cannot come straight back under a new identity, a closed room tells its players, and
//! a player's report reaches the console with the room's chat.

use serde_json::{Value, json};

use crate::common::Server;
use crate::common::people::{guest, member, req, signed_client};

/// A member made an admin (as `cardtable admin grant` does): its session.
async fn admin(s: &Server, store: &store::Store, name: &str) -> String {
    let session = member(&s.addr, name, "a long enough password").await;
    let me = req(&s.addr, "GET", "/api/me", Some(&session), None).await;
    store.set_admin(me.body["id"].as_i64().unwrap(), true).await.unwrap();
    session
}

async fn id_of(addr: &str, session: &str) -> i64 {
    req(addr, "GET", "/api/me", Some(session), None).await.body["id"].as_i64().unwrap()
}

/// Every admin route and action, with a body that an admin's request would carry.
fn admin_routes(room: &str, person: i64) -> Vec<(&'static str, String, Option<Value>)> {
    vec![
        ("GET", "/api/admin/rooms".into(), None),
        ("POST", format!("/api/admin/rooms/{room}/close"), Some(json!({"message": "closing"}))),
        ("GET", "/api/admin/people?q=a".into(), None),
        ("GET", format!("/api/admin/people/{person}/sessions"), None),
        ("POST", format!("/api/admin/people/{person}/ban"), Some(json!({"reason": "spam", "minutes": 5}))),
        ("POST", format!("/api/admin/people/{person}/unban"), Some(json!({"reason": "ok"}))),
        ("GET", "/api/admin/reports".into(), None),
        ("GET", "/api/admin/reports?all=true".into(), None),
        ("POST", "/api/admin/reports/1/resolve".into(), Some(json!({}))),
        ("GET", "/api/admin/log".into(), None),
    ]
}

#[tokio::test]
async fn a_non_admin_gets_403_on_every_admin_route_and_action() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let (guest_session, _) = guest(&s.addr).await;
    let member_session = member(&s.addr, "plainmember", "a long enough password").await;
    let target = id_of(&s.addr, &guest_session).await;
    for (method, path, body) in admin_routes(&room, target) {
        let r = req(&s.addr, method, &path, None, body.clone()).await;
        assert_eq!((r.status, r.body["error"].as_str()), (401, Some("signed_out")), "{method} {path} signed out");
        for session in [&guest_session, &member_session] {
            let r = req(&s.addr, method, &path, Some(session), body.clone()).await;
            assert_eq!((r.status, r.body["error"].as_str()), (403, Some("not_admin")), "{method} {path}: {}", r.body);
        }
    }
    // Nothing was done: the room is there, nobody banned, the log empty.
    assert!(req(&s.addr, "GET", &format!("/api/rooms/{room}"), None, None).await.status == 200);
    assert_eq!(store.active_ban(target, server::room::now_ms()).await.unwrap(), None);
    assert!(store.moderation_log(None, 10).await.unwrap().is_empty());
    // The same routes answer an admin (the table is not refusing for another reason).
    let boss = admin(&s, &store, "boss").await;
    for (method, path, body) in admin_routes(&room, target) {
        let r = req(&s.addr, method, &path, Some(&boss), body).await;
        assert!(r.status != 401 && r.status != 403, "{method} {path} refused an admin: {} {}", r.status, r.body);
    }
    s.stop().await;
}

#[tokio::test]
async fn an_admins_actions_appear_in_the_moderation_log() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let boss = admin(&s, &store, "boss").await;
    let (g, gname) = guest(&s.addr).await;
    let gid = id_of(&s.addr, &g).await;
    // People: search by part of the name, sessions.
    let found = req(&s.addr, "GET", &format!("/api/admin/people?q={}", &gname[..4]), Some(&boss), None).await;
    assert!(found.body.as_array().unwrap().iter().any(|p| p["id"] == gid), "{}", found.body);
    let sessions = req(&s.addr, "GET", &format!("/api/admin/people/{gid}/sessions"), Some(&boss), None).await;
    assert_eq!(sessions.body.as_array().unwrap().len(), 1, "{}", sessions.body);
    let r = req(
        &s.addr,
        "POST",
        &format!("/api/admin/people/{gid}/ban"),
        Some(&boss),
        Some(json!({"reason": "spam in chat", "minutes": 60})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let until = r.body["account"]["ban"]["until"].as_u64().unwrap();
    let now = server::room::now_ms();
    assert!(until > now + 59 * 60_000 && until <= now + 60 * 60_000, "{until}");
    let r = req(
        &s.addr,
        "POST",
        &format!("/api/admin/people/{gid}/unban"),
        Some(&boss),
        Some(json!({"reason": "appealed"})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let room = s.room(json!({"game": "buckshot"})).await;
    let r = req(
        &s.addr,
        "POST",
        &format!("/api/admin/rooms/{room}/close"),
        Some(&boss),
        Some(json!({"message": "closed for spam", "reason": "spam room"})),
    )
    .await;
    assert_eq!((r.status, r.body["status"].as_str()), (200, Some("closed")), "{}", r.body);
    let log = req(&s.addr, "GET", "/api/admin/log", Some(&boss), None).await.body;
    let rows = log.as_array().unwrap();
    let actions: Vec<&str> = rows.iter().map(|r| r["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["close_room", "unban", "ban"], "newest first: {log}");
    for row in rows {
        assert_eq!(row["admin"]["name"], "boss", "who: {row}");
        assert!(row["at"].as_u64().unwrap() >= now - 60_000, "when: {row}");
    }
    assert_eq!(rows[2]["target"], format!("{gname} (#{gid})"));
    assert!(rows[2]["reason"].as_str().unwrap().ends_with(": spam in chat"), "why: {}", rows[2]);
    assert!(rows[2]["reason"].as_str().unwrap().starts_with("until "), "{}", rows[2]);
    assert_eq!(rows[1]["reason"], "appealed");
    assert_eq!(
        (rows[0]["target"].as_str(), rows[0]["reason"].as_str()),
        (Some(&*format!("room {room}")), Some("spam room"))
    );
    // A refused action logs nothing: a ban without a reason, an unban of nobody banned.
    let r =
        req(&s.addr, "POST", &format!("/api/admin/people/{gid}/ban"), Some(&boss), Some(json!({"reason": " "}))).await;
    assert_eq!(r.status, 400);
    let r = req(&s.addr, "POST", &format!("/api/admin/people/{gid}/unban"), Some(&boss), Some(json!({}))).await;
    assert_eq!((r.status, r.body["error"].as_str()), (409, Some("not_banned")));
    assert_eq!(store.moderation_log(None, 10).await.unwrap().len(), 3);
    s.stop().await;
}

#[tokio::test]
async fn a_banned_account_cannot_sign_in_or_join_a_room_and_is_told_until_when() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let boss = admin(&s, &store, "boss").await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let cheat = member(&s.addr, "cheater", "a long enough password").await;
    let cid = id_of(&s.addr, &cheat).await;
    // In the room when the ban comes: told, and dropped.
    let mut c = signed_client(&s.addr, &room, &cheat).await;
    c.send(json!({"type": "JoinGame", "username": "x"})).await;
    c.expect("Joined").await;
    let r = req(
        &s.addr,
        "POST",
        &format!("/api/admin/people/{cid}/ban"),
        Some(&boss),
        Some(json!({"reason": "cheating", "minutes": 90})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let until = r.body["account"]["ban"]["until"].as_u64().unwrap();
    let told = c.expect("Banned").await;
    assert_eq!(told["until"].as_u64(), Some(until));
    assert!(told["reason"].as_str().unwrap().contains("cheating"), "{told}");
    // A new socket to the room: told at once, closed 4003, never joined.
    let mut again = signed_client(&s.addr, &room, &cheat).await;
    let told = again.expect("Banned").await;
    assert_eq!(told["until"].as_u64(), Some(until));
    let utc = server::auth::utc(until);
    assert!(told["reason"].as_str().unwrap().contains(&utc), "the end, readable: {told}");
    assert!(again.next(2000).await.is_none());
    let closed = again.closed.clone().unwrap_or_default();
    assert!(closed.contains("4003") && closed.contains("banned until"), "{closed}");
    // Sign-in refused, with the end of the ban.
    let r = req(
        &s.addr,
        "POST",
        "/api/auth/login",
        None,
        Some(json!({"name": "cheater", "password": "a long enough password"})),
    )
    .await;
    assert_eq!(
        (r.status, r.body["error"].as_str(), r.body["until"].as_u64()),
        (403, Some("banned"), Some(until)),
        "{}",
        r.body
    );
    assert!(r.body["reason"].as_str().unwrap().contains("cheating"));
    // A wrong password is still just a wrong password (a ban tells nothing to a stranger).
    let r = req(
        &s.addr,
        "POST",
        "/api/auth/login",
        None,
        Some(json!({"name": "cheater", "password": "not the password!"})),
    )
    .await;
    assert_eq!(r.status, 401);
    // The room never seated them again.
    let summary = req(&s.addr, "GET", &format!("/api/rooms/{room}"), None, None).await.body;
    assert!(!summary["players"].as_array().unwrap().iter().any(|p| p == "cheater"), "{summary}");
    // Unbanned: in again.
    req(&s.addr, "POST", &format!("/api/admin/people/{cid}/unban"), Some(&boss), Some(json!({}))).await;
    let r = req(
        &s.addr,
        "POST",
        "/api/auth/login",
        None,
        Some(json!({"name": "cheater", "password": "a long enough password"})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.stop().await;
}

#[tokio::test]
async fn a_banned_guests_new_identity_from_the_same_address_is_throttled() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let boss = admin(&s, &store, "boss").await;
    let (g, _) = guest(&s.addr).await;
    // New guests come freely before.
    guest(&s.addr).await;
    let gid = id_of(&s.addr, &g).await;
    let r =
        req(&s.addr, "POST", &format!("/api/admin/people/{gid}/ban"), Some(&boss), Some(json!({"reason": "abuse"})))
            .await;
    assert_eq!((r.status, r.body["account"]["ban"]["until"].clone()), (200, Value::Null), "for good: {}", r.body);
    // The banned guest's page asks for its identity: refused, for good.
    let r = req(&s.addr, "POST", "/api/auth/guest", Some(&g), None).await;
    assert_eq!((r.status, r.body["error"].as_str()), (403, Some("banned")), "{}", r.body);
    assert_eq!(r.body["until"], Value::Null);
    assert!(r.body["reason"].as_str().unwrap().contains("for good"));
    // Without its cookie, from the same address: no new identity for a while.
    let r = req(&s.addr, "POST", "/api/auth/guest", None, None).await;
    assert_eq!((r.status, r.body["error"].as_str()), (429, Some("too_many_attempts")), "{}", r.body);
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(wait > 23 * 3600, "held for about a day: {wait} s");
    s.stop().await;
}

#[tokio::test]
async fn a_closed_room_tells_its_players_the_admins_message() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let boss = admin(&s, &store, "boss").await;
    let (room, mut a, mut b) = s.started_pair(json!({"game": "buckshot"})).await;
    let r = req(
        &s.addr,
        "POST",
        &format!("/api/admin/rooms/{room}/close"),
        Some(&boss),
        Some(json!({"message": "This room breaks the rules."})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    for c in [&mut a, &mut b] {
        let closed = c.expect("RoomClosed").await;
        assert_eq!(closed["message"], "This room breaks the rules.");
        c.drain(1000).await;
        let closed = c.closed.clone().unwrap_or_default();
        assert!(closed.contains("1001") || closed.contains("Away"), "the socket closes: {closed}");
    }
    assert_eq!(req(&s.addr, "GET", &format!("/api/rooms/{room}"), None, None).await.status, 404);
    // The running game was recorded, as abandoned.
    let m = store.list_matches(5).await.unwrap();
    assert_eq!(m.len(), 1);
    assert!(m[0].result.contains("abandoned"), "{}", m[0].result);
    // A room that is not there.
    let r = req(&s.addr, "POST", "/api/admin/rooms/nosuchroom/close", Some(&boss), Some(json!({"message": "x"}))).await;
    assert_eq!((r.status, r.body["error"].as_str()), (404, Some("no_room")));
    s.stop().await;
}

#[tokio::test]
async fn a_players_report_reaches_the_console_with_the_rooms_chat() {
    let store = store::Store::memory().unwrap();
    let s = Server::start(store.clone()).await;
    let boss = admin(&s, &store, "boss").await;
    let room = s.room(json!({"game": "buckshot"})).await;
    let (victim, vname) = guest(&s.addr).await;
    let (troll, tname) = guest(&s.addr).await;
    let (outsider, _) = guest(&s.addr).await;
    let mut v = signed_client(&s.addr, &room, &victim).await;
    v.send(json!({"type": "JoinGame", "username": "x"})).await;
    v.expect("Joined").await;
    let mut t = signed_client(&s.addr, &room, &troll).await;
    t.send(json!({"type": "JoinGame", "username": "x"})).await;
    t.expect("Joined").await;
    t.send(json!({"type": "SendNewChatMessage", "message": "you are all terrible"})).await;
    v.expect("NewChatMessageSent").await;
    let body = json!({"room": room, "player": tname, "kind": "chat", "line": "insults everyone"});
    let r = req(&s.addr, "POST", "/api/reports", Some(&outsider), Some(body.clone())).await;
    assert_eq!((r.status, r.body["error"].as_str()), (403, Some("not_in_room")));
    let r = req(&s.addr, "POST", "/api/reports", None, Some(body.clone())).await;
    assert_eq!(r.status, 401);
    let r = req(
        &s.addr,
        "POST",
        "/api/reports",
        Some(&victim),
        Some(json!({"room": room, "player": tname, "kind": "rudeness"})),
    )
    .await;
    assert_eq!((r.status, r.body["error"].as_str()), (400, Some("bad_kind")));
    let r = req(
        &s.addr,
        "POST",
        "/api/reports",
        Some(&victim),
        Some(json!({"room": room, "player": vname, "kind": "chat"})),
    )
    .await;
    assert_eq!((r.status, r.body["error"].as_str()), (400, Some("report_self")));
    let r = req(&s.addr, "POST", "/api/reports", Some(&victim), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let reports = req(&s.addr, "GET", "/api/admin/reports", Some(&boss), None).await.body;
    let rep = &reports[0];
    assert_eq!(
        (rep["id"].as_i64(), rep["kind"].as_str(), rep["line"].as_str()),
        (Some(id), Some("chat"), Some("insults everyone"))
    );
    assert_eq!((rep["reporter"]["name"].as_str(), rep["target"]["name"].as_str()), (Some(&*vname), Some(&*tname)));
    assert_eq!(rep["room"], room);
    assert_eq!(rep["chat"][0]["message"], "you are all terrible", "{rep}");
    assert_eq!(rep["chat"][0]["player"]["username"], tname);
    let r = req(
        &s.addr,
        "POST",
        &format!("/api/admin/reports/{id}/resolve"),
        Some(&boss),
        Some(json!({"reason": "warned"})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(req(&s.addr, "GET", "/api/admin/reports", Some(&boss), None).await.body.as_array().unwrap().is_empty());
    assert_eq!(req(&s.addr, "GET", "/api/admin/reports?all=true", Some(&boss), None).await.body[0]["resolved"], true);
    // The console lists the room with its players.
    let rooms = req(&s.addr, "GET", "/api/admin/rooms", Some(&boss), None).await.body;
    let listed = rooms.as_array().unwrap().iter().find(|r| r["id"] == room).expect("the room is listed").clone();
    assert_eq!(listed["game"], "buckshot");
    assert_eq!(listed["node"], "local");
    assert!(listed["createdAt"].as_u64().unwrap() > 0);
    assert_eq!(listed["players"].as_array().unwrap().len(), 2, "{listed}");
    s.stop().await;
}
