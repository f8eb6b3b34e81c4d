//! End to end: chat in a room. Lines reach who may read them (players' and spectators' chats
//! kept apart while the match runs), refusals carry their codes, a muted player is not read,
//! and the chat is part of the replay (each line at its seq) once the match is over.

use crate::common;

use serde_json::{Value, json};

use common::play::{Participant, participant, play_at_random, seat_players};
use common::{Client, TestDb, TestServer};

on_both_databases! {
    chat_channels_limits_mutes_and_replay;
}

/// Says `text` in the room and returns the speaker's own copy of the line (or the refusal).
async fn say(who: &mut Participant, text: &str) -> Value {
    let room = who.room.clone();
    who.client
        .send(&json!({"type": "chat", "room": room, "text": text}))
        .await;
    who.until("own chat line or refusal", |m| {
        m["type"] == "error" || (m["type"] == "chat" && m["line"]["text"] == text.trim())
    })
    .await
}

/// The next chat line `who` receives.
async fn next_line(who: &mut Participant) -> Value {
    who.until("chat", |m| m["type"] == "chat").await["line"].clone()
}

fn texts(lines: &Value) -> Vec<String> {
    lines
        .as_array()
        .expect("lines")
        .iter()
        .map(|line| line["text"].as_str().expect("text").to_owned())
        .collect()
}

async fn chat_channels_limits_mutes_and_replay(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(ada_id, ada_token), (bob_id, bob_token), (_, sam_token)] =
        http.guests(["Ada", "Bob", "Sam"]).await;
    let room = http
        .room_id(&ada_token, &json!({"ruleset": "hexdice", "seats": 2}))
        .await;
    let mut seated = seat_players(
        server.addr,
        &room,
        None,
        &[ada_token.clone(), bob_token.clone()],
    )
    .await;
    let mut sam = {
        let mut client = server.client(Some(&sam_token)).await;
        client.join(&room, None).await;
        participant(client, None, Some(sam_token.clone()), &room)
    };
    let mut anonymous = {
        let mut client = Client::connect(server.addr).await;
        client.hello(None).await;
        client.join(&room, None).await;
        participant(client, None, None, &room)
    };

    // A player's line reaches everyone, in the players' chat.
    let own = say(&mut seated[0], "  good luck  ").await;
    assert_eq!(own["line"]["channel"], "players", "{own}");
    assert_eq!(own["line"]["text"], "good luck", "trimmed");
    assert_eq!(own["line"]["from"]["name"], "Ada");
    assert_eq!(own["line"]["seq"], 0);
    for reader in [&mut seated[1], &mut sam, &mut anonymous] {
        let line = next_line(reader).await;
        assert_eq!(
            (line["text"].as_str(), line["channel"].as_str()),
            (Some("good luck"), Some("players"))
        );
    }

    // A spectator's line reaches the spectators only while the match runs.
    let tip = "<img src=x onerror=alert(1)> Bob, attack cell 4!";
    let own = say(&mut sam, tip).await;
    assert_eq!(own["line"]["channel"], "spectators", "{own}");
    assert_eq!(next_line(&mut anonymous).await["text"], tip);
    say(&mut seated[0], "second").await;
    assert_eq!(
        next_line(&mut seated[1]).await["text"],
        "second",
        "players never read the spectators' chat during the match"
    );
    assert!(
        seated[0]
            .client
            .received
            .iter()
            .all(|m| m["line"]["text"] != tip)
    );
    assert_eq!(next_line(&mut sam).await["text"], "second");
    assert_eq!(next_line(&mut anonymous).await["text"], "second");

    // Refusals carry their codes and change nothing.
    for (text, code) in [
        ("   ", "chat_empty"),
        (&"x".repeat(301), "chat_too_long"),
        ("two\nlines", "chat_control_characters"),
        ("bell\u{7}", "chat_control_characters"),
    ] {
        let refused = say(&mut seated[1], text).await;
        assert_eq!(
            (refused["type"].as_str(), refused["code"].as_str()),
            (Some("error"), Some(code)),
            "{text:?}"
        );
        assert!(!refused["message"].as_str().unwrap().is_empty());
    }
    let refused = say(&mut anonymous, "hello").await;
    assert_eq!(
        refused["code"], "unauthorized",
        "anonymous spectators read only"
    );
    assert_eq!(
        say(&mut seated[1], &"é".repeat(300)).await["type"],
        "chat",
        "300 characters is the limit, not 300 bytes"
    );
    for n in 0..4 {
        assert_eq!(say(&mut sam, &format!("line {n}")).await["type"], "chat");
    }
    let refused = say(&mut sam, "one too many").await;
    assert_eq!(refused["code"], "chat_rate_limited");

    // Bob mutes Ada: her lines no longer reach him; muting oneself is refused.
    let mute =
        |player: &str, muted: bool| json!({"type": "mute", "player": player, "muted": muted});
    seated[1].client.send(&mute(&ada_id, true)).await;
    let muted = seated[1].until("muted", |m| m["type"] == "muted").await;
    assert_eq!(muted["players"], json!([ada_id]));
    seated[1].client.send(&mute(&bob_id, true)).await;
    let refused = seated[1].until("error", |m| m["type"] == "error").await;
    assert_eq!(refused["code"], "cannot_mute_self");
    say(&mut seated[0], "can you hear me").await;
    say(&mut seated[1], "bob here").await;
    // Bob's own line came after Ada's, and Ada's never reached him.
    assert!(
        seated[1]
            .client
            .received
            .iter()
            .all(|m| m["line"]["text"] != "can you hear me"),
        "a muted player's line is not delivered"
    );

    // A player joining anew gets the players' chat only; a spectator gets both.
    let mut bob_again = server.client(Some(&bob_token)).await;
    bob_again.join(&room, None).await;
    let history = bob_again.until_type("chat_history").await;
    let seen = texts(&history["lines"]);
    assert!(seen.contains(&"bob here".to_owned()), "{seen:?}");
    assert!(!seen.iter().any(|t| t == tip), "{seen:?}");
    assert!(
        !seen
            .iter()
            .any(|t| t == "good luck" || t == "can you hear me"),
        "Bob muted Ada: {seen:?}"
    );
    let mut watcher = Client::connect(server.addr).await;
    watcher.hello(None).await;
    watcher.join(&room, None).await;
    let history = watcher.until_type("chat_history").await;
    assert!(texts(&history["lines"]).contains(&tip.to_owned()));

    // The replay while the match runs: a player's has no spectators' line, a spectator's has.
    let replay_path = |match_id: &str| format!("/api/matches/{match_id}/replay");
    let (_, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
    let match_id = shown["match_id"].as_str().unwrap().to_owned();
    let (_, replay) = http.get(&replay_path(&match_id), Some(&ada_token)).await;
    assert!(!texts(&replay["chat"]).contains(&tip.to_owned()));
    let (_, replay) = http.get(&replay_path(&match_id), None).await;
    assert!(texts(&replay["chat"]).contains(&tip.to_owned()));

    // Play to the end, then say "gg".
    let over = play_at_random(&mut seated, &mut [], 5_000, 0xc4a7).await;
    assert!(over, "hexdice ends");
    let final_seq = seated[0].seq;
    let gg = say(&mut seated[1], "gg").await;
    assert_eq!(gg["line"]["seq"], final_seq, "said after the last action");

    // After the end, the chat is part of everyone's replay, each line at its seq.
    let (_, replay) = http.get(&replay_path(&match_id), Some(&ada_token)).await;
    let chat = texts(&replay["chat"]);
    assert_eq!(chat[0], "good luck");
    for wanted in [tip, "second", "can you hear me", "gg"] {
        assert!(chat.contains(&wanted.to_owned()), "{wanted}: {chat:?}");
    }
    let seqs: Vec<u64> = replay["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seq"].as_u64().unwrap())
        .collect();
    assert!(seqs.windows(2).all(|w| w[0] <= w[1]), "{seqs:?}");
    assert_eq!(seqs.last(), Some(&final_seq));
    // Bob still mutes Ada: his replay leaves her out.
    let (_, replay) = http.get(&replay_path(&match_id), Some(&bob_token)).await;
    assert!(
        replay["chat"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["from"]["id"] != ada_id.as_str())
    );
    assert!(texts(&replay["chat"]).contains(&tip.to_owned()));
    // Now the players read the spectators' chat live too.
    let (_, tia_token) = http.guest("Tia").await;
    let mut tia = {
        let mut client = server.client(Some(&tia_token)).await;
        client.join(&room, None).await;
        participant(client, None, Some(tia_token), &room)
    };
    let own = say(&mut tia, "well played both").await;
    assert_eq!(own["line"]["channel"], "spectators", "{own}");
    let line = seated[0]
        .until("the spectator's line", |m| {
            m["type"] == "chat" && m["line"]["text"] == "well played both"
        })
        .await;
    assert_eq!(line["line"]["channel"], "spectators");

    // Unmuting restores Ada's lines for Bob.
    seated[1].client.send(&mute(&ada_id, false)).await;
    let muted = seated[1].until("muted", |m| m["type"] == "muted").await;
    assert_eq!(muted["players"], json!([]));
    let (_, replay) = http.get(&replay_path(&match_id), Some(&bob_token)).await;
    assert!(texts(&replay["chat"]).contains(&"can you hear me".to_owned()));
    server.stop().await;
}
