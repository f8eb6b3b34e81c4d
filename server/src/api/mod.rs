//! The REST API (JSON): identity, rulesets, the lobby's rooms, finished matches and replays.

mod body;
mod identity;
mod matches;
mod rooms;

use axum::Router;
use axum::routing::{get, post};

use crate::state::AppState;

/// The `/api` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/guests", post(identity::create_guest))
        .route("/api/me", get(identity::me))
        .route("/api/rulesets", get(rooms::rulesets))
        .route("/api/rooms", post(rooms::create).get(rooms::list))
        .route("/api/rooms/{id}", get(rooms::show))
        .route("/api/matches", get(matches::list))
        .route("/api/matches/{id}", get(matches::show))
        .route("/api/matches/{id}/replay", get(matches::replay))
}
