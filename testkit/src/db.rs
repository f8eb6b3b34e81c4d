//! A fresh database per run, removed afterwards: a SQLite file in a new temporary folder, or a
//! uniquely named database created on a PostgreSQL server, so that runs in parallel never see
//! each other's rows. The PostgreSQL side goes through sqlx's `PgConnectOptions`: the new
//! database's URL is the server's with only its database replaced (`to_url_lossy` keeps the
//! user, password, host, port and TLS settings; it drops `application_name` and `options`).

use std::path::PathBuf;

use anyhow::Context;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{ConnectOptions, Connection};

/// A database made for one run.
#[derive(Clone, Debug)]
pub struct FreshDb {
    /// The URL a server connects to.
    pub url: String,
    /// SQLite: the folder holding the file.
    folder: Option<PathBuf>,
    /// PostgreSQL: how to reach the server as the role that created the database, and its name.
    postgres: Option<(PgConnectOptions, String)>,
}

impl FreshDb {
    /// A new SQLite file in a new temporary folder.
    pub fn sqlite() -> anyhow::Result<FreshDb> {
        let folder = std::env::temp_dir().join(format!("warroom-fresh-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("creating {}", folder.display()))?;
        Ok(FreshDb {
            url: format!("sqlite://{}?mode=rwc", folder.join("warroom.db").display()),
            folder: Some(folder),
            postgres: None,
        })
    }

    /// A new database on the PostgreSQL server `admin_url` names (its role needs `CREATEDB`).
    pub async fn postgres(admin_url: &str) -> anyhow::Result<FreshDb> {
        let admin: PgConnectOptions = admin_url
            .parse()
            .with_context(|| format!("a PostgreSQL URL: {admin_url}"))?;
        let name = format!("warroom_fresh_{}", uuid::Uuid::new_v4().simple());
        let mut connection = PgConnection::connect_with(&admin)
            .await
            .with_context(|| format!("connecting to {admin_url}"))?;
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut connection)
            .await
            .with_context(|| format!("creating database {name}"))?;
        connection.close().await?;
        let url = database_url(&admin, &name);
        Ok(FreshDb {
            url,
            folder: None,
            postgres: Some((admin, name)),
        })
    }

    /// PostgreSQL: how to reach the server as its creator, and the database's name.
    pub fn postgres_admin(&self) -> Option<(&PgConnectOptions, &str)> {
        let (admin, name) = self.postgres.as_ref()?;
        Some((admin, name))
    }

    /// PostgreSQL: how to connect to this database.
    pub fn postgres_options(&self) -> Option<PgConnectOptions> {
        let (admin, name) = self.postgres.as_ref()?;
        Some(admin.clone().database(name))
    }

    /// Removes it (best effort; whatever used it must be stopped first).
    pub async fn cleanup(&self) {
        if let Some(folder) = &self.folder {
            let _ = std::fs::remove_dir_all(folder);
        }
        if let Some((admin, name)) = &self.postgres
            && let Ok(mut connection) = PgConnection::connect_with(admin).await
        {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut connection)
                .await;
            let _ = connection.close().await;
        }
    }
}

/// The URL of database `name` on the server `admin` reaches.
fn database_url(admin: &PgConnectOptions, name: &str) -> String {
    admin.clone().database(name).to_url_lossy().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(url: &str) -> PgConnectOptions {
        url.parse().expect("a PostgreSQL URL")
    }

    #[test]
    fn a_fresh_databases_url_differs_from_the_servers_only_in_the_database() {
        let url = database_url(&options("postgres://postgres@127.0.0.1:5432/postgres"), "x");
        let fresh = options(&url);
        assert_eq!(fresh.get_database(), Some("x"), "{url}");
        assert_eq!(fresh.get_host(), "127.0.0.1", "{url}");
        assert_eq!(fresh.get_port(), 5432, "{url}");
        assert_eq!(fresh.get_username(), "postgres", "{url}");

        let url = database_url(&options("postgres://u:p%40ss@h:1?sslmode=disable"), "x");
        assert!(url.starts_with("postgres://u:p%40ss@h:1/x?"), "{url}");
        assert!(url.contains("sslmode=disable"), "{url}");
        assert_eq!(options(&url).get_database(), Some("x"), "{url}");
    }
}
