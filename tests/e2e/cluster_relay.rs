//! End to end, cluster mode (docs/SCALING.md, "Nodes talking over NATS"): a room served by one
//! node reaches its followers on another node once per viewer class, not once per connection,
//! and hidden information still reaches only its seat. Real `warroom` processes over the test
//! PostgreSQL and NATS; the test itself listens on the room's NATS subjects (and on the old
//! per-node `out` subjects) with async-nats and counts what goes over the wire.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::cluster::{Node, cluster_up, nats_url, owners};
use crate::common::play::{Chooser, Participant, participant};
use crate::common::{Client, Http, TestDb};
use crate::play::{assert_no_foreign_card, cards_seen, classic_choice};

/// Spectators following the room through the node that does not serve it.
const SPECTATORS: usize = 50;

/// Actions played at least (more until each seat drew a card).
const ACTIONS: usize = 120;

/// What the test heard on NATS: (subject, payload) in order.
type Heard = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// Records every message of `subject` into `heard`.
async fn listen(nats: &async_nats::Client, subject: String, heard: Heard) {
    let mut subscriber = nats.subscribe(subject).await.expect("subscribe");
    tokio::spawn(async move {
        while let Some(message) = subscriber.next().await {
            heard
                .lock()
                .unwrap()
                .push((message.subject.to_string(), message.payload.to_vec()));
        }
    });
}

/// A socket of `token` (or anonymous) on `addr` following `room`.
async fn follower(addr: std::net::SocketAddr, token: Option<&str>, room: &str) -> Client {
    let mut client = Client::connect(addr).await;
    client.hello(token).await;
    let joined = client.join(room, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    client
}

/// Checks each message as it arrives (no foreign card for `seat`), keeps nothing, and records
/// each `applied` message as (seq, its text) into `seen`.
fn watch(client: &mut Client, seat: Option<u64>, seen: Kept) {
    for message in &client.received {
        assert_no_foreign_card(message, seat);
    }
    client.received.clear();
    client.keep = false;
    client.inspect = Some(Box::new(move |message: &Value| {
        assert_no_foreign_card(message, seat);
        if message["type"] == "applied" {
            let seq = message["seq"].as_u64().expect("seq");
            seen.lock().unwrap().push((seq, message.to_string()));
        }
    }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_room_reaches_another_node_once_per_viewer_class_with_hidden_cards_kept_per_seat() {
    let Some(db) = TestDb::postgres().await else {
        println!("cluster relay: skipped (WARROOM_TEST_POSTGRES_URL is not set)");
        return;
    };
    let nats = nats_url().await;
    let prefix = &uuid::Uuid::new_v4().simple().to_string()[..6];
    // The room is opened while node a is alone, so a serves it.
    let a = Node::start(&db, &nats, &format!("r{prefix}a"), 5);
    cluster_up(&db, std::slice::from_ref(&a)).await;
    let http = Http { addr: a.addr };
    let (_, token0) = http.guest("relay p0").await;
    let (_, token1) = http.guest("relay p1").await;
    let room = http
        .room(
            &token0,
            &json!({"ruleset": "classic", "options": {"setup": "random"}, "seats": 3,
                    "bots": [{"seat": 2, "level": "easy"}], "bot_delay_ms": 0}),
        )
        .await;
    let room = room["id"].as_str().expect("room id").to_owned();
    let b = Node::start(&db, &nats, &format!("r{prefix}b"), 5);
    let nodes = vec![a, b];
    cluster_up(&db, &nodes).await;
    assert_eq!(owners(&db).await.get(&room), Some(&nodes[0].id));
    let (a, b) = (nodes[0].addr, nodes[1].addr);

    let observer = async_nats::connect(&nats).await.expect("NATS");
    let on_room: Heard = Arc::default();
    let on_node_outs: Heard = Arc::default();
    listen(&observer, format!("warroom.room.{room}.>"), on_room.clone()).await;
    listen(
        &observer,
        "warroom.node.*.out".to_owned(),
        on_node_outs.clone(),
    )
    .await;
    observer.flush().await.expect("flush");

    // Seat 0 plays through a (the room's node), seat 1 through b, seat 2 is a bot; a second
    // socket of seat 1's player and a spectator follow through a, as references of what the
    // room cut for their class; SPECTATORS spectators follow through b.
    let mut spectators = Vec::new();
    for _ in 0..SPECTATORS {
        let client = follower(b, None, &room).await;
        spectators.push(participant(client, None, None, &room));
    }
    let mut reference = participant(follower(a, None, &room).await, None, None, &room);
    let mut twin = participant(follower(a, Some(&token1), &room).await, None, None, &room);
    let mut players = Vec::new();
    for (seat, (addr, token)) in [(a, &token0), (b, &token1)].into_iter().enumerate() {
        let mut client = follower(addr, Some(token), &room).await;
        client
            .send(&json!({"type": "take_seat", "room": room, "seat": seat}))
            .await;
        players.push(participant(
            client,
            Some(seat as u64),
            Some(token.clone()),
            &room,
        ));
    }
    for p in players
        .iter_mut()
        .chain([&mut reference, &mut twin])
        .chain(spectators.iter_mut())
    {
        p.until("snapshot", |m| m["type"] == "snapshot").await;
    }

    // Every socket's messages are checked for foreign cards as they arrive; the `applied`
    // texts are kept to compare each class's copies.
    let seen_reference = kept();
    let seen_twin = kept();
    let seen_seat1 = kept();
    let seen_seat0 = kept();
    watch(&mut reference.client, None, seen_reference.clone());
    watch(&mut twin.client, Some(1), seen_twin.clone());
    watch(&mut players[0].client, Some(0), seen_seat0.clone());
    watch(&mut players[1].client, Some(1), seen_seat1.clone());
    let spectator_seen: Vec<_> = spectators
        .iter_mut()
        .map(|s| {
            let seen = kept();
            watch(&mut s.client, None, seen.clone());
            seen
        })
        .collect();
    let heard_before = on_room.lock().unwrap().len();
    let seq_before = players[0].seq;

    // Play: the seat to act picks a legal action; seat 1's acks (through b) must come after
    // its `applied` (docs/PROTOCOL.md), as on one node.
    let mut chooser = Chooser(0x5eb7);
    let mut actions = 0usize;
    let mut acked_through_b = 0usize;
    let drawn = |seen: &Kept| {
        let messages: Vec<Value> = seen
            .lock()
            .unwrap()
            .iter()
            .map(|(_, text)| serde_json::from_str(text).unwrap())
            .collect();
        cards_seen(&messages)
    };
    while players[0].outcome.is_none()
        && (actions < ACTIONS || drawn(&seen_seat0) == 0 || drawn(&seen_seat1) == 0)
    {
        assert!(
            actions < 3_000,
            "each seat drew a card within 3,000 actions"
        );
        let to_act = players[0].to_act.expect("someone is to act");
        if to_act == 2 {
            // The bot's turn: the server plays it; everyone reads its next action.
            let next = players[0].seq + 1;
            for p in players
                .iter_mut()
                .chain([&mut reference, &mut twin])
                .chain(spectators.iter_mut())
            {
                reach(p, next).await;
            }
            continue;
        }
        let actor = players
            .iter_mut()
            .find(|p| p.seat == Some(to_act))
            .expect("a seat");
        let pick = classic_choice(&actor.legal, &mut chooser);
        let action = actor.legal[pick].clone();
        let answer = actor.act(&format!("r{}", actor.seq + 1), &action).await;
        assert_eq!(answer["type"], "ack", "{answer}");
        let seq = answer["seq"].as_u64().expect("seq");
        if to_act == 1 {
            assert_eq!(
                actor.seq, seq,
                "seat 1 (through node b) got its ack for seq {seq} before its applied"
            );
            acked_through_b += 1;
        }
        actions += 1;
        for p in players
            .iter_mut()
            .chain([&mut reference, &mut twin])
            .chain(spectators.iter_mut())
        {
            reach(p, seq).await;
        }
    }
    // Whatever is still on its way to the observer.
    tokio::time::sleep(Duration::from_millis(300)).await;

    // What went over NATS while playing: per action, one message per class that follows
    // through b (seat 1, the spectators), never one per connection.
    let heard = on_room.lock().unwrap()[heard_before..].to_vec();
    let seqs = (players[0].seq - seq_before) as usize;
    let mut per_subject: BTreeMap<String, usize> = BTreeMap::new();
    for (subject, payload) in &heard {
        let class = subject.rsplit(&format!("{room}.")[..]).next().unwrap_or("");
        *per_subject.entry(class.to_owned()).or_default() += 1;
        if payload.is_empty() {
            continue;
        }
        let message: Value = serde_json::from_slice(payload).expect("JSON on the wire");
        match class {
            "spectators" => assert_no_foreign_card(&message, None),
            "seat.1" => assert_no_foreign_card(&message, Some(1)),
            _ => {}
        }
    }
    println!(
        "cluster relay: {seqs} actions ({actions} by the players, {acked_through_b} through \
         node b), {SPECTATORS} spectators on b: {} NATS messages on the room's subjects \
         ({:.2} per action) {per_subject:?}, {} on the nodes' out subjects",
        heard.len(),
        heard.len() as f64 / seqs as f64,
        on_node_outs.lock().unwrap().len()
    );
    assert!(acked_through_b >= 20, "seat 1 acted through b");
    assert_eq!(on_node_outs.lock().unwrap().len(), 0, "nothing per node");
    assert!(
        heard.len() <= 3 * seqs,
        "{} NATS messages for {seqs} actions: more than one per viewer class",
        heard.len()
    );
    assert!(
        // Allowance for the listener's window (CI saw 211 of 216 once; under study).
        per_subject.get("spectators").copied().unwrap_or(0) * 20 >= seqs * 19,
        "the spectators' class got every action once: {per_subject:?}"
    );
    assert!(
        !per_subject.contains_key("seat.0"),
        "seat 0 follows only through the room's node: {per_subject:?}"
    );

    // Byte for byte, every socket of a class got what the room cut for that class.
    let texts =
        |seen: &Kept| -> HashMap<u64, String> { seen.lock().unwrap().iter().cloned().collect() };
    let reference = texts(&seen_reference);
    assert!(reference.len() >= seqs, "the reference saw every action");
    for (n, kept) in spectator_seen.iter().enumerate() {
        assert_eq!(texts(kept), reference, "spectator {n} on node b");
    }
    assert_eq!(
        texts(&seen_seat1),
        texts(&seen_twin),
        "seat 1 on b and on a"
    );
    assert!(drawn(&seen_seat0) > 0 && drawn(&seen_seat1) > 0);
    drop(nodes);
    db.cleanup().await;
}

/// Reads until `p` has seen `seq`.
async fn reach(p: &mut Participant, seq: u64) {
    p.reach(seq).await;
}

/// The `applied` texts a socket received, by seq.
type Kept = Arc<Mutex<Vec<(u64, String)>>>;

fn kept() -> Kept {
    Arc::default()
}
