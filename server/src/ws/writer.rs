//! A connection's writer half: drains the connection's outgoing queue into the socket, a burst
//! of queued messages per flush, with a ping every so often, then closes the socket with the
//! reason the connection ended. Spectators' messages may wait for the writer's pace
//! (`room/outbox.rs`): written a few times a second, in one flush each.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, close_code};
use futures_util::{FutureExt, Sink, SinkExt};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warroom_protocol::codes;

use crate::metrics::Metrics;
use crate::room::{Kick, Signals};

/// How long closing a socket may take (the close frame, then the TCP shutdown): a client that
/// reads nothing cannot keep its connection.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// Why the server closes a socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CloseReason {
    /// Its outgoing queue overflowed.
    Slow,
    /// The server is stopping.
    Shutdown,
    /// The client went away or the socket failed.
    Client,
    /// It did not say `hello` in time.
    NoHello,
    /// It answered no ping in time.
    Dead,
    /// It sent a frame over the hard limit.
    TooBig,
    /// A room it follows moved to another node (cluster mode): reconnect and join again.
    Moved,
}

impl CloseReason {
    /// The close frame that says it.
    fn frame(self) -> Option<CloseFrame> {
        let (code, reason) = match self {
            CloseReason::Slow => (close_code::POLICY, codes::SLOW_CONSUMER),
            CloseReason::Shutdown => (close_code::AWAY, codes::SHUTTING_DOWN),
            CloseReason::NoHello => (close_code::POLICY, codes::HELLO_TIMEOUT),
            CloseReason::Dead => (close_code::POLICY, codes::PING_TIMEOUT),
            CloseReason::TooBig => (close_code::SIZE, codes::FRAME_TOO_LARGE),
            CloseReason::Moved => (close_code::RESTART, codes::ROOM_MOVED),
            CloseReason::Client => return None,
        };
        Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        })
    }
}

/// Ends a connection with a reason: the reader and writer halves both watch `token`; rooms
/// cancel it through the [`Outbox`] when the queue overflows (`Slow`) or the room moved to
/// another node (`Moved`), saying which in `kicked`.
#[derive(Clone, Default)]
pub(super) struct Closer {
    pub(super) token: CancellationToken,
    reason: Arc<OnceLock<CloseReason>>,
    pub(super) kicked: Arc<OnceLock<Kick>>,
}

impl Closer {
    pub(super) fn close(&self, reason: CloseReason) {
        let _ = self.reason.set(reason);
        self.token.cancel();
    }

    fn reason(&self) -> CloseReason {
        match (self.reason.get(), self.kicked.get()) {
            (Some(reason), _) => *reason,
            (None, Some(Kick::Moved)) => CloseReason::Moved,
            (None, _) => CloseReason::Slow,
        }
    }
}

/// Most queued messages written to the socket before one flush.
const WRITE_BATCH: usize = 64;

/// A connection's outgoing messages as its writer sees them (`room/outbox.rs`).
pub(super) struct Outgoing {
    /// The messages, in order.
    pub(super) queue: mpsc::Receiver<Utf8Bytes>,
    /// Told when an urgent message is queued, and whether a paced one was.
    pub(super) signals: Arc<Signals>,
    /// How long after a write that carried a paced message the next one may wait for an urgent
    /// message.
    pub(super) pace: Pace,
}

/// How long a writer that has just written waits before it writes paced messages again.
///
/// Spread, each wait is drawn anew between half and one and a half times the pace (the same
/// pace on average). Otherwise the spectators of a match would write in step for ever: one
/// action reaches all of them at once, so each writes at once and then waits out the same
/// pace, and every pace the runtime would wake and write hundreds of sockets in one burst,
/// which the players' messages queue behind. Spread, their writes drift apart within a few
/// paces and a burst is a handful of sockets.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pace {
    every: Duration,
    /// The spread's generator (SplitMix64: eight bytes in every connection's writer, where ten
    /// thousand idle sockets must fit in 150 MiB); `None` when every wait is exactly `every`.
    spread: Option<u64>,
}

impl Pace {
    /// Every wait exactly `every` (zero: messages are never held).
    #[cfg(test)]
    pub(super) fn exact(every: Duration) -> Pace {
        Pace {
            every,
            spread: None,
        }
    }

    /// Waits of `every` on average, each drawn from `[every / 2, every * 3 / 2)`, from `seed`.
    pub(super) fn spread(every: Duration, seed: u64) -> Pace {
        Pace {
            every,
            spread: Some(seed),
        }
    }

    /// True when messages are never held.
    fn is_zero(&self) -> bool {
        self.every.is_zero()
    }

    /// The next wait.
    fn next_wait(&mut self) -> Duration {
        let Some(state) = &mut self.spread else {
            return self.every;
        };
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // A fraction in [0, 1) with 53 bits.
        let fraction = (z >> 11) as f64 / (1u64 << 53) as f64;
        self.every.mul_f64(0.5 + fraction)
    }
}

/// Sends queued messages (and a ping every `ping_every`) until the queue closes or the
/// connection is closed, then closes the socket with a reason (after what was still queued
/// when a room moved), giving up after
/// [`CLOSE_GRACE`] when the client reads nothing. What is queued at once (up to
/// [`WRITE_BATCH`] messages) is written with one flush: one system call for an `applied` and
/// its `ack`, or a catch-up. Once the queue is empty after a write that carried a paced
/// message, the next write waits until the pace is over unless an urgent message comes: a
/// spectator's socket is woken and written a few times a second however fast its rooms play, a
/// player's at once ([`Pace`]: spread, so a match's spectators do not all write at the same
/// moments). After urgent messages only nothing is waited out: no timer wakes a player's
/// writer after each of its writes.
pub(super) async fn write_loop<S>(
    mut sink: S,
    outgoing: Outgoing,
    closer: Closer,
    shutdown: CancellationToken,
    ping_every: Duration,
    metrics: Arc<Metrics>,
) where
    S: Sink<Message, Error = axum::Error> + Unpin,
{
    let Outgoing {
        queue: mut outgoing,
        signals,
        mut pace,
    } = outgoing;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    let mut paced_until = None;
    // Made once and polled again on every turn: a new one per turn would register with (and
    // leave) each token's waiter list every time, a lock each.
    let closed = closer.token.cancelled();
    let stopping = shutdown.cancelled();
    tokio::pin!(closed, stopping);
    let reason = loop {
        if let Some(until) = paced_until.take() {
            // Not polling the queue meanwhile: queuing a paced message wakes nobody.
            tokio::select! {
                biased;
                () = &mut closed => break closer.reason(),
                () = &mut stopping => break CloseReason::Shutdown,
                () = signals.urgent.notified() => {}
                () = tokio::time::sleep_until(until) => {}
            }
        }
        let first = tokio::select! {
            biased;
            () = &mut closed => break closer.reason(),
            message = outgoing.recv() => match message {
                Some(text) => Message::Text(text),
                None => break if shutdown.is_cancelled() {
                    CloseReason::Shutdown
                } else if closer.token.is_cancelled() {
                    closer.reason()
                } else {
                    CloseReason::Client
                },
            },
            () = &mut stopping => break CloseReason::Shutdown,
            _ = pings.tick() => Message::Ping(Default::default()),
        };
        // The urgent messages told of so far are this one or queued behind it, and this burst
        // takes them: their permit must not end the next pace at once (without a pace, nothing
        // waits for it).
        if !pace.is_zero() {
            let _ = signals.urgent.notified().now_or_never();
        }
        let burst = async {
            let mut next = Some(first);
            let mut written = 0;
            while let Some(message) = next.take() {
                if let Message::Text(text) = &message {
                    metrics.ws_messages_sent.inc();
                    metrics.ws_bytes_sent.inc_by(text.len() as u64);
                }
                sink.feed(message).await?;
                written += 1;
                if written < WRITE_BATCH {
                    next = outgoing.try_recv().ok().map(Message::Text);
                }
            }
            sink.flush().await
        };
        let started = tokio::time::Instant::now();
        // A client that stops reading blocks this write: closing must still win.
        tokio::select! {
            sent = burst => {
                if sent.is_err() {
                    break CloseReason::Client;
                }
                if !pace.is_zero() && outgoing.is_empty() && signals.take_paced() {
                    paced_until = Some(started + pace.next_wait());
                }
            }
            () = &mut closed => break closer.reason(),
            () = &mut stopping => break CloseReason::Shutdown,
        }
    };
    if reason == CloseReason::Slow {
        metrics.slow_consumer_kicks.inc();
    }
    let _ = tokio::time::timeout(CLOSE_GRACE, async {
        if reason == CloseReason::Moved {
            // What was queued before the room moved goes first: the `room_moved` error the
            // node queued with the kick tells the client which room to join again.
            while let Ok(text) = outgoing.try_recv() {
                if sink.feed(Message::Text(text)).await.is_err() {
                    break;
                }
            }
        }
        if let Some(frame) = reason.frame() {
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        let _ = sink.close().await;
    })
    .await;
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
