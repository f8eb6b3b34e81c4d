//! Seats a bot plays while their player is away, through the real room loop (`task.rs`) with
//! tokio's paused time (`loop_harness.rs`), so a grace period passes in no time.

use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;
use warroom_engine::Seat;
use warroom_protocol::{ActedBy, ClockSettings, RoomState};
use warroom_room::summary::played_by_a_person;

use super::loop_harness::{GRACE, PATIENCE, Person, Table};

fn takeover_of(room_message: &Value, seat: usize) -> &Value {
    &room_message["room"]["seats"][seat]["takeover"]
}

/// Plays `person`'s (seat 0's) turns with its last listed action until `wanted` is seen.
async fn play_until(
    table: &Table,
    person: &mut Person,
    what: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    play_seat_until(table, person, Seat(0), what, wanted).await
}

/// Plays `person`'s turns (of `seat`) with its last listed action until `wanted` is seen.
async fn play_seat_until(
    table: &Table,
    person: &mut Person,
    seat: Seat,
    what: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    let mut acted_at = None;
    loop {
        let to_play = person
            .last_match_message()
            .filter(|last| last["to_act"] == seat.0 && acted_at != Some(last["seq"].clone()))
            .and_then(|last| {
                Some((
                    last["seq"].clone(),
                    warroom_protocol::legal::expand_value(&last["legal"])?,
                ))
            });
        if person.inbox.is_empty()
            && let Some((seq, legal)) = to_play
        {
            let id = format!("p{}-{seq}", seat.0);
            table
                .act(person, &id, legal.last().unwrap().clone())
                .await
                .unwrap();
            acted_at = Some(seq);
        }
        let message = person.next().await;
        if wanted(&message) {
            return message;
        }
        assert!(message["type"] != "finished", "over before {what}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_disconnected_players_seat_is_played_by_the_bot_after_the_grace_period_until_back() {
    let table = Table::start(0);
    let mut ada = table.join(1, Some(0)).await;
    let bob = table.join(2, Some(1)).await;
    let left = Instant::now();
    table.leave(bob).await;
    let gone = ada
        .until("bob is shown gone", |m| {
            m["type"] == "room" && m["room"]["seats"][1]["connected"] == false
        })
        .await;
    assert!(takeover_of(&gone, 1).is_null(), "not yet: {gone}");
    let taken = ada
        .until("the takeover", |m| {
            m["type"] == "room" && !takeover_of(m, 1).is_null()
        })
        .await;
    assert_eq!(takeover_of(&taken, 1), "disconnected");
    let waited = Instant::now() - left;
    assert!(
        waited >= GRACE && waited < GRACE + Duration::from_secs(1),
        "taken over when the grace period ended: {waited:?}"
    );
    assert!(played_by_a_person(&table.summary.borrow()), "Ada plays on");
    // The bot plays Bob's seat, through the log like anyone (`by: bot`).
    let by_bot = play_until(&table, &mut ada, "a bot move for Bob", |m| {
        m["type"] == "applied" && m["seat"] == 1
    })
    .await;
    assert_eq!(by_bot["by"], "bot", "{by_bot}");
    // Bob reconnects: the bot still plays until he says he is back.
    let mut bob = table.join(3, Some(1)).await;
    bob.read_arrived();
    let shown = bob.seen.iter().find(|m| m["type"] == "room").unwrap();
    assert_eq!(takeover_of(shown, 1), "disconnected", "reconnecting alone");
    let refused = table.back(&ada).await.unwrap_err();
    assert_eq!(refused.code, "not_taken_over", "Ada plays her own seat");
    let spectator = table.join(9, None).await;
    assert_eq!(table.back(&spectator).await.unwrap_err().code, "not_seated");
    bob.read_arrived();
    table.back(&bob).await.unwrap();
    let given_back = bob
        .until("the seat given back", |m| m["type"] == "room")
        .await;
    assert!(takeover_of(&given_back, 1).is_null(), "{given_back}");
    assert!(given_back["room"]["seats"][1]["connected"] == true);
    // From now on only Bob plays his seat: Ada plays until Bob is to act, then nothing happens
    // however long Bob thinks; then Bob's move is his.
    let bobs_turn =
        |m: &Value| (m["type"] == "applied" || m["type"] == "snapshot") && m["to_act"] == 1;
    bob.read_arrived();
    if !bob.last_match_message().is_some_and(bobs_turn) {
        play_until(&table, &mut ada, "Bob's turn", bobs_turn).await;
    }
    let mark = ada.seen.len();
    tokio::time::sleep(Duration::from_secs(600)).await;
    ada.read_arrived();
    assert!(
        ada.seen[mark..].iter().all(|m| m["type"] != "applied"),
        "no bot plays Bob's seat any more: {:?}",
        &ada.seen[mark..]
    );
    bob.read_arrived();
    let legal = warroom_protocol::legal::expand_value(&bob.last_match_message().unwrap()["legal"])
        .unwrap()[0]
        .clone();
    table.act(&bob, "bob-1", legal).await.unwrap();
    let mine = bob
        .until("Bob's move", |m| m["type"] == "applied" && m["seat"] == 1)
        .await;
    assert_eq!(mine["by"], "player");
}

#[tokio::test(start_paused = true)]
async fn an_action_by_the_owner_gives_a_taken_over_seat_back_and_is_applied() {
    // The bot waits 5 s before each move: Bob is quicker.
    let mut table = Table::start(5_000);
    let mut ada = table.join(1, Some(0)).await;
    let bob = table.join(2, Some(1)).await;
    table.leave(bob).await;
    ada.until("the takeover", |m| {
        m["type"] == "room" && takeover_of(m, 1) == "disconnected"
    })
    .await;
    // Ada plays (without waiting, so the bot's delay does not run out) until Bob is to act.
    let mut played = 0;
    loop {
        ada.read_arrived();
        let last = ada.last_match_message().unwrap().clone();
        if last["to_act"] == 1 {
            break;
        }
        let legal = warroom_protocol::legal::expand_value(&last["legal"]).unwrap();
        let action = legal.last().unwrap();
        table
            .act(&ada, &format!("a{played}"), action.clone())
            .await
            .unwrap();
        played += 1;
    }
    while table.appends.try_recv().is_ok() {}
    let mut bob = table.join(3, Some(1)).await;
    bob.read_arrived();
    let snapshot = bob.last_match_message().unwrap().clone();
    assert_eq!(snapshot["to_act"], 1);
    let action = warroom_protocol::legal::expand_value(&snapshot["legal"]).unwrap()[0].clone();
    let seq = table.act(&bob, "bob-now", action.clone()).await.unwrap();
    bob.read_arrived();
    let given_back = bob.seen.iter().rev().find(|m| m["type"] == "room").unwrap();
    assert!(takeover_of(given_back, 1).is_null(), "{given_back}");
    let applied = bob
        .seen
        .iter()
        .find(|m| m["type"] == "applied" && m["seq"] == seq)
        .expect("Bob's action is applied");
    assert_eq!(
        (&applied["by"], &applied["action"]),
        (&"player".into(), &action)
    );
    let stored = table.appends.try_recv().unwrap();
    assert_eq!((stored.seq, stored.by), (seq, ActedBy::Player));
    // The bot's decision asked before Bob came back is dropped when its delay ends.
    tokio::time::sleep(Duration::from_secs(60)).await;
    while let Ok(append) = table.appends.try_recv() {
        assert!(
            append.seat == Seat(0) || append.by == ActedBy::Player,
            "no bot move for Bob's seat: {append:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_match_nobody_plays_any_more_is_played_to_its_end_by_the_bots_and_leaves_the_lobby() {
    let table = Table::start(0);
    let ada = table.join(1, Some(0)).await;
    let bob = table.join(2, Some(1)).await;
    let mut watcher = table.join(9, None).await;
    table.leave(ada).await;
    table.leave(bob).await;
    let both = watcher
        .until("both seats taken over", |m| {
            m["type"] == "room" && !takeover_of(m, 0).is_null() && !takeover_of(m, 1).is_null()
        })
        .await;
    assert_eq!(both["room"]["state"], "playing");
    assert!(
        !played_by_a_person(&table.summary.borrow()),
        "no person plays it: not listed"
    );
    let finished = tokio::time::timeout(PATIENCE, async {
        loop {
            let message = watcher.next().await;
            if message["type"] == "finished" {
                return message;
            }
        }
    })
    .await
    .expect("the bots finish it");
    assert!(finished["outcome"]["winner"].is_u64(), "{finished}");
    let actions: Vec<&Value> = watcher
        .seen
        .iter()
        .filter(|m| m["type"] == "applied")
        .collect();
    assert!(!actions.is_empty() && actions.iter().all(|m| m["by"] == "bot"));
    assert_eq!(table.summary.borrow().state, RoomState::Finished);
}

#[tokio::test(start_paused = true)]
async fn two_turns_in_a_row_lost_to_the_clock_hand_the_seat_to_the_bot_until_back() {
    // Turns of 1 s, no bank. Both players follow the room; the first to act never plays, the
    // other plays its turns in time.
    let clock = ClockSettings {
        turn_seconds: 1,
        bank_seconds: 0,
    };
    let table = Table::start_with(0, Some(clock));
    let mut seat_0 = table.join(1, Some(0)).await;
    let seat_1 = table.join(2, Some(1)).await;
    seat_0.read_arrived();
    let first = seat_0.last_match_message().unwrap()["to_act"]
        .as_u64()
        .unwrap();
    let (sleeper, mut player, other) = if first == 0 {
        (seat_0, seat_1, Seat(1))
    } else {
        (seat_1, seat_0, Seat(0))
    };
    let first = Seat(u8::try_from(first).unwrap());
    let started = Instant::now();
    let taken = play_seat_until(&table, &mut player, other, "the takeover", |m| {
        m["type"] == "room" && !takeover_of(m, first.index()).is_null()
    })
    .await;
    assert_eq!(takeover_of(&taken, first.index()), "timed_out", "{taken}");
    assert!(
        takeover_of(&taken, other.index()).is_null(),
        "the seat that plays in time is not taken over: {taken}"
    );
    assert!(
        taken["room"]["seats"][first.index()]["connected"] == true,
        "taken over although connected: {taken}"
    );
    let timeouts: Vec<&Value> = player
        .seen
        .iter()
        .filter(|m| m["type"] == "applied" && m["by"] == "clock")
        .collect();
    assert!(
        timeouts.iter().all(|m| m["seat"] == first.0),
        "only the sleeper's turns ran out: {timeouts:?}"
    );
    // Two whole turns of 1 s each, the other seat's turn between them played at once.
    let waited = Instant::now() - started;
    assert!(
        waited >= Duration::from_secs(2) && waited < Duration::from_secs(4),
        "{waited:?}"
    );
    // The bot now plays the sleeper's seat, through the log (`by: bot`).
    let by_bot = play_seat_until(&table, &mut player, other, "a bot move", |m| {
        m["type"] == "applied" && m["seat"] == first.0
    })
    .await;
    assert_eq!(by_bot["by"], "bot", "{by_bot}");
    // Its player says `back`: the seat is theirs again, and the bot plays it no more (the clock
    // plays its next turn, as for anyone who does not play in time).
    let mut sleeper = sleeper;
    sleeper.read_arrived();
    table.back(&sleeper).await.unwrap();
    let given_back = sleeper
        .until("the seat given back", |m| m["type"] == "room")
        .await;
    assert!(
        takeover_of(&given_back, first.index()).is_null(),
        "{given_back}"
    );
    let next = play_seat_until(&table, &mut player, other, "the sleeper's next move", |m| {
        m["type"] == "applied" && m["seat"] == first.0
    })
    .await;
    assert_eq!(next["by"], "clock", "not the bot's any more: {next}");
    assert!(
        player
            .seen
            .iter()
            .rev()
            .find(|m| m["type"] == "room")
            .is_some_and(|m| takeover_of(m, first.index()).is_null()),
        "one turn lost after `back` is no streak"
    );
}
