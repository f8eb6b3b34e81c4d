//! Rooms, the IO half: one tokio task per room owns the room's core (`warroom_room::RoomCore`,
//! sans-IO: it decides everything) and does all its IO. Connections talk to a room through a
//! [`RoomHandle`]: a typed `Command` over a bounded channel, the answer on a `oneshot` or queued
//! to the connection's outbox, and a `watch` of the room's public summary for the lobby.
//!
//! Modules: `task` (the loop: a dispatcher between the room's channels, timer, store and
//! outboxes and its core), `outbox` (a connection's bounded queue as rooms see it, and the
//! answers queued to it), `registry` (spawning, finding, rebuilding and stopping rooms),
//! `eviction` (the registry's side of a room leaving memory), `stored_summary` (rooms not in
//! memory shown from the database, finished ones cached), `leasing` (this node's room
//! leases, cluster mode), `remote` (the seam through which a room reaches its followers on other
//! nodes); tests: `loop_harness` (the real loop driven with tokio's paused time),
//! `absence_tests`, `answer_tests`, `moved_tests`.

#[cfg(test)]
mod absence_tests;
#[cfg(test)]
mod answer_tests;
mod eviction;
pub mod leasing;
#[cfg(test)]
mod loop_harness;
#[cfg(test)]
mod moved_tests;
mod outbox;
mod registry;
mod remote;
mod stored_summary;
mod task;

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use warroom_engine::Seat;
use warroom_protocol::{IdentityId, Room, RoomId};

use warroom_room::{Answer, Command};

use crate::error::ApiError;

pub use crate::mutes::Mutes;
pub use eviction::DEFAULT_IDLE_EVICTION;
pub use outbox::{Gone, Kick, Outbox, QueuedAnswer, Reply, Signals, seq_of};
pub use registry::{Located, Rooms};
pub use remote::{Overflow, Remote, RemoteAnswer, Remotes};
pub use warroom_room::ConnId;
pub use warroom_room::game::Game;
pub use warroom_room::seats::SeatChange;
pub use warroom_room::summary::played_by_a_person;

/// Where a follower's messages go.
#[derive(Clone, Debug)]
pub enum Via {
    /// Its own outgoing queue: a socket of this node.
    Outbox(Outbox),
    /// The room's relay (cluster mode): a connection of another node, whose node delivers
    /// what the relay publishes for its viewer class (`cluster/relay.rs`).
    Relay(RemoteConn),
}

/// A connection of another node, as the rooms of this node follow it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RemoteConn {
    /// Its node.
    pub node: std::sync::Arc<str>,
    /// Its id there.
    pub conn: ConnId,
}

/// What a room is asked: a connection's typed command, where its answer goes and, with a
/// `join`, where its messages go.
#[derive(Debug)]
pub struct RoomCmd {
    /// The connection (of this node, or of another for a relayed follower).
    pub conn: ConnId,
    /// What it asks.
    pub command: Command,
    /// With `Join`: where its messages go.
    pub via: Option<Via>,
    /// Where the answer goes.
    pub reply: Reply,
}

impl RoomCmd {
    /// Answers the command with `error` without doing it.
    pub fn refuse(self, error: ApiError) {
        self.reply.send(Err(error));
    }
}

/// How to reach one room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    /// The room's id.
    pub id: RoomId,
    /// Bounded: a flooded room answers `busy` instead of queueing without end.
    commands: mpsc::Sender<RoomCmd>,
    /// The room as the lobby shows it (no invite code), updated by the task on every change.
    summary: watch::Receiver<Room>,
}

impl RoomHandle {
    /// True once the room's task stopped (it left memory): ask the registry again.
    pub fn is_closed(&self) -> bool {
        self.commands.is_closed()
    }

    /// The room as the lobby shows it now.
    pub fn summary(&self) -> Room {
        self.summary.borrow().clone()
    }

    /// The seat `identity` holds in the room, if any (read in place: no copy of the room).
    pub fn seat_of(&self, identity: IdentityId) -> Option<Seat> {
        self.summary.borrow().seats.iter().find_map(|info| {
            (info.player.as_ref().map(|player| player.id) == Some(identity)).then_some(info.seat)
        })
    }

    /// Sends connection `conn`'s command (with `via`, where its messages go, for a `join`)
    /// and waits for the answer.
    pub async fn ask(
        &self,
        conn: ConnId,
        command: Command,
        via: Option<Via>,
    ) -> Result<Answer, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .try_send(RoomCmd {
                conn,
                command,
                via,
                reply: Reply::Wait(reply),
            })
            .map_err(|error| match error {
                mpsc::error::TrySendError::Full(_) => ApiError::busy(),
                mpsc::error::TrySendError::Closed(_) => ApiError::room_not_found(),
            })?;
        answer.await.map_err(|_| ApiError::room_not_found())?
    }

    /// [`RoomHandle::ask`], waiting at most `limit`: a room waits for the database before it
    /// answers an action, and a database that does not answer must not hold the asker
    /// (`unavailable`; an action sent again with the same id is answered from the log).
    pub async fn ask_within(
        &self,
        conn: ConnId,
        command: Command,
        via: Option<Via>,
        limit: std::time::Duration,
    ) -> Result<Answer, ApiError> {
        match tokio::time::timeout(limit, self.ask(conn, command, via)).await {
            Ok(answer) => answer,
            Err(_) => Err(ApiError::unavailable(format!(
                "room {} did not answer within {limit:?}",
                self.id
            ))),
        }
    }

    /// Hands an action to the room without waiting: the room queues its answer to the
    /// connection's outbox (`answer.rs`). A full or stopped room's refusal is queued the same way.
    pub fn act(&self, conn: ConnId, client_id: String, action: Value, answer: QueuedAnswer) {
        self.act_for(conn, client_id, action, Reply::Queue(answer));
    }

    /// [`RoomHandle::act`] with the answer going to `reply` (an action of another node's
    /// connection: [`Reply::Remote`]).
    pub fn act_for(&self, conn: ConnId, client_id: String, action: Value, reply: Reply) {
        let command = RoomCmd {
            conn,
            command: Command::Action { client_id, action },
            via: None,
            reply,
        };
        if let Err(error) = self.commands.try_send(command) {
            let (refusal, command) = match error {
                mpsc::error::TrySendError::Full(command) => (ApiError::busy(), command),
                mpsc::error::TrySendError::Closed(command) => (ApiError::room_not_found(), command),
            };
            command.refuse(refusal);
        }
    }

    /// Tells the room that connection `conn` stops following it (waiting for room in the
    /// queue: it is never dropped for a full one); a stopped room ignores it.
    pub async fn leave(&self, conn: ConnId) {
        let command = RoomCmd {
            conn,
            command: Command::Leave,
            via: None,
            reply: Reply::Nobody,
        };
        let _ = self.commands.send(command).await;
    }
}
