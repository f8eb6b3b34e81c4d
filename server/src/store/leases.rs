//! Room leases and cluster nodes (PostgreSQL only, `migrations/postgres/0007_room_leases.sql`):
//! in cluster mode a room is served by the one node holding its lease. Acquiring a free or
//! expired lease raises the room's epoch; the holder renews all its leases in one statement;
//! handing a room over releases it at once. Every time is the database's (`clock_timestamp()`),
//! so the nodes' own clocks do not matter.
//!
//! The lease alone does not stop an old owner that missed the moment it lost it: the writer's
//! fenced append ([`Fence`], `writer.rs`) does, by checking (owner, epoch, expiry) with a
//! `FOR SHARE` lock on the lease row in the append's own transaction.

use std::sync::Arc;
use std::time::Duration;

use sqlx::Row;
use warroom_protocol::RoomId;

use super::Store;

/// What an append must still hold to be written: its room's lease, as this node acquired it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The node that acquired the lease.
    pub node: Arc<str>,
    /// The epoch it acquired it at.
    pub epoch: i64,
}

/// Who holds a room's lease now, as the database sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseHolder {
    /// The node.
    pub owner: String,
    /// Its epoch.
    pub epoch: i64,
    /// False once expired (or released): any node may acquire it.
    pub live: bool,
}

/// `rooms` as one text parameter, `id,id,…`, which a query splits with `string_to_array($n,
/// ',')`: the `Any` driver binds no arrays.
pub(super) fn room_id_list(rooms: &[RoomId]) -> String {
    rooms
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A lease length in milliseconds, as bound into SQL.
fn millis(length: Duration) -> i64 {
    i64::try_from(length.as_millis()).unwrap_or(i64::MAX)
}

/// How long an acquisition waits for a lease row an append holds before it gives up.
const ACQUIRE_LOCK_TIMEOUT: &str = "2s";

impl Store {
    /// Acquires `room`'s lease for `node` for `length` if it is free, expired, or already this
    /// node's (a node acquires only rooms it does not run); the new epoch, or `None` when another
    /// node holds it.
    pub async fn acquire_lease(
        &self,
        room: RoomId,
        node: &str,
        length: Duration,
    ) -> sqlx::Result<Option<i64>> {
        let mut tx = self.pool().begin().await?;
        // An append of the old owner holds the row (`FOR SHARE`) until it commits: wait for it a
        // little, never for long (a frozen owner's session is ended by the database).
        sqlx::query(&format!(
            "SET LOCAL lock_timeout = '{ACQUIRE_LOCK_TIMEOUT}'"
        ))
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "INSERT INTO room_leases AS l (room_id, owner, epoch, expires_at) \
             VALUES ($1::uuid, $2, 1, clock_timestamp() + $3 * interval '1 millisecond') \
             ON CONFLICT (room_id) DO UPDATE \
             SET owner = EXCLUDED.owner, epoch = l.epoch + 1, expires_at = EXCLUDED.expires_at, \
                 dormant = false \
             WHERE l.expires_at <= clock_timestamp() OR l.owner = EXCLUDED.owner \
             RETURNING l.epoch",
        )
        .bind(room.to_string())
        .bind(node)
        .bind(millis(length))
        .fetch_optional(&mut *tx)
        .await;
        match row {
            Ok(row) => {
                tx.commit().await?;
                row.map(|row| row.try_get::<i64, _>(0)).transpose()
            }
            Err(sqlx::Error::Database(error)) if error.code().as_deref() == Some("55P03") => {
                // lock_not_available: an append of the holder is in progress, so it is held.
                Ok(None)
            }
            Err(error) => Err(error),
        }
    }

    /// The first lease of a new room (epoch 1) for `node`, in one statement: no transaction
    /// and no lock timeout, since no lease row exists for another node to hold. `None` if one
    /// does after all (the room is then not this node's).
    pub async fn first_lease(
        &self,
        room: RoomId,
        node: &str,
        length: Duration,
    ) -> sqlx::Result<Option<i64>> {
        let row = sqlx::query(
            "INSERT INTO room_leases (room_id, owner, epoch, expires_at) \
             VALUES ($1::uuid, $2, 1, clock_timestamp() + $3 * interval '1 millisecond') \
             ON CONFLICT (room_id) DO NOTHING RETURNING epoch",
        )
        .bind(room.to_string())
        .bind(node)
        .bind(millis(length))
        .fetch_optional(self.pool())
        .await?;
        row.map(|row| row.try_get::<i64, _>(0)).transpose()
    }

    /// Renews the leases `node` holds on `rooms` for `length`, in one statement, locking the
    /// rows in room order (as the writer does, so the two never deadlock). Returns the rooms
    /// whose lease it no longer holds (expired, or taken by another node): they must stop.
    pub async fn renew_leases(
        &self,
        node: &str,
        rooms: &[RoomId],
        length: Duration,
    ) -> sqlx::Result<Vec<RoomId>> {
        if rooms.is_empty() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "WITH mine AS (SELECT DISTINCT unnest(string_to_array($2, ','))::uuid AS room_id), \
             held AS (SELECT l.room_id FROM room_leases l JOIN mine ON mine.room_id = l.room_id \
                      WHERE l.owner = $1 AND l.expires_at > clock_timestamp() \
                      ORDER BY l.room_id FOR UPDATE OF l), \
             renewed AS (UPDATE room_leases l \
                         SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' \
                         FROM held WHERE l.room_id = held.room_id RETURNING l.room_id) \
             SELECT room_id::text FROM mine WHERE room_id NOT IN (SELECT room_id FROM renewed)",
        )
        .bind(node)
        .bind(room_id_list(rooms))
        .bind(millis(length))
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let text: String = row.try_get(0)?;
                text.parse()
                    .map_err(|error| sqlx::Error::Decode(Box::new(error)))
            })
            .collect()
    }

    /// Gives `room`'s lease up at once: it stays at its epoch, expired, so the next node to
    /// acquire it raises the epoch. `dormant` when the room left memory idle (nobody takes it
    /// over until someone asks for it); otherwise the room is handed over (a node stopping), and
    /// the other nodes take it over at once. False if `node` no longer held it at `epoch`.
    pub async fn release_lease(
        &self,
        room: RoomId,
        node: &str,
        epoch: i64,
        dormant: bool,
    ) -> sqlx::Result<bool> {
        let done = sqlx::query(
            "UPDATE room_leases SET expires_at = clock_timestamp(), dormant = $4 \
             WHERE room_id = $1::uuid AND owner = $2 AND epoch = $3",
        )
        .bind(room.to_string())
        .bind(node)
        .bind(epoch)
        .bind(dormant)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Running matches no node serves: their lease expired without being released dormant (the
    /// owner died, or handed them over), or they never had one (played before cluster mode).
    /// Oldest first, at most `limit`.
    pub async fn rooms_to_take_over(&self, limit: i64) -> sqlx::Result<Vec<RoomId>> {
        let rows = sqlx::query(
            "SELECT r.id::text FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id::uuid \
             WHERE r.state = $1 AND (l.room_id IS NULL \
                   OR (l.expires_at <= clock_timestamp() AND NOT l.dormant)) \
             ORDER BY r.created_at LIMIT $2",
        )
        .bind(warroom_protocol::RoomState::Playing.as_str())
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let text: String = row.try_get::<String, _>(0)?;
                text.parse()
                    .map_err(|error| sqlx::Error::Decode(Box::new(error)))
            })
            .collect()
    }

    /// Who holds `room`'s lease, if it was ever acquired.
    pub async fn lease_holder(&self, room: RoomId) -> sqlx::Result<Option<LeaseHolder>> {
        let row = sqlx::query(
            "SELECT owner, epoch, expires_at > clock_timestamp() FROM room_leases \
             WHERE room_id = $1::uuid",
        )
        .bind(room.to_string())
        .fetch_optional(self.pool())
        .await?;
        row.map(|row| {
            Ok(LeaseHolder {
                owner: row.try_get(0)?,
                epoch: row.try_get(1)?,
                live: row.try_get(2)?,
            })
        })
        .transpose()
    }

    /// The live leases' holders among `rooms`, by room (a room whose lease expired, or was
    /// never acquired, is left out): one statement for every room a node follows.
    pub async fn live_lease_owners(
        &self,
        rooms: &[RoomId],
    ) -> sqlx::Result<std::collections::HashMap<RoomId, String>> {
        if rooms.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        let ids = rooms
            .iter()
            .map(RoomId::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let rows = sqlx::query(
            "SELECT room_id::text, owner FROM room_leases \
             WHERE room_id IN (SELECT unnest(string_to_array($1, ','))::uuid) \
             AND expires_at > clock_timestamp()",
        )
        .bind(ids)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let room: String = row.try_get(0)?;
                let room = room
                    .parse()
                    .map_err(|error| sqlx::Error::Decode(Box::new(error)))?;
                Ok((room, row.try_get(1)?))
            })
            .collect()
    }

    /// Says `node` is alive for `length` more (and whether it is draining: stopping, so it
    /// takes no new rooms).
    pub async fn node_alive(
        &self,
        node: &str,
        length: Duration,
        draining: bool,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO cluster_nodes AS n (node_id, expires_at, draining) \
             VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond', $3) \
             ON CONFLICT (node_id) DO UPDATE \
             SET expires_at = EXCLUDED.expires_at, draining = EXCLUDED.draining",
        )
        .bind(node)
        .bind(millis(length))
        .bind(draining)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Says `node` is gone (stopped cleanly): no new room goes to it.
    pub async fn node_gone(&self, node: &str) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM cluster_nodes WHERE node_id = $1")
            .bind(node)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The nodes alive now (stopping ones included).
    pub async fn live_nodes(&self) -> sqlx::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT node_id FROM cluster_nodes WHERE expires_at > clock_timestamp() ORDER BY node_id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|row| row.try_get(0)).collect()
    }

    /// The live leases each live node holds, fewest first (ties by node id); draining nodes
    /// are left out. What placement reads: a new room goes to the first.
    pub async fn lease_counts(&self) -> sqlx::Result<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT n.node_id, count(l.room_id) FROM cluster_nodes n \
             LEFT JOIN room_leases l ON l.owner = n.node_id AND l.expires_at > clock_timestamp() \
             WHERE n.expires_at > clock_timestamp() AND NOT n.draining \
             GROUP BY n.node_id ORDER BY count(l.room_id), n.node_id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect()
    }
}
