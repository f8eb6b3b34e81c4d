//! Request bodies are read whole, within limits, before any handler sees them: at most
//! `--max-body-bytes` (else `413 body_too_large`, at once when the declared length is already
//! over), and within `--body-read-timeout` (else `408 request_timeout`), so a client that sends
//! its body slowly or never holds nothing for long (nor the shutdown: a body still arriving
//! then is answered `503 shutting_down`).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use warroom_protocol::codes;

use crate::error::ApiError;
use crate::state::AppState;

/// Reads the request's body within the limits, then hands the request on.
pub async fn read_within_limits(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let max = state.limits.max_body_bytes;
    let timeout = state.limits.body_read_timeout;
    let (parts, body) = request.into_parts();
    if http_body::Body::is_end_stream(&body) {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max as u64) {
        return too_large(max).into_response();
    }
    let read = tokio::select! {
        read = tokio::time::timeout(timeout, Limited::new(body, max).collect()) => read,
        // A body still arriving at shutdown is not waited for.
        () = state.shutdown.cancelled() => {
            return ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::SHUTTING_DOWN,
                "the server is shutting down",
            )
            .into_response();
        }
    };
    match read {
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            codes::REQUEST_TIMEOUT,
            format!(
                "the request body was not received within {}",
                humantime::format_duration(timeout)
            ),
        )
        .into_response(),
        Ok(Err(error)) if error.downcast_ref::<LengthLimitError>().is_some() => {
            too_large(max).into_response()
        }
        Ok(Err(error)) => ApiError::bad_request(
            codes::INVALID_REQUEST,
            format!("the request body could not be read: {error}"),
        )
        .into_response(),
        Ok(Ok(collected)) => {
            let body = Body::from(collected.to_bytes());
            next.run(Request::from_parts(parts, body)).await
        }
    }
}

fn too_large(max: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        codes::BODY_TOO_LARGE,
        format!("a request body has at most {max} bytes"),
    )
}
