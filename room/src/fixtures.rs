//! Records the tests of this crate and of the server start from (kept out of the docs): the
//! same players and the same waiting room in every suite, so no suite keeps its own copy.

use warroom_engine::RulesetId;
use warroom_protocol::{Identity, IdentityId, RoomId, RoomSettings, RoomState};

use crate::records::RoomRecord;
use crate::runner::rules;

/// Player `n` of a test: a stable id and the name `p<n>`.
pub fn player(n: u8) -> Identity {
    Identity {
        id: IdentityId(uuid::Uuid::from_u128(u128::from(n) + 1)),
        name: format!("p{n}"),
    }
}

/// A public waiting room of `ruleset` with the default options, made by player 0, seat `i`
/// held by `seats[i]`.
pub fn waiting_room(
    ruleset: RulesetId,
    seats: Vec<Option<Identity>>,
    settings: RoomSettings,
) -> RoomRecord {
    let count = u8::try_from(seats.len()).expect("a test room has few seats");
    RoomRecord {
        id: RoomId::random(),
        ruleset,
        options: rules(ruleset)
            .expect("an enabled ruleset")
            .check_options(None, count)
            .expect("the default options"),
        settings,
        seat_count: count,
        private: false,
        invite_code: "code".into(),
        creator: player(0).id,
        state: RoomState::Waiting,
        match_id: None,
        created_at: 0,
        seats,
    }
}
