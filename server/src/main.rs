//! The `warroom` binary: serves (the default) until SIGTERM or Ctrl-C, or verifies a replay.

use std::process::ExitCode;

use clap::Parser;
use tokio::net::TcpListener;
use warroom_server::config::{Cli, Command};

/// jemalloc, whose background threads give freed memory back to the system within seconds
/// (glibc's malloc kept a load's peak for good: issue 38, bench/memory_back.py).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    warroom_server::logging::init(cli.log_format);
    match cli.command {
        Some(Command::Verify { replay }) => verify(&replay),
        Some(Command::Serve) | None => match serve(cli.config) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("warroom: {error:#}");
                ExitCode::FAILURE
            }
        },
    }
}

fn verify(path: &std::path::Path) -> ExitCode {
    match warroom_server::verify::verify_file(path) {
        Ok(report) if report.ok() => {
            let checked = if report.boards {
                "every event, every step's board and the result match"
            } else {
                "every event and the result match (the replay has no boards to check)"
            };
            println!("ok: {} actions recomputed; {checked}", report.actions);
            ExitCode::SUCCESS
        }
        Ok(report) => {
            println!(
                "MISMATCH after {} actions: {}",
                report.actions,
                report.first_difference.unwrap_or_default()
            );
            ExitCode::FAILURE
        }
        Err(error) => {
            println!("cannot verify {}: {error:#}", path.display());
            ExitCode::FAILURE
        }
    }
}

fn serve(config: warroom_server::config::Config) -> anyhow::Result<()> {
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = config.worker_threads {
        runtime.worker_threads(threads.max(1));
    }
    runtime.enable_all().build()?.block_on(async {
        let listener = TcpListener::bind(&config.bind).await?;
        // Tests and scripts read this line to find the port when binding port 0.
        println!("warroom listening on http://{}", listener.local_addr()?);
        warroom_server::run(config, listener, shutdown_signal()).await
    })
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
