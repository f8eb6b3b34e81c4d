//! The error every REST handler and room command returns: a stable code, an HTTP status and a
//! readable message, sent as `protocol::ErrorBody`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use warroom_protocol::{ErrorBody, ErrorParams, codes};
use warroom_room::{ErrorKind, RoomError};

/// A refused request. Rule errors keep the ruleset's own code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status for REST answers.
    pub status: StatusCode,
    /// Stable machine code.
    pub code: String,
    /// Readable explanation.
    pub message: String,
    /// The values the message speaks of (rule errors), for clients that word it themselves.
    pub params: Option<ErrorParams>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code: code.into(),
            message: message.into(),
            params: None,
        }
    }

    /// 400: the request itself is wrong.
    pub fn bad_request(code: impl Into<String>, message: impl Into<String>) -> Self {
        RoomError::bad_request(code, message).into()
    }

    /// 409: the request conflicts with the room's or match's current state.
    pub fn conflict(code: impl Into<String>, message: impl Into<String>) -> Self {
        RoomError::conflict(code, message).into()
    }

    /// 403: this identity may not do that.
    pub fn forbidden(code: impl Into<String>, message: impl Into<String>) -> Self {
        RoomError::forbidden(code, message).into()
    }

    /// 401: no valid identity.
    pub fn unauthorized() -> Self {
        RoomError::unauthorized().into()
    }

    /// 404 for a room.
    pub fn room_not_found() -> Self {
        RoomError::room_not_found().into()
    }

    /// 404 for a match.
    pub fn match_not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            codes::MATCH_NOT_FOUND,
            "there is no match with this id",
        )
    }

    /// 503: a queue is full; the client may retry.
    pub fn busy() -> Self {
        RoomError::busy().into()
    }

    /// 503: the database does not answer (or not in time); nothing was acknowledged, retry.
    pub fn unavailable(detail: impl std::fmt::Display) -> Self {
        RoomError::unavailable(detail).into()
    }

    /// 503: the room is served by another node now (its lease moved on): nothing was done here;
    /// join it again (with `last_seq`) to follow it where it is.
    pub fn room_moved() -> Self {
        RoomError::room_moved().into()
    }

    /// 500: something failed inside the server. The detail goes to the log, not to the client.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        RoomError::internal(detail).into()
    }

    /// The body clients see.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            params: self.params.clone(),
            ..ErrorBody::new(self.code.clone(), self.message.clone())
        }
    }
}

impl From<RoomError> for ApiError {
    fn from(error: RoomError) -> Self {
        let status = match error.kind {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::Gone => StatusCode::GONE,
            ErrorKind::TooMany => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError {
            status,
            code: error.code,
            message: error.message,
            params: error.params,
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        if is_outage(&error) {
            ApiError::unavailable(error)
        } else {
            ApiError::internal(error)
        }
    }
}

/// True for errors that say the database cannot be reached or used now (rather than that a
/// query is wrong): no connection in time, a broken one, or the server refusing work (SQLSTATE
/// classes 08 connection exception, 53 insufficient resources, 57 operator intervention).
pub fn is_outage(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| {
            ["08", "53", "57"]
                .iter()
                .any(|class| code.starts_with(class))
        }),
        _ => false,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}
