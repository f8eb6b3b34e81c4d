//! Cluster mode (`--nats-url`, docs/SCALING.md): several nodes over one PostgreSQL, each room
//! served by the one node holding its lease, NATS carrying commands and messages between them.
//! This node's leases are the rooms' (`room/leasing.rs`; `store/leases.rs` the SQL,
//! `store/writer.rs` the fenced append); `wire.rs` what nodes say to each other; `node.rs` this
//! node on NATS (serving rooms to other nodes' connections, forwarding its own connections'
//! commands, summaries); `placement.rs` where a new room is served; `acts.rs` its connections'
//! actions on their way to rooms served elsewhere, answered on the rooms' streams; `relay.rs` a
//! room's messages to its followers on other nodes, once per viewer class (the room's
//! `Remote`), and the node's one publishing task, which also carries the actions `acts.rs`
//! waits on; `streams.rs` the messages of rooms served elsewhere to this node's connections;
//! `takeover.rs` taking over the rooms of nodes that died or stopped; `presence.rs` writing who
//! is connected in the public rooms served here, for the other nodes' lobby and quick play
//! (`store/presence.rs` the SQL); `connect.rs` the NATS connection (credentials, TLS).

pub mod acts;
pub mod connect;
pub mod node;
pub mod placement;
pub mod presence;
pub mod relay;
pub mod streams;
pub mod takeover;
pub mod wire;

/// The next message of a subscription, or `None` once `stop` is cancelled or the subscription
/// ended: how every reading loop of this node waits.
pub async fn next_or_stop(
    stop: &tokio_util::sync::CancellationToken,
    subscriber: &mut async_nats::Subscriber,
) -> Option<async_nats::Message> {
    use futures_util::StreamExt;
    tokio::select! {
        () = stop.cancelled() => None,
        message = subscriber.next() => message,
    }
}

/// A random node id (`--node-id` not given): `n` and 8 hex digits.
pub fn random_node_id() -> String {
    let bytes = crate::identity::random_bytes().unwrap_or([0; 32]);
    format!("n{}", hex::encode(&bytes[..4]))
}
