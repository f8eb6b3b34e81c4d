//! The baseline: the same generator against the bare echo server (`echo_server`). Each client
//! sends an action-sized JSON text frame and waits for it to come back, as fast as it may or in
//! the pacer's slots; a round trip counts as an accepted action and its time as an ack.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::Message;

use super::play::Context;
use super::stats::Latency;
use super::ws;

/// One echo client, until aborted.
pub async fn client(ctx: Arc<Context>, n: usize) -> anyhow::Result<()> {
    let permit = ctx.setup.acquire().await?;
    let mut socket = ws::connect(ctx.addr, "/").await?;
    drop(permit);
    ctx.ready.fetch_add(1, Ordering::SeqCst);
    let mut count: u64 = 0;
    loop {
        if let Some(pacer) = &ctx.pacer {
            sleep_until(pacer.slot()).await;
        }
        count += 1;
        // About the size of an action message of the game server.
        let message = json!({
            "type": "action",
            "room": "5b0d3a52-6f0e-4a7b-9d3e-0c1e2f3a4b5c",
            "id": format!("a{count}"),
            "action": {"type": "attack", "from": n % 36, "target": count % 36},
        })
        .to_string();
        let sent = Instant::now();
        socket.send(Message::Text(message.into())).await?;
        ctx.recorder.count(&ctx.recorder.sent, 1);
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(text))) => {
                    ctx.recorder.latency(Latency::Ack, sent.elapsed());
                    ctx.recorder.count(&ctx.recorder.accepted, 1);
                    ctx.recorder.count(&ctx.recorder.received, 1);
                    ctx.recorder
                        .count(&ctx.recorder.received_bytes, text.len() as u64);
                    break;
                }
                Some(Ok(_)) => {}
                Some(Err(error)) => {
                    ctx.recorder.error("socket_error");
                    return Err(error.into());
                }
                None => {
                    ctx.recorder.error("closed:no_reason");
                    anyhow::bail!("the echo server closed the socket");
                }
            }
        }
    }
}
