//! End to end: a waiting room nobody is connected to expires (here after one second), says so
//! and leaves the lobby; a waiting room with someone in it, or a match being played, does not.

use crate::common;

use std::time::Duration;

use serde_json::{Value, json};
use warroom_server::config::Config;

use common::play::seat_players;
use common::{Http, TestDb, TestServer};

on_both_databases! {
    abandoned_waiting_rooms_expire_and_say_so;
}

async fn room_state(http: &Http, room: &str) -> Value {
    http.get(&format!("/api/rooms/{room}"), None).await.1["state"].clone()
}

async fn abandoned_waiting_rooms_expire_and_say_so(db: TestDb) {
    let mut config = Config::for_tests(db.url.clone());
    config.limits.waiting_room_expiry = Duration::from_secs(1);
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let [(_, ada), (_, bob), (_, cyd)] = http.guests(["Ada", "Bob", "Cyd"]).await;

    // Ada opens a room, takes a seat, and goes away.
    let left = http.room_id(&ada, &json!({"ruleset": "hexdice"})).await;
    let mut socket = server.client(Some(&ada)).await;
    socket.sit(&left, None).await;
    socket.close().await;
    // Bob waits in his room; Cyd and Ada play in a third.
    let kept = http.room_id(&bob, &json!({"ruleset": "hexdice"})).await;
    let mut bob_socket = server.client(Some(&bob)).await;
    bob_socket.join(&kept, None).await;
    let played = http.room_id(&cyd, &json!({"ruleset": "hexdice"})).await;
    let players = seat_players(server.addr, &played, None, &[cyd.clone(), ada.clone()]).await;
    drop(players);

    let mut expired = false;
    for _ in 0..100 {
        if room_state(&http, &left).await == "expired" {
            expired = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(expired, "the abandoned room expires");
    let (_, lobby) = http.get("/api/rooms", None).await;
    let listed = common::ids_of(&lobby["rooms"]);
    assert!(!listed.contains(&left.as_str()), "{listed:?}");
    assert!(
        listed.contains(&kept.as_str()),
        "someone waits there: {listed:?}"
    );

    // Joining it says why it is closed.
    let mut late = server.client(Some(&ada)).await;
    let answer = late.join(&left, None).await;
    assert_eq!(
        (answer["type"].as_str(), answer["code"].as_str()),
        (Some("error"), Some("room_expired")),
        "{answer}"
    );
    let (_, found) = http.quick_play(&cyd, &json!({"ruleset": "hexdice"})).await;
    assert_ne!(found["room"]["id"].as_str(), Some(left.as_str()));

    // The room with Bob in it still waits, and the played one plays, well after a second.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(room_state(&http, &kept).await, "waiting");
    assert_eq!(room_state(&http, &played).await, "playing");
    drop(bob_socket);
    server.stop().await;
}
