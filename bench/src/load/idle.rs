//! Idle connections: anonymous sockets that say `hello`, follow a waiting room as spectators
//! (`per_room` to a room) and then only read, so the server's memory per connection shows. For
//! the echo server they only connect.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures_util::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use super::play::Context;
use super::ws;

/// One idle connection, until aborted; `room` is `None` for the echo server.
pub async fn client(ctx: Arc<Context>, room: Option<String>) -> anyhow::Result<()> {
    let permit = ctx.setup.acquire().await?;
    let path = if room.is_some() { "/ws" } else { "/" };
    let mut socket = ws::connect(ctx.addr, path).await?;
    if let Some(room) = &room {
        ws::hello(&mut socket, None).await?;
        ws::send(&mut socket, &json!({"type": "join", "room": room})).await?;
    }
    drop(permit);
    ctx.ready.fetch_add(1, Ordering::SeqCst);
    while let Some(frame) = socket.next().await {
        match frame {
            Ok(Message::Text(text)) => {
                ctx.recorder.count(&ctx.recorder.received, 1);
                ctx.recorder
                    .count(&ctx.recorder.received_bytes, text.len() as u64);
                if text.as_str().contains("\"type\":\"error\"") {
                    ctx.recorder.error("idle_join_refused");
                }
            }
            Ok(other) => {
                if let Some(code) = ws::close_code(&other) {
                    ctx.recorder.error(&code);
                    break;
                }
            }
            Err(_) => {
                ctx.recorder.error("socket_error");
                break;
            }
        }
    }
    Ok(())
}
