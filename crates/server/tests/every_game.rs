//! One action packet for every game: clients that know nothing of a game but `Act {action}`
//! and `GameDataSync.legal` play each game with an adapter to its end through the real server
//! (Buckshot included, which also keeps its own packets).

use serde_json::{Value, json};

use crate::common;
use common::Server;

const STEPS: usize = 4000;

/// A legal entry, chosen without knowing the game: lock a choice in where the game asks for
/// confirming (Wolf Pack), prefer doing something over ending the turn (Sorcery), else the
/// first one.
fn pick(legal: &[Value]) -> Option<&Value> {
    legal
        .iter()
        .find(|a| a["confirm"] == true || a["type"] == "Confirm")
        .or_else(|| legal.iter().find(|a| a["type"] != "End"))
        .or(legal.first())
}

async fn play_by_legal(game: &str, seed: u64) -> Value {
    let s = Server::fast(store::Store::memory().unwrap()).await;
    let room = s.room(json!({"game": game, "seed": seed, "botDelayMs": 2})).await;
    let mut a = s.client(&room).await;
    a.join("alice").await;
    let mut b = s.client(&room).await;
    b.join("bob").await;
    a.send(json!({"type": "StartGame"})).await;
    a.expect("GameStarted").await;
    let mut moves = 0;
    for _ in 0..STEPS {
        for (name, c) in [("alice", &mut a), ("bob", &mut b)] {
            let d = c.sync().await;
            if let Some(end) = c.seen.iter().rev().find(|p| p["type"] == "GameEnded") {
                let end = end.clone();
                assert!(moves > 0, "{game}: nobody played");
                s.stop().await;
                return end;
            }
            let failed: Vec<&Value> = c.seen.iter().filter(|p| p["type"] == "ActionFailed").collect();
            assert!(failed.is_empty(), "{game}, {name}: {failed:?}");
            c.seen.clear();
            let legal = d["legal"].as_array().cloned().unwrap_or_default();
            if let Some(action) = pick(&legal) {
                c.send(json!({"type": "Act", "action": action})).await;
                moves += 1;
            }
        }
    }
    panic!("{game} did not end in {STEPS} steps");
}

#[tokio::test]
async fn buckshot_plays_to_the_end_by_act_alone() {
    let end = play_by_legal("buckshot", 11).await;
    assert!(end["winner"].is_string(), "{end}");
}

#[tokio::test]
async fn ivanhoe_plays_to_the_end_by_act_alone() {
    play_by_legal("ivanhoe", 12).await;
}

#[tokio::test]
async fn sorcery_plays_to_the_end_by_act_alone() {
    play_by_legal("sorcery", 13).await;
}

#[tokio::test]
async fn wolfpack_plays_to_the_end_by_act_alone() {
    play_by_legal("wolfpack", 14).await;
}
