//! How a room answers an action. A connection of this node does not wait for the answer: the
//! room queues the `ack` (or the refusal) to the connection's own outbox itself, right behind
//! the action's `applied` messages, so the connection's writer wakes once and writes both in one
//! flush, and its reader goes on at once. Nothing else changes for the client: the `ack` still
//! follows the `applied`, and still means committed. A follower on another node (and the room's
//! tests) wait for the answer over a `oneshot` as for any other command.
//!
//! An answer is given exactly once: a queued answer the room drops unanswered (its task ended)
//! tells the client `room_not_found`, as a dropped `oneshot` does to a waiting asker.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::oneshot;
use warroom_protocol::{RoomId, ServerMsg};

use super::Outbox;
use warroom_room::Answer;

use crate::error::ApiError;
use crate::metrics::Metrics;

/// Where the answer to a command goes.
#[derive(Debug)]
pub enum Reply {
    /// The asker waits for it.
    Wait(oneshot::Sender<Result<Answer, ApiError>>),
    /// An action of a socket of this node: the room queues it to the connection's outbox.
    Queue(QueuedAnswer),
    /// Nobody waits (`leave`).
    Nobody,
}

impl Reply {
    /// Gives the answer.
    pub fn send(self, answer: Result<Answer, ApiError>) {
        match self {
            Reply::Wait(reply) => {
                let _ = reply.send(answer);
            }
            Reply::Queue(queued) => queued.send(answer.and_then(|answer| match answer {
                Answer::Seq(seq) => Ok(seq),
                other => Err(ApiError::internal(format!("an action answered {other:?}"))),
            })),
            Reply::Nobody => {}
        }
    }
}

/// The answer to one action of a connection of this node, queued by the room.
#[derive(Debug)]
pub struct QueuedAnswer {
    /// The connection's outgoing queue.
    outbox: Outbox,
    /// The room the action was sent to.
    room: RoomId,
    /// The client's id for the action.
    id: String,
    /// When the connection read it (for `action_seconds`).
    read_at: Instant,
    metrics: Arc<Metrics>,
    /// Set once answered (a dropped answer tells the client `room_not_found`).
    answered: bool,
}

impl QueuedAnswer {
    /// The answer to the action `id` the connection read at `read_at` for `room`.
    pub fn new(
        outbox: Outbox,
        room: RoomId,
        id: String,
        read_at: Instant,
        metrics: Arc<Metrics>,
    ) -> Self {
        QueuedAnswer {
            outbox,
            room,
            id,
            read_at,
            metrics,
            answered: false,
        }
    }

    /// Queues the `ack`, or the refusal as an `error` that names the action.
    pub fn send(mut self, answer: Result<u64, ApiError>) {
        self.answer(answer);
    }

    fn answer(&mut self, answer: Result<u64, ApiError>) {
        if self.answered {
            return;
        }
        self.answered = true;
        let metrics = &self.metrics;
        metrics
            .action_seconds
            .observe_duration(self.read_at.elapsed());
        let id = std::mem::take(&mut self.id);
        let message = match answer {
            Ok(seq) => {
                metrics.actions_applied.inc();
                ServerMsg::Ack {
                    room: self.room,
                    id,
                    seq,
                }
            }
            Err(error) => {
                metrics.actions_refused.inc(&error.code);
                metrics.ws_errors_sent.inc(&error.code);
                ServerMsg::error(Some(self.room), Some(id), error.body())
            }
        };
        // A full queue disconnects the client; its reader notices the kick.
        let _ = self.outbox.send(&message);
    }
}

impl Drop for QueuedAnswer {
    fn drop(&mut self) {
        if !self.answered {
            self.answer(Err(ApiError::room_not_found()));
        }
    }
}
