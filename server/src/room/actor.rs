//! The room task: it alone owns the room's seats, followers and match. Commands arrive one at a
//! time, so the match needs no lock; an accepted action is made durable through the batching
//! writer before anyone (its sender included) hears of it.

use std::collections::HashMap;

use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use warroom_engine::{Seat, Seed, Viewer};
use warroom_protocol::{
    Identity, MatchId, MatchState, Room, RoomState, SeatInfo, ServerMsg, codes,
};

use super::chat::{Chat, Mutes, Reader, may_read};
use super::expiry::Abandonment;
use super::rematch::{RematchVotes, rematch_room};
use super::{ConnId, Outbox, RoomCmd};
use crate::config::Limits;
use crate::error::ApiError;
use crate::identity::random_bytes;
use crate::runner::{MatchRunner, Rules, SeenAction};
use crate::store::writer::{Append, Writer};
use crate::store::{MatchRecord, RoomRecord, Store, now_ms};

/// A reconnecting client further behind than this gets a snapshot instead of every action.
const MAX_CATCH_UP: u64 = 500;
/// Longest client action id, in bytes.
const MAX_CLIENT_ID_BYTES: usize = 64;

/// A started match, owned by its room.
pub struct Game {
    /// Its id.
    pub match_id: MatchId,
    /// The secret seed, revealed when it is over.
    pub seed: Seed,
    /// The rules and state.
    pub runner: Box<dyn MatchRunner>,
    /// Client action ids already accepted, per seat, with their seq: a resent id is answered
    /// from here and never applied twice.
    pub client_ids: HashMap<(Seat, String), u64>,
}

/// A connection following the room.
struct Follower {
    /// Who it is, if authenticated.
    identity: Option<Identity>,
    /// Where its messages go.
    outbox: Outbox,
    /// Whose chat it does not read.
    mutes: Mutes,
}

/// The room task's state.
pub struct RoomActor {
    /// The room as stored, kept current.
    pub record: RoomRecord,
    /// Its ruleset.
    pub rules: &'static dyn Rules,
    /// The match, once started.
    pub game: Option<Game>,
    /// Connections following the room.
    followers: HashMap<ConnId, Follower>,
    /// For seats and the match start.
    pub store: Store,
    /// For accepted actions.
    pub writer: Writer,
    /// Connection limits.
    pub limits: Limits,
    /// The lobby's copy of the room.
    summary: watch::Sender<Room>,
    /// Its chat (the registry fills in the stored lines).
    pub chat: Chat,
    /// Its rematch, once the match is over.
    pub rematch: RematchVotes,
    /// The countdown of a waiting room nobody is connected to.
    abandonment: Abandonment,
}

impl RoomActor {
    /// A room task's state; `summary` is published at once.
    pub fn new(
        record: RoomRecord,
        rules: &'static dyn Rules,
        game: Option<Game>,
        store: Store,
        writer: Writer,
        limits: Limits,
    ) -> (RoomActor, watch::Receiver<Room>) {
        let expiry = std::time::Duration::from_secs(limits.waiting_room_expiry);
        let mut actor = RoomActor {
            record,
            rules,
            game,
            followers: HashMap::new(),
            store,
            writer,
            limits,
            summary: watch::Sender::new(placeholder_room()),
            chat: Chat::default(),
            rematch: RematchVotes::default(),
            abandonment: Abandonment::new(expiry),
        };
        actor.observe_presence();
        let initial = actor.room_for(None);
        actor.summary = watch::Sender::new(initial);
        let receiver = actor.summary.subscribe();
        (actor, receiver)
    }

    /// Serves commands until the channel closes or `stop` is cancelled (after the command in
    /// hand is finished, so an action being stored is acknowledged).
    pub async fn run(mut self, mut commands: mpsc::Receiver<RoomCmd>, stop: CancellationToken) {
        loop {
            let expires = self.abandonment.deadline();
            let command = tokio::select! {
                biased;
                () = stop.cancelled() => break,
                command = commands.recv() => match command {
                    Some(command) => command,
                    None => break,
                },
                () = sleep_until_some(expires) => {
                    self.expire().await;
                    continue;
                }
            };
            self.handle(command).await;
            self.observe_presence();
        }
    }

    /// Starts or stops the countdown of an abandoned waiting room.
    fn observe_presence(&mut self) {
        let waiting = self.record.state == RoomState::Waiting;
        self.abandonment
            .observe(waiting, self.followers.len(), tokio::time::Instant::now());
    }

    /// Nobody came back to the waiting room in time: it is closed, and says so.
    async fn expire(&mut self) {
        if !self.abandonment.is_due(tokio::time::Instant::now()) {
            return;
        }
        if let Err(error) = self.store.expire_room(self.record.id).await {
            tracing::error!("room {} cannot expire: {error}", self.record.id);
            return;
        }
        tracing::info!("room {} expired: nobody was connected", self.record.id);
        self.record.state = RoomState::Expired;
        self.observe_presence();
        self.publish();
    }

    async fn handle(&mut self, command: RoomCmd) {
        match command {
            RoomCmd::Join {
                conn,
                identity,
                outbox,
                mutes,
                invite,
                last_seq,
                reply,
            } => {
                let follower = Follower {
                    identity,
                    outbox,
                    mutes,
                };
                let result = self.join(conn, follower, invite.as_deref(), last_seq);
                let _ = reply.send(result);
                if self.record.state == RoomState::Waiting
                    && self.game.is_none()
                    && self.record.seats.iter().all(Option::is_some)
                {
                    // A rematch room is stored with its seats taken: it starts once joined.
                    self.start_match().await;
                } else {
                    self.publish();
                }
            }
            RoomCmd::TakeSeat { conn, seat, reply } => {
                let result = self.take_seat(conn, seat).await;
                let taken = result.is_ok();
                let _ = reply.send(result);
                if taken && self.record.seats.iter().all(Option::is_some) {
                    // Publishes the room itself, before the opening snapshots.
                    self.start_match().await;
                } else {
                    self.publish();
                }
            }
            RoomCmd::LeaveSeat { conn, reply } => {
                let result = self.leave_seat(conn).await;
                let _ = reply.send(result);
                self.publish();
            }
            RoomCmd::Action {
                conn,
                client_id,
                action,
                reply,
            } => {
                let result = self.action(conn, client_id, &action).await;
                let _ = reply.send(result);
            }
            RoomCmd::Leave { conn } => {
                if self.followers.remove(&conn).is_some() {
                    self.publish();
                    // A player who never answered the rematch is gone: the others may agree.
                    self.open_rematch_if_agreed().await;
                }
            }
            RoomCmd::Chat { conn, text, reply } => {
                let result = self.chat(conn, &text).await;
                let _ = reply.send(result);
            }
            RoomCmd::Rematch {
                conn,
                accept,
                reply,
            } => {
                let result = self.answer_rematch(conn, accept);
                let answered = result.is_ok();
                let _ = reply.send(result);
                if answered {
                    self.open_rematch_if_agreed().await;
                    self.send_rematch();
                }
            }
        }
    }

    fn match_over(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|game| game.runner.outcome().is_some())
    }

    /// Checks, stores and sends a line of chat to everyone who may read it.
    async fn chat(&mut self, conn: ConnId, text: &str) -> Result<(), ApiError> {
        let speaker = self
            .follower(conn)?
            .identity
            .clone()
            .ok_or_else(ApiError::unauthorized)?;
        let seated = self.seat_of(Some(&speaker)).is_some();
        let seq = self.game.as_ref().map_or(0, |game| game.runner.seq());
        let at = now_ms();
        let line = self
            .chat
            .line(&speaker, seated, text, seq, at, tokio::time::Instant::now())?;
        if let Err(error) = self
            .store
            .add_chat_line(self.record.id, self.record.match_id, &line, at)
            .await
        {
            self.chat.not_stored(&line);
            return Err(error.into());
        }
        self.chat.stored(line.clone());
        let over = self.match_over();
        let message = ServerMsg::Chat {
            room: self.record.id,
            line,
        };
        let mut gone = Vec::new();
        for (conn, follower) in &self.followers {
            let reader = self.reader(follower);
            let ServerMsg::Chat { line, .. } = &message else {
                continue;
            };
            if may_read(line, &reader, over) && follower.outbox.send(&message).is_err() {
                gone.push(*conn);
            }
        }
        if !gone.is_empty() {
            for conn in gone {
                self.followers.remove(&conn);
            }
            self.publish();
        }
        Ok(())
    }

    /// How `follower` reads chat.
    fn reader<'a>(&self, follower: &'a Follower) -> Reader<'a> {
        Reader {
            seated: self.seat_of(follower.identity.as_ref()).is_some(),
            mutes: follower.identity.as_ref().map(|_| &follower.mutes),
        }
    }

    fn answer_rematch(&mut self, conn: ConnId, accept: bool) -> Result<(), ApiError> {
        let identity = self.follower(conn)?.identity.clone();
        let seat = self
            .seat_of(identity.as_ref())
            .ok_or_else(|| ApiError::forbidden(codes::NOT_SEATED, "you hold no seat here"))?;
        let over = self.match_over();
        self.rematch.answer(seat, accept, over)
    }

    /// Opens the rematch room once the players agree, and tells everyone where it is.
    async fn open_rematch_if_agreed(&mut self) {
        if !self.match_over() {
            return;
        }
        let present = |seat: Seat| {
            self.record
                .seats
                .get(seat.index())
                .cloned()
                .flatten()
                .is_some_and(|holder| {
                    self.followers
                        .values()
                        .any(|f| f.identity.as_ref().is_some_and(|i| i.id == holder.id))
                })
        };
        let Some(order) = self.rematch.agreed(self.record.seats.len(), present) else {
            return;
        };
        match self.open_rematch(&order).await {
            Ok(room) => {
                self.rematch.opened(room);
                self.send_rematch();
            }
            Err(error) => {
                tracing::error!("room {} cannot open its rematch: {error}", self.record.id)
            }
        }
    }

    async fn open_rematch(&mut self, order: &[Seat]) -> Result<warroom_protocol::RoomId, ApiError> {
        let invite_code = hex::encode(&random_bytes()?[..8]);
        let record = rematch_room(
            &self.record,
            self.rules,
            order,
            warroom_protocol::RoomId::random(),
            invite_code,
            now_ms(),
        )?;
        self.store.create_room(&record).await?;
        for (seat, holder) in record.seats.iter().enumerate() {
            if let Some(holder) = holder {
                let seat = Seat(u8::try_from(seat).map_err(ApiError::internal)?);
                self.store
                    .set_seat(record.id, seat, Some(holder.id))
                    .await?;
            }
        }
        self.store
            .set_rematch_room(self.record.id, record.id)
            .await?;
        Ok(record.id)
    }

    /// Sends every follower the rematch as it stands.
    fn send_rematch(&mut self) {
        let message = ServerMsg::Rematch {
            room: self.record.id,
            rematch: self.rematch.state(),
        };
        self.broadcast(|_| message.clone());
    }

    fn seat_of(&self, identity: Option<&Identity>) -> Option<Seat> {
        let identity = identity?;
        self.record
            .seats
            .iter()
            .position(|holder| holder.as_ref().is_some_and(|h| h.id == identity.id))
            .and_then(|seat| u8::try_from(seat).ok())
            .map(Seat)
    }

    fn viewer_of(&self, identity: Option<&Identity>) -> Viewer {
        self.seat_of(identity)
            .map_or(Viewer::Spectator, Viewer::Seat)
    }

    fn follower(&self, conn: ConnId) -> Result<&Follower, ApiError> {
        self.followers
            .get(&conn)
            .ok_or_else(|| ApiError::bad_request(codes::NOT_JOINED, "join the room first"))
    }

    /// The room as `identity` may see it (the invite code only for its creator and, in a
    /// private room, its seated players).
    fn room_for(&self, identity: Option<&Identity>) -> Room {
        let record = &self.record;
        let connected = |holder: &Identity| {
            self.followers
                .values()
                .any(|f| f.identity.as_ref().is_some_and(|i| i.id == holder.id))
        };
        let seats = record
            .seats
            .iter()
            .enumerate()
            .map(|(seat, holder)| SeatInfo {
                seat: Seat(u8::try_from(seat).unwrap_or(u8::MAX)),
                player: holder.clone(),
                connected: holder.as_ref().is_some_and(connected),
            })
            .collect();
        let spectators = self
            .followers
            .values()
            .filter(|f| self.seat_of(f.identity.as_ref()).is_none())
            .count();
        let sees_invite = identity.is_some_and(|identity| {
            identity.id == record.creator
                || (record.private && self.seat_of(Some(identity)).is_some())
        });
        Room {
            id: record.id,
            ruleset: record.ruleset,
            options: record.options.clone(),
            private: record.private,
            invite_code: sees_invite.then(|| record.invite_code.clone()),
            state: record.state,
            seats,
            spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
            match_id: record.match_id,
            created_at: crate::store::rfc3339(record.created_at),
        }
    }

    /// Sends the room to every follower and updates the lobby's copy.
    fn publish(&mut self) {
        let messages: Vec<(ConnId, ServerMsg)> = self
            .followers
            .iter()
            .map(|(conn, f)| {
                (
                    *conn,
                    ServerMsg::Room {
                        room: self.room_for(f.identity.as_ref()),
                    },
                )
            })
            .collect();
        let mut gone = Vec::new();
        for (conn, message) in messages {
            if let Some(f) = self.followers.get(&conn)
                && f.outbox.send(&message).is_err()
            {
                gone.push(conn);
            }
        }
        let lost_someone = !gone.is_empty();
        for conn in gone {
            self.followers.remove(&conn);
        }
        let summary = self.room_for(None);
        self.summary.send_replace(summary);
        if lost_someone {
            // Presence changed again: tell the others (the slow ones are gone now).
            self.publish();
        }
    }

    /// Sends to every follower the message `build` makes for its viewer; drops the slow ones.
    fn broadcast(&mut self, build: impl Fn(Viewer) -> ServerMsg) {
        let mut gone = Vec::new();
        let mut by_viewer: HashMap<Viewer, ServerMsg> = HashMap::new();
        for (conn, follower) in &self.followers {
            let viewer = self.viewer_of(follower.identity.as_ref());
            let message = by_viewer.entry(viewer).or_insert_with(|| build(viewer));
            if follower.outbox.send(message).is_err() {
                gone.push(*conn);
            }
        }
        if !gone.is_empty() {
            for conn in gone {
                self.followers.remove(&conn);
            }
            self.publish();
        }
    }

    fn join(
        &mut self,
        conn: ConnId,
        follower: Follower,
        invite: Option<&str>,
        last_seq: Option<u64>,
    ) -> Result<(), ApiError> {
        if self.record.state == RoomState::Expired {
            return Err(room_expired());
        }
        let identity = follower.identity.clone();
        let outbox = follower.outbox.clone();
        let insider = identity.as_ref().is_some_and(|identity| {
            identity.id == self.record.creator || self.seat_of(Some(identity)).is_some()
        });
        if self.record.private && !insider && invite != Some(self.record.invite_code.as_str()) {
            return Err(ApiError::forbidden(
                codes::INVALID_INVITE,
                "this room is private: its invite code is needed",
            ));
        }
        if !self.followers.contains_key(&conn)
            && self.followers.len() >= self.limits.max_connections_per_room
        {
            return Err(ApiError::conflict(
                codes::TOO_MANY_CONNECTIONS,
                "this room accepts no more connections",
            ));
        }
        let viewer = self.viewer_of(identity.as_ref());
        let room = self.room_for(identity.as_ref());
        let _ = outbox.send(&ServerMsg::Room { room });
        if let Some(game) = &self.game {
            let seq = game.runner.seq();
            let missed = match last_seq {
                Some(last) if last <= seq && seq - last <= MAX_CATCH_UP => {
                    Some(game.runner.seen_since(last, viewer))
                }
                _ => None,
            };
            match missed {
                Some(missed) => {
                    let count = missed.len();
                    for (index, seen) in missed.into_iter().enumerate() {
                        let legal = if index + 1 == count {
                            game.runner.legal_actions_for(viewer)
                        } else {
                            None
                        };
                        let _ = outbox.send(&applied_message(self.record.id, seen, legal));
                    }
                }
                None => {
                    let _ = outbox.send(&snapshot(self.record.id, game, viewer));
                }
            }
            if let Some(outcome) = game.runner.outcome()
                && last_seq.is_none_or(|last| last < seq)
            {
                let _ = outbox.send(&ServerMsg::Finished {
                    room: self.record.id,
                    outcome,
                    seed: game.seed.to_hex(),
                });
            }
        }
        let lines = self
            .chat
            .history(&self.reader(&follower), self.match_over());
        if !lines.is_empty() {
            let _ = outbox.send(&ServerMsg::ChatHistory {
                room: self.record.id,
                lines,
            });
        }
        if !self.rematch.is_empty() {
            let _ = outbox.send(&ServerMsg::Rematch {
                room: self.record.id,
                rematch: self.rematch.state(),
            });
        }
        self.followers.insert(conn, follower);
        Ok(())
    }

    async fn take_seat(&mut self, conn: ConnId, wanted: Option<Seat>) -> Result<Seat, ApiError> {
        let identity = self
            .follower(conn)?
            .identity
            .clone()
            .ok_or_else(ApiError::unauthorized)?;
        if self.record.state != RoomState::Waiting {
            return Err(ApiError::conflict(
                codes::MATCH_STARTED,
                "the match has started: seats no longer change",
            ));
        }
        if self.seat_of(Some(&identity)).is_some() {
            return Err(ApiError::conflict(
                codes::ALREADY_SEATED,
                "you already hold a seat here",
            ));
        }
        let seat = match wanted {
            Some(seat) => match self.record.seats.get(seat.index()) {
                None => {
                    return Err(ApiError::bad_request(
                        codes::INVALID_SEAT,
                        format!(
                            "this room has seats 0 to {}",
                            self.record.seats.len().saturating_sub(1)
                        ),
                    ));
                }
                Some(Some(_)) => {
                    return Err(ApiError::conflict(
                        codes::SEAT_TAKEN,
                        format!("seat {seat} is taken"),
                    ));
                }
                Some(None) => seat,
            },
            None => self
                .record
                .seats
                .iter()
                .position(Option::is_none)
                .and_then(|seat| u8::try_from(seat).ok())
                .map(Seat)
                .ok_or_else(|| ApiError::conflict(codes::ROOM_FULL, "every seat is taken"))?,
        };
        self.store
            .set_seat(self.record.id, seat, Some(identity.id))
            .await?;
        if let Some(slot) = self.record.seats.get_mut(seat.index()) {
            *slot = Some(identity);
        }
        Ok(seat)
    }

    async fn leave_seat(&mut self, conn: ConnId) -> Result<(), ApiError> {
        let identity = self.follower(conn)?.identity.clone();
        if self.record.state != RoomState::Waiting {
            return Err(ApiError::conflict(
                codes::MATCH_STARTED,
                "the match has started: seats no longer change",
            ));
        }
        let seat = self
            .seat_of(identity.as_ref())
            .ok_or_else(|| ApiError::forbidden(codes::NOT_SEATED, "you hold no seat here"))?;
        self.store.set_seat(self.record.id, seat, None).await?;
        if let Some(slot) = self.record.seats.get_mut(seat.index()) {
            *slot = None;
        }
        Ok(())
    }

    /// Every seat is taken: seed from the OS RNG, record the match, tell everyone.
    async fn start_match(&mut self) {
        match self.try_start_match().await {
            Ok(()) => {
                self.record.state = RoomState::Playing;
                self.publish();
                let room = self.record.id;
                if let Some(game) = &self.game {
                    let mut by_viewer: HashMap<Viewer, ServerMsg> = HashMap::new();
                    for follower in self.followers.values() {
                        let viewer = self.viewer_of(follower.identity.as_ref());
                        let message = by_viewer
                            .entry(viewer)
                            .or_insert_with(|| snapshot(room, game, viewer));
                        let _ = follower.outbox.send(message);
                    }
                }
            }
            Err(error) => {
                tracing::error!("room {} cannot start its match: {error}", self.record.id);
                self.publish();
            }
        }
    }

    async fn try_start_match(&mut self) -> Result<(), ApiError> {
        let seats: Vec<Identity> = self.record.seats.iter().flatten().cloned().collect();
        let seat_count = u8::try_from(seats.len()).map_err(ApiError::internal)?;
        let seed = Seed(random_bytes()?);
        let runner = self.rules.start(&self.record.options, seat_count, seed)?;
        let started = MatchRecord {
            id: MatchId::random(),
            room_id: self.record.id,
            ruleset: self.record.ruleset,
            options: self.record.options.clone(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            state: MatchState::Playing,
            outcome: None,
            action_count: 0,
            started_at: now_ms(),
            finished_at: None,
            seats,
        };
        self.store.start_match(&started).await?;
        self.record.match_id = Some(started.id);
        self.game = Some(Game {
            match_id: started.id,
            seed,
            runner,
            client_ids: HashMap::new(),
        });
        Ok(())
    }

    async fn action(
        &mut self,
        conn: ConnId,
        client_id: String,
        action: &Value,
    ) -> Result<u64, ApiError> {
        let identity = self.follower(conn)?.identity.clone();
        if client_id.is_empty() || client_id.len() > MAX_CLIENT_ID_BYTES {
            return Err(ApiError::bad_request(
                codes::INVALID_ACTION_ID,
                format!("an action id has 1 to {MAX_CLIENT_ID_BYTES} bytes"),
            ));
        }
        let seat = self.seat_of(identity.as_ref());
        let room_id = self.record.id;
        let Some(game) = self.game.as_mut() else {
            return Err(ApiError::conflict(
                codes::MATCH_NOT_STARTED,
                "the match has not started",
            ));
        };
        let seat = seat.ok_or_else(|| {
            ApiError::forbidden(codes::NOT_SEATED, "you hold no seat in this match")
        })?;
        if let Some(&seq) = game.client_ids.get(&(seat, client_id.clone())) {
            return Ok(seq);
        }
        if game.runner.outcome().is_some() {
            return Err(ApiError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        let accepted = game.runner.apply(seat, action)?;
        let outcome = game.runner.outcome();
        let append = Append {
            match_id: game.match_id,
            room_id,
            seq: accepted.seq,
            seat,
            client_id: client_id.clone(),
            action: accepted.action.to_string(),
            events: Value::Array(accepted.events).to_string(),
            finish: outcome.clone(),
        };
        if let Err(error) = self.writer.append(append).await {
            game.runner.undo();
            return Err(ApiError::internal(error));
        }
        game.client_ids.insert((seat, client_id), accepted.seq);
        if outcome.is_some() {
            self.record.state = RoomState::Finished;
        }
        self.announce_last_action();
        Ok(accepted.seq)
    }

    /// Sends the last accepted action to every follower, each with its own view (and the end).
    fn announce_last_action(&mut self) {
        let room = self.record.id;
        let Some(game) = self.game.take() else { return };
        self.broadcast(|viewer| match game.runner.last_seen_by(viewer) {
            Some(seen) => applied_message(room, seen, game.runner.legal_actions_for(viewer)),
            None => snapshot(room, &game, viewer),
        });
        let outcome = game.runner.outcome();
        let seed = game.seed.to_hex();
        self.game = Some(game);
        if let Some(outcome) = outcome {
            // The lobby's copy says `finished` before anyone hears of the end.
            self.publish();
            self.broadcast(|_| ServerMsg::Finished {
                room,
                outcome: outcome.clone(),
                seed: seed.clone(),
            });
        }
    }
}

/// Waits until `deadline`, or forever when there is none.
async fn sleep_until_some(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

fn room_expired() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::GONE,
        codes::ROOM_EXPIRED,
        "this room waited too long with nobody in it and is closed",
    )
}

/// The whole visible state of a match for one viewer.
fn snapshot(room: warroom_protocol::RoomId, game: &Game, viewer: Viewer) -> ServerMsg {
    let outcome = game.runner.outcome();
    ServerMsg::Snapshot {
        room,
        seq: game.runner.seq(),
        seat: match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        },
        view: game.runner.view(viewer),
        to_act: game.runner.to_act(),
        seed_commitment: game.seed.commitment(),
        seed: outcome.is_some().then(|| game.seed.to_hex()),
        outcome,
        legal_actions: game.runner.legal_actions_for(viewer),
    }
}

fn applied_message(
    room: warroom_protocol::RoomId,
    seen: SeenAction,
    legal_actions: Option<Vec<Value>>,
) -> ServerMsg {
    ServerMsg::Applied {
        room,
        seq: seen.seq,
        seat: seen.seat,
        action: seen.action,
        events: seen.events,
        view: seen.view,
        to_act: seen.to_act,
        outcome: seen.outcome,
        legal_actions,
    }
}

/// A stand-in until the real summary is computed (the watch needs an initial value).
fn placeholder_room() -> Room {
    Room {
        id: warroom_protocol::RoomId(uuid::Uuid::nil()),
        ruleset: warroom_engine::RulesetId::Hexdice,
        options: Value::Null,
        private: true,
        invite_code: None,
        state: RoomState::Waiting,
        seats: Vec::new(),
        spectators: 0,
        match_id: None,
        created_at: String::new(),
    }
}
