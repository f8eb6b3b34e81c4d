//! When a room may leave memory: once it has been idle (nobody following, nothing in flight,
//! nothing that falls due by itself, no bot to act, not waiting for players) for the server's
//! `--room-idle-eviction`, the core says [`crate::Output::Evict`]; a finished room as soon as
//! it is idle, since nothing more can happen in it (so that joining finished rooms one after
//! another cannot grow memory). Everything it holds is in the database, so the server rebuilds
//! it on the next `join`.

use std::time::{Duration, Instant};

/// Since when a room has been idle, and how long it may be: a countdown that runs while a
/// condition holds (also the waiting room's, [`crate::expiry::Abandonment`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Eviction {
    /// How long it stays idle in memory (`None`: for ever).
    after: Option<Duration>,
    /// Since when it has been idle.
    since: Option<Instant>,
    /// Its match is over: it leaves memory as soon as it is idle.
    over: bool,
}

impl Eviction {
    /// A room that leaves memory after `after` idle, if ever.
    pub fn new(after: Option<Duration>) -> Eviction {
        Eviction {
            after,
            since: None,
            over: false,
        }
    }

    /// The room's match is over: from now on it leaves memory as soon as it is idle (if it
    /// leaves memory at all).
    pub fn match_over(&mut self) {
        self.over = true;
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
        let after = if self.over {
            self.after.map(|_| Duration::ZERO)
        } else {
            self.after
        };
        Some(self.since? + after?)
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
        forever.match_over();
        assert_eq!(forever.deadline(), None, "not even once its match is over");
    }

    #[test]
    fn a_finished_rooms_countdown_is_zero() {
        let start = Instant::now();
        let mut idle = Eviction::new(Some(Duration::from_secs(60)));
        idle.match_over();
        assert_eq!(idle.deadline(), None, "busy: it stays");
        idle.observe(true, start);
        assert_eq!(idle.deadline(), Some(start));
        assert!(idle.is_due(start));
    }
}
