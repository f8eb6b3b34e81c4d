//! Starting the process under test: the `warroom` server over a fresh database (a SQLite file in
//! a temporary folder, or a new PostgreSQL database), or the echo server. Each is a child
//! process on a free loopback port, found from the `listening on` line it prints; it is stopped
//! (SIGTERM via `kill`, then waited for) and its database removed when dropped.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use sqlx::Connection;
use sqlx::postgres::PgConnection;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Which database the server gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Database {
    /// A SQLite file in a new temporary folder.
    Sqlite,
    /// A new database on the PostgreSQL server of `--postgres-url`.
    Postgres,
}

/// A fresh database, removed on [`FreshDb::remove`].
#[derive(Debug)]
pub struct FreshDb {
    /// What the server connects to.
    pub url: String,
    folder: Option<PathBuf>,
    postgres: Option<(String, String)>,
}

impl FreshDb {
    /// Creates one.
    pub async fn create(kind: Database, postgres_url: &str) -> anyhow::Result<FreshDb> {
        let tag = uuid::Uuid::new_v4().simple().to_string();
        match kind {
            Database::Sqlite => {
                let folder = std::env::temp_dir().join(format!("warroom-load-{tag}"));
                std::fs::create_dir_all(&folder)?;
                Ok(FreshDb {
                    url: format!("sqlite://{}?mode=rwc", folder.join("warroom.db").display()),
                    folder: Some(folder),
                    postgres: None,
                })
            }
            Database::Postgres => {
                let name = format!("warroom_load_{tag}");
                let mut admin = PgConnection::connect(postgres_url)
                    .await
                    .with_context(|| format!("connecting to {postgres_url}"))?;
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .await?;
                admin.close().await?;
                Ok(FreshDb {
                    url: with_database(postgres_url, &name),
                    folder: None,
                    postgres: Some((postgres_url.to_owned(), name)),
                })
            }
        }
    }

    /// PostgreSQL: the admin URL and the database's name.
    pub fn postgres(&self) -> Option<(String, String)> {
        self.postgres.clone()
    }

    /// Deletes it (best effort; the server must be stopped first).
    pub async fn remove(&self) {
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

/// A child process serving on loopback.
#[derive(Debug)]
pub struct Served {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its process id (for `/proc`).
    pub pid: u32,
    child: Child,
}

impl Served {
    /// Starts `program args…` and waits (up to 60 s: migrations run first) for its
    /// `… listening on <scheme>://<addr>` line on stdout. Its stderr goes to `log`.
    pub async fn start(
        program: &Path,
        args: &[String],
        env: &[(String, String)],
        log: &Path,
    ) -> anyhow::Result<Served> {
        let log_file = std::fs::File::create(log)
            .with_context(|| format!("creating the server log {}", log.display()))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log_file))
            .kill_on_drop(true);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command
            .spawn()
            .with_context(|| format!("starting {}", program.display()))?;
        let pid = child.id().context("the child has a pid")?;
        let stdout = child.stdout.take().context("piped stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let addr = tokio::time::timeout(Duration::from_secs(60), async {
            while let Some(line) = lines.next_line().await? {
                if let Some((_, url)) = line.split_once("listening on ") {
                    let addr = url.split("://").nth(1).unwrap_or(url).trim_end_matches('/');
                    return addr.parse::<SocketAddr>().context("the listening address");
                }
            }
            bail!(
                "{} exited before listening (see {})",
                program.display(),
                log.display()
            )
        })
        .await
        .context("the server did not start listening within 60 s")??;
        // Keep draining stdout so the child never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(Served { addr, pid, child })
    }

    /// Stops it gracefully (SIGTERM), killing it after 20 s.
    pub async fn stop(mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.pid.to_string())
            .status()
            .await;
        if tokio::time::timeout(Duration::from_secs(20), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_name_is_replaced() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "x"),
            "postgres://postgres@127.0.0.1:5432/x"
        );
        assert_eq!(
            with_database("postgres://u@h:1?sslmode=disable", "x"),
            "postgres://u@h:1/x?sslmode=disable"
        );
    }
}
