//! The load generator: real REST + WebSocket clients playing the warroom server (or driving the
//! echo baseline), reporting throughput, latencies, errors and the server's CPU and memory.
//! See `bench/src/load/` and `bench/run.sh`.
//!
//! Run: `cargo run --release -p warroom-bench --bin load -- --help`

use clap::Parser;
use warroom_bench::load::{self, args::Args};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    load::run(Args::parse()).await
}
