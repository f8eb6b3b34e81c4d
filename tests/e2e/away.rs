//! End to end: away players. A player who leaves a running match is replaced by the bot once the
//! room's grace period is over (shown as a takeover in `room`, the bot's moves `by: bot`), and
//! takes the seat back with `back` after reconnecting; the replay says who took each action.

use crate::common;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::play::verify;
use common::play::{Participant, seat_players};
use common::{Client, TestDb, TestServer};

on_both_databases! {
    a_player_who_leaves_is_played_for_by_the_bot_until_back;
}

/// Plays `me`'s turns (its last listed action) until a message matches `wanted`.
pub(crate) async fn play_until(
    me: &mut Participant,
    what: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    let mut acted_at = None;
    loop {
        if me.to_act.is_some()
            && me.to_act == me.seat
            && acted_at != Some(me.seq)
            && let Some(action) = me.legal.last().cloned()
        {
            let id = format!("move-{}", me.seq);
            let room = me.room.clone();
            me.client
                .send(&json!({"type": "action", "room": room, "id": id, "action": action}))
                .await;
            acted_at = Some(me.seq);
        }
        let message = me.until(what, |_| true).await;
        if wanted(&message) {
            return message;
        }
        assert!(
            message["type"] != "finished" && message["type"] != "error",
            "{message} before {what}"
        );
    }
}

fn takeover(room: &Value, seat: usize) -> &Value {
    &room["room"]["seats"][seat]["takeover"]
}

async fn a_player_who_leaves_is_played_for_by_the_bot_until_back(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let mut tokens = Vec::new();
    for name in ["Ada away", "Bob away"] {
        tokens.push(http.guest(name).await.1);
    }
    let (status, refused) = http
        .post(
            "/api/rooms",
            Some(&tokens[0]),
            &json!({"ruleset": "hexdice", "grace_seconds": 0}),
        )
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("invalid_request"))
    );
    let room = http
        .room(
            &tokens[0],
            &json!({"ruleset": "hexdice", "grace_seconds": 1, "bot_delay_ms": 0, "clock": "none"}),
        )
        .await;
    assert_eq!(room["settings"]["grace_seconds"], 1, "{room}");
    let id = room["id"].as_str().unwrap().to_owned();
    let mut players = seat_players(server.addr, &id, None, &tokens).await;
    let bob = players.pop().unwrap();
    let mut ada = players.pop().unwrap();
    // Bob's tab closes: after the grace period a bot plays his seat.
    let left = Instant::now();
    bob.client.close().await;
    let taken = play_until(&mut ada, "Bob's seat taken over", |m| {
        m["type"] == "room" && !takeover(m, 1).is_null()
    })
    .await;
    assert_eq!(takeover(&taken, 1), "disconnected", "{taken}");
    assert!(
        left.elapsed() >= Duration::from_secs(1),
        "not before the grace period"
    );
    let by_bot = play_until(&mut ada, "a move for Bob", |m| {
        m["type"] == "applied" && m["seat"] == 1
    })
    .await;
    assert_eq!(by_bot["by"], "bot", "{by_bot}");
    // Bob comes back: reconnecting shows him the takeover; `back` ends it for everyone.
    let mut bob = Client::connect(server.addr).await;
    bob.hello(Some(&tokens[1])).await;
    let joined = bob.join(&id, None).await;
    assert_eq!(takeover(&joined, 1), "disconnected", "{joined}");
    ada.client.send(&json!({"type": "back", "room": id})).await;
    assert_eq!(ada.client.error_code().await, "not_taken_over");
    bob.send(&json!({"type": "back", "room": id})).await;
    let back = bob
        .until("the seat given back", |m| {
            m["type"] == "room" && takeover(m, 1).is_null()
        })
        .await;
    assert_eq!(back["room"]["seats"][1]["connected"], true);
    ada.until("Ada sees Bob back", |m| {
        m["type"] == "room" && takeover(m, 1).is_null()
    })
    .await;
    // End it, then the record says who took each action.
    bob.send(&json!({"type": "resign", "room": id})).await;
    bob.until_type("finished").await;
    let (_, replay) = http.room_replay(&id, None).await;
    let actions = replay["actions"].as_array().unwrap();
    assert!(
        actions.iter().any(|a| a["seat"] == 1 && a["by"] == "bot"),
        "the bot's moves for Bob: {actions:?}"
    );
    assert!(
        actions
            .iter()
            .filter(|a| a["seat"] == 0)
            .all(|a| a["by"] == "player"),
        "Ada played her own moves"
    );
    let last = actions.last().unwrap();
    assert_eq!((&last["seat"], &last["by"]), (&json!(1), &json!("player")));
    let (ok, output) = verify(&replay);
    assert!(ok, "verify accepts the record: {output}");
    bob.close().await;
    ada.client.close().await;
    server.stop().await;
}
