//! End to end, rooms leave memory: a room nobody follows in which nothing more will happen
//! (finished) leaves memory at once; reading it (REST: the room, its
//! replay) shows it from the database as it was without loading it, and a `join` loads it
//! again; a match whose clock runs stays; at start-up no waiting room is rebuilt (older than the
//! expiry: expired; younger: loaded when joined, expired once the expiry has passed since the
//! start if nobody did); one socket follows at most `--max-rooms-per-socket` rooms, so joining
//! finished rooms one after another holds no more than that in memory.

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
        // The room as its task shows it, with nobody's presence (and without the banks of the
        // clock that ran, which a finished room loaded from the database does not show either).
        let (_, mut live) = http.get(&format!("/api/rooms/{room}"), None).await;
        live.as_object_mut().unwrap().remove("clock");
        live["spectators"] = json!(0);
        for seat in live["seats"].as_array_mut().unwrap() {
            seat["connected"] = json!(false);
        }
        let match_id = live["match_id"].as_str().unwrap().to_owned();
        spectator.client.close().await;
        for player in players {
            player.client.close().await;
        }
        // Nobody follows it any more: it leaves memory.
        metric_reaches(http, "warroom_room_evictions_total", 1.0).await;
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
        // REST shows it as it was, from the database: reading it, or its replay, however often,
        // loads no room (an anonymous reader cannot grow memory).
        for _ in 0..3 {
            let (status, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
            assert_eq!(status, 200, "{shown}");
            assert_eq!(shown, live, "the stored room shows what its task showed");
            let (status, _) = http
                .get(&format!("/api/matches/{match_id}/replay"), None)
                .await;
            assert_eq!(status, 200);
        }
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
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
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 1.0);
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
async fn no_waiting_room_is_rebuilt_at_start_up_and_those_nobody_joins_expire() {
    common::on_sqlite(|db: TestDb| async move {
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (_, ada) = http.guest("Ada").await;
        let old = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
        tokio::time::sleep(Duration::from_millis(3500)).await;
        let young = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
        let joined = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
        server.stop().await;
        let mut config = Config::for_tests(db.url.clone());
        config.limits.waiting_room_expiry = Duration::from_secs(3);
        let server = TestServer::start_with(config).await;
        let started = Instant::now();
        let http = server.http();
        let state = |room: Value| async move {
            let path = format!("/api/rooms/{}", room["id"].as_str().unwrap());
            let (_, shown) = http.get(&path, None).await;
            shown["state"].as_str().unwrap().to_owned()
        };
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
        assert_eq!(state(old.clone()).await, "expired");
        // Shown from the database, not loaded.
        assert_eq!(state(young.clone()).await, "waiting");
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
        // A room someone joins is loaded, and waits as long as they are there.
        let mut client = Client::connect(server.addr).await;
        client.hello(Some(&ada)).await;
        let answer = client.join(joined["id"].as_str().unwrap(), None).await;
        assert_eq!(answer["room"]["state"], "waiting", "{answer}");
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 1.0);
        // The expiry passes since the start: the room nobody joined is expired.
        while state(young.clone()).await == "waiting" {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the waiting room nobody joined is expired after the expiry"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(started.elapsed() >= Duration::from_secs(3));
        assert_eq!(state(young).await, "expired");
        assert_eq!(state(joined).await, "waiting");
        client.close().await;
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_socket_holds_at_most_its_rooms_in_memory_and_finished_ones_leave_when_it_does() {
    // The default idle eviction (5 min): a finished room does not wait for it.
    let server = TestServer::on_sqlite(|limits| limits.max_rooms_per_socket = 3).await;
    let http = server.http();
    let (_, token) = http.guest("Opener").await;
    let bots = json!([{"seat": 0, "level": "easy"}, {"seat": 1, "level": "easy"}]);
    let mut rooms = Vec::new();
    for _ in 0..4 {
        let room = http
            .room_id(
                &token,
                &json!({"ruleset": "hexdice", "seats": 2, "bots": bots, "bot_delay_ms": 0}),
            )
            .await;
        rooms.push(room);
    }
    // The bots play each match to its end; nobody follows it, so it leaves memory then.
    metric_reaches(http, "warroom_room_evictions_total", 4.0).await;
    assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);

    // An anonymous socket joins finished rooms: each is loaded while it follows it, up to 3.
    let mut reader = Client::connect(server.addr).await;
    reader.hello(None).await;
    for room in &rooms[..3] {
        let joined = reader.join(room, None).await;
        assert_eq!(joined["room"]["state"], "finished", "{joined}");
    }
    assert_eq!(http.metric("warroom_rooms_in_memory").await, 3.0);
    let refused = reader.join(&rooms[3], None).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "too_many_rooms", "{refused}");
    assert_eq!(refused["room"], rooms[3].as_str(), "{refused}");
    assert_eq!(http.metric("warroom_rooms_in_memory").await, 3.0);
    // Joining a room it follows already is no new room.
    let again = reader.join(&rooms[0], None).await;
    assert_eq!(again["type"], "room", "{again}");

    // It leaves one: that room leaves memory at once, and the fourth may be joined.
    reader
        .send(&json!({"type": "leave", "room": rooms[0]}))
        .await;
    metric_reaches(http, "warroom_room_evictions_total", 5.0).await;
    assert_eq!(http.metric("warroom_rooms_in_memory").await, 2.0);
    let joined = reader.join(&rooms[3], None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    assert_eq!(http.metric("warroom_rooms_in_memory").await, 3.0);

    // The socket closes: every room it held leaves memory.
    reader.close().await;
    metric_reaches(http, "warroom_room_evictions_total", 8.0).await;
    assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
    server.stop().await;
}
