//! End to end, cluster mode (docs/SCALING.md, "Nodes talking over NATS"): a room served by one
//! node reaches its followers on another node once per viewer class, not once per connection,
//! and hidden information still reaches only its seat. Real `warroom` processes over the test
//! PostgreSQL and NATS; the test itself listens on the room's NATS subjects (and on the old
//! per-node `out` subjects) with async-nats, from before anyone follows the room, and checks
//! what goes over the wire by the messages' own numbers (their `applied` seq, their place in
//! the room's stream), not by when it heard them.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;

use crate::cluster::{Node, cards_and_a_bot, cluster_setup, cluster_up, owners};
use crate::common::play::{Chooser, Participant, participant, take_seat};
use crate::common::{Client, TestDb};
use crate::play::{assert_no_foreign_card, cards_seen, classic_choice};

/// Spectators following the room through the node that does not serve it.
const SPECTATORS: usize = 50;

/// Actions played at least (more until each seat drew a card).
const ACTIONS: usize = 120;

/// One message the test heard on NATS.
#[derive(Clone, Debug)]
struct Wire {
    /// Its subject after `warroom.room.<room>.` (`spectators`, `seat.1`, `direct`, ...).
    class: String,
    /// Its number in the room's stream (the third field of `Warroom-At`).
    n: Option<u64>,
    /// Its payload, parsed (`None`: empty, a control message).
    message: Option<Value>,
}

impl Wire {
    /// The seq of the `applied` it carries.
    fn applied(&self) -> Option<u64> {
        let message = self.message.as_ref()?;
        (message["type"] == "applied").then(|| message["seq"].as_u64().expect("seq"))
    }
}

/// What the test heard on NATS, in order.
type Heard = Arc<Mutex<Vec<Wire>>>;

/// Records every message of `subject` into `heard`.
async fn listen(nats: &async_nats::Client, subject: String, heard: Heard) {
    let mut subscriber = nats.subscribe(subject).await.expect("subscribe");
    tokio::spawn(async move {
        while let Some(message) = subscriber.next().await {
            let subject = message.subject.to_string();
            let class = subject.splitn(4, '.').nth(3).unwrap_or(&subject).to_owned();
            let n = message
                .headers
                .as_ref()
                .and_then(|h| h.get("Warroom-At"))
                .and_then(|at| at.as_str().split(' ').nth(2)?.parse().ok());
            let message = (!message.payload.is_empty())
                .then(|| serde_json::from_slice(&message.payload).expect("JSON on the wire"));
            heard.lock().unwrap().push(Wire { class, n, message });
        }
    });
}

/// The seqs of the `applied` messages heard on `class`, in the order heard.
fn applied_on(heard: &[Wire], class: &str) -> Vec<u64> {
    heard
        .iter()
        .filter(|wire| wire.class == class)
        .filter_map(Wire::applied)
        .collect()
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

/// Two guests (`names`) and their room (`request`), opened while node a is alone so that a
/// serves it; then node b up beside a. Returns the test's NATS, database, both nodes (a first)
/// and the guests' tokens.
async fn a_room_of_node_a(
    tag: char,
    names: [&str; 2],
    request: &Value,
) -> (String, TestDb, Vec<Node>, [String; 2], String) {
    let (nats, db, prefix) = cluster_setup().await;
    let a = Node::up(&db, &nats, &format!("{tag}{prefix}a"), 5).await;
    let http = a.http();
    let [(_, token0), (_, token1)] = http.guests(names).await;
    let room = http.room_id(&token0, request).await;
    let b = Node::start(&db, &nats, &format!("{tag}{prefix}b"), 5);
    let nodes = vec![a, b];
    cluster_up(&db, &nodes).await;
    assert_eq!(owners(&db).await.get(&room), Some(&nodes[0].id));
    (nats, db, nodes, [token0, token1], room)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_room_reaches_another_node_once_per_viewer_class_with_hidden_cards_kept_per_seat() {
    let (nats, db, nodes, [token0, token1], room) =
        a_room_of_node_a('r', ["relay p0", "relay p1"], &cards_and_a_bot()).await;
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
        let client = follower(addr, Some(token), &room).await;
        players.push(take_seat(client, &room, seat, token).await);
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
    // The match started at this seq (every socket followed the room before it started, so
    // each got this snapshot and every `applied` after it; the bot may have played already).
    let start = players[0].seq;

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
            // Its `applied` came first (the next action, the bot's, may come before the ack
            // too, as on one node); every socket's actions are checked once each below.
            assert!(
                actor.seq >= seq,
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
    // The actions checked: every one after the match's start up to the last one every socket
    // read (the bot may go on playing; what it plays later is only checked for order).
    let last = players[0].seq;
    let actions_seen: Vec<u64> = (start + 1..=last).collect();
    // The observer reads the same stream on its own connection: wait until it heard the last
    // action on both classes (node b already delivered it).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let heard = on_room.lock().unwrap().clone();
        let reached = ["spectators", "seat.1"]
            .iter()
            .all(|class| applied_on(&heard, class).contains(&last));
        if reached {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the observer heard seq {last} on both classes within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // What went over NATS, by the messages' own numbers (the listener subscribed before the
    // first follower joined, so it heard the room's whole stream).
    let heard = on_room.lock().unwrap().clone();
    let mut per_subject: BTreeMap<String, usize> = BTreeMap::new();
    for wire in &heard {
        *per_subject.entry(wire.class.clone()).or_default() += 1;
        if let Some(message) = &wire.message {
            match wire.class.as_str() {
                "spectators" => assert_no_foreign_card(message, None),
                "seat.1" => assert_no_foreign_card(message, Some(1)),
                _ => {}
            }
        }
    }
    let count = actions_seen.len();
    // The part of the stream that carried the checked actions: from the first `applied` of
    // the match to the last copy of `last`.
    let first_at = heard.iter().position(|w| w.applied().is_some());
    let last_at = heard.iter().rposition(|w| w.applied() == Some(last));
    let (Some(first_at), Some(last_at)) = (first_at, last_at) else {
        panic!("no applied heard on NATS: {per_subject:?}");
    };
    let playing = &heard[first_at..=last_at];
    println!(
        "cluster relay: {count} actions ({actions} by the players, {acked_through_b} through \
         node b), {SPECTATORS} spectators on b: {} NATS messages on the room's subjects while \
         they were played ({:.2} per action), {} in all {per_subject:?}, {} on the nodes' out \
         subjects",
        playing.len(),
        playing.len() as f64 / count as f64,
        heard.len(),
        on_node_outs.lock().unwrap().len()
    );
    assert!(acked_through_b >= 20, "seat 1 acted through b");
    assert_eq!(on_node_outs.lock().unwrap().len(), 0, "nothing per node");
    // The room's stream was heard whole: numbered 1, 2, 3, ... in the order published.
    let numbers: Vec<Option<u64>> = heard.iter().map(|w| w.n).collect();
    let expected: Vec<Option<u64>> = (1..=heard.len() as u64).map(Some).collect();
    assert_eq!(
        numbers, expected,
        "the room's stream skips or repeats a message"
    );
    // Each class that follows through b (seat 1, the spectators) got every action exactly
    // once, in order, on its own subject; no action went anywhere else.
    for class in ["spectators", "seat.1"] {
        let seqs = applied_on(&heard, class);
        let through = seqs.iter().filter(|&&seq| seq <= last).count();
        assert_eq!(
            seqs[..through],
            actions_seen[..],
            "{class}: every action from seq {} to {last} once, in order",
            start + 1
        );
        assert!(
            seqs.windows(2).all(|pair| pair[1] == pair[0] + 1),
            "{class}: the bot's later actions in order too: {:?}",
            &seqs[through..]
        );
    }
    let elsewhere: Vec<&Wire> = heard
        .iter()
        .filter(|w| w.applied().is_some() && w.class != "spectators" && w.class != "seat.1")
        .collect();
    assert!(
        elsewhere.is_empty(),
        "an action went on another subject (seat 0 follows only through the room's node; \
         none per connection): {elsewhere:?}"
    );
    // While playing, nothing else per action or per connection: besides the actions only the
    // room itself (its presence, coalesced, may still go out after the match started), once
    // for every follower on `all`.
    let other: Vec<&Wire> = playing
        .iter()
        .filter(|w| w.applied().is_none())
        .filter(|w| !(w.class == "all" && w.message.as_ref().is_some_and(|m| m["type"] == "room")))
        .collect();
    assert!(
        other.is_empty(),
        "while playing, only the actions (and the room on `all`) went over NATS: {other:?}"
    );

    // Byte for byte, every socket of a class got what the room cut for that class: every
    // action once, in order.
    let texts = |seen: &Kept, whose: &str| -> Vec<String> {
        let seen = seen.lock().unwrap();
        let through: Vec<&(u64, String)> = seen.iter().filter(|(seq, _)| *seq <= last).collect();
        assert_eq!(
            through.iter().map(|(seq, _)| *seq).collect::<Vec<_>>(),
            actions_seen,
            "{whose}: every action once, in order"
        );
        through.into_iter().map(|(_, text)| text.clone()).collect()
    };
    let reference = texts(&seen_reference, "the spectator on a");
    for (n, kept) in spectator_seen.iter().enumerate() {
        assert!(
            texts(kept, &format!("spectator {n} on b")) == reference,
            "spectator {n} on node b got what the spectator on a got"
        );
    }
    assert!(
        texts(&seen_seat1, "seat 1 on b") == texts(&seen_twin, "seat 1 on a"),
        "seat 1 on b and on a"
    );
    assert!(drawn(&seen_seat0) > 0 && drawn(&seen_seat1) > 0);
    drop(nodes);
    db.cleanup().await;
}

/// Reads until `p` has seen `seq`; fails the test after 20 s (a socket that lost an action
/// would otherwise wait for the next one, which the test never makes, until the server closes
/// it).
async fn reach(p: &mut Participant, seq: u64) {
    let seat = p.seat;
    let had = p.seq;
    if tokio::time::timeout(Duration::from_secs(20), p.reach(seq))
        .await
        .is_err()
    {
        panic!("a socket of seat {seat:?} did not get seq {seq} within 20 s (it had seq {had})");
    }
}

/// The `applied` texts a socket received, by seq.
type Kept = Arc<Mutex<Vec<(u64, String)>>>;

fn kept() -> Kept {
    Arc::default()
}

/// An action of a socket of node b for a room served by node a, sent once a was killed: the
/// action is published without waiting for an answer, and NATS's "no responders" on its reply
/// subject answers it `unavailable` at once (long before a's lease expires and the room
/// moves), as the request it replaced was; the client sends it again once it joined again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn an_action_for_a_room_of_a_node_that_died_is_answered_unavailable_at_once() {
    let hexdice = serde_json::json!({"ruleset": "hexdice", "options": {}, "seats": 2});
    let (nats, db, mut nodes, [token0, token1], room) =
        a_room_of_node_a('u', ["dead p0", "dead p1"], &hexdice).await;
    let (a_addr, b_addr) = (nodes[0].addr, nodes[1].addr);
    let mut players = Vec::new();
    for (seat, (addr, token)) in [(a_addr, &token0), (b_addr, &token1)]
        .into_iter()
        .enumerate()
    {
        let client = follower(addr, Some(token), &room).await;
        players.push(take_seat(client, &room, seat, token).await);
    }
    for p in &mut players {
        p.until("snapshot", |m| m["type"] == "snapshot").await;
    }
    // Seat 0 (on a) plays until seat 1 (on b) is to act.
    for n in 0.. {
        assert!(n < 200, "seat 1 gets a turn");
        if players[1].to_act == Some(1) && !players[1].legal.is_empty() {
            break;
        }
        let action = players[0].legal[0].clone();
        let answer = players[0].act(&format!("a{n}"), &action).await;
        assert_eq!(answer["type"], "ack", "{answer}");
        let seq = answer["seq"].as_u64().expect("seq");
        reach(&mut players[1], seq).await;
    }
    let a = nodes.remove(0);
    let a_asks = format!("warroom.node.{}.ask", a.id);
    a.sigkill();
    // NATS drops a's subscriptions once it reads the killed process's socket closed, which on a
    // loaded machine can take a moment: until then a message for a is delivered to a dead
    // connection and nobody answers "no responders".
    let observer = async_nats::connect(&nats).await.expect("NATS");
    let killed = tokio::time::Instant::now();
    loop {
        let ask = observer.request(a_asks.clone(), "{}".into());
        if let Ok(Err(error)) = tokio::time::timeout(Duration::from_millis(200), ask).await
            && error.kind() == async_nats::RequestErrorKind::NoResponders
        {
            break;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(4),
            "NATS forgets the killed node's subscriptions within 4 s"
        );
    }
    println!("NATS forgot the killed node after {:?}", killed.elapsed());
    let action = players[1].legal[0].clone();
    let sent = tokio::time::Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(3), players[1].act("b1", &action))
        .await
        .expect("an answer within 3 s");
    println!(
        "an action for the dead node's room answered {} after {:?}",
        answer["code"],
        sent.elapsed()
    );
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "unavailable", "{answer}");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "answered within 2 s, before the 5 s lease expired"
    );
    drop(players);
    drop(nodes);
    db.cleanup().await;
}
