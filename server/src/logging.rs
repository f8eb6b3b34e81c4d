//! Where the logs go and how they read: text by default (colours only when stderr is a
//! terminal, so files and journald get no escape codes), or one JSON object per line
//! (`--log-format json`) for a log collector. `RUST_LOG` filters either (default `info`).
//!
//! Spans carry the context: `http` (method, route, path) around every request, `conn` (its id,
//! then the identity after `hello`) around every WebSocket connection, `msg` (type, room, seat)
//! around each of its messages (but an action for a room served on this node, handed over at
//! once: what it causes is logged in the room's span), and `room` (id) around each room task; a
//! JSON line lists the spans it was written in.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The log line format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Readable lines.
    #[default]
    Text,
    /// One JSON object per line, with the current span and the span list.
    Json,
}

/// Installs the global subscriber, writing to stderr (stdout carries the `listening` line).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .init(),
    }
}
