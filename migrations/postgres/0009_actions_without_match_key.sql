-- The action log's rows no longer check their match's row (PostgreSQL only; SQLite keeps its key,
-- which costs little in-process). Every row of `match_actions` is written by the server's batching
-- writer for a match whose row its room stored before the match's first action, and no match row
-- is ever deleted, so the check could never fail; it cost a lookup (and a row lock on the match)
-- per action, about 5 of the 26 µs of database CPU per row in a batch of 10 (bench/RESULTS.md, 2026-12-04).
-- The primary key (match_id, seq) and the client-id key stay.
ALTER TABLE match_actions DROP CONSTRAINT match_actions_match_id_fkey;
