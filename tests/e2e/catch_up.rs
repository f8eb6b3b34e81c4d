//! End to end, catching up after `join` with `last_seq`: however far behind (up to the whole
//! match), the joiner is brought to the current seq without overflowing its outgoing queue;
//! a few actions behind it gets them one by one; and clients looping join/close with
//! catch-ups do not slow the room's players.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::play::{Chooser, Participant, participant, seat_everyone};
use common::{Client, TestServer};

/// Plays `steps` random legal actions; returns how long each one took to be acknowledged.
async fn timed_steps(
    players: &mut [Participant],
    chooser: &mut Chooser,
    steps: usize,
) -> Vec<Duration> {
    let mut took = Vec::new();
    for _ in 0..steps {
        assert!(players[0].outcome.is_none(), "the match lasts the test");
        let to_act = players[0].to_act.expect("someone is to act");
        let actor = players
            .iter_mut()
            .find(|p| p.seat == Some(to_act))
            .expect("the seat to act is played");
        let action = actor.legal[chooser.below(actor.legal.len())].clone();
        let id = format!("a{}", actor.seq + 1);
        let started = Instant::now();
        let answer = actor.act(&id, &action).await;
        took.push(started.elapsed());
        assert_eq!(answer["type"], "ack", "{answer}");
        let seq = answer["seq"].as_u64().unwrap();
        for player in players.iter_mut() {
            player.reach(seq).await;
        }
    }
    took
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// A classic match of three random players, `steps` actions in.
async fn classic_match(server: &TestServer, steps: usize) -> (String, Vec<Participant>) {
    let (room, mut players, spectator) = seat_everyone(
        server.http(),
        server.addr,
        "classic",
        json!({"setup": "random"}),
        3,
    )
    .await;
    spectator.client.close().await;
    timed_steps(&mut players, &mut Chooser(0xc47c), steps).await;
    (room, players)
}

/// Joins `room` on a new socket with `last_seq` and reads until it has reached `seq`; returns
/// the participant and the match messages it got.
async fn rejoin(
    server: &TestServer,
    token: Option<&str>,
    room: &str,
    last_seq: u64,
    seq: u64,
) -> (Participant, Vec<Value>) {
    let mut client = Client::connect(server.addr).await;
    client.hello(token).await;
    let joined = client.join(room, Some(last_seq)).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let mut joiner = participant(client, None, token.map(str::to_owned), room);
    joiner.reach(seq).await;
    joiner.client.sync().await;
    let got = joiner
        .client
        .received
        .iter()
        .filter(|m| m["type"] == "applied" || m["type"] == "snapshot")
        .cloned()
        .collect();
    (joiner, got)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catch_up_500_behind_delivers_all() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let (room, mut players) = classic_match(&server, 520).await;
    let seq = players[0].seq;
    // The seat to act comes back 500 behind (the documented limit; the outgoing queue holds
    // 256): it reaches the current seq with what it may do, and plays on.
    let to_act = players[0].to_act.unwrap();
    let token = players[to_act as usize].token.clone().unwrap();
    let (mut back, got) = rejoin(&server, Some(&token), &room, seq - 500, seq).await;
    assert!(
        back.client.closed.is_none(),
        "not closed: {:?}",
        back.client.closed
    );
    let last = got.last().expect("a catch-up");
    assert_eq!(last["seq"], seq, "{last}");
    assert!(!back.legal.is_empty(), "it is told its legal actions");
    back.seat = Some(to_act);
    let action = back.legal[0].clone();
    let answer = back.act("back-1", &action).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let seq = answer["seq"].as_u64().unwrap();
    for player in &mut players {
        player.reach(seq).await;
    }
    // A spectator 500 behind, and every distance in between, reaches the end too.
    for behind in [500, 257, 256, 100, 21] {
        let (spectator, got) = rejoin(&server, None, &room, seq - behind, seq).await;
        assert!(spectator.client.closed.is_none());
        assert_eq!(got.last().unwrap()["seq"], seq, "{behind} behind");
    }
    // A few actions behind: each one, in order, the last with the seat's legal actions.
    let (_, got) = rejoin(&server, Some(&token), &room, seq - 5, seq).await;
    let seqs: Vec<u64> = got.iter().map(|m| m["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (seq - 4..=seq).collect::<Vec<_>>());
    assert!(got.iter().all(|m| m["type"] == "applied"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_flood_does_not_slow_players() {
    let server = TestServer::on_sqlite(|_| {}).await;
    let (room, mut players) = classic_match(&server, 520).await;
    let mut chooser = Chooser(0xf100d);
    let quiet = median(timed_steps(&mut players, &mut chooser, 30).await);
    // Eight clients loop: connect, join from some way behind, read the catch-up, close.
    let stop = Arc::new(AtomicBool::new(false));
    let joins = Arc::new(AtomicUsize::new(0));
    let seq = Arc::new(AtomicUsize::new(players[0].seq as usize));
    let mut loopers = Vec::new();
    for behind in [250u64, 240, 200, 150, 100, 40, 20, 3] {
        let (stop, joins, seq, room, addr) = (
            stop.clone(),
            joins.clone(),
            seq.clone(),
            room.clone(),
            server.addr,
        );
        loopers.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let mut client = Client::connect(addr).await;
                client.hello(None).await;
                let now = seq.load(Ordering::Relaxed) as u64;
                client.join(&room, Some(now - behind)).await;
                client
                    .until("the catch-up", |m| {
                        (m["type"] == "applied" || m["type"] == "snapshot")
                            && m["seq"].as_u64() >= Some(now)
                    })
                    .await;
                joins.fetch_add(1, Ordering::Relaxed);
                client.close().await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut flooded = Vec::new();
    for _ in 0..30 {
        flooded.extend(timed_steps(&mut players, &mut chooser, 1).await);
        seq.store(players[0].seq as usize, Ordering::Relaxed);
    }
    stop.store(true, Ordering::Relaxed);
    for looper in loopers {
        looper.await.unwrap();
    }
    let flooded = median(flooded);
    let joined = joins.load(Ordering::Relaxed);
    assert!(joined >= 30, "the loopers kept joining: {joined}");
    assert!(
        flooded <= quiet * 4 + Duration::from_millis(40),
        "median ack latency {flooded:?} while {joined} catch-up joins ran, {quiet:?} without"
    );
    server.stop().await;
}
