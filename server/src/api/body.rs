//! Request parsing that answers in the API's own error format (`invalid_request`, 400) rather
//! than axum's plain-text rejections: JSON bodies, path ids, and the query of a paginated list
//! (its `limit`, its `before` cursor, a `ruleset` filter).

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

/// A paginated list's `limit`: `default` when absent, else a number from 1 to `max`.
pub fn page_limit(limit: Option<&str>, default: u32, max: u32) -> Result<u32, ApiError> {
    let Some(text) = limit else {
        return Ok(default);
    };
    text.parse()
        .ok()
        .filter(|limit| (1..=max).contains(limit))
        .ok_or_else(|| invalid(format!("limit is a number from 1 to {max}")))
}

/// A paginated list's `before` cursor (`<time>.<id>`, the `next` of the previous page), its id
/// checked as a `T`.
pub fn page_cursor<T: std::str::FromStr + ToString>(text: &str) -> Result<(i64, String), ApiError> {
    let refused = || invalid("before is the `next` value of a previous page".into());
    let (time, id) = text.split_once('.').ok_or_else(refused)?;
    let time: i64 = time.parse().map_err(|_| refused())?;
    let id: T = id.parse().map_err(|_| refused())?;
    Ok((time, id.to_string()))
}

/// A `ruleset` filter of a list: none when absent or empty.
pub fn ruleset_filter(ruleset: Option<String>) -> Result<Option<RulesetId>, ApiError> {
    ruleset
        .filter(|r| !r.is_empty())
        .map(|r| r.parse::<RulesetId>().map_err(|e| invalid(e.to_string())))
        .transpose()
}

fn invalid(message: String) -> ApiError {
    ApiError::bad_request(codes::INVALID_REQUEST, message)
}
