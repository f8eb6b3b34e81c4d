//! The presence flusher (cluster mode): every [`FLUSH_EVERY`] this node writes, in one
//! statement, the presence of the public waiting or playing rooms it serves whose presence
//! changed since the last write (`store/presence.rs`), each stamped with the epoch of this
//! node's lease on it; and removes the rows of the rooms it no longer serves or lists, and
//! every [`SWEEP_EVERY`] flushes the rows no live lease stands behind (a dead node's). The
//! other nodes' lobby and quick play read them (`AppState::lobby_summaries`), so a room served
//! here shows who is connected wherever the lobby is asked.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use warroom_protocol::RoomId;

use crate::room::Rooms;
use crate::store::Store;
use crate::store::presence::RoomPresence;

/// How often the changed presence is written.
pub const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// How many flushes between two sweeps of the rows of dead nodes (5 s).
pub const SWEEP_EVERY: u32 = 50;

/// What this node wrote last, per room: the epoch and the presence.
#[derive(Debug, Default)]
pub struct Flusher {
    written: HashMap<RoomId, (i64, RoomPresence)>,
}

impl Flusher {
    /// One flush: writes what changed, removes what is gone. How many rows it wrote and
    /// removed.
    pub async fn flush(
        &mut self,
        node: &str,
        rooms: &Rooms,
        store: &Store,
    ) -> sqlx::Result<(u64, u64)> {
        let now = rooms.served_presence();
        let changed: Vec<(RoomId, i64, RoomPresence)> = now
            .iter()
            .filter(|(room, epoch, presence)| {
                self.written
                    .get(room)
                    .is_none_or(|(was_epoch, was)| was_epoch != epoch || was != presence)
            })
            .cloned()
            .collect();
        let listed: std::collections::HashSet<RoomId> =
            now.iter().map(|(room, _, _)| *room).collect();
        let gone: Vec<(RoomId, i64)> = self
            .written
            .iter()
            .filter(|(room, _)| !listed.contains(room))
            .map(|(room, (epoch, _))| (*room, *epoch))
            .collect();
        let wrote = store.write_presence(node, &changed).await?;
        for (room, epoch, presence) in changed {
            self.written.insert(room, (epoch, presence));
        }
        let removed = store.clear_presence(node, &gone).await?;
        for (room, _) in gone {
            self.written.remove(&room);
        }
        Ok((wrote, removed))
    }
}

/// Flushes every [`FLUSH_EVERY`] until `stop`.
pub async fn flush_until(node: Arc<str>, rooms: Arc<Rooms>, store: Store, stop: CancellationToken) {
    let mut flusher = Flusher::default();
    let mut flushes = 0u32;
    let mut every = tokio::time::interval(FLUSH_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = every.tick() => {}
        }
        if let Err(error) = flusher.flush(&node, &rooms, &store).await {
            tracing::warn!(node = %node, "cannot write the rooms' presence: {error}");
        }
        flushes = flushes.wrapping_add(1);
        if flushes.is_multiple_of(SWEEP_EVERY)
            && let Err(error) = store.clear_stale_presence().await
        {
            tracing::warn!(node = %node, "cannot sweep the rooms' presence: {error}");
        }
    }
}
