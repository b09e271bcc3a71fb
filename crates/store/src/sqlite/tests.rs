use super::*;

/// A fresh database file in a directory of its own, removed when dropped.
struct TempDb {
    dir: PathBuf,
    path: PathBuf,
}

impl TempDb {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("cardtable-store-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let _ = std::fs::remove_file(&path);
        TempDb { dir, path }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[tokio::test]
async fn rooms_and_moves_survive_reopening() {
    let db = TempDb::new("reopen");
    let path = db.path.clone();
    {
        let s = Store::open(&path).unwrap();
        s.save_room("r1", "buckshot", "{\"a\":1}".into()).await.unwrap();
        for i in 0..3 {
            s.append_move("r1", i, format!("m{i}")).await.unwrap();
        }
        s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
        s.delete_room("r2").await.unwrap();
        let id = s
            .finish_match(MatchRecord {
                id: 0,
                room_id: "r1".into(),
                game: "buckshot".into(),
                seed: 7,
                config: "{}".into(),
                players: "[]".into(),
                log: "[]".into(),
                result: "{}".into(),
                started_at: 1,
                ended_at: 2,
                people: Vec::new(),
            })
            .await
            .unwrap();
        assert_eq!(id, 1);
    }
    let s = Store::open(&path).unwrap();
    let rooms = s.load_rooms().await.unwrap();
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].moves, vec!["m0", "m1", "m2"]);
    // One room on its own, as a dormant room is woken.
    let one = s.load_room("r1").await.unwrap().expect("r1 is live");
    assert_eq!((one.id.as_str(), one.moves.len()), ("r1", 3));
    assert_eq!(s.load_room("r2").await.unwrap(), None);
    s.reset_moves("r1", "{}".into()).await.unwrap();
    assert!(s.load_rooms().await.unwrap()[0].moves.is_empty());
    assert_eq!(read_match(&path, 1).unwrap().unwrap().seed, 7);
    assert!(read_match(&path, 99).unwrap().is_none());
    assert_eq!(s.list_matches(10).await.unwrap().len(), 1);
}

#[tokio::test]
async fn dead_moves_are_collected() {
    let db = TempDb::new("gc");
    let path = db.path.clone();
    {
        let s = Store::open(&path).unwrap();
        s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
        for i in 0..3 {
            s.append_move("r1", i, format!("old{i}")).await.unwrap();
        }
        s.reset_moves("r1", "{}".into()).await.unwrap();
        for i in 0..2 {
            s.append_move("r1", i, format!("new{i}")).await.unwrap();
        }
        s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
        s.append_move("r2", 0, "gone".into()).await.unwrap();
        s.delete_room("r2").await.unwrap();
    }
    let conn = open(&path).unwrap();
    let entries = |c: &Connection| -> Vec<String> {
        c.prepare("SELECT entry FROM moves ORDER BY seq")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(entries(&conn), ["old0", "old1", "old2", "new0", "new1", "gone"]);
    let mut log = LogState { rows: 6, ..LogState::default() };
    // The cheap pass drops what is older than every room's match; the deleted room's
    // move is newer and waits for a sweep.
    collect_garbage(&conn, &mut log, 1000).unwrap();
    assert_eq!(entries(&conn), ["new0", "new1", "gone"]);
    collect_garbage(&conn, &mut log, 1).unwrap();
    assert_eq!(entries(&conn), ["new0", "new1"]);
    assert_eq!(log.rows, 2);
    assert_eq!(load_rooms(&conn, None).unwrap()[0].moves, ["new0", "new1"]);
}

#[test]
fn a_sweep_reaches_every_window_of_the_log() {
    let db = TempDb::new("sweep");
    let conn = open(&db.path).unwrap();
    // A deleted room's moves spread over several sweep windows, and a live room's.
    conn.execute_batch(
        "INSERT INTO rooms (id, game, snapshot, moves_from) VALUES ('live', 'buckshot', '{}', 9001);
         INSERT INTO moves (seq, room_id, idx, entry) VALUES
             (1, 'gone', 0, 'a'), (5000, 'gone', 1, 'b'), (9000, 'gone', 2, 'c'), (9001, 'live', 0, 'x');",
    )
    .unwrap();
    let mut log = LogState { rows: 4, ..LogState::default() };
    collect_garbage(&conn, &mut log, 1).unwrap();
    let left: Vec<String> = conn
        .prepare("SELECT entry FROM moves")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(left, ["x"]);
    assert_eq!(log.rows, 1);
}

#[test]
fn a_room_with_a_gap_in_its_moves_is_marked_damaged() {
    let db = TempDb::new("gap");
    let path = db.path.clone();
    let conn = open(&path).unwrap();
    conn.execute_batch(
        "INSERT INTO rooms (id, game, snapshot) VALUES ('ok', 'buckshot', '{}'), ('gap', 'buckshot', '{}');
         INSERT INTO moves (room_id, idx, entry) VALUES ('ok', 0, 'a'), ('gap', 0, 'x'), ('gap', 2, 'z'), ('ok', 1, 'b');",
    )
    .unwrap();
    let rooms = load_rooms(&conn, None).unwrap();
    assert_eq!((rooms[0].moves.clone(), rooms[0].damaged.clone()), (vec!["a".to_string(), "b".into()], None));
    assert!(rooms[1].damaged.as_deref().unwrap().contains("move 2"));
}

#[tokio::test]
async fn chat_lines_are_appended_kept_to_the_last_hundred_and_deleted_with_the_room() {
    let db = TempDb::new("chat");
    let path = db.path.clone();
    {
        let s = Store::open(&path).unwrap();
        s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
        s.save_room("r2", "buckshot", "{}".into()).await.unwrap();
        for i in 0..(CHAT_KEPT + 5) {
            s.append_chat("r1", format!("{{\"n\":{i}}}")).await.unwrap();
        }
        s.append_chat("r2", "{}".into()).await.unwrap();
        s.delete_room("r2").await.unwrap();
    }
    let conn = open(&path).unwrap();
    let rooms = load_rooms(&conn, None).unwrap();
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].chat.len(), CHAT_KEPT);
    assert_eq!(rooms[0].chat[0], "{\"n\":5}");
    let rows: i64 = conn.query_row("SELECT count(*) FROM chat", [], |r| r.get(0)).unwrap();
    assert_eq!(rows, CHAT_KEPT as i64, "old lines and a deleted room's lines are gone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exclusive_store_keeps_its_file_and_folds_the_wal_back_when_quiet() {
    let db = TempDb::new("exclusive");
    let path = db.path.clone();
    let s = Store::open_exclusive(&path).unwrap();
    s.save_room("r1", "buckshot", "{}".into()).await.unwrap();
    for i in 0..50 {
        s.append_move("r1", i, format!("\"m{i}\"")).await.unwrap();
    }
    // The moves are in the WAL, not yet in the database file.
    let in_file = || std::fs::read(&path).unwrap().windows(5).any(|w| w == b"\"m49\"");
    assert!(!in_file(), "written straight to the database file");
    // A second server is refused at once, and told why.
    match Store::open_exclusive(&path) {
        Err(e @ StoreError::InUse(_)) => assert!(e.to_string().contains("in use by a running server"), "{e}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("two stores hold one file"),
    }
    // A reader (the CLI's `matches`) too, after its busy wait.
    assert!(matches!(Store::open(&path), Err(StoreError::InUse(_))));
    // A quiet moment (the reader's wait was one) folds the WAL into the database file.
    let mut folded = in_file();
    for _ in 0..20 {
        if folded {
            break;
        }
        tokio::time::sleep(CHECKPOINT_EVERY).await;
        folded = in_file();
    }
    assert!(folded, "no checkpoint: the last move never reached the database file");
    drop(s);
    // Closed, the file is free again (the store's thread lets go as it ends).
    let mut reopened = None;
    for _ in 0..100 {
        match Store::open(&path) {
            Ok(s) => {
                reopened = Some(s);
                break;
            }
            Err(StoreError::InUse(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => panic!("{e}"),
        }
    }
    let rooms = reopened.expect("the file is free once the store closes").load_rooms().await.unwrap();
    assert_eq!(rooms[0].moves.len(), 50);
}

#[test]
fn version_2_snapshots_move_their_chat_to_the_chat_table() {
    let db = TempDb::new("v2chat");
    let path = db.path.clone();
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 2).unwrap();
        conn.execute_batch(
            r#"INSERT INTO rooms (id, game, snapshot) VALUES ('r1', 'buckshot', '{"host":"a","chat":[{"message":"hi"},{"message":"yo"}]}');"#,
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    let room = &load_rooms(&conn, None).unwrap()[0];
    assert_eq!(room.chat, [r#"{"message":"hi"}"#, r#"{"message":"yo"}"#]);
    assert_eq!(room.snapshot, r#"{"host":"a"}"#);
}

#[test]
fn version_1_databases_migrate() {
    let db = TempDb::new("v1");
    let path = db.path.clone();
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 1).unwrap();
        conn.execute_batch(
            "INSERT INTO rooms (id, game, snapshot) VALUES ('r1', 'buckshot', '{}');
             INSERT INTO room_moves (room_id, idx, entry) VALUES ('r1', 1, 'b'), ('r1', 0, 'a');",
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    assert_eq!(load_rooms(&conn, None).unwrap()[0].moves, ["a", "b"]);
}

/// A database of the previous schema (6, before accounts) upgrades in place: its matches are
/// read back (with no people), and accounts and a match's people can be stored.
#[tokio::test]
async fn version_6_databases_gain_accounts() {
    let db = TempDb::new("v6");
    let path = db.path.clone();
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 6).unwrap();
        conn.execute_batch(
            "INSERT INTO matches (room_id, game, seed, config, players, log, result, started_at, ended_at, match_no)
             VALUES ('r1', 'buckshot', 7, '{}', '[\"a\"]', '[]', '{}', 1, 2, 0);",
        )
        .unwrap();
    }
    let s = Store::open(&path).unwrap();
    let old = s.get_match(1).await.unwrap().expect("the old match");
    assert_eq!((old.seed, old.people.len()), (7, 0));
    let a = s.create_account("Nia", "nia", false, None, 5).await.unwrap().unwrap();
    let people = vec![crate::accounts::SeatPerson { seat: 0, account: a.id, won: true }];
    let id = s.finish_match(MatchRecord { id: 0, room_id: "r2".into(), people: people.clone(), ..old }).await.unwrap();
    assert_eq!(s.get_match(id).await.unwrap().unwrap().people, people);
    assert_eq!(s.account_matches(a.id, 10).await.unwrap().len(), 1);
    drop(s);
    let conn = Connection::open(&path).unwrap();
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

/// A closure job runs after the writes handed over before it: an account call made after a
/// finished match (awaited) sees it, and batches sent meanwhile still commit.
#[tokio::test]
async fn accounts_calls_and_batches_keep_their_order() {
    let s = Store::memory().unwrap();
    let a = s.create_account("Oz", "oz", true, None, 1).await.unwrap().unwrap();
    let mut tasks = Vec::new();
    for i in 0..20 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let room = format!("r{i}");
            s.save_room(&room, "buckshot", "{}".into()).await.unwrap();
            let people = vec![crate::accounts::SeatPerson { seat: 0, account: a.id, won: i % 2 == 0 }];
            let record = MatchRecord { room_id: room, game: "buckshot".into(), people, ..MatchRecord::default() };
            s.finish_match(record).await.unwrap();
            s.account_matches(a.id, 100).await.unwrap().len()
        }));
    }
    for t in tasks {
        assert!(t.await.unwrap() >= 1, "its own match is seen");
    }
    let stats = s.account_stats(a.id).await.unwrap();
    assert_eq!((stats[0].played, stats[0].won), (20, 10));
}
