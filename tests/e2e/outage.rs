//! End to end, a PostgreSQL outage (through a TCP proxy the test pauses and cuts, never the
//! machine's database): `/readyz` says so while `/healthz` stays up, actions are answered
//! `unavailable` within a bounded time (never an `ack` without a commit), and play resumes when
//! the database is back, with nothing lost or doubled. And the worst moment for the network to
//! break: an append whose statement (or `COMMIT`) reached the database but whose reply was lost,
//! or whose statement was lost on the way, is settled by the writer before anyone is answered:
//! acknowledged once, stored once, and the room plays on. A room that gave an action up while
//! the database was out of reach, and whose log then took it from a delayed statement, is loaded
//! again from the log when its memory and log disagree. During an outage what needs no new
//! write is answered at once: `/readyz` and `/metrics` from what the database watch last saw, a
//! known token's `hello` and its join of a running room, the lobby from the rooms in memory.

use crate::common;
use crate::play::verify;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::play::{Chooser, Participant, hexdice_duel, play, play_at_random};
use common::proxy::{Mode, Proxy};
use common::{Client, Http, TestDb, TestServer};
use warroom_server::config::Config;

/// The address of `db`'s PostgreSQL server.
fn database_addr(db: &TestDb) -> SocketAddr {
    let options = db.postgres_options().expect("a PostgreSQL database");
    let ip = match options.get_host() {
        "localhost" => IpAddr::from(Ipv4Addr::LOCALHOST),
        host => host.parse().expect("the database server's IP address"),
    };
    SocketAddr::new(ip, options.get_port())
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
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn database_outage_answers_unavailable_then_play_resumes() {
    let db = common::db::postgres().await;
    let proxy = Proxy::start(database_addr(&db)).await;
    let mut config = Config::for_tests(proxy.url(&db));
    config.limits.database_timeout = Duration::from_secs(1);
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let (room, mut players, mut spectator) = hexdice_duel(http, server.addr).await;
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
    let (_, seqs) = stored_seqs(http, &room).await;
    assert_eq!(seqs, (1..=last).collect::<Vec<_>>());
    server.stop().await;
    db.cleanup().await;
}

/// `what`, or a failure if it takes longer than a settle can (it is bounded by three database
/// timeouts of 1 s): a writer that does not settle leaves the room waiting for good.
async fn within<T>(what: impl std::future::Future<Output = T>, name: &str) -> T {
    tokio::time::timeout(Duration::from_secs(15), what)
        .await
        .unwrap_or_else(|_| panic!("{name} did not come within 15 s"))
}

/// A room over a proxy to a fresh PostgreSQL database, its two players past the first moves.
async fn room_over_a_proxy(
    db: &TestDb,
) -> (Proxy, TestServer, String, Vec<Participant>, Participant) {
    let proxy = Proxy::start(database_addr(db)).await;
    let mut config = Config::for_tests(proxy.url(db));
    config.limits.database_timeout = Duration::from_secs(1);
    let server = TestServer::start_with(config).await;
    let (room, mut players, mut spectator) = hexdice_duel(server.http(), server.addr).await;
    play_at_random(&mut players, &mut [&mut spectator], 4, 0x5e77).await;
    (proxy, server, room, players, spectator)
}

/// The seqs of the room's match as its replay holds them.
async fn stored_seqs(http: Http, room: &str) -> (Value, Vec<u64>) {
    let (status, replay) = http.room_replay(room, None).await;
    assert_eq!(status, 200, "{replay}");
    let seqs = replay["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["seq"].as_u64().unwrap())
        .collect();
    (replay, seqs)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn an_append_whose_reply_or_statement_was_lost_is_settled_and_acknowledged_once() {
    let db = common::db::postgres().await;
    let (proxy, server, room, mut players, mut spectator) = room_over_a_proxy(&db).await;
    let http = server.http();
    let mut chooser = Chooser(0x5e78);
    // An append of a running match is one statement in autocommit; its bytes are known by the
    // action's id, which travels in its rows (the statement's text is sent once per connection).
    for lose_reply in [true, false] {
        let before = players[0].seq;
        let id = format!("lost-{before}");
        let marker: &'static [u8] = Box::leak(format!("\"{id}\"").into_bytes().into());
        let lost = if lose_reply {
            Mode::LoseReplyTo(marker)
        } else {
            Mode::LoseRequest(marker)
        };
        let settles = http.metric("warroom_append_settles_total").await;
        proxy.set(lost);
        let (actor, action) = next_move(&mut players);
        let started = Instant::now();
        let answer = within(players[actor].act(&id, &action), "the action's answer").await;
        assert_eq!(
            answer["type"], "ack",
            "{lost:?}: settled, so acknowledged: {answer}"
        );
        assert_eq!(answer["seq"], before + 1, "{answer}");
        println!("{lost:?}: acknowledged after {:?}", started.elapsed());
        assert_eq!(
            proxy.mode(),
            Mode::Forward,
            "{lost:?}: the exchange was lost"
        );
        // At least this batch's settle (the other lanes' connections were cut too, and an
        // append sent on a cut connection is settled as well).
        let settled = http.metric("warroom_append_settles_total").await - settles;
        assert!(settled >= 1.0, "{lost:?}: the writer settled the batch");
        for player in players.iter_mut() {
            player.reach(before + 1).await;
        }
        // The room was not left behind its log: the next actions are stored after it.
        let mut choose = |legal: &[Value]| chooser.below(legal.len());
        let mut watchers = [&mut spectator];
        let next = play(&mut players, &mut watchers, 3, &mut choose);
        within(next, "the next three actions").await;
        assert_eq!(players[0].seq, before + 4);
    }
    let (_, seqs) = stored_seqs(http, &room).await;
    assert_eq!(seqs, (1..=players[0].seq).collect::<Vec<_>>(), "each once");
    server.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn a_resignation_whose_commit_reply_was_lost_ends_the_match_once() {
    let db = common::db::postgres().await;
    let (proxy, server, room, mut players, _spectator) = room_over_a_proxy(&db).await;
    let http = server.http();
    let before = players[0].seq;
    // An append that ends its match is a transaction (the match's row changes with it): the
    // database commits it, and its answer to `COMMIT` is lost.
    proxy.set(Mode::LoseReplyTo(b"COMMIT"));
    players[0]
        .client
        .send(&json!({"type": "resign", "room": room}))
        .await;
    let finished = within(players[1].finished(), "the end of the match").await;
    assert_eq!(proxy.mode(), Mode::Forward, "the reply to COMMIT was lost");
    assert_eq!(players[1].seq, before + 1, "{finished}");
    assert_eq!(
        players[1].outcome.as_ref().unwrap()["reason"],
        "opponent_resigned"
    );
    assert!(http.metric("warroom_append_settles_total").await >= 1.0);
    let (replay, seqs) = stored_seqs(http, &room).await;
    assert_eq!(seqs, (1..=before + 1).collect::<Vec<_>>(), "stored once");
    assert_eq!(replay["outcome"]["reason"], "opponent_resigned", "{replay}");
    assert!(replay["seed"].is_string(), "the seed is revealed: it ended");
    let (ok, output) = verify(&replay);
    assert!(ok, "verify accepts the record: {output}");
    server.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn a_room_whose_log_holds_an_action_it_gave_up_on_is_loaded_again_from_the_log() {
    let db = common::db::postgres().await;
    let (proxy, server, room, mut players, _spectator) = room_over_a_proxy(&db).await;
    let http = server.http();
    let before = players[0].seq;
    // The action's statement is held on the network: the writer times out, cannot settle (the
    // database is out of reach), and the room gives the action up.
    proxy.set(Mode::Pause);
    let (actor, action) = next_move(&mut players);
    let answer = within(players[actor].act("given-up", &action), "the refusal").await;
    assert_eq!(answer["code"], "unavailable", "{answer}");
    within(
        async {
            while http.metric("warroom_append_failures_total").await < 1.0 {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        },
        "the room giving the action up",
    )
    .await;
    // The network comes back and delivers the held statement: the log holds the action.
    proxy.set(Mode::Forward);
    within(
        async {
            while stored_seqs(http, &room).await.1.len() as u64 <= before {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        },
        "the delayed statement",
    )
    .await;
    // The room, behind its log, takes another action for that seq: the log refuses it, and
    // the room stops and tells its followers to join again.
    let room_id = room.clone();
    players[actor]
        .client
        .send(&json!({"type": "action", "room": room_id, "id": "another", "action": action}))
        .await;
    let client = &mut players[actor].client;
    let told = within(
        async {
            while let Some(message) = client.next().await {
                assert_ne!(message["type"], "ack", "the log refuses it: {message}");
                if message["code"] == "room_moved" {
                    return true;
                }
            }
            false
        },
        "room_moved",
    )
    .await;
    // Told so, or its socket closed with it.
    assert!(told || client.closed.as_deref() == Some("room_moved"));
    // Joined again, the room is loaded from its log, the delayed action in it.
    let mut client = Client::connect(server.addr).await;
    client.hello(players[actor].token.as_deref()).await;
    let joined = client.join(&room, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let snapshot = within(client.until_type("snapshot"), "the snapshot").await;
    assert_eq!(
        snapshot["seq"],
        before + 1,
        "the log's action is the room's"
    );
    let (_, seqs) = stored_seqs(http, &room).await;
    assert_eq!(seqs, (1..=before + 1).collect::<Vec<_>>());
    server.stop().await;
    db.cleanup().await;
}

/// `request` and how long its answer took.
async fn timed<T>(request: impl std::future::Future<Output = T>) -> (T, Duration) {
    let started = Instant::now();
    let answer = request.await;
    (answer, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn a_database_outage_leaves_known_players_the_running_rooms_the_lobby_and_readyz() {
    let db = common::db::postgres().await;
    let proxy = Proxy::start(database_addr(&db)).await;
    // The default database timeout (5 s): what used to hold every answer below that long.
    let server = TestServer::start_with(Config::for_tests(proxy.url(&db))).await;
    let http = server.http();
    let (room, mut players, mut spectator) = hexdice_duel(http, server.addr).await;
    play_at_random(&mut players, &mut [&mut spectator], 3, 0xd0e5).await;
    let seq = players[0].seq;
    let token = players[0].token.clone().unwrap();

    proxy.set(Mode::Pause);
    let noticed = readyz_becomes(http, 503, Duration::from_secs(15)).await;
    println!("/readyz said the database was out of reach within {noticed:?}");
    // Everything below needs no new write, so it is answered at once.
    let quick = Duration::from_millis(1500);
    let ((status, body), took) = timed(http.get("/readyz", None)).await;
    assert_eq!(status, 503, "{body}");
    println!("during the outage: /readyz answered in {took:?}");
    assert!(took < quick, "/readyz answered in {took:?}");
    let (up, took) = timed(http.metric("warroom_database_up")).await;
    assert_eq!(up, 0.0);
    println!("during the outage: /metrics answered in {took:?}");
    assert!(took < quick, "/metrics answered in {took:?}");
    // A player whose socket dropped comes back with their token and follows their match.
    let mut back = Client::connect(server.addr).await;
    let (welcome, took) = timed(back.hello(Some(&token))).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    println!("during the outage: hello with a known token answered in {took:?}");
    assert!(took < quick, "hello answered in {took:?}");
    let (joined, took) = timed(back.join(&room, Some(seq))).await;
    assert_eq!(joined["type"], "room", "{joined}");
    println!("during the outage: the join of the running room answered in {took:?}");
    assert!(took < quick, "join answered in {took:?}");
    // The lobby still lists the running room, from memory.
    let ((status, page), took) = timed(http.get("/api/rooms", None)).await;
    assert_eq!(status, 200, "{page}");
    println!("during the outage: the lobby answered in {took:?}");
    assert!(took < quick, "the lobby answered in {took:?}");
    assert!(
        page["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == room.as_str()),
        "{page}"
    );
    // The room itself, from its task.
    let ((status, shown), took) = timed(http.get(&format!("/api/rooms/{room}"), None)).await;
    assert_eq!((status, shown["state"].as_str()), (200, Some("playing")));
    assert!(took < quick, "the room answered in {took:?}");

    proxy.set(Mode::Forward);
    readyz_becomes(http, 200, Duration::from_secs(20)).await;
    assert_eq!(http.metric("warroom_database_up").await, 1.0);
    back.close().await;
    server.stop().await;
    db.cleanup().await;
}
