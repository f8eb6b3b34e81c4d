//! The batching writer: one task collects the appends of every room and commits them together,
//! answering each room once its append is durable. Under load many rooms share one commit (one
//! fsync), so durability costs little per action; with one room it costs one commit per action.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use warroom_engine::{Outcome, Seat};
use warroom_protocol::{ActedBy, MatchId, MatchState, RoomId, RoomState};

use super::{Store, now_ms};
use crate::metrics::Metrics;

/// One accepted action to make durable.
#[derive(Clone, Debug, PartialEq)]
pub struct Append {
    /// The match it belongs to.
    pub match_id: MatchId,
    /// The room the match is played in (marked finished with it).
    pub room_id: RoomId,
    /// Its sequence number, from 1.
    pub seq: u64,
    /// Which seat it was played for.
    pub seat: Seat,
    /// Who took it.
    pub by: ActedBy,
    /// The client's id for it.
    pub client_id: String,
    /// The action JSON.
    pub action: String,
    /// The events JSON (an array, unredacted).
    pub events: String,
    /// The clock right after it (JSON), when the room has one: what a restart resumes from.
    pub clock: Option<String>,
    /// Set when this action ended the match.
    pub finish: Option<Outcome>,
}

/// Why an append is not durable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AppendError {
    /// The database refused or failed.
    #[error("the database failed: {0}")]
    Database(String),
    /// The writer has stopped (shutting down).
    #[error("the writer has stopped")]
    Stopped,
}

type Request = (Append, oneshot::Sender<Result<(), AppendError>>);

/// A handle to the writer task; cheap to clone, one per room.
#[derive(Clone, Debug)]
pub struct Writer {
    /// Bounded, so a database that falls behind slows the rooms instead of eating memory.
    requests: mpsc::Sender<Request>,
}

impl Writer {
    /// Starts the writer task. It runs until every handle is dropped or `stop` is cancelled;
    /// either way it commits everything already queued before it ends.
    pub fn spawn(
        store: Store,
        max_batch: usize,
        metrics: Arc<Metrics>,
        stop: CancellationToken,
    ) -> (Writer, JoinHandle<()>) {
        let (requests, inbox) = mpsc::channel(max_batch.max(1) * 4);
        let task = tokio::spawn(run(store, inbox, max_batch.max(1), metrics, stop));
        (Writer { requests }, task)
    }

    /// Appends one action and waits until it is committed.
    pub async fn append(&self, append: Append) -> Result<(), AppendError> {
        let (reply, durable) = oneshot::channel();
        self.requests
            .send((append, reply))
            .await
            .map_err(|_| AppendError::Stopped)?;
        durable.await.map_err(|_| AppendError::Stopped)?
    }
}

async fn run(
    store: Store,
    mut inbox: mpsc::Receiver<Request>,
    max_batch: usize,
    metrics: Arc<Metrics>,
    stop: CancellationToken,
) {
    let mut batch = Vec::with_capacity(max_batch);
    loop {
        // `recv_many` waits for the first request, then takes whatever else is already queued:
        // the batch is what arrived while the previous commit ran.
        let received = tokio::select! {
            received = inbox.recv_many(&mut batch, max_batch) => received,
            () = stop.cancelled() => break,
        };
        if received == 0 {
            return;
        }
        commit_batch(&store, &mut batch, &metrics).await;
    }
    // Stopping: refuse new appends, flush the queued ones.
    inbox.close();
    while inbox.recv_many(&mut batch, max_batch).await > 0 {
        commit_batch(&store, &mut batch, &metrics).await;
    }
}

async fn commit_batch(store: &Store, batch: &mut Vec<Request>, metrics: &Metrics) {
    let appends: Vec<&Append> = batch.iter().map(|(append, _)| append).collect();
    let started = Instant::now();
    let written = write_all(store, &appends).await;
    metrics
        .append_commit_seconds
        .observe_duration(started.elapsed());
    metrics.append_batch_size.observe(batch.len() as f64);
    match written {
        Ok(()) => {
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Ok(()));
            }
        }
        Err(error) if batch.len() > 1 => {
            // One bad append must not fail the others: retry each in its own transaction.
            tracing::warn!(
                "batch of {} failed ({error}); retrying one by one",
                batch.len()
            );
            for (append, reply) in batch.drain(..) {
                let result = write_all(store, &[&append])
                    .await
                    .map_err(|error| AppendError::Database(error.to_string()));
                if result.is_err() {
                    metrics.append_failures.inc();
                }
                let _ = reply.send(result);
            }
        }
        Err(error) => {
            metrics.append_failures.add(batch.len() as u64);
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Err(AppendError::Database(error.to_string())));
            }
        }
    }
}

async fn write_all(store: &Store, appends: &[&Append]) -> sqlx::Result<()> {
    let mut tx = store.pool().begin().await?;
    for append in appends {
        let seq = i64::try_from(append.seq).unwrap_or(i64::MAX);
        sqlx::query(
            "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, acted_by, \
             clock) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(append.match_id.to_string())
        .bind(seq)
        .bind(i64::from(append.seat.0))
        .bind(append.client_id.clone())
        .bind(append.action.clone())
        .bind(append.events.clone())
        .bind(append.by.as_str())
        .bind(append.clock.clone())
        .execute(&mut *tx)
        .await?;
        match &append.finish {
            None => {
                sqlx::query("UPDATE matches SET action_count = $1 WHERE id = $2")
                    .bind(seq)
                    .bind(append.match_id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
            Some(outcome) => {
                sqlx::query(
                    "UPDATE matches SET action_count = $1, state = $2, winner = $3, reason = $4, \
                     finished_at = $5 WHERE id = $6",
                )
                .bind(seq)
                .bind(MatchState::Finished.as_str())
                .bind(i64::from(outcome.winner.0))
                .bind(outcome.reason.clone())
                .bind(now_ms())
                .bind(append.match_id.to_string())
                .execute(&mut *tx)
                .await?;
                sqlx::query("UPDATE rooms SET state = $1 WHERE id = $2")
                    .bind(RoomState::Finished.as_str())
                    .bind(append.room_id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
        }
    }
    tx.commit().await
}
