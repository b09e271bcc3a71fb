//! How long an 8-seat Three Kingdoms game with easy bots and one person lasts, by the room's
//! own clocks (a benchmark, not a test): the room runs as the server runs it (its bot delays,
//! response clocks and quiet passes), driven through its `RoomHandle` under tokio's paused
//! clock, so a game of an hour takes seconds of CPU and the time it reports is the time a
//! person at the table would have spent.
//!
//! The person is a client that answers promptly: 2.5 s for a prompt, 1.5 s for a move of
//! their turn or a choice, 5 s for the general; they never Negate; in their turn they use up
//! to five cards (an attacking one where they can) and end the Play phase. Three ways to play:
//!
//! - `before`: as before issue 47 — asked on their own tricks (`SetPrompts` with `ownCards`,
//!   the old behaviour) and a plain Pass in every Negate window they are asked in;
//! - `after`: the room's defaults now (not asked on their own tricks) and "No Negate for this
//!   card" (`Act` with `forCard`) the first time they are asked about a card;
//! - `fast`: `after` in a room made with `gameOptions.pace: "fast"`.
//!
//! Each game is the same seed in each mode, so the deal and the seats are the same (the bots'
//! choices are not: their generator is the room's own).
//!
//! `cargo run --release -p server --example tk_pace -- [GAMES] [SEATS] [FIRST_SEED]`
//! (default 6 games, 8 seats, seed 1).

use serde_json::{Value, json};
use server::games::three_kingdoms::ThreeKingdomsAdapter;
use server::room::{Outbound, Room, RoomOptions};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

const ME: u64 = 1;
const PROMPT: Duration = Duration::from_millis(2_500);
const MOVE: Duration = Duration::from_millis(1_500);
const GENERAL: Duration = Duration::from_secs(5);
/// The harness's own clock tick (see the loop in `play`).
const TICK: Duration = Duration::from_millis(10);
/// A game still running after this long (virtual) is given up.
const LIMIT: Duration = Duration::from_secs(4 * 3600);
const ATTACKING: [&str; 8] =
    ["Attack", "Duel", "Barbarians", "RainArrows", "Dismantle", "StealingSheep", "SomethingOutOfNothing", "Peach"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Before,
    After,
    Fast,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Before => "before",
            Mode::After => "after",
            Mode::Fast => "fast",
        }
    }
}

#[derive(Default, Debug)]
struct Played {
    /// Virtual time from the start to the end (or the limit).
    length: Duration,
    turns: u64,
    /// Prompts the person answered (a choice to make in a window), and of those Negate ones.
    prompts: u32,
    negate_prompts: u32,
    /// Windows the room passed for them, by reason.
    quiet: [u32; 3],
    /// Their moves the room refused (a table that moved on as they sent it).
    refused: u32,
    over: bool,
}

/// What the person does with a table, and after how long; `None`: nothing (not theirs, or the
/// room passes for them).
fn choose(d: &Value, mode: Mode, turn_uses: u32) -> Option<(Duration, Value, bool, bool)> {
    let legal = d["legal"].as_array()?;
    if legal.is_empty() || d.get("autoPass").is_some() {
        return None;
    }
    let v = &d["view"];
    let me = v["viewer"].as_u64()?;
    let pass = json!({"type": "Pass"});
    if let Some(g) = legal.iter().find(|a| a["type"] == "ChooseGeneral") {
        return Some((GENERAL, g.clone(), false, false));
    }
    if v["waiting"]["Ask"]["seat"] == me {
        if legal.iter().all(|a| a["type"] == "Pass") {
            return None;
        }
        if v["request"] == "Negate" {
            return Some((PROMPT, pass, mode != Mode::Before, true));
        }
        let others_dying = v["request"] == "Peach" && v["about"][1] != me;
        let answer = legal.iter().find(|a| a["type"] != "Pass").filter(|_| !others_dying);
        return Some((PROMPT, answer.cloned().unwrap_or(pass), false, true));
    }
    if v["waiting"]["Play"]["seat"] == me {
        if turn_uses < 5 {
            for kind in ATTACKING {
                if let Some(a) = legal.iter().find(|a| a["type"] == "Use" && a["kind"] == kind) {
                    return Some((MOVE, a.clone(), false, false));
                }
            }
        }
        let end = legal.iter().find(|a| a["type"] == "EndPlay").cloned();
        return Some((MOVE, end.unwrap_or_else(|| legal[0].clone()), false, false));
    }
    Some((MOVE, legal[0].clone(), false, false))
}

async fn play(seed: u64, seats: usize, mode: Mode) -> Played {
    let store = store::Store::memory().expect("a memory store");
    let game_options = if mode == Mode::Fast { json!({"pace": "fast"}) } else { Value::Null };
    // The room as the lobby's form makes it: the default bot delay and clocks.
    let options = RoomOptions { seed: Some(seed), game_options, ..Default::default() };
    let (room, handle, inbox) = Room::<ThreeKingdomsAdapter>::create(format!("bench{seed}"), options, store);
    tokio::spawn(room.run(inbox));
    let (tx, mut rx) = mpsc::channel::<Outbound>(1 << 16);
    handle.connect(ME, tx, None).await.expect("connects");
    let send = |v: Value| {
        let handle = handle.clone();
        async move { handle.text(ME, Outbound::from(v.to_string())).await.expect("the room is there") }
    };
    send(json!({"type": "JoinGame", "username": "me"})).await;
    for _ in 1..seats {
        send(json!({"type": "AddBot", "bot": "easy"})).await;
    }
    if mode == Mode::Before {
        send(json!({"type": "SetPrompts", "ownCards": true})).await;
    }
    send(json!({"type": "StartGame"})).await;
    let started = Instant::now();
    let mut out = Played::default();
    // The decision the person is thinking about: the table's serial, when they answer, what.
    let mut thinking: Option<(u64, Instant, Value, bool)> = None;
    let mut last_serial = None;
    let mut turn_uses = 0;
    let mut my_turn = None;
    let mut quiet_seen = None;
    let mut last_table = Value::Null;
    loop {
        let act_at = thinking.as_ref().map(|t| t.1);
        tokio::select! {
            p = rx.recv() => {
                let Some(p) = p else { break };
                let p: Value = serde_json::from_str(p.as_str()).expect("JSON");
                match p["type"].as_str() {
                    Some("GameEnded") => { out.over = true; break; }
                    Some("ActionFailed") => { out.refused += 1; continue; }
                    Some("GameDataSync") => {}
                    _ => continue,
                }
                let d = &p["gameData"];
                if std::env::var_os("TK_PACE_DEBUG").is_some() {
                    last_table = json!({"waiting": d["view"]["waiting"], "request": d["view"]["request"], "about": d["view"]["about"], "legal": d["legal"], "autoPass": d["autoPass"], "waitingOn": d["waitingOn"], "serial": d["serial"], "thinking": thinking.as_ref().map(|t| t.2.clone())});
                }
                if d["gameStarted"] != true {
                    continue;
                }
                out.turns = d["turn"].as_u64().unwrap_or(out.turns);
                let serial = d["serial"].as_u64();
                if d["view"]["waiting"]["Play"]["seat"] == d["view"]["viewer"] && my_turn != Some(out.turns) {
                    my_turn = Some(out.turns);
                    turn_uses = 0;
                }
                if let Some(why) = d["autoPass"].as_str() && quiet_seen != serial {
                    quiet_seen = serial;
                    out.quiet[["onlyPass", "forCard", "ownCard"].iter().position(|w| *w == why).expect("a reason")] += 1;
                }
                if serial == last_serial {
                    continue;
                }
                last_serial = serial;
                thinking = choose(d, mode, turn_uses).map(|(wait, action, for_card, prompt)| {
                    if prompt {
                        out.prompts += 1;
                        out.negate_prompts += u32::from(d["view"]["request"] == "Negate");
                    }
                    (serial.unwrap_or(0), Instant::now() + wait, action, for_card)
                });
            }
            () = sleep_until(act_at.unwrap_or_else(Instant::now)), if act_at.is_some() => {
                let (serial, _, action, for_card) = thinking.take().expect("checked");
                if action["type"] == "Use" {
                    turn_uses += 1;
                }
                let mut packet = json!({"type": "Act", "action": action, "serial": serial});
                if for_card {
                    packet["forCard"] = json!(true);
                }
                send(packet).await;
            }
            // A bot thinks on the blocking pool, which the paused clock does not wait for: with
            // no timer near, the clock would jump to the next one (hours on) while it thinks. A
            // tick keeps each such jump under TICK.
            () = tokio::time::sleep(TICK) => {
                if started.elapsed() > LIMIT {
                    if std::env::var_os("TK_PACE_DEBUG").is_some() {
                        eprintln!("stuck: {last_table}");
                    }
                    break;
                }
            }
        }
    }
    out.length = started.elapsed();
    out
}

fn minutes(d: Duration) -> f64 {
    d.as_secs_f64() / 60.0
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let games = args.first().copied().unwrap_or(6);
    let seats = args.get(1).copied().unwrap_or(8) as usize;
    let first = args.get(2).copied().unwrap_or(1);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().expect("a runtime");
    println!("{seats} seats, one person and {} easy bots; seeds {first}..{}", seats - 1, first + games - 1);
    println!("mode    seed  minutes  turns  min/turn  prompts  negate-prompts  quiet(only/card/own)");
    let modes = [Mode::Before, Mode::After, Mode::Fast];
    let mut all: Vec<(Mode, Played)> = Vec::new();
    for seed in first..first + games {
        for mode in modes {
            let p = rt.block_on(play(seed, seats, mode));
            println!(
                "{:<7} {seed:>4}  {:>7.1}  {:>5}  {:>8.2}  {:>7}  {:>14}  {}/{}/{}{}{}",
                mode.name(),
                minutes(p.length),
                p.turns,
                minutes(p.length) / p.turns.max(1) as f64,
                p.prompts,
                p.negate_prompts,
                p.quiet[0],
                p.quiet[1],
                p.quiet[2],
                if p.refused > 0 { format!("  ({} refused)", p.refused) } else { String::new() },
                if p.over { "" } else { "  (not over: limit)" }
            );
            all.push((mode, p));
        }
    }
    println!(
        "\nmode    games  median min  mean min  turns (mean)  min/turn (all)  prompts (mean)  negate prompts (mean)"
    );
    for mode in modes {
        let mut ps: Vec<&Played> = all.iter().filter(|(m, _)| *m == mode).map(|(_, p)| p).collect();
        ps.sort_by_key(|p| p.length);
        let n = ps.len() as f64;
        let total: f64 = ps.iter().map(|p| minutes(p.length)).sum();
        let turns: u64 = ps.iter().map(|p| p.turns).sum();
        println!(
            "{:<7} {:>5}  {:>10.1}  {:>8.1}  {:>12.1}  {:>14.2}  {:>14.1}  {:>21.1}",
            mode.name(),
            ps.len(),
            minutes(ps[ps.len() / 2].length),
            total / n,
            turns as f64 / n,
            total / turns.max(1) as f64,
            ps.iter().map(|p| p.prompts as f64).sum::<f64>() / n,
            ps.iter().map(|p| p.negate_prompts as f64).sum::<f64>() / n,
        );
    }
}
