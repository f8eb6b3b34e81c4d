//! How a node connects to NATS: its name, its credentials (user and password, an nkey seed or
//! a credentials file) and TLS, from `--nats-*` (`config.rs`, `NatsAuth`), and what it tells
//! of each reconnect.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use async_nats::{ConnectOptions, Event};

use crate::config::NatsAuth;

/// The connect options of node `node` with `auth`; `reconnected` is called on every connect
/// after the first.
pub async fn options(
    node: &str,
    auth: &NatsAuth,
    reconnected: impl Fn() + Send + Sync + 'static,
) -> anyhow::Result<ConnectOptions> {
    let mut options = match (&auth.nats_user, &auth.nats_password) {
        (Some(user), Some(password)) => {
            ConnectOptions::with_user_and_password(user.clone(), password.0.clone())
        }
        _ => ConnectOptions::new(),
    };
    if let Some(path) = &auth.nats_nkey_file {
        let seed = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the nkey seed file {}", path.display()))?;
        options = options.nkey(seed.trim().to_owned());
    }
    if let Some(path) = &auth.nats_creds_file {
        options = options
            .credentials_file(path)
            .await
            .with_context(|| format!("cannot read the NATS credentials {}", path.display()))?;
    }
    if auth.nats_tls || auth.nats_tls_ca.is_some() || auth.nats_tls_cert.is_some() {
        options = options.require_tls(true);
    }
    if let Some(ca) = &auth.nats_tls_ca {
        options = options.add_root_certificates(ca.clone());
    }
    if let (Some(cert), Some(key)) = (&auth.nats_tls_cert, &auth.nats_tls_key) {
        options = options.add_client_certificate(cert.clone(), key.clone());
    }
    let reconnected = Arc::new(reconnected);
    let connected_before = Arc::new(AtomicBool::new(false));
    Ok(options
        .name(format!("warroom {node}"))
        .event_callback(move |event| {
            let (reconnected, connected_before) = (reconnected.clone(), connected_before.clone());
            async move {
                match event {
                    Event::Connected => {
                        if connected_before.swap(true, Ordering::AcqRel) {
                            tracing::warn!("NATS: connected again");
                            reconnected();
                        }
                    }
                    Event::Disconnected => tracing::warn!("NATS: disconnected, reconnecting"),
                    other => tracing::info!("NATS: {other}"),
                }
            }
        }))
}
