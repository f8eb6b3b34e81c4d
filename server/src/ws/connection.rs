//! One WebSocket connection: who it is, which rooms it follows, and the loop that turns its
//! messages into room commands.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use futures_util::stream::StreamExt;
use tokio::sync::mpsc;
use tracing::Instrument;
use warroom_protocol::{ClientMsg, ErrorBody, Identity, IdentityId, RoomId, ServerMsg, codes};

use super::rate::RateLimiter;
use super::writer::{CloseReason, Closer, Outgoing, Pace, write_loop};
use crate::cluster::node::{ClusterNode, Forwarded};
use warroom_room::{Answer, Command};

use crate::error::ApiError;
use crate::room::{ConnId, Located as Followed, Mutes, Outbox, QueuedAnswer, Via, seq_of};
use crate::state::AppState;

/// The socket's timers, from the limits.
#[derive(Clone, Copy)]
struct Timers {
    hello: Duration,
    ping_every: Duration,
    dead_after: Duration,
}

/// Serves one socket until the client leaves, is disconnected, or the server stops, inside a
/// `conn` span (its id, and its identity once it said `hello`).
pub async fn serve(socket: WebSocket, state: AppState) {
    let id = state.next_conn_id();
    let span = tracing::info_span!("conn", conn = id, identity = tracing::field::Empty);
    serve_connection(socket, state, id).instrument(span).await;
}

async fn serve_connection(socket: WebSocket, state: AppState, id: ConnId) {
    let metrics = state.metrics.clone();
    let _open = metrics.connection_opened();
    let limits = &state.limits;
    let timers = Timers {
        hello: limits.hello_timeout,
        ping_every: limits.ping_interval.max(Duration::from_secs(1)),
        dead_after: limits.ping_timeout.max(Duration::from_secs(1)),
    };
    // The server's shutdown as this connection's two halves watch it: a token of its own, so
    // that waiting on it locks nothing the other connections share.
    let shutdown = state.shutdown.child_token();
    let (sink, mut stream) = socket.split();
    let (queue, outgoing) = mpsc::channel(limits.outgoing_queue.max(1));
    let closer = Closer::default();
    let outbox = Outbox::telling(queue, closer.token.clone(), closer.kicked.clone());
    let mut connection = Connection {
        id,
        identity: None,
        said_hello: false,
        rooms: HashMap::new(),
        via: Via::Outbox(outbox.clone()),
        outbox,
        rate: RateLimiter::new(limits.messages_per_second, limits.message_burst),
        mutes: Mutes::default(),
        state: state.clone(),
    };
    let writer = tokio::spawn(
        write_loop(
            sink,
            Outgoing {
                queue: outgoing,
                signals: connection.outbox.signals(),
                // The connection's id seeds its spread: consecutive ids give unrelated waits.
                pace: Pace::spread(limits.spectator_pace, id),
            },
            closer.clone(),
            shutdown.clone(),
            timers.ping_every,
            metrics.clone(),
        )
        .in_current_span(),
    );
    let hello_deadline = tokio::time::Instant::now() + timers.hello;
    let mut last_heard = Instant::now();
    let mut liveness = tokio::time::interval(timers.ping_every);
    // Made once and polled again for every frame (see `write_loop`).
    let closed = closer.token.cancelled();
    let stopping = shutdown.cancelled();
    tokio::pin!(closed, stopping);
    loop {
        let frame = tokio::select! {
            () = &mut closed => break,
            () = &mut stopping => break,
            () = tokio::time::sleep_until(hello_deadline), if !connection.said_hello => {
                tracing::debug!("closing a socket that did not say hello");
                closer.close(CloseReason::NoHello);
                break;
            }
            _ = liveness.tick() => {
                if last_heard.elapsed() >= timers.dead_after {
                    tracing::debug!("closing a socket that answers no ping");
                    closer.close(CloseReason::Dead);
                    break;
                }
                continue;
            }
            frame = stream.next() => frame,
        };
        last_heard = Instant::now();
        match frame {
            Some(Ok(Message::Text(text))) => {
                metrics.ws_messages_received.inc();
                metrics.ws_bytes_received.inc_by(text.len() as u64);
                // Boxed: handling a message awaits rooms, the store and the registry, and that
                // future is large (7 KB); inline it would be part of every idle connection's
                // task, boxed it exists only while a message is being handled.
                Box::pin(connection.on_text(text.as_str())).await;
            }
            Some(Ok(Message::Binary(_))) => connection.refuse(
                codes::BINARY_NOT_SUPPORTED,
                "binary frames are not supported: send JSON text",
            ),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            Some(Ok(Message::Close(_))) | None => break,
            Some(Err(error)) => {
                if is_too_big(error) {
                    closer.close(CloseReason::TooBig);
                }
                break;
            }
        }
    }
    connection.leave_all().await;
    // Dropping the last queue sender lets the writer finish what is queued, then close.
    drop(connection);
    let _ = writer.await;
}

/// True when a read failed because the frame or message is over the hard limit.
fn is_too_big(error: axum::Error) -> bool {
    let error = error.into_inner();
    tracing::debug!("socket error: {error}");
    matches!(
        error.downcast_ref::<tokio_tungstenite::tungstenite::Error>(),
        Some(tokio_tungstenite::tungstenite::Error::Capacity(_))
    )
}

/// What the server knows of one connection.
struct Connection {
    id: ConnId,
    /// Set by `hello` with a valid token; `None` is an anonymous spectator.
    identity: Option<Identity>,
    /// True once it said `hello` (with a valid token or none).
    said_hello: bool,
    /// The rooms it follows, here or on other nodes.
    rooms: HashMap<RoomId, Followed>,
    /// Its outgoing queue.
    outbox: Outbox,
    /// The same, as rooms here follow it.
    via: Via,
    /// Its message budget.
    rate: RateLimiter,
    /// Whose chat its identity does not read (shared with the rooms it follows).
    mutes: Mutes,
    state: AppState,
}

impl Connection {
    fn send(&self, message: &ServerMsg) {
        if let ServerMsg::Error { code, .. } = message {
            self.state.metrics.ws_errors_sent.inc(code);
        }
        // A full queue disconnects the client; the read loop notices the kick.
        let _ = self.outbox.send(message);
    }

    fn refuse(&self, code: &str, message: &str) {
        self.send(&ServerMsg::error(None, None, ErrorBody::new(code, message)));
    }

    async fn on_text(&mut self, text: &str) {
        let too_large = text.len() > self.state.limits.max_frame_bytes;
        if !self.rate.allow(Instant::now()) {
            // Say which message was dropped, so a client can tell which action to resend.
            let (room, id) = if too_large {
                (None, None)
            } else {
                addressed(text)
            };
            return self.send(&ServerMsg::error(
                room,
                id,
                ErrorBody::new(codes::RATE_LIMITED, "too many messages: slow down"),
            ));
        }
        if too_large {
            return self.refuse(
                codes::FRAME_TOO_LARGE,
                &format!(
                    "a message has at most {} bytes",
                    self.state.limits.max_frame_bytes
                ),
            );
        }
        match ClientMsg::parse(text) {
            // An action gets no `msg` span (one per action cost a few percent of the server's
            // CPU under load): for a room served here it is handed over without a wait and the
            // room logs what follows in its `room` span; one forwarded to another node (cluster
            // mode) logs nothing on the way but a warning naming its room.
            Ok(message) if matches!(message, ClientMsg::Action { .. }) => {
                self.on_message(message).await;
            }
            Ok(message) => {
                let span = self.message_span(&message);
                self.on_message(message).instrument(span).await;
            }
            Err(error) => self.send(&ServerMsg::error(None, None, error)),
        }
    }

    async fn on_message(&mut self, message: ClientMsg) {
        match message {
            ClientMsg::Hello { token } => self.hello(token).await,
            ClientMsg::Ping => self.send(&ServerMsg::Pong),
            ClientMsg::Join {
                room,
                invite,
                last_seq,
            } => {
                if let Err(error) = self.join(room, invite, last_seq).await {
                    self.send(&ServerMsg::error(Some(room), None, error.body()));
                }
            }
            ClientMsg::TakeSeat { room, seat } => {
                let may_play_rated = self.may_play_rated().await;
                let take = Command::TakeSeat {
                    seat,
                    may_play_rated,
                };
                self.ask_or_report(room, take).await;
            }
            ClientMsg::LeaveSeat { room } => {
                self.ask_or_report(room, Command::LeaveSeat).await;
            }
            ClientMsg::Action { room, id, action } => {
                // The answer is queued to the outbox behind the action's `applied`, by the room
                // (served here) or by this node once the room's stream brings it (served
                // elsewhere); the connection does not wait for it.
                let answer = QueuedAnswer::new(
                    self.outbox.clone(),
                    room,
                    id.clone(),
                    Instant::now(),
                    self.state.metrics.clone(),
                );
                match (self.rooms.get(&room), &self.state.cluster) {
                    (Some(Followed::Here(handle)), _) if !handle.is_closed() => {
                        handle.act(self.id, id, action, answer);
                    }
                    (Some(Followed::There(owner)), Some(cluster)) => {
                        cluster.act(owner, room, self.id, id, action, answer);
                    }
                    _ => {
                        let command = Command::Action {
                            client_id: id,
                            action,
                        };
                        answer.send(seq_of(self.ask(room, command).await));
                    }
                }
            }
            ClientMsg::Leave { room } => {
                if let Some(followed) = self.rooms.remove(&room) {
                    self.leave(room, followed).await;
                }
            }
            ClientMsg::Chat { room, text } => {
                self.ask_or_report(room, Command::Chat { text }).await;
            }
            ClientMsg::Resign { room } => {
                self.ask_or_report(room, Command::Resign).await;
            }
            ClientMsg::Back { room } => {
                self.ask_or_report(room, Command::Back).await;
            }
            ClientMsg::Rematch { room, accept } => {
                self.ask_or_report(room, Command::Rematch { accept }).await;
            }
            ClientMsg::Mute { player, muted } => match self.mute(player, muted).await {
                Ok(players) => self.send(&ServerMsg::Muted { players }),
                Err(error) => self.send(&ServerMsg::error(None, None, error.body())),
            },
        }
    }

    /// Asks a room this connection follows, here or on the node serving it (cluster mode),
    /// waiting at most the answer timeout: a room waits for the database before it answers an
    /// action, and a database that does not answer must not hold the client (`unavailable`;
    /// an action sent again with the same id is answered from the log).
    async fn ask(&self, room: RoomId, command: Command) -> Result<Answer, ApiError> {
        let limit = self.state.limits.answer_timeout();
        match self.rooms.get(&room) {
            None => Err(ApiError::bad_request(
                codes::NOT_JOINED,
                "join the room first",
            )),
            // A followed room whose task stopped moved to another node (idle rooms leave
            // memory only once nobody follows them): the client joins it again.
            Some(Followed::Here(handle)) if handle.is_closed() => Err(ApiError::room_moved()),
            Some(Followed::Here(handle)) => handle.ask_within(self.id, command, None, limit).await,
            Some(Followed::There(owner)) => match &self.state.cluster {
                Some(cluster) => self
                    .forward(cluster, owner, room, command)
                    .await
                    .map_err(ApiError::from),
                None => Err(ApiError::room_moved()),
            },
        }
    }

    /// Sends `command` to `room` on node `owner` as this connection (`ClusterNode::forward`).
    async fn forward(
        &self,
        cluster: &ClusterNode,
        owner: &str,
        room: RoomId,
        command: Command,
    ) -> Result<Answer, Forwarded> {
        cluster
            .forward(owner, room, self.id, &self.outbox, &self.mutes, command)
            .await
    }

    /// Stops following a room.
    async fn leave(&self, room: RoomId, followed: Followed) {
        match followed {
            Followed::Here(handle) => handle.leave(self.id).await,
            Followed::There(owner) => {
                if let Some(cluster) = &self.state.cluster {
                    let _ = self.forward(cluster, &owner, room, Command::Leave).await;
                }
            }
        }
    }

    /// Whether this identity has finished enough matches to play rated (`--rated-min-matches`,
    /// the rule of `api::ratings::check_may_play_rated`); a database that cannot say counts as
    /// no.
    async fn may_play_rated(&self) -> bool {
        match &self.identity {
            None => self.state.store.rating_policy().min_matches == 0,
            Some(identity) => crate::api::ratings::check_may_play_rated(&self.state, identity.id)
                .await
                .is_ok(),
        }
    }

    /// Mutes or unmutes `player` for this identity: stored, and in force at once in every room
    /// its connections follow.
    async fn mute(&mut self, player: IdentityId, muted: bool) -> Result<Vec<IdentityId>, ApiError> {
        let me = self
            .identity
            .as_ref()
            .ok_or_else(ApiError::unauthorized)?
            .id;
        if player == me {
            return Err(ApiError::bad_request(
                codes::CANNOT_MUTE_SELF,
                "you cannot mute yourself",
            ));
        }
        if self.state.store.identity(player).await?.is_none() {
            return Err(ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                codes::PLAYER_NOT_FOUND,
                "there is no player with this id",
            ));
        }
        self.state.store.set_mute(me, player, muted).await?;
        let players = self.mutes.set(player, muted);
        // The rooms it follows filter its chat with the list as it is now.
        let rooms: Vec<RoomId> = self.rooms.keys().copied().collect();
        for room in rooms {
            let muted = players.clone();
            if let Err(error) = self.ask(room, Command::Mutes { muted }).await {
                tracing::debug!("room {room} did not take the new mutes: {error}");
            }
        }
        Ok(players)
    }

    /// A `msg` span: the message's type, its room, and the seat this identity holds there.
    fn message_span(&self, message: &ClientMsg) -> tracing::Span {
        let room = message_room(message);
        let span = tracing::info_span!(
            "msg",
            r#type = message_type(message),
            room = tracing::field::Empty,
            seat = tracing::field::Empty,
        );
        if span.is_disabled() {
            return span;
        }
        if let Some(room) = room {
            span.record("room", tracing::field::display(room));
            let here = match self.rooms.get(&room) {
                Some(Followed::Here(handle)) => Some(handle),
                _ => None,
            };
            let seat = here
                .zip(self.identity.as_ref())
                .and_then(|(handle, identity)| handle.seat_of(identity.id));
            if let Some(seat) = seat {
                span.record("seat", seat.0);
            }
        }
        span
    }

    /// Asks `room` to carry out `command`; a refusal goes back to the client as an `error`.
    async fn ask_or_report(&self, room: RoomId, command: Command) {
        let result = self.ask(room, command).await;
        self.report(room, None, result.map(|_| ()));
    }

    fn report(&self, room: RoomId, id: Option<String>, result: Result<(), ApiError>) {
        if let Err(error) = result {
            self.send(&ServerMsg::error(Some(room), id, error.body()));
        }
    }

    async fn hello(&mut self, token: Option<String>) {
        match token {
            None => {
                self.said_hello = true;
                self.identity = None;
                self.mutes.replace(Vec::new());
                self.send(&ServerMsg::Welcome { identity: None });
            }
            Some(token) => match self.state.identity_for_token(&token).await {
                Ok(identity) => {
                    self.said_hello = true;
                    tracing::Span::current()
                        .record("identity", tracing::field::display(identity.id));
                    self.identity = Some(identity.clone());
                    let muted = self.state.mutes_of(identity.id).await;
                    let players = self.mutes.replace(muted);
                    self.send(&ServerMsg::Welcome {
                        identity: Some(identity),
                    });
                    if !players.is_empty() {
                        self.send(&ServerMsg::Muted { players });
                    }
                }
                Err(error) => self.send(&ServerMsg::error(None, None, error.body())),
            },
        }
    }

    /// Follows a room: here, or on the node serving it (cluster mode). A room that left memory
    /// (idle) as it was asked is rebuilt and asked again, once; a node that does not answer
    /// (it died) is asked again until its lease expires and the room is served here.
    async fn join(
        &mut self,
        room: RoomId,
        invite: Option<String>,
        last_seq: Option<u64>,
    ) -> Result<(), ApiError> {
        let most = self.state.limits.max_rooms_per_socket;
        if !self.rooms.contains_key(&room) && self.rooms.len() >= most {
            return Err(ApiError::conflict(
                codes::TOO_MANY_ROOMS,
                format!("a socket follows at most {most} rooms at once: leave one first"),
            ));
        }
        let limit = self.state.limits.answer_timeout();
        let command = Command::Join {
            identity: self.identity.clone(),
            invite,
            last_seq,
            mutes: self.mutes.list(),
        };
        let patience = self
            .state
            .cluster
            .as_ref()
            .map_or(Duration::ZERO, |cluster| cluster.lease_wait());
        let until = Instant::now() + patience;
        let mut again = true;
        loop {
            match self.state.rooms.locate(room).await? {
                Followed::Here(handle) => {
                    let via = Some(self.via.clone());
                    let joined = handle
                        .ask_within(self.id, command.clone(), via, limit)
                        .await;
                    match joined {
                        Err(_) if again && handle.is_closed() => again = false,
                        Err(error) => return Err(error),
                        Ok(_) => {
                            self.rooms.insert(room, Followed::Here(handle));
                            return Ok(());
                        }
                    }
                }
                Followed::There(owner) => {
                    let Some(cluster) = self.state.cluster.clone() else {
                        return Err(ApiError::room_moved());
                    };
                    match self.forward(&cluster, &owner, room, command.clone()).await {
                        Ok(_) => {
                            self.rooms.insert(room, Followed::There(owner));
                            return Ok(());
                        }
                        Err(Forwarded::Unreachable) if Instant::now() < until => {
                            tokio::time::sleep(Duration::from_millis(250)).await;
                        }
                        Err(Forwarded::Refused(error))
                            if error.code == codes::ROOM_MOVED && again =>
                        {
                            again = false;
                        }
                        Err(error) => return Err(error.into()),
                    }
                }
            }
        }
    }

    /// The connection closed: it leaves every room it followed. Rooms served elsewhere are
    /// told without waiting for their node (frozen or dead, it would hold the close up to the
    /// answer timeout).
    async fn leave_all(&mut self) {
        let rooms: Vec<(RoomId, Followed)> = self.rooms.drain().collect();
        for (room, followed) in rooms {
            match (followed, &self.state.cluster) {
                (Followed::There(owner), Some(cluster)) => {
                    cluster.leave_quietly(&owner, room, self.id).await;
                }
                (followed, _) => self.leave(room, followed).await,
            }
        }
        if let Some(cluster) = &self.state.cluster {
            cluster.forget(self.id).await;
        }
    }
}

/// The `room` and `id` a text frame names, when it names them (however wrong the rest is).
fn addressed(text: &str) -> (Option<RoomId>, Option<String>) {
    #[derive(serde::Deserialize)]
    struct Addressed {
        room: Option<RoomId>,
        id: Option<String>,
    }
    match serde_json::from_str::<Addressed>(text) {
        Ok(Addressed { room, id }) => (room, id),
        Err(_) => (None, None),
    }
}

/// The room a message is about, if any.
fn message_room(message: &ClientMsg) -> Option<RoomId> {
    match message {
        ClientMsg::Join { room, .. }
        | ClientMsg::TakeSeat { room, .. }
        | ClientMsg::LeaveSeat { room }
        | ClientMsg::Action { room, .. }
        | ClientMsg::Leave { room }
        | ClientMsg::Chat { room, .. }
        | ClientMsg::Resign { room }
        | ClientMsg::Back { room }
        | ClientMsg::Rematch { room, .. } => Some(*room),
        ClientMsg::Hello { .. } | ClientMsg::Mute { .. } | ClientMsg::Ping => None,
    }
}

/// The message's `type`, as on the wire.
fn message_type(message: &ClientMsg) -> &'static str {
    match message {
        ClientMsg::Hello { .. } => "hello",
        ClientMsg::Join { .. } => "join",
        ClientMsg::TakeSeat { .. } => "take_seat",
        ClientMsg::LeaveSeat { .. } => "leave_seat",
        ClientMsg::Action { .. } => "action",
        ClientMsg::Leave { .. } => "leave",
        ClientMsg::Chat { .. } => "chat",
        ClientMsg::Mute { .. } => "mute",
        ClientMsg::Rematch { .. } => "rematch",
        ClientMsg::Resign { .. } => "resign",
        ClientMsg::Back { .. } => "back",
        ClientMsg::Ping => "ping",
    }
}
