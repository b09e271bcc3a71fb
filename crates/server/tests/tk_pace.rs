//! Three Kingdoms' pace and prompts (issue 47), in a room driven through its `RoomHandle` under
//! tokio's paused time (as `clocks.rs`): a person is not asked whether to Negate their own
//! trick unless they opt in (`SetPrompts`), "no Negate for this card" (`Act` with `forCard`)
//! passes the rest of a card's windows, and `gameOptions.pace: "fast"` shortens the clocks and
//! the windows. Whatever the reason the room passes for a person, the table sees the same
//! thing as for a person with nothing to play: the window closes at the same random early
//! moment, with the full clock shown, in the same packets (the hidden-information check).

use serde_json::{Value, json};
use server::games::three_kingdoms::{FAST_RESPONSE, RESPONSE, ThreeKingdomsAdapter};
use server::room::{Outbound, Room, RoomHandle, RoomOptions};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

const STEP: Duration = Duration::from_millis(20);
const ALICE: u64 = 1;
const WATCHER: u64 = 2;

/// Alice (seat 0, the Lord, in her Play phase) holds Barbarians and `second`; each bot one
/// Dodge, so every seat is asked in every Negate window and none can answer the Barbarians.
fn position(second: &str) -> String {
    format!(
        "seat Lord ZhangFei | hand: S7 Barbarians, {second}\n\
         seat Rebel XuChu | hand: D2 Dodge\n\
         seat Loyalist LvMeng | hand: D3 Dodge\n\
         seat Spy ZhangLiao | hand: D4 Dodge\n\
         current 0\n"
    )
}

/// A packet and when (paused time) the harness read it.
struct Seen {
    at: Instant,
    p: Value,
}

struct Table {
    handle: RoomHandle,
    /// Filled by a task per connection, which stamps each packet as it arrives: the room may
    /// be busy (a bot's answer waits in it) when the test next looks.
    inbox: Arc<Mutex<Vec<(u64, Seen)>>>,
    seen: Vec<(u64, Seen)>,
}

impl Table {
    /// A room from `second`'s position with `game_options`, alice seated with three easy bots
    /// and a connection that only watches; started.
    async fn open(second: &str, game_options: Value) -> Table {
        let store = store::Store::memory().unwrap();
        let options = RoomOptions { seed: Some(3), setup: Some(position(second)), game_options, ..Default::default() };
        let (room, handle, inbox) = Room::<ThreeKingdomsAdapter>::create("pace".into(), options, store);
        tokio::spawn(room.run(inbox));
        let inbox = Arc::new(Mutex::new(Vec::new()));
        for conn in [ALICE, WATCHER] {
            let (tx, mut rx) = mpsc::channel::<Outbound>(1 << 16);
            handle.connect(conn, tx, None).await.unwrap();
            let inbox = inbox.clone();
            tokio::spawn(async move {
                while let Some(p) = rx.recv().await {
                    let p = serde_json::from_str(p.as_str()).unwrap();
                    inbox.lock().unwrap().push((conn, Seen { at: Instant::now(), p }));
                }
            });
        }
        let mut t = Table { handle, inbox, seen: Vec::new() };
        // A socket hears the room once it has said something (docs/protocol.md): the watcher
        // asks for the table, as the web client does.
        t.send(WATCHER, json!({"type": "GameDataRequest"})).await;
        t.send(ALICE, json!({"type": "JoinGame", "username": "alice"})).await;
        for _ in 0..3 {
            t.send(ALICE, json!({"type": "AddBot", "bot": "easy"})).await;
        }
        t.send(ALICE, json!({"type": "StartGame"})).await;
        assert!(t.any(ALICE, |p| p["type"] == "GameStarted"), "{:?}", t.last(ALICE, "ActionFailed"));
        t
    }

    async fn send(&mut self, conn: u64, v: Value) {
        self.handle.text(conn, Outbound::from(v.to_string())).await.unwrap();
        self.handle.flush().await.unwrap();
        self.read().await;
    }

    /// Takes what the collectors have (letting them run first: the room's packets are queued).
    async fn read(&mut self) {
        for _ in 0..4 {
            tokio::task::yield_now().await;
        }
        self.seen.append(&mut self.inbox.lock().unwrap());
    }

    async fn wait(&mut self, d: Duration) {
        let until = Instant::now() + d;
        while Instant::now() < until {
            tokio::time::sleep(STEP.min(until - Instant::now())).await;
            self.handle.flush().await.unwrap();
            self.read().await;
        }
    }

    fn any(&self, conn: u64, f: impl Fn(&Value) -> bool) -> bool {
        self.seen.iter().any(|(c, s)| *c == conn && f(&s.p))
    }

    fn last(&self, conn: u64, kind: &str) -> Option<Value> {
        self.seen.iter().rev().find(|(c, s)| *c == conn && s.p["type"] == kind).map(|(_, s)| s.p.clone())
    }

    /// Alice's table now.
    async fn sync(&mut self) -> Value {
        self.send(ALICE, json!({"type": "GameDataRequest"})).await;
        self.last(ALICE, "GameDataSync").expect("a sync")["gameData"].clone()
    }

    /// Alice uses her Barbarians.
    async fn barbarians(&mut self) {
        let d = self.sync().await;
        let act = d["legal"].as_array().unwrap().iter().find(|a| a["kind"] == "Barbarians").cloned();
        let act = act.unwrap_or_else(|| panic!("no Barbarians to use: {}", d["legal"]));
        self.send(ALICE, json!({"type": "Act", "action": act})).await;
    }

    /// Plays on until the Barbarians has resolved (alice's Play phase again, nobody else
    /// asked), at most `limit`.
    async fn until_resolved(&mut self, limit: Duration) {
        let start = Instant::now();
        loop {
            self.wait(Duration::from_millis(100)).await;
            let d = self.sync().await;
            if d["view"]["waiting"]["Play"]["seat"] == 0 {
                return;
            }
            assert!(start.elapsed() < limit, "the Barbarians did not resolve in {limit:?}: {}", d["view"]["waiting"]);
        }
    }

    /// Each Negate window alice was asked in, from the watcher's tables: when it opened,
    /// the clock shown for her then, and how long it stayed open; with the `autoPass` her own
    /// page was shown for it.
    fn alice_windows(&self) -> Vec<Window> {
        let asked = |d: &Value| d["view"]["waiting"]["Ask"]["seat"] == 0 && d["view"]["request"] == "Negate";
        let syncs: Vec<&Seen> =
            self.seen.iter().filter(|(c, s)| *c == WATCHER && s.p["type"] == "GameDataSync").map(|(_, s)| s).collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < syncs.len() {
            let d = &syncs[i].p["gameData"];
            if !asked(d) {
                i += 1;
                continue;
            }
            let opened = syncs[i].at;
            let shown = d["waitingOn"][0]["msLeft"].as_u64();
            assert_eq!(d["waitingOn"][0]["username"], "alice");
            let about = d["view"]["about"].clone();
            let mut j = i;
            while j + 1 < syncs.len()
                && asked(&syncs[j + 1].p["gameData"])
                && syncs[j + 1].p["gameData"]["view"]["about"] == about
            {
                j += 1;
            }
            let closed = syncs.get(j + 1).map(|s| s.at);
            // What alice's own page said at that moment.
            let auto = self
                .seen
                .iter()
                .filter(|(c, s)| {
                    *c == ALICE && s.p["type"] == "GameDataSync" && s.at >= opened && s.at <= closed.unwrap_or(opened)
                })
                .map(|(_, s)| s.p["gameData"]["autoPass"].clone())
                .find(|a| !a.is_null());
            out.push(Window { shown, open: closed.map(|c| c - opened), auto });
            i = j + 1;
        }
        out
    }

    /// The watcher's packets, with what differs from one run to the next only by the clock
    /// taken out (when members joined, how many ms are left): what the table learns.
    fn watched(&self) -> Vec<Value> {
        fn strip(v: &mut Value) {
            match v {
                Value::Object(m) => {
                    m.remove("joinTime");
                    m.remove("timestamp");
                    if let Some(ms) = m.get_mut("msLeft") {
                        *ms = Value::Bool(!ms.is_null());
                    }
                    m.values_mut().for_each(strip);
                }
                Value::Array(a) => a.iter_mut().for_each(strip),
                _ => {}
            }
        }
        let mut out: Vec<Value> = self.seen.iter().filter(|(c, _)| *c == WATCHER).map(|(_, s)| s.p.clone()).collect();
        out.iter_mut().for_each(strip);
        // Consecutive equal tables (a sync asked for by alice's page reaches only her) are one.
        out.dedup();
        out
    }
}

#[derive(Debug)]
struct Window {
    /// The clock shown for alice as the window opened.
    shown: Option<u64>,
    /// How long it stayed open.
    open: Option<Duration>,
    /// What her own page was told (`autoPass`).
    auto: Option<Value>,
}

/// Every window closed early, at a moment within `range` (ms), with the full `clock` shown.
fn check_quiet(windows: &[Window], clock: Duration, range: (u64, u64), why: &str) {
    for w in windows {
        let shown = w.shown.expect("a clock is shown for alice");
        assert!(shown + 200 >= clock.as_millis() as u64, "the clock shown for alice is the full one: {w:?}");
        let open = w.open.expect("the window closed").as_millis() as u64;
        assert!(
            (range.0.saturating_sub(STEP.as_millis() as u64)..=range.1 + 2 * STEP.as_millis() as u64).contains(&open),
            "alice was passed for at {open} ms, not within {range:?}: {w:?}"
        );
        assert_eq!(w.auto, Some(json!(why)), "{w:?}");
    }
}

/// By default alice is not asked whether to Negate her own Barbarians: the room passes for
/// her at a random moment 1-4 s in, with the full clock shown, and the watcher's packets are
/// the same as when she holds no Negate at all (only the moments differ).
#[tokio::test(start_paused = true)]
async fn no_prompt_on_your_own_trick_and_the_table_cannot_tell() {
    let mut holder = Table::open("SJ Negate", Value::Null).await;
    let d = holder.sync().await;
    assert_eq!(d["ownCards"], false, "the setting is on alice's table: {d}");
    holder.barbarians().await;
    holder.until_resolved(Duration::from_secs(60)).await;
    let windows = holder.alice_windows();
    assert_eq!(windows.len(), 3, "one Negate window per target asks alice: {windows:?}");
    check_quiet(&windows, RESPONSE, (1_000, 4_000), "ownCard");

    let mut empty = Table::open("H2 Dodge", Value::Null).await;
    empty.barbarians().await;
    empty.until_resolved(Duration::from_secs(60)).await;
    let windows = empty.alice_windows();
    assert_eq!(windows.len(), 3, "{windows:?}");
    check_quiet(&windows, RESPONSE, (1_000, 4_000), "onlyPass");

    // Nothing the watcher was sent tells the two apart: the same tables and events in the
    // same order (alice's hand count is the same; her cards are not shown).
    let (a, b) = (holder.watched(), empty.watched());
    assert!(a.iter().all(|p| p["gameData"].get("autoPass").is_none() && p["gameData"].get("ownCards").is_none()));
    assert_eq!(a.len(), b.len(), "the watcher got as many packets");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "the watcher's packets differ");
    }
}

/// Opted in (`SetPrompts`), alice is asked on her own trick and waited on; "no Negate for
/// this card" (a Pass with `forCard`) passes her later windows of it at the quiet moment.
#[tokio::test(start_paused = true)]
async fn opting_in_asks_and_no_negate_for_this_card_passes_the_rest() {
    let mut t = Table::open("SJ Negate", Value::Null).await;
    // `forCard` outside a card's window is refused and changes nothing.
    let d = t.sync().await;
    let end = d["legal"].as_array().unwrap().iter().find(|a| a["type"] == "EndPlay").cloned().unwrap();
    t.send(ALICE, json!({"type": "Act", "action": end, "forCard": true})).await;
    assert_eq!(t.last(ALICE, "ActionFailed").expect("refused")["code"], "not_offered");
    t.send(ALICE, json!({"type": "SetPrompts", "ownCards": true})).await;
    assert_eq!(t.sync().await["ownCards"], true);
    t.barbarians().await;
    // Asked: after 6 s the first window still waits on her, and her page has no autoPass.
    t.wait(Duration::from_secs(6)).await;
    let d = t.sync().await;
    assert_eq!(d["view"]["waiting"]["Ask"]["seat"], 0, "alice is waited on: {}", d["view"]["waiting"]);
    assert!(d.get("autoPass").is_none(), "{d}");
    assert!(d["legal"].as_array().unwrap().iter().any(|a| a["kind"] == "Negate"));
    // A Pass with `forCard` must be the pass.
    let negate = d["legal"].as_array().unwrap().iter().find(|a| a["kind"] == "Negate").cloned().unwrap();
    t.send(ALICE, json!({"type": "Act", "action": negate, "forCard": true})).await;
    assert_eq!(t.last(ALICE, "ActionFailed").expect("refused")["code"], "not_offered");
    t.send(ALICE, json!({"type": "Act", "action": {"type": "Pass"}, "forCard": true})).await;
    t.until_resolved(Duration::from_secs(60)).await;
    let windows = t.alice_windows();
    assert_eq!(windows.len(), 3, "{windows:?}");
    let first = windows[0].open.unwrap();
    assert!(first >= Duration::from_secs(6), "the first window waited for her answer: {first:?}");
    check_quiet(&windows[1..], RESPONSE, (1_000, 4_000), "forCard");
}

/// At `"pace": "fast"` the response clock is 8 s, the room passes for alice 0.5-2 s in, and
/// bots answer a window 300 ms after the move before (700 ms at the normal pace).
#[tokio::test(start_paused = true)]
async fn a_fast_room_has_shorter_clocks_and_windows() {
    let mut t = Table::open("SJ Negate", json!({"pace": "fast"})).await;
    t.barbarians().await;
    t.until_resolved(Duration::from_secs(30)).await;
    let windows = t.alice_windows();
    assert_eq!(windows.len(), 3, "{windows:?}");
    check_quiet(&windows, FAST_RESPONSE, (500, 2_000), "ownCard");
    // The bots' Negate windows: each closes 300 ms after it opened.
    let asked = |d: &Value, seat: u64| d["view"]["waiting"]["Ask"]["seat"] == seat && d["view"]["request"] == "Negate";
    let syncs: Vec<&Seen> =
        t.seen.iter().filter(|(c, s)| *c == WATCHER && s.p["type"] == "GameDataSync").map(|(_, s)| s).collect();
    let mut bot_windows = 0;
    for pair in syncs.windows(2) {
        let d = &pair[0].p["gameData"];
        if (1..4).any(|s| asked(d, s)) && pair[1].p["gameData"] != *d {
            let ms = (pair[1].at - pair[0].at).as_millis() as u64;
            assert!((280..=340).contains(&ms), "a bot answered a window after {ms} ms: {d}\n{}", pair[1].p["gameData"]);
            bot_windows += 1;
        }
    }
    assert!(bot_windows >= 6, "{bot_windows} bot windows seen");
}
