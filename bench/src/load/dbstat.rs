//! What the database did in a window: the server's writer commits and the appends in them (from
//! its `/metrics`: `warroom_append_batch_size` counts one observation per writer transaction,
//! its sum the appends), and on PostgreSQL every commit of the run's database, the rows it
//! inserted and updated (`pg_stat_database`, which backends publish at most once a second, so
//! the window's edges are blurred by about that) and the CPU of its backends (`/proc`, the
//! processes whose title names the database).

use std::net::SocketAddr;

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Row};

use warroom_testkit::Http;

/// Where to read the counters.
#[derive(Clone, Debug)]
pub struct DbProbe {
    /// The server (for `/metrics`).
    pub addr: SocketAddr,
    /// PostgreSQL: how to reach the server as the database's creator, and the run's database name.
    pub postgres: Option<(PgConnectOptions, String)>,
}

/// One reading.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DbSample {
    /// Writer transactions so far.
    pub writer_commits: f64,
    /// Appends in them.
    pub appends: f64,
    /// PostgreSQL: commits of the database, rows inserted, rows updated, backends' CPU seconds.
    pub postgres: Option<(f64, f64, f64, f64)>,
}

impl DbProbe {
    /// Reads the counters now (`None` when the server's metrics cannot be read).
    pub async fn sample(&self) -> Option<DbSample> {
        let http = Http { addr: self.addr };
        let answer = http.request("GET", "/metrics", None, None).await.ok()?;
        let text = answer.body.as_str()?;
        let metric = |name: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
                .and_then(|value| value.trim().parse::<f64>().ok())
        };
        let mut sample = DbSample {
            writer_commits: metric("warroom_append_batch_size_count")?,
            appends: metric("warroom_append_batch_size_sum")?,
            postgres: None,
        };
        if let Some((admin, name)) = &self.postgres {
            sample.postgres = postgres(admin, name).await;
        }
        Some(sample)
    }
}

async fn postgres(admin: &PgConnectOptions, name: &str) -> Option<(f64, f64, f64, f64)> {
    let mut connection = PgConnection::connect_with(admin).await.ok()?;
    let row = sqlx::query(
        "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = $1",
    )
    .bind(name)
    .fetch_one(&mut connection)
    .await
    .ok()?;
    let _ = connection.close().await;
    let get = |i: usize| row.try_get::<i64, _>(i).ok().map(|v| v as f64);
    Some((get(0)?, get(1)?, get(2)?, backends_cpu(name)))
}

/// CPU seconds of the PostgreSQL backends serving database `name` (their process title is
/// `postgres: <user> <database> <client> <state>`).
fn backends_cpu(name: &str) -> f64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    let needle = format!(" {name} ");
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmd| String::from_utf8_lossy(&cmd).contains(&needle))
        })
        .filter_map(|pid| super::procstat::sample(pid).map(|s| s.cpu_seconds))
        .sum()
}

/// The window's figures from two readings and the actions accepted in it.
pub fn summary(
    before: Option<DbSample>,
    after: Option<DbSample>,
    seconds: f64,
    accepted: u64,
) -> serde_json::Value {
    let (Some(before), Some(after)) = (before, after) else {
        return serde_json::Value::Null;
    };
    let commits = after.writer_commits - before.writer_commits;
    let appends = after.appends - before.appends;
    let round = |v: f64, digits: i32| {
        let scale = 10f64.powi(digits);
        (v * scale).round() / scale
    };
    let mut value = serde_json::json!({
        "writer_commits_per_s": round(commits / seconds.max(1e-9), 1),
        "appends_per_writer_commit": (commits > 0.0).then(|| round(appends / commits, 2)),
    });
    if let (Some(b), Some(a)) = (before.postgres, after.postgres) {
        let all = a.0 - b.0;
        value["db_commits_per_s"] = round(all / seconds.max(1e-9), 1).into();
        value["db_rows_inserted_per_commit"] =
            (all > 0.0).then(|| round((a.1 - b.1) / all, 2)).into();
        value["db_rows_updated_per_commit"] =
            (all > 0.0).then(|| round((a.2 - b.2) / all, 2)).into();
        value["db_backends_cpu_us_per_action"] = (accepted > 0)
            .then(|| round((a.3 - b.3) * 1e6 / accepted as f64, 1))
            .into();
    }
    value
}
