//! The room loop: the thin async half of a room. It owns the command channel, the timer
//! (`tokio::time`, so tests can pause time), the followers' outboxes, the store and the batching
//! writer; it feeds the [`RoomCore`] one input at a time and carries out what it asks.
//!
//! Order matters and is kept here: a command's messages are queued to the outboxes before its
//! reply is sent (so a reply, or anything the connection sends after it, never overtakes them),
//! and an action's `applied` messages before its acknowledgement.

use std::collections::HashMap;
use std::future::pending;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;
use warroom_engine::Seed;
use warroom_protocol::{MatchId, Room};

use super::core::{RoomCore, Submitted};
use super::output::Output;
use super::{ConnId, Outbox, RoomCmd};
use crate::error::ApiError;
use crate::identity::random_bytes;
use crate::store::writer::{Append, Writer};
use crate::store::{Store, now_ms};

/// A room's task: its core and the IO around it.
pub struct RoomTask {
    /// The room's state and rules.
    core: RoomCore,
    /// Where each follower's messages go.
    outboxes: HashMap<ConnId, Outbox>,
    /// The lobby's copy of the room.
    summary: watch::Sender<Room>,
    /// For seats and the match start.
    store: Store,
    /// For accepted actions.
    writer: Writer,
    /// The append the core queued, to store next.
    to_store: Option<Append>,
    /// Replies waiting for the commit of their action, by seq.
    waiting: HashMap<u64, oneshot::Sender<Result<u64, ApiError>>>,
}

impl RoomTask {
    /// A room task over its core; the lobby's copy of the room is published at once.
    pub fn new(core: RoomCore, store: Store, writer: Writer) -> (RoomTask, watch::Receiver<Room>) {
        let summary = watch::Sender::new(core.summary());
        let receiver = summary.subscribe();
        let task = RoomTask {
            core,
            outboxes: HashMap::new(),
            summary,
            store,
            writer,
            to_store: None,
            waiting: HashMap::new(),
        };
        (task, receiver)
    }

    /// Serves until the channel closes or `stop` is cancelled (after the input in hand is
    /// finished, so an action being stored is acknowledged).
    pub async fn run(mut self, mut commands: mpsc::Receiver<RoomCmd>, stop: CancellationToken) {
        loop {
            let wake = self.core.next_wake();
            tokio::select! {
                biased;
                () = stop.cancelled() => break,
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = sleep_until_some(wake) => self.core.tick(Instant::now()),
            }
            self.drive(&stop).await;
        }
    }

    async fn handle(&mut self, command: RoomCmd) {
        match command {
            RoomCmd::Join {
                conn,
                identity,
                outbox,
                invite,
                last_seq,
                reply,
            } => {
                let fresh = self.outboxes.insert(conn, outbox).is_none();
                let result =
                    self.core
                        .join(conn, identity, invite.as_deref(), last_seq, Instant::now());
                if result.is_err() && fresh {
                    self.outboxes.remove(&conn);
                }
                self.answer(reply, result);
            }
            RoomCmd::TakeSeat { conn, seat, reply } => {
                let result = match self.core.check_take_seat(conn, seat) {
                    Ok(change) => self.store_seat(change).await,
                    Err(error) => Err(error),
                };
                self.answer(reply, result);
                if self.core.ready_to_start() {
                    self.start_match().await;
                }
            }
            RoomCmd::LeaveSeat { conn, reply } => {
                let result = match self.core.check_leave_seat(conn) {
                    Ok(change) => self.store_seat(change).await.map(|_| ()),
                    Err(error) => Err(error),
                };
                self.answer(reply, result);
            }
            RoomCmd::Action {
                conn,
                client_id,
                action,
                reply,
            } => match self.core.action(conn, client_id, &action, Instant::now()) {
                Ok(Submitted::Pending(seq)) => {
                    self.waiting.insert(seq, reply);
                }
                Ok(Submitted::Known(seq)) => self.answer(reply, Ok(seq)),
                Err(error) => self.answer(reply, Err(error)),
            },
            RoomCmd::Leave { conn } => {
                self.outboxes.remove(&conn);
                self.core.leave(conn, Instant::now());
            }
        }
    }

    /// Delivers what the command made the core say, then replies.
    fn answer<T>(
        &mut self,
        reply: oneshot::Sender<Result<T, ApiError>>,
        result: Result<T, ApiError>,
    ) {
        self.deliver();
        let _ = reply.send(result);
    }

    /// Stores a checked seat change, then lets the core apply it.
    async fn store_seat(
        &mut self,
        change: super::seats::SeatChange,
    ) -> Result<warroom_engine::Seat, ApiError> {
        let seat = change.seat;
        self.store
            .set_seat(self.core.id(), seat, change.holder.as_ref().map(|h| h.id))
            .await?;
        self.core.seat_stored(change);
        Ok(seat)
    }

    /// Every seat is taken: seed from the OS RNG, store the match, let it run.
    async fn start_match(&mut self) {
        let prepared = random_bytes()
            .map(Seed)
            .and_then(|seed| self.core.prepare_start(seed, MatchId::random(), now_ms()));
        let stored = match prepared {
            Ok(record) => self
                .store
                .start_match(&record)
                .await
                .map_err(ApiError::from),
            Err(error) => Err(error),
        };
        match stored {
            Ok(()) => self.core.started(Instant::now()),
            Err(error) => self.core.start_failed(&error),
        }
        self.deliver();
    }

    /// Stores what the core accepted, one append at a time, feeding each commit's result back
    /// and answering the action's sender after its `applied` went out.
    async fn drive(&mut self, stop: &CancellationToken) {
        loop {
            self.deliver();
            let Some(append) = self.to_store.take() else {
                return;
            };
            let seq = append.seq;
            let stored = self
                .writer
                .append(append)
                .await
                .map_err(|error| error.to_string());
            let answer = self.core.committed(seq, stored, Instant::now());
            self.deliver();
            if let Some(reply) = self.waiting.remove(&seq) {
                let _ = reply.send(answer);
            }
            if stop.is_cancelled() {
                // Whatever the core queued next was told to no one; it ends with the task.
                return;
            }
        }
    }

    /// Carries out the core's outputs except storing (kept in `to_store` for [`Self::drive`]).
    fn deliver(&mut self) {
        while let Some(output) = self.core.poll_output() {
            match output {
                Output::Send { to, message } => self.transmit(&to, &message),
                Output::Summary(room) => {
                    self.summary.send_replace(room);
                }
                Output::Append(append) => {
                    debug_assert!(self.to_store.is_none(), "one append in flight at a time");
                    self.to_store = Some(append);
                }
            }
        }
    }

    /// Queues one message (serialised once) to each connection; a connection whose queue is
    /// full or closed is gone, and the core hears of it.
    fn transmit(&mut self, to: &[ConnId], message: &warroom_protocol::ServerMsg) {
        let text = match serde_json::to_string(message) {
            Ok(text) => text,
            Err(error) => {
                tracing::error!("cannot serialise a server message: {error}");
                return;
            }
        };
        for conn in to {
            let gone = self
                .outboxes
                .get(conn)
                .is_some_and(|outbox| outbox.send_text(text.clone()).is_err());
            if gone {
                self.outboxes.remove(conn);
                self.core.leave(*conn, Instant::now());
            }
        }
    }
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => pending().await,
    }
}
