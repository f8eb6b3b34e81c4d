//! What a server process costs, read from `/proc/<pid>`: CPU seconds (user + system, all
//! threads) and resident memory now and at its peak.

/// Clock ticks per second of `/proc/<pid>/stat` (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// One reading of a process.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProcSample {
    /// User + system CPU seconds since the process started.
    pub cpu_seconds: f64,
    /// Resident set size now, in KiB (`VmRSS`).
    pub rss_kib: u64,
    /// Peak resident set size, in KiB (`VmHWM`).
    pub peak_rss_kib: u64,
}

/// Reads `/proc/<pid>`; `None` when the process is gone or not on Linux.
pub fn sample(pid: u32) -> Option<ProcSample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(ProcSample {
        cpu_seconds: cpu_seconds(&stat)?,
        rss_kib: status_kib(&status, "VmRSS:")?,
        peak_rss_kib: status_kib(&status, "VmHWM:")?,
    })
}

/// The sum of [`sample`] over `pids` (the nodes of a cluster); `None` when there are none or
/// one is gone.
pub fn sample_all(pids: &[u32]) -> Option<ProcSample> {
    let mut total: Option<ProcSample> = None;
    for pid in pids {
        let one = sample(*pid)?;
        let sum = total.get_or_insert_with(ProcSample::default);
        sum.cpu_seconds += one.cpu_seconds;
        sum.rss_kib += one.rss_kib;
        sum.peak_rss_kib += one.peak_rss_kib;
    }
    total
}

/// utime + stime from a `stat` line (fields 14 and 15, counted after the `(comm)` field, which
/// may hold spaces).
fn cpu_seconds(stat: &str) -> Option<f64> {
    let after_comm = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    // after_comm starts at field 3 (state): utime is field 14, stime 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SECOND)
}

/// A `Key:   1234 kB` line of `status`.
fn status_kib(status: &str, key: &str) -> Option<u64> {
    status
        .lines()
        .find(|line| line.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The load average over the last minute.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// CPU seconds this process (the load generator) used so far.
pub fn own_cpu_seconds() -> f64 {
    sample(std::process::id()).map_or(0.0, |s| s.cpu_seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_a_command_with_spaces() {
        let stat = "4242 (tokio runtime) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 8 0 100";
        assert_eq!(cpu_seconds(stat), Some(3.0));
        let status = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n";
        assert_eq!(status_kib(status, "VmRSS:"), Some(1024));
        assert_eq!(status_kib(status, "VmHWM:"), Some(2048));
    }

    #[test]
    fn this_process_can_be_read() {
        let me = sample(std::process::id()).expect("/proc of this process");
        assert!(me.rss_kib > 0 && me.peak_rss_kib >= me.rss_kib);
    }
}
