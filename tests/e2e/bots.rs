//! End to end: "every match reaches an end". Whole matches between bots through the real server
//! (a room of bots only, watched over the WebSocket), ended and verified; a person playing
//! against the computer; resigning with two seats.

use crate::common;

use serde_json::{Value, json};

use crate::play::verify;
use common::{Http, TestDb, TestServer};
use warroom_server::config::Config;

on_both_databases! {
    bots_only_rooms_of_every_ruleset_play_to_the_end_and_verify;
    a_person_plays_against_the_computer_and_resigns;
}

/// Watches `room` as a spectator until `finished`; returns every message seen.
async fn watch_to_the_end(server: &TestServer, room: &str) -> Vec<Value> {
    let mut spectator = server.client(None).await;
    let joined = spectator.join(room, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    spectator.until_type("finished").await;
    spectator.received
}

/// The replay of the room's match, checked by `warroom verify`.
async fn verified_replay(http: Http, room: &str) -> Value {
    let (status, replay) = http.room_replay(room, None).await;
    assert_eq!(status, 200, "{replay}");
    let (ok, output) = verify(&replay);
    assert!(ok, "verify accepts the replay: {output}");
    replay
}

async fn bots_only_rooms_of_every_ruleset_play_to_the_end_and_verify(db: TestDb) {
    // Bots without delay send a whole match in moments; on a loaded machine this test's own
    // spectator may fall more than the default 256 messages behind and be closed as a slow
    // consumer, which is not what this test is about.
    let mut config = Config::for_tests(db.url.clone());
    config.limits.outgoing_queue = 100_000;
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let (_, token) = http.guest("Watcher").await;
    for (ruleset, seats) in [("hexdice", 2u8), ("capitals", 3), ("classic", 3)] {
        let bots: Vec<Value> = (0..seats)
            .map(|seat| {
                let level = ["easy", "normal", "hard"][usize::from(seat) % 3];
                json!({"seat": seat, "level": level})
            })
            .collect();
        let room = http
            .room(
                &token,
                &json!({"ruleset": ruleset, "seats": seats, "bots": bots, "bot_delay_ms": 0}),
            )
            .await;
        assert_eq!(room["seats"][0]["bot"], "easy", "{room}");
        assert_eq!(room["seats"][1]["bot"], "normal", "{room}");
        let id = room["id"].as_str().unwrap().to_owned();
        // A match nobody plays is not listed among the lobby's playing rooms.
        let (_, lobby) = http.get("/api/rooms", None).await;
        let lobby = lobby["rooms"].clone();
        assert!(
            lobby
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r["id"] != id.as_str()),
            "{lobby}"
        );
        let seen = watch_to_the_end(&server, &id).await;
        let applied: Vec<&Value> = seen.iter().filter(|m| m["type"] == "applied").collect();
        assert!(
            applied.iter().all(|m| m["by"] == "bot"),
            "{ruleset}: every action is the bots'"
        );
        let replay = verified_replay(http, &id).await;
        let actions = replay["actions"].as_array().unwrap();
        assert!(!actions.is_empty());
        assert!(
            actions.iter().all(|a| a["by"] == "bot"),
            "{ruleset}: the replay says who took each action"
        );
        assert!(
            replay["outcome"]["winner"].is_u64(),
            "{ruleset} has a winner"
        );
        let (_, shown) = http.get(&format!("/api/rooms/{id}"), None).await;
        assert_eq!(shown["state"], "finished");
    }
    server.stop().await;
}

async fn a_person_plays_against_the_computer_and_resigns(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (_, token) = http.guest("Solo").await;
    let room = http
        .room(
            &token,
            &json!({"ruleset": "hexdice", "creator_seat": 0, "bots": [{"seat": 1}], "bot_delay_ms": 0}),
        )
        .await;
    assert_eq!(
        room["seats"][1]["bot"], "normal",
        "the level defaults to normal"
    );
    let id = room["id"].as_str().unwrap().to_owned();
    let mut me = server.client(Some(&token)).await;
    me.join(&id, None).await;
    // The match started when the room was opened; play a few actions against the bot.
    let mut played = 0;
    while played < 4 {
        let message = me
            .until("snapshot or applied", |m| {
                m["type"] == "snapshot" || m["type"] == "applied"
            })
            .await;
        let last_seq = message["seq"].as_u64().unwrap();
        if message["type"] == "applied" && message["seat"] == 1 {
            assert_eq!(message["by"], "bot", "{message}");
        }
        if message["to_act"] == 0
            && let Some(legal) = warroom_protocol::legal::expand_value(&message["legal"])
        {
            let action = legal.last().unwrap().clone();
            me.send(&json!({"type": "action", "room": id, "id": format!("a{played}"), "action": action}))
                .await;
            let ack = me.until_type("ack").await;
            assert_eq!(ack["id"], format!("a{played}"));
            played += 1;
        }
        assert!(
            message["outcome"].is_null(),
            "still playing after {last_seq}"
        );
    }
    // Resign (whoever is to act): the computer wins at once.
    me.send(&json!({"type": "resign", "room": id})).await;
    let finished = me.until_type("finished").await;
    assert_eq!(finished["outcome"]["winner"], 1);
    assert_eq!(finished["outcome"]["reason"], "opponent_resigned");
    let resigned = me
        .received
        .iter()
        .find(|m| m["type"] == "applied" && m["action"]["type"] == "resign")
        .expect("the resignation is announced like an action")
        .clone();
    assert_eq!(
        (resigned["seat"].clone(), resigned["by"].clone()),
        (json!(0), json!("player"))
    );
    // Resigning again changes nothing (it was done once); playing on is refused with a code.
    let applied_before = me
        .received
        .iter()
        .filter(|m| m["type"] == "applied")
        .count();
    me.send(&json!({"type": "resign", "room": id})).await;
    me.sync().await;
    assert_eq!(
        me.received
            .iter()
            .filter(|m| m["type"] == "applied")
            .count(),
        applied_before
    );
    me.send(&json!({"type": "action", "room": id, "id": "late", "action": {"type": "end_turn"}}))
        .await;
    assert_eq!(me.error_code().await, "match_over");
    let replay = verified_replay(http, &id).await;
    let last = replay["actions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["action"], json!({"type": "resign"}));
    let bys: Vec<&str> = replay["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["by"].as_str().unwrap())
        .collect();
    assert!(bys.contains(&"bot") && bys.contains(&"player"), "{bys:?}");
    me.close().await;
    server.stop().await;
}
