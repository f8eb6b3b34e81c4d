//! Request parsing that answers in the API's own error format (`invalid_request`, 400) rather
//! than axum's plain-text rejections.

use axum::body::Bytes;
use serde::de::DeserializeOwned;
use serde_json::Value;
use warroom_engine::RulesetId;
use warroom_protocol::codes;

use crate::error::ApiError;

/// Parses a JSON request body. A `ruleset` this build does not offer is `unknown_ruleset`
/// rather than a generic `invalid_request`.
pub fn json<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    let invalid = |error: serde_json::Error| {
        ApiError::bad_request(
            codes::INVALID_REQUEST,
            format!("the body is not valid: {error}"),
        )
    };
    let value: Value = serde_json::from_slice(body).map_err(invalid)?;
    if let Some(ruleset) = value.get("ruleset").and_then(Value::as_str)
        && ruleset.parse::<RulesetId>().is_err()
    {
        return Err(ApiError::bad_request(
            codes::UNKNOWN_RULESET,
            format!("this server does not offer the ruleset {ruleset:?}"),
        ));
    }
    serde_json::from_value(value).map_err(invalid)
}

/// Parses an id from the path.
pub fn path_id<T: std::str::FromStr>(
    text: &str,
    not_found: fn() -> ApiError,
) -> Result<T, ApiError> {
    // An id that cannot exist is simply not found.
    text.parse().map_err(|_| not_found())
}
