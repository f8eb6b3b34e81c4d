//! End to end, a PostgreSQL outage (through a TCP proxy the test pauses and cuts, never the
//! machine's database): `/readyz` says so while `/healthz` stays up, actions are answered
//! `unavailable` within a bounded time (never an `ack` without a commit), and play resumes when
//! the database is back, with nothing lost or doubled.

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::play::{Chooser, Participant, play, seat_everyone};
use common::proxy::{Mode, Proxy};
use common::{Http, TestDb, TestServer};
use warroom_server::config::Config;

/// The database's address in `url` (`postgres://user@host:port/db`).
fn database_addr(url: &str) -> SocketAddr {
    let rest = url.split_once("://").expect("a URL").1;
    let authority = rest.split('/').next().unwrap();
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if host.contains(':') {
        host.to_owned()
    } else {
        format!("{host}:5432")
    };
    host.replace("localhost", "127.0.0.1")
        .parse()
        .expect("host:port")
}

/// Waits until `/readyz` answers `status`; how long that took.
async fn readyz_becomes(http: Http, status: u16, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let (now, body) = http.get("/readyz", None).await;
        if now == status {
            if status == 503 {
                assert_eq!(body["code"], "unavailable", "{body}");
            }
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "/readyz is {now}, not {status}, after {limit:?}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The seat to act and a legal action of it.
fn next_move(players: &mut [Participant]) -> (usize, Value) {
    let to_act = players[0].to_act.expect("the match runs");
    let index = players
        .iter()
        .position(|p| p.seat == Some(to_act))
        .expect("the seat to act is played");
    let action = players[index].legal[0].clone();
    (index, action)
}

/// Sends an action during the outage: answered `unavailable` within `bound`, never acked.
async fn refused_in_time(player: &mut Participant, id: &str, action: &Value, bound: Duration) {
    let started = Instant::now();
    let answer = player.act(id, action).await;
    let took = started.elapsed();
    assert_eq!(answer["type"], "error", "no ack without a commit: {answer}");
    assert_eq!(answer["code"], "unavailable", "{answer}");
    assert!(took < bound, "answered after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_outage_answers_unavailable_then_play_resumes() {
    let Some(db) = TestDb::postgres().await else {
        println!("skipped: WARROOM_TEST_POSTGRES_URL is not set");
        return;
    };
    let proxy = Proxy::start(database_addr(&db.url)).await;
    let mut config = Config::for_tests(proxy.url(&db.url));
    config.limits.database_timeout = 1;
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let (room, mut players, mut spectator) =
        seat_everyone(http, server.addr, "hexdice", json!({}), 2).await;
    let mut chooser = Chooser(0x0d0d);
    play(&mut players, &mut [&mut spectator], 4, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    let (status, ready) = http.get("/readyz", None).await;
    assert_eq!(status, 200, "{ready}");
    // The bound: the database timeout (1 s) twice, and some slack for a slow machine.
    let bound = Duration::from_secs(5);

    for outage in [Mode::Pause, Mode::Cut] {
        let before = players[0].seq;
        proxy.set(outage);
        let (actor, action) = next_move(&mut players);
        refused_in_time(
            &mut players[actor],
            &format!("out-{outage:?}"),
            &action,
            bound,
        )
        .await;
        let noticed = readyz_becomes(http, 503, Duration::from_secs(10)).await;
        println!("{outage:?}: /readyz said so within {noticed:?}");
        let (status, _) = http.get("/healthz", None).await;
        assert_eq!(status, 200, "the process itself is up");
        // A second try during the outage is refused the same way.
        refused_in_time(
            &mut players[actor],
            &format!("out-{outage:?}"),
            &action,
            bound,
        )
        .await;

        proxy.set(Mode::Forward);
        let back = readyz_becomes(http, 200, Duration::from_secs(20)).await;
        println!("{outage:?}: ready again {back:?} after the database came back");
        // The same action, same id, once more: stored and acknowledged exactly once.
        let answer = players[actor]
            .act(&format!("out-{outage:?}"), &action)
            .await;
        assert_eq!(answer["type"], "ack", "{answer}");
        assert_eq!(answer["seq"], before + 1, "applied once: {answer}");
        for player in players.iter_mut() {
            player.reach(before + 1).await;
        }
        spectator.reach(before + 1).await;
        play(&mut players, &mut [&mut spectator], 3, &mut |legal| {
            chooser.below(legal.len())
        })
        .await;
    }

    // What was acknowledged is what is stored: the replay holds every action, each once.
    let last = players[0].seq;
    let (_, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
    let match_id = shown["match_id"].as_str().unwrap();
    let (status, replay) = http
        .get(&format!("/api/matches/{match_id}/replay"), None)
        .await;
    assert_eq!(status, 200);
    let seqs: Vec<u64> = replay["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=last).collect::<Vec<_>>());
    server.stop().await;
    db.cleanup().await;
}
