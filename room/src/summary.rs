//! The room as one identity may see it (`Room` on the wire and in the lobby): seats with
//! presence, spectators, and the invite code only for those who may share it.

use warroom_engine::Seat;
use warroom_protocol::{ClockState, Identity, Room, SeatInfo, Takeover};

use super::followers::Followers;
use super::seats::seat_of;
use crate::bots::bot_level;
use crate::records::RoomRecord;

/// What the match says of the seats now, for the room's summary.
#[derive(Clone, Debug, Default)]
pub struct SeatsNow {
    /// Per seat, why a bot plays a person's seat now.
    pub takeovers: Vec<Option<Takeover>>,
    /// The match's clock.
    pub clock: Option<ClockState>,
}

/// The room as `identity` may see it (the invite code only for its creator and, in a private
/// room, its seated players).
/// `seats` says, per seat, why a bot plays a person's seat now, and `clock` is the match's.
pub fn room_for(
    record: &RoomRecord,
    followers: &Followers,
    now: &SeatsNow,
    identity: Option<&Identity>,
) -> Room {
    let takeovers = &now.takeovers;
    let seats = record
        .seats
        .iter()
        .enumerate()
        .map(|(seat, holder)| SeatInfo {
            seat: Seat::from_index(seat),
            player: holder.clone(),
            connected: holder
                .as_ref()
                .is_some_and(|holder| followers.is_connected(holder.id)),
            bot: holder.as_ref().and_then(|holder| bot_level(holder.id)),
            takeover: takeovers.get(seat).copied().flatten(),
        })
        .collect();
    let spectators = followers
        .iter()
        .filter(|(_, f)| seat_of(record, f.identity.as_ref()).is_none())
        .count();
    Room {
        id: record.id,
        ruleset: record.ruleset,
        options: record.options.clone(),
        settings: record.settings.clone(),
        clock: now.clock.clone(),
        private: record.private,
        rated: record.settings.rated,
        invite_code: sees_invite(record, identity).then(|| record.invite_code.clone()),
        state: record.state,
        seats,
        spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
        match_id: record.match_id,
        created_at: crate::records::rfc3339(record.created_at),
    }
}

/// True when `identity` may see the room's invite code.
pub fn sees_invite(record: &RoomRecord, identity: Option<&Identity>) -> bool {
    identity.is_some_and(|identity| {
        identity.id == record.creator
            || (record.private && seat_of(record, Some(identity)).is_some())
    })
}

/// True while a person plays one of the room's seats (not a bot seat, nor one a bot plays for
/// its player): a room no person plays any more is not listed in the lobby (the bots finish it).
pub fn played_by_a_person(room: &Room) -> bool {
    room.seats
        .iter()
        .any(|seat| seat.bot.is_none() && seat.takeover.is_none())
}
