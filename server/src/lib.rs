//! The warroom game server: an axum application whose rooms run as tokio tasks.
//!
//! [`app`] builds the router; [`run`] serves it on a listener until a shutdown signal, so tests
//! can bind `127.0.0.1:0` and drive a real server.

use std::future::Future;

use axum::{Json, Router, routing::get};
use tokio::net::TcpListener;
use warroom_protocol::Health;

pub mod web_client;

/// The HTTP application.
pub fn app() -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .merge(web_client::routes())
}

async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// Serves the application on `listener` until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, app())
        .with_graceful_shutdown(shutdown)
        .await
}
