//! End to end, a room's followers: spectators have their own cap so seated players always get
//! in, and a repeated `join` is answered only to its sender (nobody else hears of it).

use crate::common;

use serde_json::json;

use common::play::seat_players;
use common::{Client, TestDb, TestServer};
use warroom_server::config::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_cannot_lock_out_a_player() {
    let db = TestDb::sqlite();
    let mut config = Config::for_tests(db.url.clone());
    config.limits.max_connections_per_room = 3;
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let (_, ada) = http.guest("Ada").await;
    let (_, bob) = http.guest("Bob").await;
    let room = http.room(&ada, &json!({"ruleset": "hexdice", "seats": 2})).await;
    let room_id = room["id"].as_str().unwrap().to_owned();
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
    // Ada comes back on a new socket (another tab, a reconnect): she gets in.
    let mut again = server.client(Some(&ada)).await;
    let joined = again.join(&room_id, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let snapshot = again.until_type("snapshot").await;
    assert_eq!(snapshot["seat"], 0, "as her seat");
    server.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_join_is_answered_only_to_its_sender() {
    common::on_sqlite(|db: TestDb| async move {
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (_, ada) = http.guest("Ada").await;
        let room = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
        let room_id = room["id"].as_str().unwrap().to_owned();
        let mut watcher = server.client(None).await;
        watcher.join(&room_id, None).await;
        let mut flooder = Client::connect(server.addr).await;
        flooder.hello(None).await;
        flooder.join(&room_id, None).await;
        watcher.sync().await;
        let before = watcher.received.len();
        for _ in 0..20 {
            flooder.join(&room_id, None).await;
        }
        flooder.sync().await;
        watcher.sync().await;
        let heard: Vec<_> = watcher.received[before..]
            .iter()
            .filter(|m| m["type"] != "pong")
            .collect();
        assert!(heard.is_empty(), "the others hear nothing of a repeated join: {heard:?}");
        let answers = flooder.received.iter().filter(|m| m["type"] == "room").count();
        assert_eq!(answers, 21, "the sender is answered each time, once");
        // A fresh joiner gets its room once (not twice), and the others once each.
        let mut fresh = server.client(None).await;
        fresh.join(&room_id, None).await;
        fresh.sync().await;
        assert_eq!(fresh.received.iter().filter(|m| m["type"] == "room").count(), 1);
        watcher.sync().await;
        let rooms = watcher.received[before..].iter().filter(|m| m["type"] == "room").count();
        assert_eq!(rooms, 1, "the others hear of the new spectator once");
        server.stop().await;
    })
    .await;
}
