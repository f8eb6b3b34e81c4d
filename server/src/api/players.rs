//! A player's public page: `GET /api/players?name=`, `GET /api/players/{id}` (name and record
//! per ruleset) and `GET /api/players/{id}/matches` (their matches, filtered, a page at a time).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use warroom_protocol::{
    IdentityId, MatchId, MatchPage, MatchResult, PlayerMatch, PlayerProfile, codes,
};

use super::body::{page_cursor, page_limit, path_id, ruleset_filter};
use super::matches::summary;
use crate::error::ApiError;
use crate::openapi::{PlayerNotFound, Refused, UnknownBearer};
use crate::state::{AppState, MaybeBearer};
use crate::store::{IdentityRecord, PlayerMatchQuery, result_for, rfc3339};

/// Matches on a page when the client does not say.
const DEFAULT_PAGE: u32 = 20;
/// Most matches on one page.
const MAX_PAGE: u32 = 100;

fn player_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::PLAYER_NOT_FOUND,
        "there is no player with this id or name",
    )
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(codes::INVALID_REQUEST, message)
}

/// The query of `GET /api/players`.
#[derive(Debug, Deserialize)]
pub struct FindQuery {
    name: Option<String>,
}

/// The player with this name (any case).
#[utoipa::path(
    get, path = "/api/players", tag = "players", params(("name" = String, Query, description = "the player's name (any case)")),
    responses((status = 200, description = "the player's page", body = PlayerProfile), Refused, PlayerNotFound)
)]
pub async fn find(
    State(state): State<AppState>,
    Query(query): Query<FindQuery>,
) -> Result<Json<PlayerProfile>, ApiError> {
    let name = query.name.ok_or_else(|| bad("name is required"))?;
    let record = state
        .store
        .identity_by_name(&name)
        .await?
        .ok_or_else(player_not_found)?;
    Ok(Json(profile(&state, record).await?))
}

/// One player's page.
#[utoipa::path(
    get, path = "/api/players/{id}", tag = "players", params(("id" = String, Path, description = "the player's identity id")),
    responses((status = 200, description = "the player's page", body = PlayerProfile), PlayerNotFound)
)]
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<PlayerProfile>, ApiError> {
    let record = player_at(&state, &id).await?;
    Ok(Json(profile(&state, record).await?))
}

/// The player a path's `{id}` names (`player_not_found`, 404, for a bad or unknown id).
pub(super) async fn player_at(state: &AppState, id: &str) -> Result<IdentityRecord, ApiError> {
    let id: IdentityId = path_id(id, player_not_found)?;
    state.store.identity(id).await?.ok_or_else(player_not_found)
}

async fn profile(state: &AppState, record: IdentityRecord) -> Result<PlayerProfile, ApiError> {
    Ok(PlayerProfile {
        records: state.store.player_records(record.identity.id).await?,
        id: record.identity.id,
        name: record.identity.name,
        created_at: rfc3339(record.created_at),
    })
}

/// The query of `GET /api/players/{id}/matches`.
#[derive(Debug, Deserialize)]
pub struct MatchesQuery {
    ruleset: Option<String>,
    result: Option<String>,
    limit: Option<String>,
    before: Option<String>,
}

/// One page of the player's matches, newest first. A private room's matches are listed only to
/// a bearer who played in them.
#[utoipa::path(
    get, path = "/api/players/{id}/matches", tag = "players", security((), ("bearer" = [])), params(("id" = String, Path, description = "the player's identity id"), ("ruleset" = Option<String>, Query, description = "only this ruleset"), ("result" = Option<String>, Query, description = "`won`, `lost` or `playing`"), ("limit" = Option<u32>, Query, description = "matches per page, 1 to 100 (default 20)"), ("before" = Option<String>, Query, description = "the `next` cursor of the previous page")),
    responses((status = 200, description = "one page of the player's matches, newest first", body = MatchPage), Refused, UnknownBearer, PlayerNotFound)
)]
pub async fn matches(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<MatchesQuery>,
    MaybeBearer(viewer): MaybeBearer,
) -> Result<Json<MatchPage>, ApiError> {
    let player = player_at(&state, &id).await?.identity.id;
    let limit = page_limit(query.limit.as_deref(), DEFAULT_PAGE, MAX_PAGE)?;
    let request = PlayerMatchQuery {
        player,
        viewer: viewer.map(|v| v.id),
        ruleset: ruleset_filter(query.ruleset)?,
        result: query
            .result
            .filter(|r| !r.is_empty())
            .map(|r| MatchResult::parse(&r).ok_or_else(|| bad("result is won, lost or playing")))
            .transpose()?,
        before: query
            .before
            .map(|c| page_cursor::<MatchId>(&c))
            .transpose()?,
        limit,
    };
    let rows = state.store.player_matches(&request).await?;
    let next = if rows.more {
        rows.matches
            .last()
            .map(|(record, _)| cursor(record.started_at, &record.id.to_string()))
    } else {
        None
    };
    Ok(Json(MatchPage {
        matches: rows
            .matches
            .iter()
            .map(|(record, seat)| PlayerMatch {
                summary: summary(record),
                seat: *seat,
                result: result_for(record, *seat),
            })
            .collect(),
        next,
        total: rows.total,
    }))
}

/// The opaque cursor of the page after the match that started at `started_at` with id `id`.
fn cursor(started_at: i64, id: &str) -> String {
    format!("{started_at}.{id}")
}
