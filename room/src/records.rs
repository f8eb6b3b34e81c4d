//! What a room is made of as the store keeps it: the room, its match and its actions as read
//! back (already decoded into protocol and engine types), and the one accepted action the room
//! asks to append.

use serde_json::Value;
use std::time::{Duration, UNIX_EPOCH};

use warroom_engine::{Outcome, RulesetId, Seat};
use warroom_protocol::{
    ActedBy, Identity, IdentityId, MatchId, MatchState, RoomId, RoomSettings, RoomState, SeatRating,
};

/// A room as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomRecord {
    /// Its id.
    pub id: RoomId,
    /// Its ruleset.
    pub ruleset: RulesetId,
    /// Its options, defaults filled in.
    pub options: Value,
    /// Its settings beyond the ruleset (bot delay).
    pub settings: RoomSettings,
    /// How many seats.
    pub seat_count: u8,
    /// Unlisted, joined by invite code.
    pub private: bool,
    /// The code that admits to a private room.
    pub invite_code: String,
    /// Who opened it.
    pub creator: IdentityId,
    /// Waiting, playing or finished.
    pub state: RoomState,
    /// Its match, once started.
    pub match_id: Option<MatchId>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Who holds each seat.
    pub seats: Vec<Option<Identity>>,
}

/// A match as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRecord {
    /// Its id.
    pub id: MatchId,
    /// The room it is played in.
    pub room_id: RoomId,
    /// Its ruleset.
    pub ruleset: RulesetId,
    /// Its options.
    pub options: Value,
    /// The secret seed, hex.
    pub seed: String,
    /// SHA-256 of the seed, hex.
    pub seed_commitment: String,
    /// Playing or finished.
    pub state: MatchState,
    /// How it ended.
    pub outcome: Option<Outcome>,
    /// Accepted actions so far.
    pub action_count: u64,
    /// Unix milliseconds.
    pub started_at: i64,
    /// Unix milliseconds.
    pub finished_at: Option<i64>,
    /// Who plays each seat, in seat order.
    pub seats: Vec<Identity>,
    /// Played in a rated room.
    pub rated: bool,
    /// Each seat's rating change, once a rated match ended and its result counted.
    pub ratings: Option<Vec<SeatRating>>,
}

/// One accepted action as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRecord {
    /// From 1.
    pub seq: u64,
    /// Which seat it was played for.
    pub seat: Seat,
    /// Who took it.
    pub by: ActedBy,
    /// The client's id for it.
    pub client_id: String,
    /// The ruleset's action JSON, or `{"type": "resign"}`.
    pub action: Value,
    /// The events it caused, unredacted.
    pub events: Vec<Value>,
    /// The clock right after it, as stored (JSON), when the room has one.
    pub clock: Option<Value>,
}

/// An accepted action the room asks the store to append (durable before acknowledged).
#[derive(Clone, Debug, PartialEq)]
pub struct Append {
    /// The match it belongs to.
    pub match_id: MatchId,
    /// The room the match is played in (marked finished with it).
    pub room_id: RoomId,
    /// Its sequence number, from 1.
    pub seq: u64,
    /// Which seat it was played for.
    pub seat: Seat,
    /// Who took it.
    pub by: ActedBy,
    /// The client's id for it.
    pub client_id: String,
    /// The action JSON.
    pub action: String,
    /// The events JSON (an array, unredacted).
    pub events: String,
    /// The clock right after it (JSON), when the room has one: what a restart resumes from.
    pub clock: Option<String>,
    /// Set when this action ended the match.
    pub finish: Option<Outcome>,
    /// Set when this action ended a rated match: each seat's place (`placings.rs`), which the
    /// store turns into rating changes in the transaction that stores the result.
    pub rated: Option<crate::placings::Places>,
}

/// A stored time (Unix milliseconds) as RFC 3339, how the API shows times.
pub fn rfc3339(ms: i64) -> String {
    let time = UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    humantime::format_rfc3339_millis(time).to_string()
}
