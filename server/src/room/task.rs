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
use warroom_engine::{Seat, Seed};
use warroom_protocol::{MatchId, Room, RoomId};

use super::control::BotTurn;
use super::core::{RoomCore, Submitted};
use super::eviction::{Eviction, Idle};
use super::output::Output;
use super::{ActionReply, ConnId, Kick, Outbox, RoomCmd, Via};
use crate::cluster::leasing::{Ending, RoomLease};
use crate::cluster::relay::Relay;
use crate::error::ApiError;
use crate::identity::random_bytes;
use crate::store::fenced::FencedError;
use crate::store::leases::Fence;
use crate::store::writer::{Append, AppendError, Writer};
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
    waiting: HashMap<u64, ActionReply>,
    /// Bots' decisions, made off the room (`BotTurn`), come back here.
    bot_moves: mpsc::Sender<BotMove>,
    /// Where the loop receives them.
    bot_inbox: mpsc::Receiver<BotMove>,
    /// How the room leaves memory once idle (`eviction.rs`); never without one.
    eviction: Option<Eviction>,
    /// Since when the room has been idle.
    idle: Idle,
    /// In cluster mode, the room's lease as this node holds it: every append carries its
    /// fence, and the room stops when it is lost.
    lease: Option<RoomLease>,
    /// Set once an append was refused because the lease moved on, or because the log holds
    /// another action at its seq: the room stops here.
    moved: bool,
    /// In cluster mode, where the messages of followers on other nodes go (once per viewer
    /// class, `cluster/relay.rs`).
    relay: Option<Relay>,
    /// How long the last message sent was: the next one is written into a buffer that size,
    /// so a message of a few kilobytes does not grow its buffer from empty each time.
    last_message_len: usize,
}

/// A bot's decision: (the seq it was asked at, the seat, the action).
type BotMove = (u64, Seat, Option<serde_json::Value>);

impl RoomTask {
    /// A room task over its core; the lobby's copy of the room is published at once.
    pub fn new(core: RoomCore, store: Store, writer: Writer) -> (RoomTask, watch::Receiver<Room>) {
        let summary = watch::Sender::new(core.summary());
        let receiver = summary.subscribe();
        // One decision is asked at a time, so a small queue never fills.
        let (bot_moves, bot_inbox) = mpsc::channel(4);
        let task = RoomTask {
            bot_moves,
            bot_inbox,
            core,
            outboxes: HashMap::new(),
            summary,
            store,
            writer,
            to_store: None,
            waiting: HashMap::new(),
            eviction: None,
            idle: Idle::default(),
            lease: None,
            moved: false,
            relay: None,
            last_message_len: 0,
        };
        (task, receiver)
    }

    /// Serves the room under this node's lease (cluster mode): every append is fenced by it.
    pub fn with_lease(mut self, lease: RoomLease) -> RoomTask {
        self.lease = Some(lease);
        self
    }

    /// Relays the messages of followers on other nodes through `relay` (cluster mode).
    pub fn with_relay(mut self, relay: Relay) -> RoomTask {
        self.relay = Some(relay);
        self
    }

    /// Lets the room leave memory once idle.
    pub fn with_eviction(mut self, eviction: Eviction) -> RoomTask {
        self.eviction = Some(eviction);
        self
    }

    /// Notes whether the room is idle now (nothing in hand, nothing due, nobody following).
    fn observe_idle(&mut self) {
        let idle = self.core.is_idle()
            && self.outboxes.is_empty()
            && self.relay.as_ref().is_none_or(Relay::is_empty)
            && self.waiting.is_empty()
            && self.to_store.is_none();
        self.idle.observe(idle, Instant::now());
    }

    /// When the room leaves memory unless something happens.
    fn eviction_deadline(&self) -> Option<Instant> {
        self.eviction
            .as_ref()
            .and_then(|eviction| self.idle.deadline(eviction.after))
    }

    /// Serves until the channel closes or `stop` is cancelled (after the input in hand is
    /// finished, so an action being stored is acknowledged). In cluster mode it also stops when
    /// its lease is lost, and its lease is released as it stops.
    pub async fn run(mut self, mut commands: mpsc::Receiver<RoomCmd>, stop: CancellationToken) {
        if let Some(relay) = &self.relay {
            relay.start();
        }
        self.core.resume(Instant::now());
        if self.core.ready_to_start() && self.core.has_bot_seat() {
            // A room filled with bots when it was created (its creator and bots, or bots only)
            // starts at once; a rematch room waits for its players to join.
            self.start_match().await;
        }
        self.drive(&stop).await;
        let lost = self
            .lease
            .as_ref()
            .map(|lease| lease.lost.clone())
            .unwrap_or_default();
        let ending = loop {
            if self.moved {
                break Ending::Moved;
            }
            self.observe_idle();
            let wake = self.core.next_wake();
            let leave = self.eviction_deadline();
            tokio::select! {
                biased;
                () = stop.cancelled() => break Ending::HandOver,
                () = lost.cancelled(), if self.lease.is_some() => break Ending::Moved,
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break Ending::Idle,
                },
                Some((seq, seat, action)) = self.bot_inbox.recv() => {
                    self.core.bot_moved(seq, seat, action, Instant::now());
                }
                () = sleep_until_some(wake) => {
                    self.core.tick(Instant::now());
                    self.expire_if_due().await;
                }
                () = sleep_until_some(leave) => {
                    let id = self.core.id();
                    if let Some(eviction) = &self.eviction
                        && eviction.evict(id, &mut commands)
                    {
                        break Ending::Idle;
                    }
                }
            }
            self.drive(&stop).await;
        };
        // Followers (on every node, in cluster mode) join again where the room is served next.
        if ending == Ending::Moved || (ending == Ending::HandOver && self.lease.is_some()) {
            self.leave_moved(&mut commands);
        }
        if let Some(lease) = self.lease.take() {
            let epoch = lease.fence.epoch;
            lease.leasing.ended(self.core.id(), epoch, ending).await;
        }
    }

    /// The room stops serving here (cluster mode: its lease moved on, or this node stops and
    /// hands it over; any mode: its log holds an action its memory does not): leaves the
    /// registry, closes the queue, tells every follower `room_moved` and disconnects them (they
    /// join again, and find the room where it is served next, loaded from its log), and refuses
    /// whatever command was still queued the same way.
    fn leave_moved(&mut self, commands: &mut mpsc::Receiver<RoomCmd>) {
        let id = self.core.id();
        tracing::warn!("room {id} stops serving here: it is loaded again from its log");
        match &self.eviction {
            Some(eviction) => eviction.forget(id, commands),
            None => commands.close(),
        }
        let message =
            warroom_protocol::ServerMsg::error(Some(id), None, ApiError::room_moved().body());
        let everyone: Vec<ConnId> = self.core.followers.iter().map(|(conn, _)| conn).collect();
        self.transmit(&everyone, &message, false);
        // Closing the socket makes every client reconnect and join again (with `last_seq`),
        // wherever the room is served now.
        for (_, outbox) in self.outboxes.drain() {
            outbox.kick(Kick::Moved);
        }
        if let Some(relay) = &mut self.relay {
            relay.close_all(warroom_protocol::codes::ROOM_MOVED);
        }
        while let Ok(command) = commands.try_recv() {
            command.refuse(ApiError::room_moved());
        }
    }

    async fn handle(&mut self, command: RoomCmd) {
        match command {
            RoomCmd::Join {
                conn,
                identity,
                via,
                mutes,
                invite,
                last_seq,
                reply,
            } => {
                let fresh = match (via, &mut self.relay) {
                    (Via::Outbox(outbox), _) => self.outboxes.insert(conn, outbox).is_none(),
                    (Via::Relay(remote), Some(relay)) => {
                        let fresh = !relay.follows(conn);
                        if fresh {
                            relay.add(conn, remote);
                        }
                        fresh
                    }
                    (Via::Relay(_), None) => {
                        let error = ApiError::internal("a room served without a relay");
                        return self.answer(reply, Err(error));
                    }
                };
                self.core.set_mutes(conn, mutes);
                let result =
                    self.core
                        .join(conn, identity, invite.as_deref(), last_seq, Instant::now());
                if result.is_ok()
                    && let Some(relay) = &mut self.relay
                {
                    // Its node learns its class before the join's messages rely on it.
                    relay.enter(conn, self.core.class_of(conn));
                }
                if result.is_err() && fresh {
                    self.outboxes.remove(&conn);
                    if let Some(relay) = &mut self.relay {
                        relay.remove(conn);
                    }
                    self.core.leave(conn, Instant::now());
                }
                self.answer(reply, result);
                if self.core.ready_to_start() {
                    // A rematch room is stored with its seats taken: it starts once joined.
                    self.start_match().await;
                }
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
                Ok(Submitted::Known(seq)) => self.answer_action(reply, Ok(seq)),
                Err(error) => self.answer_action(reply, Err(error)),
            },
            RoomCmd::Resign { conn, reply } => match self.core.resign(conn, Instant::now()) {
                Ok(Submitted::Pending(seq)) => {
                    self.waiting.insert(seq, ActionReply::Wait(reply));
                }
                Ok(Submitted::Known(seq)) => self.answer(reply, Ok(seq)),
                Err(error) => self.answer(reply, Err(error)),
            },
            RoomCmd::Back { conn, reply } => {
                let result = self.core.back(conn, Instant::now());
                self.answer(reply, result);
            }
            RoomCmd::Leave { conn } => {
                self.outboxes.remove(&conn);
                if let Some(relay) = &mut self.relay {
                    relay.remove(conn);
                }
                self.core.leave(conn, Instant::now());
                // A player who never answered the rematch is gone: the others may agree now.
                self.open_rematch_if_agreed().await;
            }
            RoomCmd::Chat { conn, text, reply } => {
                let result = self.chat(conn, &text).await;
                self.answer(reply, result);
            }
            RoomCmd::Rematch {
                conn,
                accept,
                reply,
            } => {
                let result = self.core.answer_rematch(conn, accept);
                self.answer(reply, result);
                self.open_rematch_if_agreed().await;
            }
        }
    }

    /// Checks a line of chat, stores it, then lets the core deliver it.
    async fn chat(&mut self, conn: ConnId, text: &str) -> Result<(), ApiError> {
        let at = now_ms();
        let line = self.core.chat(conn, text, at, Instant::now())?;
        let stored = self
            .store
            .add_chat_line(
                self.fence(),
                self.core.id(),
                self.core.match_id(),
                &line,
                at,
            )
            .await;
        match stored {
            Ok(()) => {
                self.core.chat_stored(line);
                Ok(())
            }
            Err(error) => {
                self.core.chat_not_stored(&line);
                Err(self.refused(error))
            }
        }
    }

    /// Opens the rematch room once the players agree: stored with its seats and linked from
    /// this room, then announced.
    async fn open_rematch_if_agreed(&mut self) {
        let invite_code = match random_bytes() {
            Ok(bytes) => hex::encode(&bytes[..8]),
            Err(error) => {
                tracing::error!("no randomness for a rematch invite: {error}");
                return;
            }
        };
        let agreed = self
            .core
            .rematch_agreed(RoomId::random(), invite_code, now_ms());
        let record = match agreed {
            None => return,
            Some(Ok(record)) => record,
            Some(Err(error)) => {
                tracing::error!("room {} cannot make its rematch: {error}", self.core.id());
                return;
            }
        };
        let stored = self
            .store
            .store_rematch(self.core.id(), &record, self.fence())
            .await;
        match stored {
            Ok(()) => self.core.rematch_opened(record.id),
            Err(error) => {
                tracing::error!("room {} cannot open its rematch: {error}", self.core.id());
                self.refused(error);
            }
        }
        self.deliver();
    }

    /// Closes the room if it has waited empty long enough.
    async fn expire_if_due(&mut self) {
        if !self.core.expiry_due(Instant::now()) {
            return;
        }
        match self.store.expire_room(self.core.id(), self.fence()).await {
            Ok(()) => {
                tracing::info!("room {} expired: nobody was connected", self.core.id());
                self.core.expired(Instant::now());
            }
            Err(error) => {
                tracing::error!("room {} cannot expire: {error}", self.core.id());
                self.refused(error);
            }
        }
        self.deliver();
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

    /// Delivers what the action made the core say, then answers it (queued behind it).
    fn answer_action(&mut self, reply: ActionReply, result: Result<u64, ApiError>) {
        self.deliver();
        reply.send(result);
    }

    /// The fence of the room's own writes: its lease, in cluster mode.
    fn fence(&self) -> Option<&Fence> {
        self.lease.as_ref().map(|lease| &lease.fence)
    }

    /// The answer to a write the database did not do. A write refused because the lease moved
    /// on stops the room here, exactly as a refused append does (`moved`: the loop tells every
    /// follower `room_moved` and refuses what was still queued).
    fn refused(&mut self, error: FencedError) -> ApiError {
        if matches!(error, FencedError::Moved) {
            tracing::warn!(
                "room {}: a write was refused, its lease moved on",
                self.core.id()
            );
            self.moved = true;
        }
        error.into()
    }

    /// Stores a checked seat change, then lets the core apply it.
    async fn store_seat(
        &mut self,
        change: super::seats::SeatChange,
    ) -> Result<warroom_engine::Seat, ApiError> {
        let seat = change.seat;
        let holder = change.holder.as_ref().map(|h| h.id);
        let stored = self
            .store
            .set_seat(self.fence(), self.core.id(), seat, holder)
            .await;
        match stored {
            Ok(()) => {
                self.core.seat_stored(change);
                Ok(seat)
            }
            Err(error) => Err(self.refused(error)),
        }
    }

    /// Every seat is taken: seed from the OS RNG, store the match, let it run.
    async fn start_match(&mut self) {
        let prepared = random_bytes()
            .map(Seed)
            .and_then(|seed| self.core.prepare_start(seed, MatchId::random(), now_ms()));
        let stored = match prepared {
            Ok(record) => match self.store.start_match(&record, self.fence()).await {
                Ok(()) => Ok(()),
                Err(error) => Err(self.refused(error)),
            },
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
            let append = Append {
                fence: self.lease.as_ref().map(|lease| lease.fence.clone()),
                ..append
            };
            let stored = self.store_answering_in_time(append).await;
            // The lease moved on (cluster mode), or the log holds another action at this seq
            // (the room's memory fell behind its log): either way the room stops here and its
            // followers join again, where it is loaded from the log.
            let moved = matches!(stored, Err(AppendError::Moved | AppendError::Behind));
            if stored == Err(AppendError::Behind) {
                tracing::warn!(
                    "room {}: the log holds another action at seq {seq}; loading the room again",
                    self.core.id()
                );
            }
            let answer = self.core.committed(
                seq,
                stored.map_err(|error| error.to_string()),
                Instant::now(),
            );
            if moved {
                // Undone above; nothing more is stored here, the room is served next where it
                // is loaded again.
                self.moved = true;
                self.deliver();
                if let Some(reply) = self.waiting.remove(&seq) {
                    reply.send(Err(ApiError::room_moved()));
                }
                return;
            }
            self.deliver();
            if let Some(reply) = self.waiting.remove(&seq) {
                reply.send(answer);
            }
            if stop.is_cancelled() {
                // Whatever the core queued next was told to no one; it ends with the task.
                return;
            }
        }
    }

    /// Stores one append. A commit slower than the writer's answer timeout gets its sender told
    /// `unavailable` meanwhile (the action may still be stored; sent again with its id it is
    /// answered from the log); the room goes on waiting for the outcome either way.
    async fn store_answering_in_time(&mut self, append: Append) -> Result<(), AppendError> {
        let seq = append.seq;
        let limit = self.writer.answer_timeout();
        let stored = self.writer.append(append);
        tokio::pin!(stored);
        tokio::select! {
            stored = &mut stored => stored,
            () = tokio::time::sleep(limit) => {
                if let Some(reply) = self.waiting.remove(&seq) {
                    let room = self.core.id();
                    reply.send(Err(ApiError::unavailable(format!(
                        "room {room}: the database did not answer within {limit:?}"
                    ))));
                }
                stored.await
            }
        }
    }

    /// Carries out the core's outputs except storing (kept in `to_store` for [`Self::drive`]).
    fn deliver(&mut self) {
        while let Some(output) = self.core.poll_output() {
            match output {
                Output::Send { to, message, paced } => self.transmit(&to, &message, paced),
                Output::Summary(room) => {
                    self.summary.send_replace(room);
                }
                Output::Append(append) => {
                    debug_assert!(self.to_store.is_none(), "one append in flight at a time");
                    self.to_store = Some(append);
                }
                Output::Bot(turn) => self.ask_bot(turn),
            }
        }
    }

    /// Runs a bot's decision off the room: after the room's bot delay, on a blocking thread
    /// (a decision may take milliseconds), with its own RNG seeded from the OS; the action
    /// comes back through `bot_inbox`.
    fn ask_bot(&self, turn: BotTurn) {
        let moves = self.bot_moves.clone();
        let seed = random_bytes().map_or(0, |bytes| {
            u64::from_le_bytes(bytes[..8].try_into().unwrap_or([0; 8]))
        });
        tokio::spawn(async move {
            if !turn.delay.is_zero() {
                tokio::time::sleep(turn.delay).await;
            }
            let job = turn.job;
            let action = match tokio::task::spawn_blocking(move || job(seed)).await {
                Ok(action) => action,
                Err(error) => {
                    tracing::error!("a bot's decision failed: {error}");
                    None
                }
            };
            // A room that stopped meanwhile no longer listens.
            let _ = moves.send((turn.seq, turn.seat, action)).await;
        });
    }

    /// Queues one message (serialised once) to each connection, `paced` (it may wait for the
    /// writer's next pace) or urgent; a connection whose queue is full or closed is gone, and
    /// the core hears of it. Followers on other nodes get it through the relay, once per
    /// viewer class, marked paced if it is (their own node's writers pace them).
    fn transmit(&mut self, to: &[ConnId], message: &warroom_protocol::ServerMsg, paced: bool) {
        let mut buffer = Vec::with_capacity(self.last_message_len + 64);
        if let Err(error) = serde_json::to_writer(&mut buffer, message) {
            tracing::error!("cannot serialise a server message: {error}");
            return;
        }
        self.last_message_len = buffer.len();
        let text: axum::extract::ws::Utf8Bytes = match String::from_utf8(buffer) {
            Ok(text) => text.into(),
            Err(error) => {
                tracing::error!("a server message is not UTF-8: {error}");
                return;
            }
        };
        let mut remote = Vec::new();
        for conn in to {
            match self.outboxes.get(conn) {
                Some(outbox) => {
                    let text = text.clone();
                    let sent = if paced {
                        outbox.send_paced(text)
                    } else {
                        outbox.send_text(text)
                    };
                    if sent.is_err() {
                        self.outboxes.remove(conn);
                        self.core.leave(*conn, Instant::now());
                    }
                }
                None => {
                    if self
                        .relay
                        .as_ref()
                        .is_some_and(|relay| relay.follows(*conn))
                    {
                        remote.push(*conn);
                    }
                }
            }
        }
        if !remote.is_empty() {
            self.relay_out(&remote, &text, message, paced);
        }
    }

    /// Hands a message for followers on other nodes to the relay; when its queue is full,
    /// they are all dropped (their nodes disconnect them: `slow_consumer`).
    fn relay_out(
        &mut self,
        remote: &[ConnId],
        text: &axum::extract::ws::Utf8Bytes,
        message: &warroom_protocol::ServerMsg,
        paced: bool,
    ) {
        let Some(relay) = self.relay.as_mut() else {
            return;
        };
        let core = &self.core;
        relay.reclassify(&core.record.seats, |conn| core.class_of(conn));
        let speaker = match message {
            warroom_protocol::ServerMsg::Chat { line, .. } => Some(line.from.id),
            _ => None,
        };
        if relay.send(remote, text, speaker, paced).is_err() {
            tracing::warn!(
                "room {}: the relay to other nodes is full: their {} followers are dropped",
                self.core.id(),
                relay.len()
            );
            let dropped = relay.close_all(warroom_protocol::codes::SLOW_CONSUMER);
            for conn in dropped {
                self.core.leave(conn, Instant::now());
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
