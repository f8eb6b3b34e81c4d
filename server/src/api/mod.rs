//! The REST API (JSON): identity, players' pages, rulesets, the lobby's rooms and quick play,
//! matches and replays.

mod body;
mod identity;
mod matches;
mod players;
mod quick_play;
mod rooms;

use axum::Router;
use axum::routing::{get, post};

use crate::state::AppState;

/// The `/api` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/guests", post(identity::create_guest))
        .route("/api/me", get(identity::me).patch(identity::rename))
        .route("/api/me/recovery", post(identity::new_recovery))
        .route("/api/recover", post(identity::recover))
        .route("/api/players", get(players::find))
        .route("/api/players/{id}", get(players::show))
        .route("/api/players/{id}/matches", get(players::matches))
        .route("/api/quick-play", post(quick_play::quick_play))
        .route("/api/rulesets", get(rooms::rulesets))
        .route("/api/rooms", post(rooms::create).get(rooms::list))
        .route("/api/rooms/{id}", get(rooms::show))
        .route("/api/matches", get(matches::list))
        .route("/api/matches/{id}", get(matches::show))
        .route("/api/matches/{id}/replay", get(matches::replay))
}
