//! The WebSocket endpoint `/ws`: one task per connection, split into a reader (client messages,
//! checked against the limits, turned into room commands) and a writer (drains the bounded
//! outgoing queue that rooms fill). A slow client whose queue overflows is disconnected.

mod connection;
mod rate;

use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::response::Response;

use crate::state::AppState;

/// Frames up to this many times the message limit are read and refused with `frame_too_large`;
/// beyond that the socket library closes the connection itself.
const HARD_LIMIT_FACTOR: usize = 16;

/// The socket's read buffer. tungstenite's default (128 KiB) is allocated for every connection
/// and zero-filled before every read: 10,000 idle connections cost 1.3 GB of it. Client
/// messages are small (an action is about 100 bytes); a longer one grows the buffer as needed.
const READ_BUFFER_BYTES: usize = 4 * 1024;

/// `GET /ws`.
#[utoipa::path(
    get,
    path = "/ws",
    tag = "operations",
    responses(
        (status = 101, description = "switched to the WebSocket protocol (docs/PROTOCOL.md)"),
        (status = 400, description = "not a WebSocket upgrade request")
    )
)]
pub async fn upgrade(State(state): State<AppState>, upgrade: WebSocketUpgrade) -> Response {
    let hard_limit = state
        .limits
        .max_frame_bytes
        .saturating_mul(HARD_LIMIT_FACTOR);
    upgrade
        .read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(hard_limit)
        .max_frame_size(hard_limit)
        .on_upgrade(move |socket| connection::serve(socket, state))
}
