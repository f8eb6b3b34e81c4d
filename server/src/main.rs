//! The `warroom` binary: parses its configuration and serves until SIGTERM or Ctrl-C.

use clap::Parser;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// Command-line and environment configuration.
#[derive(Debug, Parser)]
#[command(
    name = "warroom",
    version,
    about = "An authoritative game server for turn-based territory games"
)]
struct Config {
    /// Address to listen on.
    #[arg(long, env = "WARROOM_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let config = Config::parse();
    let listener = TcpListener::bind(&config.bind).await?;
    tracing::info!("warroom listening on http://{}", listener.local_addr()?);
    warroom_server::run(listener, shutdown_signal()).await?;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
