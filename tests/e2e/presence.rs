//! End to end, who follows a room: spectators have their own cap so seated players always get
//! in, a repeated `join` is answered only to its sender (nobody else hears of it), a joiner gets
//! its `room` once, and a crowd coming and going is told to the others coalesced (at most a
//! few `room` messages a second).

use crate::common;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::play::seat_players;
use common::{Client, TestServer};

/// The `room` messages among `messages`.
fn rooms(messages: &[Value]) -> Vec<&Value> {
    messages.iter().filter(|m| m["type"] == "room").collect()
}

/// Reads until a `room` that counts `spectators`.
async fn until_spectators(client: &mut Client, spectators: u64) -> Value {
    client
        .until(&format!("room with {spectators} spectators"), |m| {
            m["type"] == "room" && m["room"]["spectators"] == spectators
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_cannot_lock_out_a_player() {
    let server = TestServer::on_sqlite(|limits| limits.max_spectators_per_room = 3).await;
    let http = server.http();
    let [(_, ada), (_, bob)] = http.guests(["Ada", "Bob"]).await;
    let room_id = http
        .room_id(&ada, &json!({"ruleset": "hexdice", "seats": 2}))
        .await;
    let _players = seat_players(server.addr, &room_id, None, &[ada.clone(), bob]).await;
    let mut spectators = Vec::new();
    for _ in 0..3 {
        let mut spectator = server.client(None).await;
        let joined = spectator.join(&room_id, None).await;
        assert_eq!(joined["type"], "room", "{joined}");
        spectators.push(spectator);
    }
    let mut one_more = server.client(None).await;
    let refused = one_more.join(&room_id, None).await;
    assert_eq!(refused["code"], "too_many_connections", "{refused}");
    // Ada comes back on new sockets (other tabs, reconnects): she always gets in.
    for _ in 0..3 {
        let mut again = server.client(Some(&ada)).await;
        let joined = again.join(&room_id, None).await;
        assert_eq!(joined["type"], "room", "{joined}");
        let snapshot = again.until_type("snapshot").await;
        assert_eq!(snapshot["seat"], 0, "as her seat");
        spectators.push(again);
    }
    // A spectator leaving makes room for another.
    spectators.remove(0).close().await;
    let mut admitted = false;
    for _ in 0..100 {
        let joined = one_more.join(&room_id, None).await;
        if joined["type"] == "room" {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(admitted, "a freed spectator place is taken");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_join_is_answered_only_to_its_sender() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let http = server.http();
    let (_, ada) = http.guest("Ada").await;
    let room_id = http.room_id(&ada, &json!({"ruleset": "hexdice"})).await;
    let mut watcher = server.client(None).await;
    watcher.join(&room_id, None).await;
    let mut flooder = server.client(None).await;
    flooder.join(&room_id, None).await;
    until_spectators(&mut watcher, 2).await;
    watcher.sync().await;
    let before = watcher.received.len();
    for _ in 0..20 {
        flooder
            .send(&json!({"type": "join", "room": room_id}))
            .await;
    }
    flooder.sync().await;
    watcher.sync().await;
    let heard: Vec<_> = watcher.received[before..]
        .iter()
        .filter(|m| m["type"] != "pong")
        .collect();
    assert!(
        heard.is_empty(),
        "the others hear nothing of a repeated join: {heard:?}"
    );
    let answers = rooms(&flooder.received).len();
    assert_eq!(answers, 21, "the sender is answered each time, once");
    // A fresh joiner gets its room once (not twice), and the others hear of it once.
    let mut fresh = server.client(None).await;
    let joined = fresh.join(&room_id, None).await;
    assert_eq!(joined["room"]["spectators"], 3, "{joined}");
    until_spectators(&mut watcher, 3).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    fresh.sync().await;
    watcher.sync().await;
    assert_eq!(rooms(&fresh.received).len(), 1, "{:?}", fresh.received);
    assert_eq!(
        rooms(&watcher.received[before..]).len(),
        1,
        "the others hear of the new spectator once"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_coming_and_going_is_told_coalesced() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let http = server.http();
    let (_, ada) = http.guest("Ada").await;
    let room_id = http
        .room_id(&ada, &json!({"ruleset": "hexdice", "creator_seat": 0}))
        .await;
    // Ada holds a seat: she is not counted as a spectator.
    let mut watcher = server.client(Some(&ada)).await;
    watcher.join(&room_id, None).await;
    watcher.sync().await;
    let mut crowd = Vec::new();
    for _ in 0..40 {
        crowd.push(server.client(None).await);
    }
    let before = watcher.received.len();
    let started = Instant::now();
    for client in &mut crowd {
        client.send(&json!({"type": "join", "room": room_id})).await;
    }
    for client in &mut crowd {
        let joined = client
            .until("room", |m| m["type"] == "room" || m["type"] == "error")
            .await;
        assert_eq!(joined["type"], "room", "{joined}");
    }
    for client in crowd {
        client.close().await;
    }
    // Everyone left: the watcher's last word says so.
    until_spectators(&mut watcher, 0).await;
    let took = started.elapsed();
    tokio::time::sleep(Duration::from_millis(600)).await;
    watcher.sync().await;
    let heard = rooms(&watcher.received[before..]);
    assert_eq!(heard.last().unwrap()["room"]["spectators"], 0);
    // 80 changes; at most one `room` every 250 ms (and the first at once).
    let allowed = took.as_millis() / 250 + 2;
    assert!(
        heard.len() as u128 <= allowed,
        "{} room messages in {took:?} (allowed {allowed})",
        heard.len()
    );
    // The lobby's copy is current at once.
    let (_, shown) = http.get(&format!("/api/rooms/{room_id}"), None).await;
    assert_eq!(shown["spectators"], 0, "{shown}");
    assert_eq!(shown["seats"][0]["connected"], true, "{shown}");
    server.stop().await;
}
