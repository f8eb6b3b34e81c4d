//! Per-address creation allowances shared by a cluster's nodes (PostgreSQL,
//! `migrations/postgres/0012_rate_buckets.sql`): a token bucket per (what, address) taken from
//! in one statement, so two nodes behind one proxy grant one address its allowance once, not
//! once each (`per_ip.rs` decides when to use it).

use sqlx::Row;

use super::Store;

/// What a take found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Taken {
    /// True when a creation was allowed (and its token taken).
    pub allowed: bool,
    /// Tokens left after it.
    pub tokens: f64,
}

impl Store {
    /// Takes one token from the bucket of `key` in `scope`, which holds at most `burst` tokens
    /// and gains `burst` a minute.
    pub async fn take_rate_token(&self, scope: &str, key: &str, burst: f64) -> sqlx::Result<Taken> {
        // `b.*` in SET are the row's values before the statement; `now()` is one instant.
        let row = sqlx::query(
            "WITH rate AS (SELECT $3::float8 AS burst) \
             INSERT INTO rate_buckets AS b (scope, key, tokens, allowed, updated_at) \
             SELECT $1, $2, rate.burst - 1, rate.burst >= 1, now() FROM rate \
             ON CONFLICT (scope, key) DO UPDATE SET \
               allowed = LEAST($3::float8, b.tokens + EXTRACT(EPOCH FROM now() - b.updated_at)::float8 * $3::float8 / 60.0) >= 1, \
               tokens = LEAST($3::float8, b.tokens + EXTRACT(EPOCH FROM now() - b.updated_at)::float8 * $3::float8 / 60.0) \
                 - CASE WHEN LEAST($3::float8, b.tokens + EXTRACT(EPOCH FROM now() - b.updated_at)::float8 * $3::float8 / 60.0) >= 1 \
                   THEN 1 ELSE 0 END, \
               updated_at = now() \
             RETURNING allowed, tokens",
        )
        .bind(scope)
        .bind(key)
        .bind(burst)
        .fetch_one(self.pool())
        .await?;
        Ok(Taken {
            allowed: row.try_get("allowed")?,
            tokens: row.try_get("tokens")?,
        })
    }

    /// Deletes the buckets untouched for `idle_seconds` (full again long since).
    pub async fn prune_rate_buckets(&self, idle_seconds: i64) -> sqlx::Result<u64> {
        let done = sqlx::query(
            "DELETE FROM rate_buckets WHERE updated_at < now() - make_interval(secs => $1::float8)",
        )
        .bind(idle_seconds as f64)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected())
    }
}
