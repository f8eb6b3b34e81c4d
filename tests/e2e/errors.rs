//! End to end: every refused message gets its stable code and changes nothing; limits hold
//! (frame size, binary frames, rate, connections per room, slow clients).

use crate::common;

use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use common::play::{hexdice_duel, play_at_random};
use common::{Client, TestDb, TestServer};

on_both_databases! {
    g_turn_1_refused_messages_get_their_code_and_change_nothing;
    seats_and_private_rooms_are_guarded;
}

/// The match as a fresh spectator sees it: (seq, view).
async fn state_seen_by_newcomer(server: &TestServer, room: &str) -> (u64, Value) {
    let mut client = server.client(None).await;
    client.join(room, None).await;
    let snapshot = client.until_type("snapshot").await;
    client.close().await;
    (snapshot["seq"].as_u64().unwrap(), snapshot["view"].clone())
}

async fn g_turn_1_refused_messages_get_their_code_and_change_nothing(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (room, mut players, mut spectator) = hexdice_duel(http, server.addr).await;
    // A few real moves first, so "unchanged" is not the trivial opening state.
    play_at_random(&mut players, &mut [&mut spectator], 3, 7).await;
    let before = state_seen_by_newcomer(&server, &room).await;
    let to_act = players[0].to_act.unwrap();
    let (acting, waiting) = if to_act == 0 { (0, 1) } else { (1, 0) };
    let legal = players[acting].legal[0].clone();

    // G-TURN-1: out of turn, a legal-looking action of the other seat is refused.
    let answer = players[waiting].act("out-of-turn", &legal).await;
    assert_eq!(answer["type"], "error");
    assert_eq!(answer["code"], "not_your_turn", "{answer}");
    assert_eq!(answer["id"], "out-of-turn");
    // The values the refusal speaks of come with it, so clients word it in their own language.
    assert_eq!(
        answer["params"],
        json!({"seat": waiting, "to_act": to_act}),
        "{answer}"
    );
    // Wrong seat: a spectator cannot act for anyone.
    let answer = spectator.act("spectating", &legal).await;
    assert_eq!(answer["code"], "not_seated", "{answer}");
    // Unknown action shape.
    let answer = players[acting]
        .act("nonsense", &json!({"type": "teleport"}))
        .await;
    assert_eq!(answer["code"], "unknown_action", "{answer}");
    let answer = players[acting].act("", &legal).await;
    assert_eq!(answer["code"], "invalid_action_id", "{answer}");

    let client = &mut players[waiting].client;
    client.send_raw(Message::Text("{not json".into())).await;
    assert_eq!(client.error_code().await, "malformed_message");
    client.send(&json!({"type": "fly_away"})).await;
    assert_eq!(client.error_code().await, "malformed_message");
    client.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(client.error_code().await, "binary_not_supported");
    let oversize = json!({"type": "ping", "pad": "x".repeat(20 * 1024)});
    client.send(&oversize).await;
    assert_eq!(client.error_code().await, "frame_too_large");
    let unknown_room = uuid::Uuid::new_v4().to_string();
    client
        .send(&json!({"type": "join", "room": unknown_room}))
        .await;
    assert_eq!(client.error_code().await, "room_not_found");
    client
        .send(&json!({"type": "action", "room": unknown_room, "id": "x", "action": legal}))
        .await;
    assert_eq!(client.error_code().await, "not_joined");
    client.take_seat(&room, None).await;
    assert_eq!(client.error_code().await, "match_started");
    client.sync().await;

    // A bad token is refused and the connection stays anonymous.
    let mut stranger = Client::connect(server.addr).await;
    let answer = stranger.hello(Some("forged-token")).await;
    assert_eq!(answer["code"], "unauthorized");
    stranger.join(&room, None).await;
    let answer = {
        stranger
            .send(&json!({"type": "action", "room": room, "id": "s1", "action": legal}))
            .await;
        stranger.until_type("error").await
    };
    assert_eq!(answer["code"], "not_seated");

    // Nothing above changed the match.
    assert_eq!(state_seen_by_newcomer(&server, &room).await, before);
    for participant in players.iter_mut().chain([&mut spectator]) {
        participant.client.sync().await;
        assert_eq!(participant.seq, before.0, "no action was applied");
    }

    // The same client id twice: one action, two identical acks.
    let first = players[acting].act("twice", &legal).await;
    assert_eq!(first["type"], "ack", "{first}");
    let second = players[acting].act("twice", &legal).await;
    assert_eq!(
        second, first,
        "a resent id is acknowledged again, not applied again"
    );
    assert_eq!(state_seen_by_newcomer(&server, &room).await.0, before.0 + 1);
    server.stop().await;
}

async fn seats_and_private_rooms_are_guarded(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(_, ada), (_, bob), (_, cy)] = http.guests(["Ada", "Bob", "Cyd"]).await;
    let room = http
        .room(&ada, &json!({"ruleset": "hexdice", "private": true}))
        .await;
    let room_id = room["id"].as_str().unwrap();
    let invite = room["invite_code"].as_str().unwrap();

    let mut bob_client = server.client(Some(&bob)).await;
    let answer = bob_client.join(room_id, None).await;
    assert_eq!(answer["code"], "invalid_invite");
    bob_client
        .send(&json!({"type": "join", "room": room_id, "invite": "wrong"}))
        .await;
    assert_eq!(bob_client.error_code().await, "invalid_invite");
    bob_client
        .send(&json!({"type": "join", "room": room_id, "invite": invite}))
        .await;
    bob_client.until_type("room").await;

    let mut anonymous = Client::connect(server.addr).await;
    anonymous.hello(None).await;
    anonymous
        .send(&json!({"type": "join", "room": room_id, "invite": invite}))
        .await;
    anonymous.until_type("room").await;
    anonymous.take_seat(room_id, None).await;
    assert_eq!(anonymous.error_code().await, "unauthorized");

    bob_client.take_seat(room_id, Some(5)).await;
    assert_eq!(bob_client.error_code().await, "invalid_seat");
    bob_client.take_seat(room_id, Some(1)).await;
    let seated = bob_client
        .until("room with Bob seated", |m| {
            m["type"] == "room" && m["room"]["seats"][1]["player"]["name"] == "Bob"
        })
        .await;
    assert_eq!(seated["room"]["seats"][1]["connected"], true, "presence");
    assert_eq!(
        seated["room"]["invite_code"], invite,
        "a private room's seated player sees the invite"
    );
    bob_client.take_seat(room_id, None).await;
    assert_eq!(bob_client.error_code().await, "already_seated");
    bob_client
        .send(&json!({"type": "action", "room": room_id, "id": "early", "action": {"type": "end_turn"}}))
        .await;
    assert_eq!(bob_client.error_code().await, "match_not_started");

    let mut cy_client = server.client(Some(&cy)).await;
    cy_client
        .send(&json!({"type": "join", "room": room_id, "invite": invite}))
        .await;
    cy_client.until_type("room").await;
    cy_client.take_seat(room_id, Some(1)).await;
    assert_eq!(cy_client.error_code().await, "seat_taken");
    cy_client
        .send(&json!({"type": "leave_seat", "room": room_id}))
        .await;
    assert_eq!(cy_client.error_code().await, "not_seated");

    // Bob leaves his seat; Cy takes seat 1 and Bob takes seat 0: the match starts.
    bob_client
        .send(&json!({"type": "leave_seat", "room": room_id}))
        .await;
    bob_client
        .until("seat 1 free", |m| {
            m["type"] == "room" && m["room"]["seats"][1]["player"].is_null()
        })
        .await;
    cy_client.take_seat(room_id, Some(1)).await;
    bob_client.take_seat(room_id, None).await;
    let snapshot = bob_client.until_type("snapshot").await;
    assert_eq!(snapshot["seat"], 0);
    let snapshot = cy_client.until_type("snapshot").await;
    assert_eq!(snapshot["seat"], 1);
    anonymous.until_type("snapshot").await;
    let (_, shown) = http.get(&format!("/api/rooms/{room_id}"), None).await;
    assert_eq!(shown["state"], "playing");
    assert!(shown["match_id"].is_string());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_rate_connections_and_slow_clients() {
    let server = TestServer::on_sqlite(|limits| {
        limits.messages_per_second = 1;
        limits.message_burst = 5;
        limits.max_spectators_per_room = 2;
    })
    .await;
    let http = server.http();

    // Rate: a burst of 5 passes, the 6th is refused.
    let mut client = Client::connect(server.addr).await;
    for _ in 0..6 {
        client.send(&json!({"type": "ping"})).await;
    }
    let mut codes = Vec::new();
    for _ in 0..6 {
        let message = client.next().await.unwrap();
        codes.push(
            message["type"].as_str().unwrap().to_owned()
                + ":"
                + message["code"].as_str().unwrap_or(""),
        );
    }
    assert_eq!(
        codes.iter().filter(|c| *c == "pong:").count(),
        5,
        "{codes:?}"
    );
    assert!(
        codes.contains(&"error:rate_limited".to_owned()),
        "{codes:?}"
    );

    // Connections per room.
    let (_, ada) = http.guest("Ada").await;
    let room_id = http.room_id(&ada, &json!({"ruleset": "hexdice"})).await;
    let mut first = server.client(None).await;
    first.join(&room_id, None).await;
    let mut second = server.client(None).await;
    second.join(&room_id, None).await;
    let mut third = server.client(None).await;
    let answer = third.join(&room_id, None).await;
    assert_eq!(answer["code"], "too_many_connections");

    server.stop().await;
}

/// True once the room counts a single spectator (the slow one was dropped).
async fn slow_is_gone(http: &common::Http, room_id: &str) -> bool {
    let (_, shown) = http.get(&format!("/api/rooms/{room_id}"), None).await;
    shown["spectators"] == 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_client_is_disconnected_instead_of_slowing_the_room() {
    let server = TestServer::on_sqlite(|limits| {
        limits.messages_per_second = 100_000;
        limits.message_burst = 100_000;
        limits.outgoing_queue = 16;
    })
    .await;
    let http = server.http();
    let (_, ada) = http.guest("Ada").await;
    let room_id = http.room_id(&ada, &json!({"ruleset": "hexdice"})).await;
    let mut slow = server.client(None).await;
    slow.join(&room_id, None).await;
    let mut busy = server.client(None).await;
    busy.join(&room_id, None).await;
    // `slow` stops reading and asks for the room again and again: each answer goes to its own
    // queue, until the socket buffers and then the queue fill up.
    let mut gone = false;
    for _ in 0..400 {
        for _ in 0..100 {
            if !slow
                .try_send(&json!({"type": "join", "room": room_id}))
                .await
            {
                break;
            }
        }
        // The room serves the others meanwhile.
        busy.sync().await;
        if slow_is_gone(&http, &room_id).await {
            gone = true;
            break;
        }
    }
    assert!(gone, "the slow client was disconnected");
    let mut kicks = 0.0;
    for _ in 0..100 {
        kicks = http.metric("warroom_slow_consumer_kicks_total").await;
        if kicks >= 1.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(kicks, 1.0, "closed as a slow consumer");
    busy.sync().await;
    while slow.next().await.is_some() {}
    // Its close frame says why, unless the server's close crossed joins still in flight (the
    // connection is then reset and the frame lost).
    assert!(
        matches!(slow.closed.as_deref(), Some("slow_consumer") | None),
        "{:?}",
        slow.closed
    );
    // The room went on serving the others.
    busy.sync().await;
    let (_, shown) = http.get(&format!("/api/rooms/{room_id}"), None).await;
    assert_eq!(
        shown["spectators"], 1,
        "only `busy` still follows the room: {shown}"
    );
    server.stop().await;
}

/// A second `resign` of a seat gets its answer, `already_resigned` (docs/PROTOCOL.md), not
/// silence: after the first one ended a two-seat match, over real sockets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_resignation_is_answered_already_resigned() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let http = server.http();
    let (room, mut players, mut spectator) = hexdice_duel(http, server.addr).await;
    let resign = json!({"type": "resign", "room": room});
    players[0].client.send(&resign).await;
    let finished = spectator
        .client
        .until("finished", |m| m["type"] == "finished")
        .await;
    assert_eq!(finished["outcome"]["winner"], 1, "{finished}");
    players[0].client.send(&resign).await;
    let refused = players[0]
        .client
        .until("an error", |m| m["type"] == "error")
        .await;
    assert_eq!(refused["code"], "already_resigned", "{refused}");
    assert_eq!(refused["room"], json!(room), "{refused}");
    // The other seat, which did not resign, is told the match is over.
    players[1].client.send(&resign).await;
    assert_eq!(players[1].client.error_code().await, "match_over");
    // Nothing more was stored: the log ends with the one resignation.
    let (_, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
    let match_id = shown["match_id"].as_str().expect("a match id").to_owned();
    let (_, replay) = http
        .get(&format!("/api/matches/{match_id}/replay"), None)
        .await;
    let resignations = replay["actions"]
        .as_array()
        .expect("the match's actions")
        .iter()
        .filter(|action| action["action"]["type"] == "resign")
        .count();
    assert_eq!(resignations, 1, "{replay}");
    server.stop().await;
}

/// Spectators fill a waiting room's places: another spectator is refused, but a person who
/// is not seated yet still joins and takes a free seat (a free seat is always takeable).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_free_seat_is_taken_although_the_spectator_places_are_full() {
    let server = TestServer::on_sqlite(|limits| limits.max_spectators_per_room = 1).await;
    let http = server.http();
    let [(_, ada), (bob_id, bob)] = http.guests(["Ada", "Bob"]).await;
    let room_id = http
        .room_id(&ada, &json!({"ruleset": "hexdice", "seats": 2}))
        .await;
    let mut watcher = server.client(None).await;
    assert_eq!(watcher.join(&room_id, None).await["type"], "room");
    let mut refused = server.client(None).await;
    let answer = refused.join(&room_id, None).await;
    assert_eq!(answer["code"], "too_many_connections", "{answer}");
    let mut bob_socket = server.client(Some(&bob)).await;
    let joined = bob_socket.join(&room_id, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    bob_socket.take_seat(&room_id, Some(1)).await;
    let seated = watcher
        .until("Bob in seat 1", |m| {
            m["type"] == "room" && m["room"]["seats"][1]["player"]["id"] == json!(bob_id)
        })
        .await;
    assert_eq!(seated["room"]["seats"][1]["connected"], true, "{seated}");
    // The lobby's copy of the room follows (it is published after the seat is stored).
    http.room_until(&room_id, "Bob in seat 1", |shown| {
        shown["seats"][1]["player"]["id"] == json!(bob_id)
    })
    .await;
    server.stop().await;
}
