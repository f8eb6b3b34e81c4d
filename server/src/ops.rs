//! The operator's side of the server: `GET /readyz` (the database answered its last ping, the
//! writer is not stuck), `GET /metrics` (OpenMetrics text), both answered at once from what is in
//! memory (`database_health.rs`), and the middleware that gives every HTTP request a
//! log span and counts its answer. docs/OPERATIONS.md describes them.

use axum::Json;
use axum::extract::{MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tracing::Instrument;

use warroom_protocol::{ErrorBody, Health, codes};

use crate::error::ApiError;
use crate::metrics::{self, Sampled, render};
use crate::state::AppState;

/// `GET /readyz`: 200 when the database answers and the writer is not stuck, else
/// `503 unavailable` saying which (a load balancer stops sending players here meanwhile).
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "ready: the database answers and the writer is not stuck", body = Health),
        (status = 503, description = "`unavailable`: the database does not answer, or a batch of appends is stuck", body = ErrorBody)
    )
)]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    // What the database watch saw at its last ping (every second): answered at once, also
    // while the database does not answer.
    let timeout = state.limits.database_timeout();
    let database = state.database.problem().map_or(Ok(()), Err);
    let writer = state.writer_health.check(timeout);
    match (database, writer) {
        (Ok(()), Ok(())) => Ok(Json(Health {
            status: "ready".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        })),
        (database, writer) => {
            let mut problems = Vec::new();
            if let Err(problem) = database {
                problems.push(format!("database: {problem}"));
            }
            if let Err(problem) = writer {
                problems.push(format!("writer: {problem}"));
            }
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::UNAVAILABLE,
                format!("not ready: {}", problems.join("; ")),
            ))
        }
    }
}

/// `GET /metrics`.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "the metrics in the OpenMetrics text format (docs/OPERATIONS.md)", content_type = "application/openmetrics-text"))
)]
pub async fn metrics(State(state): State<AppState>) -> Response {
    let sampled = Sampled {
        rooms_in_memory: state.rooms.in_memory(),
        room_evictions: state.rooms.evictions(),
        rooms_by_state: state.database.rooms_by_state(),
        database_up: !state.database.is_down(),
        leases_held: state.rooms.leasing().map_or(0, |leasing| leasing.count()),
    };
    (
        [(CONTENT_TYPE, metrics::CONTENT_TYPE)],
        render(&state.metrics, &sampled),
    )
        .into_response()
}

/// Runs each request inside a span naming its method and route (the route pattern, so ids do
/// not make every span name unique), and counts its answer by status.
pub async fn observe_request(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let span = tracing::info_span!(
        "http",
        method = %request.method(),
        route = %route,
        path = %request.uri().path(),
    );
    let response = next.run(request).instrument(span.clone()).await;
    let status = response.status();
    state.metrics.http_responses.inc(status.as_str());
    span.in_scope(|| {
        if status.is_server_error() {
            tracing::warn!(status = status.as_u16(), "answered");
        } else {
            tracing::debug!(status = status.as_u16(), "answered");
        }
    });
    response
}
