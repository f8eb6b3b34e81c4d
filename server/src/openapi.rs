//! The OpenAPI 3.1 document of the HTTP API, served at `GET /api/openapi.json`. It is generated
//! from the handlers' `#[utoipa::path]` attributes and the protocol types' schemas (feature
//! `openapi` of `warroom-protocol`), and the router is built from the same handlers
//! (`utoipa_axum`), so a route cannot be served without being described. Only the web client's
//! embedded files (`web_client.rs`) are outside it.

use std::sync::OnceLock;

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use utoipa::openapi::OpenApi as Document;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The document's fixed part: what the API is, and how a bearer authenticates.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "warroom",
        description = "An authoritative game server for turn-based territory games. Every error \
                       is `{\"code\", \"message\"}` with a stable code; the WebSocket protocol \
                       (`/ws`) is described in docs/PROTOCOL.md."
    ),
    modifiers(&BearerToken),
    tags(
        (name = "players", description = "identities, names, recovery codes, players' pages"),
        (name = "rooms", description = "rulesets, the lobby's rooms, quick play"),
        (name = "matches", description = "matches and their replays"),
        (name = "operations", description = "health, metrics, this document, the socket")
    )
)]
pub struct ApiDoc;

/// The `bearer` security scheme: `Authorization: Bearer <token>` from `POST /api/guests`.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, document: &mut Document) {
        let components = document.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
    }
}

/// `GET /api/openapi.json`.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "operations",
    responses((status = 200, description = "this document (OpenAPI 3.1)", content_type = "application/json"))
)]
pub async fn document() -> impl IntoResponse {
    static JSON: OnceLock<String> = OnceLock::new();
    let json = JSON.get_or_init(|| {
        crate::openapi_document()
            .to_pretty_json()
            .unwrap_or_else(|error| {
                tracing::error!("cannot serialise the OpenAPI document: {error}");
                String::from("{}")
            })
    });
    ([(CONTENT_TYPE, "application/json")], json.as_str())
}
