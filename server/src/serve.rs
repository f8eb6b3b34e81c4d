//! The accept loop: one task per TCP connection, served by hyper-util's auto builder (HTTP/1.1
//! with upgrades for `/ws`, or HTTP/2), with the peer address given to handlers as
//! `ConnectInfo`.
//!
//! A connection never holds the server: its request headers must arrive within
//! `--header-read-timeout` (hyper drops it otherwise), and a connection with no request in hand
//! for that long (one that sent nothing, half a request, or sits idle between requests) is
//! closed. At shutdown the loop stops accepting; connections with no request in hand are closed
//! at once (a half-sent request never blocks SIGTERM), the others finish their request (at most
//! `SHUTDOWN_GRACE`). Upgraded WebSockets are no longer this loop's: they close on the shutdown
//! signal themselves.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::Service;

/// How long requests in hand may take to finish once shutdown begins.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `stop` is cancelled, then returns once every connection
/// has finished or been dropped.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_read_timeout: Duration,
    stop: CancellationToken,
) {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout);
    builder.http2().timer(TokioTimer::new());
    let connections = TaskTracker::new();
    loop {
        let accepted = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!("accept failed: {error}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        connections.spawn(connection(
            builder.clone(),
            stream,
            peer,
            app.clone(),
            header_read_timeout,
            stop.clone(),
        ));
    }
    drop(listener);
    connections.close();
    connections.wait().await;
}

/// What the watchdog knows of one connection's requests.
#[derive(Default)]
struct Activity {
    /// Requests being handled now.
    in_hand: AtomicUsize,
    /// When the last request came in (milliseconds since the connection opened).
    last_request_ms: AtomicU64,
}

/// Counts a request as in hand until dropped.
struct InHand(Arc<Activity>);

impl Drop for InHand {
    fn drop(&mut self) {
        self.0.in_hand.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves one TCP connection.
async fn connection(
    builder: auto::Builder<TokioExecutor>,
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    idle_limit: Duration,
    stop: CancellationToken,
) {
    // Game messages are small and latency matters: no Nagle delay on any socket.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!("cannot set TCP_NODELAY: {error}");
    }
    let opened = Instant::now();
    let activity = Arc::new(Activity::default());
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            activity.in_hand.fetch_add(1, Ordering::AcqRel);
            activity
                .last_request_ms
                .store(elapsed_ms(opened), Ordering::Release);
            let in_hand = InHand(activity.clone());
            request.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            async move {
                let response = app.call(request).await;
                drop(in_hand);
                response
            }
        })
    };
    let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let tick = (idle_limit / 4).max(Duration::from_millis(50));
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%peer, "connection ended: {error}");
                }
                return;
            }
            () = stop.cancelled() => break,
            () = tokio::time::sleep(tick) => {
                let idle_since = activity.last_request_ms.load(Ordering::Acquire);
                let idle = Duration::from_millis(elapsed_ms(opened).saturating_sub(idle_since));
                if activity.in_hand.load(Ordering::Acquire) == 0 && idle >= idle_limit {
                    tracing::debug!(%peer, "closing a connection without a request for {idle:?}");
                    return;
                }
            }
        }
    }
    // Shutting down: nothing in hand (idle, or half a request) closes now; a request in hand
    // is answered first.
    if activity.in_hand.load(Ordering::Acquire) == 0 {
        return;
    }
    conn.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, conn).await;
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
