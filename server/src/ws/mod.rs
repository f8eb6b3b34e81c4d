//! The WebSocket endpoint `/ws`: one task per connection, split into a reader (client messages,
//! checked against the limits, turned into room commands) and a writer (drains the bounded
//! outgoing queue that rooms fill). A slow client whose queue overflows is disconnected.

mod connection;
mod rate;
mod writer;

use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};
use axum::response::{IntoResponse, Response};
use warroom_protocol::{ErrorBody, codes};

use crate::error::ApiError;
use crate::per_ip::ClientIp;
use crate::state::AppState;

/// Frames up to this many times the message limit are read and refused with `frame_too_large`;
/// beyond that the socket library closes the connection itself.
const HARD_LIMIT_FACTOR: usize = 16;

/// The socket's read buffer. tungstenite's default (128 KiB) is allocated for every connection
/// and zero-filled before every read: 10,000 idle connections cost 1.3 GB of it. Client
/// messages are small (an action is about 100 bytes, a hello with its token about 80); a longer
/// one is read in several chunks. 4 KiB → 1 KiB took 10,000 idle sockets from 160 to 153 MiB.
const READ_BUFFER_BYTES: usize = 1024;

/// `GET /ws`.
#[utoipa::path(
    get,
    path = "/ws",
    tag = "operations",
    responses((status = 101, description = "switched to the WebSocket protocol (docs/PROTOCOL.md)"), (status = 400, description = "`invalid_request`: not a WebSocket upgrade request", body = ErrorBody), (status = 403, description = "`forbidden_origin`: a page of a site not allowed (`--allowed-origins`)", body = ErrorBody), (status = 429, description = "`too_many_connections`: this address holds `--max-sockets-per-ip` sockets", body = ErrorBody))
)]
pub async fn upgrade(
    State(state): State<AppState>,
    ip: ClientIp,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => {
            return ApiError::bad_request(
                codes::INVALID_REQUEST,
                format!("/ws speaks WebSocket only: {}", rejection.body_text()),
            )
            .into_response();
        }
    };
    if !origin_allowed(&headers, &state.limits.allowed_origins) {
        return ApiError::forbidden(
            codes::FORBIDDEN_ORIGIN,
            "this server does not accept sockets from pages of that site",
        )
        .into_response();
    }
    let slot = match state.sockets_per_ip.open(ip) {
        Ok(slot) => slot,
        Err(error) => return error.into_response(),
    };
    let hard_limit = state
        .limits
        .max_frame_bytes
        .saturating_mul(HARD_LIMIT_FACTOR);
    upgrade
        .read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(hard_limit)
        .max_frame_size(hard_limit)
        .on_upgrade(move |socket| async move {
            connection::serve(socket, state).await;
            drop(slot);
        })
}

/// Whether a page from the request's `Origin` may open a socket: requests without one (not
/// from a browser) may; otherwise the origin must be listed (`*`: any), or with no list name
/// the host the request is addressed to.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    if !allowed.is_empty() {
        return allowed
            .iter()
            .map(|entry| entry.trim().trim_end_matches('/'))
            .any(|entry| entry == "*" || entry.eq_ignore_ascii_case(origin));
    }
    let Some((_, authority)) = origin.split_once("://") else {
        return false; // `null` (a sandboxed page, a file) and the like
    };
    headers
        .get(HOST)
        .and_then(|host| host.to_str().ok())
        .is_some_and(|host| host.trim().eq_ignore_ascii_case(authority))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn same_host_by_default_or_the_listed_origins() {
        let none: &[&str] = &[];
        let listed: &[&str] = &["https://play.example"];
        // (origin, host, allowed origins, allowed)
        let cases = [
            (None, "a.example:8080", none, true),
            (Some("http://a.example:8080"), "a.example:8080", none, true),
            (Some("https://A.example"), "a.example", none, true),
            (Some("https://evil.example"), "a.example", none, false),
            (Some("null"), "a.example", none, false),
            (Some("https://play.example"), "backend:8080", listed, true),
            (Some("https://a.example"), "a.example", listed, false),
            (Some("https://any.example"), "a.example", &["*"], true),
        ];
        for (origin, host, allowed, expected) in cases {
            let allowed: Vec<String> = allowed.iter().map(|o| (*o).to_owned()).collect();
            assert_eq!(
                origin_allowed(&headers(origin, host), &allowed),
                expected,
                "{origin:?} to {host} with {allowed:?}"
            );
        }
    }
}
