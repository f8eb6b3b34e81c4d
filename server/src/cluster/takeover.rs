//! Taking rooms over: every third of the lease each node looks for running matches no node
//! serves (their node died and the lease expired, or it stopped and handed them over, or they
//! were played before cluster mode) and acquires its share of them, rebuilding each from its
//! log with its clock resumed, exactly as a restarted single server does. Their followers on
//! other nodes are told `room_moved` (`node.rs`) and join again, catching up from `last_seq`.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::metrics::Metrics;
use crate::room::{Located, Rooms};
use crate::store::Store;

/// Most rooms listed per look.
const LOOK_AT: i64 = 256;

/// Takes rooms over until `stop` (counted in `metrics`).
pub async fn take_over_until(
    rooms: Arc<Rooms>,
    store: Store,
    lease: Duration,
    metrics: Arc<Metrics>,
    stop: CancellationToken,
) {
    let every = lease / 3;
    loop {
        // Nodes look at different moments, so they rarely race for the same rooms.
        let jitter = Duration::from_millis(
            u64::from(crate::identity::random_bytes().map_or(0, |b| b[0]))
                * every.as_millis().min(1000) as u64
                / 512,
        );
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every + jitter) => {}
        }
        match take_over_once(&rooms, &store).await {
            Ok(taken) => {
                metrics.cluster_takeovers.inc_by(taken as u64);
            }
            Err(error) => tracing::warn!("cannot look for rooms to take over: {error}"),
        }
    }
}

/// One look: this node's share (the orphans divided by the live nodes, rounded up) of the
/// rooms nobody serves, starting at a random one. Returns how many it took.
pub async fn take_over_once(rooms: &Rooms, store: &Store) -> anyhow::Result<usize> {
    let Some(leasing) = rooms.leasing() else {
        return Ok(0);
    };
    if leasing.draining.is_cancelled() {
        return Ok(0);
    }
    let orphans = store.rooms_to_take_over(LOOK_AT).await?;
    if orphans.is_empty() {
        return Ok(0);
    }
    let nodes = store.lease_counts().await?.len().max(1);
    let share = orphans.len().div_ceil(nodes);
    let start = crate::identity::random_bytes().map_or(0, |b| usize::from(b[0])) % orphans.len();
    let mut taken = 0;
    for room in orphans.iter().cycle().skip(start).take(orphans.len()) {
        if taken == share {
            break;
        }
        match rooms.locate(*room).await {
            Ok(Located::Here(_)) => taken += 1,
            Ok(Located::There(_)) => {}
            Err(error) => tracing::warn!("cannot take room {room} over: {}", error.message),
        }
    }
    if taken > 0 {
        tracing::info!(node = %leasing.node, "took {taken} rooms over");
    }
    Ok(taken)
}
