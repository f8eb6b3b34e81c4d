//! End to end, cluster mode (docs/SCALING.md): real `warroom` processes on loopback over one
//! real PostgreSQL and a real NATS server. Matches of mixed rulesets are played by WebSocket
//! clients connected to random nodes, watched by spectators on other nodes; one node is killed
//! with SIGKILL mid-play, and every match still finishes with every acknowledged action in its
//! log, no seq skipped or repeated, and `verify` passing. A node frozen with SIGSTOP past its
//! lease cannot append to a room that moved (its clients get `room_moved` and go on with the
//! new owner).
//!
//! These tests run when `WARROOM_TEST_POSTGRES_URL` and `WARROOM_TEST_NATS_URL` are both set
//! (they are reported as ignored otherwise), and then fail, never skip, when either server does
//! not answer.

use crate::common;
use crate::play::verify;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::Connection;
use sqlx::postgres::PgConnection;

use common::play::{Chooser, Participant, participant};
use common::{Client, Http, TestDb};

/// The NATS server the nodes use: `WARROOM_TEST_NATS_URL`; the test fails when it is unset or
/// the server does not answer.
pub async fn nats_url() -> String {
    let url = std::env::var("WARROOM_TEST_NATS_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .expect("WARROOM_TEST_NATS_URL names the NATS server this test needs");
    let authority = url
        .split_once("://")
        .map_or(url.as_str(), |(_, rest)| rest)
        .trim_end_matches('/')
        .to_owned();
    let answers = tokio::time::timeout(
        Duration::from_secs(3),
        tokio::net::TcpStream::connect(authority.replace("localhost", "127.0.0.1")),
    )
    .await;
    assert!(
        matches!(answers, Ok(Ok(_))),
        "NATS does not answer at WARROOM_TEST_NATS_URL={url} (start `nats-server -a 127.0.0.1 -p 4222`)"
    );
    url
}

/// What a cluster test stands on: the NATS server ([`nats_url`]), a fresh PostgreSQL database,
/// and a prefix that makes its node ids its own.
pub async fn cluster_setup() -> (String, TestDb, String) {
    let nats = nats_url().await;
    let db = common::db::postgres().await;
    let prefix = uuid::Uuid::new_v4().simple().to_string()[..6].to_owned();
    (nats, db, prefix)
}

/// A `warroom` node as a child process.
pub struct Node {
    pub id: String,
    child: Child,
    pub addr: SocketAddr,
}

impl Node {
    pub fn start(db: &TestDb, nats: &str, id: &str, lease_seconds: u64) -> Node {
        Node::start_with(db, nats, id, lease_seconds, &[])
    }

    /// `N` nodes named `{name}a`, `{name}b`, … with these flags ([`Node::start_with`]), once
    /// they are all up ([`cluster_up`]).
    pub async fn cluster<const N: usize>(
        db: &TestDb,
        nats: &str,
        name: &str,
        lease_seconds: u64,
        flags: &[(&str, &str)],
    ) -> [Node; N] {
        let nodes = std::array::from_fn(|i| {
            let letter = char::from(b'a' + u8::try_from(i).expect("a few nodes"));
            Node::start_with(db, nats, &format!("{name}{letter}"), lease_seconds, flags)
        });
        cluster_up(db, &nodes).await;
        nodes
    }

    /// [`Node::start`], then waits until it is up ([`cluster_up`]): started while no other
    /// node is, it serves the rooms opened next.
    pub async fn up(db: &TestDb, nats: &str, id: &str, lease_seconds: u64) -> Node {
        let node = Node::start(db, nats, id, lease_seconds);
        cluster_up(db, std::slice::from_ref(&node)).await;
        node
    }

    /// [`Node::start`] with some flags set otherwise (`("--flag", "value")`): the per-address
    /// and per-socket limits are high unless given here.
    pub fn start_with(
        db: &TestDb,
        nats: &str,
        id: &str,
        lease_seconds: u64,
        flags: &[(&str, &str)],
    ) -> Node {
        let mut settings: Vec<(&str, &str)> = vec![
            ("--messages-per-second", "100000"),
            ("--message-burst", "100000"),
            ("--rooms-per-ip-per-minute", "100000"),
            ("--guests-per-ip-per-minute", "100000"),
            ("--max-sockets-per-ip", "100000"),
        ];
        for (flag, value) in flags {
            settings.retain(|(known, _)| known != flag);
            settings.push((flag, value));
        }
        let lease_seconds = lease_seconds.to_string();
        let (child, addr) = common::start_warroom(
            [
                "--database-url",
                &db.url,
                "--nats-url",
                nats,
                "--node-id",
                id,
            ]
            .into_iter()
            .chain(["--lease", &lease_seconds])
            .chain(settings.iter().flat_map(|(flag, value)| [*flag, *value])),
        );
        Node {
            id: id.to_owned(),
            child,
            addr,
        }
    }

    /// REST calls to this node.
    pub fn http(&self) -> Http {
        Http { addr: self.addr }
    }

    pub fn signal(&self, signal: &str) {
        let done = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(done.success());
    }

    pub fn sigkill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reap");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The room of the tests of hidden cards across nodes: classic, three seats, cards dealt at
/// random, seat 2 an easy bot that plays at once.
pub(crate) fn cards_and_a_bot() -> Value {
    json!({"ruleset": "classic", "options": {"setup": "random"}, "seats": 3,
           "bots": [{"seat": 2, "level": "easy"}], "bot_delay_ms": 0})
}

/// Waits until every node answers `/healthz` and has said it is alive in the database.
pub async fn cluster_up(db: &TestDb, nodes: &[Node]) {
    for node in nodes {
        let http = node.http();
        for _ in 0..200 {
            if http.try_get("/healthz").await.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    for _ in 0..100 {
        let alive: i64 = sqlx::query_scalar("SELECT count(*) FROM cluster_nodes")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        if alive as usize >= nodes.len() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the nodes did not all register");
}

/// The node holding each room's live lease.
pub async fn owners(db: &TestDb) -> HashMap<String, String> {
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT room_id::text, owner FROM room_leases WHERE expires_at > clock_timestamp()",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    rows.into_iter().collect()
}

/// One player or spectator, reconnecting to a live node whenever its socket closes or the room
/// moves.
struct Seat {
    p: Participant,
    /// Which node it is connected to.
    node: usize,
}

/// A match played across the cluster.
struct Game {
    room: String,
    ruleset: &'static str,
    players: Vec<Seat>,
    spectator: Seat,
    chooser: Chooser,
    /// Every acknowledged action: seq → (seat, action).
    acked: HashMap<u64, (u64, Value)>,
    /// Longest time between two acknowledgements (the stall of a moved room).
    longest_gap: Duration,
    last_ack: Instant,
    /// The node serving the room before the kill, to time acks from it and from other nodes.
    owner: Option<usize>,
    /// Ack times of actions sent through the serving node, and through another node.
    local_acks: Vec<Duration>,
    remote_acks: Vec<Duration>,
}

/// The live nodes' addresses, by index (None: killed).
type Live = Vec<Option<SocketAddr>>;

fn pick_node(live: &Live, avoid: Option<usize>, n: u64) -> usize {
    let alive: Vec<usize> = (0..live.len())
        .filter(|i| live[*i].is_some() && Some(*i) != avoid)
        .collect();
    let alive = if alive.is_empty() {
        (0..live.len()).filter(|i| live[*i].is_some()).collect()
    } else {
        alive
    };
    alive[(n as usize) % alive.len()]
}

/// Connects `token` to node `node` and joins `room` from `last_seq`; `None` when the socket
/// closed or the join was refused (the caller tries again).
async fn connect(
    addr: SocketAddr,
    token: Option<&str>,
    room: &str,
    last_seq: Option<u64>,
) -> Option<Client> {
    let attempt = async {
        let mut client = Client::connect(addr).await;
        client.send(&json!({"type": "hello", "token": token})).await;
        loop {
            let message = client.next().await?;
            if message["type"] == "welcome" {
                break;
            }
        }
        client
            .send(&json!({"type": "join", "room": room, "last_seq": last_seq}))
            .await;
        loop {
            let message = client.next().await?;
            if message["type"] == "room" {
                return Some(client);
            }
            if message["type"] == "error" {
                return None;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(15), attempt)
        .await
        .ok()
        .flatten()
}

impl Seat {
    /// Reconnects (to a live node, another one than before when it can) until joined again
    /// with its last seq; a snapshot or the missed actions follow.
    async fn reconnect(&mut self, live: &Live, salt: u64) {
        for attempt in 0..200u64 {
            let node = pick_node(live, Some(self.node), salt + attempt);
            let addr = live[node].unwrap();
            if let Some(client) = connect(
                addr,
                self.p.token.as_deref(),
                &self.p.room,
                Some(self.p.seq),
            )
            .await
            {
                self.p.client = client;
                self.node = node;
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("could not reconnect to room {}", self.p.room);
    }

    /// Reads until it has seen `seq`, reconnecting when needed.
    async fn reach(&mut self, seq: u64, live: &Live, salt: u64) {
        while self.p.seq < seq && self.p.outcome.is_none() {
            let next = tokio::time::timeout(Duration::from_secs(15), self.p.client.next()).await;
            match next {
                Ok(Some(message)) => {
                    self.p.absorb(&message);
                    if message["type"] == "error" && message["code"] == "room_moved" {
                        self.reconnect(live, salt).await;
                    }
                }
                _ => self.reconnect(live, salt).await,
            }
        }
    }

    /// Sends an action and waits for its ack, reconnecting and resending with the same id
    /// (answered from the log if it was stored) until acknowledged. The ack's seq.
    async fn act(
        &mut self,
        id: &str,
        action: &Value,
        live: &Live,
        salt: u64,
    ) -> Result<u64, Value> {
        let room = self.p.room.clone();
        loop {
            let sent = self
                .p
                .client
                .try_send(&json!({"type": "action", "room": room, "id": id, "action": action}))
                .await;
            let answer = if sent {
                let wait = async {
                    loop {
                        let message = self.p.client.next().await?;
                        self.p.absorb(&message);
                        if (message["type"] == "ack" || message["type"] == "error")
                            && message["id"] == json!(id)
                        {
                            return Some(message);
                        }
                        if message["type"] == "error" && message["code"] == "room_moved" {
                            return None;
                        }
                    }
                };
                tokio::time::timeout(Duration::from_secs(15), wait)
                    .await
                    .ok()
                    .flatten()
            } else {
                None
            };
            match answer {
                Some(ack) if ack["type"] == "ack" => return Ok(ack["seq"].as_u64().unwrap()),
                Some(error) if error["code"] != "room_moved" && error["code"] != "unavailable" => {
                    return Err(error);
                }
                _ => self.reconnect(live, salt).await,
            }
        }
    }
}

impl Game {
    /// Opens a room of `ruleset` with `people` seats played by clients and `bots` by the
    /// server's bots (no delay), on a random node, each client on a random node.
    async fn open(nodes: &Live, n: u64, ruleset: &'static str, people: u64, bots: u64) -> Game {
        let creator_node = pick_node(nodes, None, n);
        let http = Http {
            addr: nodes[creator_node].unwrap(),
        };
        let mut tokens = Vec::new();
        for seat in 0..people {
            tokens.push(http.guest(&format!("c{n} p{seat}")).await.1);
        }
        let bot_seats: Vec<Value> = (people..people + bots)
            .map(|seat| json!({"seat": seat, "level": "easy"}))
            .collect();
        let room = http
            .room_id(
                &tokens[0],
                &json!({"ruleset": ruleset, "seats": people + bots, "bots": bot_seats,
                        "bot_delay_ms": 0}),
            )
            .await;
        let mut players = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            // Each seat on a node of its own choosing: with the room on its creator's node,
            // some seats play through the node serving their room and some through another.
            let node = pick_node(nodes, None, 7 * n + 5 * seat as u64 + 3);
            let mut client = connect(nodes[node].unwrap(), Some(token), &room, None)
                .await
                .expect("join");
            client
                .send(&json!({"type": "take_seat", "room": room, "seat": seat}))
                .await;
            players.push(Seat {
                p: participant(client, Some(seat as u64), Some(token.clone()), &room),
                node,
            });
        }
        // The spectator watches from another node than the first player.
        let node = pick_node(nodes, Some(players[0].node), n + 7);
        let client = connect(nodes[node].unwrap(), None, &room, None)
            .await
            .expect("spectator joins");
        let spectator = Seat {
            p: participant(client, None, None, &room),
            node,
        };
        let mut game = Game {
            room,
            ruleset,
            players,
            spectator,
            chooser: Chooser(1000 + n),
            acked: HashMap::new(),
            longest_gap: Duration::ZERO,
            last_ack: Instant::now(),
            owner: None,
            local_acks: Vec::new(),
            remote_acks: Vec::new(),
        };
        for seat in &mut game.players {
            seat.p.until("snapshot", |m| m["type"] == "snapshot").await;
        }
        game.spectator
            .p
            .until("snapshot", |m| m["type"] == "snapshot")
            .await;
        game
    }

    fn over(&self) -> bool {
        self.players.iter().any(|p| p.p.outcome.is_some())
    }

    /// Plays one action of the seat to act (as its freshest player sees it), and brings the
    /// others and the spectator up to it.
    async fn step(&mut self, live: &Live, salt: u64) {
        let freshest = self
            .players
            .iter()
            .max_by_key(|p| p.p.seq)
            .map(|p| p.p.seq)
            .unwrap();
        for seat in &mut self.players {
            seat.reach(freshest, live, salt).await;
        }
        if self.over() {
            return;
        }
        let to_act = self.players[0].p.to_act.expect("someone is to act");
        // Classic between a random player and bots can last for ever: after some actions the
        // player resigns (G-RESIGN-1) and a bot plays the seat to the end. Said again on each
        // of its turns, in case a reconnect lost it (`already_resigned` then).
        let resigned = self.ruleset == "classic" && self.acked.len() >= RESIGN_AFTER;
        if resigned && self.players[0].p.seat == Some(to_act) {
            let room = self.room.clone();
            self.players[0]
                .p
                .client
                .try_send(&json!({"type": "resign", "room": room}))
                .await;
        }
        let actor = self
            .players
            .iter_mut()
            .find(|p| p.p.seat == Some(to_act))
            .filter(|_| !resigned);
        let Some(actor) = actor else {
            // A bot's turn: the server plays it.
            let next = self.players[0].p.seq + 1;
            self.players[0].reach(next, live, salt).await;
            let seen = self.players[0].p.seq;
            self.spectator.reach(seen, live, salt).await;
            return;
        };
        let pick = self.chooser.below(actor.p.legal.len());
        let action = actor.p.legal[pick].clone();
        let seq_before = actor.p.seq;
        let id = format!("s{to_act}-{}", seq_before + 1);
        let through = actor.node;
        let sent_at = Instant::now();
        match actor.act(&id, &action, live, salt).await {
            Ok(seq) => {
                let took = sent_at.elapsed();
                match self.owner {
                    Some(owner) if owner == through => self.local_acks.push(took),
                    Some(_) => self.remote_acks.push(took),
                    None => {}
                }
                assert_eq!(seq, seq_before + 1, "{}: acks are in order", self.room);
                let previous = self.acked.insert(seq, (to_act, action));
                assert!(
                    previous.is_none(),
                    "{}: seq {seq} acknowledged twice",
                    self.room
                );
                let now = Instant::now();
                self.longest_gap = self.longest_gap.max(now - self.last_ack);
                self.last_ack = now;
                for seat in &mut self.players {
                    seat.reach(seq, live, salt).await;
                }
                self.spectator.reach(seq, live, salt).await;
            }
            Err(error) => {
                eprintln!(
                    "{} ({}): seq {} seat {to_act}: refused {error}",
                    self.room, self.ruleset, seq_before
                );
                // A state that moved on under the actor (it was told a stale legal list while
                // its room moved): it reads on and acts again.
                assert!(
                    error["code"] != "internal",
                    "{}: an action was refused with {error}",
                    self.room
                );
            }
        }
    }
}

/// Checks a finished match: each acknowledged action is in the replay at its seq, seqs run
/// from 1 without a gap, and `warroom verify` recomputes it.
async fn check_finished(http: &Http, game: &mut Game) {
    let (_, shown) = http.get(&format!("/api/rooms/{}", game.room), None).await;
    assert_eq!(shown["state"], "finished", "{shown}");
    let match_id = shown["match_id"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("the room names its match: {shown}"));
    let (status, replay) = http.replay(&match_id, None).await;
    assert_eq!(status, 200, "{replay}");
    let actions = replay["actions"].as_array().unwrap();
    for (i, action) in actions.iter().enumerate() {
        assert_eq!(action["seq"].as_u64(), Some(i as u64 + 1), "no seq skipped");
    }
    for (seq, (seat, action)) in &game.acked {
        let stored = &actions[(*seq - 1) as usize];
        assert_eq!(
            stored["seat"].as_u64(),
            Some(*seat),
            "{}: seq {seq}",
            game.room
        );
        assert_eq!(&stored["action"], action, "{}: seq {seq}", game.room);
    }
    let (verified, output) = verify(&replay);
    assert!(verified, "{} ({}): {output}", game.room, game.ruleset);
    // The spectator saw every seq once, in order (a catch-up snapshot may skip ahead).
    let seqs = &game.spectator.p.applied_seqs;
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "{}: the spectator saw a seq twice or out of order: {seqs:?}",
        game.room
    );
}

/// Actions a classic player plays before resigning.
const RESIGN_AFTER: usize = 20;

/// How many matches the SIGKILL test plays (`WARROOM_CLUSTER_MATCHES`, 60 by default).
fn match_count() -> u64 {
    std::env::var("WARROOM_CLUSTER_MATCHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn three_nodes_one_killed_mid_play_every_match_finishes_with_its_log_intact() {
    let (nats, db, prefix) = cluster_setup().await;
    let nodes = Vec::from(Node::cluster::<3>(&db, &nats, &format!("k{prefix}"), 5, &[]).await);
    let mut live: Live = nodes.iter().map(|n| Some(n.addr)).collect();
    // Hexdice between two clients; capitals and classic, one client against bots.
    let rulesets = [("hexdice", 2, 0), ("capitals", 1, 1), ("classic", 1, 2)];
    let count = match_count();
    let mut games = Vec::new();
    for n in 0..count {
        let (ruleset, people, bots) = rulesets[(n as usize) % rulesets.len()];
        games.push(Game::open(&live, n, ruleset, people, bots).await);
    }
    // Rooms spread over the nodes (least loaded first).
    let owned = owners(&db).await;
    let mut per_node: HashMap<&str, usize> = HashMap::new();
    for game in &games {
        let owner = owned.get(&game.room).expect("every room has a live lease");
        *per_node.entry(owner.as_str()).or_default() += 1;
    }
    println!("rooms per node: {per_node:?}");
    assert_eq!(per_node.len(), 3, "every node serves rooms: {per_node:?}");

    // A few actions everywhere, timing acks through the serving node and through another
    // one, then the node serving the most rooms dies.
    for game in &mut games {
        let owner = &owned[&game.room];
        game.owner = nodes.iter().position(|node| &node.id == owner);
    }
    for round in 0..6u64 {
        for (i, game) in games.iter_mut().enumerate() {
            game.step(&live, round * 1000 + i as u64).await;
        }
    }
    let median = |mut times: Vec<Duration>| {
        times.sort();
        (
            times.len(),
            times.get(times.len() / 2).copied().unwrap_or_default(),
        )
    };
    let local = median(games.iter().flat_map(|g| g.local_acks.clone()).collect());
    let remote = median(games.iter().flat_map(|g| g.remote_acks.clone()).collect());
    println!(
        "ack median through the serving node {:?} ({} acks), through another node {:?} ({} acks)",
        local.1, local.0, remote.1, remote.0
    );
    for game in &mut games {
        game.owner = None;
    }
    let (victim, _) = nodes
        .iter()
        .enumerate()
        .max_by_key(|(_, node)| per_node.get(node.id.as_str()).copied().unwrap_or(0))
        .unwrap();
    let moved: Vec<usize> = games
        .iter()
        .enumerate()
        .filter(|(_, g)| owned.get(&g.room) == Some(&nodes[victim].id))
        .map(|(i, _)| i)
        .collect();
    let mut nodes = nodes;
    let killed = nodes.remove(victim);
    live[victim] = None;
    let killed_at = Instant::now();
    killed.sigkill();
    for game in &mut games {
        game.last_ack = killed_at.max(game.last_ack);
    }

    // Every match goes on to its end.
    let mut stalls = Vec::new();
    let mut round = 3u64;
    while games.iter().any(|g| !g.over()) {
        for (i, game) in games.iter_mut().enumerate() {
            if !game.over() {
                game.step(&live, round * 1000 + i as u64).await;
            }
        }
        round += 1;
        if round.is_multiple_of(500) {
            for game in games.iter().filter(|g| !g.over()) {
                let p = &game.players[0].p;
                eprintln!(
                    "round {round}: {} ({}) at seq {}, to act {:?}, legal {}",
                    game.room,
                    game.ruleset,
                    p.seq,
                    p.to_act,
                    p.legal.len()
                );
            }
        }
        assert!(round < 20_000, "the matches end");
    }
    for &i in &moved {
        stalls.push(games[i].longest_gap);
    }
    let worst = stalls.iter().max().copied().unwrap_or_default();
    println!(
        "{} matches finished; {} rooms moved off the killed node; longest stall of a moved room {:?} (after the kill: {:?})",
        games.len(),
        moved.len(),
        worst,
        killed_at.elapsed()
    );
    let http = Http {
        addr: live.iter().flatten().next().copied().unwrap(),
    };
    for game in &mut games {
        check_finished(&http, game).await;
    }
    assert!(
        worst < Duration::from_secs(10),
        "play stalled {worst:?} for a moved room (target < 10 s)"
    );
    drop(nodes);
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_node_frozen_past_its_lease_cannot_append_to_a_room_that_moved() {
    let (nats, db, prefix) = cluster_setup().await;
    let lease = 2;
    let frozen = Node::up(&db, &nats, &format!("f{prefix}a"), lease).await;
    let live: Live = vec![Some(frozen.addr)];
    // The room is opened while the frozen node is alone, so it serves it.
    let mut game = Game::open(&live, 1, "hexdice", 2, 0).await;
    game.step(&live, 1).await;
    assert_eq!(owners(&db).await.get(&game.room), Some(&frozen.id));

    let other = Node::up(&db, &nats, &format!("f{prefix}b"), lease).await;
    frozen.signal("STOP");
    // Past its lease, the other node takes the room over (it serves a running match).
    let mut taken = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if owners(&db).await.get(&game.room) == Some(&other.id) {
            taken = true;
            break;
        }
    }
    assert!(taken, "the other node took the room over");
    // A player still connected to the frozen node acts, and the node wakes up believing it
    // owns the room. Whether its renewal notices first or the append meets the fence, the
    // player is told `room_moved` (or its socket closes with it), never `ack`.
    let to_act = game.players[0].p.to_act.unwrap();
    let actor = game
        .players
        .iter_mut()
        .find(|p| p.p.seat == Some(to_act))
        .unwrap();
    assert_eq!(actor.node, 0, "the actor is connected to the frozen node");
    let action = actor.p.legal[0].clone();
    let seq_before = actor.p.seq;
    let id = format!("frozen-{}", seq_before + 1);
    let room = game.room.clone();
    let sent = actor
        .p
        .client
        .try_send(&json!({"type": "action", "room": room, "id": id, "action": action}))
        .await;
    frozen.signal("CONT");
    let (answer, moved) = until_or_moved(&mut actor.p.client, |message| {
        message["type"] == "ack" && message["id"] == json!(id)
    })
    .await;
    assert!(
        answer.is_none(),
        "the frozen node acknowledged an action: {answer:?}"
    );
    assert!(
        !sent || moved,
        "the client is told the room moved (closed: {:?})",
        actor.p.client.closed
    );
    // The client reconnects to the new owner and the match goes on there.
    let live: Live = vec![None, Some(other.addr)];
    for seat in &mut game.players {
        seat.reconnect(&live, 5).await;
    }
    for round in 0..10_000u64 {
        if game.over() {
            break;
        }
        game.step(&live, round).await;
    }
    assert!(game.over());
    let http = other.http();
    check_finished(&http, &mut game).await;
    drop(frozen);
    drop(other);
    db.cleanup().await;
}

/// The lease of the SIGTERM test's nodes: long, so that rooms served again within a fraction of
/// it cannot have waited for it to expire.
const HAND_OVER_LEASE_SECONDS: u64 = 10;

/// Actions acknowledged in each room after the SIGTERM before its match is ended by a
/// resignation.
const ACKS_AFTER_SIGTERM: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_node_stopped_with_sigterm_hands_its_rooms_over_without_waiting_for_their_leases() {
    let (nats, db, prefix) = cluster_setup().await;
    let lease = HAND_OVER_LEASE_SECONDS;
    let stopping = Node::up(&db, &nats, &format!("t{prefix}a"), lease).await;
    // The rooms are opened while the stopping node is alone, so it serves every one of them.
    let alone: Live = vec![Some(stopping.addr)];
    let rulesets = [("hexdice", 2, 0), ("capitals", 1, 1)];
    let mut games = Vec::new();
    for n in 0..6u64 {
        let (ruleset, people, bots) = rulesets[(n as usize) % rulesets.len()];
        games.push(Game::open(&alone, n, ruleset, people, bots).await);
    }
    let other = Node::start(&db, &nats, &format!("t{prefix}b"), lease);
    let nodes = vec![stopping, other];
    cluster_up(&db, &nodes).await;
    let mut live: Live = nodes.iter().map(|node| Some(node.addr)).collect();
    // The spectators, and the second player of each hexdice match, follow through the other
    // node (commands forwarded, messages relayed over NATS); the first players stay on the
    // stopping node.
    for (i, game) in games.iter_mut().enumerate() {
        game.spectator.reconnect(&live, i as u64).await;
        if game.players.len() > 1 {
            game.players[1].reconnect(&live, i as u64).await;
        }
        assert_eq!(game.spectator.node, 1);
    }
    for round in 0..3u64 {
        for (i, game) in games.iter_mut().enumerate() {
            game.step(&live, round * 100 + i as u64).await;
        }
    }
    let owned = owners(&db).await;
    for game in &games {
        assert_eq!(owned.get(&game.room), Some(&nodes[0].id), "{}", game.room);
    }

    // SIGTERM: every room is handed over to the other node while play goes on, each match in a
    // task of its own so that one room's wait is not counted in another's.
    let mut nodes = nodes;
    let mut stopping = nodes.remove(0);
    let other = nodes.remove(0);
    stopping.signal("TERM");
    let stopped_at = Instant::now();
    live[0] = None;
    let mut tasks = Vec::new();
    for (i, mut game) in games.into_iter().enumerate() {
        let live = live.clone();
        tasks.push(tokio::spawn(async move {
            let acked_before = game.acked.len();
            let mut first_ack = None;
            let mut round = 0u64;
            while !game.over() && game.acked.len() < acked_before + ACKS_AFTER_SIGTERM {
                game.step(&live, 10_000 + round * 100 + i as u64).await;
                if first_ack.is_none() && game.acked.len() > acked_before {
                    first_ack = Some(stopped_at.elapsed());
                }
                round += 1;
                assert!(round < 1_000, "{}: play goes on", game.room);
            }
            (game, first_ack)
        }));
    }
    let mut games = Vec::new();
    let mut stalls = Vec::new();
    for task in tasks {
        let (game, first_ack) = task.await.expect("a match task");
        stalls.push(
            first_ack.unwrap_or_else(|| panic!("{}: no action acked after SIGTERM", game.room)),
        );
        games.push(game);
    }
    let worst = stalls.iter().max().copied().unwrap_or_default();
    println!(
        "SIGTERM hand-over: {} rooms moved; first ack after SIGTERM per room {stalls:?}, \
         longest {worst:?}; lease {lease} s",
        games.len()
    );
    assert!(
        worst < Duration::from_secs(lease) / 2,
        "play stalled {worst:?} after SIGTERM: the rooms waited for their lease ({lease} s)"
    );
    // The stopped node exits by itself, cleanly.
    let exited = loop {
        if let Some(status) = stopping.child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            stopped_at.elapsed() < Duration::from_secs(30),
            "the node stops within 30 s of SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(exited.success(), "the node stopped cleanly: {exited}");
    let exit_took = stopped_at.elapsed();
    // Every room is the other node's: at once for those played since, at its next look for
    // rooms to take over (every third of the lease) for a room whose acks after the SIGTERM
    // all came before the stopping node handed it over; in any case before the lease runs out.
    let handed_over = loop {
        let owned = owners(&db).await;
        let elsewhere: Vec<&str> = games
            .iter()
            .filter(|game| owned.get(&game.room) != Some(&other.id))
            .map(|game| game.room.as_str())
            .collect();
        if elsewhere.is_empty() {
            break stopped_at.elapsed();
        }
        assert!(
            stopped_at.elapsed() < Duration::from_secs(lease),
            "rooms not taken over by the other node within the lease: {elsewhere:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };

    // Each match ends (a player resigns: two seats, so the other side wins at once), with every
    // acknowledged action in its log and `verify` passing.
    for (i, game) in games.iter_mut().enumerate() {
        let room = game.room.clone();
        let resigning = &mut game.players[0];
        for attempt in 0..5u64 {
            let resign = json!({"type": "resign", "room": room});
            if resigning.p.client.try_send(&resign).await {
                let told = tokio::time::timeout(Duration::from_secs(5), async {
                    while resigning.p.outcome.is_none() {
                        let message = resigning.p.client.next().await?;
                        resigning.p.absorb(&message);
                    }
                    Some(())
                })
                .await;
                if matches!(told, Ok(Some(()))) {
                    break;
                }
            }
            resigning
                .reconnect(&live, 20_000 + attempt * 100 + i as u64)
                .await;
        }
        assert!(
            game.over(),
            "{}: the resignation ended the match",
            game.room
        );
    }
    let http = other.http();
    for game in &mut games {
        check_finished(&http, game).await;
    }
    println!(
        "SIGTERM hand-over: the stopped node exited after {exit_took:?}; every room was the \
         other node's after {handed_over:?}"
    );
    drop(other);
    db.cleanup().await;
}

/// Opens a guest named `name` through `http`, connects it to `addr` and says hello: (its id,
/// its token, its socket).
async fn guest_on(http: &Http, addr: SocketAddr, name: &str) -> (String, String, Client) {
    let (id, token) = http.guest(name).await;
    let mut client = Client::connect(addr).await;
    client.hello(Some(&token)).await;
    (id, token, client)
}

/// The room `id` as node `http`'s lobby lists it (`GET /api/rooms`), if listed.
async fn in_lobby(http: &Http, id: &str) -> Option<Value> {
    let (status, page) = http.get("/api/rooms?limit=100", None).await;
    assert_eq!(status, 200, "{page}");
    page["rooms"]
        .as_array()
        .expect("rooms")
        .iter()
        .find(|room| room["id"] == id)
        .cloned()
}

/// Polls node `http`'s lobby until the room `id` satisfies `wanted`; how long it took, or
/// `None` after `limit`.
pub(crate) async fn until_lobby_shows(
    http: &Http,
    id: &str,
    limit: Duration,
    wanted: impl Fn(&Value) -> bool,
) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if in_lobby(http, id).await.is_some_and(|room| wanted(&room)) {
            return Some(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

/// Two nodes, the room `room` opened through the first: (the node serving it, the other).
pub(crate) async fn serving_and_other<'a>(
    db: &TestDb,
    nodes: &'a [Node; 2],
    room: &str,
) -> (&'a Node, &'a Node) {
    let owner = owners(db)
        .await
        .get(room)
        .cloned()
        .expect("the room is served");
    if owner == nodes[0].id {
        (&nodes[0], &nodes[1])
    } else {
        (&nodes[1], &nodes[0])
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_room_served_by_one_node_shows_its_connected_players_in_the_other_nodes_lobby() {
    let (nats, db, prefix) = cluster_setup().await;
    let nodes = Node::cluster::<2>(&db, &nats, &format!("p{prefix}"), 5, &[]).await;
    let http = nodes[0].http();
    let (ada_token, room) = {
        let (_, token) = http.guest("Ada").await;
        let room_id = http.room_id(&token, &json!({"ruleset": "hexdice"})).await;
        (token, room_id)
    };
    let (serving, other) = serving_and_other(&db, &nodes, &room).await;
    let other_http = other.http();
    let mut ada = Client::connect(serving.addr).await;
    ada.hello(Some(&ada_token)).await;
    ada.sit(&room, Some(0)).await;
    let (_, _, mut watcher) = guest_on(&http, serving.addr, "Watcher").await;
    watcher.join(&room, None).await;
    // Ada holds seat 0 in the database at once; her presence and the spectator come from the
    // node serving the room.
    let shown = until_lobby_shows(&other_http, &room, Duration::from_secs(5), |room| {
        room["seats"][0]["connected"] == true && room["spectators"] == 1
    })
    .await;
    println!("the other node's lobby showed the serving node's presence after {shown:?}");
    let shown = shown.expect("the other node's lobby shows Ada connected and the spectator");
    assert!(shown < Duration::from_secs(1), "{shown:?} (target < 1 s)");
    // The serving node's own lobby agrees.
    let here = in_lobby(&serving.http(), &room).await.unwrap();
    assert_eq!(here["seats"][0]["connected"], true);
    // Ada leaves: the other node shows her gone, as quickly.
    ada.close().await;
    watcher.close().await;
    let gone = until_lobby_shows(&other_http, &room, Duration::from_secs(5), |room| {
        room["seats"][0]["connected"] == false && room["spectators"] == 0
    })
    .await;
    println!("... and her leaving after {gone:?}");
    let gone = gone.expect("the other node's lobby shows Ada gone");
    assert!(gone < Duration::from_secs(1), "{gone:?} (target < 1 s)");
    drop(nodes);
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn two_players_pressing_quick_play_on_two_nodes_are_sent_to_one_room() {
    let (nats, db, prefix) = cluster_setup().await;
    let nodes = Node::cluster::<2>(&db, &nats, &format!("q{prefix}"), 5, &[]).await;
    let https = nodes.each_ref().map(Node::http);
    let hexdice = json!({"ruleset": "hexdice", "seats": 2});
    // At once, on two nodes, several times: one opens the room, the other is sent to it.
    let mut players = Vec::new();
    for round in 0..4 {
        let (_, one) = https[0].guest(&format!("One {round}")).await;
        let (_, two) = https[1].guest(&format!("Two {round}")).await;
        let ((status_one, found_one), (status_two, found_two)) = tokio::join!(
            https[0].quick_play(&one, &hexdice),
            https[1].quick_play(&two, &hexdice),
        );
        let room = found_one["room"]["id"].as_str().unwrap().to_owned();
        assert_eq!(
            found_two["room"]["id"].as_str(),
            Some(room.as_str()),
            "round {round}: both players are sent to one room ({found_one} / {found_two})"
        );
        let mut statuses = [status_one, status_two];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 201], "one opened it, the other found it");
        // Each takes a seat through its own node; the room serving them starts the match.
        for (n, token) in [&one, &two].into_iter().enumerate() {
            let mut player = Client::connect(nodes[n].addr).await;
            player.hello(Some(token)).await;
            player.sit(&room, None).await;
            players.push(player);
        }
        https[0]
            .room_until(&room, "the match playing", |shown| {
                shown["state"] == "playing"
            })
            .await;
    }
    // A player waiting in a room served by one node is found by quick play on the other,
    // once that node sees her there (presence).
    let (_, cyd) = https[0].guest("Cyd").await;
    let (status, opened) = https[0].quick_play(&cyd, &hexdice).await;
    assert_eq!(status, 201, "{opened}");
    let room = opened["room"]["id"].as_str().unwrap().to_owned();
    let (serving, other) = serving_and_other(&db, &nodes, &room).await;
    let mut cyd_socket = Client::connect(serving.addr).await;
    cyd_socket.hello(Some(&cyd)).await;
    cyd_socket.sit(&room, None).await;
    let other_http = other.http();
    until_lobby_shows(&other_http, &room, Duration::from_secs(5), |room| {
        room["seats"][0]["connected"] == true || room["seats"][1]["connected"] == true
    })
    .await
    .expect("Cyd shown present on the other node");
    let (_, dee) = other_http.guest("Dee").await;
    let (status, found) = other_http.quick_play(&dee, &hexdice).await;
    assert_eq!(
        (status, found["room"]["id"].as_str()),
        (200, Some(room.as_str())),
        "{found}"
    );
    drop(cyd_socket);
    drop(players);
    drop(nodes);
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_node_frozen_past_its_lease_cannot_store_a_chat_line_or_a_seat_in_a_room_that_moved() {
    let (nats, db, prefix) = cluster_setup().await;
    let lease = 2;
    let frozen = Node::up(&db, &nats, &format!("w{prefix}a"), lease).await;
    let http = frozen.http();
    // A waiting room opened while the frozen node is alone, so it serves it: Ada seated in
    // it, Bob watching, both connected to that node.
    let (_, ada_token, mut ada) = guest_on(&http, frozen.addr, "Ada").await;
    let room = http
        .room_id(&ada_token, &json!({"ruleset": "hexdice"}))
        .await;
    ada.sit(&room, Some(0)).await;
    let (bob_id, _, mut bob) = guest_on(&http, frozen.addr, "Bob").await;
    bob.join(&room, None).await;
    assert_eq!(owners(&db).await.get(&room), Some(&frozen.id));

    let other = Node::up(&db, &nats, &format!("w{prefix}b"), lease).await;
    frozen.signal("STOP");
    // Past its lease, a player joining through the other node has it serve the room.
    let mut expired = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if !owners(&db).await.contains_key(&room) {
            expired = true;
            break;
        }
    }
    assert!(expired, "the frozen node's lease expired");
    let other_http = other.http();
    let (_, _, mut cyd) = guest_on(&other_http, other.addr, "Cyd").await;
    let joined = cyd.join(&room, None).await;
    assert_eq!(joined["type"], "room", "{joined}");
    assert_eq!(owners(&db).await.get(&room), Some(&other.id));
    // Ada says a line and Bob takes the free seat, through the frozen node, which wakes up
    // believing it still serves the room.
    let words = format!("said while frozen {prefix}");
    let said = ada
        .try_send(&json!({"type": "chat", "room": room, "text": words}))
        .await;
    let seated = bob
        .try_send(&json!({"type": "take_seat", "room": room, "seat": 1}))
        .await;
    assert!(said && seated, "the frozen node's sockets are open");
    frozen.signal("CONT");
    for (who, client) in [("Ada", &mut ada), ("Bob", &mut bob)] {
        let (outcome, moved) = until_or_moved(client, |message| {
            message["type"] == "chat" && message["line"]["text"] == json!(words)
                || message["type"] == "room"
                    && message["room"]["seats"][1]["player"]["id"] == json!(bob_id)
        })
        .await;
        assert!(
            outcome.is_none(),
            "{who}: the frozen node wrote into the moved room: {outcome:?}"
        );
        assert!(
            moved,
            "{who} is told the room moved (closed: {:?})",
            client.closed
        );
    }
    // Nothing of it is in the database.
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    let lines: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages WHERE body = $1")
        .bind(&words)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(lines, 0, "the frozen node's chat line is not stored");
    let seat_one: Option<String> = sqlx::query_scalar(
        "SELECT identity_id::text FROM room_seats WHERE room_id = $1::uuid AND seat = 1",
    )
    .bind(&room)
    .fetch_optional(&mut conn)
    .await
    .unwrap();
    assert_eq!(
        seat_one, None,
        "the frozen node's seat change is not stored"
    );
    // The room goes on with its new owner: Ada, joining again, is heard there.
    let mut ada = Client::connect(other.addr).await;
    ada.hello(Some(&ada_token)).await;
    ada.join(&room, None).await;
    ada.send(&json!({"type": "chat", "room": room, "text": "after the move"}))
        .await;
    ada.until("the line", |m| {
        m["type"] == "chat" && m["line"]["text"] == "after the move"
    })
    .await;
    drop(frozen);
    drop(other);
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn an_addresss_guest_and_room_allowances_hold_for_the_whole_cluster_not_per_node() {
    let (nats, db, prefix) = cluster_setup().await;
    let limits = [
        ("--guests-per-ip-per-minute", "10"),
        ("--rooms-per-ip-per-minute", "4"),
    ];
    let nodes = Node::cluster::<2>(&db, &nats, &format!("l{prefix}"), 5, &limits).await;
    let https: Vec<Http> = nodes.iter().map(Node::http).collect();
    // Alternating between the nodes, as a round-robin proxy would: the address's 10 guests a
    // minute are the cluster's.
    let mut created = Vec::new();
    let mut refused = Vec::new();
    for i in 0..16 {
        let http = &https[i % 2];
        let (status, body) = http
            .post("/api/guests", None, &json!({"name": format!("limit {i}")}))
            .await;
        match status {
            201 => created.push(body["token"].as_str().unwrap().to_owned()),
            429 => {
                assert_eq!(body["code"], "rate_limited", "{body}");
                refused.push(i % 2);
            }
            other => panic!("creating a guest answered {other}: {body}"),
        }
    }
    println!(
        "guests: {} created, refused on nodes {refused:?}",
        created.len()
    );
    assert_eq!(
        created.len(),
        10,
        "10 guests a minute for the whole cluster"
    );
    assert!(
        refused.contains(&0) && refused.contains(&1),
        "both nodes refuse once the cluster's allowance is spent: {refused:?}"
    );
    // Rooms: 4 a minute for the address, whichever node opens them.
    let mut opened = 0;
    for i in 0..8 {
        let (status, body) = https[i % 2]
            .post(
                "/api/rooms",
                Some(&created[0]),
                &json!({"ruleset": "hexdice", "seats": 2}),
            )
            .await;
        match status {
            201 => opened += 1,
            429 => assert_eq!(body["code"], "rate_limited", "{body}"),
            other => panic!("opening a room answered {other}: {body}"),
        }
    }
    assert_eq!(opened, 4, "4 rooms a minute for the whole cluster");
    drop(nodes);
    db.cleanup().await;
}

/// A NATS server of the test's own on a free loopback port (killed when dropped).
struct PrivateNats {
    child: Child,
    port: u16,
}

impl PrivateNats {
    /// Starts `nats-server` on `port` (a free one when 0) and waits until it answers there.
    async fn start(port: u16) -> PrivateNats {
        let port = if port == 0 {
            std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port()
        } else {
            port
        };
        // Held at once, so it is killed and waited for on every path (`Drop`).
        let nats = PrivateNats {
            child: Command::new("nats-server")
                .args(["-a", "127.0.0.1", "-p", &port.to_string()])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("start nats-server (it is on the PATH where the cluster tests run)"),
            port,
        };
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return nats;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the private nats-server did not answer on port {port}");
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Stops it and waits until it has exited.
    fn stop(mut self) -> u16 {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.port
    }
}

impl Drop for PrivateNats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `warroom_cluster_nats_reconnects_total` counts a node's reconnections to NATS: 0 while its
/// first connection stands, then 1 once the NATS server restarted (on the same port) and the
/// node connected again (both nodes of the cluster).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_nodes_reconnections_to_nats_are_counted_in_its_metrics() {
    let (_shared_nats, db, prefix) = cluster_setup().await;
    let nats = PrivateNats::start(0).await;
    let nodes = Node::cluster::<2>(&db, &nats.url(), &prefix, 5, &[]).await;
    let http = nodes[0].http();
    const RECONNECTS: &str = "warroom_cluster_nats_reconnects_total";
    assert_eq!(http.metric(RECONNECTS).await, 0.0, "no reconnect yet");
    let port = nats.stop();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _nats = PrivateNats::start(port).await;
    let mut counted = 0.0;
    for _ in 0..200 {
        counted = http.metric(RECONNECTS).await;
        if counted >= 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        counted, 1.0,
        "one reconnect after one restart of the NATS server"
    );
    assert_eq!(
        nodes[1].http().metric(RECONNECTS).await,
        1.0,
        "node b reconnected too"
    );
}

/// Reads `client` (for 15 s at most) until a message `wanted` picks, or until it closes (`None`);
/// and whether it was told the room moved (an error `room_moved`, or the close's reason).
async fn until_or_moved(
    client: &mut Client,
    wanted: impl Fn(&Value) -> bool,
) -> (Option<Value>, bool) {
    let mut told_moved = false;
    let found = tokio::time::timeout(Duration::from_secs(15), async {
        while let Some(message) = client.next().await {
            if message["type"] == "error" && message["code"] == "room_moved" {
                told_moved = true;
            }
            if wanted(&message) {
                return Some(message);
            }
        }
        None
    })
    .await
    .expect("an answer or a close in time");
    let closed_moved = client.closed.as_deref() == Some("room_moved");
    (found, told_moved || closed_moved)
}

/// Waits until `/metrics` of `http` shows `name` at `value`.
async fn metric_settles(http: Http, name: &str, value: f64) {
    for _ in 0..300 {
        if http.metric(name).await == value {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name} did not reach {value}");
}

/// In cluster mode a finished room that left memory is read from the database by every node:
/// `GET /api/rooms/{id}` neither loads it into a room task nor takes its lease, on the node
/// that served it as on the other (before, the other node asked the room's owner, and a
/// dormant room was loaded by whichever node was asked). Nor does another node's late `leave`
/// for it (before, the node asked acquired the room's lease and loaded it to have it left).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn a_finished_room_is_read_from_the_database_by_every_node_and_left_without_loading_it() {
    let (nats, db, prefix) = cluster_setup().await;
    let evicting = [("--room-idle-eviction", "1s")];
    let nodes = Node::cluster::<2>(&db, &nats, &prefix, 5, &evicting).await;
    let https = nodes.each_ref().map(Node::http);
    let (room, mut players, mut spectator) =
        common::play::hexdice_duel(https[0], nodes[0].addr).await;
    players[0]
        .client
        .send(&json!({"type": "resign", "room": room}))
        .await;
    spectator
        .client
        .until("finished", |m| m["type"] == "finished")
        .await;
    spectator.client.close().await;
    for player in players {
        player.client.close().await;
    }
    for http in https {
        metric_settles(http, "warroom_rooms_in_memory", 0.0).await;
    }
    for _ in 0..3 {
        for http in https {
            let (status, shown) = http.get(&format!("/api/rooms/{room}"), None).await;
            assert_eq!(status, 200, "{shown}");
            assert_eq!(shown["state"], "finished", "{shown}");
            assert_eq!(shown["id"], json!(room), "{shown}");
        }
    }
    // A connection of another node that followed the room leaves it late, as a forwarded
    // `leave` (what a node sends when its socket leaves a room served elsewhere).
    let observer = async_nats::connect(&nats).await.expect("NATS");
    for node in &nodes {
        let ask = warroom_server::cluster::wire::Ask::Room {
            room: room.parse().expect("a room id"),
            from: "elsewhere".to_owned(),
            conn: 7,
            command: warroom_room::Command::Leave,
        };
        let reply = observer
            .request(
                warroom_server::cluster::wire::ask_subject(&node.id),
                serde_json::to_vec(&ask).expect("JSON").into(),
            )
            .await
            .expect("the node answers");
        let answer: Value = serde_json::from_slice(&reply.payload).expect("JSON");
        assert_eq!(
            answer["result"],
            json!({"Ok": {"type": "done"}}),
            "{answer}"
        );
    }
    for http in https {
        assert_eq!(http.metric("warroom_rooms_in_memory").await, 0.0);
    }
    assert!(
        !owners(&db).await.contains_key(&room),
        "nobody took the finished room's lease to read it or to have it left"
    );
}
