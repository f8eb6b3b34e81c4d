-- Per-address creation allowances shared by the nodes of a cluster (PostgreSQL only, used in
-- cluster mode only; a single server counts in memory): one token bucket per (what, address),
-- e.g. ('guests', '203.0.113.7'). `tokens` is what was left at `updated_at`; a take adds what
-- the rate gave back since then (capped at the burst), takes one if at least one is there, and
-- says in `allowed` whether it did, all in one statement (server/src/store/rate_buckets.rs).
CREATE TABLE rate_buckets (
    scope       text NOT NULL,
    key         text NOT NULL,
    tokens      double precision NOT NULL,
    allowed     boolean NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
);
-- Rows of addresses idle long enough to be full again are deleted now and then.
CREATE INDEX rate_buckets_by_age ON rate_buckets (updated_at);
