//! Storage: one sqlx pool over PostgreSQL or SQLite (the `Any` driver, runtime-checked queries
//! written once for both), the migrations of the chosen backend, and the records the server keeps.
//!
//! Queries use `$N` placeholders, which both backends accept. The schemas differ in types only
//! (PostgreSQL: `uuid`, `jsonb`, `timestamptz`, `boolean`; SQLite: TEXT and BIGINT), and
//! [`Dialect`] writes the casts at the few places a query crosses such a column, so every query
//! binds and decodes the same Rust types on both.

mod chat;
mod dialect;
pub mod fenced;
mod identities;
pub mod leases;
mod matches;
mod players;
pub mod presence;
mod queries;
pub mod quick_play;
pub mod rate_buckets;
pub mod ratings;
mod rooms;
pub mod writer;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::AnyPool;
use sqlx::any::{AnyPoolOptions, AnyRow};

use crate::ratings::RatingPolicy;

pub use dialect::{Dialect, SqlType};
pub use identities::{IdentityRecord, is_unique_violation};
pub use players::{PlayerMatchQuery, PlayerMatchRows, result_for};
pub use queries::{LobbyQuery, MatchFilter};
pub use warroom_room::{ActionRecord, MatchRecord, RoomRecord, rfc3339};

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    /// Shared by the REST handlers, the rooms and the batching writer.
    pool: AnyPool,
    /// Which database it is, for the SQL that differs.
    dialect: Dialect,
    /// The ratings' abuse rules, applied by the writer when it stores a rated result.
    rating_policy: RatingPolicy,
}

/// What PostgreSQL enforces on each connection of a cluster node's pool (docs/SCALING.md), so
/// that a node frozen or cut off in the middle of a transaction cannot hold its locks for ever:
/// the lease rows an append locks (`FOR SHARE`) would otherwise keep every other node from
/// taking its rooms over, lease expired or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionLimits {
    /// `idle_in_transaction_session_timeout`: the database ends a session whose transaction sat
    /// idle (its client frozen between two statements) this long, rolling it back and releasing
    /// its locks. Nothing the server does waits between the statements of a transaction.
    pub idle_in_transaction: Duration,
    /// `statement_timeout`: the longest any one statement may run (the queries of a node take
    /// milliseconds; this only bounds a runaway). Migrations run on a connection without it.
    pub statement: Duration,
}

impl SessionLimits {
    /// The limits of a node whose leases last `lease`: a frozen node's transaction is ended
    /// once its leases have expired (at least a second after it went idle), and a statement
    /// may take 30 s or two leases, whichever is longer.
    pub fn for_lease(lease: Duration) -> SessionLimits {
        SessionLimits {
            idle_in_transaction: lease.max(Duration::from_secs(1)),
            statement: (lease * 2).max(Duration::from_secs(30)),
        }
    }

    /// The `SET` statements that apply them to a session.
    fn statements(self) -> [String; 2] {
        [
            format!(
                "SET idle_in_transaction_session_timeout = {}",
                self.idle_in_transaction.as_millis()
            ),
            format!("SET statement_timeout = {}", self.statement.as_millis()),
        ]
    }
}

/// How long a connection may have been idle in the pool before it is pinged again on its way
/// out ([`Store::connect_with`]).
const PING_IDLE_AFTER: Duration = Duration::from_secs(1);

impl Store {
    /// Connects to `url` (`postgres://…` or `sqlite://…`) and runs the backend's migrations;
    /// later, a connection not handed out within `timeout` is an error (`unavailable`).
    pub async fn connect(url: &str, timeout: Duration) -> anyhow::Result<Store> {
        Store::connect_with(url, timeout, None).await
    }

    /// [`Store::connect`], with `limits` set on every connection of the pool (PostgreSQL; cluster
    /// nodes, [`SessionLimits`]).
    pub async fn connect_with(
        url: &str,
        timeout: Duration,
        limits: Option<SessionLimits>,
    ) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let dialect = Dialect::of_url(url);
        let sqlite = dialect == Dialect::Sqlite;
        if !sqlite {
            // On a connection of their own, before the pool: a migration that rewrites every row
            // may run longer than the pool's statement timeout.
            let migrating = AnyPoolOptions::new()
                .max_connections(1)
                .acquire_timeout(timeout)
                .connect(url)
                .await?;
            sqlx::migrate!("../migrations/postgres")
                .run(&migrating)
                .await?;
            migrating.close().await;
        }
        let mut options = AnyPoolOptions::new()
            // PostgreSQL: 8 for the REST handlers and the rooms' own writes, and as many again
            // for the writer's lanes (`--writer-lanes`, 4 by default).
            .max_connections(if sqlite { 4 } else { 16 })
            .acquire_timeout(timeout)
            // sqlx pings every connection it hands out, on top of the ping with which it takes
            // each one back: a third round trip for every statement. A connection back for
            // under a second passed that second ping; only one idle longer is pinged first.
            .test_before_acquire(false)
            .before_acquire(|connection, meta| {
                Box::pin(async move {
                    if meta.idle_for >= PING_IDLE_AFTER {
                        sqlx::Connection::ping(connection).await?;
                    }
                    Ok(true)
                })
            });
        if let (Some(limits), false) = (limits, sqlite) {
            options = options.after_connect(move |connection, _| {
                Box::pin(async move {
                    for set in limits.statements() {
                        sqlx::query(&set).execute(&mut *connection).await?;
                    }
                    Ok(())
                })
            });
        }
        let pool = options.connect(url).await?;
        if sqlite {
            // WAL lets readers run beside the writer; it is a property of the file, set once.
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await?;
            sqlx::migrate!("../migrations/sqlite").run(&pool).await?;
        }
        let store = Store {
            pool,
            dialect,
            rating_policy: RatingPolicy::default(),
        };
        let renamed = store.key_unkeyed_names().await?;
        if renamed > 0 {
            tracing::warn!("{renamed} identities shared a name and were given a suffix");
        }
        Ok(store)
    }

    /// A run-time setting as one of the pool's connections has it (PostgreSQL's
    /// `current_setting`, e.g. `idle_in_transaction_session_timeout`): what an operator, or a
    /// test, checks the connections run with.
    pub async fn setting(&self, name: &str) -> sqlx::Result<String> {
        sqlx::query_scalar("SELECT current_setting($1)")
            .bind(name)
            .fetch_one(&self.pool)
            .await
    }

    /// A store over a database never connected to (for room loop tests that store nothing
    /// through it: a started room's actions go through the writer).
    #[cfg(test)]
    pub fn unconnected() -> Store {
        sqlx::any::install_default_drivers();
        let pool = AnyPoolOptions::new()
            .connect_lazy("sqlite::memory:")
            .expect("a lazy pool");
        Store {
            pool,
            dialect: Dialect::Sqlite,
            rating_policy: RatingPolicy::default(),
        }
    }

    /// This store with the server's ratings settings (`--rated-min-matches`,
    /// `--rated-new-identity-window`).
    pub fn with_rating_policy(mut self, policy: RatingPolicy) -> Store {
        self.rating_policy = policy;
        self
    }

    /// The ratings settings.
    pub fn rating_policy(&self) -> &RatingPolicy {
        &self.rating_policy
    }

    /// The pool, for the writer.
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Which database it is.
    pub(crate) fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether the database answers a trivial query within `timeout`.
    pub async fn ping(&self, timeout: Duration) -> Result<(), String> {
        match tokio::time::timeout(timeout, sqlx::query("SELECT 1").execute(&self.pool)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err(format!("no answer within {timeout:?}")),
        }
    }

    /// Closes every connection (after the writer has flushed).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// The row of `from` (a table, with its alias) whose `id` (a uuid column) is `id`: its
    /// `columns`. Every lookup of a record by its id is this one query.
    async fn row_by_id(
        &self,
        columns: &str,
        from: &str,
        id_column: &str,
        id: impl ToString,
    ) -> sqlx::Result<Option<AnyRow>> {
        sqlx::query(&format!(
            "SELECT {columns} FROM {from} WHERE {id_column} = {}",
            self.dialect.uuid(1)
        ))
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await
    }
}

/// Now, in Unix milliseconds (how the database stores times).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
