//! End to end, rooms leave memory: a room nobody follows in which nothing more will happen
//! (finished) leaves memory after `--room-idle-eviction` and comes back from the database on
//! demand (REST, `join`) as it was; a match whose clock runs stays; at start-up waiting rooms
//! older than the expiry are expired instead of rebuilt.

use crate::common;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::play::{play_at_random, seat_everyone};
use common::{Client, Http, TestDb, TestServer};
use warroom_server::config::Config;

/// Waits until `/metrics` says `name` is at least `value`.
async fn metric_reaches(http: Http, name: &str, value: f64) {
    let started = Instant::now();
    loop {
        let now = http.metric(name).await;
        if now >= value {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{name} is {now}, not {value}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A server whose idle rooms leave memory after a second.
async fn evicting_server(db: &TestDb) -> TestServer {
    let mut config = Config::for_tests(db.url.clone());
    config.limits.room_idle_eviction = Duration::from_secs(1);
    TestServer::start_with(config).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_rooms_leave_memory_and_come_back_on_demand() {
    common::on_sqlite(|db: TestDb| async move {
        let server = evicting_server(&db).await;
        let http = server.http();
        let (room, mut players, mut spectator) =
            seat_everyone(http, server.addr, "hexdice", Value::Null, 2).await;
        let over = play_at_random(&mut players, &mut [&mut spectator], 10_000, 0xe71c).await;
        assert!(over, "the match ends");
        let seq = players[0].seq;
        let outcome = players[0].outcome.clone().unwrap();
        let (_, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
        let match_id = shown["match_id"].as_str().unwrap().to_owned();
        spectator.client.close().await;
        for player in players {
            player.client.close().await;
        }
        // Nobody follows it any more: it leaves memory.
        metric_reaches(http, "warroom_room_evictions_total", 1.0).await;
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
        // REST brings it back as it was.
        let (status, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
        assert_eq!(status, 200, "{shown}");
        assert_eq!(shown["state"], "finished");
        assert_eq!(shown["match_id"], match_id.as_str());
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 1.0);
        // So does a join: the room, the final snapshot with the seed, the end.
        let mut late = Client::connect(server.addr).await;
        late.hello(None).await;
        let joined = late.join(&room, None).await;
        assert_eq!(joined["room"]["state"], "finished", "{joined}");
        let snapshot = late.until_type("snapshot").await;
        assert_eq!(snapshot["seq"], seq);
        assert_eq!(snapshot["outcome"], outcome);
        assert!(snapshot["seed"].is_string(), "{snapshot}");
        let finished = late.until_type("finished").await;
        assert_eq!(finished["outcome"], outcome);
        let (status, _) = http
            .get(&format!("/api/matches/{match_id}/replay"), None)
            .await;
        assert_eq!(status, 200);
        // And it leaves again once nobody follows it.
        late.close().await;
        metric_reaches(http, "warroom_room_evictions_total", 2.0).await;
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_leaves_memory_only_once_nothing_more_happens_in_it() {
    common::on_sqlite(|db: TestDb| async move {
        let server = evicting_server(&db).await;
        let http = server.http();
        // Two matches everyone leaves: in one the players' grace is long and a clock runs; in
        // the other bots take the seats at once (grace 1 s) and play it to the end.
        let mut tokens = Vec::new();
        for n in 0..4 {
            tokens.push(http.guest(&format!("idle {n}")).await.1);
        }
        let clocked = http
            .room_id(
                &tokens[0],
                &json!({"ruleset": "hexdice", "creator_seat": 0, "grace_seconds": 3600,
                        "clock": {"turn_seconds": 600, "bank_seconds": 600}}),
            )
            .await;
        let left = http
            .room_id(
                &tokens[2],
                &json!({"ruleset": "hexdice", "creator_seat": 0, "grace_seconds": 1,
                        "clock": "none", "bot_delay_ms": 0}),
            )
            .await;
        let mut sockets = Vec::new();
        for (room, pair) in [(&clocked, &tokens[0..2]), (&left, &tokens[2..4])] {
            for (seat, token) in pair.iter().enumerate() {
                let mut client = Client::connect(server.addr).await;
                client.hello(Some(token)).await;
                client.join(room, None).await;
                client
                    .send(&json!({"type": "take_seat", "room": room, "seat": seat}))
                    .await;
                sockets.push(client);
            }
        }
        for client in &mut sockets {
            client.until_type("snapshot").await;
        }
        for client in sockets {
            client.close().await;
        }
        // The bots finish the second match; then it leaves memory. The first one stays: its
        // clock and its players' grace will act.
        metric_reaches(http, "warroom_room_evictions_total", 1.0).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(http.metric("warroom_room_evictions_total").await, 1.0);
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 1.0);
        let (_, shown) = http.get(&format!("/api/rooms/{clocked}"), None).await;
        assert_eq!(shown["state"], "playing", "{shown}");
        // The finished one comes back as it ended, for its player too.
        let mut player = Client::connect(server.addr).await;
        player.hello(Some(&tokens[2])).await;
        let joined = player.join(&left, None).await;
        assert_eq!(joined["room"]["state"], "finished", "{joined}");
        let snapshot = player.until_type("snapshot").await;
        assert_eq!(snapshot["seat"], 0, "{snapshot}");
        assert!(!snapshot["outcome"].is_null(), "{snapshot}");
        player.until_type("finished").await;
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_rooms_older_than_the_expiry_are_not_rebuilt_at_start_up() {
    common::on_sqlite(|db: TestDb| async move {
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (_, ada) = http.guest("Ada").await;
        let old = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
        tokio::time::sleep(Duration::from_millis(3500)).await;
        let young = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
        server.stop().await;
        let mut config = Config::for_tests(db.url.clone());
        config.limits.waiting_room_expiry = Duration::from_secs(3);
        let server = TestServer::start_with(config).await;
        let http = server.http();
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 1.0);
        let (_, shown) = http
            .get(&format!("/api/rooms/{}", old["id"].as_str().unwrap()), None)
            .await;
        assert_eq!(shown["state"], "expired", "{shown}");
        let (_, shown) = http
            .get(
                &format!("/api/rooms/{}", young["id"].as_str().unwrap()),
                None,
            )
            .await;
        assert_eq!(shown["state"], "waiting", "{shown}");
        server.stop().await;
    })
    .await;
}
