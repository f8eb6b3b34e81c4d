//! The rows the server reads back, already decoded into protocol and engine types.

use serde_json::Value;
use warroom_engine::{Outcome, RulesetId, Seat};
use warroom_protocol::{
    ActedBy, Identity, IdentityId, MatchId, MatchState, RoomId, RoomSettings, RoomState,
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

/// Which rooms `GET /api/rooms` lists: public ones, waiting or playing.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyQuery {
    /// Only rooms in this state (waiting or playing).
    pub state: Option<RoomState>,
    /// Only this ruleset.
    pub ruleset: Option<RulesetId>,
    /// Only waiting rooms with a free seat.
    pub open: bool,
    /// Only rooms older than this one (creation time, id): the previous page's last.
    pub before: Option<(i64, String)>,
    /// At most this many.
    pub limit: u32,
}

/// Which matches `GET /api/matches` lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchFilter {
    /// Only matches this identity played.
    pub player: Option<IdentityId>,
    /// Only this ruleset.
    pub ruleset: Option<RulesetId>,
    /// Only this state.
    pub state: Option<MatchState>,
    /// Who asks: a private room's matches are listed only to those who played them.
    pub viewer: Option<IdentityId>,
}
