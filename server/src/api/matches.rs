//! Matches: listing (by player, ruleset, state), one summary, and its replay as the viewer may
//! see it.
//!
//! A private room's match, running or finished, is seen only by its players, the room's
//! creator and whoever brings the room's invite code (`?invite=`): it is left out of listings
//! for everyone else, and to them it does not exist (`match_not_found`).

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use warroom_engine::{RulesetId, Seat, Viewer};
use warroom_protocol::{
    Identity, IdentityId, MatchId, MatchSeat, MatchState, MatchSummary, Replay, codes,
};

use super::body::path_id;
use crate::error::ApiError;
use crate::openapi::{MatchNotFound, Refused, Unauthorized, UnknownBearer};
use crate::runner::rules;
use crate::state::{AppState, MaybeBearer};
use crate::store::{MatchFilter, MatchRecord, rfc3339};
use warroom_room::chat::{Reader, may_read};

/// The query of `GET /api/matches`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    player: Option<String>,
    ruleset: Option<String>,
    state: Option<String>,
}

/// The query of one match and its replay: a private room's invite code.
#[derive(Debug, Deserialize)]
pub struct InviteQuery {
    invite: Option<String>,
}

/// The match `id` if `viewer` (or the holder of `invite`) may see it, else `match_not_found`.
async fn visible_match(
    state: &AppState,
    id: &str,
    viewer: Option<&Identity>,
    invite: Option<&str>,
) -> Result<MatchRecord, ApiError> {
    let id: MatchId = path_id(id, ApiError::match_not_found)?;
    let record = state
        .store
        .match_record(id)
        .await?
        .ok_or_else(ApiError::match_not_found)?;
    let room = state.store.room(record.room_id).await?;
    let visible = match &room {
        Some(room) if room.private => {
            invite == Some(room.invite_code.as_str())
                || viewer.is_some_and(|viewer| {
                    viewer.id == room.creator || record.seats.iter().any(|p| p.id == viewer.id)
                })
        }
        _ => true,
    };
    if visible {
        Ok(record)
    } else {
        Err(ApiError::match_not_found())
    }
}

/// Matches, newest first; a private room's only to those who played them.
#[utoipa::path(
    get, path = "/api/matches", tag = "matches", security((), ("bearer" = [])), params(("player" = Option<String>, Query, description = "only matches of this identity id"), ("ruleset" = Option<String>, Query, description = "only this ruleset"), ("state" = Option<String>, Query, description = "`playing` or `finished`")),
    responses((status = 200, description = "matches, newest first", body = Vec<MatchSummary>), Refused, UnknownBearer)
)]
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
    MaybeBearer(viewer): MaybeBearer,
) -> Result<Json<Vec<MatchSummary>>, ApiError> {
    let bad = |what: &str| ApiError::bad_request(codes::INVALID_REQUEST, what.to_owned());
    let filter = MatchFilter {
        player: query
            .player
            .map(|p| {
                p.parse::<IdentityId>()
                    .map_err(|_| bad("player is an identity id"))
            })
            .transpose()?,
        ruleset: query
            .ruleset
            .map(|r| r.parse::<RulesetId>().map_err(|e| bad(&e.to_string())))
            .transpose()?,
        state: query
            .state
            .map(|s| match s.as_str() {
                "playing" => Ok(MatchState::Playing),
                "finished" => Ok(MatchState::Finished),
                _ => Err(bad("state is playing or finished")),
            })
            .transpose()?,
        viewer: viewer.map(|viewer| viewer.id),
    };
    let records = state.store.list_matches(&filter).await?;
    Ok(Json(records.iter().map(summary).collect()))
}

/// One match (a private room's only to its players, its creator and holders of its invite).
#[utoipa::path(
    get, path = "/api/matches/{id}", tag = "matches", security((), ("bearer" = [])), params(("id" = String, Path, description = "the match id"), ("invite" = Option<String>, Query, description = "a private room's invite code")),
    responses((status = 200, description = "the match", body = MatchSummary), Unauthorized, MatchNotFound)
)]
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<InviteQuery>,
    MaybeBearer(viewer): MaybeBearer,
) -> Result<Json<MatchSummary>, ApiError> {
    let record = visible_match(&state, &id, viewer.as_ref(), query.invite.as_deref()).await?;
    Ok(Json(summary(&record)))
}

/// A match's replay, redacted for the bearer (a seat sees its own hidden information).
#[utoipa::path(
    get, path = "/api/matches/{id}/replay", tag = "matches", security((), ("bearer" = [])), params(("id" = String, Path, description = "the match id"), ("invite" = Option<String>, Query, description = "a private room's invite code")),
    responses((status = 200, description = "the replay as the bearer may see it (a seat sees its own hidden information); the seed once the match is over", body = Replay), Unauthorized, MatchNotFound)
)]
pub async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<InviteQuery>,
    MaybeBearer(viewer_identity): MaybeBearer,
) -> Result<Json<Replay>, ApiError> {
    let record = visible_match(
        &state,
        &id,
        viewer_identity.as_ref(),
        query.invite.as_deref(),
    )
    .await?;
    let id = record.id;
    let viewer = viewer_identity
        .as_ref()
        .and_then(|identity| record.seats.iter().position(|p| p.id == identity.id))
        .and_then(|seat| u8::try_from(seat).ok())
        .map_or(Viewer::Spectator, |seat| Viewer::Seat(Seat(seat)));
    let rules = rules(record.ruleset).ok_or_else(|| ApiError::internal("ruleset not built in"))?;
    let actions = state.store.actions(id).await?;
    let mut replay = rules.replay(&record, &actions, viewer)?;
    let mutes = match &viewer_identity {
        Some(identity) => Some(
            state
                .store
                .mutes(identity.id)
                .await?
                .into_iter()
                .collect::<std::collections::HashSet<_>>(),
        ),
        None => None,
    };
    let reader = Reader {
        seated: matches!(viewer, Viewer::Seat(_)),
        mutes: mutes.as_ref(),
    };
    let over = record.state == MatchState::Finished;
    replay.chat = state
        .store
        .match_chat(id)
        .await?
        .into_iter()
        .filter(|line| may_read(line, &reader, over))
        .collect();
    Ok(Json(replay))
}

pub(super) fn summary(record: &MatchRecord) -> MatchSummary {
    MatchSummary {
        id: record.id,
        room_id: record.room_id,
        ruleset: record.ruleset,
        options: record.options.clone(),
        seats: record
            .seats
            .iter()
            .enumerate()
            .map(|(seat, player)| MatchSeat {
                seat: Seat::from_index(seat),
                player: player.clone(),
            })
            .collect(),
        state: record.state,
        outcome: record.outcome.clone(),
        actions: record.action_count,
        started_at: rfc3339(record.started_at),
        finished_at: record.finished_at.map(rfc3339),
        rated: record.rated,
        ratings: record.ratings.clone(),
    }
}
