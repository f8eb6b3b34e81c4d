//! The error contract on every HTTP answer: whatever refuses a request (a handler, an axum
//! extractor, the router's 404 and 405, the body limits), the client gets `{"code", "message"}`
//! with a fitting status. Handlers already answer with [`ApiError`]; this middleware turns every
//! other error answer (plain-text rejections, empty bodies) into the same shape, keeping its
//! status and headers (`Allow` on a 405).

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use warroom_protocol::codes;

use crate::error::ApiError;

/// Longest rejection text kept as the message.
const MAX_MESSAGE_BYTES: usize = 1024;

/// The stable code of an error answer with this status and no code of its own.
pub fn code_for(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => codes::NOT_FOUND,
        StatusCode::METHOD_NOT_ALLOWED => codes::METHOD_NOT_ALLOWED,
        StatusCode::REQUEST_TIMEOUT => codes::REQUEST_TIMEOUT,
        StatusCode::PAYLOAD_TOO_LARGE => codes::BODY_TOO_LARGE,
        StatusCode::TOO_MANY_REQUESTS => codes::RATE_LIMITED,
        StatusCode::UNAUTHORIZED => codes::UNAUTHORIZED,
        StatusCode::SERVICE_UNAVAILABLE => codes::UNAVAILABLE,
        status if status.is_server_error() => codes::INTERNAL,
        _ => codes::INVALID_REQUEST,
    }
}

/// The message of an error answer with this status and no text of its own.
fn default_message(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "no such route",
        StatusCode::METHOD_NOT_ALLOWED => "this route does not take this method (see Allow)",
        StatusCode::REQUEST_TIMEOUT => "the request was not sent in time",
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large",
        StatusCode::TOO_MANY_REQUESTS => "too many requests: slow down",
        StatusCode::SERVICE_UNAVAILABLE => "the server cannot do this now, try again",
        status if status.is_server_error() => "the server failed to do this",
        _ => "the request is not valid",
    }
}

/// The router's answer to a method a route does not take.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        codes::METHOD_NOT_ALLOWED,
        default_message(StatusCode::METHOD_NOT_ALLOWED),
    )
}

/// The router's answer to a path no route serves.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::NOT_FOUND,
        default_message(StatusCode::NOT_FOUND),
    )
}

/// Rewrites every error answer that is not JSON into `{"code", "message"}`.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = to_bytes(body, MAX_MESSAGE_BYTES)
        .await
        .ok()
        .and_then(|bytes| String::from_utf8(bytes.to_vec()).ok())
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| default_message(status).to_owned());
    let error = ApiError::new(status, code_for(status), text).into_response();
    let (error_parts, error_body) = error.into_parts();
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    for (name, value) in &error_parts.headers {
        parts.headers.insert(name, value.clone());
    }
    Response::from_parts(parts, Body::new(error_body))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value: &HeaderValue| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_status_has_a_code() {
        assert_eq!(
            code_for(StatusCode::METHOD_NOT_ALLOWED),
            "method_not_allowed"
        );
        assert_eq!(code_for(StatusCode::PAYLOAD_TOO_LARGE), "body_too_large");
        assert_eq!(code_for(StatusCode::BAD_REQUEST), "invalid_request");
        assert_eq!(code_for(StatusCode::UPGRADE_REQUIRED), "invalid_request");
        assert_eq!(code_for(StatusCode::BAD_GATEWAY), "internal");
    }
}
