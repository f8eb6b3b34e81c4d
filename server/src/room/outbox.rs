//! A connection's outgoing queue as rooms see it: bounded, never awaited. A client too slow to
//! drain it is disconnected (it can reconnect and resync) instead of slowing down the room.
//! Messages are shared bytes: one serialised message goes to every follower of a viewer class
//! without a copy per connection.

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warroom_protocol::ServerMsg;

/// Where messages for one connection go.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// Serialised messages, drained by the connection's writer half.
    queue: mpsc::Sender<Utf8Bytes>,
    /// Cancelled to disconnect the client (its queue overflowed).
    kick: CancellationToken,
}

/// A message could not be queued: the connection is gone or was just disconnected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gone;

impl Outbox {
    /// An outbox over this queue; `kick` disconnects the connection.
    pub fn new(queue: mpsc::Sender<Utf8Bytes>, kick: CancellationToken) -> Self {
        Outbox { queue, kick }
    }

    /// Queues a message without waiting. When the queue is full the connection is disconnected.
    pub fn send(&self, message: &ServerMsg) -> Result<(), Gone> {
        match serde_json::to_string(message) {
            Ok(text) => self.send_text(text.into()),
            Err(error) => {
                tracing::error!("cannot serialise a server message: {error}");
                Ok(())
            }
        }
    }

    /// Queues an already serialised message (rooms serialise once per viewer class and share
    /// the bytes), like [`Outbox::send`].
    pub fn send_text(&self, text: Utf8Bytes) -> Result<(), Gone> {
        match self.queue.try_send(text) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::info!("disconnecting a slow client: its outgoing queue is full");
                self.kick.cancel();
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
