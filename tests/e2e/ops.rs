//! End to end, the operator's view: `/metrics` after real play counts exactly what happened,
//! `--log-format json` writes one JSON object per line with the request's span, and
//! `/api/openapi.json` describes exactly the routes the server answers.

use crate::common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use common::play::{hexdice_duel, play_at_random};
use common::{Http, TestDb, TestServer};

on_both_databases! {
    metrics_count_real_play_exactly;
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
    let (_room, mut players, mut spectator) = hexdice_duel(http, server.addr).await;
    play_at_random(&mut players, &mut [&mut spectator], 8, 99).await;
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
    assert_eq!(value("warroom_rooms_in_memory"), 1.0);
    assert_eq!(value("warroom_database_up"), 1.0);
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
    // The stored rooms are counted every 5 s (a scrape never waits for the database): the
    // playing room is counted within that.
    let mut playing = 0.0;
    for _ in 0..70 {
        let samples = scrape(http).await;
        playing = samples
            .get("warroom_rooms{state=\"playing\"}")
            .copied()
            .unwrap_or(0.0);
        if playing == 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(playing, 1.0);
    server.stop().await;
}

#[test]
fn json_logs_carry_the_request_span() {
    let db = common::db::sqlite();
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

/// The methods probed on every documented path.
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_describes_exactly_the_routes_served() {
    common::on_sqlite(openapi_describes_exactly_the_routes_served_on).await;
}

async fn openapi_describes_exactly_the_routes_served_on(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (status, document) = http.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1")),
        "{}",
        document["openapi"]
    );
    let paths = document["paths"].as_object().expect("paths");
    // Every documented path answers each documented method, and refuses the others with 405:
    // the router and the document list the same (path, method) pairs.
    for (path, item) in paths {
        let concrete = path.replace("{id}", "00000000-0000-4000-8000-000000000000");
        for method in METHODS {
            let documented = item.get(method.to_lowercase()).is_some();
            let body = json!({});
            let (status, answer) = http.request(method, &concrete, None, Some(&body)).await;
            if documented {
                let unrouted = status == 405 || (status == 404 && answer["code"] == "not_found");
                assert!(
                    !unrouted,
                    "{method} {path} is documented but not served: {status} {answer}"
                );
                let responses = &item[method.to_lowercase()]["responses"];
                assert!(
                    responses.as_object().is_some_and(|r| !r.is_empty()),
                    "{method} {path} documents no response"
                );
            } else {
                assert_eq!(
                    status, 405,
                    "{method} {path} is served but not documented: {answer}"
                );
            }
        }
    }
    // The routes the rest of the suite relies on are among them.
    for path in [
        "/healthz",
        "/metrics",
        "/ws",
        "/api/openapi.json",
        "/api/guests",
        "/api/rooms",
        "/api/rooms/{id}",
        "/api/matches/{id}/replay",
    ] {
        assert!(paths.contains_key(path), "{path} is not documented");
    }
    // Every schema a path or another schema names is defined.
    let schemas = document["components"]["schemas"]
        .as_object()
        .expect("component schemas");
    let mut references = Vec::new();
    collect_references(&document, &mut references);
    assert!(references.len() > 20, "{references:?}");
    for reference in references {
        let name = reference
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("unexpected reference {reference}"));
        assert!(schemas.contains_key(name), "{reference} is not defined");
    }
    // The bearer scheme the secured operations name.
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    server.stop().await;
}

/// Every `$ref` in `value`.
fn collect_references(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields {
                match (key.as_str(), field) {
                    ("$ref", Value::String(reference)) => into.push(reference.clone()),
                    _ => collect_references(field, into),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_references(item, into)),
        _ => {}
    }
}
