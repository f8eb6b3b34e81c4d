//! A connection's outgoing queue as rooms see it: bounded, never awaited. A client too slow to
//! drain it is disconnected (it can reconnect and resync) instead of slowing down the room.
//! Messages are shared bytes: one serialised message goes to every follower of a viewer class
//! without a copy per connection.
//!
//! A message is either urgent (the default: answers, a seat's copy of the match, chat) or
//! paced (spectators' copy of the match, [`Outbox::send_paced`]). The socket's writer wakes for
//! an urgent message at once; paced messages may wait until its next pace (`--spectator-pace`,
//! `ws/connection.rs`), so one write and one wake-up carry several actions to a spectator and a
//! room watched by hundreds keeps its players' latency. Both go through one queue, so the order
//! of a connection's messages never changes. Only a write that carried a paced message starts a
//! pace ([`Signals`]): a socket that is sent urgent messages only (a player's) never waits, and
//! no timer wakes its writer after each write.
//!
//! The answer to a command of a socket of this node goes through the same queue: the socket
//! does not wait for it, the room queues the `ack` (or the refusal) itself right behind the
//! action's `applied` messages ([`QueuedAnswer`]), so the connection's writer wakes once and
//! writes both in one flush, and its reader goes on at once; an answer the room drops
//! unanswered (its task ended) tells the client `room_not_found`. An action of a connection of
//! another node is answered on the room's stream the same way, behind its `applied`
//! ([`Reply::Remote`], `remote.rs`); the connection's node then queues it here with a
//! [`QueuedAnswer`] too. Other askers (other commands of another node's connections, tests)
//! wait on a `oneshot` ([`Reply::Wait`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use warroom_protocol::{RoomId, ServerMsg};
use warroom_room::Answer;

use super::remote::RemoteAnswer;
use crate::error::ApiError;
use crate::metrics::Metrics;

/// Why a room disconnected a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kick {
    /// Its queue overflowed (`slow_consumer`).
    Slow,
    /// The room moved to another node (`room_moved`): the client reconnects and joins again.
    Moved,
}

/// Where messages for one connection go.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// Serialised messages, drained by the connection's writer half.
    queue: mpsc::Sender<Utf8Bytes>,
    /// Cancelled to disconnect the client.
    kick: CancellationToken,
    /// Why it was disconnected (unset: its queue overflowed).
    why: Arc<OnceLock<Kick>>,
    /// Messages queued so far, when someone counts them (a follower on another node: its
    /// node waits for them before it answers the command that caused them).
    queued: Option<Arc<AtomicU64>>,
    /// Tells the writer of urgent messages and of paced ones.
    signals: Arc<Signals>,
}

/// What rooms tell a connection's writer besides the messages themselves.
#[derive(Debug, Default)]
pub struct Signals {
    /// Told of every urgent message, so a writer waiting out its pace writes at once.
    pub urgent: Notify,
    /// Set when a paced message is queued: the writer that writes it waits out its pace before
    /// it writes paced messages again.
    paced: AtomicBool,
}

impl Signals {
    /// Whether a paced message was queued since the last call (and clears it).
    pub fn take_paced(&self) -> bool {
        self.paced.swap(false, Ordering::AcqRel)
    }
}

/// A message could not be queued: the connection is gone or was just disconnected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gone;

impl Outbox {
    /// An outbox over this queue; `kick` disconnects the connection.
    pub fn new(queue: mpsc::Sender<Utf8Bytes>, kick: CancellationToken) -> Self {
        Self::telling(queue, kick, Arc::default())
    }

    /// An outbox over this queue; `kick` disconnects the connection, and `why` says why.
    pub fn telling(
        queue: mpsc::Sender<Utf8Bytes>,
        kick: CancellationToken,
        why: Arc<OnceLock<Kick>>,
    ) -> Self {
        Outbox {
            queue,
            kick,
            why,
            queued: None,
            signals: Arc::default(),
        }
    }

    /// What tells the connection's writer that an urgent or a paced message is queued.
    pub fn signals(&self) -> Arc<Signals> {
        self.signals.clone()
    }

    /// Counts the messages queued through this outbox (and its clones) in `queued`.
    pub fn counted(mut self, queued: Arc<AtomicU64>) -> Self {
        self.queued = Some(queued);
        self
    }

    /// Disconnects the connection (after what is queued) and says why.
    pub fn kick(&self, why: Kick) {
        let _ = self.why.set(why);
        self.kick.cancel();
    }

    /// Why the connection was disconnected, if it was (a full queue unless said otherwise).
    pub fn kicked(&self) -> Option<Kick> {
        self.kick
            .is_cancelled()
            .then(|| self.why.get().copied().unwrap_or(Kick::Slow))
    }

    /// Queues a message without waiting. When the queue is full the connection is disconnected.
    pub fn send(&self, message: &ServerMsg) -> Result<(), Gone> {
        match message_text(message, 128) {
            Some(text) => self.send_text(text),
            None => Ok(()),
        }
    }

    /// Queues an already serialised message (rooms serialise once per viewer class and share
    /// the bytes), like [`Outbox::send`].
    pub fn send_text(&self, text: Utf8Bytes) -> Result<(), Gone> {
        self.enqueue(text)?;
        self.signals.urgent.notify_one();
        Ok(())
    }

    /// Queues a message that may wait for the writer's next pace (a spectator's copy of the
    /// match), like [`Outbox::send_text`] otherwise. Once half the queue is taken the writer is
    /// woken all the same: a pace never gets a client that reads disconnected as too slow.
    pub fn send_paced(&self, text: Utf8Bytes) -> Result<(), Gone> {
        // Before the message: a writer that takes it sees the mark when it is done writing.
        self.signals.paced.store(true, Ordering::Release);
        self.enqueue(text)?;
        if self.queue.capacity() * 2 < self.queue.max_capacity() {
            self.signals.urgent.notify_one();
        }
        Ok(())
    }

    fn enqueue(&self, text: Utf8Bytes) -> Result<(), Gone> {
        match self.queue.try_send(text) {
            Ok(()) => {
                if let Some(queued) = &self.queued {
                    queued.fetch_add(1, Ordering::AcqRel);
                }
                Ok(())
            }
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::info!("disconnecting a slow client: its outgoing queue is full");
                self.kick(Kick::Slow);
                Err(Gone)
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(Gone),
        }
    }

    /// True once the connection is closed or disconnected.
    pub fn is_gone(&self) -> bool {
        self.kick.is_cancelled() || self.queue.is_closed()
    }
}

/// A message's JSON text as the sockets send it (`ServerMsg::write_json`), written into a
/// buffer of `size_hint` bytes and more; `None` (logged as the server bug it is) if it cannot be
/// written.
pub fn message_text(message: &ServerMsg, size_hint: usize) -> Option<Utf8Bytes> {
    let mut buffer = Vec::with_capacity(size_hint.max(64));
    if let Err(error) = message.write_json(&mut buffer) {
        tracing::error!("cannot serialise a server message: {error}");
        return None;
    }
    match String::from_utf8(buffer) {
        Ok(text) => Some(text.into()),
        Err(error) => {
            tracing::error!("a server message is not UTF-8: {error}");
            None
        }
    }
}

/// Where the answer to a command goes.
#[derive(Debug)]
pub enum Reply {
    /// The asker waits for it.
    Wait(oneshot::Sender<Result<Answer, ApiError>>),
    /// An action of a socket of this node: the room queues it to the connection's outbox.
    Queue(QueuedAnswer),
    /// An action of a connection of another node: the room's loop answers it on the room's
    /// stream, behind the action's `applied` (`RoomTask::answer`); this is its way otherwise.
    Remote(RemoteAnswer),
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
            Reply::Queue(queued) => queued.send(seq_of(answer)),
            Reply::Remote(remote) => remote.send(seq_of(answer)),
            Reply::Nobody => {}
        }
    }
}

/// An action's answer: its seq.
pub fn seq_of(answer: Result<Answer, ApiError>) -> Result<u64, ApiError> {
    answer.and_then(|answer| match answer {
        Answer::Seq(seq) => Ok(seq),
        other => Err(ApiError::internal(format!("an action answered {other:?}"))),
    })
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
            .observe(self.read_at.elapsed().as_secs_f64());
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
