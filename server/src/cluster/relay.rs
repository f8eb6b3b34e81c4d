//! The relay of a room served here to its followers on other nodes (cluster mode): owned by the
//! room task, it publishes each message once per viewer class on the room's subjects
//! (`wire.rs`) instead of once per remote connection.
//!
//! The room cuts every message per viewer class as it always does (a seat's hidden information
//! is only in that seat's message); the task queues it to its local followers' outboxes and
//! hands the remote recipients to the relay, which knows each remote connection's class (its
//! seat, or spectator) and has told it to that connection's node (`enter`, in the same stream,
//! before the first message that relies on it). Recipients that make up a whole class get one
//! message on the class's subject (`all` when they are every remote follower and of two classes
//! or more, so a seat's copy, with its hand, never goes on `all`, even when that seat is the
//! only remote follower); the others one `direct` message naming them. Every message is numbered in the room's stream (epoch, stream
//! id, count); an answer to another node's command carries the count (`Relays::position`), and
//! that node delivers the stream up to it before the answer (`streams.rs`).
//!
//! Publishing is off the room: every relay of the node queues to one publishing task, which
//! takes all that queued since its last turn and publishes it in one go, so the NATS client
//! writes the messages of many rooms together (one write to the socket where it would take one
//! each). A relay's share of the queue is bounded in count: past `limit` unpublished messages
//! the room drops its remote followers (the task calls [`Relay::close_all`]), whose nodes
//! disconnect them (`slow_consumer`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use async_nats::HeaderMap;
use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use tokio::sync::{mpsc, oneshot};
use tokio_util::task::TaskTracker;
use warroom_engine::Viewer;
use warroom_protocol::{Identity, IdentityId, RoomId};

use super::wire::{
    ACKS, ANSWER, AT, ActAnswer, At, CLOSE, ENTER, PACED, RemoteError, SPEAKER, StreamPosition, TO,
    class_name, room_subject,
};
use crate::batching::take_what_ready_tasks_queue;
use crate::error::ApiError;
use crate::room::{ConnId, Overflow, Remote, RemoteConn, Remotes};

/// Unpublished messages a room's relay holds before it drops its remote followers.
pub const RELAY_QUEUE: usize = 8192;

/// The relays of this node's rooms: the publishing task they queue to, and where each room's
/// stream stands (for the answers to other nodes).
pub struct Relays {
    node: Arc<str>,
    limit: usize,
    positions: Mutex<HashMap<RoomId, Arc<Shared>>>,
    /// The publishing task's queue, shared by every relay (`None` once draining).
    outgoing: Mutex<Option<mpsc::UnboundedSender<Outgoing>>>,
    publisher: TaskTracker,
}

/// Where one relay's stream stands, readable off the room, and its queue (for the answers to
/// other nodes' commands, published behind the messages the room sent before answering).
#[derive(Debug)]
struct Shared {
    epoch: i64,
    stream: u64,
    n: AtomicU64,
    queue: mpsc::UnboundedSender<Outgoing>,
}

impl Shared {
    fn position(&self) -> StreamPosition {
        StreamPosition {
            epoch: self.epoch,
            stream: self.stream,
            n: self.n.load(Ordering::Acquire),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Relays {
    /// Relays of node `node` publishing with `nats`, each holding at most `limit` unpublished
    /// messages.
    pub fn new(nats: async_nats::Client, node: Arc<str>, limit: usize) -> Arc<Relays> {
        let (outgoing, inbox) = mpsc::unbounded_channel();
        let publisher = TaskTracker::new();
        publisher.spawn(publish(nats, inbox));
        Arc::new(Relays {
            node,
            limit: limit.max(1),
            positions: Mutex::new(HashMap::new()),
            outgoing: Mutex::new(Some(outgoing)),
            publisher,
        })
    }

    /// A relay for `room`, served here under the lease of `epoch`, with a fresh stream.
    pub fn relay(self: &Arc<Self>, room: RoomId, epoch: i64) -> Relay {
        // Once draining, a relay's messages go nowhere (the node is stopping).
        let queue = lock(&self.outgoing)
            .clone()
            .unwrap_or_else(|| mpsc::unbounded_channel().0);
        self.relay_on(room, epoch, queue)
    }

    /// A relay queueing to `queue`.
    fn relay_on(
        self: &Arc<Self>,
        room: RoomId,
        epoch: i64,
        queue: mpsc::UnboundedSender<Outgoing>,
    ) -> Relay {
        let stream = crate::identity::random_bytes().map_or(0, |b| {
            u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]))
        });
        let pending = Arc::new(AtomicUsize::new(0));
        let shared = Arc::new(Shared {
            epoch,
            stream,
            n: AtomicU64::new(0),
            queue: queue.clone(),
        });
        Relay {
            relays: self.clone(),
            room,
            shared,
            all: room_subject(room, "all"),
            direct: room_subject(room, "direct"),
            class_subjects: HashMap::new(),
            followers: HashMap::new(),
            class_count: HashMap::new(),
            seats_seen: Vec::new(),
            queue,
            pending,
            sent: 0,
            held: None,
        }
    }

    /// Where the stream of the room's relay stands now (`None`: no relay here).
    pub fn position(&self, room: RoomId) -> Option<StreamPosition> {
        lock(&self.positions)
            .get(&room)
            .map(|shared| shared.position())
    }

    /// Publishes `payload` (an answer to another node's command for `room`) on `subject` from
    /// the room's relay queue, behind every message the room queued before: the answer and the
    /// messages it follows leave in one write to NATS when they can, and reach the asking node
    /// in that order. Gives the payload back when the room has no relay here (stopped).
    pub fn publish_after(&self, room: RoomId, subject: String, payload: Bytes) -> Option<Bytes> {
        let queue = lock(&self.positions)
            .get(&room)
            .map(|shared| shared.queue.clone());
        let Some(queue) = queue else {
            return Some(payload);
        };
        // Not counted against the queue's limit: an answer never makes the room drop its
        // remote followers.
        match queue.send(Outgoing::Message(Publish {
            subject,
            headers: None,
            reply: None,
            payload,
            pending: None,
        })) {
            Ok(()) => None,
            // The queue gives back what was sent: the message.
            Err(mpsc::error::SendError(outgoing)) => match outgoing {
                Outgoing::Message(publish) => Some(publish.payload),
                Outgoing::Mark(_) => None,
            },
        }
    }

    /// Publishes `payload` on `subject` (naming `reply`, if any) with the rooms' messages: what
    /// this node's connections send rooms served elsewhere without waiting for an answer (an
    /// action, a quiet leave), in the order they sent it, in the same writes to NATS as
    /// whatever else is on its way. `false` once the node is stopping.
    pub fn publish(&self, subject: String, reply: Option<String>, payload: Bytes) -> bool {
        lock(&self.outgoing).as_ref().is_some_and(|queue| {
            queue
                .send(Outgoing::Message(Publish {
                    subject,
                    headers: None,
                    reply,
                    payload,
                    pending: None,
                }))
                .is_ok()
        })
    }

    /// Returns once everything queued before is handed to the NATS client (at once when the
    /// node is stopping): a request sent after it cannot overtake them (a connection's `leave`
    /// or chat line its earlier action, which waits in the queue).
    pub async fn handed_over(&self) {
        let (handed, marked) = oneshot::channel();
        let queued = lock(&self.outgoing)
            .as_ref()
            .is_some_and(|queue| queue.send(Outgoing::Mark(handed)).is_ok());
        if queued {
            let _ = marked.await;
        }
    }

    /// Waits (at most `limit`) for the relays of stopped rooms to publish what they hold.
    pub async fn drain(&self, limit: std::time::Duration) {
        // The publisher ends once every relay (and this) let go of its queue and it is empty.
        lock(&self.outgoing).take();
        self.publisher.close();
        let _ = tokio::time::timeout(limit, self.publisher.wait()).await;
    }
}

/// Most messages the publisher takes off its queue in one turn.
const PUBLISH_BATCH: usize = 256;

/// Publishes the relays' queue in order until every relay and [`Relays`] let go of it and it is
/// empty. Each turn it lets the other ready tasks run first, again while they queue more (the
/// rooms woken by one commit: [`take_what_ready_tasks_queue`]), then publishes everything
/// queued: the NATS client's connection task, woken by the first, finds them all when it runs
/// and writes them at once (up to four turns instead of one: `writev` per action 0.13 -> 0.11
/// per node and 6 to 8 % less CPU per action with 2 nodes, bench/RESULTS.md).
async fn publish(nats: async_nats::Client, mut inbox: mpsc::UnboundedReceiver<Outgoing>) {
    let mut batch = Vec::with_capacity(PUBLISH_BATCH);
    while inbox.recv_many(&mut batch, PUBLISH_BATCH).await > 0 {
        take_what_ready_tasks_queue(&mut batch, PUBLISH_BATCH, || inbox.try_recv().ok()).await;
        for outgoing in batch.drain(..) {
            let message = match outgoing {
                Outgoing::Message(message) => message,
                Outgoing::Mark(handed) => {
                    let _ = handed.send(());
                    continue;
                }
            };
            let published = match (message.headers, message.reply) {
                (Some(headers), _) => {
                    nats.publish_with_headers(message.subject, headers, message.payload)
                        .await
                }
                (None, Some(reply)) => {
                    nats.publish_with_reply(message.subject, reply, message.payload)
                        .await
                }
                (None, None) => nats.publish(message.subject, message.payload).await,
            };
            if let Err(error) = published {
                tracing::warn!("this node cannot publish to NATS: {error}");
            }
            if let Some(pending) = message.pending {
                pending.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }
}

/// What the publishing task takes off its queue.
#[derive(Debug)]
enum Outgoing {
    /// A message to publish.
    Message(Publish),
    /// Everything before it is handed to the NATS client ([`Relays::handed_over`]).
    Mark(oneshot::Sender<()>),
}

/// One NATS message to publish (without headers: an answer to another node, or with a reply
/// subject, an action of this node's connection).
#[derive(Debug)]
struct Publish {
    subject: String,
    headers: Option<HeaderMap>,
    reply: Option<String>,
    payload: Bytes,
    /// The unpublished count of the relay it counts against (`None`: an answer, which never
    /// makes the room drop its remote followers).
    pending: Option<Arc<AtomicUsize>>,
}

/// A connection of another node following the room.
#[derive(Debug)]
struct Follower {
    remote: RemoteConn,
    /// The class its node was told (`None`: not yet).
    class: Option<Viewer>,
}

/// The relay of one room: owned by its task.
pub struct Relay {
    relays: Arc<Relays>,
    room: RoomId,
    shared: Arc<Shared>,
    all: String,
    direct: String,
    class_subjects: HashMap<Viewer, String>,
    /// Remote followers, by their id here.
    followers: HashMap<ConnId, Follower>,
    /// How many remote followers each class has (as told).
    class_count: HashMap<Viewer, usize>,
    /// The seat holders the classes were last worked out for.
    seats_seen: Vec<Option<IdentityId>>,
    queue: mpsc::UnboundedSender<Outgoing>,
    pending: Arc<AtomicUsize>,
    /// Messages published (queued) in this stream.
    sent: u64,
    /// The last message queued, held back until the room's loop carried out the core's
    /// outputs ([`Relay::flush`]): the answers to other nodes' actions given meanwhile ride
    /// on it ([`ACKS`]) instead of a message of their own.
    held: Option<Publish>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay")
            .field("room", &self.room)
            .field("position", &self.shared.position())
            .field("followers", &self.followers.len())
            .finish()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.flush();
        let mut positions = lock(&self.relays.positions);
        if positions
            .get(&self.room)
            .is_some_and(|shared| Arc::ptr_eq(shared, &self.shared))
        {
            positions.remove(&self.room);
        }
    }
}

impl Relay {
    /// The room's task runs: answers to other nodes carry this relay's position from now on,
    /// and the nodes following the room hear that it is served here now (`served`, message 0
    /// of the stream: the stream is numbered from 1 after it).
    pub fn start(&mut self) {
        lock(&self.relays.positions).insert(self.room, self.shared.clone());
        let headers = self.numbered(0);
        self.queue(room_subject(self.room, "served"), headers, Bytes::new());
    }

    /// True when `conn` is a remote follower.
    pub fn follows(&self, conn: ConnId) -> bool {
        self.followers.contains_key(&conn)
    }

    /// How many remote connections follow the room.
    pub fn len(&self) -> usize {
        self.followers.len()
    }

    /// True when no remote connection follows the room.
    pub fn is_empty(&self) -> bool {
        self.followers.is_empty()
    }

    /// A remote connection follows the room as `conn` (nothing is told its node until
    /// [`Relay::enter`]).
    pub fn add(&mut self, conn: ConnId, remote: RemoteConn) {
        if let Some(old) = self.followers.insert(
            conn,
            Follower {
                remote,
                class: None,
            },
        ) && let Some(class) = old.class
        {
            self.uncount(class);
        }
    }

    /// A remote follower stops following.
    pub fn remove(&mut self, conn: ConnId) -> bool {
        match self.followers.remove(&conn) {
            Some(follower) => {
                if let Some(class) = follower.class {
                    self.uncount(class);
                }
                true
            }
            None => false,
        }
    }

    fn uncount(&mut self, class: Viewer) {
        if let Some(count) = self.class_count.get_mut(&class) {
            *count = count.saturating_sub(1);
        }
    }

    /// Tells the node of follower `conn` that it is of `class` now (if it was not told so).
    pub fn enter(&mut self, conn: ConnId, class: Viewer) {
        let Some(follower) = self.followers.get_mut(&conn) else {
            return;
        };
        if follower.class == Some(class) {
            return;
        }
        let old = follower.class.replace(class);
        let to = follower.remote.to_string();
        if let Some(old) = old {
            self.uncount(old);
        }
        *self.class_count.entry(class).or_default() += 1;
        let mut headers = self.headers();
        headers.insert(TO, to);
        headers.insert(ENTER, class_name(class));
        self.queue(self.direct.clone(), headers, Bytes::new());
    }

    /// When the seat holders changed since the last call: tells every follower's node the
    /// class it is of now (`class_of`). Call before sending anything.
    pub fn reclassify(&mut self, seats: &[Option<Identity>], class_of: &dyn Fn(ConnId) -> Viewer) {
        let unchanged = self.seats_seen.len() == seats.len()
            && self
                .seats_seen
                .iter()
                .zip(seats)
                .all(|(seen, now)| *seen == now.as_ref().map(|i| i.id));
        if unchanged {
            return;
        }
        self.seats_seen = seats.iter().map(|s| s.as_ref().map(|i| i.id)).collect();
        let mut conns: Vec<ConnId> = self.followers.keys().copied().collect();
        conns.sort_unstable();
        for conn in conns {
            self.enter(conn, class_of(conn));
        }
    }

    /// Drops every remote follower, telling their nodes to disconnect them with `reason` (a
    /// close code: `room_moved`, `slow_consumer`); their ids here, for the room to forget.
    pub fn close_all(&mut self, reason: &str) -> Vec<ConnId> {
        if self.followers.is_empty() {
            return Vec::new();
        }
        let mut conns: Vec<ConnId> = self.followers.keys().copied().collect();
        conns.sort_unstable();
        let to: Vec<String> = conns
            .iter()
            .filter_map(|conn| self.followers.get(conn).map(|f| f.remote.to_string()))
            .collect();
        self.followers.clear();
        self.class_count.clear();
        let mut headers = self.headers();
        headers.insert(TO, to.join(","));
        headers.insert(CLOSE, reason);
        self.queue(self.direct.clone(), headers, Bytes::new());
        conns
    }

    fn publish(
        &mut self,
        subject: String,
        to: Option<String>,
        speaker: Option<IdentityId>,
        paced: bool,
        payload: Bytes,
    ) {
        let mut headers = self.headers();
        if paced {
            headers.insert(PACED, "1");
        }
        if let Some(to) = to {
            headers.insert(TO, to);
        }
        if let Some(speaker) = speaker {
            headers.insert(SPEAKER, speaker.to_string());
        }
        self.queue(subject, headers, payload);
    }

    /// The headers of the next message of the stream (numbered here).
    fn headers(&mut self) -> HeaderMap {
        self.sent += 1;
        self.numbered(self.sent)
    }

    /// The headers of message `n` of the stream: its place and this node ([`AT`]).
    fn numbered(&self, n: u64) -> HeaderMap {
        let at = At {
            position: StreamPosition {
                epoch: self.shared.epoch,
                stream: self.shared.stream,
                n,
            },
            from: &self.relays.node,
        };
        let mut headers = HeaderMap::new();
        headers.insert(AT, at.value());
        headers
    }

    /// Queues the next message of the stream (counted against the limit until published);
    /// it is held back until the next one or [`Relay::flush`].
    fn queue(&mut self, subject: String, headers: HeaderMap, payload: Bytes) {
        self.pending.fetch_add(1, Ordering::AcqRel);
        let message = Publish {
            subject,
            headers: Some(headers),
            reply: None,
            payload,
            pending: Some(self.pending.clone()),
        };
        if let Some(before) = self.held.replace(message) {
            self.hand_over(before);
        }
        self.shared.n.store(self.sent, Ordering::Release);
    }

    /// Gives a message to the publisher.
    fn hand_over(&self, message: Publish) {
        if self.queue.send(Outgoing::Message(message)).is_err() {
            self.pending.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Publishes the message held back, if any.
    pub fn flush(&mut self) {
        if let Some(message) = self.held.take() {
            self.hand_over(message);
        }
    }

    /// Answers action `ask` of follower `conn` (its node's number for it) on the stream: an
    /// accepted one rides on the message held back (the action's `applied`, or a later one) as
    /// an [`ACKS`] value, read by its node once it delivered that message; anything else (a
    /// refusal, an answer with no message held: an action found in the log) is a `direct`
    /// message of its own ([`ANSWER`]). Never refused for a full queue: an answer does not make
    /// the room drop its remote followers.
    pub fn answer(&mut self, conn: ConnId, ask: u64, result: Result<u64, ApiError>) {
        let Some(node) = self.followers.get(&conn).map(|f| f.remote.node.clone()) else {
            return;
        };
        if let (Ok(seq), Some(held)) = (&result, self.held.as_mut())
            && let Some(headers) = held.headers.as_mut()
        {
            headers.append(ACKS, format!("{node}:{ask}={seq}"));
            return;
        }
        let answer: ActAnswer = result.map_err(RemoteError::from);
        let payload = match serde_json::to_vec(&answer) {
            Ok(payload) => Bytes::from(payload),
            Err(error) => {
                tracing::error!("cannot write an action's answer: {error}");
                return;
            }
        };
        let mut headers = self.headers();
        headers.insert(ANSWER, format!("{node}:{ask}"));
        self.queue(self.direct.clone(), headers, payload);
    }
}

impl std::fmt::Display for RemoteConn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.node, self.conn)
    }
}

impl Remote for Relay {
    fn start(&mut self) {
        Relay::start(self);
    }

    fn follows(&self, conn: ConnId) -> bool {
        Relay::follows(self, conn)
    }

    fn count(&self) -> usize {
        Relay::len(self)
    }

    fn add(&mut self, conn: ConnId, remote: RemoteConn) {
        Relay::add(self, conn, remote);
    }

    fn remove(&mut self, conn: ConnId) -> bool {
        Relay::remove(self, conn)
    }

    fn enter(&mut self, conn: ConnId, class: Viewer) {
        Relay::enter(self, conn, class);
    }

    fn reclassify(&mut self, seats: &[Option<Identity>], class_of: &dyn Fn(ConnId) -> Viewer) {
        Relay::reclassify(self, seats, class_of);
    }

    /// Publishes `text` for the remote followers `to` (every one of them follows the room):
    /// once for each whole class among them (`all` when they are everyone), once more on
    /// `direct` for the rest. `speaker`: a line of chat's, whose muters' nodes drop it.
    fn send(
        &mut self,
        to: &[ConnId],
        text: &Utf8Bytes,
        speaker: Option<IdentityId>,
        paced: bool,
    ) -> Result<(), Overflow> {
        if to.is_empty() {
            return Ok(());
        }
        if self.pending.load(Ordering::Acquire) >= self.relays.limit {
            return Err(Overflow);
        }
        let payload = Bytes::from(text.clone());
        let told = |conn: &ConnId| self.followers.get(conn).and_then(|f| f.class);
        // `all` only for what several classes read: a message for one class (a seat's hand and
        // drawn card) goes on that class's subject even when its class is every remote
        // follower, so no seat's hidden information is ever on a subject shared by all.
        if to.len() == self.followers.len()
            && to.iter().all(|conn| told(conn).is_some())
            && to.iter().any(|conn| told(conn) != told(&to[0]))
        {
            let subject = self.all.clone();
            self.publish(subject, None, speaker, paced, payload);
            return Ok(());
        }
        // Grouped by class, in first-seen order (a message goes to a few classes at most).
        let mut groups: Vec<(Option<Viewer>, usize)> = Vec::new();
        for conn in to {
            let class = told(conn);
            match groups.iter_mut().find(|(c, _)| *c == class) {
                Some((_, count)) => *count += 1,
                None => groups.push((class, 1)),
            }
        }
        let whole = |class: Option<Viewer>, count: usize| {
            class.is_some_and(|class| self.class_count.get(&class) == Some(&count))
        };
        let whole_classes: Vec<Viewer> = groups
            .iter()
            .filter(|(class, count)| whole(*class, *count))
            .filter_map(|(class, _)| *class)
            .collect();
        let rest: Vec<String> = to
            .iter()
            .filter(|conn| !told(conn).is_some_and(|class| whole_classes.contains(&class)))
            .filter_map(|conn| self.followers.get(conn).map(|f| f.remote.to_string()))
            .collect();
        for class in whole_classes {
            let subject = self
                .class_subjects
                .entry(class)
                .or_insert_with(|| room_subject(self.room, &class_name(class)))
                .clone();
            self.publish(subject, None, speaker, paced, payload.clone());
        }
        if !rest.is_empty() {
            let subject = self.direct.clone();
            self.publish(subject, Some(rest.join(",")), speaker, paced, payload);
        }
        Ok(())
    }

    fn close_all(&mut self, reason: &str) -> Vec<ConnId> {
        Relay::close_all(self, reason)
    }

    fn answer(&mut self, conn: ConnId, ask: u64, result: Result<u64, ApiError>) {
        Relay::answer(self, conn, ask, result);
    }

    fn flush(&mut self) {
        Relay::flush(self);
    }
}

impl Remotes for Relays {
    fn relay(self: Arc<Self>, room: RoomId, epoch: i64) -> Box<dyn Remote> {
        Box::new(Relays::relay(&self, room, epoch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use warroom_protocol::codes;

    /// Relays whose NATS client never connects (nothing listens on port 1): the tests read a
    /// relay's queue themselves, as its publisher would.
    async fn relays(limit: usize) -> Arc<Relays> {
        let nats = async_nats::ConnectOptions::new()
            .retry_on_initial_connect()
            .connect("nats://127.0.0.1:1")
            .await
            .expect("a client that connects in the background");
        Relays::new(nats, Arc::from("a"), limit)
    }

    /// A relay whose queue the test reads itself, as the publishing task would.
    fn unpublished(relays: &Arc<Relays>, room: RoomId, epoch: i64) -> (Relay, Queue) {
        let (queue, inbox) = mpsc::unbounded_channel();
        (relays.relay_on(room, epoch, queue), Queue(inbox))
    }

    /// A relay's queue as a test reads it: its messages.
    struct Queue(mpsc::UnboundedReceiver<Outgoing>);

    impl Queue {
        fn try_recv(&mut self) -> Result<Publish, mpsc::error::TryRecvError> {
            match self.0.try_recv()? {
                Outgoing::Message(message) => Ok(message),
                Outgoing::Mark(_) => panic!("a relay queues no mark"),
            }
        }
    }

    fn header(message: &Publish, name: async_nats::HeaderName) -> Option<&str> {
        message
            .headers
            .as_ref()
            .and_then(|headers| headers.get(name))
            .map(|value| value.as_str())
    }

    /// The message's number in its stream ([`AT`]).
    fn number(message: &Publish) -> Option<u64> {
        header(message, AT)
            .and_then(At::parse)
            .map(|at| at.position.n)
    }

    /// Two spectators of node b follow the room; the queue holds 4 unpublished messages.
    async fn full_relay() -> (Arc<Relays>, RoomId, Relay, Queue) {
        let relays = relays(4).await;
        let room = RoomId::random();
        let (mut relay, mut inbox) = unpublished(&relays, room, 7);
        relay.start();
        // The loop flushes once it carried out the core's outputs; the publisher takes the
        // `served` message at once.
        relay.flush();
        let served = inbox.try_recv().expect("served");
        assert_eq!(served.subject, room_subject(room, "served"));
        assert_eq!(number(&served), Some(0));
        relay.pending.fetch_sub(1, Ordering::AcqRel);
        for conn in [9, 7] {
            let node = Arc::from("b");
            relay.add(
                conn,
                RemoteConn {
                    node,
                    conn: conn + 100,
                },
            );
            relay.enter(conn, Viewer::Spectator);
        }
        (relays, room, relay, inbox)
    }

    #[tokio::test]
    async fn a_full_queue_refuses_the_next_message_and_close_all_drops_every_remote_follower_as_slow_consumers()
     {
        let (relays, room, mut relay, mut inbox) = full_relay().await;
        let text = Utf8Bytes::from_static(r#"{"type":"applied"}"#);
        // Two `enter`s and two messages: 4 unpublished, the limit.
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        assert_eq!(relay.send(&[7, 9], &text, None, false), Err(Overflow));
        assert_eq!(relay.send(&[9], &text, None, false), Err(Overflow));
        assert_eq!(
            relays.position(room).map(|p| p.n),
            Some(4),
            "nothing refused is numbered"
        );

        // What the room task does then (`relay_out`): every remote follower dropped, their
        // node told to disconnect them, even though the queue is full.
        assert_eq!(relay.close_all(codes::SLOW_CONSUMER), vec![7, 9]);
        assert!(relay.is_empty() && !relay.follows(7) && !relay.follows(9));
        assert_eq!(
            relay.send(&[], &text, None, false),
            Ok(()),
            "nobody to send to"
        );
        assert_eq!(relay.close_all(codes::SLOW_CONSUMER), Vec::<ConnId>::new());

        relay.flush();
        let mut queued = Vec::new();
        while let Ok(message) = inbox.try_recv() {
            queued.push(message);
        }
        let numbers: Vec<Option<u64>> = queued.iter().map(number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5].map(Some));
        let subjects: Vec<&str> = queued.iter().map(|m| m.subject.as_str()).collect();
        let (direct, spectators) = (
            room_subject(room, "direct"),
            room_subject(room, "spectators"),
        );
        assert_eq!(
            subjects,
            [&*direct, &direct, &spectators, &spectators, &direct]
        );
        let close = &queued[4];
        assert_eq!(header(close, CLOSE), Some(codes::SLOW_CONSUMER));
        assert_eq!(header(close, TO), Some("b:107,b:109"));
        assert_eq!(header(close, ENTER), None);
        assert!(close.payload.is_empty());
        assert_eq!(relays.position(room).map(|p| p.n), Some(5));
    }

    #[tokio::test]
    async fn a_request_waits_until_what_was_queued_before_it_is_handed_to_nats_and_not_once_stopping()
     {
        let relays = relays(64).await;
        for n in 0..3 {
            let subject = format!("warroom.node.b.ask.{n}");
            assert!(relays.publish(subject, None, Bytes::from_static(b"{}")));
        }
        let handed = tokio::time::timeout(Duration::from_secs(5), relays.handed_over()).await;
        assert!(handed.is_ok(), "the publishing task reached the mark");
        relays.drain(Duration::from_millis(100)).await;
        assert!(
            !relays.publish("warroom.node.b.ask".into(), None, Bytes::new()),
            "a stopping node publishes nothing more"
        );
        let handed = tokio::time::timeout(Duration::from_secs(5), relays.handed_over()).await;
        assert!(handed.is_ok(), "nothing to wait for once stopping");
    }

    #[tokio::test]
    async fn a_seats_copy_goes_on_its_seats_subject_even_when_that_seat_is_every_remote_follower() {
        let relays = relays(64).await;
        let room = RoomId::random();
        let (mut relay, mut inbox) = unpublished(&relays, room, 3);
        relay.start();
        let node: Arc<str> = Arc::from("b");
        // Two sockets of seat 1's player on node b: the only remote followers (as right after
        // a takeover, when the other seats follow on the node now serving the room).
        for conn in [4, 5] {
            let remote = RemoteConn {
                node: node.clone(),
                conn,
            };
            relay.add(conn, remote);
            relay.enter(conn, Viewer::Seat(warroom_engine::Seat(1)));
        }
        let hand = Utf8Bytes::from_static(r#"{"type":"applied","view":{"hand":["x"]}}"#);
        assert_eq!(relay.send(&[4, 5], &hand, None, false), Ok(()));
        // A spectator joins on node c: a message for both classes goes on `all` once.
        let spectator = RemoteConn {
            node: Arc::from("c"),
            conn: 9,
        };
        relay.add(6, spectator);
        relay.enter(6, Viewer::Spectator);
        let room_text = Utf8Bytes::from_static(r#"{"type":"room"}"#);
        assert_eq!(relay.send(&[4, 5, 6], &room_text, None, false), Ok(()));
        assert_eq!(relay.send(&[5, 4], &hand, None, false), Ok(()));
        relay.flush();
        let mut subjects = Vec::new();
        while let Ok(message) = inbox.try_recv() {
            if header(&message, ENTER).is_none() && number(&message) != Some(0) {
                subjects.push(message.subject);
            }
        }
        let seat = room_subject(room, "seat.1");
        let all = room_subject(room, "all");
        assert_eq!(subjects, [&*seat, &all, &seat]);
    }

    #[tokio::test]
    async fn an_answer_leaves_behind_the_rooms_messages_and_does_not_count_against_the_limit() {
        let (relays, room, mut relay, mut inbox) = full_relay().await;
        let text = Utf8Bytes::from_static(r#"{"type":"applied"}"#);
        // Two `enter`s and one message: 3 unpublished of 4.
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        // The room's loop publishes what it holds back before it gives any other answer.
        relay.flush();
        let answer = Bytes::from_static(b"{\"result\":{\"Ok\":{\"type\":\"done\"}}}");
        assert_eq!(
            relays.publish_after(room, "_INBOX.x.1".into(), answer.clone()),
            None,
            "queued behind the room's messages"
        );
        // The limit still has room for one message of the room's own.
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        relay.flush();
        let order: Vec<String> = std::iter::from_fn(|| inbox.try_recv().ok())
            .map(|message| message.subject)
            .collect();
        let spectators = room_subject(room, "spectators");
        let direct = room_subject(room, "direct");
        assert_eq!(
            order,
            vec![
                direct.clone(),
                direct,
                spectators.clone(),
                "_INBOX.x.1".to_owned(),
                spectators
            ]
        );
        // A room with no relay here gives the answer back, for a plain publish.
        assert_eq!(
            relays.publish_after(RoomId::random(), "_INBOX.x.2".into(), answer.clone()),
            Some(answer)
        );
    }

    #[tokio::test]
    async fn the_limit_counts_only_what_is_not_published_yet() {
        let (_relays, _room, mut relay, mut inbox) = full_relay().await;
        let text = Utf8Bytes::from_static(r#"{"type":"applied"}"#);
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        assert_eq!(relay.send(&[7, 9], &text, None, false), Err(Overflow));
        // The publisher takes one message off the queue and publishes it.
        assert!(inbox.try_recv().is_ok());
        relay.pending.fetch_sub(1, Ordering::AcqRel);
        assert_eq!(relay.send(&[7, 9], &text, None, false), Ok(()));
        assert_eq!(relay.send(&[7, 9], &text, None, false), Err(Overflow));
        assert_eq!(relay.len(), 2, "refusing a message drops nobody by itself");
    }

    #[tokio::test]
    async fn a_paced_message_is_marked_paced_for_the_reading_node_and_an_urgent_one_is_not() {
        let (_relays, _room, mut relay, mut inbox) = full_relay().await;
        let text = Utf8Bytes::from_static(r#"{"type":"applied"}"#);
        assert_eq!(relay.send(&[7, 9], &text, None, true), Ok(()));
        assert_eq!(relay.send(&[7], &text, None, false), Ok(()));
        relay.flush();
        let mut queued = Vec::new();
        while let Ok(message) = inbox.try_recv() {
            queued.push(message);
        }
        // Two `enter`s, then the two messages.
        assert_eq!(queued.len(), 4);
        assert_eq!(header(&queued[2], PACED), Some("1"));
        assert_eq!(header(&queued[3], PACED), None);
        assert!(queued[..2].iter().all(|m| header(m, PACED).is_none()));
    }

    #[tokio::test]
    async fn an_accepted_actions_answer_rides_on_its_applied_and_a_refusal_is_a_message_of_its_own()
    {
        let (_relays, room, mut relay, mut inbox) = full_relay().await;
        let applied = Utf8Bytes::from_static(r#"{"type":"applied","seq":12}"#);
        assert_eq!(relay.send(&[7, 9], &applied, None, false), Ok(()));
        // Spectator 7 (b:107) acted as number 31 of its node, accepted as seq 12; another
        // follower's action in the same round rides on the same message.
        relay.answer(7, 31, Ok(12));
        relay.answer(9, 32, Ok(13));
        relay.flush();
        // Nothing is held any more: a refusal, and an accepted action found in the log, go
        // apart.
        relay.answer(
            9,
            33,
            Err(ApiError::bad_request(codes::UNKNOWN_ACTION, "wait")),
        );
        relay.flush();
        relay.answer(7, 34, Ok(5));
        // An unknown follower's answer goes nowhere.
        relay.answer(8, 35, Ok(6));
        relay.flush();
        let queued: Vec<Publish> = std::iter::from_fn(|| inbox.try_recv().ok()).collect();
        // Two `enter`s, the `applied`, two answers of their own.
        assert_eq!(queued.len(), 5, "{queued:?}");
        let carrier = &queued[2];
        assert_eq!(carrier.payload, Bytes::from(applied));
        let acks: Vec<&str> = carrier
            .headers
            .as_ref()
            .map(|h| h.get_all(ACKS).map(|v| v.as_str()).collect())
            .unwrap_or_default();
        assert_eq!(acks, ["b:31=12", "b:32=13"]);
        let direct = room_subject(room, "direct");
        for (message, to, answer) in [(&queued[3], "b:33", None), (&queued[4], "b:34", Some(5))] {
            assert_eq!(message.subject, direct);
            assert_eq!(header(message, ANSWER), Some(to));
            assert_eq!(header(message, ACKS), None);
            let read: ActAnswer = serde_json::from_slice(&message.payload).expect("JSON");
            match answer {
                Some(seq) => assert_eq!(read.ok(), Some(seq)),
                None => assert_eq!(
                    read.err().map(|e| e.code),
                    Some(codes::UNKNOWN_ACTION.into())
                ),
            }
        }
        let numbers: Vec<Option<u64>> = queued.iter().map(number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5].map(Some));
    }
}
