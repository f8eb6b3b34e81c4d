//! The actions this node's connections sent to rooms served elsewhere, not answered yet.
//!
//! An action is published to the room's node without waiting ([`Ask::Act`](super::wire::Ask)),
//! as an action of a socket of the room's own node is handed to the room without waiting: the
//! connection reads its next message at once, and the answer is queued to its outbox behind
//! the action's `applied` ([`QueuedAnswer`]). The answer comes on the room's stream, on the
//! message carrying the `applied` or a later one (`streams.rs`), so the node reads one
//! message and queues both together; in a message of its own for a refusal; on the action's
//! reply subject when the room's node is gone (NATS's "no responders") or the room does not
//! run there (`node.rs`). One that nothing answers within its deadline is answered
//! `unavailable` ([`Acts::expire`]), as a request that timed out was: sent again with its id,
//! it is answered from the log if it was stored.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use warroom_protocol::codes;

use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::room::{ConnId, QueuedAnswer};

/// One action on its way.
struct Pending {
    /// The connection that sent it.
    conn: ConnId,
    /// Where its answer goes.
    answer: QueuedAnswer,
    /// When it was published (for `warroom_cluster_forward_seconds`).
    sent: Instant,
    /// When it is answered `unavailable` if nothing answered it.
    deadline: Instant,
}

/// This node's actions on their way to other nodes, by this node's number for each.
pub struct Acts {
    next: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
    /// How long an action waits for its answer.
    patience: Duration,
    metrics: std::sync::Arc<Metrics>,
}

impl Acts {
    /// No action on its way; each waits `patience` at most for its answer.
    pub fn new(patience: Duration, metrics: std::sync::Arc<Metrics>) -> Acts {
        Acts {
            next: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            patience,
            metrics,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Connection `conn`'s action is about to be published: its number, under which its answer
    /// is expected.
    pub fn expect(&self, conn: ConnId, answer: QueuedAnswer) -> u64 {
        self.metrics.cluster_forwarded.inc();
        let ask = self.next.fetch_add(1, Ordering::Relaxed);
        let sent = Instant::now();
        let pending = Pending {
            conn,
            answer,
            sent,
            deadline: sent + self.patience,
        };
        self.lock().insert(ask, pending);
        ask
    }

    /// Action `ask` is answered (its `ack`, or its refusal as an `error`, queued to its
    /// connection); an answer to an action answered already (or unknown) is dropped.
    pub fn answer(&self, ask: u64, result: Result<u64, ApiError>) {
        let Some(pending) = self.lock().remove(&ask) else {
            return;
        };
        self.metrics
            .cluster_forward_seconds
            .observe(pending.sent.elapsed().as_secs_f64());
        if matches!(&result, Err(error) if error.code == codes::UNAVAILABLE) {
            self.metrics.cluster_forward_failures.inc();
        }
        pending.answer.send(result);
    }

    /// The actions whose deadline passed by `now` are answered `unavailable`.
    pub fn expire(&self, now: Instant) {
        let late: Vec<u64> = self
            .lock()
            .iter()
            .filter(|(_, pending)| pending.deadline <= now)
            .map(|(ask, _)| *ask)
            .collect();
        for ask in late {
            self.answer(
                ask,
                Err(ApiError::unavailable(
                    "the node serving the room did not answer in time",
                )),
            );
        }
    }

    /// Connection `conn` closed: its actions' answers go nowhere.
    pub fn forget(&self, conn: ConnId) {
        self.lock().retain(|_, pending| pending.conn != conn);
    }

    /// How many actions are on their way.
    #[cfg(test)]
    pub fn on_their_way(&self) -> usize {
        self.lock().len()
    }
}
