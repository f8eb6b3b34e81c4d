//! The baseline: a minimal tokio-tungstenite WebSocket echo server (every text or binary frame
//! is sent back as it came; default library settings), so load figures can be read as ratios to
//! the bare WebSocket stack on the same machine.
//!
//! Run: `echo_server --bind 127.0.0.1:0`; prints `echo listening on ws://<addr>`.

use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut bind = "127.0.0.1:9001".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bind" => bind = args.next().unwrap_or(bind),
            other => anyhow::bail!("unknown argument {other}; usage: echo_server [--bind ADDR]"),
        }
    }
    let listener = TcpListener::bind(&bind).await?;
    println!("echo listening on ws://{}", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        tokio::spawn(echo(stream));
    }
}

/// Echoes one connection until it closes.
async fn echo(stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    while let Some(Ok(message)) = socket.next().await {
        if message.is_close() {
            return;
        }
        if (message.is_text() || message.is_binary()) && socket.send(message).await.is_err() {
            return;
        }
    }
}
