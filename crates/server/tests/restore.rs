//! A room the store cannot rebuild does not keep the server, or the other rooms, from starting;
//! a room stored in the middle of a change comes back able to go on.

use crate::common;

use common::Server;
use serde_json::{Value, json};
use server::lobby::Lobby;
use server::room::RoomOptions;

#[tokio::test]
async fn a_broken_room_is_left_out_and_the_others_come_back() {
    let store = store::Store::memory().unwrap();
    let good = {
        let lobby = Lobby::restore(store.clone()).await.unwrap();
        lobby.create("buckshot", RoomOptions::default()).await.unwrap()
    };
    store.save_room("broken", "buckshot", "not a snapshot".into()).await.unwrap();
    let lobby = Lobby::restore(store).await.expect("the server starts");
    assert!(lobby.contains(&good));
    assert!(!lobby.contains("broken"));
}

/// A legal entry, chosen without knowing the game (as `every_game.rs` picks).
fn pick(legal: &[Value]) -> Option<&Value> {
    legal.iter().find(|a| a["type"] == "Lock").or_else(|| legal.iter().find(|a| a["type"] != "End")).or(legal.first())
}

/// A server killed (no drain, no last write) right after it stored a match's last move, before
/// it recorded the match as finished: the move log in the store holds a game that is over, the
/// room's snapshot still says a match runs. The restarted server must finish that match (record
/// it, back to the lobby), not show a table that waits on nobody for ever — what the cluster's
/// fault benchmark saw for Buckshot and Sorcery rooms after a failover (`waitingOn: []`,
/// `legal: []`, `gameStarted: true`), since both games' decisions are empty only once they are
/// over.
async fn a_match_stored_to_its_end_but_not_finished_is_finished_by_the_restore(game: &str, seed: u64) {
    let dir = std::env::temp_dir().join(format!("cardtable-restore-{game}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.db");
    let _ = std::fs::remove_file(&path);
    let store = store::Store::open(&path).unwrap();
    let s = Server::fast(store.clone()).await;
    let (id, mut a, mut b) = s.started_pair(json!({"game": game, "seed": seed, "botDelayMs": 2})).await;
    // The room as stored when its match started (no moves yet).
    let started = store.load_room(&id).await.unwrap().expect("stored").snapshot;
    'play: for _ in 0..3_000 {
        for c in [&mut a, &mut b] {
            let d = c.sync().await;
            if c.seen.iter().any(|p| p["type"] == "GameEnded") {
                break 'play;
            }
            c.seen.clear();
            if let Some(action) = pick(d["legal"].as_array().map_or(&[][..], |l| l.as_slice())) {
                c.send(json!({"type": "Act", "action": action})).await;
            }
        }
    }
    drop((a, b));
    s.stop().await;
    let finished = store.list_matches(10).await.unwrap();
    assert_eq!(finished.len(), 1, "{game}: the match was played to its end");
    let log: Vec<Value> = serde_json::from_str(&finished[0].log).unwrap();
    assert!(!log.is_empty());
    // The store as the kill left it (a database of its own: the first server's room tasks may
    // still write to theirs): the match's snapshot, every move stored, no end written.
    let path = dir.join("killed.db");
    let _ = std::fs::remove_file(&path);
    let store = store::Store::open(&path).unwrap();
    store.save_room(&id, game, started).await.unwrap();
    for (i, m) in log.iter().enumerate() {
        store.append_move(&id, i as u64, m.to_string()).await.unwrap();
    }
    let s = Server::fast(store.clone()).await;
    let mut w = s.client(&id).await;
    let table = w.sync().await;
    let waiting = table["waitingOn"].as_array().map_or(0, Vec::len);
    assert!(
        table["gameStarted"] == false || waiting > 0,
        "{game}: the restored room waits on nobody and its match is not finished: {table}"
    );
    assert_eq!(table["gameStarted"], false, "{game}: the match that was over is finished: {table}");
    let recorded = store.list_matches(10).await.unwrap();
    assert_eq!(recorded.len(), 1, "{game}: the finished match is recorded");
    assert_eq!(recorded[0].log, finished[0].log, "{game}: with every move");
    assert_eq!(table["lastWinner"], finished_winner(&finished[0]), "{game}: {table}");
    s.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_buckshot_match_stored_to_its_end_is_finished_by_the_restore() {
    a_match_stored_to_its_end_but_not_finished_is_finished_by_the_restore("buckshot", 21).await;
}

#[tokio::test]
async fn a_sorcery_match_stored_to_its_end_is_finished_by_the_restore() {
    a_match_stored_to_its_end_but_not_finished_is_finished_by_the_restore("sorcery", 22).await;
}

/// The first winner of a recorded match (null for a draw).
fn finished_winner(m: &store::MatchRecord) -> Value {
    let result: Value = serde_json::from_str(&m.result).unwrap();
    result["winners"][0].clone()
}

/// A room whose running match was stored by other rules than this build's, and whose moves
/// these rules refuse, is left out (as any room that does not rebuild) with the reason named:
/// which rules played it and which this build has, not only the move refused.
#[tokio::test]
async fn a_running_match_of_other_rules_that_does_not_rebuild_names_both_versions() {
    use server::games::buckshot::BuckshotAdapter;
    use server::room::Room;
    let store = store::Store::memory().unwrap();
    let s = Server::fast(store.clone()).await;
    let (id, mut a, b) = s.started_pair(json!({"game": "buckshot", "seed": 21, "botDelayMs": 2})).await;
    let d = a.sync().await;
    drop((a, b));
    s.stop().await;
    let mut stored = store.load_room(&id).await.unwrap().expect("stored");
    let mut snap: Value = serde_json::from_str(&stored.snapshot).unwrap();
    assert_eq!(snap["match"]["rulesVersion"], 1, "the running match's rules version is stored: {snap}");
    // A move of the seat not to play: refused by these rules, as a log of changed rules may be.
    let waiting = if d["currentTurn"] == "alice" { 1 } else { 0 };
    let seat = engine::Seat(waiting);
    let shot = engine::Move::Act { seat, action: buckshot::Action::Shoot { target: seat } };
    stored.moves = vec![serde_json::to_string(&shot).unwrap()];
    let since = tokio::time::Instant::now();
    let same = Room::<BuckshotAdapter>::restore(&stored, store.clone(), since).err().expect("the move is refused");
    let same = same.to_string();
    assert!(same.contains("move 0 refused on replay") && !same.contains("rules version"), "{same}");
    snap["match"]["rulesVersion"] = json!(7);
    stored.snapshot = snap.to_string();
    let e = Room::<BuckshotAdapter>::restore(&stored, store.clone(), since).err().expect("the move is refused");
    let e = e.to_string();
    assert!(
        e.contains("recorded by Buckshot rules version 7; this build is 1, and its running match does not rebuild on it: move 0 refused on replay"),
        "{e}"
    );
}

/// The room as stored now, copied into a store of its own (the server that wrote it may still
/// write to the first): what a node that takes the room over, or a restart, reads.
async fn copied(store: &store::Store, id: &str) -> store::Store {
    let stored = store.load_room(id).await.unwrap().expect("stored");
    let copy = store::Store::memory().unwrap();
    copy.save_room(id, "buckshot", stored.snapshot).await.unwrap();
    for (i, m) in stored.moves.iter().enumerate() {
        copy.append_move(id, i as u64, m.clone()).await.unwrap();
    }
    copy
}

/// After a restore every member is back away, held for `holdSeconds` so its token works. A
/// player may come back without one: in the cluster's 200-fault run a node cut off from the
/// database let a member dropped in the lobby go (unstored) and refused its token, the client
/// joined by name, and the survivor restored the member from the last stored snapshot — its
/// name refused `username_taken` for the whole hold while the room listed it away. In the
/// lobby an away member holds nothing: the name is free, as it is on a server that saw the
/// drop. A seat in a running match is still reclaimed by its token alone.
#[tokio::test]
async fn an_away_member_without_a_seat_frees_its_name_after_a_restore() {
    let store = store::Store::memory().unwrap();
    let s = Server::fast(store.clone()).await;
    let id = s.room(json!({"game": "buckshot"})).await;
    let mut a = s.client(&id).await;
    let old = a.join("alice").await;
    let mut b = s.client(&id).await;
    b.join("bob").await;
    let lobby = copied(&store, &id).await;
    let (playing_id, c, d) = s.started_pair(json!({"game": "buckshot", "seed": 3})).await;
    let playing = copied(&store, &playing_id).await;
    drop((a, b, c, d));
    s.stop().await;

    // The lobby: alice is away after the restore; her name, joined again, is hers.
    let s = Server::fast(lobby).await;
    let mut w = s.client(&id).await;
    let table = w.sync().await;
    let entry = table["players"].as_array().unwrap().iter().find(|p| p["username"] == "alice").cloned();
    assert_eq!(entry.expect("alice is a member")["connected"], false, "restored away: {table}");
    let mut alice = s.client(&id).await;
    let new = alice.join("alice").await;
    assert_ne!(new, old, "a new member, a new token");
    let mut stale = s.client(&id).await;
    stale.send(json!({"type": "Reconnect", "token": old})).await;
    assert_eq!(stale.expect("PlayerJoinRejected").await["code"], "unknown_token", "the old member is gone");
    // A connected member's name stays taken.
    let mut other = s.client(&id).await;
    other.send(json!({"type": "JoinGame", "username": "ALICE"})).await;
    assert_eq!(other.expect("PlayerJoinRejected").await["code"], "username_taken");
    s.stop().await;

    // A running match: the away seat's name is not free; its token is the way back.
    let s = Server::fast(playing).await;
    let mut thief = s.client(&playing_id).await;
    thief.send(json!({"type": "JoinGame", "username": "alice"})).await;
    assert_eq!(thief.expect("PlayerJoinRejected").await["code"], "username_taken");
    s.stop().await;
}
