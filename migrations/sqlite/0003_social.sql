-- Playing together (SQLite): lasting unique names, recovery codes and more than one device per
-- identity, chat kept with the match, mutes, and the link from a finished room to its rematch.
-- Kept column-for-column identical to ../postgres/0003_social.sql.

-- The name's case-folded form (unique: "Ada" and "ADA" are one name). Filled in by the server at
-- start-up for identities created before this migration (duplicates get a suffix).
ALTER TABLE identities ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX identities_by_name_key ON identities (name_key);

-- SHA-256 of the identity's recovery code (the code itself is shown once and never stored).
ALTER TABLE identities ADD COLUMN recovery_hash TEXT;
ALTER TABLE identities ADD COLUMN recovery_created_at BIGINT;
CREATE UNIQUE INDEX identities_by_recovery_hash ON identities (recovery_hash);

-- Bearer tokens issued by recovery on other devices (the first one stays in identities).
CREATE TABLE identity_tokens (
    token_hash   TEXT PRIMARY KEY,
    identity_id  TEXT NOT NULL REFERENCES identities (id),
    created_at   BIGINT NOT NULL
);
CREATE INDEX identity_tokens_by_identity ON identity_tokens (identity_id);

-- Whose chat an identity does not want to read.
CREATE TABLE mutes (
    identity_id  TEXT NOT NULL REFERENCES identities (id),
    muted_id     TEXT NOT NULL REFERENCES identities (id),
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (identity_id, muted_id)
);

-- Chat said in a room. `seq` is the match's last accepted action when it was said (0 before the
-- first), so a replay can show each line at its moment; `channel` is players or spectators.
CREATE TABLE chat_messages (
    room_id      TEXT NOT NULL REFERENCES rooms (id),
    id           BIGINT NOT NULL,
    match_id     TEXT REFERENCES matches (id),
    seq          BIGINT NOT NULL,
    channel      TEXT NOT NULL,
    identity_id  TEXT NOT NULL REFERENCES identities (id),
    body         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (room_id, id)
);
CREATE INDEX chat_messages_by_match ON chat_messages (match_id, id);

-- The room a finished room's rematch is played in, once its players agreed to one.
ALTER TABLE rooms ADD COLUMN rematch_room TEXT;

-- A player's match list, newest first.
CREATE INDEX matches_by_started ON matches (started_at, id);
