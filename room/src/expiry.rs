//! When an abandoned waiting room expires, sans-IO: a room waiting for players with nobody
//! connected starts a countdown; anyone connecting (or the match starting) stops it. The room
//! loop sleeps until [`Abandonment::deadline`] and then closes the room.

use std::time::{Duration, Instant};

use crate::eviction::Eviction;

/// The countdown of one room: an [`Eviction`] countdown that runs while the room waits for
/// players with nobody connected.
#[derive(Clone, Debug)]
pub struct Abandonment(Eviction);

impl Abandonment {
    /// A countdown of `after`, not running yet.
    pub fn new(after: Duration) -> Abandonment {
        Abandonment(Eviction::new(Some(after)))
    }

    /// The room's state now: `waiting` for players, with `connected` connections following it.
    pub fn observe(&mut self, waiting: bool, connected: usize, now: Instant) {
        self.0.observe(waiting && connected == 0, now);
    }

    /// When the room expires unless someone connects.
    pub fn deadline(&self) -> Option<Instant> {
        self.0.deadline()
    }

    /// True when the room has been empty for long enough.
    pub fn is_due(&self, now: Instant) -> bool {
        self.0.is_due(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_waiting_room_expires_and_a_visit_resets_the_countdown() {
        let start = Instant::now();
        let minute = Duration::from_secs(60);
        let mut room = Abandonment::new(30 * minute);
        room.observe(true, 1, start);
        assert_eq!(room.deadline(), None, "someone is here");
        room.observe(true, 0, start);
        assert_eq!(room.deadline(), Some(start + 30 * minute));
        room.observe(true, 0, start + minute);
        assert_eq!(
            room.deadline(),
            Some(start + 30 * minute),
            "still counting from when it emptied"
        );
        assert!(!room.is_due(start + 29 * minute));
        assert!(room.is_due(start + 30 * minute));
        room.observe(true, 1, start + 10 * minute);
        room.observe(true, 0, start + 11 * minute);
        assert_eq!(
            room.deadline(),
            Some(start + 41 * minute),
            "a visit resets it"
        );
        room.observe(false, 0, start + 12 * minute);
        assert_eq!(room.deadline(), None, "a running match never expires");
    }
}
