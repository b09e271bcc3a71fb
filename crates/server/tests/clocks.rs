//! The room's clocks under tokio's paused time: rooms driven through their `RoomHandle` (no
//! sockets), so a 15-second reaction window takes no real seconds. Time moves in small steps,
//! each followed by a flush, so whatever the room awaits (the store) never lets the clock jump
//! past a deadline unobserved.

use engine::{
    Bot, Decision, DecisionKind, Game, MatchRng, Observation, Outcome, RuleError, Seat, SeatSet, SetupError, Viewer,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use server::adapter::{Fields, GameAdapter, Table};
use server::games::ivanhoe::{IvanhoeAdapter, REACTION};
use server::room::{Outbound, Room, RoomHandle, RoomOptions};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A room and one connection's packets.
struct Direct {
    handle: RoomHandle,
    store: store::Store,
    out: mpsc::Receiver<Outbound>,
    seen: Vec<Value>,
}

const CONN: u64 = 1;
const STEP: Duration = Duration::from_millis(50);

impl Direct {
    async fn open<A: GameAdapter>(options: RoomOptions) -> Direct {
        let store = store::Store::memory().unwrap();
        let (room, handle, inbox) = Room::<A>::create("clock".into(), options, store.clone());
        tokio::spawn(room.run(inbox));
        let (tx, out) = mpsc::channel(4096);
        handle.connect(CONN, tx, None).await.unwrap();
        Direct { handle, store, out, seen: Vec::new() }
    }

    async fn send(&mut self, v: Value) {
        self.handle.text(CONN, Outbound::from(v.to_string())).await.unwrap();
        self.handle.flush().await.unwrap();
        self.read();
    }

    /// Lets `d` of (paused) time pass, in steps the room catches up with.
    async fn wait(&mut self, d: Duration) {
        let until = Instant::now() + d;
        while Instant::now() < until {
            tokio::time::sleep(STEP.min(until - Instant::now())).await;
            self.handle.flush().await.unwrap();
            self.read();
        }
    }

    fn read(&mut self) {
        while let Ok(p) = self.out.try_recv() {
            self.seen.push(serde_json::from_str(p.as_str()).unwrap());
        }
    }

    /// The last table this connection was sent.
    async fn sync(&mut self) -> Value {
        self.send(json!({"type": "GameDataRequest"})).await;
        let last = self.seen.iter().rev().find(|p| p["type"] == "GameDataSync").expect("a sync");
        last["gameData"].clone()
    }

    fn any(&self, f: impl Fn(&Value) -> bool) -> bool {
        self.seen.iter().any(f)
    }
}

#[tokio::test(start_paused = true)]
async fn a_silent_person_passes_when_the_window_clock_runs_out() {
    let options = RoomOptions { seed: Some(1), bot_delay_ms: 2, ..Default::default() };
    let mut a = Direct::open::<IvanhoeAdapter>(options).await;
    a.send(json!({"type": "JoinGame", "username": "alice"})).await;
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    a.send(json!({"type": "AddBot", "bot": "heuristic"})).await;
    a.send(json!({"type": "StartGame"})).await;
    assert!(a.any(|p| p["type"] == "GameStarted"));
    // Play (first legal action) until a bot's action card asks alice.
    let mut asked = false;
    for _ in 0..2000 {
        a.wait(Duration::from_millis(10)).await;
        let d = a.sync().await;
        assert_eq!(d["gameStarted"], true, "the game ended before alice was asked");
        if d["phase"] == "window" && d["waitingOn"].as_array().unwrap().iter().any(|w| w["username"] == "alice") {
            assert!(d["legal"].as_array().unwrap().contains(&json!({"type": "Pass"})));
            asked = true;
            break;
        }
        if let Some(act) = d["legal"].as_array().and_then(|l| l.first()).cloned() {
            a.send(json!({"type": "Act", "action": act})).await;
        }
    }
    assert!(asked, "alice was asked about an action card");
    // Alice says nothing: the server passes for her once her clock runs out, not before.
    a.seen.clear();
    let passed = |p: &Value| p["type"] == "GameEvent" && p["event"]["type"] == "Passed" && p["event"]["seat"] == 0;
    a.wait(REACTION - Duration::from_secs(1)).await;
    assert!(!a.any(passed), "alice was passed for before her clock ran out");
    a.wait(Duration::from_secs(2)).await;
    let p = a.seen.iter().find(|p| passed(p)).expect("alice was passed for once her clock ran out");
    assert_eq!(p["event"]["text"], "You let it be.");

    // The log says the clock made that move (`"by": "clock"`), not alice; the bots' moves and
    // alice's own are stored unmarked; and the log replays with the mark in it.
    let stored = a.store.load_room("clock").await.unwrap().expect("the room is stored");
    let entries: Vec<Value> = stored.moves.iter().map(|e| serde_json::from_str(e).unwrap()).collect();
    let marked: Vec<&Value> = entries.iter().filter(|e| !e["by"].is_null()).collect();
    assert!(
        marked.iter().any(|e| e["seat"] == 0 && e["by"] == "clock" && e["action"]["type"] == "Pass"),
        "the clock's pass for alice is not marked as the clock's: {marked:?}"
    );
    assert!(
        marked.iter().all(|e| e["seat"] == 0 && e["by"] == "clock"),
        "only the clock's moves are marked: {marked:?}"
    );
    assert!(entries.iter().any(|e| e["seat"] == 0 && e["by"].is_null()), "alice's own moves are not marked");
    let snap: Value = serde_json::from_str(&stored.snapshot).unwrap();
    let record = store::MatchRecord {
        id: 1,
        room_id: "clock".into(),
        game: "ivanhoe".into(),
        seed: snap["match"]["seed"].as_u64().unwrap(),
        config: snap["match"]["config"].to_string(),
        players: snap["match"]["seats"].to_string(),
        log: format!("[{}]", stored.moves.join(",")),
        result: "{}".into(),
        started_at: 0,
        ended_at: 0,
        people: Vec::new(),
    };
    let replayed = server::replay::replay(&record, Some(0), true).expect("a log with marked moves replays");
    assert_eq!(replayed["moves"], entries.len(), "{replayed}");
}

// ---- a window opened on a window, with the same seats -------------------------------------

/// A toy game of nested windows: seat 2 plays a card; seats 0 and 1 may answer it, and a
/// Negate (one a game) opens a new window on the first, asking the same two seats again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Negates {
    /// `None`: seat 2's turn.
    window: Option<(u8, SeatSet)>,
    over: bool,
    serial: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Act {
    Play,
    Negate,
    Pass,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Did {
    seat: u8,
    act: Act,
}

const ANSWERING: SeatSet = SeatSet::from_bits(0b011);

impl Game for Negates {
    const NAME: &'static str = "negates";
    type Config = ();
    type Action = Act;
    type Event = Did;
    type View = Negates;

    fn new(_: &(), _: u64) -> Result<Self, SetupError> {
        Ok(Negates { window: None, over: false, serial: 0 })
    }
    fn num_seats(&self) -> usize {
        3
    }
    fn to_act(&self) -> SeatSet {
        match self.window {
            _ if self.over => SeatSet::EMPTY,
            None => SeatSet::one(Seat(2)),
            Some((_, passed)) => SeatSet::from_bits(ANSWERING.bits() & !passed.bits()),
        }
    }
    fn decision(&self) -> Decision {
        let kind = if self.window.is_some() { DecisionKind::Response } else { DecisionKind::Turn };
        Decision::new(self.to_act(), kind, self.serial)
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Act>) {
        if !self.to_act().contains(seat) {
            return;
        }
        match self.window {
            None => out.push(Act::Play),
            Some((negates, _)) => {
                if negates == 0 {
                    out.push(Act::Negate);
                }
                out.push(Act::Pass);
            }
        }
    }
    fn apply_into(&mut self, seat: Seat, act: Act, out: &mut Vec<Did>) -> Result<(), RuleError> {
        if !self.legal_actions(seat).contains(&act) {
            return Err(RuleError::not_your_turn());
        }
        match (&act, self.window) {
            (Act::Play, _) => {
                self.window = Some((0, SeatSet::EMPTY));
                self.serial += 1;
            }
            (Act::Negate, Some((n, _))) => {
                self.window = Some((n + 1, SeatSet::EMPTY));
                self.serial += 1;
            }
            (Act::Pass, Some((n, passed))) => {
                let mut passed = passed;
                passed.insert(seat);
                self.window = Some((n, passed));
                if passed == ANSWERING {
                    self.over = true;
                    self.serial += 1;
                }
            }
            _ => unreachable!("checked legal"),
        }
        out.push(Did { seat: seat.0, act });
        Ok(())
    }
    fn view(&self, _: Viewer) -> Negates {
        self.clone()
    }
    fn view_event(&self, e: &Did, _: Viewer) -> Option<Did> {
        Some(e.clone())
    }
    fn determinize(&self, _: Viewer, _: &mut MatchRng) -> Self {
        self.clone()
    }
    fn timeout_action(&self, seat: Seat) -> Option<Act> {
        (self.window.is_some() && self.to_act().contains(seat)).then_some(Act::Pass)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| Outcome::winner(Seat(2)))
    }
}

/// Negates when it may, else the first legal action.
struct Eager;

impl Bot<Negates> for Eager {
    fn choose(&mut self, obs: &Observation<'_, Negates>, _: &mut MatchRng) -> Act {
        obs.legal().iter().find(|a| **a == Act::Negate).unwrap_or(&obs.legal()[0]).clone()
    }
}

/// The toy's registry entry: adapters name their game's entry (levels, narration). It borrows
/// Ivanhoe's kind only because the registry's list is closed; nothing here looks it up.
impl registry::Entry for Negates {
    const KIND: registry::GameKind = registry::GameKind::Ivanhoe;
    const TITLE: &'static str = "Negates";
    const DESCRIPTION: &'static str = "a window on a window, for the clock tests";
    const SEATS: std::ops::RangeInclusive<u8> = 3..=3;
    const DEFAULT_PLAYERS: u8 = 3;
    fn bot_names() -> &'static [&'static str] {
        &["eager", "heuristic"]
    }
    // The levels stand on a game's `heuristic` bot (the stand-in plays `medium`).
    fn make_bot(name: &str) -> Option<Box<dyn Bot<Negates>>> {
        matches!(name, "eager" | "heuristic").then(|| Box::new(Eager) as Box<dyn Bot<Negates>>)
    }
    fn config(_: u8) -> Result<(), String> {
        Ok(())
    }
    fn describe_event(_: &Did, _: Viewer, _: &[String]) -> Option<String> {
        None
    }
}

/// The toy in a room; with `QUIET` it has `only_passes`: a seat whose one legal action is Pass
/// is not waited on.
struct NegatesAdapter<const QUIET: bool = false>;
type QuietAdapter = NegatesAdapter<true>;

const ANSWER: Duration = Duration::from_secs(10);

impl<const QUIET: bool> GameAdapter for NegatesAdapter<QUIET> {
    type G = Negates;
    const MIN_PLAYERS: usize = 3;
    const MAX_PLAYERS: usize = 3;

    fn config(_: usize, _: &Value) -> Result<(), String> {
        Ok(())
    }
    fn bot_names() -> &'static [&'static str] {
        &["eager"]
    }
    fn make_bot(name: &str) -> Option<Box<dyn Bot<Negates>>> {
        (name == "eager").then(|| Box::new(Eager) as Box<dyn Bot<Negates>>)
    }
    fn decision_timeout(_: &Negates, _: Seat, kind: DecisionKind, _: &Value) -> Option<Duration> {
        (kind == DecisionKind::Response).then_some(ANSWER)
    }
    fn only_passes(game: &Negates, seat: Seat) -> bool {
        QUIET && game.legal_actions(seat) == [Act::Pass]
    }
    fn event_packets(event: &Did, _: Viewer, _: &[String], out: &mut Vec<String>) {
        out.push(json!({"type": "GameEvent", "event": event}).to_string());
    }
    fn public_data(_: Option<&Table<'_, Negates>>, _: &mut [Fields], _: &mut Fields) {}
}

/// A Negate on a card opens a new decision for the same seats: the silent person's clock
/// starts again with it, instead of running on from the first window.
#[tokio::test(start_paused = true)]
async fn a_window_on_a_window_starts_a_fresh_clock() {
    let delay = Duration::from_secs(4);
    let options = RoomOptions { bot_delay_ms: delay.as_millis() as u64, ..Default::default() };
    let mut a = Direct::open::<NegatesAdapter>(options).await;
    a.send(json!({"type": "JoinGame", "username": "alice"})).await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "AddBot"})).await;
    a.send(json!({"type": "StartGame"})).await;
    assert!(a.any(|p| p["type"] == "GameStarted"));
    let did = |seat: u8, act: &'static str| {
        move |p: &Value| p["type"] == "GameEvent" && p["event"]["seat"] == seat && p["event"]["act"]["type"] == act
    };
    // 4 s: seat 2 plays (window 1 asks alice and seat 1); 8 s: seat 1 negates (window 2, the
    // same seats); 12 s: seat 1 passes. Alice's clock for window 2 runs out at 18 s, not at
    // 14 s (window 1's).
    a.wait(2 * delay + Duration::from_secs(1)).await;
    assert!(a.any(did(2, "Play")) && a.any(did(1, "Negate")), "{:?}", a.seen);
    a.wait(Duration::from_secs(6)).await;
    assert!(!a.any(did(0, "Pass")), "alice's clock ran on from the first window");
    assert!(!a.any(|p| p["type"] == "GameEnded"));
    let d = a.sync().await;
    let left = d["waitingOn"][0]["msLeft"].as_u64().expect("alice's clock runs");
    assert_eq!(d["waitingOn"][0]["username"], "alice");
    assert!((2_000..=3_100).contains(&left), "{left} ms left at 15 s");
    a.wait(Duration::from_secs(4)).await;
    assert!(a.any(did(1, "Pass")) && a.any(did(0, "Pass")), "{:?}", a.seen);
    assert!(a.any(|p| p["type"] == "GameEnded"));
}

/// A person who can only pass is passed for early, at a random moment 1 to 4 s into the
/// window, while the clock every page shows for them is the full one, as for a seat that could
/// answer; a person who could answer is waited on as before.
#[tokio::test(start_paused = true)]
async fn a_person_who_can_only_pass_is_not_waited_on_and_the_clock_shown_does_not_tell() {
    let delay = Duration::from_secs(4);
    let did = |seat: u8, act: &'static str| {
        move |p: &Value| p["type"] == "GameEvent" && p["event"]["seat"] == seat && p["event"]["act"]["type"] == act
    };
    let mut moments = Vec::new();
    for _ in 0..6 {
        let options = RoomOptions { bot_delay_ms: delay.as_millis() as u64, ..Default::default() };
        let mut a = Direct::open::<QuietAdapter>(options).await;
        a.send(json!({"type": "JoinGame", "username": "alice"})).await;
        a.send(json!({"type": "AddBot"})).await;
        a.send(json!({"type": "AddBot"})).await;
        a.send(json!({"type": "StartGame"})).await;
        // 4 s: seat 2 plays; window 1 asks alice, who could Negate: she is waited on.
        a.wait(delay + Duration::from_millis(500)).await;
        assert!(a.any(did(2, "Play")));
        let d = a.sync().await;
        assert_eq!(d["legal"], json!([{"type": "Negate"}, {"type": "Pass"}]));
        // 8 s: seat 1 negates; window 2 asks alice again, and she can only pass.
        a.wait(Duration::from_millis(3_600)).await;
        assert!(a.any(did(1, "Negate")) && !a.any(did(0, "Pass")), "alice was passed for in window 1");
        let opened = Instant::now();
        let d = a.sync().await;
        assert_eq!(d["legal"], json!([{"type": "Pass"}]));
        let alice = d["waitingOn"].as_array().unwrap().iter().find(|w| w["username"] == "alice").unwrap().clone();
        let left = alice["msLeft"].as_u64().unwrap();
        assert!(left > ANSWER.as_millis() as u64 - 300, "the clock shown for alice is the full one: {left} ms");
        // Passed for before the bot's 4 s are up, not at once.
        let mut at = None;
        while at.is_none() && opened.elapsed() < Duration::from_millis(3_900) {
            a.wait(Duration::from_millis(50)).await;
            if a.any(did(0, "Pass")) {
                at = Some(opened.elapsed());
            }
        }
        let at = at.expect("alice was passed for within 4 s");
        assert!(at >= Duration::from_millis(900), "alice was passed for at once ({at:?})");
        moments.push(at.as_millis() / 100);
    }
    moments.sort_unstable();
    moments.dedup();
    assert!(moments.len() > 2, "the moment is drawn at random: {moments:?}");
}
