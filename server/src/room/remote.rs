//! Followers on other nodes, as a room's loop sees them (cluster mode): the messages the room
//! cut per viewer class reach them through the room's relay, which `cluster/relay.rs`
//! implements over NATS. The room depends on this seam, not on the cluster.

use axum::extract::ws::Utf8Bytes;
use warroom_engine::Viewer;
use warroom_protocol::{Identity, IdentityId, RoomId};

use super::{ConnId, RemoteConn};

/// The relay's queue is full: its followers are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// A room's followers on other nodes.
pub trait Remote: Send {
    /// The room's task runs: answers to other nodes carry this relay's position from now on,
    /// and the nodes following the room hear it is served here now.
    fn start(&mut self);
    /// True when `conn` is a follower on another node.
    fn follows(&self, conn: ConnId) -> bool;
    /// How many follow.
    fn count(&self) -> usize;
    /// `conn` of another node follows the room.
    fn add(&mut self, conn: ConnId, remote: RemoteConn);
    /// `conn` stops following; false if it did not.
    fn remove(&mut self, conn: ConnId) -> bool;
    /// `conn` is of `class` now (its node is told before anything relies on it).
    fn enter(&mut self, conn: ConnId, class: Viewer);
    /// The seat holders are `seats` now: every follower's class is told again if they changed.
    fn reclassify(&mut self, seats: &[Option<Identity>], class_of: &dyn Fn(ConnId) -> Viewer);
    /// Sends `text` to `to` (`speaker`: a line of chat's, for the reading node's mutes).
    fn send(
        &mut self,
        to: &[ConnId],
        text: &Utf8Bytes,
        speaker: Option<IdentityId>,
        paced: bool,
    ) -> Result<(), Overflow>;
    /// Drops every follower with the close `reason`; their ids.
    fn close_all(&mut self, reason: &str) -> Vec<ConnId>;
}

/// Where the rooms of this node get their relay (cluster mode).
pub trait Remotes: Send + Sync {
    /// A relay for `room`, served here under the lease of `epoch`.
    fn relay(self: std::sync::Arc<Self>, room: RoomId, epoch: i64) -> Box<dyn Remote>;
}
