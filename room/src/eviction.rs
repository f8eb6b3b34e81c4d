//! When a room may leave memory: once it has been idle (nobody following, nothing in flight,
//! nothing that falls due by itself, no bot to act, not waiting for players) for the server's
//! `--room-idle-eviction`, the core says [`crate::Output::Evict`]. Everything it holds is in
//! the database, so the server rebuilds it on the next `join` or REST request.

use std::time::{Duration, Instant};

/// Since when a room has been idle, and how long it may be: a countdown that runs while a
/// condition holds (also the waiting room's, [`crate::expiry::Abandonment`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Eviction {
    /// How long it stays idle in memory (`None`: for ever).
    after: Option<Duration>,
    /// Since when it has been idle.
    since: Option<Instant>,
}

impl Eviction {
    /// A room that leaves memory after `after` idle, if ever.
    pub fn new(after: Option<Duration>) -> Eviction {
        Eviction { after, since: None }
    }

    /// Notes whether the room is idle at `now`.
    pub fn observe(&mut self, idle: bool, now: Instant) {
        if idle {
            self.since.get_or_insert(now);
        } else {
            self.since = None;
        }
    }

    /// When the room leaves memory unless something happens.
    pub fn deadline(&self) -> Option<Instant> {
        Some(self.since? + self.after?)
    }

    /// True when the room has been idle long enough at `now`.
    pub fn is_due(&self, now: Instant) -> bool {
        self.deadline().is_some_and(|deadline| now >= deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_counts_from_the_first_idle_moment_and_stops_when_busy() {
        let start = Instant::now();
        let after = Duration::from_secs(60);
        let mut idle = Eviction::new(Some(after));
        assert_eq!(idle.deadline(), None);
        idle.observe(true, start);
        idle.observe(true, start + Duration::from_secs(10));
        assert_eq!(idle.deadline(), Some(start + after));
        assert!(!idle.is_due(start + Duration::from_secs(59)));
        assert!(idle.is_due(start + after));
        idle.observe(false, start + Duration::from_secs(20));
        assert_eq!(idle.deadline(), None);
        let mut forever = Eviction::new(None);
        forever.observe(true, start);
        assert_eq!(forever.deadline(), None, "never evicted without a time");
    }
}
