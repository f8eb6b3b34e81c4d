-- warroom schema (PostgreSQL). Times are Unix milliseconds; ids are UUID text; JSON is text.
-- Kept column-for-column identical to ../sqlite/0001_init.sql: the server's queries run on both.

CREATE TABLE identities (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    -- SHA-256 of the bearer token, lowercase hex: the token itself is never stored.
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);

CREATE TABLE rooms (
    id           TEXT PRIMARY KEY,
    ruleset      TEXT NOT NULL,
    options      TEXT NOT NULL,
    seat_count   BIGINT NOT NULL,
    private      BIGINT NOT NULL,
    invite_code  TEXT NOT NULL,
    creator_id   TEXT NOT NULL REFERENCES identities (id),
    state        TEXT NOT NULL,
    match_id     TEXT,
    created_at   BIGINT NOT NULL
);
CREATE INDEX rooms_by_state ON rooms (state);

CREATE TABLE room_seats (
    room_id      TEXT NOT NULL REFERENCES rooms (id),
    seat         BIGINT NOT NULL,
    identity_id  TEXT NOT NULL REFERENCES identities (id),
    PRIMARY KEY (room_id, seat)
);

CREATE TABLE matches (
    id               TEXT PRIMARY KEY,
    room_id          TEXT NOT NULL REFERENCES rooms (id),
    ruleset          TEXT NOT NULL,
    options          TEXT NOT NULL,
    seat_count       BIGINT NOT NULL,
    -- The secret seed (hex): needed to rebuild the match; published only once it is over.
    seed             TEXT NOT NULL,
    seed_commitment  TEXT NOT NULL,
    state            TEXT NOT NULL,
    winner           BIGINT,
    reason           TEXT,
    action_count     BIGINT NOT NULL DEFAULT 0,
    started_at       BIGINT NOT NULL,
    finished_at      BIGINT
);
CREATE INDEX matches_by_state ON matches (state);

CREATE TABLE match_seats (
    match_id     TEXT NOT NULL REFERENCES matches (id),
    seat         BIGINT NOT NULL,
    identity_id  TEXT NOT NULL REFERENCES identities (id),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_identity ON match_seats (identity_id);

-- The event-sourced record: every accepted action, in order, with the events it caused.
CREATE TABLE match_actions (
    match_id   TEXT NOT NULL REFERENCES matches (id),
    seq        BIGINT NOT NULL,
    seat       BIGINT NOT NULL,
    -- The client's id for the action: a resent id is answered from here, never applied twice.
    client_id  TEXT NOT NULL,
    action     TEXT NOT NULL,
    events     TEXT NOT NULL,
    PRIMARY KEY (match_id, seq),
    UNIQUE (match_id, seat, client_id)
);
