//! Request parsing that answers in the API's own error format (`invalid_request`, 400) rather
//! than axum's plain-text rejections.

use axum::body::Bytes;
use serde::de::DeserializeOwned;
use warroom_protocol::codes;

use crate::error::ApiError;

/// Parses a JSON request body.
pub fn json<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|error| {
        ApiError::bad_request(
            codes::INVALID_REQUEST,
            format!("the body is not valid: {error}"),
        )
    })
}

/// Parses an id from the path.
pub fn path_id<T: std::str::FromStr>(
    text: &str,
    not_found: fn() -> ApiError,
) -> Result<T, ApiError> {
    // An id that cannot exist is simply not found.
    text.parse().map_err(|_| not_found())
}
