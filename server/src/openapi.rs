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
        (name = "ratings", description = "leaderboards and players' ratings (docs/RATINGS.md)"),
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

/// Adds to every operation the answers the layers around the handlers may give it, which its
/// handler does not describe: `413 body_too_large` and `408 request_timeout` (every request's
/// body is read within the limits first, `request_body.rs`), and for a path with parameters
/// `400 invalid_request` (a parameter that is not UTF-8, `contract.rs`). The e2e test
/// `contract::every_route_answers_wrong_methods_and_malformed_input_in_the_contract` checks
/// that every status a route answers is listed.
pub fn add_answers_of_every_route(document: &mut Document) {
    use utoipa::openapi::schema::Ref;
    use utoipa::openapi::{Content, RefOr, ResponseBuilder};
    let error = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    Content::new(Some(Ref::from_schema_name("ErrorBody"))),
                )
                .build(),
        )
    };
    for (path, item) in document.paths.paths.iter_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ];
        for operation in operations.into_iter().flatten() {
            let responses = &mut operation.responses.responses;
            responses
                .entry("413".into())
                .or_insert_with(|| error("`body_too_large`: the body is over `--max-body-bytes`"));
            responses.entry("408".into()).or_insert_with(|| {
                error("`request_timeout`: the body did not arrive within `--body-read-timeout`")
            });
            if path.contains('{') {
                responses.entry("400".into()).or_insert_with(|| {
                    error("`invalid_request`: a path parameter that is not UTF-8")
                });
            }
        }
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
