-- Cluster mode (PostgreSQL only; `warroom --nats-url`): which node owns each room, and the nodes
-- alive. A single server (SQLite or PostgreSQL without NATS) never reads or writes these tables.
--
-- A room is served by exactly one node at a time: the one holding its lease. Every acquisition
-- raises the room's epoch, and every action a node appends is fenced by (owner, epoch) in SQL
-- (server/src/store/writer.rs), so a node that lost the lease (paused, partitioned, too slow to
-- renew) can never append to the room again. Times come from the database's clock, so the
-- nodes' clocks do not matter.
CREATE TABLE room_leases (
    room_id     uuid PRIMARY KEY,
    -- The node holding (or last holding) the lease.
    owner       text NOT NULL,
    -- Raised by one on every acquisition: an append carries the epoch its room was acquired at.
    epoch       bigint NOT NULL,
    -- Past this the lease is free: any node may acquire it (with epoch + 1).
    expires_at  timestamptz NOT NULL,
    -- Released because the room left memory idle (nothing due in it): nobody takes it over
    -- until someone asks for the room. An expired lease that is not dormant belongs to a room
    -- some node must serve (its owner died or handed it over), and is taken over at once.
    dormant     boolean NOT NULL DEFAULT false
);
-- Renewals and the lease count per node (placement of new rooms).
CREATE INDEX room_leases_by_owner ON room_leases (owner, expires_at);
-- Rooms to take over: expired leases that are not dormant.
CREATE INDEX room_leases_by_expiry ON room_leases (expires_at) WHERE NOT dormant;

-- The nodes of the cluster, each renewed with its leases: new rooms go to the live node holding
-- the fewest leases; a node stopping (SIGTERM) marks itself draining and releases its leases.
CREATE TABLE cluster_nodes (
    node_id     text PRIMARY KEY,
    expires_at  timestamptz NOT NULL,
    draining    boolean NOT NULL DEFAULT false,
    started_at  timestamptz NOT NULL DEFAULT now()
);
