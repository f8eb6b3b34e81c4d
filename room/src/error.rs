//! Why the room refused something: a stable code, a readable message, and what kind of
//! refusal it is. The server maps the kind to an HTTP status and the whole to the wire's
//! `{code, message}` at its edge; nothing here knows of HTTP.

use warroom_protocol::{ErrorBody, ErrorParams, codes};

/// What kind of refusal an error is (the edge picks its HTTP status from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request itself is wrong.
    BadRequest,
    /// No valid identity.
    Unauthorized,
    /// This identity may not do that.
    Forbidden,
    /// What it names does not exist.
    NotFound,
    /// It conflicts with the room's or match's current state.
    Conflict,
    /// It is gone for good (an expired room).
    Gone,
    /// Too many requests of one speaker.
    TooMany,
    /// Not now: a queue is full, the database does not answer, or the room moved; retry.
    Unavailable,
    /// Something failed inside the server.
    Internal,
}

/// A refusal of the room. Rule errors keep the ruleset's own code and values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct RoomError {
    /// What kind of refusal.
    pub kind: ErrorKind,
    /// Stable machine code.
    pub code: String,
    /// Readable explanation.
    pub message: String,
    /// The values the message speaks of (rule errors), for clients that word it themselves.
    pub params: Option<ErrorParams>,
}

impl RoomError {
    /// An error of this kind, code and message.
    pub fn new(kind: ErrorKind, code: impl Into<String>, message: impl Into<String>) -> Self {
        RoomError {
            kind,
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

    /// The request itself is wrong.
    pub fn bad_request(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadRequest, code, message)
    }

    /// It conflicts with the room's or match's current state.
    pub fn conflict(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Conflict, code, message)
    }

    /// This identity may not do that.
    pub fn forbidden(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Forbidden, code, message)
    }

    /// No valid identity.
    pub fn unauthorized() -> Self {
        Self::new(
            ErrorKind::Unauthorized,
            codes::UNAUTHORIZED,
            "a valid bearer token is required",
        )
    }

    /// The room is not there (its task stopped, or it never was).
    pub fn room_not_found() -> Self {
        Self::new(
            ErrorKind::NotFound,
            codes::ROOM_NOT_FOUND,
            "there is no room with this id",
        )
    }

    /// A queue is full; the client may retry.
    pub fn busy() -> Self {
        Self::new(
            ErrorKind::Unavailable,
            codes::BUSY,
            "the server is busy, try again",
        )
    }

    /// The database does not answer (or not in time); nothing was acknowledged, retry.
    pub fn unavailable(detail: impl std::fmt::Display) -> Self {
        tracing::warn!("unavailable: {detail}");
        Self::new(
            ErrorKind::Unavailable,
            codes::UNAVAILABLE,
            "the server cannot reach its database now; nothing was acknowledged, try again",
        )
    }

    /// The room is served by another node now (its lease moved on): nothing was done here;
    /// join it again (with `last_seq`) to follow it where it is.
    pub fn room_moved() -> Self {
        Self::new(
            ErrorKind::Unavailable,
            codes::ROOM_MOVED,
            "this room is now served by another node; nothing was done: join it again",
        )
    }

    /// Something failed inside the server. The detail goes to the log, not to the client.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!("internal error: {detail}");
        Self::new(
            ErrorKind::Internal,
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
