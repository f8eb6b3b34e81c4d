//! What one client address may cost: how many WebSockets it holds at once, and how fast it
//! creates guests and rooms (token buckets: a burst of a minute's allowance, then the sustained
//! rate). IPv6 addresses count per /64, the block one subscriber usually gets.
//!
//! The address is the TCP peer's, or with `--trust-forwarded-for` the last one in the
//! `X-Forwarded-For` header (the one the trusted proxy in front of the server added).
//!
//! In cluster mode the creation allowances are the cluster's, not each node's: the buckets
//! live in PostgreSQL (`store/rate_buckets.rs`), so an address spread over the nodes by a proxy
//! gets its allowance once. Should the database not answer, a node counts on its own buckets.
//! Open sockets are counted per node (a client's sockets end on the node they reach).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::StatusCode;
use axum::http::request::Parts;
use warroom_protocol::codes;

use crate::error::ApiError;
use crate::store::Store;

/// In cluster mode, one take in this many also deletes the shared buckets idle this long.
const SHARED_PRUNE_EVERY: u64 = 1024;
const SHARED_IDLE_SECONDS: i64 = 600;

/// Buckets beyond this many are pruned of the ones that are full again (idle addresses).
const PRUNE_ABOVE: usize = 10_000;

/// The client's address as the limits count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The key limits count by: the address, or for IPv6 its /64.
    fn key(self) -> IpAddr {
        match self.0 {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    IpAddr::V6(Ipv6Addr::from(bits))
                }
            },
        }
    }

    /// SHA-256 (hex) of [`ClientIp::key`]: what an identity keeps of the address it was
    /// created from (the ratings' abuse rule, `ratings/abuse.rs`), never the address itself.
    pub fn hashed(self) -> String {
        crate::identity::token_hash(&self.key().to_string())
    }
}

/// Whether the client's address is the last one in `X-Forwarded-For` (`--trust-forwarded-for`),
/// as the router's state says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrustForwardedFor(pub bool);

impl<S> FromRequestParts<S> for ClientIp
where
    S: Send + Sync,
    TrustForwardedFor: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if TrustForwardedFor::from_ref(state).0
            && let Some(ip) = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(|value| value.split(','))
                .filter_map(|part| part.trim().parse::<IpAddr>().ok())
                .next_back()
        {
            return Ok(ClientIp(ip));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |info| info.0.ip());
        Ok(ClientIp(peer))
    }
}

/// One address's allowance of creations.
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// Creations per address: `per_minute` sustained, as a burst too.
#[derive(Debug)]
pub struct CreationRate {
    what: &'static str,
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
    /// Cluster mode: the buckets shared by every node.
    shared: Option<Store>,
    takes: AtomicU64,
}

impl CreationRate {
    /// `per_minute` creations of `what` per address (0: none allowed), counted here.
    pub fn new(what: &'static str, per_minute: u32) -> Self {
        CreationRate {
            what,
            per_minute,
            buckets: Mutex::new(HashMap::new()),
            shared: None,
            takes: AtomicU64::new(0),
        }
    }

    /// The same, counted for the whole cluster in `store` (PostgreSQL).
    pub fn shared(what: &'static str, per_minute: u32, store: Store) -> Self {
        CreationRate {
            shared: Some(store),
            ..CreationRate::new(what, per_minute)
        }
    }

    /// Takes one creation from `ip`'s allowance, or `429 rate_limited`: the cluster's in
    /// cluster mode (this node's if the database does not answer), else this server's.
    pub async fn take(&self, ip: ClientIp) -> Result<(), ApiError> {
        let Some(store) = &self.shared else {
            return self.take_here(ip);
        };
        if self.takes.fetch_add(1, Ordering::Relaxed) % SHARED_PRUNE_EVERY == SHARED_PRUNE_EVERY - 1
        {
            let store = store.clone();
            tokio::spawn(async move {
                if let Err(error) = store.prune_rate_buckets(SHARED_IDLE_SECONDS).await {
                    tracing::warn!("cannot prune the shared rate buckets: {error}");
                }
            });
        }
        let key = ip.key().to_string();
        match store
            .take_rate_token(self.what, &key, f64::from(self.per_minute))
            .await
        {
            Ok(taken) if taken.allowed => Ok(()),
            Ok(taken) => Err(self.refusal(taken.tokens)),
            Err(error) => {
                tracing::warn!(
                    "cannot read the cluster's allowance of {}: counted on this node ({error})",
                    self.what
                );
                self.take_here(ip)
            }
        }
    }

    /// Takes one creation from this server's own bucket of `ip`.
    fn take_here(&self, ip: ClientIp) -> Result<(), ApiError> {
        let now = Instant::now();
        let burst = f64::from(self.per_minute);
        let per_second = burst / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > PRUNE_ABOVE {
            buckets.retain(|_, bucket| {
                bucket.tokens + now.duration_since(bucket.last).as_secs_f64() * per_second < burst
            });
        }
        let bucket = buckets.entry(ip.key()).or_insert(Bucket {
            tokens: burst,
            last: now,
        });
        let elapsed = now.duration_since(bucket.last).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(burst);
        bucket.last = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        Err(self.refusal(bucket.tokens))
    }

    /// `429 rate_limited`, with the wait until a bucket holding `tokens` has one.
    fn refusal(&self, tokens: f64) -> ApiError {
        let per_second = f64::from(self.per_minute) / 60.0;
        let wait = if per_second > 0.0 {
            Duration::from_secs_f64(((1.0 - tokens) / per_second).max(0.0)).as_secs() + 1
        } else {
            60
        };
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            codes::RATE_LIMITED,
            format!(
                "too many {} from your address ({} a minute): try again in {wait} s",
                self.what, self.per_minute
            ),
        )
    }
}

/// Open WebSockets per address.
#[derive(Debug)]
pub struct SocketCount {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One open socket, counted until dropped.
#[derive(Debug)]
pub struct SocketSlot {
    count: Arc<SocketCount>,
    key: IpAddr,
}

impl SocketCount {
    /// At most `max` sockets per address.
    pub fn new(max: usize) -> Arc<Self> {
        Arc::new(SocketCount {
            max,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for one more socket from `ip`, or `429 too_many_connections`.
    pub fn open(self: &Arc<Self>, ip: ClientIp) -> Result<SocketSlot, ApiError> {
        let key = ip.key();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(key).or_default();
        if *count >= self.max {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                codes::TOO_MANY_CONNECTIONS,
                format!(
                    "your address holds {} sockets already: close one first",
                    self.max
                ),
            ));
        }
        *count += 1;
        Ok(SocketSlot {
            count: self.clone(),
            key,
        })
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut open = self.count.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> ClientIp {
        ClientIp(text.parse().unwrap())
    }

    #[test]
    fn a_minute_of_creations_then_refused() {
        let rate = CreationRate::new("guests", 3);
        for _ in 0..3 {
            rate.take_here(ip("10.0.0.1")).unwrap();
        }
        let refused = rate.take_here(ip("10.0.0.1")).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.code, "rate_limited");
        // Another address has its own allowance.
        rate.take_here(ip("10.0.0.2")).unwrap();
    }

    #[test]
    fn ipv6_counts_per_64() {
        let rate = CreationRate::new("rooms", 1);
        rate.take_here(ip("2001:db8:1:2::1")).unwrap();
        assert!(rate.take_here(ip("2001:db8:1:2:ffff::9")).is_err());
        rate.take_here(ip("2001:db8:1:3::1")).unwrap();
    }

    #[test]
    fn sockets_are_counted_until_dropped() {
        let count = SocketCount::new(2);
        let a = count.open(ip("10.0.0.1")).unwrap();
        let _b = count.open(ip("10.0.0.1")).unwrap();
        assert_eq!(
            count.open(ip("10.0.0.1")).unwrap_err().code,
            "too_many_connections"
        );
        drop(a);
        let _c = count.open(ip("10.0.0.1")).unwrap();
    }
}
