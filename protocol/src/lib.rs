//! The warroom wire protocol: the one place where wire formats are decided.
//!
//! Messages are named by direction ([`ClientMsg`] from the browser, [`ServerMsg`] to it). Every
//! error a user can cause is sent as [`ErrorBody`]: a stable snake_case `code` and a readable
//! `message`; the codes the server itself uses are listed in [`codes`]. Ruleset-specific JSON
//! (options, actions, events, views) travels as [`serde_json::Value`], or in the messages a room
//! sends to every follower as [`RawJson`] (written once, straight from the engine's types): the
//! engine decides its shape.
//! docs/PROTOCOL.md documents every message with an example.

/// `as_str` and `parse` of an enum with a stable name per variant (on the wire, in the database
/// and in query strings), from one table: `names!(Enum { Variant => "name", … })`.
macro_rules! names {
    ($name:ident { $($variant:ident => $text:literal,)* }) => {
        impl $name {
            /// The variant's stable name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The variant of a stable name; `None` for any other text.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

mod chat;
pub mod codes;
mod control;
#[cfg(any(test, feature = "fuzz"))]
pub mod fuzz;
mod ids;
pub mod json_text;
pub mod legal;
pub mod patch;
pub mod played;
mod players;
mod ratings;
mod raw;
mod rest;
pub mod static_parts;
pub mod verify;
mod ws;
mod ws_text;

#[cfg(test)]
mod typescript;

pub use chat::{ChatChannel, ChatLine, Rematch};
pub use control::{
    ActedBy, BotSeat, ClockChoice, ClockPreset, ClockSettings, ClockState, RoomSettings, Takeover,
};
pub use ids::{IdParseError, IdentityId, MatchId, RoomId};
pub use legal::LegalGroup;
pub use players::{
    MatchPage, MatchResult, Me, PlayerMatch, PlayerProfile, QuickPlay, QuickPlayRoom, Recover,
    RecoveryCode, Rename, RulesetRecord,
};
pub use ratings::{
    Leaderboard, LeaderboardEntry, OpponentRecord, PlayerRatings, RatingPoint, RatingSystem,
    ReferenceRating, RulesetRating, SeatRating,
};
pub use raw::RawJson;
pub use rest::{
    GuestCreated, Health, Identity, MatchSeat, MatchState, MatchSummary, NewGuest, NewRoom, Replay,
    ReplayAction, Room, RoomPage, RoomState, RulesetInfo, SeatInfo, SeatRange,
};
pub use verify::{VerifyReport, verify_replay};
pub use ws::{ClientMsg, ServerMsg};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The values an error speaks of, by name (e.g. `{"cell": 3}`), for clients that word errors in
/// their reader's language. Names are as stable as codes.
pub type ErrorParams = BTreeMap<String, i64>;

/// An error as every client sees it, on REST and on the WebSocket alike.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// Stable machine code, e.g. `not_your_turn`.
    pub code: String,
    /// A readable explanation (English).
    pub message: String,
    /// The values the message speaks of, when there are any (rule errors: cells, areas,
    /// territories, seats, counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "Record<string, number>"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub params: Option<ErrorParams>,
}

impl ErrorBody {
    /// An error body with this code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        ErrorBody {
            code: code.into(),
            message: message.into(),
            params: None,
        }
    }
}
