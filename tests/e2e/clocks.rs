//! End to end: turn clocks through the real server. A turn that runs out gets the ruleset's
//! timeout actions, marked `by: clock` in `applied` and in the replay, which `warroom verify`
//! accepts; the clock state rides on every match message; a clock running when the server is
//! killed (SIGKILL) resumes with the time that was left when the last action was stored; a seat
//! taken over for losing two turns in a row to the clock is still taken over after a SIGKILL.

use crate::common;

use std::time::Duration;

use serde_json::{Value, json};

use crate::away::play_until;
use crate::durability::ServerProcess;
use crate::play::verify;
use common::play::{participant, seat_players};
use common::{Client, Http, TestDb, TestServer};

on_both_databases! {
    a_turn_that_runs_out_gets_timeout_actions_recorded_and_verified => a_turn_that_runs_out_gets_timeout_actions_recorded_and_verified;
    a_clock_running_at_a_sigkill_resumes_with_the_time_left => a_clock_running_at_a_sigkill_resumes_with_the_time_left;
    a_seat_taken_over_for_timing_out_stays_taken_over_after_a_sigkill => a_seat_taken_over_for_timing_out_stays_taken_over_after_a_sigkill;
}

/// Opens a 2-seat hexdice room with `clock` and seats two new guests; returns the room id and
/// their clients (seat order) and tokens.
async fn two_players(
    http: Http,
    addr: std::net::SocketAddr,
    clock: Value,
) -> (String, Vec<Client>, Vec<String>) {
    let mut tokens = Vec::new();
    for n in 0..2 {
        tokens.push(http.guest(&format!("clocked {n}")).await.1);
    }
    let room = http
        .room(&tokens[0], &json!({"ruleset": "hexdice", "clock": clock}))
        .await;
    let expected = match &clock {
        Value::String(preset) if preset == "slow" => {
            json!({"turn_seconds": 86400, "bank_seconds": 0})
        }
        other => other.clone(),
    };
    assert_eq!(room["settings"]["clock"], expected, "{room}");
    let id = room["id"].as_str().unwrap().to_owned();
    let players = seat_players(addr, &id, None, &tokens).await;
    (id, players.into_iter().map(|p| p.client).collect(), tokens)
}

async fn a_turn_that_runs_out_gets_timeout_actions_recorded_and_verified(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let clock = json!({"turn_seconds": 1, "bank_seconds": 1});
    let (room, mut clients, _) = two_players(http, server.addr, clock.clone()).await;
    let snapshot = clients[0]
        .received
        .iter()
        .rev()
        .find(|m| m["type"] == "snapshot")
        .unwrap()
        .clone();
    let first = snapshot["to_act"].as_u64().unwrap();
    assert_eq!(snapshot["clock"]["seat"], first, "{snapshot}");
    assert_eq!(snapshot["clock"]["banks_ms"], json!([1000, 1000]));
    let left = snapshot["clock"]["left_ms"].as_u64().unwrap();
    assert!(left <= 2000 && left > 1000, "turn time and bank: {left}");
    assert!(snapshot["clock"]["deadline_ms"].as_i64().unwrap() > 0);
    // Nobody plays: each seat's clock runs out in turn.
    let mut by_clock = Vec::new();
    while by_clock.len() < 2 || by_clock.iter().all(|m: &Value| m["seat"] == first) {
        let applied = clients[0].until_type("applied").await;
        assert_eq!(applied["by"], "clock", "{applied}");
        by_clock.push(applied);
    }
    let timed_out = by_clock.last().unwrap();
    assert_eq!(
        timed_out["clock"]["banks_ms"][first as usize], 0,
        "the first seat's bank is spent: {timed_out}"
    );
    // The room says the same.
    let (_, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
    assert!(shown["clock"]["left_ms"].is_u64(), "{shown}");
    // End it (a resignation), then check the record.
    clients[1]
        .send(&json!({"type": "resign", "room": room}))
        .await;
    clients[1].until_type("finished").await;
    let match_id = shown["match_id"].as_str().unwrap();
    let (_, replay) = http
        .get(&format!("/api/matches/{match_id}/replay"), None)
        .await;
    let actions = replay["actions"].as_array().unwrap();
    assert!(
        actions.iter().filter(|a| a["by"] == "clock").count() >= 2,
        "the timeouts are in the record: {actions:?}"
    );
    let (ok, output) = verify(&replay);
    assert!(ok, "verify accepts the clock's actions: {output}");
    // A tampered record (a player's action marked as the clock's) is caught.
    let mut forged = replay.clone();
    let last = forged["actions"].as_array().unwrap().len() - 1;
    forged["actions"][last]["by"] = json!("clock");
    let (ok, _) = verify(&forged);
    assert!(!ok, "a resignation is never the clock's");
    for client in clients {
        client.close().await;
    }
    server.stop().await;
}

async fn a_clock_running_at_a_sigkill_resumes_with_the_time_left(db: TestDb) {
    let first = ServerProcess::start(&db.url);
    let http = Http { addr: first.addr };
    let (room, mut clients, tokens) = two_players(http, first.addr, json!("slow")).await;
    // One action, then the clock of the seat to act is stored with it.
    let snapshot = clients[0]
        .received
        .iter()
        .rev()
        .find(|m| m["type"] == "snapshot")
        .unwrap()
        .clone();
    let seat = snapshot["to_act"].as_u64().unwrap() as usize;
    let snapshot = clients[seat]
        .received
        .iter()
        .rev()
        .find(|m| m["type"] == "snapshot")
        .unwrap();
    let legal = warroom_protocol::legal::expand_value(&snapshot["legal"]).unwrap()[0].clone();
    clients[seat]
        .send(&json!({"type": "action", "room": room, "id": "a1", "action": legal}))
        .await;
    let applied = clients[seat].until_type("applied").await;
    let stored_left = applied["clock"]["left_ms"].as_u64().unwrap();
    let to_act = applied["clock"]["seat"].clone();
    assert!(stored_left > 86_000_000, "a day a turn: {applied}");
    // Time passes, then the server dies without a word.
    tokio::time::sleep(Duration::from_secs(3)).await;
    drop(clients);
    first.sigkill();

    let second = ServerProcess::start(&db.url);
    let mut client = Client::connect(second.addr).await;
    client.hello(Some(&tokens[0])).await;
    client.join(&room, None).await;
    let snapshot = client.until_type("snapshot").await;
    assert_eq!(snapshot["clock"]["seat"], to_act);
    let resumed = snapshot["clock"]["left_ms"].as_u64().unwrap();
    // (The stored time was taken when the action was applied, a commit before `applied`.)
    assert!(
        resumed <= stored_left + 200,
        "no free time: {resumed} > {stored_left}"
    );
    assert!(
        resumed + 2_000 > stored_left,
        "the time before the kill is not lost: {resumed} vs {stored_left}"
    );
    client.close().await;
    second.sigkill();
}

fn takeover(room: &Value, seat: usize) -> &Value {
    &room["room"]["seats"][seat]["takeover"]
}

async fn a_seat_taken_over_for_timing_out_stays_taken_over_after_a_sigkill(db: TestDb) {
    let first = ServerProcess::start(&db.url);
    let http = Http { addr: first.addr };
    let mut tokens = Vec::new();
    for n in 0..2 {
        tokens.push(http.guest(&format!("sleepy {n}")).await.1);
    }
    let clock = json!({"turn_seconds": 1, "bank_seconds": 0});
    let room = http
        .room(
            &tokens[0],
            &json!({"ruleset": "hexdice", "clock": clock, "bot_delay_ms": 0}),
        )
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let mut players = seat_players(first.addr, &id, None, &tokens).await;
    // The first seat to act never plays; the other plays its turns at once.
    let sleeper = players[0].to_act.unwrap() as usize;
    let mut awake = players.remove(1 - sleeper);
    let taken = play_until(&mut awake, "the takeover", |m| {
        m["type"] == "room" && !takeover(m, sleeper).is_null()
    })
    .await;
    assert_eq!(takeover(&taken, sleeper), "timed_out", "{taken}");
    let by_bot = play_until(&mut awake, "a bot move", |m| {
        m["type"] == "applied" && m["seat"] == sleeper
    })
    .await;
    assert_eq!(by_bot["by"], "bot", "{by_bot}");
    drop(players);
    drop(awake);
    first.sigkill();

    // After the restart the log says the seat was taken over: the bot still plays it.
    let second = ServerProcess::start(&db.url);
    let awake_seat = 1 - sleeper;
    let mut client = Client::connect(second.addr).await;
    client.hello(Some(&tokens[awake_seat])).await;
    let joined = client.join(&id, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    assert_eq!(takeover(&joined, sleeper), "timed_out", "{joined}");
    assert!(takeover(&joined, awake_seat).is_null(), "{joined}");
    let mut awake = participant(
        client,
        Some(awake_seat as u64),
        Some(tokens[awake_seat].clone()),
        &id,
    );
    awake.until("snapshot", |m| m["type"] == "snapshot").await;
    let by_bot = play_until(&mut awake, "a bot move after the restart", |m| {
        m["type"] == "applied" && m["seat"] == sleeper
    })
    .await;
    assert_eq!(by_bot["by"], "bot", "{by_bot}");
    awake.client.close().await;
    second.sigkill();
}
