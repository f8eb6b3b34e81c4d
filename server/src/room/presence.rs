//! Presence, sans-IO: who follows a room changes often (spectators come and go, a flood of
//! joins is cheap to send), so followers hear of it coalesced. A change bumps a version and
//! marks the room dirty; the room sends its `room` to the followers that have not seen the
//! latest version at most once per [`PRESENCE_INTERVAL`] (at once when the last one is older
//! than that, else when it falls due: the loop wakes for [`RoomCore::presence_deadline`]).
//! A joiner gets its own `room` at once and is not sent it again; a repeated `join` from a
//! connection already following changes nothing for the others and is answered only to it.
//! Changes that are not presence (seats, the start, the end, an expiry) are sent at once to
//! everyone by [`RoomCore::publish`], which also settles any presence change pending.
//! Spectators (followers holding no seat) have their own cap; seated players always get in.

use std::time::Duration;

use tokio::time::Instant;
use warroom_protocol::{Identity, codes};

use super::ConnId;
use super::core::RoomCore;
use super::output::Output;
use super::seats::seat_of;
use crate::error::ApiError;

/// The shortest time between two presence broadcasts of one room (at most 4 a second).
pub const PRESENCE_INTERVAL: Duration = Duration::from_millis(250);

/// What the followers have heard of the room's presence.
#[derive(Clone, Debug, Default)]
pub struct Presence {
    /// Bumped on every change of who follows the room (and on every publish).
    pub(super) version: u64,
    /// Since when a presence change waits to be sent.
    dirty_since: Option<Instant>,
    /// When presence was last sent.
    last_sent: Option<Instant>,
}

impl Presence {
    /// When the pending change is due, if one is pending.
    fn due(&self) -> Option<Instant> {
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

impl RoomCore {
    /// What a `join` from `conn` as `identity` is for the room.
    pub(super) fn rejoin(&self, conn: ConnId, identity: Option<&Identity>) -> Rejoin {
        match self.followers.get(conn) {
            None => Rejoin::Fresh,
            Some(follower)
                if follower.identity.as_ref().map(|i| i.id) == identity.map(|i| i.id) =>
            {
                Rejoin::Repeated
            }
            Some(_) => Rejoin::NewIdentity,
        }
    }

    /// Refuses a new spectator when the room holds its cap of them; a seated player (and a
    /// connection already following) always gets in.
    pub(super) fn check_spectator_cap(
        &self,
        rejoin: Rejoin,
        identity: Option<&Identity>,
    ) -> Result<(), ApiError> {
        if rejoin != Rejoin::Fresh || seat_of(&self.record, identity).is_some() {
            return Ok(());
        }
        if self.spectator_count() >= self.max_spectators {
            return Err(ApiError::conflict(
                codes::TOO_MANY_CONNECTIONS,
                "this room accepts no more spectators",
            ));
        }
        Ok(())
    }

    /// How many followers hold no seat.
    pub(super) fn spectator_count(&self) -> usize {
        let record = &self.record;
        self.followers
            .iter()
            .filter(|(_, f)| seat_of(record, f.identity.as_ref()).is_none())
            .count()
    }

    /// Who follows the room changed: the lobby's copy is updated at once, the followers hear of
    /// it coalesced.
    pub(super) fn presence_changed(&mut self, now: Instant) {
        self.presence.version += 1;
        self.presence.dirty_since.get_or_insert(now);
        self.out.push_back(Output::Summary(self.summary()));
    }

    /// Marks `conn` as having been sent the room as it is now.
    pub(super) fn saw_room(&mut self, conn: ConnId) {
        let version = self.presence.version;
        self.followers.mark_seen(conn, version);
    }

    /// Everyone is sent the room now (by [`RoomCore::publish`]): nothing is left pending.
    pub(super) fn presence_published(&mut self) {
        self.presence.version += 1;
        self.presence.dirty_since = None;
        let version = self.presence.version;
        self.followers.mark_all_seen(version);
    }

    /// When the loop must wake to send a pending presence change.
    pub(super) fn presence_deadline(&self) -> Option<Instant> {
        self.presence.due()
    }

    /// Sends the pending presence change if it is due: the room to every follower that has not
    /// seen the latest version.
    pub(super) fn flush_presence(&mut self, now: Instant) {
        if self.presence.due().is_none_or(|due| due > now) {
            return;
        }
        self.presence.dirty_since = None;
        let version = self.presence.version;
        // Only what was sent counts towards the interval (a joiner alone was told already).
        if self.send_room(|follower| follower.room_seen < version) {
            self.presence.last_sent = Some(now);
        }
        self.followers.mark_all_seen(version);
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
