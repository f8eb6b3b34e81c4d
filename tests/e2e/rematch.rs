//! End to end: a rematch. After a three-player capitals match two players accept and one
//! declines; a new room with the same ruleset and options seats the two, rotated, and its match
//! starts when they join. After a match against the computer the person's answer alone makes a
//! rematch, the computer seated again.

use crate::common;

use serde_json::{Value, json};

use common::play::{Chooser, Participant, play, seat_everyone, seat_players};
use common::{TestDb, TestServer};

on_both_databases! {
    rematch_with_two_of_three_accepting;
    a_rematch_against_the_computer_seats_the_bots_again;
}

/// Answers the rematch; returns the refusal, or the rematch as it stands with this answer.
async fn answer(who: &mut Participant, accept: bool) -> Value {
    let room = who.room.clone();
    who.client
        .send(&json!({"type": "rematch", "room": room, "accept": accept}))
        .await;
    let seat = json!(who.seat);
    let list = if accept { "accepted" } else { "declined" };
    who.until("rematch or refusal", move |m| {
        m["type"] == "error"
            || (m["type"] == "rematch"
                && m["rematch"][list]
                    .as_array()
                    .is_some_and(|seats| seats.contains(&seat)))
    })
    .await
}

async fn rematch_with_two_of_three_accepting(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let options = json!({"map_size": "small"});
    let (room, mut players, mut spectator) =
        seat_everyone(http, server.addr, "capitals", options.clone(), 3).await;

    // Not before the end, and only players.
    let refused = answer(&mut players[0], true).await;
    assert_eq!(refused["code"], "match_not_over", "{refused}");

    let mut chooser = Chooser(0x2e3a);
    let over = play(&mut players, &mut [&mut spectator], 20_000, &mut |legal| {
        chooser.hurried(legal)
    })
    .await;
    assert!(over, "capitals ends");
    let refused = answer(&mut spectator, true).await;
    assert_eq!(refused["code"], "not_seated");

    // Seat 0 accepts: one player is no rematch yet.
    let state = answer(&mut players[0], true).await;
    assert_eq!(
        state["rematch"],
        json!({"accepted": [0], "declined": [], "room": null})
    );
    // Seat 2 accepts: seat 1 has not answered and is still here, so it waits.
    let state = answer(&mut players[2], true).await;
    assert_eq!(
        state["rematch"],
        json!({"accepted": [0, 2], "declined": [], "room": null})
    );
    // Seat 1 declines: two of three agree, the new room opens.
    answer(&mut players[1], false).await;
    let opened = spectator
        .until("the rematch room", |m| {
            m["type"] == "rematch" && !m["rematch"]["room"].is_null()
        })
        .await;
    let rematch_room = opened["rematch"]["room"].as_str().unwrap().to_owned();
    assert_ne!(rematch_room, room);
    assert_eq!(opened["rematch"]["accepted"], json!([0, 2]));
    assert_eq!(opened["rematch"]["declined"], json!([1]));

    // Same ruleset and options, the two players rotated: old seat 2 first, old seat 0 second.
    let (status, shown) = http.get(&format!("/api/rooms/{rematch_room}"), None).await;
    assert_eq!(status, 200, "{shown}");
    let (_, old) = http.get(&format!("/api/rooms/{room}"), None).await;
    assert_eq!(shown["ruleset"], "capitals");
    assert_eq!(shown["options"], old["options"]);
    let name = |room: &Value, seat: usize| room["seats"][seat]["player"]["name"].clone();
    assert_eq!(shown["seats"].as_array().unwrap().len(), 2);
    assert_eq!(name(&shown, 0), name(&old, 2));
    assert_eq!(name(&shown, 1), name(&old, 0));

    // They join and the match starts, each in their new seat.
    for (new_seat, old_seat) in [(0, 2), (1, 0)] {
        let token = players[old_seat].token.clone().unwrap();
        let mut client = server.client(Some(&token)).await;
        client.join(&rematch_room, None).await;
        let snapshot = client.until_type("snapshot").await;
        assert_eq!(snapshot["seat"], new_seat);
        assert_eq!(snapshot["seq"], 0);
    }
    let (_, shown) = http.get(&format!("/api/rooms/{rematch_room}"), None).await;
    assert_eq!(shown["state"], "playing");

    // Whoever joins the old room later is told where the rematch is.
    let mut late = server.client(None).await;
    late.join(&room, None).await;
    let told = late.until_type("rematch").await;
    assert_eq!(told["rematch"]["room"], rematch_room.as_str());
    server.stop().await;
}

async fn a_rematch_against_the_computer_seats_the_bots_again(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let ada = http.guest("Ada").await.1;
    let bob = http.guest("Bob").await.1;
    let room = http
        .room(
            &ada,
            &json!({"ruleset": "capitals", "seats": 3, "options": {"map_size": "small"},
                    "bots": [{"seat": 2, "level": "easy"}], "bot_delay_ms": 0}),
        )
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let mut players = seat_players(server.addr, &id, None, &[ada, bob]).await;
    // Both people resign: bots play their seats, and the match ends by the rules.
    for player in &mut players {
        player
            .client
            .send(&json!({"type": "resign", "room": id}))
            .await;
    }
    for player in &mut players {
        player.finished().await;
    }

    // Ada accepts, Bob declines: Ada and the computer make the rematch, and a bot of the old
    // room's level takes Bob's seat. The computer (old seat 2) now sits first, Ada second.
    answer(&mut players[0], true).await;
    answer(&mut players[1], false).await;
    let opened = players[0]
        .until("the rematch room", |m| {
            m["type"] == "rematch" && !m["rematch"]["room"].is_null()
        })
        .await;
    assert_eq!(opened["rematch"]["accepted"], json!([0]), "{opened}");
    let rematch_room = opened["rematch"]["room"].as_str().unwrap().to_owned();
    let (status, shown) = http.get(&format!("/api/rooms/{rematch_room}"), None).await;
    assert_eq!(status, 200, "{shown}");
    let seats = shown["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3, "the room keeps its size: {shown}");
    assert_eq!(seats[0]["bot"], "easy", "{shown}");
    assert_eq!(seats[1]["player"]["name"], "Ada", "{shown}");
    assert_eq!(seats[2]["bot"], "easy", "{shown}");

    // Ada joins and plays the new match in her new seat.
    let token = players[0].token.clone().unwrap();
    let mut ada = server.client(Some(&token)).await;
    ada.join(&rematch_room, None).await;
    let snapshot = ada.until_type("snapshot").await;
    assert_eq!(snapshot["seat"], 1, "{snapshot}");
    let (_, shown) = http.get(&format!("/api/rooms/{rematch_room}"), None).await;
    assert_eq!(shown["state"], "playing", "{shown}");
    server.stop().await;
}
