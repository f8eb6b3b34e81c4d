//! This node's side of the rooms its connections follow on other nodes: one NATS subscription
//! per followed room (`warroom.room.<room>.>`), taken before the first join of the room is
//! forwarded, so that the owner's relay (`relay.rs`) finds it, and read in the order it was
//! published (async-nats orders messages per subscription only, so one subscription carries
//! every class of the room).
//!
//! Each message is delivered to the local connections it is for: a class message to the
//! members the stream told were of that class (`enter`), `all` to every member told a class,
//! `direct` to the connections it names. A line of chat is dropped for a member that mutes its
//! speaker (the connection's own mutes, so a mute changed later applies at once). A member
//! whose outgoing queue is full is disconnected by its own outbox (`slow_consumer`). The
//! position read so far (epoch, stream, count) lets a forwarded command's answer wait for the
//! messages the room sent before it ([`Streams::wait`]). Messages of an older epoch (a node
//! that lost the room) are dropped; a newer stream resets every member's class.
//!
//! A message marked [`PACED`] (a spectators' copy of the match) is queued paced, so this node's
//! writers pace remote spectators as the room's own node paces its own. A message numbered past
//! the next one of its stream means this node missed some (NATS dropped them: a full
//! subscription channel, a reconnect): every member of the room here is disconnected as a slow
//! consumer, so its client joins again and catches up from the log, rather than going on with
//! a hole in what it saw (`warroom_cluster_stream_gaps_total` counts it).
//!
//! A message of a newer lease epoch than any read before (the `served` message a node publishes
//! when it starts serving the room, or anything after it) means the room moved: every member
//! that joined through another node is told `room_moved` (an `error`, then the socket's close)
//! at once, so its client joins again and is served by the new owner, within moments of the
//! new lease rather than at this node's next look at the leases (`node.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::{HeaderMap, HeaderName};
use axum::extract::ws::Utf8Bytes;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use warroom_engine::{Seat, Viewer};
use warroom_protocol::{IdentityId, RoomId, ServerMsg, codes};

use super::acts::Acts;
use super::wire::{
    ACKS, ANSWER, AT, ActAnswer, At, CLOSE, ENTER, PACED, SPEAKER, StreamPosition, TO, parse_class,
    room_subject,
};
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::room::{ConnId, Kick, Mutes, Outbox};

/// The subscriptions of this node to rooms served elsewhere.
pub struct Streams {
    nats: async_nats::Client,
    node: Arc<str>,
    metrics: Arc<Metrics>,
    /// This node's actions on their way, answered on the streams.
    acts: Arc<Acts>,
    /// Held while a subscription is taken or dropped (never while delivering).
    rooms: tokio::sync::Mutex<HashMap<RoomId, Arc<RoomStream>>>,
}

/// One followed room.
struct RoomStream {
    room: RoomId,
    members: Mutex<HashMap<ConnId, Member>>,
    /// The newest lease epoch any message of the room carried.
    newest_epoch: Mutex<i64>,
    /// What was delivered so far.
    position: watch::Sender<StreamPosition>,
    /// Stops the reader (dropping the subscription).
    stop: CancellationToken,
}

/// A connection of this node following the room.
struct Member {
    outbox: Outbox,
    mutes: Mutes,
    /// Its class, as the room's stream told (`None`: not yet, in this stream).
    class: Option<Viewer>,
    /// The node whose answer its join got (`None`: its join is not answered yet).
    owner: Option<Arc<str>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Streams {
    /// No room followed yet; the answers to `acts` are read off the streams.
    pub fn new(
        nats: async_nats::Client,
        node: Arc<str>,
        metrics: Arc<Metrics>,
        acts: Arc<Acts>,
    ) -> Streams {
        Streams {
            nats,
            node,
            metrics,
            acts,
            rooms: tokio::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Connection `conn` (its outbox and mutes) is about to join `room`: subscribes to the
    /// room first if no connection here follows it. True when it was a member already.
    pub async fn follow(
        &self,
        room: RoomId,
        conn: ConnId,
        outbox: &Outbox,
        mutes: &Mutes,
    ) -> Result<bool, async_nats::SubscribeError> {
        let mut rooms = self.rooms.lock().await;
        let stream = match rooms.get(&room) {
            Some(stream) => stream.clone(),
            None => {
                let subscriber = self.nats.subscribe(room_subject(room, ">")).await?;
                let stream = Arc::new(RoomStream {
                    room,
                    members: Mutex::new(HashMap::new()),
                    newest_epoch: Mutex::new(0),
                    position: watch::Sender::new(StreamPosition::default()),
                    stop: CancellationToken::new(),
                });
                tokio::spawn(read(
                    self.node.clone(),
                    self.metrics.clone(),
                    self.acts.clone(),
                    stream.clone(),
                    subscriber,
                ));
                rooms.insert(room, stream.clone());
                stream
            }
        };
        let mut members = lock(&stream.members);
        let was = members.contains_key(&conn);
        members.entry(conn).or_insert_with(|| Member {
            outbox: outbox.clone(),
            mutes: mutes.clone(),
            class: None,
            owner: None,
        });
        Ok(was)
    }

    /// Connection `conn`'s join of `room` was answered by node `owner`: a newer owner's
    /// messages tell it `room_moved`.
    pub async fn joined(&self, room: RoomId, conn: ConnId, owner: &str) {
        let stream = self.rooms.lock().await.get(&room).cloned();
        if let Some(stream) = stream
            && let Some(member) = lock(&stream.members).get_mut(&conn)
        {
            member.owner = Some(Arc::from(owner));
        }
    }

    /// Connection `conn` no longer follows `room` (the subscription goes with its last member).
    pub async fn unfollow(&self, room: RoomId, conn: ConnId) {
        let mut rooms = self.rooms.lock().await;
        let empty = rooms.get(&room).is_some_and(|stream| {
            let mut members = lock(&stream.members);
            members.remove(&conn);
            members.is_empty()
        });
        if empty && let Some(stream) = rooms.remove(&room) {
            stream.stop.cancel();
        }
    }

    /// Connection `conn` closed: it follows nothing any more.
    pub async fn forget(&self, conn: ConnId) {
        let mut rooms = self.rooms.lock().await;
        rooms.retain(|_, stream| {
            let mut members = lock(&stream.members);
            members.remove(&conn);
            let keep = !members.is_empty();
            if !keep {
                stream.stop.cancel();
            }
            keep
        });
    }

    /// Waits (at most `limit`) until this node delivered `room`'s stream up to `target` (or
    /// read a newer epoch of it).
    pub async fn wait(&self, room: RoomId, target: StreamPosition, limit: Duration) {
        let stream = self.rooms.lock().await.get(&room).cloned();
        let Some(stream) = stream else { return };
        let mut position = stream.position.subscribe();
        let reached = |p: &StreamPosition| {
            p.epoch > target.epoch
                || (p.epoch == target.epoch && p.stream == target.stream && p.n >= target.n)
        };
        if tokio::time::timeout(limit, position.wait_for(reached))
            .await
            .is_err()
        {
            tracing::warn!(
                "room {room}: the stream did not reach {target:?} within {limit:?} (at {:?})",
                *position.borrow()
            );
        }
    }
}

/// Reads a room's subscription until stopped.
async fn read(
    node: Arc<str>,
    metrics: Arc<Metrics>,
    acts: Arc<Acts>,
    stream: Arc<RoomStream>,
    mut subscriber: async_nats::Subscriber,
) {
    loop {
        let Some(message) = super::next_or_stop(&stream.stop, &mut subscriber).await else {
            return;
        };
        let moved = stream.moved_on(&message);
        if moved > 0 {
            metrics.cluster_moved_followers.inc_by(moved as u64);
        }
        if stream.handle(&node, &message, &acts) == Read::Gap {
            metrics.cluster_stream_gaps.inc();
        }
    }
}

/// What reading one message found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// The message is for this node and was handled (or it was not for this node).
    InOrder,
    /// Messages before it were missed: the room's members here were disconnected.
    Gap,
}

/// The headers a stream message carries.
struct Stamp<'a> {
    headers: &'a HeaderMap,
    position: StreamPosition,
}

impl Stamp<'_> {
    fn get(&self, name: HeaderName) -> Option<&str> {
        self.headers.get(name).map(|value| value.as_str())
    }

    /// Answers this node's actions whose `applied` this message carries or came before it
    /// ([`ACKS`]): their acks go right behind what the message delivered.
    fn acks(&self, node: &str, acts: &Acts) {
        for acked in self.headers.get_all(ACKS) {
            if let Some((to, seq)) = acked.as_str().split_once('=')
                && let Some(ask) = ask_here(node, to)
                && let Ok(seq) = seq.parse()
            {
                acts.answer(ask, Ok(seq));
            }
        }
    }

    /// Queues the message's text to `outbox`, paced when it is marked so (a full queue
    /// disconnects that socket by itself).
    fn queue(&self, outbox: &Outbox, text: Utf8Bytes) {
        let _ = if self.get(PACED).is_some() {
            outbox.send_paced(text)
        } else {
            outbox.send_text(text)
        };
    }
}

/// The message's [`AT`] header, read.
fn at(message: &async_nats::Message) -> Option<At<'_>> {
    At::parse(message.headers.as_ref()?.get(AT)?.as_str())
}

fn stamp<'a>(node: &str, message: &'a async_nats::Message) -> Option<Stamp<'a>> {
    let at = at(message)?;
    if at.from == node {
        // This node's own relay (it serves the room now): not for its members here.
        return None;
    }
    Some(Stamp {
        headers: message.headers.as_ref()?,
        position: at.position,
    })
}

impl RoomStream {
    /// Delivers one message of the room's stream (call [`RoomStream::moved_on`] first), then
    /// the answers it carries to this node's actions (`acts`).
    fn handle(&self, node: &str, message: &async_nats::Message, acts: &Acts) -> Read {
        let Some(stamp) = stamp(node, message) else {
            return Read::InOrder;
        };
        let at = stamp.position;
        let now = *self.position.borrow();
        if at.epoch < now.epoch {
            // From a node that no longer holds the room.
            return Read::InOrder;
        }
        let mut members = lock(&self.members);
        let same_stream = (at.epoch, at.stream) == (now.epoch, now.stream);
        if same_stream && at.n > now.n + 1 {
            tracing::warn!(
                "a followed room's stream skipped from {} to {} (epoch {}): its {} members here \
                 are disconnected to join again",
                now.n,
                at.n,
                at.epoch,
                members.len()
            );
            for (_, member) in members.drain() {
                member.outbox.kick(Kick::Slow);
            }
            drop(members);
            self.position.send_replace(at);
            return Read::Gap;
        }
        if !same_stream {
            // A new stream (another owner, or the room started again): nobody has a class in
            // it until told.
            for member in members.values_mut() {
                member.class = None;
            }
        }
        if let Some(to) = stamp.get(ANSWER) {
            // Only an answer to an action, given apart.
            drop(members);
            self.position.send_replace(at);
            if let Some(ask) = ask_here(node, to) {
                let answer = serde_json::from_slice::<ActAnswer>(&message.payload)
                    .map_err(ApiError::internal)
                    .and_then(|answer| answer.map_err(ApiError::from));
                acts.answer(ask, answer);
            }
            stamp.acks(node, acts);
            return Read::InOrder;
        }
        let mut kind = message.subject.as_str().split('.').skip(3);
        let class = match (kind.next(), kind.next()) {
            (Some("direct"), None) => {
                direct(node, &stamp, message, &mut members);
                None
            }
            (Some("all"), None) => Some(None),
            (Some("spectators"), None) => Some(Some(Viewer::Spectator)),
            (Some("seat"), Some(n)) => n.parse().ok().map(|n| Some(Viewer::Seat(Seat(n)))),
            _ => None,
        };
        // `Some(None)`: every member told a class; `Some(Some(class))`: that class.
        if let Some(class) = class {
            let text = text_of(message);
            deliver(
                &stamp,
                text,
                members
                    .values_mut()
                    .filter(|m| m.class.is_some() && (class.is_none() || m.class == class)),
            );
        }
        drop(members);
        self.position.send_replace(at);
        stamp.acks(node, acts);
        Read::InOrder
    }
}

/// The action number in `node:ask`, when `node` is this one.
fn ask_here(node: &str, to: &str) -> Option<u64> {
    let (of, ask) = to.split_once(':')?;
    (of == node).then(|| ask.parse().ok()).flatten()
}

impl RoomStream {
    /// When `message` carries a newer lease epoch than any before, the room is served by its
    /// sender now (this node included): the members whose join another node answered are told
    /// `room_moved` and disconnected. How many.
    fn moved_on(&self, message: &async_nats::Message) -> usize {
        let Some(At { position, from }) = at(message) else {
            return 0;
        };
        let epoch = position.epoch;
        {
            let mut newest = lock(&self.newest_epoch);
            if epoch <= *newest {
                return 0;
            }
            *newest = epoch;
        }
        let mut members = lock(&self.members);
        let stale: Vec<ConnId> = members
            .iter()
            .filter(|(_, m)| m.owner.as_deref().is_some_and(|owner| owner != from))
            .map(|(conn, _)| *conn)
            .collect();
        if stale.is_empty() {
            return 0;
        }
        tracing::info!(
            "room {} is served by {from} now (epoch {epoch}): its {} followers here that \
             joined elsewhere join again",
            self.room,
            stale.len()
        );
        let moved = ServerMsg::error(Some(self.room), None, ApiError::room_moved().body());
        for conn in &stale {
            if let Some(member) = members.remove(conn) {
                let _ = member.outbox.send(&moved);
                member.outbox.kick(Kick::Moved);
            }
        }
        stale.len()
    }
}

/// The payload as text (sent as it is).
fn text_of(message: &async_nats::Message) -> Option<Utf8Bytes> {
    Utf8Bytes::try_from(message.payload.clone()).ok()
}

/// Queues `text` to each member (a full queue disconnects that member's socket), except those
/// muting a line's speaker.
fn deliver<'a>(
    stamp: &Stamp<'_>,
    text: Option<Utf8Bytes>,
    members: impl Iterator<Item = &'a mut Member>,
) {
    let Some(text) = text else { return };
    let speaker: Option<IdentityId> = stamp.get(SPEAKER).and_then(|s| s.parse().ok());
    for member in members {
        if speaker.is_some_and(|speaker| member.mutes.mutes(speaker)) {
            continue;
        }
        stamp.queue(&member.outbox, text.clone());
    }
}

/// A `direct` message: control (`enter`, `close`) or text for the connections it names here.
fn direct(
    node: &str,
    stamp: &Stamp<'_>,
    message: &async_nats::Message,
    members: &mut HashMap<ConnId, Member>,
) {
    let Some(to) = stamp.get(TO) else { return };
    let here: Vec<ConnId> = to
        .split(',')
        .filter_map(|pair| pair.split_once(':'))
        .filter(|(n, _)| *n == node)
        .filter_map(|(_, conn)| conn.parse().ok())
        .collect();
    if here.is_empty() {
        return;
    }
    if let Some(class) = stamp.get(ENTER) {
        let class = parse_class(class);
        for conn in &here {
            if let Some(member) = members.get_mut(conn) {
                member.class = class;
            }
        }
    } else if let Some(reason) = stamp.get(CLOSE) {
        let why = if reason == codes::ROOM_MOVED {
            Kick::Moved
        } else {
            Kick::Slow
        };
        for conn in &here {
            if let Some(member) = members.remove(conn) {
                member.outbox.kick(why);
            }
        }
    } else {
        let text = text_of(message);
        let Some(text) = text else { return };
        let speaker: Option<IdentityId> = stamp.get(SPEAKER).and_then(|s| s.parse().ok());
        for conn in &here {
            if let Some(member) = members.get(conn)
                && !speaker.is_some_and(|speaker| member.mutes.mutes(speaker))
            {
                stamp.queue(&member.outbox, text.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use futures_util::FutureExt;
    use tokio::sync::mpsc;

    use super::*;

    const ROOM: &str = "warroom.room.r";

    /// No action of this node on its way.
    fn acts() -> Acts {
        Acts::new(Duration::from_secs(10), Arc::new(Metrics::default()))
    }

    fn room_stream() -> RoomStream {
        RoomStream {
            room: RoomId::random(),
            members: Mutex::new(HashMap::new()),
            newest_epoch: Mutex::new(0),
            position: watch::Sender::new(StreamPosition::default()),
            stop: CancellationToken::new(),
        }
    }

    /// Message `n` of stream 5 in epoch 1, from node `a`, on `suffix`.
    fn message(suffix: &str, n: u64, paced: bool) -> async_nats::Message {
        let mut headers = HeaderMap::new();
        let position = StreamPosition {
            epoch: 1,
            stream: 5,
            n,
        };
        headers.insert(
            AT,
            At {
                position,
                from: "a",
            }
            .value(),
        );
        if paced {
            headers.insert(PACED, "1");
        }
        async_nats::Message {
            subject: format!("{ROOM}.{suffix}").into(),
            reply: None,
            payload: bytes::Bytes::from(format!(r#"{{"n":{n}}}"#)),
            headers: Some(headers),
            status: None,
            description: None,
            length: 0,
        }
    }

    /// Marks `message` as published by node `from` in `epoch` and `stream`, keeping its number.
    fn published_by(message: &mut async_nats::Message, from: &str, epoch: i64, stream: u64) {
        let n = at(message).expect("a stream message").position.n;
        let position = StreamPosition { epoch, stream, n };
        let headers = message.headers.as_mut().expect("headers");
        headers.insert(AT, At { position, from }.value());
    }

    /// Connection `conn` of node `b` follows the room, and message `n` (its `enter`) says it is
    /// of `class`: its outbox and its queue's reading end.
    fn join(
        stream: &RoomStream,
        conn: ConnId,
        class: Viewer,
        n: u64,
    ) -> (Outbox, mpsc::Receiver<Utf8Bytes>) {
        let (queue, inbox) = mpsc::channel(16);
        let outbox = Outbox::new(queue, CancellationToken::new());
        lock(&stream.members).insert(
            conn,
            Member {
                outbox: outbox.clone(),
                mutes: Mutes::default(),
                class: None,
                owner: Some(Arc::from("a")),
            },
        );
        let mut enter = message("direct", n, false);
        let headers = enter.headers.as_mut().expect("headers");
        headers.insert(TO, format!("b:{conn}").as_str());
        headers.insert(ENTER, super::super::wire::class_name(class).as_str());
        enter.payload = bytes::Bytes::new();
        assert_eq!(stream.handle("b", &enter, &acts()), Read::InOrder);
        (outbox, inbox)
    }

    /// True when the writer was told of an urgent message (and takes the permit).
    fn woken(outbox: &Outbox) -> bool {
        outbox.signals().urgent.notified().now_or_never().is_some()
    }

    #[test]
    fn a_message_marked_paced_waits_for_the_pace_on_this_node_and_an_unmarked_one_wakes_the_writer()
    {
        let stream = room_stream();
        let (outbox, mut inbox) = join(&stream, 1, Viewer::Spectator, 1);
        assert_eq!(
            stream.handle("b", &message("spectators", 2, true), &acts()),
            Read::InOrder
        );
        assert_eq!(inbox.try_recv().ok().as_deref(), Some(r#"{"n":2}"#));
        assert!(!woken(&outbox), "a spectators' copy of the match is paced");
        assert_eq!(
            stream.handle("b", &message("all", 3, false), &acts()),
            Read::InOrder
        );
        assert_eq!(inbox.try_recv().ok().as_deref(), Some(r#"{"n":3}"#));
        assert!(woken(&outbox), "anything else is urgent");
    }

    #[test]
    fn a_gap_in_a_followed_stream_disconnects_its_members_here_as_slow_consumers() {
        let stream = room_stream();
        // A node that subscribed mid-stream starts wherever the stream is.
        let (spectator, mut spectator_inbox) = join(&stream, 1, Viewer::Spectator, 6);
        let (seat, mut seat_inbox) = join(&stream, 2, Viewer::Seat(Seat(0)), 7);
        assert_eq!(
            stream.handle("b", &message("spectators", 8, true), &acts()),
            Read::InOrder
        );
        assert_eq!(
            stream.handle("b", &message("seat.0", 9, false), &acts()),
            Read::InOrder
        );
        assert_eq!(
            spectator_inbox.try_recv().ok().as_deref(),
            Some(r#"{"n":8}"#)
        );
        assert_eq!(seat_inbox.try_recv().ok().as_deref(), Some(r#"{"n":9}"#));
        assert_eq!((spectator.kicked(), seat.kicked()), (None, None));

        // Message 10 never came.
        assert_eq!(
            stream.handle("b", &message("all", 11, false), &acts()),
            Read::Gap
        );
        assert!(spectator_inbox.try_recv().is_err(), "nothing after the gap");
        assert!(seat_inbox.try_recv().is_err(), "nothing after the gap");
        assert_eq!(spectator.kicked(), Some(Kick::Slow));
        assert_eq!(seat.kicked(), Some(Kick::Slow));
        assert!(lock(&stream.members).is_empty());
        assert_eq!(stream.position.borrow().n, 11);
    }

    #[test]
    fn a_new_stream_of_the_room_is_no_gap() {
        let stream = room_stream();
        let (outbox, _inbox) = join(&stream, 1, Viewer::Spectator, 3);
        let mut next = message("all", 40, false);
        published_by(&mut next, "a", 1, 6);
        assert_eq!(stream.handle("b", &next, &acts()), Read::InOrder);
        assert_eq!(outbox.kicked(), None);
    }

    #[test]
    fn a_newer_owners_first_message_tells_the_members_that_joined_through_the_old_one_room_moved_at_once()
     {
        let stream = room_stream();
        let (old, mut old_inbox) = join(&stream, 1, Viewer::Seat(Seat(0)), 1);
        // A second connection whose join is still on its way (no owner yet) stays.
        let (queue, _pending_inbox) = mpsc::channel(4);
        let pending = Outbox::new(queue, CancellationToken::new());
        lock(&stream.members).insert(
            2,
            Member {
                outbox: pending.clone(),
                mutes: Mutes::default(),
                class: None,
                owner: None,
            },
        );
        // Node c took the room over (epoch 2): its `served` message, number 0 of its stream.
        let mut served = message("served", 0, false);
        published_by(&mut served, "c", 2, 9);
        served.payload = bytes::Bytes::new();
        assert_eq!(stream.moved_on(&served), 1);
        assert_eq!(stream.handle("b", &served, &acts()), Read::InOrder);
        let told: serde_json::Value =
            serde_json::from_str(&old_inbox.try_recv().expect("an error first")).expect("JSON");
        assert_eq!(told["type"], "error");
        assert_eq!(told["code"], "room_moved");
        assert_eq!(told["room"], stream.room.to_string());
        assert_eq!(old.kicked(), Some(Kick::Moved));
        assert_eq!(pending.kicked(), None);
        // The old owner's late messages are dropped; the new one's stream goes on from 1.
        assert_eq!(
            stream.handle("b", &message("all", 3, false), &acts()),
            Read::InOrder
        );
        let mut next = message("all", 1, false);
        published_by(&mut next, "c", 2, 9);
        assert_eq!(stream.handle("b", &next, &acts()), Read::InOrder);
        assert_eq!(stream.position.borrow().n, 1);
    }

    #[test]
    fn this_node_taking_the_room_over_tells_its_own_members_room_moved() {
        let stream = room_stream();
        let (old, _inbox) = join(&stream, 1, Viewer::Spectator, 1);
        let mut served = message("served", 0, false);
        published_by(&mut served, "b", 2, 5);
        assert_eq!(stream.moved_on(&served), 1);
        assert_eq!(stream.handle("b", &served, &acts()), Read::InOrder);
        assert_eq!(old.kicked(), Some(Kick::Moved));
    }

    #[test]
    fn an_actions_ack_rides_on_its_applied_and_is_queued_right_behind_it_and_a_refusal_alone() {
        let stream = room_stream();
        let acts = acts();
        let (outbox, mut inbox) = join(&stream, 1, Viewer::Seat(Seat(0)), 1);
        let metrics = Arc::new(Metrics::default());
        let answer = |id: &str| {
            let room = stream.room;
            crate::room::QueuedAnswer::new(
                outbox.clone(),
                room,
                id.to_owned(),
                std::time::Instant::now(),
                metrics.clone(),
            )
        };
        let (first, second) = (acts.expect(1, answer("x1")), acts.expect(1, answer("x2")));
        acts.expect(1, answer("x3"));
        // The seat's `applied`, carrying the ack of this node's first action and one of
        // another node's.
        let mut applied = message("seat.0", 2, false);
        let headers = applied.headers.as_mut().expect("headers");
        headers.append(ACKS, format!("c:{first}=7"));
        headers.append(ACKS, format!("b:{first}=7"));
        assert_eq!(stream.handle("b", &applied, &acts), Read::InOrder);
        assert_eq!(inbox.try_recv().ok().as_deref(), Some(r#"{"n":2}"#));
        let ack: serde_json::Value =
            serde_json::from_str(&inbox.try_recv().expect("the ack next")).expect("JSON");
        assert_eq!(ack["type"], "ack");
        assert_eq!(
            (ack["id"].as_str(), ack["seq"].as_u64()),
            (Some("x1"), Some(7))
        );
        assert!(inbox.try_recv().is_err());
        // The second action refused: an answer of its own, not delivered as a message.
        let mut refusal = message("direct", 3, false);
        let headers = refusal.headers.as_mut().expect("headers");
        headers.insert(ANSWER, format!("b:{second}"));
        let error = super::super::wire::RemoteError::from(ApiError::bad_request(
            codes::UNKNOWN_ACTION,
            "no such action",
        ));
        refusal.payload = serde_json::to_vec(&ActAnswer::Err(error))
            .expect("JSON")
            .into();
        assert_eq!(stream.handle("b", &refusal, &acts), Read::InOrder);
        let refused: serde_json::Value =
            serde_json::from_str(&inbox.try_recv().expect("the refusal")).expect("JSON");
        assert_eq!(refused["type"], "error");
        assert_eq!(refused["code"], codes::UNKNOWN_ACTION);
        assert_eq!(refused["id"], "x2");
        assert!(inbox.try_recv().is_err());
        assert_eq!(
            stream.position.borrow().n,
            3,
            "an answer is part of the stream"
        );
        // The third is still on its way; past its deadline it is answered `unavailable`.
        assert_eq!(acts.on_their_way(), 1);
        acts.expire(std::time::Instant::now() + Duration::from_secs(11));
        let late: serde_json::Value =
            serde_json::from_str(&inbox.try_recv().expect("unavailable")).expect("JSON");
        assert_eq!(
            (late["code"].as_str(), late["id"].as_str()),
            (Some("unavailable"), Some("x3"))
        );
        assert_eq!(acts.on_their_way(), 0);
    }
}
