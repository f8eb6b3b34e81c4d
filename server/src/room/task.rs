//! The room loop: the thin async half of a room, a dispatcher. It reads the command channel,
//! the bots' decisions, the writes' results and the timer, feeds each to the
//! [`RoomCore`](warroom_room::RoomCore) as an `Input`, and carries out every `Output` in order:
//! messages to the followers' outboxes (and, in cluster mode, the relay), answers to their
//! askers, writes to the store and the batching writer (run beside the loop, their results fed
//! back), bots' decisions (on a blocking thread), the lobby's copy of the room. It decides
//! nothing itself.
//!
//! Order is the core's: a command's messages come out before its answer, so a reply (or
//! anything the connection sends after it) never overtakes them, and an action's `applied`
//! messages before its acknowledgement.

use std::collections::HashMap;
use std::future::{Future, pending};
use std::pin::Pin;

use futures_util::stream::{FuturesUnordered, StreamExt};
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;
use warroom_engine::Seat;
use warroom_protocol::{Room, ServerMsg, codes};
use warroom_room::{
    AskId, BotTurn, Command, ConnId, Input, Output, RoomCore, RoomError, Write, WriteFailed,
    WriteId,
};

use super::eviction::Eviction;
use super::leasing::{Ending, RoomLease};
use super::outbox::message_text;
use super::remote::Remote;
use super::{Kick, Outbox, Reply, RoomCmd, Via, seq_of};
use crate::error::{ApiError, is_outage};
use crate::identity::random_bytes;
use crate::store::Store;
use crate::store::fenced::FencedError;
use crate::store::leases::Fence;
use crate::store::writer::{AppendError, FencedAppend, Writer};

/// A write being carried out: its number and result.
type WriteFuture = Pin<Box<dyn Future<Output = (WriteId, Result<(), WriteFailed>)> + Send>>;

/// A bot's decision: (the seq it was asked at, the seat, the action).
type BotMove = (u64, Seat, Option<serde_json::Value>);

/// A command the core has not answered yet.
struct Asked {
    /// Where its answer goes.
    reply: Reply,
    /// A `join` whose connection was registered for it: unregistered if it is refused.
    fresh_join: Option<ConnId>,
}

/// A room's task: its core and the IO around it.
pub struct RoomTask {
    /// The room's state and rules.
    core: RoomCore,
    /// Where each follower of this node gets its messages.
    outboxes: HashMap<ConnId, Outbox>,
    /// The lobby's copy of the room.
    summary: watch::Sender<Room>,
    /// For seats, chat, rematch, the start and expiry.
    store: Store,
    /// For accepted actions.
    writer: Writer,
    /// Commands waiting for their answer.
    asks: HashMap<AskId, Asked>,
    /// The next command's number.
    next_ask: AskId,
    /// Writes being carried out.
    writes: FuturesUnordered<WriteFuture>,
    /// Bots' decisions, made off the room, come back here.
    bot_moves: mpsc::Sender<BotMove>,
    /// Where the loop receives them.
    bot_inbox: mpsc::Receiver<BotMove>,
    /// When the core wants [`Input::Timeout`].
    wake: Option<Instant>,
    /// How the room leaves the registry once idle (`eviction.rs`).
    eviction: Option<Eviction>,
    /// In cluster mode, the room's lease as this node holds it: every write carries its
    /// fence, and the room stops when it is lost.
    lease: Option<RoomLease>,
    /// In cluster mode, where the messages of followers on other nodes go (once per viewer
    /// class, `cluster/relay.rs`).
    relay: Option<Box<dyn Remote>>,
    /// Connections found gone while delivering: the core hears of them next.
    gone: Vec<ConnId>,
    /// How long the last message sent was: the next one is written into a buffer that size.
    last_message_len: usize,
}

impl RoomTask {
    /// A room task over its core; the lobby's copy of the room is published at once.
    pub fn new(core: RoomCore, store: Store, writer: Writer) -> (RoomTask, watch::Receiver<Room>) {
        let summary = watch::Sender::new(core.summary());
        let receiver = summary.subscribe();
        // One decision is asked at a time, so a small queue never fills.
        let (bot_moves, bot_inbox) = mpsc::channel(4);
        let task = RoomTask {
            core,
            outboxes: HashMap::new(),
            summary,
            store,
            writer,
            asks: HashMap::new(),
            next_ask: 1,
            writes: FuturesUnordered::new(),
            bot_moves,
            bot_inbox,
            wake: None,
            eviction: None,
            lease: None,
            relay: None,
            gone: Vec::new(),
            last_message_len: 0,
        };
        (task, receiver)
    }

    /// Serves the room under this node's lease (cluster mode): every write is fenced by it.
    pub fn with_lease(mut self, lease: RoomLease) -> RoomTask {
        self.lease = Some(lease);
        self
    }

    /// Relays the messages of followers on other nodes through `relay` (cluster mode).
    pub fn with_relay(mut self, relay: Box<dyn Remote>) -> RoomTask {
        self.relay = Some(relay);
        self
    }

    /// Lets the room leave the registry once the core says it is idle.
    pub fn with_eviction(mut self, eviction: Eviction) -> RoomTask {
        self.eviction = Some(eviction);
        self
    }

    /// Serves until the channel closes, the core stops, or `stop` is cancelled (once no write
    /// is in flight, so an action being stored is acknowledged). In cluster mode it also stops
    /// when its lease is lost, and its lease is released as it stops.
    pub async fn run(mut self, mut commands: mpsc::Receiver<RoomCmd>, stop: CancellationToken) {
        if let Some(relay) = &mut self.relay {
            relay.start();
        }
        let lost = self
            .lease
            .as_ref()
            .map(|lease| lease.lost.clone())
            .unwrap_or_default();
        // Made once and polled again on every turn (`ws/writer.rs`): a new one per turn would
        // register with (and leave) the token's waiter list every time, a lock each.
        let stop_signal = stop.cancelled();
        let lost_signal = lost.cancelled();
        tokio::pin!(stop_signal, lost_signal);
        // Set once `stop` fires: the room takes nothing new and stops once its writes are done.
        let mut stopping = false;
        self.feed(Input::Resume);
        let ending = loop {
            if let Some(ending) = self.carry_out(&mut commands, stopping) {
                // What the relay holds back leaves now, not once the lease is released.
                if let Some(relay) = &mut self.relay {
                    relay.flush();
                }
                break ending;
            }
            if stopping && self.writes.is_empty() {
                if self.lease.is_none() {
                    break Ending::HandOver;
                }
                // Handed over: its followers join again where it is served next.
                self.feed(Input::Moved);
                continue;
            }
            tokio::select! {
                biased;
                () = &mut stop_signal, if !stopping => stopping = true,
                () = &mut lost_signal, if self.lease.is_some() => self.feed(Input::Moved),
                Some((id, result)) = self.writes.next(), if !self.writes.is_empty() => {
                    self.feed(Input::WriteDone { id, result });
                }
                command = commands.recv(), if self.core.takes_commands() && !stopping => {
                    match command {
                        Some(command) => self.command(command),
                        None => break Ending::Idle,
                    }
                }
                Some((seq, seat, action)) = self.bot_inbox.recv(), if !stopping => {
                    self.feed(Input::BotChose { seq, seat, action });
                }
                () = sleep_until_some(self.wake), if !stopping => self.feed(Input::Timeout),
            }
        };
        if let Some(lease) = self.lease.take() {
            let epoch = lease.fence.epoch;
            lease.leasing.ended(self.core.id(), epoch, ending).await;
        }
    }

    /// Feeds one input to the core, as of now.
    fn feed(&mut self, input: Input) {
        self.core.handle(Instant::now().into_std(), input);
    }

    /// Registers a command and feeds it to the core.
    fn command(
        &mut self,
        RoomCmd {
            conn,
            command,
            via,
            reply,
        }: RoomCmd,
    ) {
        let fresh_join = match via {
            Some(Via::Outbox(outbox)) => self.outboxes.insert(conn, outbox).is_none(),
            Some(Via::Relay(remote)) => match &mut self.relay {
                Some(relay) => {
                    let fresh = !relay.follows(conn);
                    if fresh {
                        relay.add(conn, remote);
                    }
                    fresh
                }
                None => {
                    return reply.send(Err(ApiError::internal("a room served without a relay")));
                }
            },
            None => false,
        };
        if command == Command::Leave {
            // Its messages stop here; the core forgets it with the command.
            self.unregister(conn);
        }
        let ask = self.next_ask;
        self.next_ask += 1;
        self.asks.insert(
            ask,
            Asked {
                reply,
                fresh_join: fresh_join.then_some(conn),
            },
        );
        self.feed(Input::Command { ask, conn, command });
    }

    /// Carries out the core's outputs until it says when to wake; says so when the room stops.
    fn carry_out(
        &mut self,
        commands: &mut mpsc::Receiver<RoomCmd>,
        stopping: bool,
    ) -> Option<Ending> {
        loop {
            match self.core.poll_output() {
                Output::Send { to, message, paced } => self.transmit(&to, &message, paced),
                Output::Answer { ask, result } => self.answer(ask, result),
                Output::Write { id, write } => {
                    // A stopping room starts nothing new: what it would write is told no one.
                    if !stopping {
                        self.start_write(id, write);
                    }
                }
                Output::Summary(room) => {
                    self.summary.send_replace(room);
                }
                Output::Bot(turn) => self.ask_bot(turn),
                Output::Evict => {
                    let id = self.core.id();
                    if let Some(eviction) = &self.eviction
                        && eviction.evict(id, commands)
                    {
                        return Some(Ending::Idle);
                    }
                }
                Output::Moved => {
                    self.leave_moved(commands);
                    return Some(if stopping {
                        Ending::HandOver
                    } else {
                        Ending::Moved
                    });
                }
                Output::Wake(at) => {
                    if self.gone.is_empty() {
                        self.wake = at.map(Instant::from_std);
                        if let Some(relay) = &mut self.relay {
                            relay.flush();
                        }
                        return None;
                    }
                    for conn in std::mem::take(&mut self.gone) {
                        self.feed(Input::Gone { conn });
                    }
                }
            }
        }
    }

    /// Gives a command's answer to its asker; a refused `join` unregisters its connection.
    fn answer(&mut self, ask: AskId, result: Result<warroom_room::Answer, RoomError>) {
        let Some(asked) = self.asks.remove(&ask) else {
            return;
        };
        if result.is_err()
            && let Some(conn) = asked.fresh_join
        {
            self.unregister(conn);
        }
        let result = result.map_err(ApiError::from);
        match (asked.reply, self.relay.as_deref_mut()) {
            // An action of a follower on another node: on the room's stream, behind (or on)
            // its `applied`, which its node delivers first.
            (Reply::Remote(remote), Some(relay)) if relay.follows(remote.conn) => {
                remote.on_stream(relay, seq_of(result));
            }
            (reply, relay) => {
                // Answered apart from the stream: what the room sent before leaves first.
                if let Some(relay) = relay {
                    relay.flush();
                }
                reply.send(result);
            }
        }
    }

    /// Connection `conn`'s messages go nowhere from now on (here or through the relay).
    fn unregister(&mut self, conn: ConnId) {
        self.outboxes.remove(&conn);
        if let Some(relay) = &mut self.relay {
            relay.remove(conn);
        }
    }

    /// The room stops serving here (its lease moved on, or its log holds an action its memory
    /// does not; the core told every follower `room_moved`): leaves the registry, closes the
    /// queue, disconnects every follower (they join again, and find the room where it is served
    /// next, loaded from its log), and refuses whatever command was still queued the same way.
    fn leave_moved(&mut self, commands: &mut mpsc::Receiver<RoomCmd>) {
        let id = self.core.id();
        match &self.eviction {
            Some(eviction) => eviction.forget(id, commands),
            None => commands.close(),
        }
        for (_, outbox) in self.outboxes.drain() {
            outbox.kick(Kick::Moved);
        }
        if let Some(relay) = &mut self.relay {
            relay.close_all(codes::ROOM_MOVED);
        }
        for (_, asked) in self.asks.drain() {
            asked.reply.send(Err(ApiError::room_moved()));
        }
        while let Ok(command) = commands.try_recv() {
            command.refuse(ApiError::room_moved());
        }
    }

    /// The fence of the room's writes: its lease, in cluster mode.
    fn fence(&self) -> Option<Fence> {
        self.lease.as_ref().map(|lease| lease.fence.clone())
    }

    /// Starts carrying out a write beside the loop; its result comes back as
    /// [`Input::WriteDone`].
    fn start_write(&mut self, id: WriteId, write: Write) {
        let store = self.store.clone();
        let writer = self.writer.clone();
        let fence = self.fence();
        self.writes.push(Box::pin(async move {
            (id, execute(&store, &writer, fence, write).await)
        }));
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
    fn transmit(&mut self, to: &[ConnId], message: &ServerMsg, paced: bool) {
        let Some(text) = message_text(message, self.last_message_len + 64) else {
            return;
        };
        self.last_message_len = text.len();
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
                        self.gone.push(*conn);
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

    /// Hands a message for followers on other nodes to the relay (their nodes told their class
    /// first); when its queue is full, they are all dropped (their nodes disconnect them:
    /// `slow_consumer`).
    fn relay_out(
        &mut self,
        remote: &[ConnId],
        text: &axum::extract::ws::Utf8Bytes,
        message: &ServerMsg,
        paced: bool,
    ) {
        let Some(relay) = self.relay.as_mut() else {
            return;
        };
        let core = &self.core;
        relay.reclassify(core.seats(), &|conn| core.class_of(conn));
        for conn in remote {
            relay.enter(*conn, core.class_of(*conn));
        }
        let speaker = match message {
            ServerMsg::Chat { line, .. } => Some(line.from.id),
            _ => None,
        };
        if relay.send(remote, text, speaker, paced).is_err() {
            tracing::warn!(
                "room {}: the relay to other nodes is full: their {} followers are dropped",
                self.core.id(),
                relay.count()
            );
            let dropped = relay.close_all(codes::SLOW_CONSUMER);
            self.gone.extend(dropped);
        }
    }
}

/// Carries out one write of a room, fenced by its lease in cluster mode.
async fn execute(
    store: &Store,
    writer: &Writer,
    fence: Option<Fence>,
    write: Write,
) -> Result<(), WriteFailed> {
    let fenced = match write {
        Write::Append(append) => {
            return writer.append(FencedAppend { append, fence }).await.map_err(
                |error| match error {
                    AppendError::Moved => WriteFailed::Moved,
                    AppendError::Behind => WriteFailed::Behind,
                    other => WriteFailed::Refused(RoomError::unavailable(other)),
                },
            );
        }
        Write::Seat { room, change } => {
            let holder = change.holder.as_ref().map(|holder| holder.id);
            store
                .set_seat(fence.as_ref(), room, change.seat, holder)
                .await
        }
        Write::ChatLine {
            room,
            match_id,
            line,
            at_ms,
        } => {
            store
                .add_chat_line(fence.as_ref(), room, match_id, &line, at_ms)
                .await
        }
        Write::Rematch { from, record } => store.store_rematch(from, &record, fence.as_ref()).await,
        Write::Start(record) => store.start_match(&record, fence.as_ref()).await,
        Write::Expiry { room } => store.expire_room(room, fence.as_ref()).await,
    };
    fenced.map_err(|error| match error {
        FencedError::Moved => {
            tracing::warn!("a room's write was refused: its lease moved on");
            WriteFailed::Moved
        }
        FencedError::Database(error) if is_outage(&error) => {
            WriteFailed::Refused(RoomError::unavailable(error))
        }
        FencedError::Database(error) => WriteFailed::Refused(RoomError::internal(error)),
    })
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => pending().await,
    }
}
