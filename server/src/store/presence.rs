//! Presence of the public rooms in cluster mode (PostgreSQL only,
//! `migrations/postgres/0008_room_presence.sql`): who is connected in each room, written by the
//! node serving it (`cluster/presence.rs`) and read by the others' lobby and quick play. Every
//! row carries the lease (owner, epoch) of its writer: a row never replaces one of a higher
//! epoch, and a row is read only while its lease is live at its epoch, so a node that lost a
//! room (paused, cut off) can neither overwrite its presence nor show a stale one.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use sqlx::Row;
use warroom_protocol::{Room, RoomId, Takeover};

use super::Store;
use super::leases::room_id_list;

/// One seat's presence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPresence {
    /// Its player has a connection following the room.
    pub connected: bool,
    /// Why a bot plays the person's seat now, if one does.
    #[serde(default)]
    pub takeover: Option<Takeover>,
}

/// What the lobby shows of a room that only its serving node knows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoomPresence {
    /// Per seat, in order.
    pub seats: Vec<SeatPresence>,
    /// Followers holding no seat.
    pub spectators: u32,
}

impl RoomPresence {
    /// The presence in a running room's summary.
    pub fn of(room: &Room) -> RoomPresence {
        RoomPresence {
            seats: room
                .seats
                .iter()
                .map(|seat| SeatPresence {
                    connected: seat.connected,
                    takeover: seat.takeover,
                })
                .collect(),
            spectators: room.spectators,
        }
    }

    /// Shows it in `room` (built from the database with nobody connected); a seat nobody holds
    /// stays unconnected.
    pub fn apply(&self, room: &mut Room) {
        for (seat, presence) in room.seats.iter_mut().zip(&self.seats) {
            seat.connected = presence.connected && seat.player.is_some();
            seat.takeover = presence.takeover;
        }
        room.spectators = self.spectators;
    }
}

/// A row to write: the room, the epoch of this node's lease on it, its presence.
#[derive(Serialize)]
struct Written<'a> {
    room_id: String,
    epoch: i64,
    seats: &'a [SeatPresence],
    spectators: u32,
}

/// A row to remove: the room and the epoch it was written at.
#[derive(Serialize)]
struct Cleared {
    room_id: String,
    epoch: i64,
}

impl Store {
    /// Writes the presence of rooms `node` serves (room, lease epoch, presence), in one
    /// statement; a room's row of a higher epoch (another node took the room) is left alone.
    /// How many rows were written.
    pub async fn write_presence(
        &self,
        node: &str,
        rooms: &[(RoomId, i64, RoomPresence)],
    ) -> sqlx::Result<u64> {
        if rooms.is_empty() {
            return Ok(0);
        }
        let rows: Vec<Written<'_>> = rooms
            .iter()
            .map(|(room, epoch, presence)| Written {
                room_id: room.to_string(),
                epoch: *epoch,
                seats: &presence.seats,
                spectators: presence.spectators,
            })
            .collect();
        let done = sqlx::query(
            "INSERT INTO room_presence AS p (room_id, owner, epoch, seats, spectators, updated_at) \
             SELECT x.room_id, $1, x.epoch, x.seats, x.spectators, clock_timestamp() \
             FROM json_to_recordset($2::json) \
                  AS x(room_id uuid, epoch bigint, seats jsonb, spectators integer) \
             ON CONFLICT (room_id) DO UPDATE \
             SET owner = EXCLUDED.owner, epoch = EXCLUDED.epoch, seats = EXCLUDED.seats, \
                 spectators = EXCLUDED.spectators, updated_at = EXCLUDED.updated_at \
             WHERE p.epoch <= EXCLUDED.epoch",
        )
        .bind(node)
        .bind(serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into()))
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected())
    }

    /// Removes the presence `node` wrote for rooms it no longer serves (or no longer lists),
    /// each at the epoch it wrote it; a newer owner's row stays.
    pub async fn clear_presence(&self, node: &str, rooms: &[(RoomId, i64)]) -> sqlx::Result<u64> {
        if rooms.is_empty() {
            return Ok(0);
        }
        let rows: Vec<Cleared> = rooms
            .iter()
            .map(|(room, epoch)| Cleared {
                room_id: room.to_string(),
                epoch: *epoch,
            })
            .collect();
        let done = sqlx::query(
            "DELETE FROM room_presence p \
             USING json_to_recordset($2::json) AS x(room_id uuid, epoch bigint) \
             WHERE p.room_id = x.room_id AND p.epoch = x.epoch AND p.owner = $1",
        )
        .bind(node)
        .bind(serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into()))
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected())
    }

    /// Removes the rows no live lease stands behind (their node died or lost the room and
    /// nobody serves it at that epoch now); how many.
    pub async fn clear_stale_presence(&self) -> sqlx::Result<u64> {
        let done = sqlx::query(
            "DELETE FROM room_presence p WHERE NOT EXISTS (SELECT 1 FROM room_leases l              WHERE l.room_id = p.room_id AND l.owner = p.owner AND l.epoch = p.epoch              AND l.expires_at > clock_timestamp())",
        )
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected())
    }

    /// The presence of these rooms as their serving nodes wrote it, for the rooms whose lease
    /// is live at the epoch their row was written at (the others show nobody connected).
    pub async fn presence_of(
        &self,
        rooms: &[RoomId],
    ) -> sqlx::Result<HashMap<RoomId, RoomPresence>> {
        if rooms.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = sqlx::query(
            "SELECT p.room_id::text, p.seats::text, p.spectators::bigint FROM room_presence p \
             JOIN room_leases l ON l.room_id = p.room_id AND l.owner = p.owner \
                  AND l.epoch = p.epoch AND l.expires_at > clock_timestamp() \
             WHERE p.room_id = ANY (string_to_array($1, ',')::uuid[])",
        )
        .bind(room_id_list(rooms))
        .fetch_all(self.pool())
        .await?;
        let mut found = HashMap::with_capacity(rows.len());
        for row in rows {
            let decode =
                |error: Box<dyn std::error::Error + Send + Sync>| sqlx::Error::Decode(error);
            let room: RoomId = row
                .try_get::<String, _>(0)?
                .parse()
                .map_err(|e| decode(Box::new(e)))?;
            let seats: Vec<SeatPresence> = serde_json::from_str(&row.try_get::<String, _>(1)?)
                .map_err(|e| decode(Box::new(e)))?;
            let spectators = u32::try_from(row.try_get::<i64, _>(2)?).unwrap_or(0);
            found.insert(room, RoomPresence { seats, spectators });
        }
        Ok(found)
    }
}
