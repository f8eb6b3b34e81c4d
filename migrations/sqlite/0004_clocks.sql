-- Every match reaches an end (SQLite): who took each action and the clock right after it, the
-- room's settings (clock, grace period, bot delay), and the identities the bots play under.
-- Kept column-for-column identical to ../postgres/0004_clocks.sql.

-- `player`, `bot` or `clock` (the seat's time ran out: the ruleset's timeout action).
ALTER TABLE match_actions ADD COLUMN acted_by TEXT NOT NULL DEFAULT 'player';

-- The clock as this action left it (JSON: each seat's bank, and for the seat to act the time it
-- has left). A restarted server resumes the clock from the last action's row; NULL: no clock.
ALTER TABLE match_actions ADD COLUMN clock TEXT;

-- The room's settings beyond the ruleset's options (JSON; NULL in rooms older than this: none).
ALTER TABLE rooms ADD COLUMN settings TEXT;

-- The computer players: seats a bot plays are held by one of these. No token hashes to them
-- (a SHA-256 is 64 hex digits), and no person can take their names (parentheses are not allowed
-- in names).
INSERT INTO identities (id, name, token_hash, created_at, name_key) VALUES
    ('b0700000-0000-4000-8000-000000000001', 'Computer (easy)', 'bot:easy', 0, 'computer (easy)'),
    ('b0700000-0000-4000-8000-000000000002', 'Computer (normal)', 'bot:normal', 0, 'computer (normal)'),
    ('b0700000-0000-4000-8000-000000000003', 'Computer (hard)', 'bot:hard', 0, 'computer (hard)');
