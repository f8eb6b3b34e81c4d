//! A fresh database per test: a SQLite file in a new temporary folder, or a uniquely named
//! PostgreSQL database created on the server named by `WARROOM_TEST_POSTGRES_URL` (so tests run
//! in parallel without seeing each other's rows).

use std::path::PathBuf;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

/// Where a test's database lives.
#[derive(Clone, Debug)]
pub struct TestDb {
    /// The URL the server connects to.
    pub url: String,
    /// For SQLite: the folder to delete afterwards.
    folder: Option<PathBuf>,
    /// For PostgreSQL: the admin URL and the database to drop afterwards.
    postgres: Option<(String, String)>,
}

impl TestDb {
    /// A new SQLite file.
    pub fn sqlite() -> TestDb {
        let folder = std::env::temp_dir().join(format!("warroom-test-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&folder).expect("temporary folder");
        TestDb {
            url: format!("sqlite://{}?mode=rwc", folder.join("warroom.db").display()),
            folder: Some(folder),
            postgres: None,
        }
    }

    /// A new PostgreSQL database on the server `WARROOM_TEST_POSTGRES_URL` names. Panics when
    /// the variable is unset or the server cannot be reached: a test that runs never skips (the
    /// tests that need it are ignored unless it is set, see server/build.rs).
    pub async fn postgres() -> TestDb {
        let admin_url = std::env::var("WARROOM_TEST_POSTGRES_URL")
            .ok()
            .filter(|url| !url.is_empty())
            .expect("WARROOM_TEST_POSTGRES_URL names the PostgreSQL server this test needs");
        let name = format!("warroom_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|error| {
                panic!("WARROOM_TEST_POSTGRES_URL is set but unreachable: {error}")
            });
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .expect("create the test database");
        admin.close().await.ok();
        TestDb {
            url: with_database(&admin_url, &name),
            folder: None,
            postgres: Some((admin_url, name)),
        }
    }

    /// Deletes the database (best effort).
    pub async fn cleanup(&self) {
        if let Some(folder) = &self.folder {
            let _ = std::fs::remove_dir_all(folder);
        }
        if let Some((admin_url, name)) = &self.postgres
            && let Ok(mut admin) = PgConnection::connect(admin_url).await
        {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut admin)
                .await;
        }
    }
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let root = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    format!("{root}/{name}{query}")
}
