-- Ratings (issue 39, docs/RATINGS.md). Written by the batching writer in the transaction that
-- stores a rated match's result (server/src/store/ratings.rs), so a result moves ratings
-- exactly once.

-- SHA-256 (hex) of the address an identity was created from (IPv6: its /64), for the abuse
-- rule "a result against an identity created minutes earlier from the same address does not
-- count". NULL for identities older than this migration.
ALTER TABLE identities ADD COLUMN created_address text;

-- Each player's current rating per ruleset. `rating`, `deviation`, `volatility` are the
-- system's own numbers (Glicko-2: its 1500 scale; Weng-Lin: mu and sigma, volatility 0);
-- `shown` and `shown_deviation` are the display numbers (integers, one scale for every
-- ruleset), what the leaderboard orders by.
CREATE TABLE ratings (
    identity_id      uuid NOT NULL REFERENCES identities (id),
    ruleset          text NOT NULL,
    rating           double precision NOT NULL,
    deviation        double precision NOT NULL,
    volatility       double precision NOT NULL,
    shown            bigint NOT NULL,
    shown_deviation  bigint NOT NULL,
    provisional      boolean NOT NULL,
    matches          bigint NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (identity_id, ruleset)
);
-- The leaderboard's page: one ruleset's established (or provisional) players, best first,
-- ties by the lower deviation, read in index order with no sort (keyset or offset).
CREATE INDEX ratings_leaderboard
    ON ratings (ruleset, provisional, shown DESC, shown_deviation, identity_id);

-- One row per seat of each rated match whose result counted: the display rating before and
-- after, and the seat's place (1 = winner; equal places tied).
CREATE TABLE rating_changes (
    match_id     uuid NOT NULL REFERENCES matches (id),
    seat         bigint NOT NULL,
    identity_id  uuid NOT NULL REFERENCES identities (id),
    ruleset      text NOT NULL,
    place        bigint NOT NULL,
    rating_before  bigint NOT NULL,
    rating_after   bigint NOT NULL,
    finished_at  timestamptz NOT NULL,
    PRIMARY KEY (match_id, seat)
);
-- A player's history per ruleset, oldest first.
CREATE INDEX rating_changes_by_player ON rating_changes (identity_id, ruleset, finished_at);
