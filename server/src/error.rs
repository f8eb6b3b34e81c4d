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

    /// The same error carrying the values its message speaks of (none: unchanged).
    pub fn with_params(mut self, params: Vec<(&'static str, i64)>) -> Self {
        if !params.is_empty() {
            self.params = Some(
                params
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value))
                    .collect(),
            );
        }
        self
    }

    /// 400: the request itself is wrong.
    pub fn bad_request(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 409: the request conflicts with the room's or match's current state.
    pub fn conflict(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    /// 403: this identity may not do that.
    pub fn forbidden(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    /// 401: no valid identity.
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            codes::UNAUTHORIZED,
            "a valid bearer token is required",
        )
    }

    /// 404 for a room.
    pub fn room_not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            codes::ROOM_NOT_FOUND,
            "there is no room with this id",
        )
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
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::BUSY,
            "the server is busy, try again",
        )
    }

    /// 503: the database does not answer (or not in time); nothing was acknowledged, retry.
    pub fn unavailable(detail: impl std::fmt::Display) -> Self {
        tracing::warn!("unavailable: {detail}");
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::UNAVAILABLE,
            "the server cannot reach its database now; nothing was acknowledged, try again",
        )
    }

    /// 503: the room is served by another node now (its lease moved on): nothing was done here;
    /// join it again (with `last_seq`) to follow it where it is.
    pub fn room_moved() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::ROOM_MOVED,
            "this room is now served by another node; nothing was done: join it again",
        )
    }

    /// 500: something failed inside the server. The detail goes to the log, not to the client.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!("internal error: {detail}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            codes::INTERNAL,
            "the server failed to do this; nothing was changed",
        )
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
