//! Followers on other nodes, as a room's loop sees them (cluster mode): the messages the room
//! cut per viewer class reach them through the room's relay, which `cluster/relay.rs`
//! implements over NATS. The room depends on this seam, not on the cluster. The answers to
//! their actions ride on the same stream ([`RemoteAnswer`]).

use axum::extract::ws::Utf8Bytes;
use warroom_engine::Viewer;
use warroom_protocol::{Identity, IdentityId, RoomId};

use super::{ConnId, RemoteConn};
use crate::error::ApiError;

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
    /// Answers follower `conn`'s action `ask` (its node's number for it) on the room's stream,
    /// behind every message sent before: on the last message not published yet when there is
    /// one (the action's `applied`), else in a message of its own.
    fn answer(&mut self, conn: ConnId, ask: u64, result: Result<u64, ApiError>);
    /// Publishes what is held back (the last message, which an answer may still ride on): the
    /// loop calls it once it has carried out the core's outputs, and before any other answer.
    fn flush(&mut self);
}

/// The answer to an action of a connection of another node, as the room's loop holds it: given
/// on the room's stream ([`Remote::answer`]) while the connection follows the room through the
/// relay; otherwise (it left, the room was refused before it ran, the room stopped) through
/// `fallback`, straight to the connection's node. Dropped unanswered, it answers
/// `room_not_found` that way.
pub struct RemoteAnswer {
    /// The connection's id here.
    pub conn: ConnId,
    /// Its node's number for the action.
    pub ask: u64,
    fallback: Option<Fallback>,
}

/// Where a [`RemoteAnswer`] goes when the room's stream cannot carry it.
type Fallback = Box<dyn FnOnce(Result<u64, ApiError>) + Send>;

impl RemoteAnswer {
    /// The answer to action `ask` of follower `conn`, given through `fallback` when the room's
    /// stream cannot carry it.
    pub fn new(
        conn: ConnId,
        ask: u64,
        fallback: impl FnOnce(Result<u64, ApiError>) + Send + 'static,
    ) -> Self {
        RemoteAnswer {
            conn,
            ask,
            fallback: Some(Box::new(fallback)),
        }
    }

    /// Gives the answer through the fallback (the room's stream cannot carry it).
    pub fn send(mut self, result: Result<u64, ApiError>) {
        if let Some(fallback) = self.fallback.take() {
            fallback(result);
        }
    }

    /// Gives the answer on the room's stream, through `remote`.
    pub fn on_stream(mut self, remote: &mut dyn Remote, result: Result<u64, ApiError>) {
        self.fallback = None;
        remote.answer(self.conn, self.ask, result);
    }
}

impl std::fmt::Debug for RemoteAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteAnswer")
            .field("conn", &self.conn)
            .field("ask", &self.ask)
            .finish()
    }
}

impl Drop for RemoteAnswer {
    fn drop(&mut self) {
        if let Some(fallback) = self.fallback.take() {
            fallback(Err(ApiError::room_not_found()));
        }
    }
}

/// Where the rooms of this node get their relay (cluster mode).
pub trait Remotes: Send + Sync {
    /// A relay for `room`, served here under the lease of `epoch`.
    fn relay(self: std::sync::Arc<Self>, room: RoomId, epoch: i64) -> Box<dyn Remote>;
}
