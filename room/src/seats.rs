//! Seats before the start: who holds which, and the checks on taking and giving one back. A
//! check yields a [`SeatChange`] that the room loop stores before the core applies it, so a seat
//! is never shown taken unless the database says so.

use warroom_engine::Seat;
use warroom_protocol::{Identity, RoomState, codes};

use crate::error::RoomError;
use crate::records::RoomRecord;

/// A checked change of one seat, to store and then apply.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatChange {
    /// Which seat.
    pub seat: Seat,
    /// Its new holder (`None`: freed).
    pub holder: Option<Identity>,
}

/// The seat `identity` holds in the room, if any.
pub fn seat_of(record: &RoomRecord, identity: Option<&Identity>) -> Option<Seat> {
    let identity = identity?;
    record
        .seats
        .iter()
        .position(|holder| holder.as_ref().is_some_and(|h| h.id == identity.id))
        .and_then(|seat| u8::try_from(seat).ok())
        .map(Seat)
}

/// Checks that `identity` may take `wanted` (any free seat when `None`).
pub fn check_take(
    record: &RoomRecord,
    identity: Identity,
    wanted: Option<Seat>,
) -> Result<SeatChange, RoomError> {
    refuse_after_start(record)?;
    if seat_of(record, Some(&identity)).is_some() {
        return Err(RoomError::conflict(
            codes::ALREADY_SEATED,
            "you already hold a seat here",
        ));
    }
    let seat = match wanted {
        Some(seat) => match record.seats.get(seat.index()) {
            None => {
                return Err(RoomError::bad_request(
                    codes::INVALID_SEAT,
                    format!(
                        "this room has seats 0 to {}",
                        record.seats.len().saturating_sub(1)
                    ),
                ));
            }
            Some(Some(_)) => {
                return Err(RoomError::conflict(
                    codes::SEAT_TAKEN,
                    format!("seat {seat} is taken"),
                ));
            }
            Some(None) => seat,
        },
        None => record
            .seats
            .iter()
            .position(Option::is_none)
            .and_then(|seat| u8::try_from(seat).ok())
            .map(Seat)
            .ok_or_else(|| RoomError::conflict(codes::ROOM_FULL, "every seat is taken"))?,
    };
    Ok(SeatChange {
        seat,
        holder: Some(identity),
    })
}

/// Checks that `identity` holds a seat it may give back.
pub fn check_leave(
    record: &RoomRecord,
    identity: Option<&Identity>,
) -> Result<SeatChange, RoomError> {
    refuse_after_start(record)?;
    let seat = seat_of(record, identity)
        .ok_or_else(|| RoomError::forbidden(codes::NOT_SEATED, "you hold no seat here"))?;
    Ok(SeatChange { seat, holder: None })
}

/// Applies a stored change.
pub fn apply(record: &mut RoomRecord, change: SeatChange) {
    if let Some(slot) = record.seats.get_mut(change.seat.index()) {
        *slot = change.holder;
    }
}

fn refuse_after_start(record: &RoomRecord) -> Result<(), RoomError> {
    if record.state == RoomState::Waiting {
        Ok(())
    } else {
        Err(RoomError::conflict(
            codes::MATCH_STARTED,
            "the match has started: seats no longer change",
        ))
    }
}
