//! End to end: "Play now" sends a player to the oldest waiting public room of the ruleset that
//! has a free seat and whose seated players are present, or opens one.

use crate::common;

use serde_json::json;

use common::{Client, TestDb, TestServer};

on_both_databases! {
    quick_play_joins_the_oldest_waiting_room;
}

async fn quick_play_joins_the_oldest_waiting_room(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(_, ada), (_, bob), (_, cyd), (_, dee)] = http.guests(["Ada", "Bob", "Cyd", "Dee"]).await;
    let hexdice = json!({"ruleset": "hexdice"});

    // Nothing waits: a room is opened.
    let (status, first) = http.quick_play(&ada, &hexdice).await;
    assert_eq!(
        (status, first["created"].as_bool()),
        (201, Some(true)),
        "{first}"
    );
    let room = first["room"]["id"].as_str().unwrap().to_owned();
    assert_eq!(first["room"]["state"], "waiting");
    assert_eq!(first["room"]["private"], false);
    let mut ada_socket = server.client(Some(&ada)).await;
    ada_socket.sit(&room, None).await;
    // Asking again sends Ada back to the room she waits in.
    let (status, again) = http.quick_play(&ada, &hexdice).await;
    assert_eq!(
        (status, again["room"]["id"].as_str()),
        (200, Some(room.as_str()))
    );

    // A newer room whose only seated player has gone is not offered.
    let (_, dee_room) = http
        .quick_play(&dee, &json!({"ruleset": "hexdice", "seats": 2}))
        .await;
    assert_eq!(
        dee_room["room"]["id"].as_str(),
        Some(room.as_str()),
        "Dee is sent to Ada's room too"
    );
    let gone_id = http.room_id(&dee, &json!({"ruleset": "hexdice"})).await;
    let mut dee_socket = server.client(Some(&dee)).await;
    dee_socket.sit(&gone_id, None).await;
    dee_socket.close().await;

    // Bob is sent to Ada's room (the oldest that fits), takes the seat, and the match starts.
    let (status, found) = http.quick_play(&bob, &hexdice).await;
    assert_eq!(
        (status, found["created"].as_bool()),
        (200, Some(false)),
        "{found}"
    );
    assert_eq!(found["room"]["id"].as_str(), Some(room.as_str()));
    assert!(
        found["room"].get("invite_code").is_none(),
        "a joiner does not get the invite code"
    );
    let mut bob_socket = server.client(Some(&bob)).await;
    bob_socket.join(&room, None).await;
    bob_socket.take_seat(&room, None).await;
    let snapshot = bob_socket.until_type("snapshot").await;
    assert_eq!(snapshot["room"], room.as_str());

    // Ada's room plays now and Dee's room has nobody present: Cyd gets a new room.
    wait_until_absent(&http, &gone_id).await;
    let (status, fresh) = http.quick_play(&cyd, &hexdice).await;
    assert_eq!(
        (status, fresh["created"].as_bool()),
        (201, Some(true)),
        "{fresh}"
    );
    assert_ne!(fresh["room"]["id"].as_str(), Some(room.as_str()));
    assert_ne!(fresh["room"]["id"].as_str(), Some(gone_id.as_str()));

    http.post_refused("/api/quick-play", None, &hexdice, 401, "unauthorized")
        .await;
    http.post_refused(
        "/api/quick-play",
        Some(&cyd),
        &json!({"ruleset": "chess"}),
        400,
        "unknown_ruleset",
    )
    .await;
    let (status, body) = http
        .quick_play(&cyd, &json!({"ruleset": "hexdice", "seats": 7}))
        .await;
    assert_eq!(status, 400, "{body}");
    drop(ada_socket);
    drop::<Client>(bob_socket);
    server.stop().await;
}

/// Waits until the lobby shows the seated player of `room` as gone (the socket close reaches
/// the room task asynchronously).
async fn wait_until_absent(http: &common::Http, room: &str) {
    http.room_until(room, "the room saw its player leave", |shown| {
        shown["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| !s["connected"].as_bool().unwrap())
    })
    .await;
}
