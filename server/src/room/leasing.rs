//! This node's side of the room leases (`store/leases.rs`): which rooms it holds and at which
//! epoch, acquisitions one at a time (so two local callers never acquire the same room twice,
//! which would fence the first one out), the renewal every third of the lease, which stops at
//! once every room whose lease was lost, and the release when a room stops here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use warroom_protocol::RoomId;

use crate::store::Store;
use crate::store::leases::Fence;

/// A lease this node holds, as its room task sees it.
#[derive(Clone, Debug)]
pub struct RoomLease {
    /// What every append of the room carries.
    pub fence: Fence,
    /// Cancelled when a renewal finds the lease lost: the room stops at once (`room_moved`).
    pub lost: CancellationToken,
    /// To release the lease when the room stops here.
    pub leasing: Arc<Leasing>,
}

/// How a room stopped on this node, for its lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Its lease moved on: nothing to release.
    Moved,
    /// It left memory idle: released dormant (nobody takes it over until asked for).
    Idle,
    /// The node is stopping: handed over (another node takes it over at once).
    HandOver,
}

/// The leases of this node.
#[derive(Debug)]
pub struct Leasing {
    /// This node's id.
    pub node: Arc<str>,
    /// How long a lease lasts unless renewed.
    pub length: Duration,
    store: Store,
    /// Held leases: the epoch, and the token that stops the room.
    held: Mutex<HashMap<RoomId, (i64, CancellationToken)>>,
    /// Acquisitions and the spawning of their rooms, one at a time.
    pub acquiring: tokio::sync::Mutex<()>,
    /// Set while the node stops: no new acquisition.
    pub draining: CancellationToken,
}

impl Leasing {
    /// No lease held yet.
    pub fn new(store: Store, node: Arc<str>, length: Duration) -> Arc<Leasing> {
        Arc::new(Leasing {
            node,
            length,
            store,
            held: Mutex::new(HashMap::new()),
            acquiring: tokio::sync::Mutex::new(()),
            draining: CancellationToken::new(),
        })
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<RoomId, (i64, CancellationToken)>> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many leases this node holds.
    pub fn count(&self) -> usize {
        self.held().len()
    }

    /// The epoch of `room`'s lease, if this node holds it.
    pub fn epoch(&self, room: RoomId) -> Option<i64> {
        self.held().get(&room).map(|(epoch, _)| *epoch)
    }

    /// Acquires `room`'s lease (the caller holds `acquiring`); `None` when another node holds
    /// it or this node is stopping.
    pub async fn acquire(self: &Arc<Self>, room: RoomId) -> sqlx::Result<Option<RoomLease>> {
        if self.draining.is_cancelled() {
            return Ok(None);
        }
        let epoch = self
            .store
            .acquire_lease(room, &self.node, self.length)
            .await?;
        Ok(epoch.map(|epoch| self.hold(room, epoch)))
    }

    /// Acquires the first lease of a room created here just now (the caller holds
    /// `acquiring`): one statement, as no other node can hold or lock its lease yet; `None`
    /// when this node is stopping (or, never expected, the lease exists).
    pub async fn acquire_new(self: &Arc<Self>, room: RoomId) -> sqlx::Result<Option<RoomLease>> {
        if self.draining.is_cancelled() {
            return Ok(None);
        }
        let epoch = self
            .store
            .first_lease(room, &self.node, self.length)
            .await?;
        Ok(epoch.map(|epoch| self.hold(room, epoch)))
    }

    /// `room`'s lease, acquired at `epoch`, is this node's.
    fn hold(self: &Arc<Self>, room: RoomId, epoch: i64) -> RoomLease {
        let lost = CancellationToken::new();
        if let Some((_, old)) = self.held().insert(room, (epoch, lost.clone())) {
            // A room of ours that stopped without saying so: its appends are fenced out anyway.
            old.cancel();
        }
        tracing::info!(node = %self.node, "acquired room {room} at epoch {epoch}");
        RoomLease {
            fence: Fence {
                node: self.node.clone(),
                epoch,
            },
            lost,
            leasing: self.clone(),
        }
    }

    /// The room stopped here: forgets its lease, releasing it unless it moved on.
    pub async fn ended(&self, room: RoomId, epoch: i64, ending: Ending) {
        {
            let mut held = self.held();
            if held.get(&room).is_some_and(|(held, _)| *held == epoch) {
                held.remove(&room);
            }
        }
        if ending == Ending::Moved {
            return;
        }
        let dormant = ending == Ending::Idle;
        match self
            .store
            .release_lease(room, &self.node, epoch, dormant)
            .await
        {
            Ok(_) => tracing::info!(node = %self.node, "released room {room} ({ending:?})"),
            // It expires on its own.
            Err(error) => tracing::warn!("cannot release the lease of room {room}: {error}"),
        }
    }

    /// Renews every lease held, and says the node is alive; stops the rooms whose lease was
    /// lost. Returns how many were lost.
    pub async fn renew(&self) -> sqlx::Result<usize> {
        let rooms: Vec<RoomId> = self.held().keys().copied().collect();
        self.store
            .node_alive(&self.node, self.length, self.draining.is_cancelled())
            .await?;
        let lost = self
            .store
            .renew_leases(&self.node, &rooms, self.length)
            .await?;
        let mut held = self.held();
        for room in &lost {
            if let Some((epoch, token)) = held.remove(room) {
                tracing::warn!(node = %self.node, "lost the lease of room {room} (epoch {epoch})");
                token.cancel();
            }
        }
        Ok(lost.len())
    }

    /// Renews every third of the lease until `stop`.
    pub async fn renew_until(self: Arc<Self>, stop: CancellationToken) {
        let every = self.length / 3;
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(every) => {}
            }
            if let Err(error) = self.renew().await {
                tracing::warn!(node = %self.node, "cannot renew the leases: {error}");
            }
        }
    }
}
