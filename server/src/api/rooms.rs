//! The lobby: rulesets, and creating, listing (a page at a time, from the database) and showing
//! rooms.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use warroom_engine::RulesetId;
use warroom_protocol::{
    ClockSettings, ErrorBody, Identity, NewRoom, Room, RoomId, RoomPage, RoomSettings, RoomState,
    RulesetInfo, codes,
};

use super::body::{json, page_cursor, page_limit, path_id, ruleset_filter};
use crate::bots::bot_identity;
use crate::error::ApiError;
use crate::identity::random_bytes;
use crate::openapi::{Refused, Unauthorized};
use crate::per_ip::ClientIp;
use crate::runner::rules;
use crate::state::{AppState, Bearer, MaybeBearer};
use crate::store::{LobbyQuery, RoomRecord, now_ms};

/// Every ruleset this build offers.
#[utoipa::path(
    get, path = "/api/rulesets", tag = "rooms",
    responses((status = 200, description = "every ruleset this build offers", body = Vec<RulesetInfo>))
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
                reference_ratings: crate::ratings::reference_ratings(rules.id()),
            })
            .collect(),
    )
}

/// Opens a room; its creator sees the invite code, and takes `creator_seat` when one is named.
#[utoipa::path(
    post, path = "/api/rooms", tag = "rooms", request_body = NewRoom, security(("bearer" = [])),
    responses((status = 201, description = "the room, with its invite code (its creator only)", body = Room), Refused, Unauthorized, (status = 403, description = "`not_yet_rated`: a rated room asked for by an identity with too few finished matches (`--rated-min-matches`)", body = ErrorBody), (status = 429, description = "`rate_limited`: too many rooms from this address (`--rooms-per-ip-per-minute`)", body = ErrorBody))
)]
pub async fn create(
    State(state): State<AppState>,
    ip: ClientIp,
    Bearer(creator): Bearer,
    body: Bytes,
) -> Result<(StatusCode, Json<Room>), ApiError> {
    let request: NewRoom = json(&body)?;
    let room = open_room(&state, ip, &creator, request).await?;
    Ok((StatusCode::CREATED, Json(room)))
}

/// Checks a room request, stores the room and starts its task; the room as its creator sees it.
pub(super) async fn open_room(
    state: &AppState,
    ip: ClientIp,
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
    if request.rated {
        if !request.bots.is_empty() {
            return Err(ApiError::bad_request(
                codes::RATED_WITHOUT_BOTS,
                "a rated room is for people only: it cannot have computer seats",
            ));
        }
        super::ratings::check_may_play_rated(state, creator.id).await?;
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
    let grace_seconds = request
        .grace_seconds
        .unwrap_or(RoomSettings::DEFAULT_GRACE_SECONDS);
    if !(RoomSettings::MIN_GRACE_SECONDS..=RoomSettings::MAX_GRACE_SECONDS).contains(&grace_seconds)
    {
        return Err(ApiError::bad_request(
            codes::INVALID_REQUEST,
            format!(
                "grace_seconds (how long a player may be disconnected before a bot plays their \
                 seat) is {} to {} seconds",
                RoomSettings::MIN_GRACE_SECONDS,
                RoomSettings::MAX_GRACE_SECONDS
            ),
        ));
    }
    let clock = match request.clock {
        Some(choice) => choice.settings(),
        None if request.private => None,
        None => Some(ClockSettings::NORMAL),
    };
    if let Some(clock) = clock
        && (clock.turn_seconds == 0
            || clock.turn_seconds > ClockSettings::MAX_SECONDS
            || clock.bank_seconds > ClockSettings::MAX_SECONDS)
    {
        return Err(ApiError::bad_request(
            codes::INVALID_REQUEST,
            format!(
                "a clock's turn_seconds is 1 to {max} and its bank_seconds 0 to {max}",
                max = ClockSettings::MAX_SECONDS
            ),
        ));
    }
    state.rooms_per_ip.take(ip).await?;
    let mut record = RoomRecord {
        id: RoomId::random(),
        ruleset: request.ruleset,
        options,
        settings: RoomSettings {
            clock,
            bot_delay_ms,
            grace_seconds,
            rated: request.rated,
        },
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
    // The room, its bots' seats and its creator's, in one transaction.
    record.seats = holders;
    if let Some(seat) = request.creator_seat
        && let Some(slot) = record.seats.get_mut(seat.index())
    {
        *slot = Some(creator.clone());
    }
    state.store.create_room(&record).await?;
    let invite_code = record.invite_code.clone();
    let mut room = state.open_room(record).await?;
    room.invite_code = Some(invite_code);
    Ok(room)
}

/// The query of `GET /api/rooms`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    ruleset: Option<String>,
    state: Option<String>,
    open: Option<String>,
    limit: Option<String>,
    before: Option<String>,
}

/// Rooms per page unless asked otherwise, and at most.
const DEFAULT_PAGE: u32 = 50;
const MAX_PAGE: u32 = 100;

/// One page of the public rooms that are waiting or playing, newest first.
#[utoipa::path(
    get, path = "/api/rooms", tag = "rooms", params(("ruleset" = Option<String>, Query, description = "only this ruleset"), ("state" = Option<String>, Query, description = "`waiting` or `playing`"), ("open" = Option<bool>, Query, description = "`true`: only waiting rooms with a free seat"), ("limit" = Option<u32>, Query, description = "rooms per page, 1 to 100 (default 50)"), ("before" = Option<String>, Query, description = "the `next` cursor of the previous page")),
    responses((status = 200, description = "one page of the public rooms that are waiting or playing, newest first", body = RoomPage), (status = 400, description = "`invalid_request`: a bad filter, limit or cursor", body = ErrorBody))
)]
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<RoomPage>, ApiError> {
    let bad = |what: String| ApiError::bad_request(codes::INVALID_REQUEST, what);
    let limit = page_limit(
        query.limit.as_deref().filter(|l| !l.is_empty()),
        DEFAULT_PAGE,
        MAX_PAGE,
    )?;
    let lobby = LobbyQuery {
        state: match query.state.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some("waiting") => Some(RoomState::Waiting),
            Some("playing") => Some(RoomState::Playing),
            Some(_) => return Err(bad("state is waiting or playing".into())),
        },
        ruleset: ruleset_filter(query.ruleset)?,
        open: match query.open.as_deref() {
            None | Some("" | "false") => false,
            Some("true") => true,
            Some(_) => return Err(bad("open is true or false".into())),
        },
        before: query
            .before
            .map(|c| page_cursor::<RoomId>(&c))
            .transpose()?,
        limit,
    };
    // While the database is out of reach the lobby is the rooms in memory (one page).
    let stored = if state.database.is_down() {
        None
    } else {
        match state.store.lobby_rooms(&lobby).await {
            Ok(page) => Some(page),
            Err(error) => {
                tracing::warn!("the lobby from memory: {error}");
                None
            }
        }
    };
    let Some((records, more)) = stored else {
        return Ok(Json(lobby_in_memory(&state, &lobby)));
    };
    let next = if more {
        records
            .last()
            .map(|record| cursor(record.created_at, record.id))
    } else {
        None
    };
    let rooms = state
        .lobby_summaries(&records)
        .await
        .into_iter()
        .map(|mut room| {
            room.invite_code = None;
            room
        })
        // A match only bots play (bot seats, or bots standing in for everyone who left) is
        // nobody's to join or watch from the lobby; such a page may hold fewer rooms.
        .filter(crate::room::played_by_a_person)
        .collect();
    Ok(Json(RoomPage { rooms, next }))
}

/// The lobby's page from the rooms in memory (the database is out of reach): the public
/// waiting or playing rooms held here that match the filters, newest first, on one page.
fn lobby_in_memory(state: &AppState, lobby: &LobbyQuery) -> RoomPage {
    let before = lobby
        .before
        .as_ref()
        .map(|(ms, id)| (warroom_room::rfc3339(*ms), id.clone()));
    let rooms = state
        .rooms
        .public_rooms()
        .into_iter()
        .filter(|room| lobby.state.is_none_or(|state| room.state == state))
        .filter(|room| lobby.ruleset.is_none_or(|ruleset| room.ruleset == ruleset))
        .filter(|room| {
            !lobby.open
                || (room.state == RoomState::Waiting
                    && room.seats.iter().any(|seat| seat.player.is_none()))
        })
        .filter(|room| {
            before.as_ref().is_none_or(|(time, id)| {
                (room.created_at.as_str(), room.id.to_string()) < (time.as_str(), id.clone())
            })
        })
        .take(usize::try_from(lobby.limit).unwrap_or(usize::MAX))
        .map(|mut room| {
            room.invite_code = None;
            room
        })
        .collect();
    RoomPage { rooms, next: None }
}

/// The opaque cursor of the page after the room created at `created_at` with id `id`.
fn cursor(created_at: i64, id: RoomId) -> String {
    format!("{created_at}.{id}")
}

/// One room (private ones too: their id is as secret as a link).
#[utoipa::path(
    get, path = "/api/rooms/{id}", tag = "rooms", security((), ("bearer" = [])), params(("id" = String, Path, description = "the room id")),
    responses((status = 200, description = "the room", body = Room), Unauthorized, (status = 404, description = "`room_not_found`", body = ErrorBody))
)]
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeBearer(viewer): MaybeBearer,
) -> Result<Json<Room>, ApiError> {
    let id: RoomId = path_id(&id, ApiError::room_not_found)?;
    let mut room = state.room_summary(id).await?;
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
