//! The server's own measurements, served by `GET /metrics` in the OpenMetrics text format, kept
//! by `prometheus-client`. Each server owns its registry (tests run several servers in one
//! process). Counters and gauges are atomics, so the hot paths (every frame, every append)
//! afford them; histograms take a short lock. Gauges of what the database and the room registry
//! know are read at scrape time into a registry of their own ([`Sampled`]). docs/OPERATIONS.md
//! lists every metric.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::{encode_eof, encode_registry};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Upper bounds (seconds) of the latency histograms: 0.5 ms to 10 s.
const SECONDS_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Upper bounds of the append batch size histogram (appends per commit).
const BATCH_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 1024.0];

/// The label of counters by stable error code.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CodeLabel {
    code: String,
}

/// The label of counters by HTTP status.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabel {
    status: String,
}

/// The label of the stored rooms gauge.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: String,
}

/// The label of `warroom_build_info`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VersionLabel {
    version: &'static str,
}

/// A label set of one value (an error code, an HTTP status).
pub trait OneLabel: Clone + std::hash::Hash + Eq + EncodeLabelSet + std::fmt::Debug {
    /// The label set whose one value is `value`.
    fn of(value: &str) -> Self;
}

impl OneLabel for CodeLabel {
    fn of(value: &str) -> Self {
        CodeLabel {
            code: value.to_owned(),
        }
    }
}

impl OneLabel for StatusLabel {
    fn of(value: &str) -> Self {
        StatusLabel {
            status: value.to_owned(),
        }
    }
}

/// Counters keyed by one label value. Labels come from a small fixed set (the stable codes,
/// the HTTP statuses), so the family stays small.
#[derive(Debug)]
pub struct CountedBy<L: OneLabel>(Family<L, Counter>);

impl<L: OneLabel> Default for CountedBy<L> {
    fn default() -> Self {
        CountedBy(Family::default())
    }
}

impl<L: OneLabel + Send + Sync + 'static> CountedBy<L> {
    /// Adds one to the counter of `label`.
    pub fn inc(&self, label: &str) {
        self.0.get_or_create(&L::of(label)).inc();
    }

    /// The count of `label` (0 when never counted).
    pub fn get(&self, label: &str) -> u64 {
        self.0.get(&L::of(label)).map_or(0, |counter| counter.get())
    }
}

/// Every measurement of one server. Shared as `Arc<Metrics>` by the handlers, the sockets and
/// the writer. Each field is registered once, in [`Metrics::default`], under its name in
/// docs/OPERATIONS.md (counters without the `_total` the encoder appends).
#[derive(Debug)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: Gauge,
    /// WebSocket connections accepted since start.
    pub connections_opened: Counter,
    /// Text frames read from clients.
    pub ws_messages_received: Counter,
    /// Bytes of the text frames read from clients.
    pub ws_bytes_received: Counter,
    /// Frames written to clients.
    pub ws_messages_sent: Counter,
    /// Bytes of the frames written to clients.
    pub ws_bytes_sent: Counter,
    /// `error` messages sent to clients, by code (refused actions, malformed messages, limits).
    pub ws_errors_sent: CountedBy<CodeLabel>,
    /// Connections closed because their outgoing queue overflowed (`slow_consumer`).
    pub slow_consumer_kicks: Counter,
    /// Actions acknowledged (durable and applied).
    pub actions_applied: Counter,
    /// Actions refused, by code.
    pub actions_refused: CountedBy<CodeLabel>,
    /// From reading an `action` to having its answer (ack or refusal) ready, in seconds.
    pub action_seconds: Histogram,
    /// Appends per writer transaction.
    pub append_batch_size: Histogram,
    /// Duration of one writer transaction (the commit and its fsync included), in seconds.
    pub append_commit_seconds: Histogram,
    /// Appends the database failed to commit.
    pub append_failures: Counter,
    /// Settles of batches whose commit had an unknown outcome (the connection broke once it
    /// was sent): each learns from the database which of their appends are stored.
    pub append_settles: Counter,
    /// HTTP answers (REST, web client, `/ws` upgrades), by status code.
    pub http_responses: CountedBy<StatusLabel>,
    /// Gaps found in the streams of rooms this node follows for another node (each disconnects
    /// the room's members here as slow consumers).
    pub cluster_stream_gaps: Counter,
    /// Cluster mode: rooms this node took over from a node that died, froze or stopped.
    pub cluster_takeovers: Counter,
    /// Cluster mode: commands of this node's sockets forwarded to the node serving their room.
    pub cluster_forwarded: Counter,
    /// Cluster mode: from forwarding a command to having its answer (the room's messages before
    /// it delivered here), in seconds.
    pub cluster_forward_seconds: Histogram,
    /// Cluster mode: forwarded commands that got no answer (the node did not answer in time, or
    /// nobody answers for it).
    pub cluster_forward_failures: Counter,
    /// Cluster mode: connections of this node told `room_moved` because the room they followed
    /// elsewhere is served by another node now.
    pub cluster_moved_followers: Counter,
    /// Cluster mode: reconnections to NATS after the first connection.
    pub cluster_nats_reconnects: Counter,
    /// This server's registry: every field above, by name.
    registry: Registry,
}

impl Default for Metrics {
    fn default() -> Self {
        let connections = Gauge::default();
        let connections_opened = Counter::default();
        let ws_messages_received = Counter::default();
        let ws_bytes_received = Counter::default();
        let ws_messages_sent = Counter::default();
        let ws_bytes_sent = Counter::default();
        let ws_errors_sent = CountedBy::default();
        let slow_consumer_kicks = Counter::default();
        let actions_applied = Counter::default();
        let actions_refused = CountedBy::default();
        let action_seconds = Histogram::new(SECONDS_BUCKETS);
        let append_batch_size = Histogram::new(BATCH_BUCKETS);
        let append_commit_seconds = Histogram::new(SECONDS_BUCKETS);
        let append_failures = Counter::default();
        let append_settles = Counter::default();
        let http_responses = CountedBy::default();
        let cluster_stream_gaps = Counter::default();
        let cluster_takeovers = Counter::default();
        let cluster_forwarded = Counter::default();
        let cluster_forward_seconds = Histogram::new(SECONDS_BUCKETS);
        let cluster_forward_failures = Counter::default();
        let cluster_moved_followers = Counter::default();
        let cluster_nats_reconnects = Counter::default();

        let mut registry = Registry::default();
        let build_info = Family::<VersionLabel, Gauge>::default();
        build_info
            .get_or_create(&VersionLabel {
                version: env!("CARGO_PKG_VERSION"),
            })
            .set(1);
        registry.register("warroom_build_info", "The running version.", build_info);
        registry.register(
            "warroom_connections",
            "Open WebSocket connections.",
            connections.clone(),
        );
        registry.register(
            "warroom_connections_opened",
            "WebSocket connections accepted.",
            connections_opened.clone(),
        );
        registry.register(
            "warroom_ws_messages_received",
            "Text frames read from clients.",
            ws_messages_received.clone(),
        );
        registry.register(
            "warroom_ws_received_bytes",
            "Bytes of text frames read from clients.",
            ws_bytes_received.clone(),
        );
        registry.register(
            "warroom_ws_messages_sent",
            "Frames written to clients.",
            ws_messages_sent.clone(),
        );
        registry.register(
            "warroom_ws_sent_bytes",
            "Bytes of frames written to clients.",
            ws_bytes_sent.clone(),
        );
        registry.register(
            "warroom_ws_errors_sent",
            "Error messages sent to clients, by code.",
            ws_errors_sent.0.clone(),
        );
        registry.register(
            "warroom_slow_consumer_kicks",
            "Connections closed because their outgoing queue overflowed.",
            slow_consumer_kicks.clone(),
        );
        registry.register(
            "warroom_actions_applied",
            "Actions acknowledged: durable and applied.",
            actions_applied.clone(),
        );
        registry.register(
            "warroom_actions_refused",
            "Actions refused, by code.",
            actions_refused.0.clone(),
        );
        registry.register(
            "warroom_action_seconds",
            "From reading an action to its answer (ack or refusal), in seconds.",
            action_seconds.clone(),
        );
        registry.register(
            "warroom_append_batch_size",
            "Appends committed per writer transaction.",
            append_batch_size.clone(),
        );
        registry.register(
            "warroom_append_commit_seconds",
            "Duration of one writer transaction (commit included), in seconds.",
            append_commit_seconds.clone(),
        );
        registry.register(
            "warroom_append_failures",
            "Appends the database failed to commit.",
            append_failures.clone(),
        );
        registry.register(
            "warroom_append_settles",
            "Settles of append batches whose commit had an unknown outcome.",
            append_settles.clone(),
        );
        registry.register(
            "warroom_http_responses",
            "HTTP answers by status code.",
            http_responses.0.clone(),
        );
        registry.register(
            "warroom_cluster_stream_gaps",
            "Gaps found in followed rooms' streams from other nodes (their members here rejoin).",
            cluster_stream_gaps.clone(),
        );
        registry.register(
            "warroom_cluster_takeovers",
            "Rooms this node took over from a node that died, froze or stopped.",
            cluster_takeovers.clone(),
        );
        registry.register(
            "warroom_cluster_forwarded",
            "Commands of this node's sockets forwarded to the node serving their room.",
            cluster_forwarded.clone(),
        );
        registry.register(
            "warroom_cluster_forward_seconds",
            "From forwarding a command to its answer, the room's messages before it delivered.",
            cluster_forward_seconds.clone(),
        );
        registry.register(
            "warroom_cluster_forward_failures",
            "Forwarded commands with no answer (the serving node did not answer).",
            cluster_forward_failures.clone(),
        );
        registry.register(
            "warroom_cluster_moved_followers",
            "Connections here told room_moved: their room is served by another node now.",
            cluster_moved_followers.clone(),
        );
        registry.register(
            "warroom_cluster_nats_reconnects",
            "Reconnections to NATS after the first connection.",
            cluster_nats_reconnects.clone(),
        );

        Metrics {
            connections,
            connections_opened,
            ws_messages_received,
            ws_bytes_received,
            ws_messages_sent,
            ws_bytes_sent,
            ws_errors_sent,
            slow_consumer_kicks,
            actions_applied,
            actions_refused,
            action_seconds,
            append_batch_size,
            append_commit_seconds,
            append_failures,
            append_settles,
            http_responses,
            cluster_stream_gaps,
            cluster_takeovers,
            cluster_forwarded,
            cluster_forward_seconds,
            cluster_forward_failures,
            cluster_moved_followers,
            cluster_nats_reconnects,
            registry,
        }
    }
}

/// Counts one open connection for as long as it lives.
#[derive(Debug)]
pub struct ConnectionGuard<'a>(&'a Metrics);

impl Drop for ConnectionGuard<'_> {
    fn drop(&mut self) {
        self.0.connections.dec();
    }
}

impl Metrics {
    /// Counts a new connection until the guard is dropped.
    pub fn connection_opened(&self) -> ConnectionGuard<'_> {
        self.connections_opened.inc();
        self.connections.inc();
        ConnectionGuard(self)
    }
}

/// What is read at scrape time rather than counted.
#[derive(Clone, Debug, Default)]
pub struct Sampled {
    /// Rooms held in memory by the registry.
    pub rooms_in_memory: usize,
    /// Rooms that left memory idle since the start.
    pub room_evictions: u64,
    /// Stored rooms by state (`waiting`, `playing`, `finished`), as last counted.
    pub rooms_by_state: Vec<(String, u64)>,
    /// True when the database answered its last ping.
    pub database_up: bool,
    /// Cluster mode: the room leases this node holds (0 for a single process).
    pub leases_held: usize,
}

impl Sampled {
    /// A registry of this scrape's samples, encoded beside the server's own.
    fn registry(&self) -> Registry {
        let mut registry = Registry::default();
        let in_memory = Gauge::<i64>::default();
        in_memory.set(i64::try_from(self.rooms_in_memory).unwrap_or(i64::MAX));
        registry.register(
            "warroom_rooms_in_memory",
            "Rooms held in memory (running tasks).",
            in_memory,
        );
        let evictions = Counter::<u64>::default();
        evictions.inc_by(self.room_evictions);
        registry.register(
            "warroom_room_evictions",
            "Rooms that left memory idle (rebuilt from the database on demand).",
            evictions,
        );
        let rooms = Family::<StateLabel, Gauge>::default();
        for (state, count) in &self.rooms_by_state {
            rooms
                .get_or_create(&StateLabel {
                    state: state.clone(),
                })
                .set(i64::try_from(*count).unwrap_or(i64::MAX));
        }
        registry.register(
            "warroom_rooms",
            "Stored rooms by state, counted every 5 s while the database answers.",
            rooms,
        );
        let database_up = Gauge::<i64>::default();
        database_up.set(i64::from(self.database_up));
        registry.register(
            "warroom_database_up",
            "1 when the database answered its last ping (every second), else 0.",
            database_up,
        );
        let leases = Gauge::<i64>::default();
        leases.set(i64::try_from(self.leases_held).unwrap_or(i64::MAX));
        registry.register(
            "warroom_cluster_leases",
            "Room leases this node holds (cluster mode; 0 for a single process).",
            leases,
        );
        registry
    }
}

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Writes `metrics` and `sampled` in the OpenMetrics text format ([`CONTENT_TYPE`]).
pub fn render(metrics: &Metrics, sampled: &Sampled) -> String {
    let mut text = String::with_capacity(8192);
    // Writing to a String cannot fail; an encoder error would be a bug of ours (a bad name).
    encode_registry(&mut text, &sampled.registry())
        .and_then(|()| encode_registry(&mut text, &metrics.registry))
        .and_then(|()| encode_eof(&mut text))
        .expect("metrics encode to a String");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_is_cumulative_and_ends_with_inf() {
        let metrics = Metrics::default();
        metrics.append_batch_size.observe(1.0);
        metrics.append_batch_size.observe(3.0);
        metrics.append_batch_size.observe(5000.0);
        let text = render(&metrics, &Sampled::default());
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"1.0\"} 1\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"2.0\"} 1\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"4.0\"} 2\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"1024.0\"} 2\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"+Inf\"} 3\n"));
        assert!(text.contains("warroom_append_batch_size_sum 5004.0\n"));
        assert!(text.contains("warroom_append_batch_size_count 3\n"));
    }

    #[test]
    fn labeled_counters_and_the_connection_gauge() {
        let metrics = Metrics::default();
        metrics.actions_refused.inc("not_your_turn");
        metrics.actions_refused.inc("not_your_turn");
        metrics.actions_refused.inc("bad\"code");
        assert_eq!(metrics.actions_refused.get("not_your_turn"), 2);
        let guard = metrics.connection_opened();
        let open = render(&metrics, &Sampled::default());
        assert!(open.contains("warroom_actions_refused_total{code=\"not_your_turn\"} 2\n"));
        assert!(open.contains("warroom_actions_refused_total{code=\"bad\\\"code\"} 1\n"));
        assert!(open.contains("warroom_connections 1\n"));
        drop(guard);
        let closed = render(&metrics, &Sampled::default());
        assert!(closed.contains("warroom_connections 0\n"));
        assert!(closed.contains("warroom_connections_opened_total 1\n"));
    }

    #[test]
    fn scrape_time_samples_and_the_build_info() {
        let sampled = Sampled {
            rooms_in_memory: 3,
            room_evictions: 7,
            rooms_by_state: vec![("playing".into(), 2), ("finished".into(), 5)],
            database_up: true,
            leases_held: 4,
        };
        let text = render(&Metrics::default(), &sampled);
        assert!(text.contains("warroom_rooms_in_memory 3\n"), "{text}");
        assert!(text.contains("warroom_room_evictions_total 7\n"), "{text}");
        assert!(text.contains("warroom_database_up 1\n"), "{text}");
        assert!(text.contains("warroom_cluster_leases 4\n"), "{text}");
        assert!(
            text.contains("warroom_rooms{state=\"playing\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("warroom_rooms{state=\"finished\"} 5\n"),
            "{text}"
        );
        let version = env!("CARGO_PKG_VERSION");
        assert!(text.contains(&format!("warroom_build_info{{version=\"{version}\"}} 1\n")));
        assert!(text.ends_with("# EOF\n"), "one end marker, at the end");
        assert_eq!(text.matches("# EOF").count(), 1);
    }

    #[test]
    fn two_servers_count_apart() {
        let one = Metrics::default();
        let two = Metrics::default();
        one.actions_applied.inc();
        assert!(render(&one, &Sampled::default()).contains("warroom_actions_applied_total 1\n"));
        assert!(render(&two, &Sampled::default()).contains("warroom_actions_applied_total 0\n"));
    }

    #[test]
    fn every_metric_has_help_and_type_and_is_the_one_the_docs_list() {
        // A labeled family appears once it has a sample: give each one.
        let metrics = Metrics::default();
        metrics.ws_errors_sent.inc("rate_limited");
        metrics.actions_refused.inc("not_your_turn");
        metrics.http_responses.inc("200");
        let sampled = Sampled {
            rooms_by_state: vec![("waiting".into(), 1)],
            ..Sampled::default()
        };
        let text = render(&metrics, &sampled);
        let mut exported = std::collections::BTreeSet::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let (name, kind) = rest.split_once(' ').expect("a name and a type");
                assert!(text.contains(&format!("# HELP {name} ")), "{name}");
                let suffix = if kind == "counter" { "_total" } else { "" };
                exported.insert(format!("{name}{suffix}"));
            }
        }
        let documented: std::collections::BTreeSet<String> =
            include_str!("../../docs/OPERATIONS.md")
                .lines()
                .filter_map(|line| line.strip_prefix("| `warroom_"))
                .filter_map(|rest| rest.split('`').next())
                .map(|name| format!("warroom_{name}"))
                .collect();
        assert_eq!(
            exported, documented,
            "docs/OPERATIONS.md lists every metric"
        );
    }
}
