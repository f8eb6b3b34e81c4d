-- PostgreSQL's own types (PostgreSQL only: the SQLite schema keeps TEXT and BIGINT). Converts the
-- rows in place: ids become `uuid`, JSON becomes `jsonb` (so operators can query actions and
-- events, e.g. `action->>'type'`), Unix-millisecond times become `timestamptz`, and the private
-- flag becomes `boolean`. The server reads these back as text and milliseconds
-- (server/src/store/dialect.rs), so the API is unchanged.
--
-- A foreign key cannot join a uuid to a text column, so the keys are dropped, every column
-- converted, and the keys added back (checking every row again). The whole migration is one
-- transaction: it applies completely or not at all.

ALTER TABLE rooms DROP CONSTRAINT rooms_creator_id_fkey;
ALTER TABLE room_seats DROP CONSTRAINT room_seats_room_id_fkey;
ALTER TABLE room_seats DROP CONSTRAINT room_seats_identity_id_fkey;
ALTER TABLE matches DROP CONSTRAINT matches_room_id_fkey;
ALTER TABLE match_seats DROP CONSTRAINT match_seats_match_id_fkey;
ALTER TABLE match_seats DROP CONSTRAINT match_seats_identity_id_fkey;
ALTER TABLE match_actions DROP CONSTRAINT match_actions_match_id_fkey;
ALTER TABLE identity_tokens DROP CONSTRAINT identity_tokens_identity_id_fkey;
ALTER TABLE mutes DROP CONSTRAINT mutes_identity_id_fkey;
ALTER TABLE mutes DROP CONSTRAINT mutes_muted_id_fkey;
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_room_id_fkey;
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_match_id_fkey;
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_identity_id_fkey;

-- Times: Unix milliseconds to an instant, exact to the microsecond (the products stay far below
-- 2^53 microseconds).
ALTER TABLE identities
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING 'epoch'::timestamptz + created_at * interval '1 ms',
    ALTER COLUMN recovery_created_at TYPE timestamptz USING 'epoch'::timestamptz + recovery_created_at * interval '1 ms';

ALTER TABLE identity_tokens
    ALTER COLUMN identity_id TYPE uuid USING identity_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING 'epoch'::timestamptz + created_at * interval '1 ms';

ALTER TABLE mutes
    ALTER COLUMN identity_id TYPE uuid USING identity_id::uuid,
    ALTER COLUMN muted_id TYPE uuid USING muted_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING 'epoch'::timestamptz + created_at * interval '1 ms';

ALTER TABLE rooms
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN options TYPE jsonb USING options::jsonb,
    ALTER COLUMN private TYPE boolean USING private <> 0,
    ALTER COLUMN creator_id TYPE uuid USING creator_id::uuid,
    ALTER COLUMN match_id TYPE uuid USING match_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING 'epoch'::timestamptz + created_at * interval '1 ms',
    ALTER COLUMN rematch_room TYPE uuid USING rematch_room::uuid,
    ALTER COLUMN settings TYPE jsonb USING settings::jsonb;

ALTER TABLE room_seats
    ALTER COLUMN room_id TYPE uuid USING room_id::uuid,
    ALTER COLUMN identity_id TYPE uuid USING identity_id::uuid;

ALTER TABLE matches
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN room_id TYPE uuid USING room_id::uuid,
    ALTER COLUMN options TYPE jsonb USING options::jsonb,
    ALTER COLUMN started_at TYPE timestamptz USING 'epoch'::timestamptz + started_at * interval '1 ms',
    ALTER COLUMN finished_at TYPE timestamptz USING 'epoch'::timestamptz + finished_at * interval '1 ms';

ALTER TABLE match_seats
    ALTER COLUMN match_id TYPE uuid USING match_id::uuid,
    ALTER COLUMN identity_id TYPE uuid USING identity_id::uuid;

ALTER TABLE match_actions
    ALTER COLUMN match_id TYPE uuid USING match_id::uuid,
    ALTER COLUMN action TYPE jsonb USING action::jsonb,
    ALTER COLUMN events TYPE jsonb USING events::jsonb,
    ALTER COLUMN clock TYPE jsonb USING clock::jsonb;

ALTER TABLE chat_messages
    ALTER COLUMN room_id TYPE uuid USING room_id::uuid,
    ALTER COLUMN match_id TYPE uuid USING match_id::uuid,
    ALTER COLUMN identity_id TYPE uuid USING identity_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING 'epoch'::timestamptz + created_at * interval '1 ms';

ALTER TABLE rooms ADD CONSTRAINT rooms_creator_id_fkey
    FOREIGN KEY (creator_id) REFERENCES identities (id);
ALTER TABLE room_seats ADD CONSTRAINT room_seats_room_id_fkey
    FOREIGN KEY (room_id) REFERENCES rooms (id);
ALTER TABLE room_seats ADD CONSTRAINT room_seats_identity_id_fkey
    FOREIGN KEY (identity_id) REFERENCES identities (id);
ALTER TABLE matches ADD CONSTRAINT matches_room_id_fkey
    FOREIGN KEY (room_id) REFERENCES rooms (id);
ALTER TABLE match_seats ADD CONSTRAINT match_seats_match_id_fkey
    FOREIGN KEY (match_id) REFERENCES matches (id);
ALTER TABLE match_seats ADD CONSTRAINT match_seats_identity_id_fkey
    FOREIGN KEY (identity_id) REFERENCES identities (id);
ALTER TABLE match_actions ADD CONSTRAINT match_actions_match_id_fkey
    FOREIGN KEY (match_id) REFERENCES matches (id);
ALTER TABLE identity_tokens ADD CONSTRAINT identity_tokens_identity_id_fkey
    FOREIGN KEY (identity_id) REFERENCES identities (id);
ALTER TABLE mutes ADD CONSTRAINT mutes_identity_id_fkey
    FOREIGN KEY (identity_id) REFERENCES identities (id);
ALTER TABLE mutes ADD CONSTRAINT mutes_muted_id_fkey
    FOREIGN KEY (muted_id) REFERENCES identities (id);
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_room_id_fkey
    FOREIGN KEY (room_id) REFERENCES rooms (id);
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_match_id_fkey
    FOREIGN KEY (match_id) REFERENCES matches (id);
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_identity_id_fkey
    FOREIGN KEY (identity_id) REFERENCES identities (id);

-- The lobby (GET /api/rooms): public rooms waiting or playing, newest first. Only live rooms are
-- in this index, so its size follows the open rooms, not every room ever made, and the page is
-- read in order from it (no sort); replaces 0005's index over every room.
DROP INDEX rooms_lobby;
CREATE INDEX rooms_lobby ON rooms (created_at DESC, id DESC)
    WHERE private = false AND state IN ('waiting', 'playing');
