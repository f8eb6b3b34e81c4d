//! End to end: turn clocks through the real server. A turn that runs out gets the ruleset's
//! timeout actions, marked `by: clock` in `applied` and in the replay, which `warroom verify`
//! accepts; the clock state rides on every match message; a clock running when the server is
//! killed (SIGKILL) fires at the wall-clock deadline it had, in the match's first turn and in
//! one started by a stored action, also when the server is killed again (no crash loop buys
//! time); a seat
//! taken over for losing two turns in a row to the clock is still taken over after a SIGKILL.

use crate::common;

use std::time::Duration;

use serde_json::{Value, json};

use crate::away::play_until;
use crate::play::verify;
use common::play::{participant, seat_players};
use common::{Client, Http, ServerProcess, TestDb, TestServer};

on_both_databases! {
    a_turn_that_runs_out_gets_timeout_actions_recorded_and_verified;
    a_clock_running_at_a_sigkill_keeps_its_wall_clock_deadline;
    a_seat_taken_over_for_timing_out_stays_taken_over_after_a_sigkill;
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
    let (_, replay) = http.replay(match_id, None).await;
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

/// Now in Unix milliseconds.
fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// How far from its wall-clock deadline a resumed clock may fire: the restart's own start-up
/// (the room is rebuilt by then) and the loaded machine's scheduling.
const DEADLINE_TOLERANCE_MS: i64 = 750;

/// Kills `server` 3 s into a 6 s turn whose clock state is `clock`, starts another over the
/// same database, and waits (seated again as `tokens`) for the clock's timeout action: it must
/// come at the deadline the first server announced, give or take the tolerance. Returns the
/// new server and the timeout action's `applied`.
async fn sigkill_mid_turn_then_wait_for_the_clock(
    server: ServerProcess,
    database_url: &str,
    room: &str,
    tokens: &[String],
    clock: &Value,
) -> (ServerProcess, Vec<Client>, Value) {
    let deadline = clock["deadline_ms"].as_i64().expect("a running clock");
    let seat = clock["seat"].clone();
    tokio::time::sleep(Duration::from_millis(
        u64::try_from(deadline - now_ms() - 3_000).unwrap_or(0),
    ))
    .await;
    server.sigkill();
    let second = ServerProcess::start(database_url, []);
    let mut clients = Vec::new();
    for token in tokens {
        let mut client = Client::connect(second.addr).await;
        client.hello(Some(token)).await;
        client.join(room, None).await;
        let snapshot = client.until_type("snapshot").await;
        let resumed = snapshot["clock"]["deadline_ms"].as_i64().unwrap();
        assert!(
            (resumed - deadline).abs() < 100,
            "the restarted server announces the same deadline: {resumed} vs {deadline}"
        );
        clients.push(client);
    }
    let timed_out = clients[0]
        .until("the clock's action", |m| {
            m["type"] == "applied" && m["by"] == "clock"
        })
        .await;
    let late = now_ms() - deadline;
    println!("the clock fired {late} ms after its deadline");
    assert_eq!(timed_out["seat"], seat, "{timed_out}");
    assert!(
        late.abs() < DEADLINE_TOLERANCE_MS,
        "the clock fires at its deadline through a crash, not a turn later: {late} ms late"
    );
    (second, clients, timed_out)
}

async fn a_clock_running_at_a_sigkill_keeps_its_wall_clock_deadline(db: TestDb) {
    let first = ServerProcess::start(&db.url, []);
    let http = Http { addr: first.addr };
    let clock = json!({"turn_seconds": 6, "bank_seconds": 0});
    let (room, clients, tokens) = two_players(http, first.addr, clock).await;
    // The first turn, started with the match (no action stored yet).
    let snapshot = clients[0]
        .received
        .iter()
        .rev()
        .find(|m| m["type"] == "snapshot")
        .expect("seated players have their snapshot")
        .clone();
    drop(clients);
    let (second, mut clients, timed_out) = sigkill_mid_turn_then_wait_for_the_clock(
        first,
        &db.url,
        &room,
        &tokens,
        &snapshot["clock"],
    )
    .await;
    // The next seat's turn started with that timeout action, stored with its clock: a second
    // crash in that turn does not give it back either (no crash loop buys time).
    assert_ne!(timed_out["clock"]["seat"], timed_out["seat"], "{timed_out}");
    let next = clients[0]
        .until("the next turn", |m| {
            m["type"] == "applied" && m["clock"]["seat"] != timed_out["seat"]
        })
        .await;
    drop(clients);
    let (third, clients, _) =
        sigkill_mid_turn_then_wait_for_the_clock(second, &db.url, &room, &tokens, &next["clock"])
            .await;
    drop(clients);
    third.sigkill();
}

fn takeover(room: &Value, seat: usize) -> &Value {
    &room["room"]["seats"][seat]["takeover"]
}

async fn a_seat_taken_over_for_timing_out_stays_taken_over_after_a_sigkill(db: TestDb) {
    let first = ServerProcess::start(&db.url, []);
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
    let second = ServerProcess::start(&db.url, []);
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
