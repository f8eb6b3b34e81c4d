//! The batching writer: one task collects the appends of every room and commits them together,
//! answering each room once its append is durable. Under load many rooms share one commit (one
//! fsync), so durability costs little per action; with one room it costs one commit per action.
//! A batch costs a fixed number of statements whatever its size (one `INSERT` of every action;
//! the rows travel as one JSON parameter; a match's row changes only when it ends). A batch of
//! running matches only (no match ending) is that one `INSERT` in autocommit, one round trip
//! (fenced by the rooms' leases in cluster mode on PostgreSQL: the same statement locks and
//! checks them first, [`insert_fenced_actions`]); the others are a transaction. On PostgreSQL several batches may be in flight at once
//! (`lanes`, each on its own connection), so the next batch is written while the previous one's
//! commit waits for its fsync, and the database flushes the commits that meet together; but a
//! lane starts a batch beside another's commit only once an eighth of the largest batch queued
//! ([`Task::gather`]): below that, what arrives during a commit goes with the next one, so a
//! moderate load is not cut into a commit per action. Each room has at most one append in
//! flight, so batches never race for one match.
//!
//! A batch the database may hold already (the connection broke once its commit was sent, or its
//! rows meet stored ones: a statement delayed on the network landed after its room gave it up,
//! and the action came again) is settled before anyone is answered: written again with conflicts
//! ignored and read back on a fresh connection ([`Task::settle`]).
//!
//! A lane is a task of its own for the writer's lifetime: it takes what queued straight from the
//! rooms' channel and keeps its connection between batches, so a batch costs no task spawn and
//! no pool round trips (sqlx pings a connection when it is handed out and again when it is given
//! back: two round trips to the database per batch otherwise). A connection that failed is given
//! back (and closed if broken), and the lane takes another for its next batch; a kept connection
//! that turns out dead before anything was committed (the database restarted meanwhile) is
//! replaced and the batch written once more.
//!
//! A database that stops answering must not hold actions for long: taking a connection and
//! writing the rows must finish within the database timeout, or the transaction is dropped
//! (rolled back) and its appends fail (`unavailable`); a transaction's `COMMIT` itself is awaited
//! without a bound, since once sent its outcome is the database's, and an action is answered
//! only with that outcome (an autocommit `INSERT` that outlives the timeout is settled).
//! [`WriterHealth`] tells `/readyz` whether a batch is stuck.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Connection, Row};
use tokio::sync::{Mutex, Notify, mpsc, oneshot};
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;
use warroom_protocol::{MatchState, RoomId, RoomState, json_text};

use warroom_room::Append;

use super::leases::Fence;
use super::{Dialect, SqlType, Store, now_ms};
use crate::batching::take_what_ready_tasks_queue;
use crate::metrics::Metrics;

/// An accepted action to make durable (the room's [`Append`]) and, in cluster mode, the room's
/// lease as this node holds it: the row is written only if the lease is still this node's at
/// this epoch and not expired ([`AppendError::Moved`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FencedAppend {
    /// The action as the room accepted it.
    pub append: Append,
    /// Its room's lease, in cluster mode.
    pub fence: Option<Fence>,
}

impl std::ops::Deref for FencedAppend {
    type Target = Append;

    fn deref(&self) -> &Append {
        &self.append
    }
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
    /// The room's lease is no longer this node's (another node took it over, or it expired):
    /// nothing was written, and the room must stop here (`room_moved`).
    #[error("the room's lease moved on")]
    Moved,
    /// The log holds another action at this seq (one the room gave up on, after the database
    /// could not say whether it was stored, and that landed later): nothing was written, and
    /// the room's memory is behind its log, so the room must be loaded from the log again.
    #[error("the match's log holds another action at this seq")]
    Behind,
}

type Request = (FencedAppend, oneshot::Sender<Result<(), AppendError>>);

/// What `/readyz` knows of the writer.
#[derive(Debug)]
pub struct WriterHealth {
    /// For each lane, when the batch it is writing began (Unix ms), 0 when idle.
    busy_since_ms: Vec<AtomicI64>,
    /// Whether the last batch failed.
    last_failed: AtomicBool,
    /// Whether the task has ended.
    stopped: AtomicBool,
}

impl Default for WriterHealth {
    fn default() -> Self {
        WriterHealth::new(1)
    }
}

impl WriterHealth {
    fn new(lanes: usize) -> WriterHealth {
        WriterHealth {
            busy_since_ms: (0..lanes.max(1)).map(|_| AtomicI64::new(0)).collect(),
            last_failed: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
        }
    }

    /// `Ok` when the writer runs and no batch has been in hand longer than `limit`; else why.
    pub fn check(&self, limit: Duration) -> Result<(), String> {
        if self.stopped.load(Ordering::Acquire) {
            return Err("the writer has stopped".into());
        }
        let now = now_ms();
        let limit = i64::try_from(limit.as_millis()).unwrap_or(i64::MAX);
        for since in &self.busy_since_ms {
            let since = since.load(Ordering::Acquire);
            let busy = now.saturating_sub(since);
            if since != 0 && busy > limit {
                return Err(format!("a batch has been in hand for {busy} ms"));
            }
        }
        Ok(())
    }

    /// Whether the last batch failed.
    pub fn last_failed(&self) -> bool {
        self.last_failed.load(Ordering::Acquire)
    }
}

/// A handle to the writer task; cheap to clone, one per room.
#[derive(Clone, Debug)]
pub struct Writer {
    /// Bounded, so a database that falls behind slows the rooms instead of eating memory.
    requests: mpsc::Sender<Request>,
    /// Shared with the task.
    health: Arc<WriterHealth>,
    /// The database timeout: writing an append's rows takes at most this.
    timeout: Duration,
}

impl Writer {
    /// Starts the writer task. It runs until every handle is dropped or `stop` is cancelled;
    /// either way it commits everything already queued before it ends. Up to `lanes` batches
    /// are written at once, each in its own transaction on its own connection: while one
    /// batch's commit waits for its fsync, the next (once an eighth of `max_batch` queued) is
    /// already being written, and the database flushes the commits that meet there together.
    pub fn spawn(
        store: Store,
        max_batch: usize,
        lanes: usize,
        timeout: Duration,
        metrics: Arc<Metrics>,
        stop: CancellationToken,
    ) -> (Writer, JoinHandle<()>) {
        let lanes = lanes.max(1);
        let (requests, inbox) = mpsc::channel(max_batch.max(1) * 4);
        let health = Arc::new(WriterHealth::new(lanes));
        let writer = Task {
            store,
            in_flight: AtomicUsize::new(0),
            settled: Notify::new(),
            timeout,
            metrics,
            health: health.clone(),
        };
        let task = tokio::spawn(writer.run(inbox, max_batch.max(1), lanes, stop));
        let writer = Writer {
            requests,
            health,
            timeout,
        };
        (writer, task)
    }

    /// How long an action's sender may wait for its answer: twice the database timeout (the
    /// rows are written within one; a `COMMIT` that takes longer is answered `unavailable`, and
    /// the action may still be stored: sent again with its id, it is answered from the log).
    pub fn answer_timeout(&self) -> Duration {
        self.timeout * 2
    }

    /// How the writer is doing.
    pub fn health(&self) -> Arc<WriterHealth> {
        self.health.clone()
    }

    /// Appends one action and waits until it is committed.
    pub async fn append(&self, append: FencedAppend) -> Result<(), AppendError> {
        let (reply, durable) = oneshot::channel();
        self.requests
            .send((append, reply))
            .await
            .map_err(|_| AppendError::Stopped)?;
        durable.await.map_err(|_| AppendError::Stopped)?
    }
}

#[cfg(test)]
impl Writer {
    /// A writer that stores nothing and reports every append committed at once, handing each
    /// to the returned receiver (for room loop tests with paused time and no database).
    pub fn accepting_all() -> (Writer, mpsc::UnboundedReceiver<FencedAppend>) {
        Writer::committing_after(Duration::ZERO)
    }

    /// The same, each commit taking `delay` (a database slower than the answer timeout).
    pub fn committing_after(delay: Duration) -> (Writer, mpsc::UnboundedReceiver<FencedAppend>) {
        let (seen, appends) = mpsc::unbounded_channel();
        let writer = Writer::answering(delay, move |append| {
            let _ = seen.send(append);
            Ok(())
        });
        (writer, appends)
    }

    /// A writer that stores nothing and refuses every append with `error`, handing each
    /// append's fence to the returned receiver.
    pub fn refusing(error: AppendError) -> (Writer, mpsc::UnboundedReceiver<Option<Fence>>) {
        let (seen, fences) = mpsc::unbounded_channel();
        let writer = Writer::answering(Duration::ZERO, move |append| {
            let _ = seen.send(append.fence);
            Err(error.clone())
        });
        (writer, fences)
    }

    /// A writer with no database: `answer` answers each append, after `delay`.
    fn answering(
        delay: Duration,
        mut answer: impl FnMut(FencedAppend) -> Result<(), AppendError> + Send + 'static,
    ) -> Writer {
        let (requests, mut inbox) = mpsc::channel::<Request>(16);
        tokio::spawn(async move {
            while let Some((append, reply)) = inbox.recv().await {
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                let _ = reply.send(answer(append));
            }
        });
        Writer {
            requests,
            health: Arc::new(WriterHealth::default()),
            timeout: Duration::from_secs(5),
        }
    }
}

/// The writer task's parts.
struct Task {
    store: Store,
    /// Batches being committed now.
    in_flight: AtomicUsize,
    /// Told whenever a batch's commit settles (for a lane waiting to start the next).
    settled: Notify,
    /// How long taking a connection and writing the rows may take.
    timeout: Duration,
    metrics: Arc<Metrics>,
    health: Arc<WriterHealth>,
}

/// How many queued appends make a batch worth starting while another lane's commit is in flight
/// ([`Task::gather`]): an eighth of the largest batch.
fn overlap_at(max_batch: usize) -> usize {
    (max_batch / 8).max(1)
}

/// The rooms' appends as the lanes share them: one lane at a time waits for the next batch.
type Inbox = Arc<Mutex<mpsc::Receiver<Request>>>;

impl Task {
    async fn run(
        self,
        inbox: mpsc::Receiver<Request>,
        max_batch: usize,
        lanes: usize,
        stop: CancellationToken,
    ) {
        let task = Arc::new(self);
        let inbox: Inbox = Arc::new(Mutex::new(inbox));
        let mut running = JoinSet::new();
        for index in 0..lanes {
            running.spawn(
                task.clone()
                    .lane(index, inbox.clone(), max_batch, stop.clone()),
            );
        }
        while running.join_next().await.is_some() {}
        task.health.stopped.store(true, Ordering::Release);
    }

    /// One lane: whenever it is free it waits for the first append and takes whatever else is
    /// already queued (the batch is what arrived while the lanes were busy, and what the tasks
    /// ready then queue once they have run), and commits it on its own connection, kept from
    /// one batch to the next. It ends when every handle is dropped or `stop` is cancelled;
    /// either way what is already queued is committed first.
    async fn lane(
        self: Arc<Self>,
        index: usize,
        inbox: Inbox,
        max_batch: usize,
        stop: CancellationToken,
    ) {
        let mut connection = None;
        let mut batch = Vec::with_capacity(max_batch);
        loop {
            let mut queue = inbox.lock().await;
            let mut received = 0;
            if !stop.is_cancelled() {
                received = tokio::select! {
                    received = queue.recv_many(&mut batch, max_batch) => received,
                    () = stop.cancelled() => 0,
                };
            }
            if received == 0 && stop.is_cancelled() {
                // Stopping: refuse new appends, flush the queued ones.
                queue.close();
                received = queue.recv_many(&mut batch, max_batch).await;
            }
            if received == 0 {
                break;
            }
            self.gather(&mut queue, &mut batch, max_batch, &stop).await;
            // The tasks ready now run first (rooms with an action just read): what they queue
            // joins this commit instead of the next (bench/RESULTS.md: appends per commit 7.7
            // -> 9.1 with 2 nodes, 15.8 -> 19.5 in one process, for one turn; 2 nodes 5 % less
            // CPU per action for up to four).
            take_what_ready_tasks_queue(&mut batch, max_batch, || queue.try_recv().ok()).await;
            drop(queue);
            self.in_flight.fetch_add(1, Ordering::AcqRel);
            self.commit_batch(index, &mut connection, &mut batch).await;
            self.in_flight.fetch_sub(1, Ordering::AcqRel);
            self.settled.notify_waiters();
        }
    }

    /// While another lane is committing, a batch grows until that commit settles, unless
    /// [`overlap_at`] appends queued meanwhile: a lane overlaps another's commit only when the
    /// queue is long, so at a moderate load the appends that arrive during one commit share the
    /// next (one round trip and one fsync for them all, instead of one each: less CPU for the
    /// server and the database, for at most one commit's wait), and under a heavy load, or a
    /// slow fsync, the lanes still write while others wait for theirs.
    async fn gather(
        &self,
        queue: &mut mpsc::Receiver<Request>,
        batch: &mut Vec<Request>,
        max_batch: usize,
        stop: &CancellationToken,
    ) {
        while batch.len() < overlap_at(max_batch) && !stop.is_cancelled() {
            let settled = self.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            if self.in_flight.load(Ordering::Acquire) == 0 {
                return;
            }
            tokio::select! {
                received = queue.recv_many(batch, max_batch - batch.len()) => {
                    if received == 0 {
                        return;
                    }
                }
                () = &mut settled => return,
                () = stop.cancelled() => return,
            }
        }
    }

    async fn commit_batch(
        &self,
        lane: usize,
        connection: &mut Option<PoolConnection<Any>>,
        batch: &mut Vec<Request>,
    ) {
        let metrics = &self.metrics;
        let busy_since = &self.health.busy_since_ms[lane];
        busy_since.store(now_ms(), Ordering::Release);
        let appends: Vec<&FencedAppend> = batch.iter().map(|(append, _)| append).collect();
        let started = Instant::now();
        let results = match self.write_settled(connection, &appends).await {
            Ok(results) => results,
            Err(error) if appends.len() > 1 && !error.outage => {
                // One bad append must not fail the others: retry each in its own transaction.
                tracing::warn!(
                    "batch of {} failed ({}); retrying one by one",
                    appends.len(),
                    error.text
                );
                let mut results = Vec::with_capacity(appends.len());
                for append in &appends {
                    results.push(match self.write_settled(connection, &[append]).await {
                        Ok(mut one) => one.pop().unwrap_or(Err(AppendError::Stopped)),
                        Err(error) => Err(AppendError::Database(error.text)),
                    });
                }
                results
            }
            Err(error) => {
                tracing::warn!("batch of {} failed: {}", appends.len(), error.text);
                vec![Err(AppendError::Database(error.text)); appends.len()]
            }
        };
        drop(appends);
        metrics
            .append_commit_seconds
            .observe(started.elapsed().as_secs_f64());
        metrics.append_batch_size.observe(batch.len() as f64);
        let mut failed = false;
        for ((_, reply), result) in batch.drain(..).zip(results) {
            if matches!(result, Err(AppendError::Database(_))) {
                metrics.append_failures.inc();
                failed = true;
            }
            let _ = reply.send(result);
        }
        self.health.last_failed.store(failed, Ordering::Release);
        busy_since.store(0, Ordering::Release);
    }

    /// Writes the appends (see [`Task::write_all`]) and, when the database may hold some of
    /// them already (the connection broke once the commit was sent, or a row's place was
    /// taken), settles that before answering ([`Task::settle`]). Says, for each append, whether
    /// it is durable.
    async fn write_settled(
        &self,
        connection: &mut Option<PoolConnection<Any>>,
        appends: &[&FencedAppend],
    ) -> Result<Vec<Result<(), AppendError>>, WriteError> {
        match self.write_all(connection, appends).await {
            Ok(moved) => Ok(moved
                .into_iter()
                .map(|moved| {
                    if moved {
                        Err(AppendError::Moved)
                    } else {
                        Ok(())
                    }
                })
                .collect()),
            Err(error) if error.unknown || error.conflict => self.settle(appends, error).await,
            Err(error) => Err(error),
        }
    }

    /// Learns whether appends the database may hold are stored, and stores those that are not:
    /// on a fresh connection, in one transaction, the rows are written again with conflicts
    /// ignored (their fences checked first, as for any append), then read back. An append is
    /// durable when the row at its match and seq is its own (seat, client id and action); a row
    /// of another action there ([`AppendError::Behind`]), or none with its fence gone, fails it.
    /// A settle whose own commit has an unknown outcome is simply made again (it is idempotent),
    /// up to [`SETTLE_TRIES`] times; if the database cannot be reached for it, the appends fail
    /// as before, outcome unknown (ARCHITECTURE.md, "Acknowledged means committed").
    async fn settle(
        &self,
        appends: &[&FencedAppend],
        mut error: WriteError,
    ) -> Result<Vec<Result<(), AppendError>>, WriteError> {
        for _ in 0..SETTLE_TRIES {
            tracing::warn!(
                "a batch of {} may be stored already ({}); settling it",
                appends.len(),
                error.text
            );
            self.metrics.append_settles.inc();
            let settled = tokio::time::timeout(self.timeout, settle_rows(&self.store, appends));
            error = match settled.await {
                Ok(Ok(results)) => return Ok(results),
                Ok(Err(failed)) => {
                    let failed = WriteError::from(failed);
                    if !failed.outage {
                        // The database answered: the settle itself was refused.
                        return Err(failed);
                    }
                    WriteError {
                        unknown: true,
                        ..failed
                    }
                }
                Err(_) => {
                    WriteError::out_of_time(format!("settling took over {:?}", self.timeout), true)
                }
            };
        }
        Err(error)
    }

    /// Writes the appends in one transaction on the lane's connection; a kept connection found
    /// broken before anything was committed (an outage error, not a timeout, while writing the
    /// rows) is replaced and the transaction written once more. Says, for each append, whether
    /// it was refused by its fence (not written: its room moved); the others are committed.
    async fn write_all(
        &self,
        connection: &mut Option<PoolConnection<Any>>,
        appends: &[&FencedAppend],
    ) -> Result<Vec<bool>, WriteError> {
        let kept = connection.is_some();
        match self.write_once(connection, appends).await {
            Err(error) if kept && error.stale => self.write_once(connection, appends).await,
            written => written,
        }
    }

    /// One try of [`Task::write_all`]: takes a connection if the lane has none, writes the rows
    /// within the timeout (else the transaction is dropped, so rolled back), then commits. On
    /// any failure the connection is given back to the pool (which closes it if it is broken).
    async fn write_once(
        &self,
        connection: &mut Option<PoolConnection<Any>>,
        appends: &[&FencedAppend],
    ) -> Result<Vec<bool>, WriteError> {
        let written = self.write_and_commit(connection, appends).await;
        if written.is_err() {
            *connection = None;
        }
        written
    }

    async fn write_and_commit(
        &self,
        connection: &mut Option<PoolConnection<Any>>,
        appends: &[&FencedAppend],
    ) -> Result<Vec<bool>, WriteError> {
        if appends.iter().all(|append| append.finish.is_none()) {
            let fenced = appends.iter().all(|append| append.fence.is_some());
            let unfenced = appends.iter().all(|append| append.fence.is_none());
            if unfenced || (fenced && self.store.dialect() == Dialect::Postgres) {
                return self.insert_alone(connection, appends, fenced).await;
            }
        }
        let store = &self.store;
        let slot = &mut *connection;
        let rows = async move {
            let connection = match slot.take() {
                Some(kept) => kept,
                None => store.pool().acquire().await?,
            };
            write_rows(slot.insert(connection), store, appends).await
        };
        let (tx, moved) = tokio::time::timeout(self.timeout, rows)
            .await
            .map_err(|_| {
                WriteError::out_of_time(
                    format!("the database took over {:?} to take the rows", self.timeout),
                    false,
                )
            })?
            .map_err(|error| WriteError::from(error).before_commit())?;
        tx.commit()
            .await
            .map_err(|error| WriteError::from(error).once_sent())?;
        Ok(moved)
    }

    /// Appends with no match ending: their one `INSERT`, in autocommit (the statement is its
    /// own transaction: one round trip instead of `BEGIN`, `INSERT`, `COMMIT`), within the
    /// timeout. Once the statement is sent, a broken connection or the timeout leaves its
    /// outcome unknown ([`Task::settle`]). `fenced` (cluster mode, PostgreSQL: every append
    /// carries its lease): the same statement locks and checks the leases first
    /// ([`insert_fenced_actions`]), so a fenced batch also costs one round trip instead of four
    /// (`BEGIN`, the lease check, the `INSERT`, `COMMIT`); says which appends were refused.
    async fn insert_alone(
        &self,
        connection: &mut Option<PoolConnection<Any>>,
        appends: &[&FencedAppend],
        fenced: bool,
    ) -> Result<Vec<bool>, WriteError> {
        let started = Instant::now();
        let kept = match connection.take() {
            Some(kept) => kept,
            None => tokio::time::timeout(self.timeout, self.store.pool().acquire())
                .await
                .map_err(|_| {
                    WriteError::out_of_time(
                        format!("no connection to the database within {:?}", self.timeout),
                        false,
                    )
                })?
                .map_err(WriteError::from)?,
        };
        let slot = connection.insert(kept);
        let rows = action_rows(self.store.dialect(), appends);
        let insert = async {
            if !fenced {
                sqlx::query(insert_actions(self.store.dialect(), Conflicts::Refuse))
                    .bind(rows)
                    .execute(&mut **slot)
                    .await?;
                return Ok::<_, sqlx::Error>(vec![false; appends.len()]);
            }
            let refused = sqlx::query(insert_fenced_actions())
                .bind(rows)
                .fetch_all(&mut **slot)
                .await?
                .iter()
                .map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)))
                .collect::<sqlx::Result<Vec<(String, String, i64)>>>()?;
            Ok(appends
                .iter()
                .map(|append| fence_among(append, &refused))
                .collect())
        };
        let left = self.timeout.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, insert).await {
            Ok(Ok(moved)) => Ok(moved),
            Ok(Err(error)) => Err(WriteError::from(error).once_sent()),
            Err(_) => Err(WriteError::out_of_time(
                format!("the database took over {:?} to take the rows", self.timeout),
                true,
            )),
        }
    }
}

/// How many times [`Task::settle`] tries before it gives up.
const SETTLE_TRIES: usize = 3;

/// Why a transaction failed; `outage` when the database could not be used at all (retrying
/// the appends one by one would only wait longer); `stale` when that was found before the
/// commit was sent, at once (so nothing was written, and a fresh connection may do); `unknown`
/// when it happened once the commit was sent (the database may or may not hold the rows);
/// `conflict` when a row's match and seq (or seat and client id) were taken: the database may
/// hold the very action already (its commit had an unknown outcome, and a statement delayed on
/// the network landed after the room gave it up; the client then sent it again).
#[derive(Debug)]
struct WriteError {
    text: String,
    outage: bool,
    stale: bool,
    unknown: bool,
    conflict: bool,
}

impl WriteError {
    /// The database did not answer in time: an outage; `unknown` once the commit was sent.
    fn out_of_time(text: String, unknown: bool) -> WriteError {
        WriteError {
            text,
            outage: true,
            stale: false,
            unknown,
            conflict: false,
        }
    }

    fn before_commit(self) -> WriteError {
        WriteError {
            stale: self.outage,
            ..self
        }
    }

    /// A failure of the commit (or of a statement that commits itself): an outage leaves the
    /// outcome unknown; any other error is the database's answer, so nothing was committed.
    fn once_sent(self) -> WriteError {
        WriteError {
            unknown: self.outage,
            ..self
        }
    }
}

impl From<sqlx::Error> for WriteError {
    fn from(error: sqlx::Error) -> Self {
        WriteError {
            outage: crate::error::is_outage(&error),
            conflict: error
                .as_database_error()
                .is_some_and(|database| database.is_unique_violation()),
            text: error.to_string(),
            stale: false,
            unknown: false,
        }
    }
}

/// Begins a transaction and writes the appends' rows in it (not committed yet), except those
/// whose fence no longer holds; says which those were ([`write_fenced`]).
async fn write_rows<'c>(
    connection: &'c mut AnyConnection,
    store: &Store,
    appends: &[&FencedAppend],
) -> sqlx::Result<(sqlx::Transaction<'c, Any>, Vec<bool>)> {
    let mut tx = connection.begin().await?;
    let moved = write_fenced(&mut tx, store, appends, Conflicts::Refuse).await?;
    Ok((tx, moved))
}

/// Writes the appends' rows in `tx`, except those whose fence no longer holds; says which those
/// were. Whatever the batch's size, that is a fixed number of statements: the fence check
/// (cluster mode), one `INSERT` of every action, and for each action that ended its match the
/// match's outcome (and action count) and its room's state. A running match's row is not
/// touched: its action count is read from the log.
async fn write_fenced(
    tx: &mut sqlx::Transaction<'_, Any>,
    store: &Store,
    appends: &[&FencedAppend],
    conflicts: Conflicts,
) -> sqlx::Result<Vec<bool>> {
    let d = store.dialect();
    let moved = fenced_out(tx, appends).await?;
    let written: Vec<&FencedAppend> = appends
        .iter()
        .zip(&moved)
        .filter(|(_, moved)| !**moved)
        .map(|(append, _)| *append)
        .collect();
    if written.is_empty() {
        return Ok(moved);
    }
    sqlx::query(insert_actions(d, conflicts))
        .bind(action_rows(d, &written))
        .execute(&mut **tx)
        .await?;
    finish_matches(tx, store, &written).await?;
    Ok(moved)
}

/// For each append that ended its match, the match's outcome (and action count) and its room's
/// state; a match already marked finished keeps its first outcome and time (a settle writes
/// these again). A rated match's rating changes are written by the transaction that marks it
/// finished, and by no other (`store/ratings.rs`).
async fn finish_matches(
    tx: &mut sqlx::Transaction<'_, Any>,
    store: &Store,
    written: &[&FencedAppend],
) -> sqlx::Result<()> {
    let d = store.dialect();
    for append in written {
        let Some(outcome) = &append.finish else {
            continue;
        };
        let finished_at = now_ms();
        let ended = sqlx::query(&format!(
            "UPDATE matches SET action_count = $1, state = $2, winner = $3, reason = $4, \
             finished_at = {} WHERE id = {} AND state <> $2",
            d.time(5),
            d.uuid(6)
        ))
        .bind(i64::try_from(append.seq).unwrap_or(i64::MAX))
        .bind(MatchState::Finished.as_str())
        .bind(i64::from(outcome.winner.0))
        .bind(outcome.reason.clone())
        .bind(finished_at)
        .bind(append.match_id.to_string())
        .execute(&mut **tx)
        .await?
        .rows_affected();
        sqlx::query(&format!(
            "UPDATE rooms SET state = $1 WHERE id = {}",
            d.uuid(2)
        ))
        .bind(RoomState::Finished.as_str())
        .bind(append.room_id.to_string())
        .execute(&mut **tx)
        .await?;
        if let (1, Some(places)) = (ended, &append.rated) {
            super::ratings::rate_in(tx, d, store.rating_policy(), append, places, finished_at)
                .await?;
        }
    }
    Ok(())
}

/// What an `INSERT` of actions does with a row whose match and seq (or seat and client id) are
/// taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conflicts {
    /// Fails the statement: a live append never meets one.
    Refuse,
    /// Leaves the stored row (a settle writes rows the database may hold already).
    Ignore,
}

/// The columns of an action's row as [`action_rows`] writes them (its room's fence after them
/// when it has one).
const ACTION_ROW: [(&str, SqlType); 8] = [
    ("match_id", SqlType::Text),
    ("seq", SqlType::BigInt),
    ("seat", SqlType::BigInt),
    ("client_id", SqlType::Text),
    ("action", SqlType::Json),
    ("events", SqlType::Json),
    ("acted_by", SqlType::Text),
    ("clock", SqlType::Json),
];

/// The statement that inserts a batch's actions (one JSON parameter: [`action_rows`]), written
/// once per dialect and [`Conflicts`]: every batch runs the same text.
fn insert_actions(d: Dialect, conflicts: Conflicts) -> &'static str {
    static TEXTS: [OnceLock<String>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let dialect = match d {
        Dialect::Sqlite => 0,
        Dialect::Postgres => 1,
    };
    let slot = &TEXTS[dialect * 2 + usize::from(conflicts == Conflicts::Ignore)];
    slot.get_or_init(|| {
        format!(
            "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, \
             acted_by, clock) SELECT {}, r.seq, r.seat, r.client_id, {}, {}, r.acted_by, {} \
             FROM {}{}",
            d.as_uuid("r.match_id"),
            "r.action",
            "r.events",
            "r.clock",
            d.json_rows(1, "r", &ACTION_ROW),
            // SQLite needs the `WHERE` to read `ON CONFLICT` as the upsert clause.
            match conflicts {
                Conflicts::Refuse => "",
                Conflicts::Ignore => " WHERE true ON CONFLICT DO NOTHING",
            }
        )
    })
}

/// The one statement of a batch of fenced appends (cluster mode, PostgreSQL only; rows as
/// [`action_rows`] writes them, each with its room and fence): it locks the leases that still
/// hold (`FOR SHARE`, in room order, as [`fenced_out`] does), inserts the actions of those
/// appends only, and returns the fences that no longer hold (none, nearly always: no row to
/// send and read per room of the batch). In autocommit the locks last until the
/// statement's commit, so a node acquiring one of these leases waits for the rows, exactly as
/// with the transaction of [`write_fenced`]. The rows' JSON is parsed once (`batch`, read by
/// the check and the `INSERT`): parsed for each, a batch of 50 cost the database about 0.6 ms
/// more (bench/RESULTS.md).
fn insert_fenced_actions() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let d = Dialect::Postgres;
        format!(
            "WITH batch AS MATERIALIZED (SELECT * FROM {}), \
             held AS (SELECT room_id, owner, epoch FROM room_leases \
             WHERE (room_id, owner, epoch) IN (SELECT b.room_id::uuid, b.owner, b.epoch \
             FROM batch b) \
             AND expires_at > clock_timestamp() ORDER BY room_id FOR SHARE), \
             written AS (INSERT INTO match_actions (match_id, seq, seat, client_id, action, \
             events, acted_by, clock) SELECT {}, r.seq, r.seat, r.client_id, r.action, \
             r.events, r.acted_by, r.clock FROM batch r \
             WHERE (r.room_id::uuid, r.owner, r.epoch) IN (SELECT room_id, owner, epoch FROM held) \
             RETURNING 1) \
             SELECT DISTINCT b.room_id, b.owner, b.epoch FROM batch b \
             WHERE (b.room_id::uuid, b.owner, b.epoch) NOT IN (SELECT room_id, owner, epoch FROM held)",
            d.json_rows(
                1,
                "r",
                &[
                    ACTION_ROW.as_slice(),
                    &[
                        ("room_id", SqlType::Text),
                        ("owner", SqlType::Text),
                        ("epoch", SqlType::BigInt),
                    ],
                ]
                .concat()
            ),
            d.as_uuid("r.match_id"),
        )
    })
}

/// One settle of [`Task::settle`], on a connection of its own: in one transaction, checks the
/// appends' fences, writes the rows of those whose fence holds with conflicts ignored (and the
/// ends of their matches, which keep a first outcome), reads back the action stored at each
/// append's match and seq, and commits. Says, for each append, whether it is durable, or that
/// another action holds its place ([`AppendError::Behind`]).
async fn settle_rows(
    store: &Store,
    appends: &[&FencedAppend],
) -> sqlx::Result<Vec<Result<(), AppendError>>> {
    let d = store.dialect();
    let mut connection = store.pool().acquire().await?;
    let mut tx = connection.begin().await?;
    let moved = write_fenced(&mut tx, store, appends, Conflicts::Ignore).await?;
    let stored = sqlx::query(&format!(
        "SELECT {}, a.seq, a.seat, a.client_id, {} FROM match_actions a JOIN {} \
         ON a.match_id = {} AND a.seq = r.seq",
        d.text("a.match_id", "match_id"),
        d.text("a.action", "action"),
        d.json_rows(
            1,
            "r",
            &[("match_id", SqlType::Text), ("seq", SqlType::BigInt)]
        ),
        d.as_uuid("r.match_id"),
    ))
    .bind(action_rows(d, appends))
    .fetch_all(&mut *tx)
    .await?
    .iter()
    .map(|row| {
        let action: String = row.try_get(4)?;
        Ok((
            (row.try_get::<String, _>(0)?, row.try_get::<i64, _>(1)?),
            StoredAction {
                seat: row.try_get(2)?,
                client_id: row.try_get(3)?,
                action: serde_json::from_str(&action).unwrap_or(serde_json::Value::Null),
            },
        ))
    })
    .collect::<sqlx::Result<std::collections::HashMap<_, _>>>()?;
    tx.commit().await?;
    Ok(appends
        .iter()
        .zip(moved)
        .map(|(append, moved)| {
            let seq = i64::try_from(append.seq).unwrap_or(i64::MAX);
            match stored.get(&(append.match_id.to_string(), seq)) {
                Some(stored) if stored.is(append) => Ok(()),
                Some(_) => Err(AppendError::Behind),
                None if moved => Err(AppendError::Moved),
                None => Err(AppendError::Database(format!(
                    "seq {seq} of match {} was not stored",
                    append.match_id
                ))),
            }
        })
        .collect())
}

/// What a settle reads back of a stored action.
struct StoredAction {
    seat: i64,
    client_id: String,
    /// Compared as JSON: PostgreSQL's `jsonb` keeps neither the spacing nor the field order.
    action: serde_json::Value,
}

impl StoredAction {
    /// Whether this is `append`'s action: the same seat, client id and action.
    fn is(&self, append: &FencedAppend) -> bool {
        self.seat == i64::from(append.seat.0)
            && self.client_id == append.client_id
            && serde_json::from_str::<serde_json::Value>(&append.action)
                .is_ok_and(|action| action == self.action)
    }
}

/// The appends' rows, as one JSON array for [`Dialect::json_rows`]. The action, events and clock
/// are JSON texts the room wrote: on PostgreSQL they are embedded as they are, so the database
/// parses each once, with the parameter, straight into its `jsonb` columns (and the server
/// escapes nothing); on SQLite they travel as strings and are stored exactly as written.
fn action_rows(d: Dialect, appends: &[&FencedAppend]) -> String {
    let size: usize = appends
        .iter()
        .map(|a| a.action.len() + a.events.len() + a.clock.as_ref().map_or(4, String::len) + 160)
        .sum();
    let mut rows = Vec::with_capacity(size + 2);
    rows.push(b'[');
    for (index, append) in appends.iter().enumerate() {
        if index > 0 {
            rows.push(b',');
        }
        rows.extend_from_slice(br#"{"match_id":""#);
        uuid_text(&mut rows, &append.match_id.0);
        rows.extend_from_slice(br#"","seq":"#);
        json_text::unsigned(&mut rows, append.seq.min(i64::MAX as u64));
        rows.extend_from_slice(br#","seat":"#);
        json_text::unsigned(&mut rows, append.seat.0.into());
        rows.extend_from_slice(br#","acted_by":""#);
        rows.extend_from_slice(append.by.as_str().as_bytes());
        rows.extend_from_slice(br#"","client_id":"#);
        json_text::string(&mut rows, &append.client_id);
        if let Some(fence) = &append.fence {
            rows.extend_from_slice(br#","room_id":""#);
            uuid_text(&mut rows, &append.room_id.0);
            rows.extend_from_slice(br#"","owner":"#);
            json_text::string(&mut rows, &fence.node);
            rows.extend_from_slice(br#","epoch":"#);
            json_text::signed(&mut rows, fence.epoch);
        }
        for (key, json) in [
            (&br#","action":"#[..], Some(&append.action)),
            (br#","events":"#, Some(&append.events)),
            (br#","clock":"#, append.clock.as_ref()),
        ] {
            rows.extend_from_slice(key);
            match json {
                None => rows.extend_from_slice(b"null"),
                Some(json) if d.embeds_json() => rows.extend_from_slice(json.as_bytes()),
                Some(json) => json_text::string(&mut rows, json),
            }
        }
        rows.push(b'}');
    }
    rows.push(b']');
    // Only whole UTF-8 texts were copied in.
    String::from_utf8(rows).unwrap_or_else(|_| "[]".into())
}

/// A UUID as its hyphenated lower-case text (its `Display`).
fn uuid_text(out: &mut Vec<u8>, id: &uuid::Uuid) {
    out.extend_from_slice(
        id.hyphenated()
            .encode_lower(&mut uuid::Uuid::encode_buffer())
            .as_bytes(),
    );
}

/// Checks the fences of a transaction's appends in one statement, locking each lease that
/// still holds (`FOR SHARE`, in room order, as renewals do) until the transaction ends: a node
/// taking the room over waits for this commit, and an append whose lease moved on (another
/// owner or epoch, or expired) is not written. Says, for each append, whether it is refused.
async fn fenced_out(
    tx: &mut sqlx::Transaction<'_, Any>,
    appends: &[&FencedAppend],
) -> sqlx::Result<Vec<bool>> {
    let fenced: Vec<(RoomId, &Fence)> = appends
        .iter()
        .filter_map(|append| append.fence.as_ref().map(|fence| (append.room_id, fence)))
        .collect();
    if fenced.is_empty() {
        return Ok(vec![false; appends.len()]);
    }
    let tuples = (0..fenced.len())
        .map(|i| format!("(${}::uuid, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT room_id::text, owner, epoch FROM room_leases \
         WHERE (room_id, owner, epoch) IN ({tuples}) AND expires_at > clock_timestamp() \
         ORDER BY room_id FOR SHARE"
    );
    let mut query = sqlx::query(&sql);
    for (room, fence) in &fenced {
        query = query
            .bind(room.to_string())
            .bind(fence.node.to_string())
            .bind(fence.epoch);
    }
    let held: Vec<(String, String, i64)> = query
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)))
        .collect::<sqlx::Result<_>>()?;
    Ok(refused_fences(appends, &held))
}

/// For each append, whether its fence is not among the leases `held` (room, owner, epoch):
/// refused (`AppendError::Moved`). An append without a fence is never refused.
fn refused_fences(appends: &[&FencedAppend], held: &[(String, String, i64)]) -> Vec<bool> {
    appends
        .iter()
        .map(|append| append.fence.is_some() && !fence_among(append, held))
        .collect()
}

/// Whether the append's fence is one of `fences` (room, owner, epoch); never for an append
/// without a fence.
fn fence_among(append: &FencedAppend, fences: &[(String, String, i64)]) -> bool {
    let Some(fence) = &append.fence else {
        return false;
    };
    if fences.is_empty() {
        // Nearly always for the refused fences of a batch: no room id written out per append.
        return false;
    }
    let room = append.room_id.to_string();
    fences.iter().any(|(fenced_room, owner, epoch)| {
        *fenced_room == room && owner.as_str() == &*fence.node && *epoch == fence.epoch
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use warroom_protocol::{ActedBy, MatchId, RoomId};

    use super::{Dialect, FencedAppend, action_rows};
    use warroom_engine::Seat;

    fn append(client_id: &str, clock: Option<&str>) -> FencedAppend {
        let append = warroom_room::Append {
            match_id: MatchId::random(),
            room_id: RoomId::random(),
            seq: 7,
            seat: Seat(1),
            by: ActedBy::Clock,
            client_id: client_id.into(),
            action: r#"{"type":"end_turn","note":"a \"quoted\" é"}"#.into(),
            events: r#"[{"type":"turn","seat":0}]"#.into(),
            clock: clock.map(str::to_owned),
            finish: None,
            rated: None,
        };
        FencedAppend {
            append,
            fence: None,
        }
    }

    #[test]
    fn action_rows_embed_json_on_postgres_and_carry_its_exact_text_on_sqlite() {
        let with_clock = append(r#"c"1\"#, Some(r#"{"banks":[1,2]}"#));
        let without = append("c2", None);
        let appends = [&with_clock, &without];

        let postgres: Value = serde_json::from_str(&action_rows(Dialect::Postgres, &appends))
            .expect("PostgreSQL rows are JSON");
        let sqlite: Value = serde_json::from_str(&action_rows(Dialect::Sqlite, &appends))
            .expect("SQLite rows are JSON");
        for rows in [&postgres, &sqlite] {
            assert_eq!(rows.as_array().map(Vec::len), Some(2));
            assert_eq!(rows[0]["match_id"], json!(with_clock.match_id.to_string()));
            assert_eq!(rows[0]["seq"], json!(7));
            assert_eq!(rows[0]["seat"], json!(1));
            assert_eq!(rows[0]["acted_by"], json!("clock"));
            assert_eq!(rows[0]["client_id"], json!(r#"c"1\"#));
            assert_eq!(rows[1]["client_id"], json!("c2"));
            assert_eq!(rows[1]["clock"], Value::Null);
        }
        let action: Value = serde_json::from_str(&with_clock.action).unwrap();
        assert_eq!(postgres[0]["action"], action);
        assert_eq!(postgres[0]["events"], json!([{"type": "turn", "seat": 0}]));
        assert_eq!(postgres[0]["clock"], json!({"banks": [1, 2]}));
        assert_eq!(sqlite[0]["action"], json!(with_clock.action));
        assert_eq!(sqlite[0]["events"], json!(with_clock.events));
        assert_eq!(sqlite[0]["clock"], json!(r#"{"banks":[1,2]}"#));
        assert_eq!(action_rows(Dialect::Postgres, &[]), "[]");
    }
}
