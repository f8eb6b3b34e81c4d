//! The server's own measurements, served by `GET /metrics` in the Prometheus text format
//! (version 0.0.4). A small registry of atomics, one per server (tests run several servers in
//! one process): counting costs one relaxed atomic add, so the hot paths (every frame, every
//! append) can afford it. Counters only grow; gauges are read at scrape time where the truth
//! lives (rooms from the registry and the database). docs/OPERATIONS.md lists every metric.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds (seconds) of the latency histograms: 0.5 ms to 10 s.
const SECONDS_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Upper bounds of the append batch size histogram (appends per commit).
const BATCH_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 1024.0];

/// A number that only grows.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    /// Adds `n`.
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    /// Adds one.
    pub fn inc(&self) {
        self.add(1);
    }

    /// The current value.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A number that goes up and down.
#[derive(Debug, Default)]
pub struct Gauge(AtomicI64);

impl Gauge {
    /// The current value.
    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Counters keyed by one label value (an error code, an HTTP status). Labels come from a small
/// fixed set (the stable codes), so the map stays small; the lock is held for one insert.
#[derive(Debug, Default)]
pub struct LabeledCounter(Mutex<BTreeMap<String, u64>>);

impl LabeledCounter {
    /// Adds one to the counter of `label`.
    pub fn inc(&self, label: &str) {
        let mut counts = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match counts.get_mut(label) {
            Some(count) => *count += 1,
            None => {
                counts.insert(label.to_owned(), 1);
            }
        }
    }

    /// Every label with its count, in label order.
    pub fn snapshot(&self) -> Vec<(String, u64)> {
        let counts = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        counts
            .iter()
            .map(|(label, n)| (label.clone(), *n))
            .collect()
    }
}

/// A distribution over fixed buckets (Prometheus `histogram`). The sum is kept in millionths so
/// that it stays one atomic add.
#[derive(Debug)]
pub struct Histogram {
    bounds: &'static [f64],
    /// Observations per bucket (not cumulative; the last one is `+Inf`).
    counts: Box<[AtomicU64]>,
    /// Sum of the observations, in millionths.
    sum_micros: AtomicU64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Self {
        Histogram {
            bounds,
            counts: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(),
            sum_micros: AtomicU64::new(0),
        }
    }

    /// Records one observation.
    pub fn observe(&self, value: f64) {
        let bucket = self
            .bounds
            .iter()
            .position(|bound| value <= *bound)
            .unwrap_or(self.bounds.len());
        self.counts[bucket].fetch_add(1, Ordering::Relaxed);
        // Saturating float-to-int cast: negative or NaN values add nothing.
        let micros = (value * 1e6).round() as u64;
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// Records a duration in seconds.
    pub fn observe_duration(&self, elapsed: Duration) {
        self.observe(elapsed.as_secs_f64());
    }

    /// How many observations were made.
    pub fn count(&self) -> u64 {
        self.counts
            .iter()
            .map(|count| count.load(Ordering::Relaxed))
            .sum()
    }
}

/// Every measurement of one server. Shared as `Arc<Metrics>` by the handlers, the sockets and
/// the writer.
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
    pub ws_errors_sent: LabeledCounter,
    /// Connections closed because their outgoing queue overflowed (`slow_consumer`).
    pub slow_consumer_kicks: Counter,
    /// Actions acknowledged (durable and applied).
    pub actions_applied: Counter,
    /// Actions refused, by code.
    pub actions_refused: LabeledCounter,
    /// From reading an `action` to having its answer (ack or refusal) ready.
    pub action_seconds: Histogram,
    /// Appends per writer transaction.
    pub append_batch_size: Histogram,
    /// Duration of one writer transaction (the commit and its fsync included).
    pub append_commit_seconds: Histogram,
    /// Appends the database failed to commit.
    pub append_failures: Counter,
    /// Settles of batches whose commit had an unknown outcome (the connection broke once it
    /// was sent): each learns from the database which of their appends are stored.
    pub append_settles: Counter,
    /// HTTP answers (REST, web client, `/ws` upgrades), by status code.
    pub http_responses: LabeledCounter,
    /// Gaps found in the streams of rooms this node follows for another node (each disconnects
    /// the room's members here as slow consumers).
    pub cluster_stream_gaps: Counter,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            connections: Gauge::default(),
            connections_opened: Counter::default(),
            ws_messages_received: Counter::default(),
            ws_bytes_received: Counter::default(),
            ws_messages_sent: Counter::default(),
            ws_bytes_sent: Counter::default(),
            ws_errors_sent: LabeledCounter::default(),
            slow_consumer_kicks: Counter::default(),
            actions_applied: Counter::default(),
            actions_refused: LabeledCounter::default(),
            action_seconds: Histogram::new(&SECONDS_BUCKETS),
            append_batch_size: Histogram::new(&BATCH_BUCKETS),
            append_commit_seconds: Histogram::new(&SECONDS_BUCKETS),
            append_failures: Counter::default(),
            append_settles: Counter::default(),
            http_responses: LabeledCounter::default(),
            cluster_stream_gaps: Counter::default(),
        }
    }
}

/// Counts one open connection for as long as it lives.
#[derive(Debug)]
pub struct ConnectionGuard<'a>(&'a Metrics);

impl Drop for ConnectionGuard<'_> {
    fn drop(&mut self) {
        self.0.connections.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    /// Counts a new connection until the guard is dropped.
    pub fn connection_opened(&self) -> ConnectionGuard<'_> {
        self.connections_opened.inc();
        self.connections.0.fetch_add(1, Ordering::Relaxed);
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
}

/// Writes `metrics` and `sampled` in the Prometheus text format.
pub fn render(metrics: &Metrics, sampled: &Sampled) -> String {
    let mut out = Exposition(String::with_capacity(4096));
    out.header("warroom_build_info", "gauge", "The running version.");
    out.sample(
        "warroom_build_info",
        &[("version", env!("CARGO_PKG_VERSION"))],
        1,
    );
    out.header(
        "warroom_rooms_in_memory",
        "gauge",
        "Rooms held in memory (running tasks).",
    );
    out.sample("warroom_rooms_in_memory", &[], sampled.rooms_in_memory);
    out.header(
        "warroom_room_evictions_total",
        "counter",
        "Rooms that left memory idle (rebuilt from the database on demand).",
    );
    out.sample("warroom_room_evictions_total", &[], sampled.room_evictions);
    out.header(
        "warroom_database_up",
        "gauge",
        "1 when the database answered its last ping (every second), else 0.",
    );
    out.sample("warroom_database_up", &[], u64::from(sampled.database_up));
    out.header(
        "warroom_rooms",
        "gauge",
        "Stored rooms by state, counted every 5 s while the database answers.",
    );
    for (state, count) in &sampled.rooms_by_state {
        out.sample("warroom_rooms", &[("state", state)], count);
    }
    out.gauge(
        "warroom_connections",
        "Open WebSocket connections.",
        &metrics.connections,
    );
    out.counter(
        "warroom_connections_opened_total",
        "WebSocket connections accepted.",
        &metrics.connections_opened,
    );
    out.counter(
        "warroom_ws_messages_received_total",
        "Text frames read from clients.",
        &metrics.ws_messages_received,
    );
    out.counter(
        "warroom_ws_received_bytes_total",
        "Bytes of text frames read from clients.",
        &metrics.ws_bytes_received,
    );
    out.counter(
        "warroom_ws_messages_sent_total",
        "Frames written to clients.",
        &metrics.ws_messages_sent,
    );
    out.counter(
        "warroom_ws_sent_bytes_total",
        "Bytes of frames written to clients.",
        &metrics.ws_bytes_sent,
    );
    out.labeled(
        "warroom_ws_errors_sent_total",
        "Error messages sent to clients, by code.",
        "code",
        &metrics.ws_errors_sent,
    );
    out.counter(
        "warroom_slow_consumer_kicks_total",
        "Connections closed because their outgoing queue overflowed.",
        &metrics.slow_consumer_kicks,
    );
    out.counter(
        "warroom_actions_applied_total",
        "Actions acknowledged: durable and applied.",
        &metrics.actions_applied,
    );
    out.labeled(
        "warroom_actions_refused_total",
        "Actions refused, by code.",
        "code",
        &metrics.actions_refused,
    );
    out.histogram(
        "warroom_action_seconds",
        "From reading an action to its answer (ack or refusal), in seconds.",
        &metrics.action_seconds,
    );
    out.histogram(
        "warroom_append_batch_size",
        "Appends committed per writer transaction.",
        &metrics.append_batch_size,
    );
    out.histogram(
        "warroom_append_commit_seconds",
        "Duration of one writer transaction (commit included), in seconds.",
        &metrics.append_commit_seconds,
    );
    out.counter(
        "warroom_append_failures_total",
        "Appends the database failed to commit.",
        &metrics.append_failures,
    );
    out.counter(
        "warroom_append_settles_total",
        "Settles of append batches whose commit had an unknown outcome.",
        &metrics.append_settles,
    );
    out.labeled(
        "warroom_http_responses_total",
        "HTTP answers by status code.",
        "status",
        &metrics.http_responses,
    );
    out.counter(
        "warroom_cluster_stream_gaps_total",
        "Gaps found in followed rooms' streams from other nodes (their members here rejoin).",
        &metrics.cluster_stream_gaps,
    );
    out.0
}

/// A Prometheus text exposition being written.
struct Exposition(String);

impl Exposition {
    fn header(&mut self, name: &str, kind: &str, help: &str) {
        let _ = writeln!(self.0, "# HELP {name} {help}\n# TYPE {name} {kind}");
    }

    fn sample(&mut self, name: &str, labels: &[(&str, &str)], value: impl std::fmt::Display) {
        self.0.push_str(name);
        if !labels.is_empty() {
            self.0.push('{');
            for (index, (key, label)) in labels.iter().enumerate() {
                if index > 0 {
                    self.0.push(',');
                }
                let _ = write!(self.0, "{key}=\"{}\"", escape_label(label));
            }
            self.0.push('}');
        }
        let _ = writeln!(self.0, " {value}");
    }

    fn counter(&mut self, name: &str, help: &str, counter: &Counter) {
        self.header(name, "counter", help);
        self.sample(name, &[], counter.get());
    }

    fn gauge(&mut self, name: &str, help: &str, gauge: &Gauge) {
        self.header(name, "gauge", help);
        self.sample(name, &[], gauge.get());
    }

    fn labeled(&mut self, name: &str, help: &str, key: &str, counter: &LabeledCounter) {
        self.header(name, "counter", help);
        for (label, count) in counter.snapshot() {
            self.sample(name, &[(key, &label)], count);
        }
    }

    fn histogram(&mut self, name: &str, help: &str, histogram: &Histogram) {
        self.header(name, "histogram", help);
        let bucket = format!("{name}_bucket");
        let mut cumulative = 0;
        for (index, count) in histogram.counts.iter().enumerate() {
            cumulative += count.load(Ordering::Relaxed);
            let bound = histogram
                .bounds
                .get(index)
                .map_or_else(|| "+Inf".to_owned(), f64::to_string);
            self.sample(&bucket, &[("le", &bound)], cumulative);
        }
        let sum = histogram.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        self.sample(&format!("{name}_sum"), &[], sum);
        self.sample(&format!("{name}_count"), &[], cumulative);
    }
}

/// Escapes a label value as the text format requires (backslash, quote, newline).
fn escape_label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
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
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"1\"} 1\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"2\"} 1\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"4\"} 2\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"1024\"} 2\n"));
        assert!(text.contains("warroom_append_batch_size_bucket{le=\"+Inf\"} 3\n"));
        assert!(text.contains("warroom_append_batch_size_sum 5004\n"));
        assert!(text.contains("warroom_append_batch_size_count 3\n"));
    }

    #[test]
    fn labeled_counters_and_the_connection_gauge() {
        let metrics = Metrics::default();
        metrics.actions_refused.inc("not_your_turn");
        metrics.actions_refused.inc("not_your_turn");
        metrics.actions_refused.inc("bad\"code");
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
    fn every_metric_has_help_and_type() {
        let text = render(&Metrics::default(), &Sampled::default());
        let mut typed = 0;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                typed += 1;
                let name = rest.split(' ').next().unwrap_or_default();
                assert!(text.contains(&format!("# HELP {name} ")), "{name}");
            }
        }
        assert!(typed >= 15, "{typed} metrics");
    }
}
