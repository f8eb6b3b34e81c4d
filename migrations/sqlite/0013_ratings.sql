-- Ratings (issue 39, docs/RATINGS.md): the tables of ../postgres/0013_ratings.sql, in SQLite's
-- types (TEXT ids, BIGINT Unix milliseconds and 0/1 flags). Numbered as the PostgreSQL one.

ALTER TABLE identities ADD COLUMN created_address TEXT;

CREATE TABLE ratings (
    identity_id      TEXT NOT NULL REFERENCES identities (id),
    ruleset          TEXT NOT NULL,
    rating           DOUBLE PRECISION NOT NULL,
    deviation        DOUBLE PRECISION NOT NULL,
    volatility       DOUBLE PRECISION NOT NULL,
    shown            BIGINT NOT NULL,
    shown_deviation  BIGINT NOT NULL,
    provisional      BIGINT NOT NULL,
    matches          BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    PRIMARY KEY (identity_id, ruleset)
);
CREATE INDEX ratings_leaderboard
    ON ratings (ruleset, provisional, shown DESC, shown_deviation, identity_id);

CREATE TABLE rating_changes (
    match_id     TEXT NOT NULL REFERENCES matches (id),
    seat         BIGINT NOT NULL,
    identity_id  TEXT NOT NULL REFERENCES identities (id),
    ruleset      TEXT NOT NULL,
    place        BIGINT NOT NULL,
    rating_before  BIGINT NOT NULL,
    rating_after   BIGINT NOT NULL,
    finished_at  BIGINT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX rating_changes_by_player ON rating_changes (identity_id, ruleset, finished_at);
