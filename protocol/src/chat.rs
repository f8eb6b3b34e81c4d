//! Chat in a room and what comes after a match: a line of chat and its channel, and the
//! rematch a finished room offers.

use serde::{Deserialize, Serialize};
use warroom_engine::Seat;

use crate::ids::RoomId;
use crate::rest::Identity;

/// Which of a room's two chats a line was said in. Seated players speak in `players`, everyone
/// else in `spectators`; players do not read `spectators` until the match is over (so watchers
/// cannot pass them information), spectators read both.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// The room's seated players.
    Players,
    /// Everyone else following the room.
    Spectators,
}

names!(ChatChannel {
    Players => "players",
    Spectators => "spectators",
});

/// One line of chat, as stored with the room (and its match) and sent to those who may read it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Numbers the room's lines from 1, in the order they were said.
    #[cfg_attr(test, ts(type = "number"))]
    pub id: u64,
    /// The match's last accepted action when it was said (0: before the first), so a replay
    /// shows it at its moment.
    #[cfg_attr(test, ts(type = "number"))]
    pub seq: u64,
    /// Where it was said.
    pub channel: ChatChannel,
    /// Who said it.
    pub from: Identity,
    /// What was said: 1–300 characters, no control characters.
    pub text: String,
    /// When (RFC 3339).
    pub at: String,
}

/// A finished room's rematch, as its followers see it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// The seats whose players want a rematch.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<u8>))]
    pub accepted: Vec<Seat>,
    /// The seats whose players said no.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<u8>))]
    pub declined: Vec<Seat>,
    /// The new room, once at least two players agreed and everyone else answered or left.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub room: Option<RoomId>,
}
