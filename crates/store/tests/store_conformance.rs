//! One suite, both backends: every test here runs against SQLite and against PostgreSQL
//! (`CARDTABLE_TEST_PG`; see `pg_env.rs` for how to get one, or opt out).

mod pg_env;

use std::path::PathBuf;
use store::{MatchRecord, Store, StoreError};

/// A test's own database: a SQLite file in a directory of its own, or a PostgreSQL schema.
enum Db {
    Sqlite { dir: PathBuf },
    Pg { url: String },
}

impl Db {
    async fn sqlite(name: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("cardtable-conformance-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Db::Sqlite { dir }
    }

    /// `None`: PostgreSQL tests opted out (`CARDTABLE_SKIP_PG=1`).
    async fn pg(name: &str) -> Option<Db> {
        let url = pg_env::pg_url()?;
        Some(Db::Pg { url: pg_env::fresh_schema(&url, &format!("conf_{name}")).await })
    }

    /// Opens the store as the server does (a restart opens it again). SQLite: once the store
    /// closed before lets the file go (its thread ends a moment after the last handle).
    async fn open(&self) -> Store {
        match self {
            Db::Sqlite { dir } => {
                for _ in 0..200 {
                    match Store::open_exclusive(&dir.join("t.db")) {
                        Ok(s) => return s,
                        Err(StoreError::InUse(_)) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
                        Err(e) => panic!("{e}"),
                    }
                }
                panic!("the database stayed in use after its store closed");
            }
            Db::Pg { url } => Store::connect(url).await.unwrap(),
        }
    }

    async fn close(&self, store: Store) {
        drop(store);
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Db::Sqlite { dir } = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Each test, once per backend: `name_sqlite` and `name_postgres`.
macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = super::Db::sqlite(stringify!($name)).await;
                    super::$name(&db).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(db) = super::Db::pg(stringify!($name)).await else { return };
                    super::$name(&db).await;
                }
            )*
        }
    };
}

conformance!(
    rooms_and_moves_survive_reopening,
    chat_is_kept_to_the_last_hundred_and_deleted_with_the_room,
    restart_restores_every_room_and_play_goes_on,
    concurrent_writers_lose_nothing,
    a_new_match_starts_with_no_moves,
    a_closed_room_id_is_retired_and_never_free_again,
    a_match_is_recorded_once_per_room_and_number,
);

fn record(room: &str, seed: u64) -> MatchRecord {
    MatchRecord {
        id: 0,
        room_id: room.into(),
        game: "buckshot".into(),
        seed,
        config: "{}".into(),
        players: "[\"a\",\"b\"]".into(),
        log: "[]".into(),
        result: "{}".into(),
        started_at: 1,
        ended_at: 2,
    }
}

/// A match recorded again under its number (a server restoring a room whose last owner recorded
/// it and stopped before the room went back to the lobby, then ending it again) is one row: the
/// later record replaces the first and keeps its id. Without a number, every record is a row.
async fn a_match_is_recorded_once_per_room_and_number(db: &Db) {
    let s = db.open().await;
    s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
    s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
    let first = s.record_match(record("r1", 7), 0).await.unwrap();
    let longer = MatchRecord { log: "[1,2]".into(), ended_at: 9, ..record("r1", 7) };
    assert_eq!(s.record_match(longer, 0).await.unwrap(), first, "the same match keeps its id");
    let next = s.record_match(record("r1", 8), 1).await.unwrap();
    let other_room = s.record_match(record("r2", 7), 0).await.unwrap();
    assert!(next != first && other_room != first && other_room != next);
    db.close(s).await;
    let s = db.open().await;
    // Once more after a restart, as a restored room would (restored first: on PostgreSQL a
    // write of a room needs the epoch its load claimed).
    assert_eq!(s.load_rooms().await.unwrap().len(), 2);
    assert_eq!(s.record_match(record("r1", 8), 1).await.unwrap(), next);
    let listed = s.list_matches(10).await.unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    let m = s.get_match(first).await.unwrap().unwrap();
    assert_eq!((m.log.as_str(), m.ended_at), ("[1,2]", 9), "the later record replaced the first");
    // Without a number (an import): no key, a row each.
    let a = s.finish_match(record("r1", 7)).await.unwrap();
    let b = s.finish_match(record("r1", 7)).await.unwrap();
    assert_ne!(a, b);
    assert_eq!(s.list_matches(10).await.unwrap().len(), 5);
}

async fn rooms_and_moves_survive_reopening(db: &Db) {
    {
        let s = db.open().await;
        s.save_room("r1", "buckshot", "{\"a\":1}".into()).await.unwrap();
        for i in 0..3 {
            s.append_move("r1", i, format!("m{i}")).await.unwrap();
        }
        s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
        s.delete_room("r2").await.unwrap();
        let id = s.finish_match(record("r1", 7)).await.unwrap();
        assert_eq!(id, 1);
        db.close(s).await;
    }
    let s = db.open().await;
    let rooms = s.load_rooms().await.unwrap();
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].moves, vec!["m0", "m1", "m2"]);
    assert_eq!(rooms[0].snapshot, "{\"a\":1}");
    let one = s.load_room("r1").await.unwrap().expect("r1 is live");
    assert_eq!((one.id.as_str(), one.moves.len()), ("r1", 3));
    assert_eq!(s.load_room("r2").await.unwrap(), None);
    s.reset_moves("r1", "{}".into()).await.unwrap();
    assert!(s.load_rooms().await.unwrap()[0].moves.is_empty());
    assert_eq!(s.get_match(1).await.unwrap().unwrap().seed, 7);
    assert!(s.get_match(99).await.unwrap().is_none());
    let listed = s.list_matches(10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0], MatchRecord { id: 1, ..record("r1", 7) });
}

async fn chat_is_kept_to_the_last_hundred_and_deleted_with_the_room(db: &Db) {
    let s = db.open().await;
    s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
    s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
    for i in 0..(store::CHAT_KEPT + 5) {
        s.append_chat("r1", format!("{{\"n\":{i}}}")).await.unwrap();
    }
    s.append_chat("r2", "{}".into()).await.unwrap();
    s.delete_room("r2").await.unwrap();
    db.close(s).await;
    let s = db.open().await;
    let rooms = s.load_rooms().await.unwrap();
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].chat.len(), store::CHAT_KEPT);
    assert_eq!(rooms[0].chat[0], "{\"n\":5}");
    // A room made again under a deleted one's id starts with no chat.
    s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
    assert!(s.load_room("r2").await.unwrap().unwrap().chat.is_empty());
}

async fn restart_restores_every_room_and_play_goes_on(db: &Db) {
    let s = db.open().await;
    for r in 0..5 {
        let id = format!("room{r}");
        s.save_room(&id, "buckshot", format!("{{\"r\":{r}}}")).await.unwrap();
        for i in 0..(r as u64 * 3) {
            s.append_move(&id, i, format!("{r}-{i}")).await.unwrap();
        }
        s.append_chat(&id, format!("\"hi {r}\"")).await.unwrap();
    }
    db.close(s).await;
    // Restarted: every room as it was, and each can go on (on PostgreSQL the restart claims
    // the rooms again with a new epoch, and its writes carry it).
    let s = db.open().await;
    let mut rooms = s.load_rooms().await.unwrap();
    rooms.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(rooms.len(), 5);
    for (r, room) in rooms.iter().enumerate() {
        assert_eq!(room.snapshot, format!("{{\"r\":{r}}}"));
        assert_eq!(room.moves, (0..r * 3).map(|i| format!("{r}-{i}")).collect::<Vec<_>>());
        assert_eq!(room.chat, [format!("\"hi {r}\"")]);
        assert_eq!(room.damaged, None);
        s.append_move(&room.id, (r * 3) as u64, "next".into()).await.unwrap();
        s.save_room(&room.id, "buckshot", "{\"again\":true}".into()).await.unwrap();
    }
    db.close(s).await;
    let s = db.open().await;
    for room in s.load_rooms().await.unwrap() {
        assert_eq!(room.moves.last().map(String::as_str), Some("next"), "{}", room.id);
        assert_eq!(room.snapshot, "{\"again\":true}");
    }
}

async fn concurrent_writers_lose_nothing(db: &Db) {
    let s = db.open().await;
    const ROOMS: usize = 24;
    const MOVES: u64 = 40;
    let mut tasks = Vec::new();
    for r in 0..ROOMS {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("c{r}");
            s.save_room(&id, "buckshot", "{}".into()).await.unwrap();
            for i in 0..MOVES {
                s.append_move(&id, i, format!("{r}:{i}")).await.unwrap();
                if i % 10 == 0 {
                    s.append_chat(&id, format!("{i}")).await.unwrap();
                }
            }
            s.finish_match(record(&id, r as u64)).await.unwrap()
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.unwrap());
    }
    ids.sort();
    assert_eq!(ids, (1..=ROOMS as i64).collect::<Vec<_>>(), "every match has an id of its own");
    db.close(s).await;
    let s = db.open().await;
    let rooms = s.load_rooms().await.unwrap();
    assert_eq!(rooms.len(), ROOMS);
    for room in rooms {
        let r: usize = room.id[1..].parse().unwrap();
        assert_eq!(room.moves, (0..MOVES).map(|i| format!("{r}:{i}")).collect::<Vec<_>>());
        assert_eq!(room.chat.len(), 4);
    }
    assert_eq!(s.list_matches(100).await.unwrap().len(), ROOMS);
}

async fn a_new_match_starts_with_no_moves(db: &Db) {
    let s = db.open().await;
    s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
    for i in 0..3 {
        s.append_move("r1", i, format!("old{i}")).await.unwrap();
    }
    s.reset_moves("r1", "{\"second\":1}".into()).await.unwrap();
    for i in 0..2 {
        s.append_move("r1", i, format!("new{i}")).await.unwrap();
    }
    db.close(s).await;
    let s = db.open().await;
    let room = s.load_room("r1").await.unwrap().unwrap();
    assert_eq!(room.moves, ["new0", "new1"]);
    assert_eq!(room.snapshot, "{\"second\":1}");
}

/// A room id is taken while its room lives and stays taken after the room is deleted (retired:
/// a finished match's replay is keyed on its room's id), also after reopening; an id never
/// used is free.
async fn a_closed_room_id_is_retired_and_never_free_again(db: &Db) {
    let s = db.open().await;
    assert!(!s.id_taken("r1").await.unwrap(), "an id never used is free");
    s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
    s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
    assert!(s.id_taken("r1").await.unwrap(), "a live room's id is taken");
    s.delete_room("r1").await.unwrap();
    assert!(s.load_room("r1").await.unwrap().is_none(), "the room is gone");
    assert!(s.id_taken("r1").await.unwrap(), "a closed room's id stays taken");
    db.close(s).await;
    let s = db.open().await;
    assert!(s.id_taken("r1").await.unwrap(), "retired across a restart");
    assert!(s.id_taken("r2").await.unwrap());
    assert!(!s.id_taken("r3").await.unwrap());
}

/// The cluster's primitives on PostgreSQL: a node registers with a new incarnation each time
/// (an older incarnation's heartbeat is refused: it must stop); the heartbeat answers the rooms
/// the node owns with their epochs; a node claims the rooms of a node whose heartbeat is older
/// than the TTL (not those of a live one), and the old owner's writes are then `Lost`; a
/// drained node's rooms (released) are claimed at once; retired ids are seen by every node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_nodes_heartbeat_claim_and_release() {
    use std::time::Duration;
    // How long a heartbeat may take (a node passes its TTL).
    const BEAT: Duration = Duration::from_secs(5);
    let Some(url) = pg_env::pg_url() else { return };
    let url = pg_env::fresh_schema(&url, "conf_nodes").await;
    let a = Store::connect_node(&url, "a").await.unwrap();
    let b = Store::connect_node(&url, "b").await.unwrap();
    let (pa, pb) = (a.postgres().unwrap(), b.postgres().unwrap());
    let inc_a = pa.register("/n/a").await.unwrap();
    assert_eq!(pa.register("/n/a").await.unwrap(), inc_a + 1, "each start bumps the incarnation");
    assert_eq!(pa.heartbeat(inc_a, BEAT).await.unwrap(), None, "the older incarnation is superseded");
    let inc_a = inc_a + 1;
    let inc_b = pb.register("/n/b").await.unwrap();
    a.save_room("ra", "buckshot", "{}".into()).await.unwrap();
    a.append_move("ra", 0, "m0".into()).await.unwrap();
    a.save_room("rb", "buckshot", "{}".into()).await.unwrap();
    let owned = pa.heartbeat(inc_a, BEAT).await.unwrap().expect("a is the latest incarnation");
    assert_eq!(owned.len(), 2);
    // The heartbeat has a connection of its own: a node whose writers are all busy still beats.
    let held = pa.hold_writers().await.unwrap();
    let beat = tokio::time::timeout(Duration::from_secs(2), pa.heartbeat(inc_a, BEAT)).await;
    assert!(matches!(beat, Ok(Ok(Some(_)))), "the heartbeat waited for a writer: {beat:?}");
    drop(held);
    assert_eq!(owned.get("ra"), Some(&0));
    let ttl = Duration::from_millis(300);
    // a is alive: nothing to claim.
    assert!(pb.claim_orphans(ttl, 10, None).await.unwrap().is_empty());
    let found = pb.locate("ra", ttl).await.unwrap().expect("ra is stored");
    assert_eq!((found.owner.as_deref(), found.advertise.as_str(), found.live), (Some("a"), "/n/a", true));
    // a falls silent past the TTL (b keeps beating): b claims a's rooms, one at a time if asked.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(pb.heartbeat(inc_b, BEAT).await.unwrap().is_some());
    assert!(!pb.locate("ra", ttl).await.unwrap().unwrap().live);
    let one = pb.claim_orphans(ttl, 10, Some("ra")).await.unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].moves, ["m0"], "restored with its log");
    let rest = pb.claim_orphans(ttl, 10, None).await.unwrap();
    assert_eq!(rest.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["rb"]);
    // The old owner is fenced: its heartbeat no longer lists them, and its writes are Lost.
    let owned = pa.heartbeat(inc_a, BEAT).await.unwrap().unwrap();
    assert!(owned.is_empty(), "{owned:?}");
    assert!(matches!(a.append_move("ra", 1, "late".into()).await, Err(StoreError::Lost(_))));
    b.append_move("ra", 1, "m1".into()).await.unwrap();
    let owned = pb.heartbeat(inc_b, BEAT).await.unwrap().unwrap();
    assert_eq!(owned.get("ra"), Some(&pb.held_epoch("ra").unwrap()));
    // b drains: its rooms have no owner and a new epoch; a claims them at once, log intact.
    assert_eq!(pb.release_all().await.unwrap(), 2);
    assert!(matches!(b.append_move("ra", 2, "after".into()).await, Err(StoreError::Lost(_))));
    assert!(pa.heartbeat(inc_a, BEAT).await.unwrap().is_some());
    let back = pa.claim_orphans(ttl, 10, None).await.unwrap();
    assert_eq!(back.len(), 2);
    let ra = back.iter().find(|r| r.id == "ra").unwrap();
    assert_eq!(ra.moves, ["m0", "m1"]);
    // Retired ids are the cluster's.
    a.delete_room("rb").await.unwrap();
    assert!(b.id_taken("rb").await.unwrap());
    let listed = pb.listed().await.unwrap();
    assert_eq!(listed.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["ra"]);
}

/// Epoch fencing: once another node has claimed a room (bumped its epoch, as the cluster's
/// claim does), every write this node makes for it is refused as `Lost`, and nothing of it is
/// stored; its other rooms go on. SQLite has one owner: its second server is refused at open
/// instead (`an_exclusive_store_keeps_its_file...` in the SQLite unit tests).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_fences_a_room_claimed_by_another_node() {
    let Some(url) = pg_env::pg_url() else { return };
    let url = pg_env::fresh_schema(&url, "conf_fencing").await;
    let a = store::postgres::PgStore::connect(&url, "node-a").await.unwrap();
    a.save_room_listed("r1", "buckshot", "{\"v\":1}".into(), None).await.unwrap();
    a.save_room_listed("r2", "buckshot", "{}".into(), None).await.unwrap();
    a.append_move("r1", 0, "m0".into()).await.unwrap();
    a.append_chat("r1", "\"hi\"".into()).await.unwrap();
    // Node b takes r1 over.
    pg_env::exec(&url, "UPDATE rooms SET owner = 'node-b', epoch = epoch + 1 WHERE id = 'r1'").await;
    let lost = |r: Result<(), StoreError>| match r {
        Err(StoreError::Lost(room)) => assert_eq!(room, "r1"),
        other => panic!("not refused as lost: {other:?}"),
    };
    lost(a.append_move("r1", 1, "m1".into()).await);
    lost(a.save_room_listed("r1", "buckshot", "{\"v\":2}".into(), None).await);
    lost(a.reset_moves_listed("r1", "{}".into(), None).await);
    lost(a.append_chat("r1", "\"late\"".into()).await);
    lost(a.delete_room("r1").await);
    lost(a.finish_match(record("r1", 1)).await.map(|_| ()));
    lost(a.record_match(record("r1", 1), 0).await.map(|_| ()));
    assert_eq!(StoreError::Lost("r1".into()).code(), "room_moved");
    // Its other room is still its own, also in the batch that carries a refused move (the two
    // are sent in one tick: the committer answers each room of its one statement).
    a.append_move("r2", 0, "x".into()).await.unwrap();
    let (refused, stored) = tokio::join!(a.append_move("r1", 1, "m1".into()), a.append_move("r2", 1, "y".into()));
    lost(refused);
    stored.unwrap();
    // Node b sees r1 exactly as a left it before the claim.
    let b = store::postgres::PgStore::connect(&url, "node-b").await.unwrap();
    let r1 = b.load_room("r1").await.unwrap().expect("b owns r1");
    assert_eq!(
        (r1.snapshot.as_str(), r1.moves.clone(), r1.chat.clone()),
        ("{\"v\":1}", vec!["m0".to_string()], vec!["\"hi\"".to_string()])
    );
    assert!(b.list_matches(10).await.unwrap().is_empty());
    // b's claim (load) bumped the epoch again; b writes, a still cannot.
    b.append_move("r1", 1, "b1".into()).await.unwrap();
    lost(a.append_move("r1", 1, "a1".into()).await);
    // a node does not load a room another node owns.
    assert!(a.load_room("r1").await.unwrap().is_none());
    assert_eq!(b.load_room("r1").await.unwrap().unwrap().moves, ["m0", "b1"]);
    assert_eq!(a.load_room("r2").await.unwrap().unwrap().moves, ["x", "y"], "the batch's other room kept its move");
}

/// A claim waits for a write transaction in flight on the room (its row is read FOR SHARE),
/// so the new owner's restore sees every write the old owner was told was committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_concurrent_nodes_and_a_claim_lose_no_acknowledged_move() {
    let Some(url) = pg_env::pg_url() else { return };
    let url = pg_env::fresh_schema(&url, "conf_claim_race").await;
    let a = store::postgres::PgStore::connect(&url, "node-a").await.unwrap();
    let b = store::postgres::PgStore::connect(&url, "node-b").await.unwrap();
    a.save_room_listed("ra", "buckshot", "{}".into(), None).await.unwrap();
    b.save_room_listed("rb", "buckshot", "{}".into(), None).await.unwrap();
    let writer = {
        let a = a.clone();
        tokio::spawn(async move {
            let mut acked = 0u64;
            for i in 0..400u64 {
                match a.append_move("ra", i, format!("{i}")).await {
                    Ok(()) => acked = i + 1,
                    Err(StoreError::Lost(_)) => break,
                    Err(e) => panic!("{e}"),
                }
            }
            acked
        })
    };
    let other = {
        let b = b.clone();
        tokio::spawn(async move {
            for i in 0..200u64 {
                b.append_move("rb", i, format!("{i}")).await.unwrap();
            }
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    pg_env::exec(&url, "UPDATE rooms SET owner = 'node-b', epoch = epoch + 1 WHERE id = 'ra'").await;
    let acked = writer.await.unwrap();
    other.await.unwrap();
    let ra = b.load_room("ra").await.unwrap().unwrap();
    assert_eq!(ra.moves.len() as u64, acked, "every acknowledged move, and none refused");
    assert_eq!(b.load_room("rb").await.unwrap().unwrap().moves.len(), 200);
}

#[tokio::test]
async fn postgres_migrations_are_numbered_recorded_and_a_newer_database_is_refused() {
    let Some(url) = pg_env::pg_url() else { return };
    let url = pg_env::fresh_schema(&url, "conf_migrations").await;
    let s = Store::connect(&url).await.unwrap();
    drop(s);
    // Connecting again applies nothing twice.
    let s = Store::connect(&url).await.unwrap();
    s.save_room("r", "buckshot", "{}".into()).await.unwrap();
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let versions: Vec<i64> = client
        .query("SELECT version FROM schema_versions ORDER BY version", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, (1..=store::postgres::SCHEMA_VERSION).collect::<Vec<_>>());
    let cols: Vec<String> = client
        .query("SELECT column_name::text FROM information_schema.columns WHERE table_name = 'rooms' AND table_schema = current_schema()", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(cols.contains(&"owner".to_string()) && cols.contains(&"epoch".to_string()), "{cols:?}");
    // A database a newer cardtable wrote.
    client.batch_execute("INSERT INTO schema_versions (version) VALUES (99)").await.unwrap();
    match Store::connect(&url).await {
        Err(e @ StoreError::TooNew { found: 99, .. }) => {
            let msg = e.to_string();
            let known = format!("newer than this cardtable knows ({})", store::postgres::SCHEMA_VERSION);
            assert!(msg.contains(&known), "{msg}");
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a newer database was opened"),
    }
}

#[tokio::test]
async fn postgres_a_room_with_a_gap_in_its_moves_is_marked_damaged() {
    let Some(url) = pg_env::pg_url() else { return };
    let url = pg_env::fresh_schema(&url, "conf_gap").await;
    let s = Store::connect(&url).await.unwrap();
    pg_env::exec(
        &url,
        "INSERT INTO rooms (id, game, snapshot) VALUES ('ok', 'buckshot', '{}'), ('gap', 'buckshot', '{}');
         INSERT INTO moves (room_id, idx, entry) VALUES ('ok', 0, 'a'), ('gap', 0, 'x'), ('gap', 2, 'z'), ('ok', 1, 'b');",
    )
    .await;
    let rooms = s.load_rooms().await.unwrap();
    let ok = rooms.iter().find(|r| r.id == "ok").unwrap();
    let gap = rooms.iter().find(|r| r.id == "gap").unwrap();
    assert_eq!((ok.moves.clone(), ok.damaged.clone()), (vec!["a".to_string(), "b".into()], None));
    assert!(gap.damaged.as_deref().unwrap().contains("move 2"));
}

/// A database made by the release before PostgreSQL (schema version 3, by `cardtable serve`
/// of main at b207e67; see `fixtures/`) upgrades in place: every room, move, chat line and
/// finished match is read back, and it can be written.
#[tokio::test]
async fn sqlite_a_database_of_the_last_release_upgrades_in_place() {
    let db = Db::sqlite("fixture").await;
    let Db::Sqlite { dir } = &db else { unreachable!() };
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let path = dir.join("t.db");
    std::fs::copy(fixtures.join("v3.db"), &path).unwrap();
    let facts: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("v3.json")).unwrap()).unwrap();
    let s = db.open().await;
    let rooms = s.load_rooms().await.unwrap();
    assert_eq!(rooms.len(), 1);
    let room = &rooms[0];
    assert_eq!(room.id, facts["room"].as_str().unwrap());
    assert_eq!(room.moves.len(), 3, "the second match's moves, not the first's");
    assert_eq!(room.damaged, None);
    assert_eq!(room.chat.len(), 1);
    assert!(room.chat[0].contains("good luck!"));
    assert!(room.snapshot.contains(facts["alice"].as_str().unwrap()), "the players' tokens are in the snapshot");
    let m = s.get_match(1).await.unwrap().expect("the first match");
    let log: Vec<serde_json::Value> = serde_json::from_str(&m.log).unwrap();
    assert_eq!(log.len() as u64, facts["match1_moves"].as_u64().unwrap());
    s.append_move(&room.id, 3, "{}".into()).await.unwrap();
    drop(s);
    let conn = rusqlite_version(&path);
    assert_eq!(conn, 6);
}

fn rusqlite_version(path: &std::path::Path) -> i64 {
    // Read with the store itself closed: the header's user_version (bytes 60..64).
    for _ in 0..200 {
        if Store::open(path).is_ok() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let bytes = std::fs::read(path).unwrap();
    i64::from(u32::from_be_bytes(bytes[60..64].try_into().unwrap()))
}

#[tokio::test]
async fn sqlite_a_newer_database_is_refused() {
    let db = Db::sqlite("newer").await;
    let Db::Sqlite { dir } = &db else { unreachable!() };
    let path = dir.join("t.db");
    drop(db.open().await);
    // As a newer cardtable would leave it.
    let s = loop {
        match Store::open(&path) {
            Ok(s) => break s,
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
        }
    };
    drop(s);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[60..64].copy_from_slice(&99u32.to_be_bytes());
    std::fs::write(&path, bytes).unwrap();
    match Store::open(&path) {
        Err(e @ StoreError::TooNew { found: 99, known: 6, .. }) => {
            assert!(e.to_string().contains("newer than this cardtable knows (6)"), "{e}")
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a newer database was opened"),
    }
}
