//! Ratings (issue 43) in both backends: every test runs against SQLite and against PostgreSQL
//! (`CARDTABLE_TEST_PG`; see `pg_env` for how to get one, or opt out).

mod pg_env;

use rating::Rating;
use store::ratings::{LEADERBOARD_MIN_GAMES, RatedMatch, RatedSeat, Scoring};
use store::{Store, StoreError};

/// A test's own database: a SQLite file in a directory of its own, or a PostgreSQL schema.
enum Db {
    Sqlite(std::path::PathBuf),
    Pg(String),
}

impl Db {
    fn sqlite(name: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("cardtable-ratings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Db::Sqlite(dir)
    }

    async fn pg(name: &str) -> Option<Db> {
        let url = pg_env::pg_url()?;
        Some(Db::Pg(pg_env::fresh_schema(&url, &format!("rate_{name}")).await))
    }

    async fn open(&self) -> Store {
        match self {
            Db::Sqlite(dir) => Store::open(&dir.join("t.db")).unwrap(),
            Db::Pg(url) => Store::connect(url).await.unwrap(),
        }
    }

    /// A second handle on the same database (on PostgreSQL its own pool, as another node's).
    async fn open_again(&self, store: &Store) -> Store {
        match self {
            Db::Sqlite(_) => store.clone(),
            Db::Pg(url) => Store::connect(url).await.unwrap(),
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Db::Sqlite(dir) = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = super::Db::sqlite(stringify!($name));
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
    a_match_against_a_bot_rates_the_person_once,
    people_rate_each_other_by_place_and_history_is_kept,
    the_leaderboard_lists_established_people_only,
    leaves_bring_a_growing_cooldown,
    the_same_match_rated_from_two_handles_at_once_counts_once,
);

const T0: u64 = 1_800_000_000_000;

async fn person(s: &Store, name: &str, guest: bool) -> i64 {
    s.create_account(name, &name.to_lowercase(), guest, None, T0).await.unwrap().unwrap().id
}

fn hard() -> Rating {
    rating::bot("sorcery", "hard").unwrap()
}

fn vs_bot(account: i64, won: bool, left: bool) -> RatedMatch {
    RatedMatch {
        game: "sorcery".into(),
        seats: vec![RatedSeat::Person { account, left }, RatedSeat::Bot(hard())],
        scoring: Scoring::Places(if won { vec![1, 2] } else { vec![2, 1] }),
    }
}

/// A win against `hard` raises a newcomer's rating as Glicko-2 says; rating the same match id
/// again (a retried end, a failed-over room) changes nothing and answers `None`.
async fn a_match_against_a_bot_rates_the_person_once(db: &Db) {
    let s = db.open().await;
    let a = person(&s, "Ada", true).await;
    assert!(s.ratings(a).await.unwrap().is_empty(), "no rating before a rated match");
    let changes = s.rate_match(1, &vs_bot(a, true, false), T0).await.unwrap().expect("rated");
    let want = rating::update(Rating::NEW, &[(hard(), 1.0)], rating::TAU);
    assert_eq!(changes.len(), 1);
    assert_eq!((changes[0].account, changes[0].before, changes[0].after), (a, Rating::NEW, want));
    assert_eq!(s.rate_match(1, &vs_bot(a, false, true), T0 + 5).await.unwrap(), None, "rated once");
    let stored = s.ratings(a).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!((stored[0].game.as_str(), stored[0].games, stored[0].updated), ("sorcery", 1, T0));
    assert_eq!(stored[0].rating(), want);
    let history = s.rating_history(a, "sorcery", 50).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!((history[0].match_id, history[0].r, history[0].left), (1, want.r, false));
    assert_eq!(s.game_ratings("sorcery", &[a, 999]).await.unwrap(), stored);
    assert!(s.game_ratings("ivanhoe", &[a]).await.unwrap().is_empty());
}

/// Three people finishing 1st, 2nd, 3rd: the winner rises, the last falls; each one's history
/// lists its matches oldest first, limited to the newest.
async fn people_rate_each_other_by_place_and_history_is_kept(db: &Db) {
    let s = db.open().await;
    let ids = [person(&s, "Bo", false).await, person(&s, "Cy", false).await, person(&s, "Di", true).await];
    for (k, match_id) in (10..13).enumerate() {
        let m = RatedMatch {
            game: "ivanhoe".into(),
            seats: ids.iter().map(|&account| RatedSeat::Person { account, left: false }).collect(),
            scoring: Scoring::Places(vec![1, 2, 3]),
        };
        s.rate_match(match_id, &m, T0 + k as u64 * 1000).await.unwrap().expect("rated");
    }
    let r = |id| {
        let s = s.clone();
        async move { s.game_ratings("ivanhoe", &[id]).await.unwrap()[0].clone() }
    };
    let (first, second, third) = (r(ids[0]).await, r(ids[1]).await, r(ids[2]).await);
    assert!(first.r > second.r && second.r > third.r, "{first:?} {second:?} {third:?}");
    assert!((second.r - 1500.0).abs() < 1.0, "the middle one beat one and lost to one: {second:?}");
    assert_eq!(first.games, 3);
    let history = s.rating_history(ids[0], "ivanhoe", 2).await.unwrap();
    assert_eq!(history.iter().map(|h| h.match_id).collect::<Vec<_>>(), vec![11, 12]);
    assert!(history[0].r < history[1].r && history[1].at == T0 + 2000);
}

/// Only people with RD at most 110 and at least 10 rated games are listed, best first, deleted
/// accounts left out.
async fn the_leaderboard_lists_established_people_only(db: &Db) {
    let s = db.open().await;
    let strong = person(&s, "Eve", false).await;
    let weak = person(&s, "Fay", true).await;
    let few = person(&s, "Gus", false).await;
    let gone = person(&s, "Hal", false).await;
    let mut id = 100;
    // Mixed results (two wins in three, one in three): a person who only wins moves far and
    // learns little per game, so its deviation would fall slower.
    for k in 0..LEADERBOARD_MIN_GAMES + 10 {
        for (who, won) in [(strong, k % 3 != 0), (weak, k % 3 == 0), (gone, k % 3 != 0)] {
            s.rate_match(id, &vs_bot(who, won, false), T0).await.unwrap();
            id += 1;
        }
    }
    for _ in 0..3 {
        s.rate_match(id, &vs_bot(few, true, false), T0).await.unwrap();
        id += 1;
    }
    s.delete_account(gone, T0, T0).await.unwrap();
    let board = s.leaderboard("sorcery").await.unwrap();
    let names: Vec<&str> = board.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, vec!["Eve", "Fay"], "{board:?}");
    assert!(board[0].r > board[1].r && board.iter().all(|b| b.rd <= rating::PROVISIONAL_RD));
    assert!(board[1].guest && !board[0].guest);
    assert!(s.leaderboard("buckshot").await.unwrap().is_empty());
}

/// Leaves of rated matches in the last 24 hours bring a cooldown from the second on, doubling;
/// older leaves do not count.
async fn leaves_bring_a_growing_cooldown(db: &Db) {
    let s = db.open().await;
    let a = person(&s, "Ivy", false).await;
    let day = rating::LEAVE_WINDOW_SECS as u64 * 1000;
    s.rate_match(1, &vs_bot(a, false, true), T0).await.unwrap();
    s.rate_match(2, &vs_bot(a, true, false), T0 + day + 10).await.unwrap();
    let now = T0 + day + 20;
    assert_eq!(s.leave_penalty(a, now).await.unwrap().leaves, 0, "a day-old leave is forgotten");
    s.rate_match(3, &vs_bot(a, false, true), now).await.unwrap();
    let one = s.leave_penalty(a, now).await.unwrap();
    assert_eq!((one.leaves, one.waiting(now)), (1, false));
    s.rate_match(4, &vs_bot(a, false, true), now + 1000).await.unwrap();
    let two = s.leave_penalty(a, now + 1000).await.unwrap();
    assert_eq!((two.leaves, two.until), (2, now + 1000 + 120_000));
    s.rate_match(5, &vs_bot(a, false, true), now + 2000).await.unwrap();
    let three = s.leave_penalty(a, now + 2000).await.unwrap();
    assert_eq!((three.leaves, three.until), (3, now + 2000 + 240_000));
    assert!(three.waiting(now + 200_000));
}

/// Two handles (on PostgreSQL, two nodes) rating the same match at once: one rates it, the
/// other answers `None`, and the rating moved once.
async fn the_same_match_rated_from_two_handles_at_once_counts_once(db: &Db) {
    let s1 = db.open().await;
    let s2 = db.open_again(&s1).await;
    let a = person(&s1, "Jo", false).await;
    let m = vs_bot(a, true, false);
    let (x, y) = tokio::join!(s1.rate_match(77, &m, T0), s2.rate_match(77, &m, T0));
    let rated: Vec<Result<_, StoreError>> = vec![x, y];
    let done = rated.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
    assert_eq!(done, 1, "{rated:?}");
    let stored = s1.ratings(a).await.unwrap();
    assert_eq!(stored[0].games, 1);
    assert_eq!(s1.rating_history(a, "sorcery", 10).await.unwrap().len(), 1);
}
