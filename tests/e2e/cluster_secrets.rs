//! End to end, cluster mode: a seat's hidden cards never go on a NATS subject other nodes share
//! (docs/SCALING.md, "Nodes talking over NATS"). A classic match served by node a, seat 0
//! played through node b, seat 1 through node c, seat 2 a bot; a listener subscribed to `>`
//! checks every message NATS carries while the match is played, then while node a is killed
//! (SIGKILL) and the room is taken over by b or c, after which the seat on the other node is
//! the room's only remote follower (where the relay used to publish its copies on `all`).
//! Cards may travel only on their seat's subject (`warroom.room.<room>.seat.<n>`) or on
//! `direct` (named connections); anywhere else no card, no hand.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::cluster::{Node, cards_and_a_bot, cluster_setup, cluster_up, owners};
use crate::common::Client;
use crate::common::play::{Chooser, Participant, take_seat};
use crate::play::{cards_seen, classic_choice, foreign_card};

/// Actions played before the kill and after the takeover, at least (more until the seats on
/// other nodes drew cards).
const ACTIONS: usize = 40;

/// What the listener found on NATS.
#[derive(Default)]
struct Wire {
    /// Messages with a card or a hand on a subject not of its seat: (subject, message).
    leaks: Mutex<Vec<(String, String)>>,
    /// Cards drawn that went on the room's seat subjects.
    seat_cards: AtomicUsize,
    /// Messages checked.
    checked: AtomicUsize,
}

/// The seat a subject belongs to (`…seat.<n>`), `Some(None)` for `direct` (named connections
/// only), `None` for a subject anyone following the room (or any node) reads.
fn subject_seat(subject: &str) -> Option<Option<u64>> {
    let mut parts = subject.rsplit('.');
    let last = parts.next()?;
    if last == "direct" && subject.starts_with("warroom.room.") {
        return Some(None);
    }
    let seat: u64 = last.parse().ok()?;
    (parts.next() == Some("seat") && subject.starts_with("warroom.room.")).then_some(Some(seat))
}

/// Listens on `>` and checks each message as it arrives.
async fn listen(nats: &async_nats::Client, room: String, wire: Arc<Wire>) {
    let mut subscriber = nats.subscribe(">").await.expect("subscribe to >");
    tokio::spawn(async move {
        while let Some(message) = subscriber.next().await {
            let Ok(value) = serde_json::from_slice::<Value>(&message.payload) else {
                continue;
            };
            wire.checked.fetch_add(1, Ordering::Relaxed);
            let subject = message.subject.to_string();
            let leak = match subject_seat(&subject) {
                Some(None) => false,
                Some(Some(seat)) => {
                    if subject.contains(&room) {
                        wire.seat_cards
                            .fetch_add(cards_seen(std::slice::from_ref(&value)), Ordering::Relaxed);
                    }
                    foreign_card(&value, Some(seat)).is_some()
                }
                None => foreign_card(&value, None).is_some(),
            };
            if leak {
                let text: String = value.to_string().chars().take(400).collect();
                wire.leaks.lock().unwrap().push((subject, text));
            }
        }
    });
}

/// Connects `token` to `addr` and joins `room` from `last_seq`, trying again (the room's node
/// may be dead until its lease expires) for up to 30 s.
async fn rejoin(addr: std::net::SocketAddr, p: &mut Participant) {
    for _ in 0..120 {
        let mut client = Client::connect(addr).await;
        client.hello(p.token.as_deref()).await;
        let joined = client.join(&p.room, Some(p.seq)).await;
        if joined["type"] == "room" {
            p.client = client;
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("seat {:?} could not join room {} again", p.seat, p.room);
}

/// Reads until `p` saw `seq`, joining again through `addr` when its socket closes or it is
/// told `room_moved`.
async fn reach(p: &mut Participant, seq: u64, addr: std::net::SocketAddr) {
    while p.seq < seq && p.outcome.is_none() {
        let next = tokio::time::timeout(Duration::from_secs(15), p.client.next()).await;
        match next {
            Ok(Some(message)) => {
                p.absorb(&message);
                if message["type"] == "error" && message["code"] == "room_moved" {
                    rejoin(addr, p).await;
                }
            }
            _ => rejoin(addr, p).await,
        }
    }
}

/// Plays at least `actions` actions (more until `drawn_after` cards were drawn on the wire
/// past `cards_before`), each player through its own node; false when the match ended first.
async fn play(
    players: &mut [Participant],
    addrs: &[std::net::SocketAddr],
    chooser: &mut Chooser,
    actions: usize,
    wire: &Wire,
    cards_before: usize,
) -> bool {
    let mut played = 0;
    let mut attempt = 0u64;
    while played < actions || wire.seat_cards.load(Ordering::Relaxed) == cards_before {
        assert!(played < 3_000, "the seats drew cards within 3,000 actions");
        if let Some(p) = players.iter().find(|p| p.outcome.is_some()) {
            println!(
                "the match ended after {played} actions here (seat {:?}: {:?})",
                p.seat, p.outcome
            );
            return false;
        }
        let freshest = players.iter().map(|p| p.seq).max().unwrap_or(0);
        for (p, addr) in players.iter_mut().zip(addrs) {
            reach(p, freshest, *addr).await;
        }
        let Some(to_act) = players[0].to_act else {
            println!(
                "no seat to act after {played} actions here (seq {})",
                players[0].seq
            );
            return false;
        };
        let Some(i) = players.iter().position(|p| p.seat == Some(to_act)) else {
            // The bot's turn.
            reach(&mut players[0], freshest + 1, addrs[0]).await;
            continue;
        };
        let actor = &mut players[i];
        let pick = classic_choice(&actor.legal, chooser);
        let action = actor.legal[pick].clone();
        attempt += 1;
        let id = format!("s{attempt}");
        let room = actor.room.clone();
        let sent = actor
            .client
            .try_send(&json!({"type": "action", "room": room, "id": id, "action": action}))
            .await;
        if !sent {
            rejoin(addrs[i], actor).await;
            continue;
        }
        let answer = tokio::time::timeout(Duration::from_secs(15), async {
            loop {
                let message = actor.client.next().await?;
                actor.absorb(&message);
                if (message["type"] == "ack" || message["type"] == "error")
                    && message["id"] == json!(id)
                {
                    return Some(message);
                }
                if message["type"] == "error" && message["code"] == "room_moved" {
                    return None;
                }
            }
        })
        .await
        .ok()
        .flatten();
        match answer {
            Some(ack) if ack["type"] == "ack" => played += 1,
            // Refused (the state moved on under it) or moved: read on, join again if needed.
            Some(_) => {}
            None => rejoin(addrs[i], actor).await,
        }
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn no_card_of_any_seat_goes_on_a_shared_nats_subject_before_or_after_a_takeover() {
    let (nats, db, prefix) = cluster_setup().await;
    let lease = 2;
    // The room is opened while node a is alone, so a serves it.
    let a = Node::up(&db, &nats, &format!("h{prefix}a"), lease).await;
    let http = a.http();
    let (_, token0) = http.guest("secret p0").await;
    let (_, token1) = http.guest("secret p1").await;
    let room = http.room_id(&token0, &cards_and_a_bot()).await;
    let others = vec![
        Node::start(&db, &nats, &format!("h{prefix}b"), lease),
        Node::start(&db, &nats, &format!("h{prefix}c"), lease),
    ];
    cluster_up(&db, &others).await;
    assert_eq!(owners(&db).await.get(&room), Some(&a.id));

    let observer = async_nats::connect(&nats).await.expect("NATS");
    let wire = Arc::new(Wire::default());
    listen(&observer, room.clone(), wire.clone()).await;
    observer.flush().await.expect("flush");

    // Seat 0 through b, seat 1 through c: both remote followers of a.
    let addrs = [others[0].addr, others[1].addr];
    let mut players = Vec::new();
    for (seat, (addr, token)) in addrs.iter().zip([&token0, &token1]).enumerate() {
        let mut client = Client::connect(*addr).await;
        client.hello(Some(token)).await;
        let joined = client.join(&room, None).await;
        assert_eq!(joined["type"], "room", "{joined}");
        let mut p = take_seat(client, &room, seat, token).await;
        p.client.keep = false;
        players.push(p);
    }
    for p in &mut players {
        p.until("snapshot", |m| m["type"] == "snapshot").await;
    }
    let mut chooser = Chooser(0x5ec7);
    let going = play(&mut players, &addrs, &mut chooser, ACTIONS, &wire, 0).await;
    assert!(going, "the match lasts past the first actions");
    let before = wire.seat_cards.load(Ordering::Relaxed);

    // Node a dies; whichever of b and c serves the room next, the seat on the other one is its
    // only remote follower.
    a.sigkill();
    let going = play(&mut players, &addrs, &mut chooser, ACTIONS, &wire, before).await;
    let owner = owners(&db).await.get(&room).cloned();
    let after = wire.seat_cards.load(Ordering::Relaxed) - before;
    let leaks = wire.leaks.lock().unwrap().clone();
    println!(
        "hidden cards: {} NATS messages checked, {before} cards on seat subjects before the \
         kill, {after} after the takeover by {owner:?}; {} leaks",
        wire.checked.load(Ordering::Relaxed),
        leaks.len()
    );
    assert!(
        leaks.is_empty(),
        "cards went on a shared subject ({} times), e.g. {:?}",
        leaks.len(),
        &leaks[..leaks.len().min(3)]
    );
    assert!(before > 0, "cards went on seat subjects before the kill");
    assert!(
        going && after > 0,
        "the match went on after the takeover with cards drawn on a seat's subject"
    );
    // The live nodes' /metrics show their part: commands forwarded (and timed), followers told
    // their room moved, and the room's lease held by one of them.
    let mut counted = std::collections::HashMap::<&str, f64>::new();
    for node in &others {
        let http = node.http();
        let (status, text) = http.get("/metrics", None).await;
        assert_eq!(status, 200);
        let text = text.as_str().expect("metrics as text").to_owned();
        for name in [
            "warroom_cluster_forwarded_total",
            "warroom_cluster_forward_seconds_count",
            "warroom_cluster_moved_followers_total",
            "warroom_cluster_leases",
            "warroom_cluster_takeovers_total",
        ] {
            let value: f64 = text
                .lines()
                .find_map(|line| line.strip_prefix(&format!("{name} ")))
                .unwrap_or_else(|| panic!("{name} in /metrics"))
                .trim()
                .parse()
                .expect("a number");
            *counted.entry(name).or_default() += value;
        }
    }
    println!("cluster metrics of the live nodes: {counted:?}");
    // Before the kill every action of the players was forwarded to node a.
    assert!(counted["warroom_cluster_forwarded_total"] >= ACTIONS as f64);
    // Timed when answered: one may still be on its way as the metrics are read.
    let timed = counted["warroom_cluster_forward_seconds_count"];
    assert!(timed > 0.0 && timed <= counted["warroom_cluster_forwarded_total"]);
    assert!(counted["warroom_cluster_moved_followers_total"] >= 1.0);
    assert!(counted["warroom_cluster_leases"] >= 1.0);
    drop(players);
    drop(others);
    db.cleanup().await;
}
