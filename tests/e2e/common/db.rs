//! A fresh database per test (warroom-testkit's `FreshDb`, which the load generator uses too):
//! a SQLite file in a new temporary folder, or a uniquely named PostgreSQL database on the
//! server `WARROOM_TEST_POSTGRES_URL` names, so tests run in parallel without seeing each
//! other's rows. `cleanup` removes it.

pub use warroom_testkit::FreshDb as TestDb;

/// The server's store over `db`, its migrations run.
pub async fn store(db: &TestDb) -> warroom_server::store::Store {
    let timeout = std::time::Duration::from_secs(10);
    warroom_server::store::Store::connect(&db.url, timeout)
        .await
        .expect("connect and migrate")
}

/// A new SQLite file.
pub fn sqlite() -> TestDb {
    TestDb::sqlite().expect("a temporary folder for the database")
}

/// A new PostgreSQL database on the server `WARROOM_TEST_POSTGRES_URL` names. Panics when
/// the variable is unset or the server cannot be reached: a test that runs never skips (the
/// tests that need it are ignored unless it is set, see server/build.rs).
pub async fn postgres() -> TestDb {
    let admin_url = std::env::var("WARROOM_TEST_POSTGRES_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .expect("WARROOM_TEST_POSTGRES_URL names the PostgreSQL server this test needs");
    TestDb::postgres(&admin_url)
        .await
        .unwrap_or_else(|error| panic!("WARROOM_TEST_POSTGRES_URL is set, but {error:#}"))
}
