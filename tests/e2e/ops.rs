//! End to end, the operator's view: `/metrics` after real play counts exactly what happened, and
//! `--log-format json` writes one JSON object per line with the request's span.

use crate::common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use common::play::{Chooser, play, seat_everyone};
use common::{Http, TestDb, TestServer};

on_both_databases! {
    metrics_count_real_play_exactly => metrics_count_real_play_exactly;
}

/// One scrape: every sample by its name with labels, e.g. `warroom_rooms{state="playing"}`.
async fn scrape(http: Http) -> HashMap<String, f64> {
    let (status, body) = http.get("/metrics", None).await;
    assert_eq!(status, 200);
    let text = body.as_str().expect("the metrics are text, not JSON");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let (name, value) = line.rsplit_once(' ').expect("a sample line");
            (name.to_owned(), value.parse().expect("a number"))
        })
        .collect()
}

fn sample(samples: &HashMap<String, f64>, name: &str) -> f64 {
    *samples
        .get(name)
        .unwrap_or_else(|| panic!("no sample {name} in {samples:#?}"))
}

async fn metrics_count_real_play_exactly(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (_room, mut players, mut spectator) =
        seat_everyone(http, server.addr, "hexdice", json!({}), 2).await;
    let mut chooser = Chooser(99);
    play(&mut players, &mut [&mut spectator], 8, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    let applied = players[0].seq;
    assert!(applied > 0);
    // One refused action: the seat not to act ends its turn.
    let to_act = players[0].to_act.expect("the match runs");
    let waiting = players
        .iter_mut()
        .find(|p| p.seat != Some(to_act))
        .expect("a waiting player");
    let refused = waiting
        .act("out-of-turn", &json!({"type": "end_turn"}))
        .await;
    assert_eq!(refused["code"], "not_your_turn", "{refused}");
    // One malformed message.
    spectator.client.send(&json!({"type": "teleport"})).await;
    assert_eq!(spectator.client.error_code().await, "malformed_message");

    let samples = scrape(http).await;
    let value = |name: &str| sample(&samples, name);
    assert_eq!(value("warroom_actions_applied_total"), applied as f64);
    assert_eq!(
        value("warroom_actions_refused_total{code=\"not_your_turn\"}"),
        1.0
    );
    assert_eq!(value("warroom_action_seconds_count"), applied as f64 + 1.0);
    assert_eq!(
        value("warroom_action_seconds_bucket{le=\"+Inf\"}"),
        applied as f64 + 1.0
    );
    assert_eq!(
        value("warroom_ws_errors_sent_total{code=\"malformed_message\"}"),
        1.0
    );
    assert_eq!(
        value("warroom_ws_errors_sent_total{code=\"not_your_turn\"}"),
        1.0
    );
    // Every accepted action is one append; the writer may batch them.
    assert_eq!(value("warroom_append_batch_size_sum"), applied as f64);
    let commits = value("warroom_append_commit_seconds_count");
    assert!(commits >= 1.0 && commits <= applied as f64, "{commits}");
    assert_eq!(value("warroom_append_failures_total"), 0.0);
    assert_eq!(value("warroom_connections"), 3.0);
    assert_eq!(value("warroom_connections_opened_total"), 3.0);
    assert_eq!(value("warroom_rooms{state=\"playing\"}"), 1.0);
    assert_eq!(value("warroom_rooms_in_memory"), 1.0);
    assert_eq!(value("warroom_slow_consumer_kicks_total"), 0.0);
    // Two guests and a room were created, and /metrics itself has not been counted yet.
    assert_eq!(value("warroom_http_responses_total{status=\"201\"}"), 3.0);
    // Each socket sent hello and join (players also take_seat), plus the actions and the two
    // refused messages; each got at least welcome, room and snapshot, and every applied.
    let received = value("warroom_ws_messages_received_total");
    assert_eq!(received, 3.0 * 2.0 + 2.0 + applied as f64 + 2.0);
    assert!(value("warroom_ws_received_bytes_total") > received * 10.0);
    let sent = value("warroom_ws_messages_sent_total");
    assert!(sent >= 3.0 * (3.0 + applied as f64), "{sent}");
    assert!(value("warroom_ws_sent_bytes_total") > sent * 10.0);

    // A closed socket leaves the gauge.
    spectator.client.close().await;
    let mut open = 3.0;
    for _ in 0..200 {
        open = sample(&scrape(http).await, "warroom_connections");
        if open == 2.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(open, 2.0);
    server.stop().await;
}

#[test]
fn json_logs_carry_the_request_span() {
    let db = TestDb::sqlite();
    let mut child = Command::new(env!("CARGO_BIN_EXE_warroom"))
        .args(["--bind", "127.0.0.1:0", "--database-url", &db.url])
        .args(["--log-format", "json"])
        .env("RUST_LOG", "warroom_server=debug,warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start warroom");
    let mut listening = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut listening)
        .expect("the listening line");
    let addr = listening
        .trim()
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {listening:?}"));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (status, _) = runtime.block_on(Http { addr }.get("/api/rooms/not-a-room", None));
    assert!(status >= 400);
    // SIGKILL: the lines written so far are all there (stderr is unbuffered).
    child.kill().expect("kill");
    let _ = child.wait();
    let mut answered = None;
    for line in BufReader::new(child.stderr.take().expect("stderr")).lines() {
        let line = line.expect("a line");
        let entry: Value = serde_json::from_str(&line)
            .unwrap_or_else(|error| panic!("not a JSON line ({error}): {line}"));
        assert!(
            entry["timestamp"].is_string() && entry["level"].is_string(),
            "{line}"
        );
        if entry["fields"]["message"] == "answered" {
            answered = Some(entry);
        }
    }
    let answered = answered.expect("a line for the answered request");
    assert_eq!(answered["span"]["name"], "http", "{answered}");
    assert_eq!(answered["span"]["route"], "/api/rooms/{id}", "{answered}");
    assert_eq!(
        answered["span"]["path"], "/api/rooms/not-a-room",
        "{answered}"
    );
    assert_eq!(answered["span"]["method"], "GET", "{answered}");
    assert_eq!(answered["fields"]["status"], status, "{answered}");
    runtime.block_on(db.cleanup());
}
