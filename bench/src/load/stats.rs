//! Latency histograms and counters shared by every client task of a load run.
//!
//! A [`Histogram`] keeps microseconds in log-linear buckets (128 sub-buckets per power of two,
//! so a reported quantile is within 0.8 % of the true value, and the maximum is exact); it
//! costs a few nanoseconds per sample and a fixed 36 KiB whatever the run's length.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Values below this are their own bucket.
const LINEAR: u64 = 256;
/// Sub-buckets per power of two above [`LINEAR`].
const SUB: u64 = 128;
/// Powers of two covered above [`LINEAR`] (up to 2^48 µs, about nine years).
const OCTAVES: u64 = 41;

/// A latency histogram in microseconds.
#[derive(Clone, Debug)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    max: u64,
    sum: u128,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; (LINEAR + SUB * OCTAVES) as usize],
            total: 0,
            max: 0,
            sum: 0,
        }
    }
}

/// The bucket of `micros`.
fn bucket(micros: u64) -> usize {
    if micros < LINEAR {
        return micros as usize;
    }
    // micros >> shift lands in [SUB, 2 * SUB).
    let shift = (63 - u64::from(micros.leading_zeros())) - 7;
    let index = LINEAR + (shift - 1) * SUB + ((micros >> shift) - SUB);
    (index as usize).min((LINEAR + SUB * OCTAVES) as usize - 1)
}

/// The highest value bucket `index` holds.
fn upper(index: usize) -> u64 {
    let index = index as u64;
    if index < LINEAR {
        return index;
    }
    let above = index - LINEAR;
    let shift = above / SUB + 1;
    let sub = above % SUB + SUB;
    ((sub + 1) << shift) - 1
}

impl Histogram {
    /// Records one duration.
    pub fn record(&mut self, value: Duration) {
        self.record_micros(u64::try_from(value.as_micros()).unwrap_or(u64::MAX));
    }

    /// Records one value in microseconds.
    pub fn record_micros(&mut self, micros: u64) {
        self.counts[bucket(micros)] += 1;
        self.total += 1;
        self.max = self.max.max(micros);
        self.sum += u128::from(micros);
    }

    /// Adds every sample of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.sum += other.sum;
    }

    /// How many samples.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The largest sample (exact).
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The mean in microseconds.
    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        self.sum as f64 / self.total as f64
    }

    /// The value at quantile `q` (0–1): the upper bound of the bucket holding the sample of rank
    /// ⌈q·n⌉, never above the maximum; 0 without samples.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (index, count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return upper(index).min(self.max);
            }
        }
        self.max
    }

    /// p50, p99, p99.9 and max, in milliseconds, as a JSON object (with the sample count).
    pub fn summary(&self) -> serde_json::Value {
        let ms = |micros: u64| micros as f64 / 1000.0;
        serde_json::json!({
            "count": self.total,
            "p50_ms": ms(self.quantile(0.50)),
            "p99_ms": ms(self.quantile(0.99)),
            "p999_ms": ms(self.quantile(0.999)),
            "max_ms": ms(self.max),
            "mean_ms": ms(self.mean().round() as u64),
        })
    }
}

/// Which latency a sample measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Latency {
    /// From sending an action to its `ack` (or, for the echo server, to the echo).
    Ack,
    /// From sending an action to another seat receiving its `applied`.
    Seats,
    /// From sending an action to a spectator receiving its `applied`.
    Spectators,
}

/// Everything the client tasks of one run report, shared behind an `Arc`.
#[derive(Debug, Default)]
pub struct Recorder {
    /// Samples count only while this is set (the measured window).
    measuring: AtomicBool,
    /// Accepted (acknowledged) actions, or echoed round trips.
    pub accepted: AtomicU64,
    /// Actions sent.
    pub sent: AtomicU64,
    /// Matches that ended (and were replaced).
    pub finished: AtomicU64,
    /// Messages received by all clients.
    pub received: AtomicU64,
    /// Bytes of text received by all clients.
    pub received_bytes: AtomicU64,
    ack: Mutex<Histogram>,
    seats: Mutex<Histogram>,
    spectators: Mutex<Histogram>,
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Recorder {
    /// Starts or stops counting.
    pub fn set_measuring(&self, on: bool) {
        self.measuring.store(on, Ordering::SeqCst);
    }

    /// True inside the measured window.
    pub fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    /// Adds one to a counter, inside the window.
    pub fn count(&self, counter: &AtomicU64, n: u64) {
        if self.measuring() {
            counter.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Records a latency, inside the window.
    pub fn latency(&self, which: Latency, value: Duration) {
        if !self.measuring() {
            return;
        }
        let histogram = match which {
            Latency::Ack => &self.ack,
            Latency::Seats => &self.seats,
            Latency::Spectators => &self.spectators,
        };
        histogram.lock().expect("histogram").record(value);
    }

    /// Counts an error by its code (always, also outside the window: setup errors matter).
    pub fn error(&self, code: &str) {
        *self
            .errors
            .lock()
            .expect("errors")
            .entry(code.to_owned())
            .or_default() += 1;
    }

    /// A copy of one histogram.
    pub fn histogram(&self, which: Latency) -> Histogram {
        match which {
            Latency::Ack => &self.ack,
            Latency::Seats => &self.seats,
            Latency::Spectators => &self.spectators,
        }
        .lock()
        .expect("histogram")
        .clone()
    }

    /// Errors by code.
    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors.lock().expect("errors").clone()
    }

    /// Reads a counter.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotonic_and_cover_their_values() {
        let mut last = 0;
        for value in (0..5_000_000u64).step_by(7).chain([u64::from(u32::MAX)]) {
            let index = bucket(value);
            assert!(index >= last, "bucket order at {value}");
            assert!(upper(index) >= value, "{value} above its bucket's bound");
            if index > 0 {
                assert!(upper(index - 1) < value, "{value} belongs lower");
            }
            last = index;
        }
    }

    #[test]
    fn quantiles_of_a_uniform_run_are_within_one_percent() {
        let mut histogram = Histogram::default();
        for micros in 1..=100_000 {
            histogram.record_micros(micros);
        }
        for (q, exact) in [(0.5, 50_000.0), (0.99, 99_000.0), (0.999, 99_900.0)] {
            let got = histogram.quantile(q) as f64;
            assert!((got - exact).abs() / exact < 0.01, "q{q}: {got} vs {exact}");
        }
        assert_eq!(histogram.max(), 100_000);
        assert_eq!(histogram.quantile(1.0), 100_000);
        assert_eq!(histogram.count(), 100_000);
        assert!((histogram.mean() - 50_000.5).abs() < 0.01);
    }

    #[test]
    fn small_values_are_exact_and_a_tail_shows_in_p999_only() {
        let mut histogram = Histogram::default();
        for _ in 0..9_990 {
            histogram.record_micros(100);
        }
        for _ in 0..10 {
            histogram.record_micros(50_000);
        }
        assert_eq!(histogram.quantile(0.5), 100);
        assert_eq!(histogram.quantile(0.99), 100);
        assert_eq!(histogram.quantile(0.999), 100);
        assert!(histogram.quantile(0.9991) >= 49_600);
        assert_eq!(histogram.max(), 50_000);
        let mut merged = Histogram::default();
        merged.merge(&histogram);
        merged.merge(&histogram);
        assert_eq!(merged.count(), 20_000);
        assert_eq!(merged.quantile(0.5), 100);
    }

    #[test]
    fn an_empty_histogram_reports_zero() {
        let histogram = Histogram::default();
        assert_eq!(histogram.quantile(0.99), 0);
        assert_eq!(histogram.summary()["count"], 0);
    }
}
