//! A run's figures: one JSON object per target (a line each), a readable table, the ratios of
//! the server to the echo baseline, and a Markdown table made from JSON lines (for
//! bench/RESULTS.md).

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};

use super::args::{Clients, Scenario};
use super::plan::RulesetChoice;
use super::procstat::ProcSample;
use super::spawn::Database;
use super::stats::{Latency, Recorder};
use super::{Target, cpu_between, target_name};

/// What one target's window measured.
#[derive(Debug)]
pub struct Measured {
    /// The run's name.
    pub label: String,
    /// Server or baseline.
    pub target: Target,
    /// The started server's database.
    pub database: Option<Database>,
    /// Play or idle.
    pub scenario: Scenario,
    /// Rulesets played.
    pub ruleset: RulesetChoice,
    /// Rooms playing.
    pub rooms: usize,
    /// Seats (sockets that act).
    pub seats: usize,
    /// Spectator sockets.
    pub spectators: usize,
    /// Sockets open.
    pub connections: usize,
    /// The paced rate, if any.
    pub rate: Option<f64>,
    /// The started server's binary (`--server`).
    pub server: String,
    /// Cluster mode: how many nodes, and where the rooms' clients connect (`None`: one process).
    pub cluster: Option<(usize, Clients)>,
    /// The window's length.
    pub seconds: f64,
    /// How long setup took.
    pub setup_seconds: f64,
    /// Client tasks that ended before the window did (failed).
    pub failed_tasks: usize,
    /// Counters and histograms.
    pub recorder: Arc<Recorder>,
    /// Errors by code up to the window's end (setup included; not the sockets closed when the
    /// target is stopped afterwards).
    pub errors: std::collections::BTreeMap<String, u64>,
    /// The target process at the window's start.
    pub before: Option<ProcSample>,
    /// Before any client connected (idle runs).
    pub base: Option<ProcSample>,
    /// At the window's end.
    pub after: Option<ProcSample>,
    /// The generator's own CPU seconds in the window.
    pub generator_cpu_seconds: f64,
    /// Each server process's CPU seconds in the window (the nodes, in order).
    pub node_cpu_seconds: Vec<Option<f64>>,
    /// The NATS server's messages (in, out) in the window (`--nats-monitor`).
    pub nats_messages: Option<(f64, f64)>,
    /// One-minute load average at the window's start and end.
    pub load_average: (Option<f64>, Option<f64>),
    /// The generator's command line.
    pub command: String,
    /// What the database did in the window ([`super::dbstat::summary`]; null for the echo).
    pub db: Value,
}

impl Measured {
    fn accepted(&self) -> u64 {
        Recorder::get(&self.recorder.accepted)
    }

    fn per_second(&self) -> f64 {
        self.accepted() as f64 / self.seconds.max(1e-9)
    }

    fn cpu(&self) -> Option<f64> {
        cpu_between(self.before, self.after)
    }

    /// Server CPU µs per accepted action (or echo round trip).
    fn cpu_per_action_us(&self) -> Option<f64> {
        let accepted = self.accepted();
        (accepted > 0).then(|| self.cpu().unwrap_or(0.0) * 1e6 / accepted as f64)
    }

    /// RSS growth per connection since before any connected (idle runs), in KiB.
    fn rss_per_connection_kib(&self) -> Option<f64> {
        let (base, after) = (self.base?, self.after?);
        (self.connections > 0)
            .then(|| (after.rss_kib as f64 - base.rss_kib as f64) / self.connections as f64)
    }
}

fn round(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}

fn mib(kib: u64) -> f64 {
    round(kib as f64 / 1024.0, 1)
}

/// The JSON object of one target (with ratios to the echo baseline when given).
pub fn json(run: &Measured, echo: Option<&Measured>) -> Value {
    let recorder = &run.recorder;
    let mut value = json!({
        "label": run.label,
        "target": target_name(run.target),
        "database": run.database.map(|db| match db { Database::Sqlite => "sqlite", Database::Postgres => "postgres" }),
        "scenario": match run.scenario { Scenario::Play => "play", Scenario::Idle => "idle" },
        "ruleset": format!("{:?}", run.ruleset).to_lowercase(),
        "rooms": run.rooms,
        "seats": run.seats,
        "spectators": run.spectators,
        "connections": run.connections,
        "rate": run.rate,
        "server": run.server,
        "nodes": run.cluster.map(|(nodes, _)| nodes),
        "clients": run.cluster.map(|(_, clients)| format!("{clients:?}").to_lowercase()),
        "seconds": round(run.seconds, 2),
        "setup_seconds": round(run.setup_seconds, 1),
        "accepted": run.accepted(),
        "accepted_per_s": round(run.per_second(), 1),
        "sent": Recorder::get(&recorder.sent),
        "matches_finished": Recorder::get(&recorder.finished),
        "messages_received": Recorder::get(&recorder.received),
        "bytes_received": Recorder::get(&recorder.received_bytes),
        "ack": recorder.histogram(Latency::Ack).summary(),
        "broadcast_seats": recorder.histogram(Latency::Seats).summary(),
        "broadcast_spectators": recorder.histogram(Latency::Spectators).summary(),
        "errors": run.errors,
        "failed_tasks": run.failed_tasks,
        "server_cpu_s": run.cpu().map(|c| round(c, 2)),
        "server_cpu_us_per_action": run.cpu_per_action_us().map(|c| round(c, 1)),
        "nats_in_msgs_per_action": run.nats_messages.filter(|_| run.accepted() > 0)
            .map(|(messages, _)| round(messages / run.accepted() as f64, 2)),
        "nats_out_msgs_per_action": run.nats_messages.filter(|_| run.accepted() > 0)
            .map(|(_, messages)| round(messages / run.accepted() as f64, 2)),
        "node_cpu_us_per_action": run.node_cpu_seconds.iter().map(|cpu| {
            let accepted = run.accepted();
            cpu.filter(|_| accepted > 0).map(|c| round(c * 1e6 / accepted as f64, 1))
        }).collect::<Vec<_>>(),
        "server_rss_mib": run.after.map(|s| mib(s.rss_kib)),
        "server_peak_rss_mib": run.after.map(|s| mib(s.peak_rss_kib)),
        "server_rss_before_mib": run.base.map(|s| mib(s.rss_kib)),
        "rss_per_connection_kib": run.rss_per_connection_kib().map(|k| round(k, 1)),
        "generator_cpu_s": round(run.generator_cpu_seconds, 2),
        "load_average": [run.load_average.0, run.load_average.1],
        "command": run.command,
        "db": run.db,
    });
    if let Some(echo) = echo {
        value["vs_echo"] = ratios(run, echo);
    }
    value
}

/// The server's figures over the echo baseline's.
fn ratios(run: &Measured, echo: &Measured) -> Value {
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(round(a / b, 3)),
        _ => None,
    };
    json!({
        "echo_round_trips_per_s": round(echo.per_second(), 1),
        "echo_cpu_us_per_round_trip": echo.cpu_per_action_us().map(|c| round(c, 2)),
        "echo_rss_per_connection_kib": echo.rss_per_connection_kib().map(|k| round(k, 1)),
        "throughput": ratio(Some(run.per_second()), Some(echo.per_second())),
        "cpu_per_action": ratio(run.cpu_per_action_us(), echo.cpu_per_action_us()),
        "rss_per_connection": ratio(run.rss_per_connection_kib(), echo.rss_per_connection_kib()),
        "ack_p99": ratio(
            Some(run.recorder.histogram(Latency::Ack).quantile(0.99) as f64),
            Some(echo.recorder.histogram(Latency::Ack).quantile(0.99) as f64),
        ),
    })
}

/// A readable table of one target.
pub fn table(run: &Measured) -> String {
    let value = json(run, None);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "== {} · {} · {} · {} ==",
        run.label,
        target_name(run.target),
        value["database"].as_str().unwrap_or("-"),
        value["scenario"].as_str().unwrap_or("-")
    );
    let line = |out: &mut String, name: &str, text: String| {
        let _ = writeln!(out, "  {name:<28} {text}");
    };
    line(
        &mut out,
        "rooms / seats / spectators",
        format!(
            "{} / {} / {} ({} sockets, {})",
            run.rooms,
            run.seats,
            run.spectators,
            run.connections,
            value["ruleset"].as_str().unwrap_or("-")
        ),
    );
    line(
        &mut out,
        "window / setup",
        format!("{:.1} s / {:.1} s", run.seconds, run.setup_seconds),
    );
    if run.scenario == Scenario::Play {
        line(
            &mut out,
            "accepted actions/s",
            format!(
                "{:.0} ({} accepted, {} matches finished{})",
                run.per_second(),
                run.accepted(),
                value["matches_finished"],
                run.rate
                    .map_or(String::new(), |r| format!(", paced at {r}/s"))
            ),
        );
        for (name, key) in [
            ("ack latency ms", "ack"),
            ("broadcast to seats ms", "broadcast_seats"),
            ("broadcast to spectators ms", "broadcast_spectators"),
        ] {
            let h = &value[key];
            if h["count"].as_u64().unwrap_or(0) > 0 {
                line(
                    &mut out,
                    name,
                    format!(
                        "p50 {} · p99 {} · p99.9 {} · max {} ({} samples)",
                        h["p50_ms"], h["p99_ms"], h["p999_ms"], h["max_ms"], h["count"]
                    ),
                );
            }
        }
    }
    line(&mut out, "errors", value["errors"].to_string());
    if let Some(cpu) = run.cpu() {
        line(
            &mut out,
            "server CPU",
            format!(
                "{cpu:.2} s ({} µs per accepted action)",
                value["server_cpu_us_per_action"]
            ),
        );
        if run.nats_messages.is_some() {
            line(
                &mut out,
                "NATS messages",
                format!(
                    "{} in, {} out per accepted action",
                    value["nats_in_msgs_per_action"], value["nats_out_msgs_per_action"]
                ),
            );
        }
        if run.node_cpu_seconds.len() > 1 {
            line(
                &mut out,
                "CPU per node",
                format!("{} µs per accepted action", value["node_cpu_us_per_action"]),
            );
        }
    }
    if let Some(after) = run.after {
        line(
            &mut out,
            "server RSS now / peak",
            format!(
                "{:.1} / {:.1} MiB",
                after.rss_kib as f64 / 1024.0,
                after.peak_rss_kib as f64 / 1024.0
            ),
        );
    }
    if let Some(per) = run.rss_per_connection_kib() {
        line(
            &mut out,
            "RSS per connection",
            format!(
                "{per:.1} KiB (from {} MiB before)",
                value["server_rss_before_mib"]
            ),
        );
    }
    if !run.db.is_null() {
        line(&mut out, "database", db_text(&run.db));
    }
    line(
        &mut out,
        "generator CPU / load average",
        format!(
            "{:.2} s / {:?} → {:?}",
            run.generator_cpu_seconds, run.load_average.0, run.load_average.1
        ),
    );
    out
}

/// What the database did, in one line.
fn db_text(db: &Value) -> String {
    let mut text = format!(
        "writer {} commits/s, {} appends per commit",
        db["writer_commits_per_s"], db["appends_per_writer_commit"]
    );
    if !db["db_commits_per_s"].is_null() {
        let _ = write!(
            text,
            "; PostgreSQL {} commits/s, {} rows inserted and {} updated per commit, backends {} µs CPU per action",
            db["db_commits_per_s"],
            db["db_rows_inserted_per_commit"],
            db["db_rows_updated_per_commit"],
            db["db_backends_cpu_us_per_action"]
        );
    }
    text
}

/// The ratios as a readable table.
pub fn ratios_table(run: &Measured, echo: &Measured) -> String {
    let value = ratios(run, echo);
    let mut out = String::from("== server / echo baseline (same run) ==\n");
    for (key, text) in value.as_object().into_iter().flatten() {
        let _ = writeln!(out, "  {key:<28} {text}");
    }
    out
}

/// Cluster run `runs[index]`'s server CPU per action over that of the last run of one process
/// (no `--nats-url`) before it with the same binary, database, rooms, ruleset, spectators and
/// pace (the same `--rate`, or both as fast as allowed): what the same load costs on the nodes
/// against one process, measured minutes apart (in rounds on a noisy machine, each cluster run
/// against its own round's). `None` when there is no such run (or either has no figure).
fn times_one_process(index: usize, runs: &[Value]) -> Option<f64> {
    let run = &runs[index];
    if run["nodes"].is_null() {
        return None;
    }
    let same = [
        "server",
        "database",
        "rooms",
        "ruleset",
        "spectators",
        "rate",
    ];
    let one = runs[..index].iter().rev().find(|other| {
        other["target"] == "warroom"
            && other["nodes"].is_null()
            && same.iter().all(|key| other[key] == run[key])
    })?;
    let cpu = run["server_cpu_us_per_action"].as_f64()?;
    let one_cpu = one["server_cpu_us_per_action"]
        .as_f64()
        .filter(|c| *c > 0.0)?;
    Some(round(cpu / one_cpu, 2))
}

/// The runs' ratios to one process ([`times_one_process`]) by label, for the labels run more
/// than once (rounds): `| label | rounds | median (lowest–highest) |` lines, in first-run order.
fn rounds_summary(runs: &[Value]) -> String {
    let mut ratios: Vec<(&str, Vec<f64>)> = Vec::new();
    for index in 0..runs.len() {
        let Some(ratio) = times_one_process(index, runs) else {
            continue;
        };
        let label = runs[index]["label"].as_str().unwrap_or("-");
        match ratios.iter_mut().find(|(seen, _)| *seen == label) {
            Some((_, values)) => values.push(ratio),
            None => ratios.push((label, vec![ratio])),
        }
    }
    let mut out = String::new();
    for (label, mut values) in ratios.into_iter().filter(|(_, v)| v.len() > 1) {
        values.sort_by(f64::total_cmp);
        let middle = values.len() / 2;
        let median = if values.len() % 2 == 1 {
            values[middle]
        } else {
            round((values[middle - 1] + values[middle]) / 2.0, 3)
        };
        let _ = writeln!(
            out,
            "| {label} | {} | {median} ({}–{}) |",
            values.len(),
            values[0],
            values[values.len() - 1]
        );
    }
    out
}

/// JSON lines (as written by `--json-out`) as a Markdown table.
pub fn markdown(lines: &str) -> anyhow::Result<String> {
    let mut out = String::from(
        "| run | target | db | sockets | accepted/s | ack p50 / p99 / p99.9 / max ms | to seats p50 / p99 ms | to spectators p50 / p99 ms | errors | server CPU µs/action | RSS MiB (peak) | KiB/conn | vs echo: throughput, CPU/action, KiB/conn | writer commits/s · appends/commit · all commits/s (PostgreSQL) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    // Cluster runs: NATS messages and each node's CPU, in a table of their own.
    let mut cluster = String::new();
    let runs = lines
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<Vec<Value>, _>>()?;
    for (index, v) in runs.iter().enumerate() {
        let lat = |key: &str, full: bool| {
            let h = &v[key];
            if h["count"].as_u64().unwrap_or(0) == 0 {
                return "–".to_owned();
            }
            if full {
                format!(
                    "{} / {} / {} / {}",
                    h["p50_ms"], h["p99_ms"], h["p999_ms"], h["max_ms"]
                )
            } else {
                format!("{} / {}", h["p50_ms"], h["p99_ms"])
            }
        };
        let opt = |value: &Value| {
            if value.is_null() {
                "–".to_owned()
            } else {
                value.to_string()
            }
        };
        let errors =
            v["errors"]
                .as_object()
                .filter(|e| !e.is_empty())
                .map_or("0".to_owned(), |e| {
                    e.iter()
                        .map(|(k, n)| format!("{k} {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                });
        let vs = &v["vs_echo"];
        let versus = if vs.is_null() {
            "–".to_owned()
        } else {
            format!(
                "{} · {} · {}",
                opt(&vs["throughput"]),
                opt(&vs["cpu_per_action"]),
                opt(&vs["rss_per_connection"])
            )
        };
        let accepted = if v["scenario"] == "idle" {
            "–".to_owned()
        } else {
            format!("{:.0}", v["accepted_per_s"].as_f64().unwrap_or(0.0))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} |",
            v["label"].as_str().unwrap_or("-"),
            v["target"].as_str().unwrap_or("-"),
            v["database"].as_str().unwrap_or("–"),
            v["connections"],
            accepted,
            lat("ack", true),
            lat("broadcast_seats", false),
            lat("broadcast_spectators", false),
            errors,
            opt(&v["server_cpu_us_per_action"]),
            opt(&v["server_rss_mib"]),
            opt(&v["server_peak_rss_mib"]),
            opt(&v["rss_per_connection_kib"]),
            versus,
            if v["db"].is_null() {
                "–".to_owned()
            } else {
                format!(
                    "{} · {} · {}",
                    opt(&v["db"]["writer_commits_per_s"]),
                    opt(&v["db"]["appends_per_writer_commit"]),
                    opt(&v["db"]["db_commits_per_s"])
                )
            },
        );
        if !v["nodes"].is_null() || !v["nats_in_msgs_per_action"].is_null() {
            let _ = writeln!(
                cluster,
                "| {} | {} / {} | {} | {} |",
                v["label"].as_str().unwrap_or("-"),
                opt(&v["nats_in_msgs_per_action"]),
                opt(&v["nats_out_msgs_per_action"]),
                opt(&v["node_cpu_us_per_action"]),
                times_one_process(index, &runs).map_or("–".to_owned(), |t| t.to_string()),
            );
        }
    }
    if !cluster.is_empty() {
        out.push_str(
            "\n| run | NATS messages in / out per action | CPU µs/action per node | server CPU/action, times one process at the same pace |\n|---|---|---|---|\n",
        );
        out.push_str(&cluster);
    }
    let rounds = rounds_summary(&runs);
    if !rounds.is_empty() {
        out.push_str(
            "\n| run | rounds | times one process: median (lowest–highest) |\n|---|---|---|\n",
        );
        out.push_str(&rounds);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{rounds_summary, times_one_process};

    fn run(nodes: Option<usize>, rate: Option<f64>, cpu: f64) -> serde_json::Value {
        json!({
            "target": "warroom", "server": "target/release/warroom", "database": "postgres",
            "rooms": 50, "ruleset": "hexdice", "spectators": 50, "rate": rate,
            "nodes": nodes, "server_cpu_us_per_action": cpu,
        })
    }

    #[test]
    fn a_cluster_run_is_compared_with_one_process_at_its_own_pace_only() {
        let runs = [
            run(None, None, 50.0),
            run(None, Some(300.0), 400.0),
            run(Some(2), Some(300.0), 600.0),
            run(Some(2), None, 100.0),
            run(Some(2), Some(1500.0), 300.0),
        ];
        assert_eq!(times_one_process(2, &runs), Some(1.5));
        assert_eq!(times_one_process(3, &runs), Some(2.0));
        // No run of one process at 1500 actions/s: nothing to compare with.
        assert_eq!(times_one_process(4, &runs), None);
        // One process is not compared with itself, nor with an earlier run of one process.
        assert_eq!(times_one_process(0, &runs), None);
        let again = [run(None, None, 50.0), run(None, None, 60.0)];
        assert_eq!(times_one_process(1, &again), None);
    }

    #[test]
    fn another_binary_is_not_compared_with() {
        let mut other = run(None, None, 50.0);
        other["server"] = json!("/tmp/warroom-before");
        let runs = [other, run(Some(2), None, 100.0)];
        assert_eq!(times_one_process(1, &runs), None);
    }

    #[test]
    fn each_round_is_compared_with_its_own_one_process_run_and_summed_up_by_median() {
        let labelled = |label: &str, nodes, cpu| {
            let mut run = run(nodes, None, cpu);
            run["label"] = json!(label);
            run
        };
        let runs = [
            labelled("one", None, 50.0),
            labelled("two", Some(2), 100.0),
            labelled("one", None, 80.0),
            labelled("two", Some(2), 100.0),
            labelled("one", None, 40.0),
            labelled("two", Some(2), 60.0),
        ];
        assert_eq!(times_one_process(3, &runs), Some(1.25));
        assert_eq!(rounds_summary(&runs), "| two | 3 | 1.5 (1.25–2) |\n");
    }
}
