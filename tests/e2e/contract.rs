//! End to end, the error contract everywhere: every error a client can cause, from a handler,
//! the router (404, 405, bad UTF-8 in a path, a duplicate query field, `/ws` without upgrade) or
//! the body limits (413, 408), is `{"code", "message"}` with its status. One test walks every
//! documented route (from `/api/openapi.json`) with every wrong method and malformed inputs, with
//! and without a bearer, and checks that the document lists every status each route answered.

use crate::common;

use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use common::play::{participant, seat_players};
use common::{Client, TestDb, TestServer};

const METHODS: [&str; 6] = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/// Every documented (path, methods) pair of a running server.
async fn documented_routes(server: &TestServer) -> Vec<(String, Vec<String>)> {
    let (status, document) = server.http().get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    document["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .map(|(path, item)| {
            let methods = item
                .as_object()
                .expect("path item")
                .keys()
                .filter(|key| METHODS.contains(&key.to_uppercase().as_str()))
                .map(|key| key.to_uppercase())
                .collect();
            (path.clone(), methods)
        })
        .collect()
}

/// The statuses the document lists for `method path` (`method` in upper case).
fn documented_statuses(document: &serde_json::Value, path: &str, method: &str) -> Vec<u16> {
    document["paths"][path][method.to_lowercase()]["responses"]
        .as_object()
        .map(|responses| {
            responses
                .keys()
                .filter_map(|status| status.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// `path` with each `{param}` replaced by `value`.
fn with_params(path: &str, value: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').expect("closing brace") + start;
        out.push_str(value);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_answers_wrong_methods_and_malformed_input_in_the_contract() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let http = server.http();
    let (_, token) = http.guest("Walker").await;
    let bearer = format!("Bearer {token}");
    let auth = [("authorization", bearer.as_str())];
    let routes = documented_routes(&server).await;
    assert!(routes.len() >= 15, "{routes:?}");
    let (_, document) = http.get("/api/openapi.json", None).await;
    // Each (route, method, status) answered that the document does not list.
    let mut undocumented = std::collections::BTreeSet::new();
    let mut checked = 0;
    for (path, methods) in &routes {
        let concrete = with_params(path, &uuid::Uuid::new_v4().to_string());
        // Every method the route does not take: 405 with `Allow`.
        for method in METHODS.iter().filter(|m| !methods.iter().any(|x| x == *m)) {
            let answer = http.send(method, &concrete, &auth, b"").await;
            let what = format!("{method} {path}");
            assert_eq!(answer.error(405, &what), "method_not_allowed", "{what}");
            let allow = answer.header("allow").unwrap_or_default().to_owned();
            for taken in methods {
                assert!(allow.contains(taken.as_str()), "{what}: Allow {allow}");
            }
            checked += 1;
        }
        // Malformed inputs through every method it takes: never a 5xx, every error in the
        // contract.
        let mut inputs: Vec<(String, Vec<u8>, &str)> = vec![
            (concrete.clone(), b"{".to_vec(), "a broken JSON body"),
            (concrete.clone(), b"[1, 2]".to_vec(), "a JSON array body"),
            (
                concrete.clone(),
                vec![0xff, 0xfe, 0x00],
                "a body that is not UTF-8",
            ),
            (
                format!("{concrete}?limit=abc&limit=3&state=x&state=y&ruleset=chess&name="),
                b"{}".to_vec(),
                "a bad and duplicate query",
            ),
            (concrete.clone(), vec![b' '; 70 * 1024], "an oversized body"),
        ];
        if path.contains('{') {
            inputs.push((
                with_params(path, "%FF%FE"),
                Vec::new(),
                "bad UTF-8 in the path",
            ));
            inputs.push((with_params(path, "not-an-id"), Vec::new(), "a malformed id"));
        }
        for method in methods {
            if path == "/ws" {
                continue; // checked below: without an upgrade it is a 400
            }
            let listed = documented_statuses(&document, path, method);
            // With the bearer, without one, and with one no identity holds.
            let bearers: [&[(&str, &str)]; 3] =
                [&auth, &[], &[("authorization", "Bearer no-such-token")]];
            for headers in bearers {
                for (target, body, what) in &inputs {
                    let answer = http.send(method, target, headers, body).await;
                    let what = format!("{method} {target:.80}: {what}");
                    assert!(answer.status != 0, "{what}: an answer");
                    assert!(
                        answer.status < 500,
                        "{what}: not a server error: {answer:?}"
                    );
                    if answer.status >= 400 {
                        answer.error(answer.status, &what);
                    }
                    if !listed.contains(&answer.status) {
                        undocumented.insert(format!("{method} {path} {}", answer.status));
                    }
                    checked += 1;
                }
            }
        }
    }
    println!("checked {checked} requests over {} routes", routes.len());
    assert!(
        undocumented.is_empty(),
        "answers the OpenAPI document does not list: {undocumented:#?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn router_rejections_are_in_the_contract() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let http = server.http();
    let answer = http.send("GET", "/no/such/route", &[], b"").await;
    assert_eq!(answer.error(404, "unknown route"), "not_found");
    let answer = http.send("GET", "/api/rooms/%FF%FE", &[], b"").await;
    assert_eq!(answer.error(400, "bad UTF-8 in a path"), "invalid_request");
    let answer = http
        .send("GET", "/api/matches?state=playing&state=finished", &[], b"")
        .await;
    assert_eq!(
        answer.error(400, "duplicate query field"),
        "invalid_request"
    );
    let answer = http.send("GET", "/ws", &[], b"").await;
    assert_eq!(answer.error(400, "/ws without upgrade"), "invalid_request");
    let answer = http.send("DELETE", "/api/rooms", &[], b"").await;
    assert_eq!(answer.error(405, "wrong method"), "method_not_allowed");
    assert!(answer.header("allow").is_some_and(|a| a.contains("POST")));
    let answer = http.send("POST", "/healthz", &[], b"").await;
    assert_eq!(
        answer.error(405, "wrong method on /healthz"),
        "method_not_allowed"
    );
    let answer = http.send("POST", "/index.html", &[], b"").await;
    assert_eq!(
        answer.error(405, "wrong method on a client file"),
        "method_not_allowed"
    );
    // The web client's files still answer as files.
    let answer = http.send("GET", "/", &[], b"").await;
    assert_eq!(answer.status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_and_slow_bodies_are_refused_in_the_contract() {
    let server = TestServer::on_sqlite(|limits| {
        limits.max_body_bytes = 1024;
        limits.body_read_timeout = Duration::from_secs(1);
    })
    .await;
    let http = server.http();
    // Declared too large: refused before reading.
    let body = format!("{{\"name\": \"{}\"}}", "x".repeat(2000));
    let answer = http.send("POST", "/api/guests", &[], body.as_bytes()).await;
    assert_eq!(answer.error(413, "body over the limit"), "body_too_large");
    // Chunked, no declared length, too large once read.
    let mut request =
        b"POST /api/guests HTTP/1.1\r\nhost: x\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n"
            .to_vec();
    for _ in 0..3 {
        request.extend_from_slice(format!("{:x}\r\n{}\r\n", 600, "y".repeat(600)).as_bytes());
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let answer = http.raw(&request).await;
    assert_eq!(
        answer.error(413, "chunked body over the limit"),
        "body_too_large"
    );
    // A body announced but sent too slowly: 408 after the read timeout, not a hang.
    let started = Instant::now();
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"POST /api/guests HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: 40\r\n\r\n{\"name\":")
        .await
        .unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("answered before the client gave up")
        .unwrap();
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"code\":\"request_timeout\""), "{text}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Within the limits all is well.
    let (id, _) = http.guest("Small").await;
    assert!(!id.is_empty());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_ruleset_is_named_and_bearer_is_case_insensitive() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let http = server.http();
    let (id, token) = http.guest("Casey").await;
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let credentials = format!("{scheme} {token}");
        let header = [("authorization", credentials.as_str())];
        let answer = http.send("GET", "/api/me", &header, b"").await;
        assert_eq!(answer.status, 200, "{scheme}: {answer:?}");
        assert_eq!(answer.body["id"], id.as_str());
    }
    let answer = http
        .send("GET", "/api/me", &[("authorization", "Basic abc")], b"")
        .await;
    assert_eq!(answer.error(401, "another scheme"), "unauthorized");
    let credentials = format!("bearer {token}");
    let header = [
        ("authorization", credentials.as_str()),
        ("content-type", "application/json"),
    ];
    for path in ["/api/rooms", "/api/quick-play"] {
        let answer = http
            .send("POST", path, &header, br#"{"ruleset": "chess"}"#)
            .await;
        assert_eq!(answer.error(400, path), "unknown_ruleset", "{path}");
    }
    let answer = http
        .send("POST", "/api/rooms", &header, br#"{"ruleset": 7}"#)
        .await;
    assert_eq!(
        answer.error(400, "a ruleset that is no name"),
        "invalid_request"
    );
    server.stop().await;
}

on_both_databases! {
    unknown_fields_in_an_action_are_refused;
}

async fn unknown_fields_in_an_action_are_refused(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(_, ada), (_, bob)] = http.guests(["Ada", "Bob"]).await;
    let room_id = http
        .room_id(&ada, &json!({"ruleset": "hexdice", "seats": 2}))
        .await;
    let mut players = seat_players(server.addr, &room_id, None, &[ada, bob]).await;
    let to_act = players[0].to_act.expect("someone acts");
    let actor = players.iter_mut().find(|p| p.seat == Some(to_act)).unwrap();
    let seq = actor.seq;
    for legal in actor.legal.clone().iter().take(3) {
        let mut padded = legal.clone();
        padded["sneaky"] = json!(true);
        let answer = actor.act("padded", &padded).await;
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(answer["code"], "unknown_action", "{answer}");
    }
    // A unit action too.
    let answer = actor
        .act("padded-end", &json!({"type": "end_turn", "now": 1}))
        .await;
    assert_eq!(answer["code"], "unknown_action", "{answer}");
    // Nothing changed: the same legal action, without the extra field, is accepted as seq + 1.
    let legal = actor.legal[0].clone();
    let answer = actor.act("clean", &legal).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    assert_eq!(answer["seq"], seq + 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_names_the_room_and_action_it_dropped() {
    let server = TestServer::on_sqlite(|limits| {
        limits.messages_per_second = 1;
        limits.message_burst = 3;
    })
    .await;
    let http = server.http();
    let (_, ada) = http.guest("Ada").await;
    let room_id = http.room_id(&ada, &json!({"ruleset": "hexdice"})).await;
    let mut client = Client::connect(server.addr).await;
    // hello and join use 2 of the 3.
    client.hello(Some(&ada)).await;
    client.join(&room_id, None).await;
    let mut ada_seat = participant(client, None, None, &room_id);
    for n in 0..3 {
        ada_seat
            .client
            .send(&json!({"type": "action", "room": room_id, "id": format!("x{n}"), "action": {"type": "end_turn"}}))
            .await;
    }
    let mut limited = Vec::new();
    while limited.len() < 2 {
        let message = ada_seat.client.next().await.expect("open");
        if message["code"] == "rate_limited" {
            limited.push(message);
        }
    }
    for (message, id) in limited.iter().zip(["x1", "x2"]) {
        assert_eq!(message["room"], room_id.as_str(), "{message}");
        assert_eq!(message["id"], id, "{message}");
    }
    server.stop().await;
}
