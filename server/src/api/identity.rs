//! The bearer's identity: `POST /api/guests`, `GET`/`PATCH /api/me` (rename), a recovery code
//! (`POST /api/me/recovery`) and taking the identity onto another device (`POST /api/recover`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use warroom_protocol::{
    ErrorBody, GuestCreated, Identity, IdentityId, Me, NewGuest, Recover, RecoveryCode, Rename,
    codes,
};

use super::body::json;
use crate::error::ApiError;
use crate::identity::{new_recovery_code, new_token, recovery_hash, token_hash, validate_name};
use crate::per_ip::ClientIp;
use crate::state::AppState;
use crate::store::{is_unique_violation, now_ms, rfc3339};

/// Creates a guest identity and returns its token (the only time it is shown).
#[utoipa::path(
    post, path = "/api/guests", tag = "players", request_body = NewGuest,
    responses(
        (status = 201, description = "the new guest and its bearer token (shown once)", body = GuestCreated),
        (status = 400, description = "`invalid_request` and the other codes of a refused request", body = ErrorBody),
        (status = 409, description = "`name_taken`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many guests from this address (`--guests-per-ip-per-minute`)", body = ErrorBody)
    )
)]
pub async fn create_guest(
    State(state): State<AppState>,
    ip: ClientIp,
    body: Bytes,
) -> Result<(StatusCode, Json<GuestCreated>), ApiError> {
    let request: NewGuest = json(&body)?;
    let identity = Identity {
        id: IdentityId::random(),
        name: validate_name(&request.name)?,
    };
    state.guests_per_ip.take(ip).await?;
    let token = new_token()?;
    state
        .store
        .create_identity(&identity, &token_hash(&token), Some(&ip.hashed()))
        .await
        .map_err(|error| name_error(error, &identity.name))?;
    Ok((
        StatusCode::CREATED,
        Json(GuestCreated {
            id: identity.id,
            name: identity.name,
            token,
        }),
    ))
}

/// Who the bearer token belongs to.
#[utoipa::path(
    get, path = "/api/me", tag = "players", security(("bearer" = [])),
    responses(
        (status = 200, description = "the bearer's identity", body = Me),
        (status = 401, description = "`unauthorized`: a valid bearer token is required", body = ErrorBody)
    )
)]
pub async fn me(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<Me>, ApiError> {
    let identity = state.required_identity(&headers).await?;
    Ok(Json(me_of(&state, identity.id).await?))
}

/// Renames the bearer. Names are unique case-insensitively; changing only the case of one's own
/// name is allowed. Rooms already open show the new name once they next load the seat.
#[utoipa::path(
    patch, path = "/api/me", tag = "players", request_body = Rename, security(("bearer" = [])),
    responses(
        (status = 200, description = "renamed", body = Me),
        (status = 400, description = "`invalid_request` and the other codes of a refused request", body = ErrorBody),
        (status = 401, description = "`unauthorized`: a valid bearer token is required", body = ErrorBody),
        (status = 409, description = "`name_taken`", body = ErrorBody)
    )
)]
pub async fn rename(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Me>, ApiError> {
    let identity = state.required_identity(&headers).await?;
    let request: Rename = json(&body)?;
    let name = validate_name(&request.name)?;
    state
        .store
        .rename_identity(identity.id, &name)
        .await
        .map_err(|error| name_error(error, &name))?;
    Ok(Json(me_of(&state, identity.id).await?))
}

/// Makes a new recovery code for the bearer (shown once; any earlier code stops working).
#[utoipa::path(
    post, path = "/api/me/recovery", tag = "players", security(("bearer" = [])),
    responses(
        (status = 201, description = "a new recovery code, replacing any earlier one (shown once)", body = RecoveryCode),
        (status = 401, description = "`unauthorized`: a valid bearer token is required", body = ErrorBody)
    )
)]
pub async fn new_recovery(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<RecoveryCode>), ApiError> {
    let identity = state.required_identity(&headers).await?;
    let code = new_recovery_code()?;
    let hash = recovery_hash(&code).ok_or_else(|| ApiError::internal("a fresh code is invalid"))?;
    let at = now_ms();
    state.store.set_recovery(identity.id, &hash, at).await?;
    Ok((
        StatusCode::CREATED,
        Json(RecoveryCode {
            code,
            created_at: rfc3339(at),
        }),
    ))
}

/// Takes an identity onto this device: a recovery code buys a new token for it (the identity's
/// other devices keep theirs).
#[utoipa::path(
    post, path = "/api/recover", tag = "players", request_body = Recover,
    responses(
        (status = 200, description = "a new bearer token for the identity", body = GuestCreated),
        (status = 400, description = "`invalid_request` and the other codes of a refused request", body = ErrorBody),
        (status = 401, description = "`invalid_recovery_code`", body = ErrorBody)
    )
)]
pub async fn recover(
    State(state): State<AppState>,
    body: Bytes,
) -> Result<Json<GuestCreated>, ApiError> {
    let request: Recover = json(&body)?;
    let refused = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            codes::INVALID_RECOVERY_CODE,
            "no identity has this recovery code (a newer code replaces an older one)",
        )
    };
    let hash = recovery_hash(&request.code).ok_or_else(refused)?;
    let identity = state
        .store
        .identity_by_recovery_hash(&hash)
        .await?
        .ok_or_else(refused)?;
    let token = new_token()?;
    state
        .store
        .add_token(identity.id, &token_hash(&token))
        .await?;
    Ok(Json(GuestCreated {
        id: identity.id,
        name: identity.name,
        token,
    }))
}

async fn me_of(state: &AppState, id: IdentityId) -> Result<Me, ApiError> {
    let record = state
        .store
        .identity(id)
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    Ok(Me {
        id: record.identity.id,
        name: record.identity.name,
        recovery_created_at: record.recovery_created_at.map(rfc3339),
    })
}

/// A store error on writing a name: a duplicate is the user's `name_taken`.
fn name_error(error: sqlx::Error, name: &str) -> ApiError {
    if is_unique_violation(&error) {
        ApiError::conflict(
            codes::NAME_TAKEN,
            format!("the name {name:?} is taken (names are unique whatever their case)"),
        )
    } else {
        ApiError::from(error)
    }
}
