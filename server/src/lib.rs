//! The warroom game server: an axum application whose rooms run as tokio tasks.
//!
//! [`run`] connects to the database, rebuilds every unfinished match, and serves on a listener
//! until a shutdown signal; then it stops accepting, closes every socket with a reason, lets each
//! room finish the command in hand, and flushes every pending append before returning. Tests bind
//! `127.0.0.1:0` and drive a real server through it.

pub mod api;
pub mod batching;
pub mod bounded;
pub mod cluster;
pub mod config;
pub mod contract;
pub mod database_health;
pub mod error;
pub mod identity;
pub mod logging;
pub mod metrics;
pub mod mutes;
pub mod openapi;
pub mod ops;
pub mod per_ip;
pub mod ratings;
pub mod request_body;
pub mod room;
pub mod serve;
pub mod state;
pub mod store;
pub mod verify;
pub mod web_client;
pub mod ws;

pub use warroom_room::{bots, runner};

use std::future::Future;
use std::sync::Arc;

use axum::{Json, Router};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use warroom_protocol::Health;

use crate::cluster::node::ClusterNode;
use crate::cluster::relay::{RELAY_QUEUE, Relays};
use crate::config::Config;
use crate::metrics::Metrics;
use crate::room::Rooms;
use crate::room::leasing::Leasing;
use crate::state::AppState;
use crate::store::writer::Writer;
use crate::store::{SessionLimits, Store};

/// Every route but the web client's files, each with its OpenAPI description.
fn described_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(healthz))
        .routes(routes!(ops::readyz))
        .routes(routes!(ws::upgrade))
        .routes(routes!(ops::metrics))
        .routes(routes!(openapi::document))
        .merge(api::routes())
}

/// The OpenAPI document of [`app`] (served at `/api/openapi.json`).
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    let mut document = described_routes().split_for_parts().1;
    openapi::add_answers_of_every_route(&mut document);
    document
}

/// The HTTP application over shared state.
pub fn app(state: AppState) -> Router {
    let (described, _) = described_routes().split_for_parts();
    described
        .merge(web_client::routes())
        .method_not_allowed_fallback(contract::method_not_allowed)
        .fallback(contract::not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            request_body::read_within_limits,
        ))
        .layer(axum::middleware::from_fn(contract::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            ops::observe_request,
        ))
        .with_state(state)
}

/// `GET /healthz`.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses((status = 200, description = "the process serves", body = Health))
)]
async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// Serves on `listener` with `config` until `shutdown` completes, then shuts down gracefully.
pub async fn run(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let url = config.database_url();
    if config.cluster.enabled() && !url.starts_with("postgres") {
        anyhow::bail!("--nats-url (cluster mode) needs a PostgreSQL --database-url");
    }
    if config.database_url.is_none() {
        std::fs::create_dir_all(&config.data_dir)?;
    }
    // A cluster node's connections carry time limits, so that a frozen node cannot hold the
    // locks of its transaction past its leases (docs/SCALING.md).
    let limits = config
        .cluster
        .enabled()
        .then(|| SessionLimits::for_lease(config.cluster.lease()));
    let store = Store::connect_with(&url, config.limits.database_timeout(), limits)
        .await?
        .with_rating_policy(config.ratings.policy());
    let metrics = Arc::new(Metrics::default());
    let stop_writer = CancellationToken::new();
    let (writer, writer_task) = Writer::spawn(
        store.clone(),
        config.limits.max_batch,
        match store.dialect() {
            store::Dialect::Sqlite => 1,
            store::Dialect::Postgres => config.limits.writer_lanes,
        },
        config.limits.database_timeout(),
        metrics.clone(),
        stop_writer.clone(),
    );
    let writer_health = writer.health();
    let mut rooms = Rooms::new(store.clone(), writer, config.limits.clone());
    let mut nats = None;
    let leasing = match &config.cluster.nats_url {
        None => None,
        Some(url) => {
            let node = config
                .cluster
                .node_id
                .clone()
                .unwrap_or_else(cluster::random_node_id);
            if !cluster::wire::valid_node_id(&node) {
                anyhow::bail!("--node-id is 1 to 64 letters, digits, '-' or '_'");
            }
            let reconnects = metrics.clone();
            let client = ClusterNode::connect(url, &node, &config.cluster.nats_auth, move || {
                reconnects.cluster_nats_reconnects.inc();
            })
            .await?;
            let leasing = Leasing::new(store.clone(), node.into(), config.cluster.lease());
            leasing.renew().await?;
            let relays = Relays::new(client.clone(), leasing.node.clone(), RELAY_QUEUE);
            rooms = rooms
                .with_leasing(leasing.clone())
                .with_relays(relays.clone());
            nats = Some((client, relays));
            Some(leasing)
        }
    };
    let rooms = Arc::new(rooms);
    let stop_leases = CancellationToken::new();
    let cluster = match (nats, &leasing) {
        (Some((client, relays)), Some(leasing)) => {
            tokio::spawn(leasing.clone().renew_until(stop_leases.clone()));
            let node = ClusterNode::start(
                client,
                leasing,
                rooms.clone(),
                relays,
                store.clone(),
                config.limits.clone(),
                metrics.clone(),
            )
            .await?;
            tracing::info!(node = %leasing.node, "cluster node up");
            Some(node)
        }
        _ => None,
    };
    let rebuilt = rooms.load_unfinished().await?;
    tracing::info!("rebuilt {rebuilt} unfinished rooms");
    let stop = CancellationToken::new();
    let state = AppState::new(
        store.clone(),
        rooms.clone(),
        config.limits.clone(),
        stop.clone(),
        metrics,
        writer_health,
    )
    .with_cluster(cluster.clone())
    .with_matchmaking(config.ratings.window());
    let database = state.database.clone();
    let watch_store = store.clone();
    let database_timeout = config.limits.database_timeout();
    let stop_watch = CancellationToken::new();
    let watching = stop_watch.clone();
    let watcher = tokio::spawn(async move {
        database
            .watch(watch_store, database_timeout, watching)
            .await;
    });
    let signal = stop.clone();
    tokio::spawn(async move {
        shutdown.await;
        signal.cancel();
    });
    serve::serve(
        listener,
        app(state),
        config.limits.header_read_timeout,
        stop.clone(),
    )
    .await;
    // Sockets close themselves on `stop`; rooms finish the command in hand (an action being
    // stored is acknowledged), then the writer commits whatever is still queued. In cluster
    // mode the node first stops taking rooms, and each room hands its lease over as it stops
    // (its followers on other nodes join again where it is served next).
    if let Some(leasing) = &leasing {
        leasing.draining.cancel();
        let _ = leasing.renew().await;
    }
    rooms.stop_all().await;
    stop_watch.cancel();
    let _ = watcher.await;
    if let (Some(cluster), Some(leasing)) = (&cluster, &leasing) {
        cluster.shutdown().await;
        stop_leases.cancel();
        let _ = store.node_gone(&leasing.node).await;
    }
    stop_writer.cancel();
    let _ = writer_task.await;
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}
