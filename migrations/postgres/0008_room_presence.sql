-- Cluster mode (PostgreSQL only; `warroom --nats-url`): who is connected in the public rooms a
-- node serves, for the lobby and quick play of the other nodes (server/src/cluster/presence.rs
-- writes it, server/src/store/presence.rs is the SQL). A single server never reads or writes it.
--
-- The node serving a room writes its row, stamped with the room's lease (owner, epoch), in one
-- batched statement every 100 ms for the rooms whose presence changed; a row of a lower epoch
-- never overwrites a higher one, and a row is read only while its lease is live at its epoch,
-- so an old owner (paused, partitioned) can neither overwrite nor show stale presence.
CREATE TABLE room_presence (
    room_id     uuid PRIMARY KEY,
    -- The node that wrote it, and the epoch of its lease on the room then.
    owner       text NOT NULL,
    epoch       bigint NOT NULL,
    -- Per seat, in order: {"connected": bool, "takeover": null, "resigned", "disconnected" or
    -- "timed_out"}.
    seats       jsonb NOT NULL,
    -- Followers holding no seat.
    spectators  integer NOT NULL,
    updated_at  timestamptz NOT NULL
);
