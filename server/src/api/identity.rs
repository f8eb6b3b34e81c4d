//! `POST /api/guests` and `GET /api/me`.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use warroom_protocol::{GuestCreated, Identity, IdentityId, NewGuest};

use super::body::json;
use crate::error::ApiError;
use crate::identity::{new_token, token_hash, validate_name};
use crate::state::AppState;

/// Creates a guest identity and returns its token (the only time it is shown).
pub async fn create_guest(
    State(state): State<AppState>,
    body: Bytes,
) -> Result<(StatusCode, Json<GuestCreated>), ApiError> {
    let request: NewGuest = json(&body)?;
    let identity = Identity {
        id: IdentityId::random(),
        name: validate_name(&request.name)?,
    };
    let token = new_token()?;
    state
        .store
        .create_identity(&identity, &token_hash(&token))
        .await?;
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
pub async fn me(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Identity>, ApiError> {
    Ok(Json(state.required_identity(&headers).await?))
}
