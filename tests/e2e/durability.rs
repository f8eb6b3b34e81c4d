//! End to end: a client that drops and reconnects gets exactly what it missed; a server killed
//! with SIGKILL mid-match loses no acknowledged action, and the match goes on to its end.

use crate::common;
use crate::play::verify;

use serde_json::Value;

use common::play::{Chooser, hexdice_duel, participant, play, rejoin};
use common::{Client, Http, ServerProcess, TestDb, TestServer};

on_both_databases! {
    a_reconnecting_client_gets_exactly_what_it_missed;
    sigkill_mid_match_loses_no_acknowledged_action;
}

async fn a_reconnecting_client_gets_exactly_what_it_missed(db: TestDb) {
    let server = TestServer::start(&db).await;
    let (room, mut players, mut spectator) = hexdice_duel(server.http(), server.addr).await;
    let mut chooser = Chooser(42);
    play(&mut players, &mut [&mut spectator], 4, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    let acting = players[0].to_act.unwrap() as usize;
    let away = 1 - acting;
    let away_token = players[away].token.clone().unwrap();
    let last_seen = players[away].seq;

    // The waiting seat drops; the other plays until it is the dropped seat's turn again.
    let dropped = players.remove(away);
    dropped.client.close().await;
    let mut missed = 0;
    while players[0].to_act == Some(acting as u64) && players[0].outcome.is_none() {
        play(&mut players, &mut [&mut spectator], 1, &mut |legal| {
            chooser.below(legal.len())
        })
        .await;
        missed += 1;
    }
    assert!(missed > 0);
    let now = players[0].seq;

    let mut client = Client::connect(server.addr).await;
    client.hello(Some(&away_token)).await;
    let joined = client.join(&room, Some(last_seen)).await;
    assert_eq!(joined["type"], "room");
    let mut back = participant(client, Some(away as u64), Some(away_token), &room);
    back.reach(now).await;
    assert_eq!(
        back.applied_seqs,
        ((last_seen + 1)..=now).collect::<Vec<_>>(),
        "exactly the missed actions, in order"
    );
    let seen_by_spectator: Vec<&Value> = spectator
        .client
        .received
        .iter()
        .filter(|m| m["type"] == "applied" && m["seq"].as_u64().unwrap() > last_seen)
        .collect();
    let seen_again: Vec<&Value> = back
        .client
        .received
        .iter()
        .filter(|m| m["type"] == "applied")
        .collect();
    for (live, replayed) in seen_by_spectator.iter().zip(&seen_again) {
        assert_eq!(
            live["events"], replayed["events"],
            "the same events as live"
        );
        assert_eq!(
            live["view"], replayed["view"],
            "the same view after each action"
        );
    }
    assert!(
        back.client.received.iter().all(|m| m["type"] != "snapshot"),
        "no snapshot when the missed actions are sent"
    );
    assert_eq!(
        back.to_act,
        Some(away as u64),
        "the returning seat is to act"
    );
    assert!(!back.legal.is_empty(), "and it is told its legal actions");
    // Presence: it is connected again.
    let (_, shown) = server.http().get(&format!("/api/rooms/{room}"), None).await;
    assert_eq!(shown["seats"][away]["connected"], true, "{shown}");

    // The game goes on to its end with the returning player.
    players.insert(away, back);
    let over = play(&mut players, &mut [&mut spectator], 5_000, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    assert!(over);
    server.stop().await;
}

async fn sigkill_mid_match_loses_no_acknowledged_action(db: TestDb) {
    let first = ServerProcess::start(&db.url, []);
    let http = Http { addr: first.addr };
    let (room, mut players, mut spectator) = hexdice_duel(http, first.addr).await;
    let mut chooser = Chooser(1234);
    play(&mut players, &mut [&mut spectator], 12, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    let acknowledged = players[0].seq;
    assert!(acknowledged > 0);
    let last_action = players
        .iter()
        .flat_map(|p| p.client.received.iter())
        .filter(|m| m["type"] == "applied" && m["seq"].as_u64() == Some(acknowledged))
        .map(|m| (m["seat"].as_u64().unwrap(), m["action"].clone()))
        .next()
        .unwrap();
    let tokens: Vec<String> = players.iter().map(|p| p.token.clone().unwrap()).collect();
    drop(players);
    drop(spectator);
    first.sigkill();

    let second = ServerProcess::start(&db.url, []);
    let mut players = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        players.push(rejoin(second.addr, token, Some(seat as u64), &room).await);
    }
    for player in &players {
        assert_eq!(
            player.seq, acknowledged,
            "every acknowledged action survived"
        );
    }
    // The last acknowledged action, resent with its id after the restart, is not applied again.
    let (seat, action) = last_action;
    let resent = players[seat as usize]
        .act(&format!("a{acknowledged}"), &action)
        .await;
    assert_eq!(resent["type"], "ack", "{resent}");
    assert_eq!(resent["seq"].as_u64(), Some(acknowledged));

    let over = play(&mut players, &mut [], 5_000, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    assert!(over, "the match continues to its end");
    let http = Http { addr: second.addr };
    let (status, replay) = http.room_replay(&room, None).await;
    assert_eq!(status, 200);
    assert_eq!(
        replay["actions"].as_array().unwrap().len() as u64,
        players[0].seq
    );
    let (verified, output) = verify(&replay);
    assert!(verified, "{output}");
    second.sigkill();
}
