//! The room core's social side, sans-IO like the rest of the core: chat (checked by
//! `chat.rs`, stored by the loop, then delivered to who may read it), mutes per connection, the
//! rematch (`rematch.rs`) and the expiry of an abandoned waiting room (`expiry.rs`). The core
//! calls [`RoomCore::social_joined`], [`RoomCore::observe_presence`] and
//! [`RoomCore::refuse_if_expired`] from its own methods; the loop calls the rest.

use std::collections::HashMap;
use std::time::Duration;

use tokio::time::Instant;
use warroom_engine::Seat;
use warroom_protocol::{ChatLine, Identity, RoomId, RoomState, ServerMsg, codes};

use super::ConnId;
use super::chat::{Chat, Mutes, Reader, may_read};
use super::core::RoomCore;
use super::expiry::Abandonment;
use super::output::Output;
use super::rematch::{RematchVotes, rematch_room};
use super::seats::seat_of;
use crate::bots::bot_level;
use crate::error::ApiError;
use crate::store::RoomRecord;

/// How long a waiting room may stay empty when the server does not say.
pub const DEFAULT_EXPIRY: Duration = Duration::from_secs(30 * 60);

/// A room's chat, its followers' mutes, its rematch and its expiry countdown.
#[derive(Debug)]
pub struct Social {
    /// The chat.
    chat: Chat,
    /// Whose chat each connection does not read.
    mutes: HashMap<ConnId, Mutes>,
    /// The rematch, once the match is over.
    rematch: RematchVotes,
    /// The countdown of a waiting room nobody is connected to.
    abandonment: Abandonment,
}

impl Default for Social {
    fn default() -> Social {
        Social::new(Chat::default(), RematchVotes::default(), DEFAULT_EXPIRY)
    }
}

impl Social {
    /// Over a room's stored chat and rematch room, expiring after `expiry` without anyone.
    pub fn new(chat: Chat, rematch: RematchVotes, expiry: Duration) -> Social {
        Social {
            chat,
            mutes: HashMap::new(),
            rematch,
            abandonment: Abandonment::new(expiry),
        }
    }
}

fn room_expired() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::GONE,
        codes::ROOM_EXPIRED,
        "this room waited too long with nobody in it and is closed",
    )
}

impl RoomCore {
    /// Gives the core its social state (stored chat, rematch room, expiry), as of `now`.
    pub fn with_social(mut self, social: Social, now: Instant) -> RoomCore {
        self.social = social;
        self.observe_presence(now);
        self
    }

    /// Whose chat the connection about to join does not read.
    pub fn set_mutes(&mut self, conn: ConnId, mutes: Mutes) {
        self.social.mutes.insert(conn, mutes);
    }

    /// An expired room takes no one.
    pub(super) fn refuse_if_expired(&self) -> Result<(), ApiError> {
        if self.record.state == RoomState::Expired {
            return Err(room_expired());
        }
        Ok(())
    }

    /// After a join: the chat so far that this connection may read, and the rematch if any.
    pub(super) fn social_joined(
        &mut self,
        conn: ConnId,
        identity: Option<&Identity>,
        now: Instant,
    ) {
        let reader = Reader {
            seated: seat_of(&self.record, identity).is_some(),
            mutes: identity.and(self.social.mutes.get(&conn)),
        };
        let lines = self.social.chat.history(&reader, self.match_over());
        let room = self.record.id;
        if !lines.is_empty() {
            self.out.push_back(Output::Send {
                to: vec![conn],
                message: ServerMsg::ChatHistory { room, lines },
                paced: false,
            });
        }
        if !self.social.rematch.is_empty() {
            self.out.push_back(Output::Send {
                to: vec![conn],
                message: ServerMsg::Rematch {
                    room,
                    rematch: self.social.rematch.state(),
                },
                paced: false,
            });
        }
        self.observe_presence(now);
    }

    /// After a connection left: forget its mutes, and count down if the room is now empty.
    pub(super) fn social_left(&mut self, conn: ConnId, now: Instant) {
        self.social.mutes.remove(&conn);
        self.observe_presence(now);
    }

    /// Starts or stops the countdown of an abandoned waiting room.
    pub(super) fn observe_presence(&mut self, now: Instant) {
        let waiting = self.record.state == RoomState::Waiting;
        self.social
            .abandonment
            .observe(waiting, self.followers.len(), now);
    }

    /// When the room expires unless someone connects.
    pub(super) fn expiry_deadline(&self) -> Option<Instant> {
        self.social.abandonment.deadline()
    }

    /// True when the room has waited empty long enough: the loop stores the expiry, then calls
    /// [`RoomCore::expired`].
    pub fn expiry_due(&self, now: Instant) -> bool {
        self.record.state == RoomState::Waiting && self.social.abandonment.is_due(now)
    }

    /// The expiry is stored: the room is closed and the lobby drops it.
    pub fn expired(&mut self, now: Instant) {
        self.record.state = RoomState::Expired;
        self.observe_presence(now);
        self.publish();
    }

    fn match_over(&self) -> bool {
        self.game.as_ref().is_some_and(|game| game.is_over())
    }

    /// A line of chat from a follower, checked and numbered; the loop stores it (with the match
    /// it belongs to, [`RoomCore::match_id`]), then calls [`RoomCore::chat_stored`].
    pub fn chat(
        &mut self,
        conn: ConnId,
        text: &str,
        at_ms: i64,
        now: Instant,
    ) -> Result<ChatLine, ApiError> {
        let speaker = self
            .followers
            .get(conn)
            .ok_or_else(|| ApiError::bad_request(codes::NOT_JOINED, "join the room first"))?
            .identity
            .clone()
            .ok_or_else(ApiError::unauthorized)?;
        let seated = seat_of(&self.record, Some(&speaker)).is_some();
        let seq = self.game.as_ref().map_or(0, |game| game.runner.seq());
        self.social
            .chat
            .line(&speaker, seated, text, seq, at_ms, now)
    }

    /// The room's match, if it has started (chat said during or after it belongs to it).
    pub fn match_id(&self) -> Option<warroom_protocol::MatchId> {
        self.record.match_id
    }

    /// A line is stored: everyone who may read it gets it (muted speakers excepted).
    pub fn chat_stored(&mut self, line: ChatLine) {
        self.social.chat.stored(line.clone());
        let over = self.match_over();
        let record = &self.record;
        let mutes = &self.social.mutes;
        let readers: Vec<ConnId> = self
            .followers
            .iter()
            .filter(|(conn, follower)| {
                let reader = Reader {
                    seated: seat_of(record, follower.identity.as_ref()).is_some(),
                    mutes: follower.identity.as_ref().and(mutes.get(conn)),
                };
                may_read(&line, &reader, over)
            })
            .map(|(conn, _)| conn)
            .collect();
        if !readers.is_empty() {
            self.out.push_back(Output::Send {
                to: readers,
                message: ServerMsg::Chat {
                    room: self.record.id,
                    line,
                },
                paced: false,
            });
        }
    }

    /// A line could not be stored: nobody hears of it.
    pub fn chat_not_stored(&mut self, line: &ChatLine) {
        self.social.chat.not_stored(line);
    }

    /// A seated player's answer to the rematch; everyone hears the rematch as it stands.
    pub fn answer_rematch(&mut self, conn: ConnId, accept: bool) -> Result<(), ApiError> {
        let identity = self
            .followers
            .get(conn)
            .ok_or_else(|| ApiError::bad_request(codes::NOT_JOINED, "join the room first"))?
            .identity
            .clone();
        let seat = seat_of(&self.record, identity.as_ref())
            .ok_or_else(|| ApiError::forbidden(codes::NOT_SEATED, "you hold no seat here"))?;
        let over = self.match_over();
        self.social.rematch.answer(seat, accept, over)?;
        self.send_rematch();
        Ok(())
    }

    /// The rematch room to open now, if the players agree: the loop stores it (seats
    /// included), then calls [`RoomCore::rematch_opened`].
    pub fn rematch_agreed(
        &self,
        id: RoomId,
        invite_code: String,
        now_ms: i64,
    ) -> Option<Result<RoomRecord, ApiError>> {
        if !self.match_over() {
            return None;
        }
        let holder = |seat: Seat| self.record.seats.get(seat.index()).and_then(Option::as_ref);
        let present =
            |seat: Seat| holder(seat).is_some_and(|held| self.followers.is_connected(held.id));
        let is_bot = |seat: Seat| holder(seat).is_some_and(|held| bot_level(held.id).is_some());
        let order = self
            .social
            .rematch
            .agreed(self.record.seats.len(), present, is_bot)?;
        Some(rematch_room(
            &self.record,
            self.rules,
            &order,
            id,
            invite_code,
            now_ms,
        ))
    }

    /// The rematch room is stored: everyone is told where it is.
    pub fn rematch_opened(&mut self, room: RoomId) {
        self.social.rematch.opened(room);
        self.send_rematch();
    }

    fn send_rematch(&mut self) {
        let everyone: Vec<ConnId> = self.followers.iter().map(|(conn, _)| conn).collect();
        if everyone.is_empty() {
            return;
        }
        self.out.push_back(Output::Send {
            to: everyone,
            message: ServerMsg::Rematch {
                room: self.record.id,
                rematch: self.social.rematch.state(),
            },
            paced: false,
        });
    }
}
