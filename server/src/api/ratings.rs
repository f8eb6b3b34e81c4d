//! Ratings over REST (issue 39, docs/RATINGS.md): `GET /api/leaderboards/{ruleset}` (a page of
//! a ruleset's rated players, the provisional ones apart) and `GET /api/players/{id}/ratings`
//! (a player's rating per ruleset with its history and record against each opponent); and the
//! casual-first rule every way into a rated room checks ([`check_may_play_rated`]).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use warroom_engine::RulesetId;
use warroom_protocol::{ErrorBody, IdentityId, Leaderboard, PlayerRatings, codes};

use crate::error::ApiError;
use crate::openapi::PlayerNotFound;
use crate::state::AppState;
use crate::store::now_ms;
use crate::store::ratings::{LeaderboardQuery, PageStart};

/// Entries on a leaderboard page when the client does not say.
const DEFAULT_LIMIT: i64 = 50;
/// Most entries on one page.
const MAX_LIMIT: i64 = 100;
/// The deepest `offset`: entries are read through up to it (about 2.6 ms per 1,000 on
/// PostgreSQL, bench/RESULTS.md), so past it a page is asked for by cursor, which the index
/// finds at any depth.
const MAX_OFFSET: i64 = 5_000;

fn unknown_ruleset(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::UNKNOWN_RULESET,
        format!("this server does not offer the ruleset {name:?}"),
    )
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(codes::INVALID_REQUEST, message)
}

/// The query of `GET /api/leaderboards/{ruleset}`.
#[derive(Debug, Deserialize)]
pub struct LeaderboardParams {
    provisional: Option<String>,
    limit: Option<String>,
    offset: Option<String>,
    cursor: Option<String>,
}

/// A page of a ruleset's leaderboard.
#[utoipa::path(
    get, path = "/api/leaderboards/{ruleset}", tag = "ratings",
    params(
        ("ruleset" = String, Path, description = "hexdice, capitals or classic"),
        ("provisional" = Option<bool>, Query, description = "the provisional players' list (default false)"),
        ("limit" = Option<i64>, Query, description = "entries on the page, 1 to 100 (default 50)"),
        ("offset" = Option<i64>, Query, description = "entries skipped (default 0, at most 5,000): a jump to a place in the list, read through; deeper pages are asked for by cursor"),
        ("cursor" = Option<String>, Query, description = "a page's `next` or `previous`: the page after or before it, found in the index at any depth (not with `offset`)")
    ),
    responses(
        (status = 200, description = "the page, best first (ties: the lower deviation first)", body = Leaderboard),
        (status = 400, description = "`invalid_request`: a bad `provisional`, `limit`, `offset` or `cursor`, or both `offset` and `cursor`", body = ErrorBody),
        (status = 404, description = "`unknown_ruleset`", body = ErrorBody)
    )
)]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
    Query(params): Query<LeaderboardParams>,
) -> Result<Json<Leaderboard>, ApiError> {
    let ruleset: RulesetId = ruleset.parse().map_err(|_| unknown_ruleset(&ruleset))?;
    let provisional = match params.provisional.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => return Err(bad("provisional is true or false")),
    };
    let number = |text: Option<&str>, default: i64, range: std::ops::RangeInclusive<i64>| match text
    {
        None => Ok(default),
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or(()),
    };
    let limit = number(params.limit.as_deref(), DEFAULT_LIMIT, 1..=MAX_LIMIT)
        .map_err(|()| bad(format!("limit is 1 to {MAX_LIMIT}")))?;
    let offset = number(params.offset.as_deref(), 0, 0..=MAX_OFFSET).map_err(|()| {
        bad(format!(
            "offset is 0 to {MAX_OFFSET}; deeper, page on with a page's `next` cursor"
        ))
    })?;
    let from = match params.cursor.as_deref() {
        None => PageStart::Offset(offset),
        Some(_) if params.offset.is_some() => {
            return Err(bad("a page is asked for by offset or by cursor, not both"));
        }
        Some(cursor) => cursor
            .parse::<PageStart>()
            .map_err(|()| bad("cursor is the `next` or `previous` of a page"))?,
    };
    let page = state
        .store
        .leaderboard(LeaderboardQuery {
            ruleset,
            provisional,
            limit,
            from,
            now_ms: now_ms(),
        })
        .await?;
    Ok(Json(page))
}

/// A player's ratings.
#[utoipa::path(
    get, path = "/api/players/{id}/ratings", tag = "ratings", params(("id" = String, Path, description = "the player's identity id")),
    responses(
        (status = 200, description = "the player's rating per ruleset, with history and opponents", body = PlayerRatings),
        PlayerNotFound
    )
)]
pub async fn player_ratings(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<PlayerRatings>, ApiError> {
    let record = super::players::player_at(&state, &id).await?;
    let ratings = state
        .store
        .player_ratings(record.identity.id, now_ms())
        .await?;
    Ok(Json(PlayerRatings {
        player: record.identity,
        ratings,
    }))
}

/// The casual-first rule: `identity` may play rated once it has finished
/// `--rated-min-matches` matches (`not_yet_rated`, 403, otherwise).
pub async fn check_may_play_rated(state: &AppState, identity: IdentityId) -> Result<(), ApiError> {
    let needed = state.store.rating_policy().min_matches;
    if needed == 0 {
        return Ok(());
    }
    let finished = state.store.finished_matches(identity, needed).await?;
    if finished < needed {
        return Err(ApiError::forbidden(
            codes::NOT_YET_RATED,
            format!(
                "rated play opens after {needed} finished matches; this identity has finished \
                 {finished}"
            ),
        ));
    }
    Ok(())
}
