//! The room as the database keeps it, for reads of a room that is not in memory: a finished,
//! expired or waiting room is shown (`GET /api/rooms/{id}`) without loading it into a room task,
//! so reading rooms cannot grow memory. What such a room shows is what its task would show with
//! nobody following it: the stored seats, and the seats whose player resigned (from the log).
//! Finished and expired rooms never
//! change again and are kept in a bounded cache (the oldest entry leaves first); a waiting room
//! changes only through its task, so it is read each time.

use warroom_protocol::{Room, RoomId, RoomState, Takeover};
use warroom_room::Followers;
use warroom_room::summary::{SeatsNow, room_for};

use crate::bounded::BoundedMap;
use crate::error::ApiError;
use crate::store::{RoomRecord, Store};

/// How many finished or expired rooms the cache holds (about a kilobyte each).
pub const STORED_SUMMARIES: usize = 4096;

/// The cache of finished and expired rooms' summaries.
pub struct StoredSummaries {
    cache: BoundedMap<RoomId, Room>,
}

impl StoredSummaries {
    /// An empty cache of at most `capacity` rooms.
    pub fn new(capacity: usize) -> StoredSummaries {
        StoredSummaries {
            cache: BoundedMap::new(capacity),
        }
    }

    /// The cached summary of a finished or expired room.
    pub fn cached(&self, id: RoomId) -> Option<Room> {
        self.cache.get(&id)
    }

    /// Keeps `room` if it is finished or expired.
    fn keep(&self, room: &Room) {
        if matches!(room.state, RoomState::Finished | RoomState::Expired) {
            self.cache.insert(room.id, room.clone());
        }
    }

    /// The summary of the stored room `record` (not running here), from the database.
    pub async fn summary(&self, store: &Store, record: &RoomRecord) -> Result<Room, ApiError> {
        if let Some(room) = self.cached(record.id) {
            return Ok(room);
        }
        // A room not in memory runs no match (a running match stays in memory while its
        // clock or a bot has something to do, and is loaded at start-up), so the only
        // takeover it shows is a resignation: the same as its task rebuilt from the log.
        let mut takeovers = vec![None; record.seats.len()];
        if let Some(match_id) = record.match_id {
            for seat in store.resigned_seats(match_id).await? {
                if let Some(takeover) = takeovers.get_mut(seat.index()) {
                    *takeover = Some(Takeover::Resigned);
                }
            }
        }
        let now = SeatsNow {
            takeovers,
            clock: None,
        };
        let room = room_for(record, &Followers::default(), &now, None);
        self.keep(&room);
        Ok(room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(state: &str) -> Room {
        serde_json::from_value(serde_json::json!({
            "id": RoomId::random(), "ruleset": "hexdice", "options": {},
            "settings": {"bot_delay_ms": 0}, "private": false, "state": state, "seats": [],
            "spectators": 0, "match_id": null, "created_at": "2026-01-01T00:00:00Z",
        }))
        .unwrap()
    }

    #[test]
    fn only_rooms_that_never_change_again_are_cached() {
        let cache = StoredSummaries::new(8);
        let (finished, expired, waiting) = (room("finished"), room("expired"), room("waiting"));
        for room in [&finished, &expired, &waiting] {
            cache.keep(room);
        }
        assert!(cache.cached(finished.id).is_some());
        assert!(cache.cached(expired.id).is_some());
        assert!(
            cache.cached(waiting.id).is_none(),
            "a waiting room is read each time"
        );
    }
}
