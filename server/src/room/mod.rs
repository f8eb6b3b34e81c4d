//! Rooms: one tokio task per room owns the room and its match. Connections and REST handlers
//! talk to it through a [`RoomHandle`]: commands over a bounded channel with `oneshot` replies,
//! and a `watch` of the room's public summary for the lobby.
//!
//! A room is two halves (the sans-IO shape): [`core::RoomCore`] holds seats, followers and the
//! match and turns each input into outputs without awaiting anything; [`task::RoomTask`] is the
//! loop that owns the channels, the timer, the store and the writer and feeds the core. Beside
//! them, one module per concern: `seats` (taking seats before the start), `followers` (who
//! follows, grouped by what they may see), `presence` (the spectator cap, presence changes
//! coalesced), `eviction` (an idle room leaves memory), `summary` (the room as one identity sees it),
//! `messages` (snapshot/applied/finished per viewer), `catch_up` (what a joining connection
//! missed), `game` (a started match and its accepted client ids).

mod absence;
#[cfg(test)]
mod absence_tests;
pub mod answer;
#[cfg(test)]
mod answer_tests;
mod catch_up;
pub mod chat;
pub mod clock;
pub mod control;
pub mod core;
mod eviction;
mod expiry;
mod followers;
mod game;
#[cfg(test)]
mod loop_harness;
mod messages;
#[cfg(test)]
mod moved_tests;
mod outbox;
pub mod output;
mod patches;
mod presence;
mod registry;
pub mod rematch;
mod seats;
mod social;
mod summary;
mod task;
#[cfg(test)]
mod tests;

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use warroom_engine::Seat;
use warroom_protocol::{Identity, IdentityId, Room, RoomId};

use crate::error::ApiError;

pub use answer::{ActionReply, QueuedAnswer};
pub use chat::Mutes;
pub use eviction::DEFAULT_IDLE_EVICTION;
pub use game::Game;
pub use outbox::{Gone, Kick, Outbox};
pub use registry::{Located, Rooms};
pub use seats::SeatChange;
pub use social::Social;
pub use summary::played_by_a_person;

/// A connection's id, unique within the server process.
pub type ConnId = u64;

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

/// What a room can be asked.
#[derive(Debug)]
pub enum RoomCmd {
    /// Follow the room (and catch up from `last_seq`).
    Join {
        /// The connection.
        conn: ConnId,
        /// Who it is, if authenticated.
        identity: Option<Identity>,
        /// Where its messages go.
        via: Via,
        /// Whose chat it does not read (kept current by the connection).
        mutes: Mutes,
        /// A private room's invite code.
        invite: Option<String>,
        /// The last seq the client saw.
        last_seq: Option<u64>,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Take a seat before the start.
    TakeSeat {
        /// The connection (must follow the room).
        conn: ConnId,
        /// The seat wanted, or any free one.
        seat: Option<Seat>,
        /// The seat taken, or why not.
        reply: oneshot::Sender<Result<Seat, ApiError>>,
    },
    /// Give a seat back before the start.
    LeaveSeat {
        /// The connection (must follow the room).
        conn: ConnId,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Play an action.
    Action {
        /// The connection (must follow the room).
        conn: ConnId,
        /// The client's id for the action.
        client_id: String,
        /// The ruleset's action JSON.
        action: Value,
        /// The action's seq once durable, or why it was refused.
        reply: ActionReply,
    },
    /// Resign (G-RESIGN-1).
    Resign {
        /// The connection (must follow the room, seated).
        conn: ConnId,
        /// The resignation's seq once durable, or why it was refused.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// Take back a seat a bot plays while its player was away.
    Back {
        /// The connection (must follow the room, as the seat's player).
        conn: ConnId,
        /// Done (everyone gets the room without the takeover), or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Stop following the room.
    Leave {
        /// The connection.
        conn: ConnId,
    },
    /// Say a line of chat.
    Chat {
        /// The connection (must follow the room, authenticated).
        conn: ConnId,
        /// What it says.
        text: String,
        /// Done (the line is stored and sent), or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// After the end: a seated player's answer to a rematch.
    Rematch {
        /// The connection (must follow the room, seated).
        conn: ConnId,
        /// `false` declines.
        accept: bool,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
}

impl RoomCmd {
    /// Answers the command with `error` without doing it (a command with no reply is dropped).
    pub fn refuse(self, error: ApiError) {
        match self {
            RoomCmd::Join { reply, .. }
            | RoomCmd::LeaveSeat { reply, .. }
            | RoomCmd::Back { reply, .. }
            | RoomCmd::Chat { reply, .. }
            | RoomCmd::Rematch { reply, .. } => {
                let _ = reply.send(Err(error));
            }
            RoomCmd::TakeSeat { reply, .. } => {
                let _ = reply.send(Err(error));
            }
            RoomCmd::Action { reply, .. } => reply.send(Err(error)),
            RoomCmd::Resign { reply, .. } => {
                let _ = reply.send(Err(error));
            }
            RoomCmd::Leave { .. } => {}
        }
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

    /// Sends a command and waits for its reply.
    pub async fn ask<T>(
        &self,
        command: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> RoomCmd,
    ) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .try_send(command(reply))
            .map_err(|error| match error {
                mpsc::error::TrySendError::Full(_) => ApiError::busy(),
                mpsc::error::TrySendError::Closed(_) => ApiError::room_not_found(),
            })?;
        answer.await.map_err(|_| ApiError::room_not_found())?
    }

    /// Hands an action to the room without waiting: the room queues its answer to the
    /// connection's outbox (`answer.rs`). A full or stopped room's refusal is queued the same way.
    pub fn act(&self, conn: ConnId, client_id: String, action: Value, answer: QueuedAnswer) {
        let command = RoomCmd::Action {
            conn,
            client_id,
            action,
            reply: ActionReply::Queue(answer),
        };
        if let Err(error) = self.commands.try_send(command) {
            let (refusal, command) = match error {
                mpsc::error::TrySendError::Full(command) => (ApiError::busy(), command),
                mpsc::error::TrySendError::Closed(command) => (ApiError::room_not_found(), command),
            };
            command.refuse(refusal);
        }
    }

    /// Sends a command that has no reply (waiting for room in the queue); a stopped room
    /// ignores it.
    pub async fn tell(&self, command: RoomCmd) {
        let _ = self.commands.send(command).await;
    }
}
