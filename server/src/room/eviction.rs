//! When a room leaves memory. A room nobody follows, with nothing in flight and nothing that
//! will fall due by itself (no running clock, no bot to act, no grace period counting down, no
//! waiting-room expiry, no presence to send), is idle; after `--room-idle-eviction` idle its task stops and the registry forgets
//! it. Everything it holds is in the database (actions, clocks with their deadlines, seats,
//! chat, the rematch room), so the registry rebuilds it on the next `join` or REST request.
//! A waiting room is never evicted: it expires (`expiry.rs`), and is evicted once expired.
//!
//! The handshake with the registry ([`Eviction::evict`]) happens under the registry's lock: the
//! room stops only if no command waits in its queue, and closes its queue before the lock is
//! released, so a caller holding an old handle sees it closed and asks the registry again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;
use warroom_protocol::{RoomId, RoomState};

use super::core::RoomCore;
use super::{RoomCmd, RoomHandle};

/// How long a room stays idle in memory when the server does not say.
pub const DEFAULT_IDLE_EVICTION: Duration = Duration::from_secs(5 * 60);

/// The registry's map of running rooms, shared with the rooms so an idle one can leave it.
pub type Running = Arc<Mutex<HashMap<RoomId, RoomHandle>>>;

/// Locks the map; a panic elsewhere cannot leave it half-updated (each update is one call).
pub fn lock(running: &Running) -> std::sync::MutexGuard<'_, HashMap<RoomId, RoomHandle>> {
    running
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What one room needs to leave memory.
#[derive(Clone, Debug)]
pub struct Eviction {
    /// How long it stays idle first.
    pub after: Duration,
    /// The registry's map.
    pub running: Running,
    /// Rooms evicted so far (for `/metrics`).
    pub evictions: Arc<AtomicU64>,
}

impl Eviction {
    /// Takes room `id` out of the registry if no command waits in `commands`; then `commands`
    /// is closed (whatever raced in is dropped: its sender sees the room gone and asks the
    /// registry again). False when a command waits: the room serves it instead.
    pub fn evict(&self, id: RoomId, commands: &mut mpsc::Receiver<RoomCmd>) -> bool {
        let mut running = lock(&self.running);
        if !commands.is_empty() {
            return false;
        }
        commands.close();
        if running.get(&id).is_some_and(RoomHandle::is_closed) {
            running.remove(&id);
        }
        drop(running);
        self.evictions.fetch_add(1, Ordering::Relaxed);
        tracing::info!("room {id} leaves memory: idle");
        true
    }
}

impl Eviction {
    /// Takes room `id` out of the registry at once and closes `commands` (the room moved to
    /// another node: whatever waits in the queue is refused by the room).
    pub fn forget(&self, id: RoomId, commands: &mut mpsc::Receiver<RoomCmd>) {
        let mut running = lock(&self.running);
        commands.close();
        if running.get(&id).is_some_and(RoomHandle::is_closed) {
            running.remove(&id);
        }
    }
}

/// Since when a room has been idle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Idle {
    since: Option<Instant>,
}

impl Idle {
    /// Notes whether the room is idle now.
    pub fn observe(&mut self, idle: bool, now: Instant) {
        if idle {
            self.since.get_or_insert(now);
        } else {
            self.since = None;
        }
    }

    /// When the room leaves memory unless something happens.
    pub fn deadline(&self, after: Duration) -> Option<Instant> {
        self.since.map(|since| since + after)
    }
}

impl RoomCore {
    /// True when the room may leave memory: nobody follows it, nothing is in flight, and
    /// nothing would happen in it without someone coming (no clock or expiry due, no bot to
    /// act). Waiting rooms stay until they expire.
    pub fn is_idle(&self) -> bool {
        self.followers.len() == 0
            && !self.is_pending()
            && !self.is_starting()
            && self.record.state != RoomState::Waiting
            && self.next_wake().is_none()
            && !self.bot_to_act()
    }

    /// True when a bot plays the seat to act (it will act without anyone connected).
    fn bot_to_act(&self) -> bool {
        self.game
            .as_ref()
            .filter(|game| !game.is_over())
            .and_then(|game| game.runner.to_act())
            .is_some_and(|seat| self.bot_for(seat).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_counts_from_the_first_idle_moment_and_stops_when_busy() {
        let start = Instant::now();
        let after = Duration::from_secs(60);
        let mut idle = Idle::default();
        assert_eq!(idle.deadline(after), None);
        idle.observe(true, start);
        idle.observe(true, start + Duration::from_secs(10));
        assert_eq!(idle.deadline(after), Some(start + after));
        idle.observe(false, start + Duration::from_secs(20));
        assert_eq!(idle.deadline(after), None);
    }
}
