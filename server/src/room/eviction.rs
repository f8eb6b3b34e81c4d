//! When a room leaves memory. A room nobody follows, with nothing in flight and nothing that
//! will fall due by itself (no running clock, no bot to act, no grace period counting down, no
//! waiting-room expiry, no presence to send), is idle; after `--room-idle-eviction` idle the
//! core says `Output::Evict` (the core's `Eviction` keeps the time), its task stops and the
//! registry forgets it. Everything it holds is in the database (actions, clocks with their deadlines, seats,
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
use warroom_protocol::RoomId;

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
