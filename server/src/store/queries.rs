//! The queries the lobby and the match list ask the store, as typed filters.

use warroom_engine::RulesetId;
use warroom_protocol::{IdentityId, MatchState, RoomState};

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
