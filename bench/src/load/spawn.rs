//! Starting the process under test: the `warroom` server over a fresh database (a SQLite file in
//! a temporary folder, or a new PostgreSQL database), or the echo server. Each is a child
//! process on a free loopback port, found from the `listening on` line it prints; it is stopped
//! with SIGTERM via `kill`, then waited for (or killed when dropped), and its database removed
//! afterwards.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use warroom_testkit::FreshDb;

/// Which database the server gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Database {
    /// A SQLite file in a new temporary folder.
    Sqlite,
    /// A new database on the PostgreSQL server of `--postgres-url`.
    Postgres,
}

/// A fresh database of `kind` (warroom-testkit's, which the end-to-end tests use too), on the
/// PostgreSQL server of `postgres_url` for [`Database::Postgres`].
pub async fn fresh_db(kind: Database, postgres_url: &str) -> anyhow::Result<FreshDb> {
    match kind {
        Database::Sqlite => FreshDb::sqlite(),
        Database::Postgres => FreshDb::postgres(postgres_url).await,
    }
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
