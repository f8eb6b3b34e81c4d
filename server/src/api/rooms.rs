//! The lobby: rulesets, and creating, listing and showing rooms.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use warroom_engine::{RulesetId, Seat};
use warroom_protocol::{
    ErrorBody, Identity, NewRoom, Room, RoomId, RoomSettings, RoomState, RulesetInfo, codes,
};

use super::body::{json, path_id};
use crate::bots::bot_identity;
use crate::error::ApiError;
use crate::identity::random_bytes;
use crate::runner::rules;
use crate::state::AppState;
use crate::store::{RoomRecord, now_ms};

/// Every ruleset this build offers.
#[utoipa::path(
    get, path = "/api/rulesets", tag = "rooms",
    responses(
        (status = 200, description = "every ruleset this build offers", body = Vec<RulesetInfo>)
    )
)]
pub async fn rulesets() -> Json<Vec<RulesetInfo>> {
    Json(
        RulesetId::ALL
            .into_iter()
            .filter_map(rules)
            .map(|rules| RulesetInfo {
                id: rules.id(),
                seats: rules.seat_range(),
                default_options: rules.default_options(),
            })
            .collect(),
    )
}

/// Opens a room; its creator sees the invite code, and takes `creator_seat` when one is named.
#[utoipa::path(
    post, path = "/api/rooms", tag = "rooms", request_body = NewRoom, security(("bearer" = [])),
    responses(
        (status = 201, description = "the room, with its invite code (its creator only)", body = Room),
        (status = 400, description = "`invalid_request` and the other codes of a refused request", body = ErrorBody),
        (status = 401, description = "`unauthorized`: a valid bearer token is required", body = ErrorBody)
    )
)]
pub async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Room>), ApiError> {
    let creator = state.required_identity(&headers).await?;
    let request: NewRoom = json(&body)?;
    let room = open_room(&state, &creator, request).await?;
    Ok((StatusCode::CREATED, Json(room)))
}

/// Checks a room request, stores the room and starts its task; the room as its creator sees it.
pub(super) async fn open_room(
    state: &AppState,
    creator: &Identity,
    request: NewRoom,
) -> Result<Room, ApiError> {
    let rules = rules(request.ruleset).ok_or_else(|| {
        ApiError::bad_request(
            codes::UNKNOWN_RULESET,
            format!("this server does not offer {} yet", request.ruleset),
        )
    })?;
    let seats = request.seats.unwrap_or(rules.seat_range().min);
    let options = rules.check_options(request.options.as_ref(), seats)?;
    let invalid_seat = || {
        ApiError::bad_request(
            codes::INVALID_SEAT,
            format!("this room has seats 0 to {}", seats.saturating_sub(1)),
        )
    };
    if let Some(seat) = request.creator_seat
        && seat.0 >= seats
    {
        return Err(invalid_seat());
    }
    let mut holders: Vec<Option<Identity>> = vec![None; usize::from(seats)];
    for bot in &request.bots {
        let slot = holders.get_mut(bot.seat.index()).ok_or_else(invalid_seat)?;
        if slot.is_some() || request.creator_seat == Some(bot.seat) {
            return Err(ApiError::bad_request(
                codes::SEAT_TAKEN,
                format!("seat {} is given twice", bot.seat),
            ));
        }
        *slot = Some(bot_identity(bot.level));
    }
    let bot_delay_ms = request
        .bot_delay_ms
        .unwrap_or(RoomSettings::DEFAULT_BOT_DELAY_MS);
    if bot_delay_ms > RoomSettings::MAX_BOT_DELAY_MS {
        return Err(ApiError::bad_request(
            codes::INVALID_REQUEST,
            format!(
                "bot_delay_ms is 0 to {} milliseconds",
                RoomSettings::MAX_BOT_DELAY_MS
            ),
        ));
    }
    let mut record = RoomRecord {
        id: RoomId::random(),
        ruleset: request.ruleset,
        options,
        settings: RoomSettings { bot_delay_ms },
        seat_count: seats,
        private: request.private,
        // 8 random bytes: unguessable enough for an invite, short enough for a link.
        invite_code: hex::encode(&random_bytes()?[..8]),
        creator: creator.id,
        state: RoomState::Waiting,
        match_id: None,
        created_at: now_ms(),
        seats: vec![None; usize::from(seats)],
    };
    state.store.create_room(&record).await?;
    for (seat, bot) in holders.iter().enumerate() {
        if let Some(bot) = bot {
            let seat = Seat(u8::try_from(seat).map_err(ApiError::internal)?);
            state.store.set_seat(record.id, seat, Some(bot.id)).await?;
        }
    }
    record.seats = holders;
    if let Some(seat) = request.creator_seat {
        state
            .store
            .set_seat(record.id, seat, Some(creator.id))
            .await?;
        if let Some(slot) = record.seats.get_mut(seat.index()) {
            *slot = Some(creator.clone());
        }
    }
    let invite_code = record.invite_code.clone();
    let handle = state.rooms.open(record)?;
    let mut room = handle.summary();
    room.invite_code = Some(invite_code);
    Ok(room)
}

/// Public rooms that are waiting or playing, newest first.
#[utoipa::path(
    get, path = "/api/rooms", tag = "rooms",
    responses(
        (status = 200, description = "public rooms that are waiting or playing, newest first", body = Vec<Room>)
    )
)]
pub async fn list(State(state): State<AppState>) -> Json<Vec<Room>> {
    Json(state.rooms.public_rooms())
}

/// One room (private ones too: their id is as secret as a link).
#[utoipa::path(
    get, path = "/api/rooms/{id}", tag = "rooms", security((), ("bearer" = [])), params(("id" = String, Path, description = "the room id")),
    responses(
        (status = 200, description = "the room", body = Room),
        (status = 401, description = "`unauthorized`: a valid bearer token is required", body = ErrorBody),
        (status = 404, description = "`room_not_found`", body = ErrorBody)
    )
)]
pub async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Room>, ApiError> {
    let viewer = state.optional_identity(&headers).await?;
    let id: RoomId = path_id(&id, ApiError::room_not_found)?;
    let handle = state.rooms.get(id).await?;
    let mut room = handle.summary();
    if let Some(viewer) = viewer {
        let seated = room
            .seats
            .iter()
            .any(|seat| seat.player.as_ref().is_some_and(|p| p.id == viewer.id));
        if let Some(record) = state.store.room(id).await?
            && (record.creator == viewer.id || (record.private && seated))
        {
            room.invite_code = Some(record.invite_code);
        }
    }
    Ok(Json(room))
}
