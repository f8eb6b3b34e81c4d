//! Presence, sans-IO: who follows a room changes often (spectators come and go, a flood of
//! joins is cheap to send), so followers hear of it coalesced. A change bumps a version and
//! marks the room dirty; the room sends its `room` to the followers that have not seen the
//! latest version at most once per [`PRESENCE_INTERVAL`] (at once when the last one is older
//! than that, else when it falls due: the core wakes for [`Presence::due`]).
//! A joiner gets its own `room` at once and is not sent it again; a repeated `join` from a
//! connection already following changes nothing for the others and is answered only to it.
//! Changes that are not presence (seats, the start, the end, an expiry) are sent at once to
//! everyone by the core's `publish`, which also settles any presence change pending.
//! Spectators (followers holding no seat) have their own cap; seated players always get in, and
//! so does an identity joining a waiting room with a free seat (it may be there to take it).

use std::time::Duration;

use std::time::Instant;
use warroom_protocol::{Identity, codes};

use crate::error::RoomError;
use crate::followers::Follower;

/// The shortest time between two presence broadcasts of one room (at most 4 a second).
pub const PRESENCE_INTERVAL: Duration = Duration::from_millis(250);

/// What the followers have heard of the room's presence.
#[derive(Clone, Debug, Default)]
pub struct Presence {
    /// Bumped on every change of who follows the room (and on every publish).
    version: u64,
    /// Since when a presence change waits to be sent.
    dirty_since: Option<Instant>,
    /// When presence was last sent.
    last_sent: Option<Instant>,
    /// Most spectators (followers holding no seat) the room accepts.
    max_spectators: usize,
}

impl Presence {
    /// When the pending change is due, if one is pending.
    pub fn due(&self) -> Option<Instant> {
        let since = self.dirty_since?;
        Some(match self.last_sent {
            Some(last) => since.max(last + PRESENCE_INTERVAL),
            None => since,
        })
    }
}

/// How a `join` relates to what the room knows of its connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejoin {
    /// The connection did not follow the room.
    Fresh,
    /// It follows already, as the same identity: nothing changes for the others.
    Repeated,
    /// It follows already, under another identity (it said `hello` again).
    NewIdentity,
}

impl Presence {
    /// No change pending, in a room taking at most `max_spectators` spectators.
    pub fn new(max_spectators: usize) -> Presence {
        Presence {
            max_spectators,
            ..Presence::default()
        }
    }

    /// The version of the room's presence now (a follower sent the room now has seen it).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Who follows the room changed at `now`.
    pub fn changed(&mut self, now: Instant) {
        self.version += 1;
        self.dirty_since.get_or_insert(now);
    }

    /// Everyone is sent the room now: nothing is left pending. Returns the version they saw.
    pub fn published(&mut self) -> u64 {
        self.version += 1;
        self.dirty_since = None;
        self.version
    }

    /// The pending change if it is due at `now`: the version to send (to the followers that
    /// have not seen it); it is no longer pending.
    pub fn take_due(&mut self, now: Instant) -> Option<u64> {
        if self.due().is_none_or(|due| due > now) {
            return None;
        }
        self.dirty_since = None;
        Some(self.version)
    }

    /// Presence was sent at `now` (the next one waits the interval).
    pub fn sent(&mut self, now: Instant) {
        self.last_sent = Some(now);
    }

    /// Refuses a new spectator when the room holds its cap of them (`spectators` now); a
    /// connection already following, a seated player and one that may sit (`seat_for_joiner`:
    /// an identity joining a waiting room with a free seat) always get in, so spectators never
    /// block a seat.
    pub fn check_cap(
        &self,
        rejoin: Rejoin,
        seat_for_joiner: bool,
        spectators: usize,
    ) -> Result<(), RoomError> {
        if rejoin != Rejoin::Fresh || seat_for_joiner {
            return Ok(());
        }
        if spectators >= self.max_spectators {
            return Err(RoomError::conflict(
                codes::TOO_MANY_CONNECTIONS,
                "this room accepts no more spectators",
            ));
        }
        Ok(())
    }
}

impl Rejoin {
    /// What a `join` as `identity` is for a connection that follows as `follower` (if it does).
    pub fn of(follower: Option<&Follower>, identity: Option<&Identity>) -> Rejoin {
        match follower {
            None => Rejoin::Fresh,
            Some(follower)
                if follower.identity.as_ref().map(|i| i.id) == identity.map(|i| i.id) =>
            {
                Rejoin::Repeated
            }
            Some(_) => Rejoin::NewIdentity,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_change_is_due_at_once_and_the_next_after_the_interval() {
        let start = Instant::now();
        let mut presence = Presence::default();
        assert_eq!(presence.due(), None);
        presence.dirty_since = Some(start);
        assert_eq!(presence.due(), Some(start));
        presence.dirty_since = None;
        presence.last_sent = Some(start);
        let later = start + Duration::from_millis(10);
        presence.dirty_since = Some(later);
        assert_eq!(presence.due(), Some(start + PRESENCE_INTERVAL));
        let much_later = start + Duration::from_secs(5);
        presence.dirty_since = Some(much_later);
        assert_eq!(presence.due(), Some(much_later));
    }
}
