-- How many players each leaderboard lists: the table of ../postgres/0014_rating_counts.sql, in
-- SQLite's types (a 0/1 flag). Numbered as the PostgreSQL one.
CREATE TABLE rating_counts (
    ruleset      TEXT   NOT NULL,
    provisional  BIGINT NOT NULL,
    players      BIGINT NOT NULL,
    PRIMARY KEY (ruleset, provisional)
);
INSERT INTO rating_counts (ruleset, provisional, players)
    SELECT ruleset, provisional, COUNT(*) FROM ratings GROUP BY ruleset, provisional;
