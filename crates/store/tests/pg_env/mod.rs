//! Where the PostgreSQL tests find their server (shared by this crate's test files).

/// The URL of the tests' PostgreSQL, or `None` when the developer opted out with
/// `CARDTABLE_SKIP_PG=1`. Unset without the opt-out, the test fails and says how to run it.
pub fn pg_url() -> Option<String> {
    match std::env::var("CARDTABLE_TEST_PG") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CARDTABLE_SKIP_PG").as_deref() == Ok("1") => {
            eprintln!("CARDTABLE_SKIP_PG=1: this PostgreSQL test is skipped");
            None
        }
        _ => panic!(
            "the PostgreSQL tests need a server: run `scripts/test.sh` (it starts one), or \
             `source scripts/pg.sh` in your shell first (it starts a throwaway PostgreSQL 15 and \
             exports CARDTABLE_TEST_PG), or point CARDTABLE_TEST_PG at a database of your own \
             (postgres://user@host/db; the tests make and drop schemas in it). To skip them, \
             set CARDTABLE_SKIP_PG=1."
        ),
    }
}

/// `url` with its connections' search_path set to `schema` (a test's own tables).
pub fn in_schema(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-c%20search_path%3D{schema}")
}

/// Makes `schema` afresh (dropping what an earlier run left) and answers a URL into it.
pub async fn fresh_schema(url: &str, schema: &str) -> String {
    let (client, conn) =
        tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect to CARDTABLE_TEST_PG");
    tokio::spawn(conn);
    client
        .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};"))
        .await
        .expect("make the test's schema");
    in_schema(url, schema)
}

/// Runs `sql` on `url` (outside any store: what another node, or an operator, would do).
#[allow(dead_code)] // not every test file that includes this module uses it
pub async fn exec(url: &str, sql: &str) {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
    tokio::spawn(conn);
    client.batch_execute(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
}
