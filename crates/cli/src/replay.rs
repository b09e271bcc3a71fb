//! `cardtable replay MATCH-ID` and `cardtable matches`: finished matches from the server's
//! database. A match is stored as its seed, config and moves (and, in its result, the rules
//! version that played it and, for a room started from a position, that position); `replay`
//! rebuilds it as the server's own replay does (from the position when there is one) and
//! narrates every event in its game's own words (the registry's `describe_event`), seen by a
//! spectator after the end (so every card is shown). A match recorded by other rules than this
//! build's says so. `--json` prints the record as plain JSON.

use anyhow::{Context, bail};
use clap::Args;
use engine::{Move, Viewer};
use registry::{Entry, GameKind, GameVisitor};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write;
#[cfg(test)]
use std::path::PathBuf;
use std::process::ExitCode;
use store::MatchRecord;

#[derive(Args)]
pub struct ReplayArgs {
    /// The match number (the server logs it when a match ends; `cardtable matches` lists them).
    #[arg(required_unless_present = "list")]
    match_id: Option<i64>,
    /// The server's database: its SQLite file, or its PostgreSQL URL (`postgres://...`).
    #[arg(long, default_value = "cardtable.db")]
    db: store::Location,
    /// Print the match as one JSON object (config, players, moves and result as JSON values,
    /// plus the narration) instead of the narrated log.
    #[arg(long)]
    json: bool,
    /// List the finished matches instead (the same as `cardtable matches`).
    #[arg(long)]
    list: bool,
}

#[derive(Args)]
pub struct MatchesArgs {
    /// The server's database: its SQLite file, or its PostgreSQL URL (`postgres://...`).
    #[arg(long, default_value = "cardtable.db")]
    db: store::Location,
    /// How many matches to list, the newest first.
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn check_db(db: &store::Location) -> anyhow::Result<()> {
    if let store::Location::Sqlite(path) = db
        && !path.exists()
    {
        bail!("no database at {} (use --db)", path.display());
    }
    Ok(())
}

pub fn run(args: ReplayArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if args.list {
        return matches(MatchesArgs { db: args.db, limit: 50, json: args.json }, out);
    }
    let id = args.match_id.expect("clap requires an id without --list");
    check_db(&args.db)?;
    let m = match &args.db {
        store::Location::Sqlite(path) => store::read_match(path, id).map_err(|e| anyhow::anyhow!("{e}"))?,
        db => with_store(db, |s| async move { s.get_match(id).await })?,
    };
    let Some(m) = m else {
        bail!("no match {id} in {} (`cardtable matches` lists them)", args.db);
    };
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&to_json(&m))?)?;
    } else {
        write!(out, "{}", narrate(&m)?)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn matches(args: MatchesArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    check_db(&args.db)?;
    let list = read_matches(&args.db, args.limit)?;
    if args.json {
        let all: Vec<Value> = list.iter().map(summary_json).collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&all)?)?;
    } else {
        write!(out, "{}", table(&list))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The newest `limit` matches, through the store's own reader.
fn read_matches(db: &store::Location, limit: u32) -> anyhow::Result<Vec<MatchRecord>> {
    with_store(db, |s| async move { s.list_matches(limit).await })
}

/// Opens the store at `db` (not exclusively: a SQLite file a server holds is refused, and
/// said so) and runs `read` on it.
pub(crate) fn with_store<T, F: std::future::Future<Output = Result<T, store::StoreError>>>(
    db: &store::Location,
    read: impl FnOnce(store::Store) -> F,
) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let store = store::Store::open_location(db, false).await.map_err(|e| match e {
            store::StoreError::InUse(_) => anyhow::anyhow!(
                "{e}: open a finished match on it in the browser (/replay/ID?room=ROOM, linked from the \
                 match's end screen) or as JSON (/api/matches/ID?room=ROOM), or stop the server to read \
                 them here"
            ),
            e => anyhow::anyhow!("{e}"),
        })?;
        read(store).await.map_err(anyhow::Error::msg)
    })
}

/// A JSON field stored as text, as a value (or the text itself if it is not JSON).
fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

fn players(m: &MatchRecord) -> Vec<String> {
    serde_json::from_str(&m.players).unwrap_or_default()
}

fn winners(m: &MatchRecord) -> Option<Vec<String>> {
    let result = parsed(&m.result);
    let w = result.get("winners")?.as_array()?;
    Some(w.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
}

/// The result in words: "ana won", "ana and ben won", "abandoned" (everyone left before the
/// end: the room records `"abandoned": true`), "no winner".
fn result_words(m: &MatchRecord) -> String {
    let abandoned = parsed(&m.result).get("abandoned").and_then(Value::as_bool).unwrap_or(false);
    match winners(m) {
        None => format!("(unreadable: {})", m.result),
        Some(w) if w.is_empty() && abandoned => "abandoned".to_string(),
        Some(w) if w.is_empty() => "no winner".to_string(),
        Some(w) if w.len() == 1 => format!("{} won", w[0]),
        Some(mut w) => {
            let last = w.pop().expect("two or more");
            format!("{} and {last} won", w.join(", "))
        }
    }
}

fn moves(m: &MatchRecord) -> usize {
    parsed(&m.log).as_array().map_or(0, Vec::len)
}

/// The position the match started from (a set-up room's), if any.
fn setup(m: &MatchRecord) -> Option<String> {
    server::setup_rooms::of_result(&m.result)
}

/// A sentence when the match was recorded by other rules than this build's.
fn rules_note(m: &MatchRecord) -> Option<String> {
    let kind: GameKind = m.game.parse().ok()?;
    server::replay::rules_note(kind, server::replay::rules_version_of(&m.result))
}

/// The whole record, with the JSON it stores as text given as JSON values.
fn to_json(m: &MatchRecord) -> Value {
    let narration = narration(m).map_or(Value::Null, |lines| json!(lines));
    json!({
        "setUp": setup(m).is_some(),
        "rulesVersion": server::replay::rules_version_of(&m.result),
        "rulesNote": rules_note(m),
        "id": m.id,
        "room": m.room_id,
        "game": m.game,
        "seed": m.seed,
        "config": parsed(&m.config),
        "players": parsed(&m.players),
        "moves": parsed(&m.log),
        "result": parsed(&m.result),
        "startedAt": m.started_at,
        "endedAt": m.ended_at,
        "narration": narration,
    })
}

fn summary_json(m: &MatchRecord) -> Value {
    json!({
        "setUp": setup(m).is_some(),
        "id": m.id,
        "room": m.room_id,
        "game": m.game,
        "players": parsed(&m.players),
        "result": parsed(&m.result),
        "moves": moves(m),
        "startedAt": m.started_at,
        "endedAt": m.ended_at,
    })
}

/// `cardtable matches` as a table, newest first.
pub fn table(list: &[MatchRecord]) -> String {
    if list.is_empty() {
        return "No finished matches yet.\n".to_string();
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:>5}  {:<14} {:<24} {:<20} {:>5}  {:<10}  ended (UTC)",
        "id", "game", "players", "result", "moves", "lasted"
    );
    for m in list {
        let id = if setup(m).is_some() { format!("{}*", m.id) } else { m.id.to_string() };
        let _ = writeln!(
            s,
            "{:>5}  {:<14} {:<24} {:<20} {:>5}  {:<10}  {}",
            id,
            m.game,
            clip(&players(m).join(", "), 24),
            clip(&result_words(m), 20),
            moves(m),
            duration(m.ended_at.saturating_sub(m.started_at)),
            utc(m.ended_at)
        );
    }
    if list.iter().any(|m| setup(m).is_some()) {
        let _ = writeln!(s, "* started from a position (a room made with a setup), not from a deal");
    }
    s
}

fn clip(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(width - 1).collect();
        c.push('…');
        c
    }
}

/// Milliseconds as "1 h 02 min", "3 min 12 s", "45 s".
fn duration(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// Milliseconds since 1970 as `YYYY-MM-DD HH:MM` in UTC: the server's, as ban notices print it.
pub(crate) use server::auth::utc;

/// The narrated match: a header, every event in the game's words, the result.
pub fn narrate(m: &MatchRecord) -> anyhow::Result<String> {
    let names = players(m);
    let mut s = String::new();
    let title = m.game.parse::<GameKind>().map_or_else(|_| m.game.clone(), |k| k.title().to_string());
    // A set-up match starts from its position, whatever the seed (which the position does
    // not use).
    match setup(m) {
        Some(_) => {
            let _ = writeln!(s, "Match {} — {title} in room {}, from a position (a set-up room)", m.id, m.room_id);
        }
        None => {
            let _ = writeln!(s, "Match {} — {title} in room {}, seed {}", m.id, m.room_id, m.seed);
        }
    }
    let _ = writeln!(s, "Players: {}", names.join(", "));
    let _ = writeln!(
        s,
        "Played {} UTC, {} moves in {}",
        utc(m.started_at),
        moves(m),
        duration(m.ended_at.saturating_sub(m.started_at))
    );
    let note = rules_note(m);
    if let Some(note) = &note {
        let _ = writeln!(s, "Note: {note}: the narration may not be what was played.");
    }
    match narration(m) {
        Ok(lines) => {
            // An event may take several lines (a Three Kingdoms attack and its target's
            // answer); each is indented.
            for line in lines.iter().flat_map(|l| l.lines()) {
                let _ = writeln!(s, "  {line}");
            }
        }
        Err(e) => match note {
            Some(note) => {
                let _ = writeln!(
                    s,
                    "  (the moves cannot be narrated: {note}, and they do not replay on it ({e:#}); \
                     `--json` prints them, or replay it with a build of those rules)"
                );
            }
            None => {
                let _ = writeln!(s, "  (the moves cannot be narrated: {e:#}; `--json` prints them)");
            }
        },
    }
    let _ = writeln!(s, "Result: {}.", result_words(m));
    Ok(s)
}

/// Every line of the match's narration, from its first deal to its end.
fn narration(m: &MatchRecord) -> anyhow::Result<Vec<String>> {
    let kind: GameKind = m.game.parse()?;
    kind.visit(Narrate { m, names: &players(m) })
}

/// Rebuilds a match of game `G` from its record and narrates it for a spectator.
struct Narrate<'a> {
    m: &'a MatchRecord,
    names: &'a [String],
}

impl GameVisitor for Narrate<'_> {
    type Out = anyhow::Result<Vec<String>>;
    fn visit<G: Entry>(self) -> Self::Out {
        let config: G::Config = serde_json::from_str(&self.m.config).context("the stored config")?;
        let moves: Vec<Move<G::Action>> = serde_json::from_str(&self.m.log).context("the stored moves")?;
        // From the position a set-up room started it from, as the server's replay does.
        let mut game =
            server::setup_rooms::new_game::<G>(&self.m.game, &config, self.m.seed, setup(self.m).as_deref(), None)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        let say = |events: &[G::Event], lines: &mut Vec<String>| {
            lines.extend(events.iter().filter_map(|e| G::describe_event(e, Viewer::Spectator, self.names)));
        };
        let mut lines = Vec::new();
        say(&game.start_events(), &mut lines);
        let mut events = Vec::new();
        for (index, m) in moves.into_iter().enumerate() {
            events.clear();
            match m {
                Move::Act { seat, action } => game
                    .apply_into(seat, action, &mut events)
                    .map_err(|e| anyhow::anyhow!("move {index} was refused: {e}"))?,
                Move::Leave { seat } => {
                    game.leave(seat, &mut events);
                    // Games where leaving changes nothing say nothing of it: the log does.
                    if events.is_empty() {
                        let name = self.names.get(seat.index()).map_or("A player", String::as_str);
                        lines.push(format!("{name} left the match."));
                    }
                }
            }
            say(&events, &mut lines);
        }
        Ok(lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Game, MatchRng, Replay, Seat, play_out};

    /// A database of its own in the system's temporary directory, removed when dropped.
    struct TempDb(PathBuf);

    impl TempDb {
        fn new(name: &str) -> TempDb {
            let dir = std::env::temp_dir().join(format!("cardtable-replay-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("temp dir");
            TempDb(dir)
        }
        fn path(&self) -> PathBuf {
            self.0.join("test.db")
        }
    }

    impl Drop for TempDb {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Plays a seeded match of `G` between heuristic bots and records it as the server does.
    struct Record {
        seed: u64,
        players: u8,
    }

    impl GameVisitor for Record {
        type Out = MatchRecord;
        fn visit<G: Entry>(self) -> MatchRecord {
            let config = G::config(self.players).expect("config");
            let game = G::new(&config, self.seed).expect("set up");
            // Seats the house plays (Wolf Pack's Ace) keep the house's bot; only that one exists.
            let seats = game.num_seats();
            let names: Vec<String> = (0..seats)
                .map(|i| match game.house_bot(Seat(i as u8)) {
                    Some(_) => "the Ace".to_string(),
                    None => ["ana", "ben", "cat", "dan"][i].to_string(),
                })
                .collect();
            let mut bots: Vec<_> = (0..seats)
                .map(|i| game.house_bot(Seat(i as u8)).unwrap_or_else(|| registry::bot::<G>("heuristic").unwrap()))
                .collect();
            let mut replay = Replay::new(config.clone(), self.seed);
            let result =
                play_out(game, &mut bots, &mut MatchRng::new(self.seed ^ 0xB07), Some(&mut replay)).expect("ends");
            let winners: Vec<&String> = result.outcome.winners.iter().map(|s| &names[s.index()]).collect();
            let moves: Vec<Move<G::Action>> = replay.moves;
            MatchRecord {
                id: 0,
                room_id: "golden".into(),
                game: G::NAME.into(),
                seed: self.seed,
                config: serde_json::to_string(&config).unwrap(),
                players: serde_json::to_string(&names).unwrap(),
                log: serde_json::to_string(&moves).unwrap(),
                // As a room records it (room/play.rs `end_match`).
                result: json!({ "winners": winners, "rulesVersion": G::RULES_VERSION }).to_string(),
                // 2026-11-25 09:00:00 UTC, and 3 min 12 s later.
                started_at: 1_795_597_200_000,
                ended_at: 1_795_597_392_000,
                people: Vec::new(),
            }
        }
    }

    /// Stores one match of each game (through the store, as the server does) and returns the db.
    fn stored(name: &str) -> (TempDb, Vec<(GameKind, i64)>) {
        let db = TempDb::new(name);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let ids = runtime.block_on(async {
            let store = store::Store::open(&db.path()).unwrap();
            let mut ids = Vec::new();
            for &kind in GameKind::ALL {
                let record = kind.visit(Record { seed: 7, players: kind.seats().start().max(&2).to_owned() });
                ids.push((kind, store.finish_match(record).await.unwrap()));
            }
            ids
        });
        (db, ids)
    }

    #[test]
    fn replay_narrates_a_match_of_every_game() {
        let (db, ids) = stored("narrate");
        for (kind, id) in ids {
            let m = store::read_match(&db.path(), id).unwrap().expect("stored");
            let text = narrate(&m).unwrap();
            assert!(!text.contains("cannot be narrated"), "{text}");
            insta::assert_snapshot!(format!("replay_{}", kind.name()), text);
        }
    }

    /// Buckshot's example position (docs/setups/buckshot.txt) in the notation's clauses.
    const BUCKSHOT_SETUP: &str = "seats 3\nlives 5 2 5\nitems 0=skip,quickshot 2=steal\nchamber LBL\nturn 1\n";

    /// A match played by heuristic bots from `BUCKSHOT_SETUP`, recorded as a set-up room
    /// records it (the position in the result), and the narration of the same moves played
    /// from the position by the game crate itself (what `replay` must print).
    fn set_up_buckshot(seed: u64) -> (MatchRecord, Vec<String>) {
        let names: Vec<String> = ["ana", "ben", "cat"].map(String::from).to_vec();
        let from_position = || buckshot::Buckshot::from_setup(&BUCKSHOT_SETUP.trim().replace('\n', ";")).unwrap();
        let game = from_position();
        // The room's config for three seats (the position says the rest).
        let config = <buckshot::Buckshot as Entry>::config(3).unwrap();
        let mut bots: Vec<_> = (0..3).map(|_| registry::bot::<buckshot::Buckshot>("heuristic").unwrap()).collect();
        let mut replay = Replay::new(config.clone(), seed);
        let result = play_out(game, &mut bots, &mut MatchRng::new(seed), Some(&mut replay)).expect("ends");
        let winners: Vec<&String> = result.outcome.winners.iter().map(|s| &names[s.index()]).collect();
        // The narration straight from the position: the start, then every move.
        let mut game = from_position();
        let mut lines: Vec<String> = Vec::new();
        let say = |events: &[buckshot::Event], lines: &mut Vec<String>| {
            lines.extend(
                events
                    .iter()
                    .filter_map(|e| <buckshot::Buckshot as Entry>::describe_event(e, Viewer::Spectator, &names)),
            );
        };
        say(&game.start_events(), &mut lines);
        for mv in &replay.moves {
            let Move::Act { seat, action } = mv else { unreachable!("bots do not leave") };
            let events = game.apply(*seat, *action).unwrap();
            say(&events, &mut lines);
        }
        let record = MatchRecord {
            id: 0,
            room_id: "setup".into(),
            game: "buckshot".into(),
            seed,
            config: serde_json::to_string(&config).unwrap(),
            players: serde_json::to_string(&names).unwrap(),
            log: serde_json::to_string(&replay.moves).unwrap(),
            result: json!({ "winners": winners, "rulesVersion": 1, "setup": BUCKSHOT_SETUP }).to_string(),
            started_at: 1_795_597_200_000,
            ended_at: 1_795_597_392_000,
            people: Vec::new(),
        };
        (record, lines)
    }

    #[test]
    fn a_match_from_a_position_is_narrated_from_the_position() {
        let db = TempDb::new("setup");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (record, expected) = set_up_buckshot(5);
        let id = runtime.block_on(async {
            let store = store::Store::open(&db.path()).unwrap();
            let id = store.finish_match(record).await.unwrap();
            // And a match dealt from a seed, which `matches` does not mark.
            store.finish_match(GameKind::Buckshot.visit(Record { seed: 7, players: 2 })).await.unwrap();
            id
        });
        let m = store::read_match(&db.path(), id).unwrap().expect("stored");
        assert_eq!(narration(&m).unwrap(), expected, "narrated from the position, move for move");
        let text = narrate(&m).unwrap();
        assert!(text.contains("from a position (a set-up room)"), "{text}");
        assert!(!text.contains("seed 5"), "the seed is not what the match started from: {text}");
        assert!(!text.contains("Note:"), "recorded by this build's rules: {text}");

        let mut out = Vec::new();
        run(
            ReplayArgs { match_id: Some(id), db: store::Location::Sqlite(db.path()), json: true, list: false },
            &mut out,
        )
        .unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["setUp"], true, "{v}");
        assert_eq!(v["narration"], json!(expected));

        // `matches` marks it, and only it.
        let mut out = Vec::new();
        matches(MatchesArgs { db: store::Location::Sqlite(db.path()), limit: 5, json: false }, &mut out).unwrap();
        let table = String::from_utf8(out).unwrap();
        assert!(table.contains(&format!("{id}*")), "{table}");
        assert_eq!(table.matches('*').count(), 2, "one row and the footnote: {table}");
        assert!(table.contains("started from a position"), "{table}");
        let mut out = Vec::new();
        matches(MatchesArgs { db: store::Location::Sqlite(db.path()), limit: 5, json: true }, &mut out).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        let set_up: Vec<bool> = v.as_array().unwrap().iter().map(|m| m["setUp"] == true).collect();
        assert_eq!(set_up, [false, true], "newest first: {v}");
    }

    #[test]
    fn a_match_of_other_rules_says_which_rules_recorded_it() {
        let m = GameKind::ThreeKingdoms.visit(Record { seed: 7, players: 4 });
        let text = narrate(&m).unwrap();
        assert!(!text.contains("Note:") && !text.contains("cannot be narrated"), "this build's own: {text}");

        // Moves that the rules of this build refuse (as a stored match of rules since
        // changed would have them): the third move played again where it is not legal.
        let mut moves: Vec<Value> = serde_json::from_str(&m.log).unwrap();
        let third = moves[2].clone();
        moves.insert(3, third);
        let mut changed = m.clone();
        changed.log = serde_json::to_string(&moves).unwrap();
        let mut result: Value = serde_json::from_str(&m.result).unwrap();
        // Recorded by a build with other rules (a newer one: this build is version 1) ...
        result["rulesVersion"] = json!(7);
        changed.result = result.to_string();
        let text = narrate(&changed).unwrap();
        let build = <three_kingdoms::ThreeKingdoms as Game>::RULES_VERSION;
        let said = format!("this match was recorded by Three Kingdoms rules version 7; this build is {build}");
        assert!(text.contains(&format!("Note: {said}")), "{text}");
        assert!(
            text.contains(&format!("cannot be narrated: {said}, and they do not replay on it (move 3 was refused")),
            "{text}"
        );
        // ... or before versions were stored.
        result.as_object_mut().unwrap().remove("rulesVersion");
        changed.result = result.to_string();
        let text = narrate(&changed).unwrap();
        assert!(
            text.contains(
                "recorded by Three Kingdoms rules older than version 1 (before versions were stored); this build is 1"
            ),
            "{text}"
        );
        let v = to_json(&changed);
        assert_eq!(v["rulesVersion"], Value::Null, "{v}");
        assert!(v["rulesNote"].as_str().is_some_and(|n| n.contains("older than version 1")), "{v}");
        // The same moves under the same version: an error in the record, said as before.
        result["rulesVersion"] = json!(build);
        changed.result = result.to_string();
        let text = narrate(&changed).unwrap();
        assert!(text.contains("(the moves cannot be narrated: move 3 was refused"), "{text}");
        assert!(!text.contains("Note:"), "{text}");
    }

    #[test]
    fn a_seat_leaving_is_narrated_even_where_the_rules_say_nothing() {
        let mut m = GameKind::Ivanhoe.visit(Record { seed: 7, players: 3 });
        let mut moves: Vec<Value> = serde_json::from_str(&m.log).unwrap();
        moves.truncate(4);
        moves.push(serde_json::to_value(Move::<ivanhoe::Action>::Leave { seat: Seat(2) }).unwrap());
        m.log = serde_json::to_string(&moves).unwrap();
        let lines = narration(&m).unwrap();
        assert_eq!(lines.last().map(String::as_str), Some("cat left the match."), "{lines:?}");

        // Sorcery's rules answer a leaving seat themselves (a concession): no extra line.
        let mut m = GameKind::Sorcery.visit(Record { seed: 7, players: 2 });
        let mut moves: Vec<Value> = serde_json::from_str(&m.log).unwrap();
        moves.truncate(3);
        moves.push(serde_json::to_value(Move::<sorcery::Action>::Leave { seat: Seat(0) }).unwrap());
        m.log = serde_json::to_string(&moves).unwrap();
        let lines = narration(&m).unwrap();
        assert_eq!(lines[lines.len() - 2..], ["ana concedes.", "ben wins!"], "{lines:?}");

        // A move the rules refuse is reported, not narrated past.
        moves.insert(1, moves[0].clone());
        m.log = serde_json::to_string(&moves).unwrap();
        let e = narration(&m).unwrap_err().to_string();
        assert!(e.contains("move 1 was refused"), "{e}");
    }

    #[test]
    fn json_is_plain_json_and_matches_lists_them() {
        let (db, ids) = stored("json");
        let mut out = Vec::new();
        let args =
            ReplayArgs { match_id: Some(ids[1].1), db: store::Location::Sqlite(db.path()), json: true, list: false };
        run(args, &mut out).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert!(v["config"].is_object(), "config is JSON, not a string: {v}");
        assert!(v["players"].is_array() && v["moves"].is_array() && v["result"]["winners"].is_array(), "{v}");
        assert!(v["narration"].as_array().is_some_and(|l| l.len() > 5), "{v}");

        let mut out = Vec::new();
        run(ReplayArgs { match_id: None, db: store::Location::Sqlite(db.path()), json: false, list: true }, &mut out)
            .unwrap();
        insta::assert_snapshot!("matches_table", String::from_utf8(out).unwrap());

        let mut out = Vec::new();
        matches(MatchesArgs { db: store::Location::Sqlite(db.path()), limit: 2, json: true }, &mut out).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v.as_array().map(Vec::len), Some(2), "{v}");
        assert!(v[0]["players"].is_array(), "{v}");

        let missing = run(
            ReplayArgs { match_id: Some(99), db: store::Location::Sqlite(db.path()), json: false, list: false },
            &mut Vec::new(),
        );
        assert!(missing.unwrap_err().to_string().contains("no match 99"));
    }

    /// A reader that has gone away, as `| head` leaves it.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_an_error_main_keeps_quiet_about() {
        let (db, ids) = stored("pipe");
        let e = run(
            ReplayArgs { match_id: Some(ids[0].1), db: store::Location::Sqlite(db.path()), json: false, list: false },
            &mut ClosedPipe,
        )
        .unwrap_err();
        assert!(crate::is_closed_pipe(&e), "{e:#}");
        let e = matches(MatchesArgs { db: store::Location::Sqlite(db.path()), limit: 5, json: false }, &mut ClosedPipe)
            .unwrap_err();
        assert!(crate::is_closed_pipe(&e), "{e:#}");
        assert!(!crate::is_closed_pipe(&anyhow::anyhow!("no database")));
    }

    #[test]
    fn an_abandoned_match_says_so_rather_than_no_winner() {
        let mut m = GameKind::Ivanhoe.visit(Record { seed: 7, players: 3 });
        m.result = json!({ "winners": [], "abandoned": true }).to_string();
        assert_eq!(result_words(&m), "abandoned");
        m.result = json!({ "winners": [] }).to_string();
        assert_eq!(result_words(&m), "no winner");
        m.result = json!({ "winners": ["ana", "ben", "cat"] }).to_string();
        assert_eq!(result_words(&m), "ana, ben and cat won");
    }

    #[test]
    fn dates_and_durations_read_plainly() {
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(1_795_597_392_000), "2026-11-25 09:03");
        assert_eq!(utc(951_782_400_000), "2000-02-29 00:00");
        assert_eq!(duration(45_000), "45 s");
        assert_eq!(duration(192_000), "3 min 12 s");
        assert_eq!(duration(3_723_000), "1 h 02 min");
    }
}
