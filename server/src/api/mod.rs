//! The REST API (JSON): identity, players' pages, rulesets, the lobby's rooms and quick play,
//! matches and replays, ratings.

mod body;
mod identity;
mod matches;
mod players;
mod quick_play;
pub mod ratings;
mod rooms;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

/// The `/api` routes, each with its OpenAPI description (`#[utoipa::path]` on its handler);
/// handlers of one path share a `routes!`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(identity::create_guest))
        .routes(routes!(identity::me, identity::rename))
        .routes(routes!(identity::new_recovery))
        .routes(routes!(identity::recover))
        .routes(routes!(players::find))
        .routes(routes!(players::show))
        .routes(routes!(players::matches))
        .routes(routes!(ratings::player_ratings))
        .routes(routes!(ratings::leaderboard))
        .routes(routes!(quick_play::quick_play))
        .routes(routes!(rooms::rulesets))
        .routes(routes!(rooms::create, rooms::list))
        .routes(routes!(rooms::show))
        .routes(routes!(matches::list))
        .routes(routes!(matches::show))
        .routes(routes!(matches::replay))
}
