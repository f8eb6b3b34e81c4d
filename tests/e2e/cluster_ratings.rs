//! End to end, ratings in cluster mode (issue 39, docs/RATINGS.md): real `warroom` nodes over
//! one PostgreSQL and NATS. Rated quick play matches two close players pressing "Play now" on
//! different nodes before a far one who waited longer; and a node killed with SIGKILL as a
//! rated match ends leaves the match rated exactly once after another node takes its room over.
//!
//! Like every cluster test, these run when `WARROOM_TEST_POSTGRES_URL` and
//! `WARROOM_TEST_NATS_URL` are both set (ignored otherwise).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cluster::{Node, cluster_setup, owners, serving_and_other, until_lobby_shows};
use crate::common::play::{rejoin, seat_players};
use crate::common::{Client, Http};
use crate::ratings::{
    ada_opens_a_rated_duel, assert_ada_lost_one_rated_duel, four_moves_then_ada_resigns,
    resign_again_unless_rated, seed_rating,
};

/// Fresh identities may play rated, and their results count though every test guest comes
/// from one address.
const OPEN: [(&str, &str); 2] = [
    ("--rated-min-matches", "0"),
    ("--rated-new-identity-window", "0s"),
];

/// Whether a room shows one of its seats taken by a present player.
fn someone_present(room: &Value) -> bool {
    room["seats"]
        .as_array()
        .is_some_and(|seats| seats.iter().any(|seat| seat["connected"] == true))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn rated_quick_play_on_two_nodes_matches_close_players_before_a_far_one() {
    let (nats, db, prefix) = cluster_setup().await;
    // The window: 100 points at first, 10 more a second: a gap of 400 fits after 30 s.
    let flags = [
        OPEN[0],
        OPEN[1],
        ("--matchmaking-start", "100"),
        ("--matchmaking-per-second", "10"),
        ("--matchmaking-max", "500"),
    ];
    let nodes = Node::cluster::<2>(&db, &nats, &format!("m{prefix}"), 5, &flags).await;
    let https = nodes.each_ref().map(Node::http);
    let started = Instant::now();
    let rated = json!({"ruleset": "hexdice", "rated": true});

    // Far (1900) presses "Play now" on the first node and waits in a new rated room.
    let (far_id, far) = https[0].guest("Far").await;
    seed_rating(&db, &far_id, 1900, false).await;
    let (status, found) = https[0].quick_play(&far, &rated).await;
    assert_eq!(
        (status, &found["room"]["rated"]),
        (201, &json!(true)),
        "{found}"
    );
    let far_room = found["room"]["id"].as_str().unwrap().to_owned();
    let far_socket = sit_until_shown(nodes[0].addr, &far, &far_room, &https[1]).await;

    // Ada (1500, new) on the second node: 400 points from Far, outside his window, so a
    // room of her own though his is older.
    let (_, ada) = https[1].guest("Ada").await;
    let (status, found) = https[1].quick_play(&ada, &rated).await;
    assert_eq!(status, 201, "{found}");
    let ada_room = found["room"]["id"].as_str().unwrap().to_owned();
    assert_ne!(ada_room, far_room);
    let ada_socket = sit_until_shown(nodes[1].addr, &ada, &ada_room, &https[0]).await;

    // Bob (1500) on the first node, where Far's room is served: sent to Ada's room, across the
    // cluster, before the far player who has waited longer.
    let (_, bob) = https[0].guest("Bob").await;
    let (status, found) = https[0].quick_play(&bob, &rated).await;
    assert_eq!(
        (status, found["room"]["id"].as_str()),
        (200, Some(ada_room.as_str())),
        "close players first: {found}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the test ran inside Far's narrow window ({:?})",
        started.elapsed()
    );
    let mut bob_socket = Client::connect(nodes[0].addr).await;
    bob_socket.hello(Some(&bob)).await;
    bob_socket.sit(&ada_room, None).await;
    https[1]
        .room_until(&ada_room, "the match playing", |shown| {
            shown["state"] == "playing"
        })
        .await;
    drop((far_socket, ada_socket, bob_socket));
    drop(nodes);
    db.cleanup().await;
}

/// Waits until `node` holds the live lease of `room` (it took the room over), or the room is
/// shown finished (a finished room is not taken over: there is nothing left to play).
async fn until_taken_over(db: &crate::common::TestDb, http: &Http, room: &str, node: &str) {
    for _ in 0..300 {
        if owners(db)
            .await
            .get(room)
            .is_some_and(|owner| owner == node)
        {
            return;
        }
        let (_, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
        if shown["state"] == "finished" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{node} did not take room {room} over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_node_killed_as_a_rated_match_ends_leaves_it_rated_once_after_the_takeover() {
    let (nats, db, prefix) = cluster_setup().await;
    let nodes = Node::cluster::<2>(&db, &nats, &format!("k{prefix}"), 2, &OPEN).await;
    let http = nodes[0].http();
    let ([(ada_id, ada), (bob_id, bob)], room_id) = ada_opens_a_rated_duel(&http).await;
    let tokens = [ada.clone(), bob];
    let (serving, other) = serving_and_other(&db, &nodes, &room_id).await;
    let (serving_id, other_id, other_addr) = (serving.id.clone(), other.id.clone(), other.addr);
    let players = seat_players(serving.addr, &room_id, None, &tokens).await;
    // Ada resigns (the match's last action), and the node serving the room dies at once.
    let resign = four_moves_then_ada_resigns(players, &room_id).await;
    let [first, second] = nodes;
    let (killed, survivor) = if first.id == serving_id {
        (first, second)
    } else {
        (second, first)
    };
    killed.sigkill();

    // The other node takes the room over once the lease runs out: the result and the ratings
    // are both there or both missing. If missing, Ada resigns again there, and that node dies
    // the moment it announces the end.
    let http = Http { addr: other_addr };
    until_taken_over(&db, &http, &room_id, &other_id).await;
    let mut ada_again = rejoin(other_addr, &ada, Some(0), &room_id).await;
    resign_again_unless_rated(&http, &mut ada_again, &resign).await;
    drop(ada_again);
    survivor.sigkill();

    // A third node, once the second one's lease has run out too (it could take the room
    // over, were it not finished): rated once.
    let third = Node::start_with(&db, &nats, &format!("k{prefix}c"), 2, &OPEN);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let http = third.http();
    assert_ada_lost_one_rated_duel(&http, &room_id, &ada_id, &bob_id).await;
    drop(third);
    db.cleanup().await;
}

/// The holder of `token` sits in `room` on the node at `addr`, and is shown waiting there by
/// another node's lobby (`other`) within 5 s; its socket.
async fn sit_until_shown(addr: SocketAddr, token: &str, room: &str, other: &Http) -> Client {
    let mut socket = Client::connect(addr).await;
    socket.hello(Some(token)).await;
    socket.sit(room, None).await;
    until_lobby_shows(other, room, Duration::from_secs(5), someone_present)
        .await
        .unwrap_or_else(|| panic!("{room}: a seat shown taken on the other node"));
    socket
}
