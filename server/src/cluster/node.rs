//! This node on NATS: it answers other nodes' requests for the rooms it serves (their
//! connections follow those rooms through the room's relay, `relay.rs`, which publishes each
//! message once per viewer class, still cut per viewer by the room itself), forwards its own
//! connections' commands for rooms served elsewhere (their messages come through one
//! subscription per followed room, `streams.rs`), and tells them `room_moved` when the node
//! serving a room they follow died (its lease expired or moved on without a word).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::{Request, RequestErrorKind};
use futures_util::StreamExt;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use warroom_protocol::{Room, RoomId, ServerMsg, codes};
use warroom_room::{Answer as RoomAnswer, Command};

use super::acts::Acts;
use super::placement::placement;
use super::relay::Relays;
use super::streams::Streams;
use super::wire::{
    Act, ActAnswer, Answer, Ask, RemoteError, act_replies_subject, act_reply_subject, ask_subject,
};
use crate::config::Limits;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::room::leasing::Leasing;
use crate::room::{
    ConnId, Kick, Located, Mutes, Outbox, QueuedAnswer, RemoteAnswer, RemoteConn, Reply, Rooms, Via,
};
use crate::store::{RoomRecord, Store};

/// Ids this node gives the connections of other nodes (far from its own sockets' ids).
const FIRST_REMOTE_CONN: u64 = 1 << 48;

/// How long a forwarded answer waits for the messages sent before it.
const ORDER_WAIT: Duration = Duration::from_secs(2);

/// How long a stopping node waits for its answers to other nodes' asks in hand, and for the
/// asks already on their way to it, before it leaves them to their askers' timeouts.
const ANSWERS_AT_SHUTDOWN: Duration = Duration::from_secs(2);

/// Why a forwarded command has no answer.
#[derive(Debug)]
pub enum Forwarded {
    /// Nobody answers for that node (it died or stopped): its rooms are taken over once
    /// their leases expire.
    Unreachable,
    /// The node answered with an error (or did not answer in time: `unavailable`).
    Refused(ApiError),
}

impl From<Forwarded> for ApiError {
    fn from(error: Forwarded) -> Self {
        match error {
            Forwarded::Unreachable => {
                ApiError::unavailable("the node serving the room does not answer")
            }
            Forwarded::Refused(error) => error,
        }
    }
}

/// A connection of another node following rooms of this node.
struct Served {
    /// Its id here.
    id: ConnId,
    /// Its node and id there, for the rooms' relays.
    via: Via,
    /// The rooms here it follows.
    rooms: Vec<RoomId>,
}

/// A connection of this node following rooms served elsewhere.
struct Local {
    outbox: Outbox,
    /// The rooms it follows elsewhere, and the node serving each.
    rooms: HashMap<RoomId, String>,
}

/// This node of the cluster.
pub struct ClusterNode {
    /// Its id.
    pub node: Arc<str>,
    nats: async_nats::Client,
    rooms: Arc<Rooms>,
    store: Store,
    limits: Limits,
    lease: Duration,
    next_conn: AtomicU64,
    served: Mutex<HashMap<(String, ConnId), Served>>,
    local: Mutex<HashMap<ConnId, Local>>,
    /// The relays of the rooms served here.
    relays: Arc<Relays>,
    /// The rooms followed from here.
    streams: Streams,
    /// This node's actions on their way to rooms served elsewhere.
    acts: Arc<Acts>,
    /// What `/metrics` shows of this node's part in the cluster.
    metrics: Arc<Metrics>,
    stop: CancellationToken,
    /// The loop taking other nodes' asks and the answers it has in hand: waited for at
    /// shutdown, so that no asking node waits out its timeout for an answer this node dropped
    /// as it exited.
    answering: TaskTracker,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl ClusterNode {
    /// Connects to NATS at `url` as node `node`, with `auth` (`connect.rs`); `reconnected` is
    /// called on every reconnect.
    pub async fn connect(
        url: &str,
        node: &str,
        auth: &crate::config::NatsAuth,
        reconnected: impl Fn() + Send + Sync + 'static,
    ) -> anyhow::Result<async_nats::Client> {
        let options = super::connect::options(node, auth, reconnected).await?;
        Ok(options.connect(url).await?)
    }

    /// Starts answering requests on `nats` as the node `leasing` names (its rooms publish
    /// through `relays`; `metrics` counts what its followed streams missed).
    pub async fn start(
        nats: async_nats::Client,
        leasing: &Leasing,
        rooms: Arc<Rooms>,
        relays: Arc<Relays>,
        store: Store,
        limits: Limits,
        metrics: Arc<Metrics>,
    ) -> anyhow::Result<Arc<ClusterNode>> {
        let (node, lease) = (leasing.node.clone(), leasing.length);
        let asks = nats.subscribe(ask_subject(&node)).await?;
        let act_replies = nats.subscribe(act_replies_subject(&node)).await?;
        let acts = Arc::new(Acts::new(
            limits.answer_timeout() + ORDER_WAIT,
            metrics.clone(),
        ));
        let this = Arc::new(ClusterNode {
            streams: Streams::new(nats.clone(), node.clone(), metrics.clone(), acts.clone()),
            acts,
            metrics,
            node,
            nats,
            rooms,
            store,
            limits,
            lease,
            next_conn: AtomicU64::new(FIRST_REMOTE_CONN),
            served: Mutex::new(HashMap::new()),
            local: Mutex::new(HashMap::new()),
            relays,
            stop: CancellationToken::new(),
            answering: TaskTracker::new(),
        });
        this.answering.spawn(this.clone().answer_asks(asks));
        tokio::spawn(this.clone().read_act_replies(act_replies));
        tokio::spawn(this.clone().expire_acts());
        tokio::spawn(this.clone().watch_owners());
        tokio::spawn(super::presence::flush_until(
            this.node.clone(),
            this.rooms.clone(),
            this.store.clone(),
            this.stop.clone(),
        ));
        tokio::spawn(super::takeover::take_over_until(
            this.rooms.clone(),
            this.store.clone(),
            lease,
            this.metrics.clone(),
            this.stop.clone(),
        ));
        Ok(this)
    }

    /// Stops the loops, answers the asks in hand and those on their way here (the rooms have
    /// stopped: `room_moved`, so their askers find where the rooms went at once), lets the
    /// relays publish what rooms told them, then flushes NATS.
    pub async fn shutdown(&self) {
        self.stop.cancel();
        self.answering.close();
        let _ = tokio::time::timeout(ANSWERS_AT_SHUTDOWN, self.answering.wait()).await;
        lock(&self.served).clear();
        self.relays.drain(Duration::from_secs(2)).await;
        let _ = self.nats.flush().await;
    }

    /// How long a join waits for a node that does not answer (it died) before its lease
    /// expires and the room can be served elsewhere.
    pub fn lease_wait(&self) -> Duration {
        self.lease + self.lease / 3 + Duration::from_secs(2)
    }

    // ---- this node serving rooms to other nodes' connections ----

    async fn answer_asks(self: Arc<Self>, mut asks: async_nats::Subscriber) {
        loop {
            let Some(message) = super::next_or_stop(&self.stop, &mut asks).await else {
                return self.refuse_remaining(asks).await;
            };
            let ask = serde_json::from_slice::<Ask>(&message.payload);
            // An action is handed to its room here, in the order the asking node published
            // it, without a task of its own: the room answers it on its stream.
            let ask = match ask {
                Ok(Ask::Act(act)) => {
                    self.serve_act(act, message.reply.clone());
                    continue;
                }
                ask => ask,
            };
            let this = self.clone();
            self.answering.spawn(async move {
                let (answer, room) = match ask {
                    Ok(Ask::Room {
                        room,
                        from,
                        conn,
                        command,
                    }) => (
                        this.serve_command(room, from, conn, command).await,
                        Some(room),
                    ),
                    Ok(ask) => (this.answer(ask).await, None),
                    Err(error) => (
                        refused(ApiError::internal(format!("a bad request: {error}"))),
                        None,
                    ),
                };
                let Some(reply) = message.reply else { return };
                let body: bytes::Bytes = serde_json::to_vec(&answer).unwrap_or_default().into();
                // A room's answer leaves behind the messages the room sent before it, from its
                // relay's queue (one write to NATS for both when they meet there).
                let body = match room {
                    Some(room) => this.relays.publish_after(room, reply.to_string(), body),
                    None => Some(body),
                };
                if let Some(body) = body
                    && let Err(error) = this.nats.publish(reply, body).await
                {
                    tracing::warn!("cannot answer a node: {error}");
                }
            });
        }
    }

    /// The node stops: no more asks come here, and those already on their way (delivered
    /// before NATS saw the unsubscription) are answered `room_moved` (every room here has
    /// stopped), within [`ANSWERS_AT_SHUTDOWN`].
    async fn refuse_remaining(&self, mut asks: async_nats::Subscriber) {
        if let Err(error) = asks.drain().await {
            tracing::warn!("cannot stop taking asks: {error}");
            return;
        }
        let until = tokio::time::Instant::now() + ANSWERS_AT_SHUTDOWN;
        while let Ok(Some(message)) = tokio::time::timeout_at(until, asks.next()).await {
            let Some(reply) = message.reply else { continue };
            let moved = ApiError::room_moved();
            let body = match serde_json::from_slice::<Ask>(&message.payload) {
                Ok(Ask::Act(_)) => serde_json::to_vec(&ActAnswer::Err(moved.into())),
                _ => serde_json::to_vec(&refused(moved)),
            };
            let body: bytes::Bytes = body.unwrap_or_default().into();
            if let Err(error) = self.nats.publish(reply, body).await {
                tracing::warn!("cannot answer a node: {error}");
            }
        }
    }

    /// Hands another node's action to its room, to be answered on the room's stream; refused
    /// (not joined, the room not running here) on `reply`.
    fn serve_act(&self, act: Act, reply: Option<async_nats::Subject>) {
        let Act {
            room,
            from,
            conn,
            ask,
            client_id,
            action,
        } = act;
        let nats = self.nats.clone();
        let answering = self.answering.clone();
        let fallback = move |result: Result<u64, ApiError>| {
            let Some(reply) = reply else { return };
            let answer: ActAnswer = result.map_err(RemoteError::from);
            let body: bytes::Bytes = serde_json::to_vec(&answer).unwrap_or_default().into();
            answering.spawn(async move {
                if let Err(error) = nats.publish(reply, body).await {
                    tracing::warn!("cannot answer a node's action: {error}");
                }
            });
        };
        let id = lock(&self.served)
            .get(&(from, conn))
            .map(|served| served.id);
        let Some(id) = id else {
            return RemoteAnswer::new(conn, ask, fallback).send(Err(ApiError::bad_request(
                codes::NOT_JOINED,
                "join the room first",
            )));
        };
        let answer = RemoteAnswer::new(id, ask, fallback);
        match self.rooms.running(room) {
            Some(handle) => handle.act_for(id, client_id, action, Reply::Remote(answer)),
            None => answer.send(Err(ApiError::room_moved())),
        }
    }

    async fn answer(&self, ask: Ask) -> Answer {
        match ask {
            Ask::Room {
                room,
                from,
                conn,
                command,
            } => self.serve_command(room, from, conn, command).await,
            Ask::Act(_) => refused(ApiError::internal("an action is not asked")),
            Ask::Adopt { room } => match self.rooms.locate(room).await {
                Ok(Located::Here(handle)) => summary(handle.summary()),
                Ok(Located::There(_)) => refused(ApiError::room_moved()),
                Err(error) => refused(error),
            },
            Ask::Summary { room } => match self.rooms.running(room) {
                Some(handle) => summary(handle.summary()),
                None => refused(ApiError::room_moved()),
            },
        }
    }

    async fn serve_command(
        &self,
        room: RoomId,
        from: String,
        conn: ConnId,
        command: Command,
    ) -> Answer {
        let key = (from.clone(), conn);
        let joining = matches!(command, Command::Join { .. });
        let leaving = matches!(command, Command::Leave);
        // A leave never loads the room: one no longer running here has nobody in it to leave
        // (its task ended with its members).
        let located = match self.rooms.running(room) {
            Some(handle) => Ok(Located::Here(handle)),
            None if leaving => {
                self.forget_served(&key, room);
                return done();
            }
            None => self.rooms.locate(room).await,
        };
        let handle = match located {
            Ok(Located::Here(handle)) => handle,
            Ok(Located::There(_)) => return refused(ApiError::room_moved()),
            Err(error) => return refused(error),
        };
        let entry = {
            let mut served = lock(&self.served);
            if joining && !served.contains_key(&key) {
                let id = self.next_conn.fetch_add(1, Ordering::Relaxed);
                let via = Via::Relay(RemoteConn {
                    node: from.as_str().into(),
                    conn,
                });
                served.insert(
                    key.clone(),
                    Served {
                        id,
                        via,
                        rooms: Vec::new(),
                    },
                );
            }
            match served.get_mut(&key) {
                Some(served) => {
                    if joining && !served.rooms.contains(&room) {
                        served.rooms.push(room);
                    }
                    Some((served.id, served.via.clone()))
                }
                None => None,
            }
        };
        let Some((id, via)) = entry else {
            if leaving {
                return done();
            }
            return refused(ApiError::bad_request(
                codes::NOT_JOINED,
                "join the room first",
            ));
        };
        let via = joining.then_some(via);
        let result = handle
            .ask_within(id, command, via, self.limits.answer_timeout())
            .await;
        if leaving || (joining && result.is_err()) {
            self.forget_served(&key, room);
        }
        Answer {
            result: result.map_err(RemoteError::from),
            after: self.relays.position(room),
            room: None,
        }
    }

    /// Another node's connection (`key`) no longer follows `room` here.
    fn forget_served(&self, key: &(String, ConnId), room: RoomId) {
        let mut served = lock(&self.served);
        if let Some(entry) = served.get_mut(key) {
            entry.rooms.retain(|followed| *followed != room);
            if entry.rooms.is_empty() {
                served.remove(key);
            }
        }
    }

    // ---- this node's connections following rooms elsewhere ----

    /// Sends a command of this node's connection `conn` (its outbox and mutes) to the room
    /// `room` served by `owner`, and answers it once every message the room sent before
    /// answering has been delivered here. A join subscribes to the room's stream first.
    /// Counted and timed in `/metrics`, whatever its answer.
    pub async fn forward(
        &self,
        owner: &str,
        room: RoomId,
        conn: ConnId,
        outbox: &Outbox,
        mutes: &Mutes,
        command: Command,
    ) -> Result<RoomAnswer, Forwarded> {
        let started = std::time::Instant::now();
        self.metrics.cluster_forwarded.inc();
        let answer: Result<RoomAnswer, Forwarded> = async {
            let joining = matches!(command, Command::Join { .. });
            let leaving = matches!(command, Command::Leave);
            lock(&self.local).entry(conn).or_insert_with(|| Local {
                outbox: outbox.clone(),
                rooms: HashMap::new(),
            });
            let mut was_member = true;
            if joining {
                was_member = self
                    .streams
                    .follow(room, conn, outbox, mutes)
                    .await
                    .map_err(|error| Forwarded::Refused(ApiError::unavailable(error)))?;
            }
            if leaving {
                self.streams.unfollow(room, conn).await;
            }
            let ask = Ask::Room {
                room,
                from: self.node.to_string(),
                conn,
                command,
            };
            let answer = self.request(owner, &ask).await;
            let unanswered = match &answer {
                Err(Forwarded::Unreachable) => true,
                Err(Forwarded::Refused(error)) => error.code == codes::UNAVAILABLE,
                Ok(_) => false,
            };
            if unanswered {
                self.metrics.cluster_forward_failures.inc();
            }
            if joining && !was_member && !matches!(answer, Ok(Answer { result: Ok(_), .. })) {
                self.streams.unfollow(room, conn).await;
            }
            let answer = answer?;
            if joining && answer.result.is_ok() {
                self.streams.joined(room, conn, owner).await;
            }
            if answer.result.is_ok()
                && !leaving
                && let Some(after) = answer.after
            {
                self.streams.wait(room, after, ORDER_WAIT).await;
            }
            {
                let mut local = lock(&self.local);
                if let Some(entry) = local.get_mut(&conn) {
                    if joining && answer.result.is_ok() {
                        entry.rooms.insert(room, owner.to_owned());
                    }
                    if leaving {
                        entry.rooms.remove(&room);
                    }
                }
            }
            answer
                .result
                .map_err(|error| Forwarded::Refused(error.into()))
        }
        .await;
        self.metrics
            .cluster_forward_seconds
            .observe(started.elapsed().as_secs_f64());
        answer
    }

    /// Sends action `client_id` of this node's connection `conn` to `room` on node `owner`
    /// without waiting for it: `answer` (the connection's outbox) gets the `ack` or the
    /// refusal once the room's stream brings it, behind the action's `applied` (`acts.rs`).
    /// Published by the node's publishing task, in the same writes to NATS as the rooms'
    /// messages (`relay.rs`). Counted and timed in `/metrics` as a forwarded command.
    pub fn act(
        &self,
        owner: &str,
        room: RoomId,
        conn: ConnId,
        client_id: String,
        action: serde_json::Value,
        answer: QueuedAnswer,
    ) {
        let ask = self.acts.expect(conn, answer);
        let act = Ask::Act(Act {
            room,
            from: self.node.to_string(),
            conn,
            ask,
            client_id,
            action,
        });
        let reply = Some(act_reply_subject(&self.node, ask));
        let published = match serde_json::to_vec(&act) {
            Ok(body) => {
                if self.relays.publish(ask_subject(owner), reply, body.into()) {
                    Ok(())
                } else {
                    Err(ApiError::unavailable("this node is stopping"))
                }
            }
            Err(error) => Err(ApiError::internal(error)),
        };
        if let Err(error) = published {
            self.acts.answer(ask, Err(error));
        }
    }

    /// Reads this node's actions' reply subjects: NATS's "no responders" (the room's node is
    /// gone) and the answers the rooms' streams could not carry.
    async fn read_act_replies(self: Arc<Self>, mut replies: async_nats::Subscriber) {
        loop {
            let Some(message) = super::next_or_stop(&self.stop, &mut replies).await else {
                return;
            };
            let Some(ask) = message
                .subject
                .rsplit('.')
                .next()
                .and_then(|ask| ask.parse().ok())
            else {
                continue;
            };
            let answer = if message.status == Some(async_nats::StatusCode::NO_RESPONDERS) {
                Err(Forwarded::Unreachable.into())
            } else {
                serde_json::from_slice::<ActAnswer>(&message.payload)
                    .map_err(ApiError::internal)
                    .and_then(|answer| answer.map_err(ApiError::from))
            };
            self.acts.answer(ask, answer);
        }
    }

    /// Answers `unavailable` the actions nothing answered in time.
    async fn expire_acts(self: Arc<Self>) {
        let every = (self.limits.answer_timeout() / 4)
            .clamp(Duration::from_millis(100), Duration::from_secs(1));
        loop {
            tokio::select! {
                () = self.stop.cancelled() => return,
                () = tokio::time::sleep(every) => {}
            }
            self.acts.expire(std::time::Instant::now());
        }
    }

    /// Connection `conn` (closing) stops following `room` on node `owner`, waiting for
    /// nothing: the `leave` is published without asking for an answer, so a socket closes at
    /// once even when that node is frozen or dead (its room stopped, or the room drops the
    /// follower when this node is seen gone).
    pub async fn leave_quietly(&self, owner: &str, room: RoomId, conn: ConnId) {
        self.streams.unfollow(room, conn).await;
        let ask = Ask::Room {
            room,
            from: self.node.to_string(),
            conn,
            command: Command::Leave,
        };
        match serde_json::to_vec(&ask) {
            Ok(body) => {
                if !self.relays.publish(ask_subject(owner), None, body.into()) {
                    tracing::debug!("cannot tell {owner} a follower left: the node is stopping");
                }
            }
            Err(error) => tracing::error!("cannot write a leave: {error}"),
        }
    }

    /// Asks node `owner` about a room for a connection of this node.
    async fn request(&self, owner: &str, ask: &Ask) -> Result<Answer, Forwarded> {
        let body =
            serde_json::to_vec(ask).map_err(|e| Forwarded::Refused(ApiError::internal(e)))?;
        let request = Request::new()
            .payload(body.into())
            .timeout(Some(self.limits.answer_timeout()));
        // Behind the connection's actions still in the publishing queue, as on one node (within
        // the answer's time: a NATS client that takes nothing more holds the queue).
        let timeout = self.limits.answer_timeout();
        if tokio::time::timeout(timeout, self.relays.handed_over())
            .await
            .is_err()
        {
            return Err(Forwarded::Refused(ApiError::unavailable(
                "the connection to the other nodes is stuck",
            )));
        }
        let message = match self.nats.send_request(ask_subject(owner), request).await {
            Ok(message) => message,
            Err(error) => {
                return Err(match error.kind() {
                    RequestErrorKind::NoResponders => Forwarded::Unreachable,
                    RequestErrorKind::TimedOut => Forwarded::Refused(ApiError::unavailable(
                        format!("node {owner} did not answer in time"),
                    )),
                    _ => Forwarded::Refused(ApiError::unavailable(error)),
                });
            }
        };
        serde_json::from_slice(&message.payload)
            .map_err(|e| Forwarded::Refused(ApiError::internal(e)))
    }

    /// Connection `conn` closed: it follows nothing elsewhere any more.
    pub async fn forget(&self, conn: ConnId) {
        lock(&self.local).remove(&conn);
        self.acts.forget(conn);
        self.streams.forget(conn).await;
    }

    /// Every third of the lease: a room followed from here whose lease is no longer held by
    /// the node serving it (it died: the lease expired; or it moved on without a word) is
    /// `room_moved` for its followers here, who are disconnected and join again.
    async fn watch_owners(self: Arc<Self>) {
        loop {
            tokio::select! {
                () = self.stop.cancelled() => return,
                () = tokio::time::sleep(self.lease / 3) => {}
            }
            self.drop_followers_of_dead_nodes().await;
            let followed: HashMap<RoomId, String> = lock(&self.local)
                .values()
                .flat_map(|entry| entry.rooms.iter().map(|(r, o)| (*r, o.clone())))
                .collect();
            let rooms: Vec<RoomId> = followed.keys().copied().collect();
            let live = match self.store.live_lease_owners(&rooms).await {
                Ok(live) => live,
                Err(error) => {
                    tracing::warn!("cannot read the leases of the rooms followed here: {error}");
                    continue;
                }
            };
            for (room, owner) in followed {
                if live.get(&room) == Some(&owner) {
                    continue;
                }
                tracing::info!(
                    "room {room} is no longer served by {owner}: its followers here join again"
                );
                let message = ServerMsg::error(Some(room), None, ApiError::room_moved().body());
                let mut local = lock(&self.local);
                for entry in local.values_mut() {
                    if entry.rooms.get(&room) == Some(&owner) {
                        entry.rooms.remove(&room);
                        let _ = entry.outbox.send(&message);
                        entry.outbox.kick(Kick::Moved);
                        self.metrics.cluster_moved_followers.inc();
                    }
                }
            }
        }
    }

    /// The followers here of connections on nodes that died leave their rooms (so presence
    /// and the seats' absence countdowns see them gone).
    async fn drop_followers_of_dead_nodes(&self) {
        let live = match self.store.live_nodes().await {
            Ok(live) => live,
            Err(error) => {
                tracing::warn!("cannot list the live nodes: {error}");
                return;
            }
        };
        let gone: Vec<(ConnId, Vec<RoomId>)> = {
            let mut served = lock(&self.served);
            let dead: Vec<(String, ConnId)> = served
                .keys()
                .filter(|(from, _)| !live.contains(from))
                .cloned()
                .collect();
            dead.iter()
                .filter_map(|key| served.remove(key))
                .map(|entry| (entry.id, entry.rooms))
                .collect()
        };
        for (conn, rooms) in gone {
            for room in rooms {
                if let Some(handle) = self.rooms.running(room) {
                    handle.leave(conn).await;
                }
            }
        }
    }

    // ---- placement and summaries ----

    /// Opens a new room (stored already) on this node, the one its creator came to (where its
    /// creator's socket and, behind a balancing proxy, about as many others are), unless this
    /// node serves clearly more rooms than the live node with the fewest ([`placement`]): then
    /// there through `adopt` (here when that node does not answer). The room as it runs.
    pub async fn place(&self, record: RoomRecord) -> Result<Room, ApiError> {
        let target = match self.store.lease_counts().await {
            Ok(counts) => placement(&counts, &self.node).map(str::to_owned),
            Err(error) => {
                tracing::warn!("cannot count the leases: {error}");
                None
            }
        };
        if let Some(target) = target {
            let ask = Ask::Adopt { room: record.id };
            if let Ok(Answer {
                result: Ok(_),
                room: Some(room),
                ..
            }) = self.ask_node(&target, &ask).await
            {
                return Ok(room);
            }
            tracing::warn!(
                "node {target} did not adopt room {}: opened here",
                record.id
            );
        }
        let handle = self.rooms.open(record).await?;
        Ok(handle.summary())
    }

    /// The room as the lobby shows it: a finished or expired room from the database (never
    /// loaded, wherever it is served: reading rooms cannot grow any node's memory); another
    /// from the node serving it (with presence), else from the database with nobody connected.
    pub async fn summary(&self, id: RoomId) -> Result<Room, ApiError> {
        if let Some(handle) = self.rooms.running(id) {
            return Ok(handle.summary());
        }
        if let Some(room) = self.rooms.finished_summary(id).await? {
            return Ok(room);
        }
        match self.rooms.locate(id).await? {
            Located::Here(handle) => Ok(handle.summary()),
            Located::There(owner) => {
                let ask = Ask::Summary { room: id };
                if let Ok(Answer {
                    result: Ok(_),
                    room: Some(room),
                    ..
                }) = self.ask_node(&owner, &ask).await
                {
                    return Ok(room);
                }
                let record = self
                    .store
                    .room(id)
                    .await?
                    .ok_or_else(ApiError::room_not_found)?;
                Ok(self.rooms.lobby_summary(&record))
            }
        }
    }

    async fn ask_node(&self, node: &str, ask: &Ask) -> Result<Answer, ApiError> {
        let body = serde_json::to_vec(ask).map_err(ApiError::internal)?;
        let request = Request::new()
            .payload(body.into())
            .timeout(Some(self.limits.answer_timeout()));
        let message = self
            .nats
            .send_request(ask_subject(node), request)
            .await
            .map_err(ApiError::unavailable)?;
        serde_json::from_slice(&message.payload).map_err(ApiError::internal)
    }
}

fn refused(error: ApiError) -> Answer {
    Answer {
        result: Err(error.into()),
        after: None,
        room: None,
    }
}

/// A command answered with nothing to do.
fn done() -> Answer {
    Answer {
        result: Ok(RoomAnswer::Done),
        after: None,
        room: None,
    }
}

fn summary(room: Room) -> Answer {
    Answer {
        result: Ok(RoomAnswer::Done),
        after: None,
        room: Some(room),
    }
}
