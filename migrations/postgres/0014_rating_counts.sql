-- How many players each leaderboard lists (issue 39, docs/RATINGS.md): kept by the transaction
-- that rates a match (server/src/store/ratings.rs), so a leaderboard page reads its `total`
-- from one row instead of counting 100,000 (24 ms on the bench machine).
CREATE TABLE rating_counts (
    ruleset      text    NOT NULL,
    provisional  boolean NOT NULL,
    players      bigint  NOT NULL,
    PRIMARY KEY (ruleset, provisional)
);
INSERT INTO rating_counts (ruleset, provisional, players)
    SELECT ruleset, provisional, COUNT(*) FROM ratings GROUP BY ruleset, provisional;
