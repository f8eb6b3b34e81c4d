//! How a room answers an action of a socket of this node (`answer.rs`), through the real room
//! loop with tokio's paused time (`loop_harness.rs`): the `ack` or the refusal is queued to the
//! socket's own outbox, right behind the action's `applied`.

use std::sync::Arc;
use std::time::{Duration, Instant as StdInstant};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warroom_protocol::RoomId;

use super::loop_harness::{Person, Table};
use warroom_room::Command;

use super::{Outbox, QueuedAnswer, Reply, RoomCmd};
use crate::metrics::Metrics;

/// `person` sends `action` as a socket of this node does: without waiting for the answer.
async fn send_action(table: &Table, person: &Person, id: &str, action: Value) {
    let answer = QueuedAnswer::new(
        person.outbox.clone(),
        room_of(table),
        id.to_owned(),
        StdInstant::now(),
        Arc::new(Metrics::default()),
    );
    table
        .commands
        .send(RoomCmd {
            conn: person.conn,
            command: Command::Action {
                client_id: id.to_owned(),
                action,
            },
            via: None,
            reply: Reply::Queue(answer),
        })
        .await
        .unwrap();
}

/// The next message that is not the room's own news (presence, seats: `room`).
async fn next_about_actions(person: &mut Person) -> Value {
    loop {
        let message = person.next().await;
        if message["type"] != "room" {
            return message;
        }
    }
}

fn room_of(table: &Table) -> RoomId {
    table.summary.borrow().id
}

/// Seat 0's player, joined, with the snapshot read; its first listed action.
async fn seat_zero_ready(table: &Table) -> (Person, Value) {
    let mut ada = table.join(1, Some(0)).await;
    let snapshot = ada.until("the snapshot", |m| m["type"] == "snapshot").await;
    assert_eq!(snapshot["to_act"], 0, "seat 0 opens: {snapshot}");
    let legal = warroom_protocol::legal::expand_value(&snapshot["legal"]).unwrap();
    (ada, legal[0].clone())
}

#[tokio::test(start_paused = true)]
async fn an_actions_ack_is_queued_to_its_socket_right_behind_its_applied() {
    let table = Table::start(0);
    let (mut ada, action) = seat_zero_ready(&table).await;
    let mut bob = table.join(2, Some(1)).await;
    bob.until("the snapshot", |m| m["type"] == "snapshot").await;
    send_action(&table, &ada, "a-1", action).await;
    let applied = next_about_actions(&mut ada).await;
    assert_eq!(applied["type"], "applied", "{applied}");
    let ack = next_about_actions(&mut ada).await;
    assert_eq!(ack["type"], "ack", "the ack comes next: {ack}");
    assert_eq!(ack["id"], "a-1");
    assert_eq!(ack["seq"], applied["seq"], "{ack} {applied}");
    let seen_by_bob = next_about_actions(&mut bob).await;
    assert_eq!(seen_by_bob["type"], "applied");
    assert_eq!(seen_by_bob["seq"], applied["seq"]);
    bob.saw_no("ack", "only the sender is acknowledged");
}

#[tokio::test(start_paused = true)]
async fn a_refused_action_is_answered_on_its_socket_with_its_id_and_code() {
    let table = Table::start(0);
    let (mut ada, _) = seat_zero_ready(&table).await;
    send_action(
        &table,
        &ada,
        "nonsense-1",
        json!({"type": "no_such_action"}),
    )
    .await;
    let refusal = next_about_actions(&mut ada).await;
    assert_eq!(refusal["type"], "error", "{refusal}");
    assert_eq!(refusal["id"], "nonsense-1", "{refusal}");
    assert_eq!(refusal["room"], json!(room_of(&table)), "{refusal}");
    assert!(
        refusal["code"]
            .as_str()
            .is_some_and(|code| !code.is_empty()),
        "{refusal}"
    );
    ada.saw_no("applied", "nothing was applied");
}

#[tokio::test(start_paused = true)]
async fn an_action_sent_again_with_its_id_is_acked_again_with_the_same_seq() {
    let table = Table::start(0);
    let (mut ada, action) = seat_zero_ready(&table).await;
    send_action(&table, &ada, "a-1", action.clone()).await;
    let first = ada.until("the first ack", |m| m["type"] == "ack").await;
    send_action(&table, &ada, "a-1", action).await;
    let again = next_about_actions(&mut ada).await;
    assert_eq!(again["type"], "ack", "answered from the log: {again}");
    assert_eq!(again["seq"], first["seq"]);
}

#[tokio::test(start_paused = true)]
async fn a_commit_slower_than_the_answer_timeout_is_answered_unavailable_then_still_applied() {
    // The test writer's database timeout is 5 s: its answer timeout is 10 s.
    let table = Table::start_committing_after(Duration::from_secs(11));
    let (mut ada, action) = seat_zero_ready(&table).await;
    let sent = tokio::time::Instant::now();
    send_action(&table, &ada, "slow-1", action).await;
    let answer = next_about_actions(&mut ada).await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "unavailable", "{answer}");
    assert_eq!(answer["id"], "slow-1");
    let waited = tokio::time::Instant::now() - sent;
    assert!(
        waited >= Duration::from_secs(10) && waited < Duration::from_secs(11),
        "answered after {waited:?}"
    );
    // The commit still succeeds: everyone hears of the action, without a second answer.
    let applied = next_about_actions(&mut ada).await;
    assert_eq!(applied["type"], "applied", "{applied}");
    ada.saw_no("ack", "one answer only");
}

#[tokio::test]
async fn an_answer_dropped_unanswered_tells_the_socket_room_not_found() {
    let (queue, mut inbox) = mpsc::channel(8);
    let outbox = Outbox::new(queue, CancellationToken::new());
    let room = RoomId::random();
    let answer = QueuedAnswer::new(
        outbox,
        room,
        "a-9".into(),
        StdInstant::now(),
        Arc::new(Metrics::default()),
    );
    drop(answer);
    let text = inbox.try_recv().expect("an answer was queued");
    let message: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(message["type"], "error", "{message}");
    assert_eq!(message["code"], "room_not_found", "{message}");
    assert_eq!(message["id"], "a-9");
    assert!(inbox.try_recv().is_err(), "answered once");
}
