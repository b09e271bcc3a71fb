//! One suite, both backends: every test here runs against SQLite and against PostgreSQL
//! (`CARDTABLE_TEST_PG`; see `pg_env.rs` for how to get one, or opt out).

mod pg_env;

use std::path::PathBuf;
use store::accounts::{GameStats, SeatPerson, SessionInfo, Taken};
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

    /// A second store on the same database while `store` is open: on PostgreSQL a store of
    /// its own (its own pool, as another node's); SQLite's file is held by one store, so the
    /// same.
    async fn open_again(&self, store: &Store) -> Store {
        match self {
            Db::Sqlite { .. } => store.clone(),
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
    accounts_are_made_and_found_by_key,
    a_key_is_taken_once_even_by_concurrent_creates,
    a_rename_holds_the_old_name_and_an_upgrade_keeps_the_id,
    a_deleted_account_is_hidden_its_name_held_its_sessions_and_passkeys_gone,
    sessions_are_found_touched_revoked_and_expire,
    passkeys_are_stored_found_and_updated,
    challenges_are_taken_once_and_expire,
    a_match_keeps_its_people_and_profiles_read_them,
    accounts_survive_reopening,
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
        people: Vec::new(),
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
    let a = Store::connect_node(&url, "node-a").await.unwrap();
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
    let b = Store::connect_node(&url, "node-b").await.unwrap();
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
    let a = Store::connect_node(&url, "node-a").await.unwrap();
    let b = Store::connect_node(&url, "node-b").await.unwrap();
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

/// A database of the previous schema (6, before accounts) upgrades in place: its matches are
/// read back (with no people), and accounts and a match's people can be stored.
#[tokio::test]
async fn postgres_a_version_6_database_gains_accounts() {
    let Some(url) = pg_env::pg_url() else { return };
    let url = pg_env::fresh_schema(&url, "conf_v6").await;
    drop(store::postgres::PgStore::connect_to_version(&url, "local", 6).await.unwrap());
    pg_env::exec(
        &url,
        "INSERT INTO matches (room_id, game, seed, config, players, log, result, started_at, ended_at, match_no)
         VALUES ('r1', 'buckshot', 7, '{}', '[\"a\"]', '[]', '{}', 1, 2, 0);",
    )
    .await;
    let s = Store::connect(&url).await.unwrap();
    let old = s.get_match(1).await.unwrap().expect("the old match");
    assert_eq!((old.seed, old.people.len()), (7, 0));
    let a = s.create_account("Nia", "nia", false, None, T0).await.unwrap().unwrap();
    let people = vec![SeatPerson { seat: 0, account: a.id, won: true }];
    let id = s.finish_match(MatchRecord { id: 0, room_id: "r2".into(), people: people.clone(), ..old }).await.unwrap();
    assert_eq!(s.get_match(id).await.unwrap().unwrap().people, people);
    assert_eq!(s.account_stats(a.id).await.unwrap(), [GameStats { game: "buckshot".into(), played: 1, won: 1 }]);
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
    // And it keeps people now.
    let a = s.create_account("Nia", "nia", false, None, T0).await.unwrap().unwrap();
    let people = vec![SeatPerson { seat: 0, account: a.id, won: false }];
    let id = s.finish_match(MatchRecord { people: people.clone(), ..m }).await.unwrap();
    assert_eq!(s.account_matches(a.id, 5).await.unwrap()[0].id, id);
    drop(s);
    let conn = rusqlite_version(&path);
    assert_eq!(conn, store::sqlite::SCHEMA_VERSION);
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
        Err(e @ StoreError::TooNew { found: 99, known, .. }) if known == store::sqlite::SCHEMA_VERSION => {
            assert!(e.to_string().contains(&format!("newer than this cardtable knows ({known})")), "{e}")
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a newer database was opened"),
    }
}

// ---- People (issue 42): accounts, names, sessions, passkeys, challenges, a match's people ----

/// A moment in ms (the store takes the time from its caller).
const T0: u64 = 1_800_000_000_000;
const DAY: u64 = 24 * 3600 * 1000;

/// Makes an account that must not be refused.
async fn make(s: &Store, name: &str, guest: bool, now: u64) -> store::accounts::Account {
    let password = (!guest).then(|| format!("$argon2id$v=19$m=19456,t=2,p=1${name}"));
    s.create_account(name, &name.to_lowercase(), guest, password, now).await.unwrap().expect("a free name")
}

async fn accounts_are_made_and_found_by_key(db: &Db) {
    let s = db.open().await;
    let alice = make(&s, "Alice", false, T0).await;
    assert_eq!((alice.name.as_str(), alice.guest, alice.created_at), ("Alice", false, T0));
    assert!(!alice.renamed && !alice.deleted && !alice.admin);
    let guest = make(&s, "guest-4821", true, T0 + 1).await;
    assert_ne!(alice.id, guest.id);
    assert_eq!(s.account(alice.id).await.unwrap(), Some(alice.clone()));
    assert_eq!(s.account(999_999).await.unwrap(), None);
    let (found, phc) = s.account_by_key("alice").await.unwrap().expect("found by key");
    assert_eq!(found, alice);
    assert_eq!(phc.as_deref(), Some("$argon2id$v=19$m=19456,t=2,p=1$Alice"));
    let (_, none) = s.account_by_key("guest-4821").await.unwrap().unwrap();
    assert_eq!(none, None, "a guest has no password");
    assert_eq!(s.account_by_key("Alice").await.unwrap(), None, "found by the key, not the name");
    // The same key again (another spelling of the name) is refused, and nothing is made.
    assert_eq!(s.create_account("ALICE", "alice", true, None, T0 + 2).await.unwrap(), Err(Taken::Name));
    let bob = make(&s, "bob", false, T0 + 3).await;
    let listed: Vec<String> = s.list_accounts(None, 10).await.unwrap().into_iter().map(|a| a.name).collect();
    assert_eq!(listed, ["Alice", "bob", "guest-4821"], "by name, bytewise; the refused one is not there");
    let page: Vec<String> = s.list_accounts(Some("Alice"), 1).await.unwrap().into_iter().map(|a| a.name).collect();
    assert_eq!(page, ["bob"]);
    let by_ids = s.accounts_by_ids(&[bob.id, alice.id, 424_242]).await.unwrap();
    assert_eq!(by_ids.iter().map(|a| a.id).collect::<Vec<_>>(), [alice.id, bob.id], "by id, unknown ones left out");
    // Passwords and the admin flag.
    s.set_password(bob.id, "phc2".into()).await.unwrap();
    assert_eq!(s.account_by_key("bob").await.unwrap().unwrap().1.as_deref(), Some("phc2"));
    s.set_admin(bob.id, true).await.unwrap();
    assert!(s.account(bob.id).await.unwrap().unwrap().admin);
    assert!(matches!(s.set_password(424_242, "x".into()).await, Err(StoreError::NoAccount(424_242))));
}

/// Of many creates of one key at once (a cluster's nodes, or one node's requests), one makes
/// the account; every other hears `Taken`, and there is one account.
async fn a_key_is_taken_once_even_by_concurrent_creates(db: &Db) {
    let s = db.open().await;
    let mut tasks = Vec::new();
    for i in 0..12 {
        // On PostgreSQL each its own store: separate pools, as separate nodes would be.
        let s = if i % 2 == 0 { s.clone() } else { db.open_again(&s).await };
        tasks.push(tokio::spawn(async move { s.create_account(&format!("Carol{i}"), "carol", false, None, T0).await }));
    }
    let mut made = 0;
    for t in tasks {
        match t.await.unwrap().unwrap() {
            Ok(_) => made += 1,
            Err(Taken::Name) => {}
        }
    }
    assert_eq!(made, 1, "one create of the key succeeds");
    assert_eq!(s.list_accounts(None, 100).await.unwrap().len(), 1);
}

async fn a_rename_holds_the_old_name_and_an_upgrade_keeps_the_id(db: &Db) {
    let s = db.open().await;
    let g = make(&s, "guest-1234", true, T0).await;
    let hold = T0 + 30 * DAY;
    // A guest renames once: its old name is held for everyone else.
    assert_eq!(s.rename_account(g.id, "Dana", "dana", None, hold, T0 + 1).await.unwrap(), Ok(()));
    let renamed = s.account(g.id).await.unwrap().unwrap();
    assert_eq!((renamed.name.as_str(), renamed.guest, renamed.renamed), ("Dana", true, true));
    assert_eq!(s.account_by_key("dana").await.unwrap().unwrap().0.id, g.id);
    assert_eq!(s.account_by_key("guest-1234").await.unwrap(), None, "the old key names nobody");
    assert_eq!(
        s.create_account("guest-1234", "guest-1234", true, None, T0 + 2).await.unwrap(),
        Err(Taken::Name),
        "the old name is held"
    );
    // A held name is refused to a rename too, and a used one.
    let e = make(&s, "Eve", false, T0 + 3).await;
    assert_eq!(s.rename_account(e.id, "guest-1234", "guest-1234", None, hold, T0 + 4).await.unwrap(), Err(Taken::Name));
    assert_eq!(s.rename_account(e.id, "DANA", "dana", None, hold, T0 + 4).await.unwrap(), Err(Taken::Name));
    assert_eq!(s.account(e.id).await.unwrap().unwrap().name, "Eve", "a refused rename changes nothing");
    // Sign-up: the guest becomes a member under a new name, keeping its id (its matches).
    let phc = "$argon2id$phc".to_string();
    assert_eq!(s.rename_account(g.id, "Dana_R", "dana_r", Some(phc.clone()), hold, T0 + 5).await.unwrap(), Ok(()));
    let member = s.account(g.id).await.unwrap().unwrap();
    assert_eq!((member.id, member.name.as_str(), member.guest), (g.id, "Dana_R", false));
    assert_eq!(s.account_by_key("dana_r").await.unwrap().unwrap().1, Some(phc));
    // An account may take its own held name back; a change of case holds nothing.
    assert_eq!(s.rename_account(g.id, "Dana", "dana", None, hold, T0 + 6).await.unwrap(), Ok(()));
    assert_eq!(s.rename_account(g.id, "DANA", "dana", None, hold, T0 + 7).await.unwrap(), Ok(()));
    assert_eq!(s.account(g.id).await.unwrap().unwrap().name, "DANA");
    // Once the hold ends, the old name is free.
    assert_eq!(s.create_account("guest-1234", "guest-1234", true, None, hold - 1).await.unwrap(), Err(Taken::Name));
    let other = s.create_account("guest-1234", "guest-1234", true, None, hold).await.unwrap().expect("free again");
    assert_ne!(other.id, g.id);
    assert!(matches!(
        s.rename_account(424_242, "Zed", "zed", None, hold, T0).await,
        Err(StoreError::NoAccount(424_242))
    ));
}

async fn a_deleted_account_is_hidden_its_name_held_its_sessions_and_passkeys_gone(db: &Db) {
    let s = db.open().await;
    let f = make(&s, "Frank", false, T0).await;
    let keep = make(&s, "Grace", false, T0).await;
    s.create_session("h-frank-1", f.id, T0).await.unwrap();
    s.create_session("h-frank-2", f.id, T0).await.unwrap();
    s.create_session("h-grace", keep.id, T0).await.unwrap();
    s.add_passkey(f.id, "cred-frank", "{}".into(), T0).await.unwrap();
    let hold = T0 + 30 * DAY;
    s.delete_account(f.id, hold, T0 + 1).await.unwrap();
    let gone = s.account(f.id).await.unwrap().expect("the row stays (its matches name it)");
    assert!(gone.deleted);
    assert_eq!(gone.name, format!("deleted-{}", f.id));
    assert_eq!(s.account_by_key("frank").await.unwrap(), None);
    let listed: Vec<String> = s.list_accounts(None, 10).await.unwrap().into_iter().map(|a| a.name).collect();
    assert_eq!(listed, ["Grace"], "a deleted account is not listed");
    assert_eq!(s.session_account("h-frank-1", T0 + 2).await.unwrap(), None);
    assert!(s.sessions(f.id).await.unwrap().is_empty(), "every session removed");
    assert!(s.passkeys(f.id).await.unwrap().is_empty() && s.passkey("cred-frank").await.unwrap().is_none());
    assert_eq!(s.session_account("h-grace", T0 + 2).await.unwrap().map(|a| a.id), Some(keep.id), "others untouched");
    // Its name is free for nobody for a month, then free.
    assert_eq!(s.create_account("frank", "frank", true, None, hold - 1).await.unwrap(), Err(Taken::Name));
    assert!(s.create_account("frank", "frank", true, None, hold).await.unwrap().is_ok());
    // Deleting again changes nothing; a deleted account cannot be renamed or given a password.
    s.delete_account(f.id, hold + DAY, T0 + 3).await.unwrap();
    assert_eq!(s.account(f.id).await.unwrap(), Some(gone));
    assert!(matches!(s.rename_account(f.id, "Frank2", "frank2", None, hold, T0).await, Err(StoreError::NoAccount(_))));
    assert!(matches!(s.set_password(f.id, "x".into()).await, Err(StoreError::NoAccount(_))));
    assert!(matches!(s.delete_account(424_242, hold, T0).await, Err(StoreError::NoAccount(_))));
}

async fn sessions_are_found_touched_revoked_and_expire(db: &Db) {
    use store::accounts::{SESSION_MAX_IDLE_MS, SESSION_TOUCH_MS};
    let s = db.open().await;
    let h = make(&s, "Heidi", false, T0).await;
    let other = make(&s, "Ivan", false, T0).await;
    assert_eq!(s.session_account("unknown", T0).await.unwrap(), None);
    for (i, hash) in ["a", "b", "c"].iter().enumerate() {
        s.create_session(hash, h.id, T0 + i as u64).await.unwrap();
    }
    s.create_session("ivan", other.id, T0).await.unwrap();
    // A hash stored twice is refused, in words that do not quote it (errors get logged).
    let e = s.create_session("ivan", h.id, T0).await.unwrap_err();
    assert!(matches!(e, StoreError::Conflict(_)) && !e.to_string().contains("ivan"), "{e}");
    assert_eq!(s.session_account("ivan", T0).await.unwrap().map(|a| a.id), Some(other.id));
    assert_eq!(s.session_account("a", T0 + 10).await.unwrap(), Some(h.clone()));
    // Touched at most once a minute.
    assert_eq!(s.sessions(h.id).await.unwrap()[0], SessionInfo { created_at: T0, seen_at: T0 });
    s.session_account("a", T0 + SESSION_TOUCH_MS - 1).await.unwrap().unwrap();
    assert_eq!(s.sessions(h.id).await.unwrap()[0].seen_at, T0, "not touched within the minute");
    s.session_account("a", T0 + SESSION_TOUCH_MS).await.unwrap().unwrap();
    assert_eq!(s.sessions(h.id).await.unwrap()[0].seen_at, T0 + SESSION_TOUCH_MS);
    // Idle for more than the limit: expired (and gone); one used in time stays.
    let seen = T0 + SESSION_TOUCH_MS;
    assert!(s.session_account("a", seen + SESSION_MAX_IDLE_MS).await.unwrap().is_some(), "at the limit, kept");
    let last = seen + SESSION_MAX_IDLE_MS;
    assert_eq!(s.session_account("b", T0 + 1 + SESSION_MAX_IDLE_MS + 1).await.unwrap(), None, "expired");
    assert_eq!(s.session_account("b", T0).await.unwrap(), None, "and deleted");
    assert!(s.session_account("a", last + SESSION_MAX_IDLE_MS).await.unwrap().is_some(), "touched, so alive");
    // Sign out; sign out everywhere but this one; everywhere.
    s.delete_session("c").await.unwrap();
    assert_eq!(s.session_account("c", T0 + 5).await.unwrap(), None);
    for hash in ["d", "e"] {
        s.create_session(hash, h.id, T0 + 5).await.unwrap();
    }
    assert_eq!(s.delete_sessions(h.id, Some("d")).await.unwrap(), 2, "a and e");
    assert_eq!(s.sessions(h.id).await.unwrap().len(), 1);
    assert!(s.session_account("d", T0 + 6).await.unwrap().is_some());
    assert_eq!(s.delete_sessions(h.id, None).await.unwrap(), 1);
    assert!(s.sessions(h.id).await.unwrap().is_empty());
    assert!(s.session_account("ivan", T0 + 6).await.unwrap().is_some(), "another account's session stays");
    // Pruning deletes what expired.
    s.create_session("old", other.id, T0).await.unwrap();
    s.session_account("ivan", T0 + 10 * DAY).await.unwrap().unwrap();
    let pruned = s.prune_accounts(T0 + SESSION_MAX_IDLE_MS + 1).await.unwrap();
    assert_eq!(pruned.sessions, 1, "{pruned:?}");
    assert_eq!(s.sessions(other.id).await.unwrap().len(), 1);
}

async fn passkeys_are_stored_found_and_updated(db: &Db) {
    let s = db.open().await;
    let j = make(&s, "Judy", false, T0).await;
    s.add_passkey(j.id, "cred-1", "{\"counter\":0}".into(), T0).await.unwrap();
    s.add_passkey(j.id, "cred-2", "{\"counter\":5}".into(), T0 + 1).await.unwrap();
    assert!(s.add_passkey(j.id, "cred-1", "{}".into(), T0 + 2).await.is_err(), "a credential id is unique");
    let rows = s.passkeys(j.id).await.unwrap();
    assert_eq!(
        rows.iter().map(|p| (p.cred_id.as_str(), p.created_at)).collect::<Vec<_>>(),
        [("cred-1", T0), ("cred-2", T0 + 1)]
    );
    assert_eq!(s.passkey("cred-2").await.unwrap(), Some((j.id, "{\"counter\":5}".to_string())));
    assert_eq!(s.passkey("cred-9").await.unwrap(), None);
    s.update_passkey("cred-2", "{\"counter\":6}".into()).await.unwrap();
    assert_eq!(s.passkey("cred-2").await.unwrap().unwrap().1, "{\"counter\":6}");
}

async fn challenges_are_taken_once_and_expire(db: &Db) {
    let s = db.open().await;
    s.put_challenge("c1", "state-1".into(), T0 + 60_000).await.unwrap();
    s.put_challenge("c2", "state-2".into(), T0 + 60_000).await.unwrap();
    s.put_challenge("c3", "state-3".into(), T0 + 10).await.unwrap();
    assert_eq!(s.take_challenge("c1", T0).await.unwrap().as_deref(), Some("state-1"));
    assert_eq!(s.take_challenge("c1", T0).await.unwrap(), None, "taken once");
    assert_eq!(s.take_challenge("nope", T0).await.unwrap(), None);
    assert_eq!(s.take_challenge("c3", T0 + 10).await.unwrap(), None, "expired");
    assert_eq!(s.take_challenge("c2", T0 + 60_000).await.unwrap(), None, "expired at its time");
    // The same id again replaces it.
    s.put_challenge("c4", "old".into(), T0 + 60_000).await.unwrap();
    s.put_challenge("c4", "new".into(), T0 + 60_000).await.unwrap();
    assert_eq!(s.take_challenge("c4", T0).await.unwrap().as_deref(), Some("new"));
}

fn played(room: &str, game: &str, people: &[(u32, i64, bool)]) -> MatchRecord {
    MatchRecord {
        game: game.into(),
        people: people.iter().map(|&(seat, account, won)| SeatPerson { seat, account, won }).collect(),
        ..record(room, 1)
    }
}

async fn a_match_keeps_its_people_and_profiles_read_them(db: &Db) {
    let s = db.open().await;
    let k = make(&s, "Ken", false, T0).await;
    let l = make(&s, "Lee", true, T0).await;
    // Seat 1 a bot (not listed); given out of order, read back by seat.
    let m1 = s.finish_match(played("r1", "buckshot", &[(2, l.id, false), (0, k.id, true)])).await.unwrap();
    let got = s.get_match(m1).await.unwrap().unwrap();
    assert_eq!(
        got.people,
        [SeatPerson { seat: 0, account: k.id, won: true }, SeatPerson { seat: 2, account: l.id, won: false }]
    );
    s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
    let m2 = s.record_match(played("r2", "wolfpack", &[(0, k.id, false)]), 0).await.unwrap();
    // Recorded again under its number: the new people replace the first.
    assert_eq!(s.record_match(played("r2", "wolfpack", &[(0, k.id, true), (1, l.id, false)]), 0).await.unwrap(), m2);
    let m3 = s.finish_match(played("r3", "buckshot", &[(1, k.id, false)])).await.unwrap();
    let m4 = s.finish_match(played("r4", "buckshot", &[(0, l.id, true)])).await.unwrap();
    let m5 = s.finish_match(played("r5", "buckshot", &[])).await.unwrap();
    let listed = s.list_matches(10).await.unwrap();
    assert_eq!(listed.iter().map(|m| m.id).collect::<Vec<_>>(), [m5, m4, m3, m2, m1]);
    assert_eq!(listed[3].people.len(), 2, "{:?}", listed[3]);
    assert!(listed[0].people.is_empty());
    // Profiles: newest first, limited, each with its people.
    let ks: Vec<i64> = s.account_matches(k.id, 10).await.unwrap().iter().map(|m| m.id).collect();
    assert_eq!(ks, [m3, m2, m1]);
    let two = s.account_matches(k.id, 2).await.unwrap();
    assert_eq!(two.iter().map(|m| m.id).collect::<Vec<_>>(), [m3, m2]);
    assert_eq!(
        two[1].people,
        [SeatPerson { seat: 0, account: k.id, won: true }, SeatPerson { seat: 1, account: l.id, won: false }]
    );
    assert!(s.account_matches(424_242, 10).await.unwrap().is_empty());
    let stats = |game: &str, played: u64, won: u64| GameStats { game: game.into(), played, won };
    assert_eq!(s.account_stats(k.id).await.unwrap(), [stats("buckshot", 2, 1), stats("wolfpack", 1, 1)]);
    assert_eq!(s.account_stats(l.id).await.unwrap(), [stats("buckshot", 2, 1), stats("wolfpack", 1, 0)]);
    // A deleted account's matches stay.
    s.delete_account(l.id, T0 + 30 * DAY, T0).await.unwrap();
    assert_eq!(s.account_matches(l.id, 10).await.unwrap().len(), 3);
}

async fn accounts_survive_reopening(db: &Db) {
    let s = db.open().await;
    let m = make(&s, "Mallory", false, T0).await;
    s.create_session("hm", m.id, T0).await.unwrap();
    s.add_passkey(m.id, "cm", "{}".into(), T0).await.unwrap();
    s.put_challenge("ch", "x".into(), T0 + 1000).await.unwrap();
    let id = s.finish_match(played("r", "buckshot", &[(0, m.id, true)])).await.unwrap();
    db.close(s).await;
    let s = db.open().await;
    assert_eq!(s.session_account("hm", T0 + 1).await.unwrap(), Some(m.clone()));
    assert_eq!(s.passkey("cm").await.unwrap().map(|p| p.0), Some(m.id));
    assert_eq!(s.take_challenge("ch", T0).await.unwrap().as_deref(), Some("x"));
    assert_eq!(s.get_match(id).await.unwrap().unwrap().people.len(), 1);
    assert_eq!(s.create_account("mallory", "mallory", true, None, T0).await.unwrap(), Err(Taken::Name));
}
