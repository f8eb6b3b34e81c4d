//! The warroom wire protocol: the one place where wire formats are decided.
//!
//! Messages are named by direction (`ClientMsg` from the browser, `ServerMsg` to it). Every error
//! a user can cause is sent as [`ErrorBody`]: a stable snake_case `code` and a readable `message`.

use serde::{Deserialize, Serialize};

/// An error as every client sees it, on REST and on the WebSocket alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// Stable machine code, e.g. `not_your_turn`.
    pub code: String,
    /// A readable explanation.
    pub message: String,
}

/// The body of `GET /healthz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// `ok` when the server is serving.
    pub status: String,
    /// The server's version.
    pub version: String,
}
