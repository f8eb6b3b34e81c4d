//! Benchmark of the server's append batching: the real server runs in-process (SQLite file in a
//! temporary folder, loopback listener) once with `max_batch = 1` (one commit per action) and
//! once with the default limit; K concurrent hexdice rooms are played by real WebSocket clients
//! that pick from the legal actions the server sends to the seat to act. It prints the
//! acknowledged actions per second of each run and their ratio.
//!
//! Run: `cargo run --release -p warroom-bench --bin append_batching`

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};
use warroom_server::config::{Config, Limits};
use warroom_testkit::Http;

/// Rooms played at the same time.
const ROOMS: usize = 32;
/// How long each configuration is measured (after every room is seated).
const MEASURE: Duration = Duration::from_secs(12);
/// Longest any single wait for the server may take.
const WAIT: Duration = Duration::from_secs(10);

#[tokio::main(flavor = "multi_thread")]
async fn main() -> anyhow::Result<()> {
    let default_batch = Limits::default().max_batch;
    println!("append batching: {ROOMS} hexdice rooms, {MEASURE:?} each, SQLite, loopback");
    let single = measure(1).await?;
    let batched = measure(default_batch).await?;
    println!("max_batch 1: {single:.0} acknowledged actions/s");
    println!("max_batch {default_batch} (default): {batched:.0} acknowledged actions/s");
    println!("ratio (default / 1): {:.2}", batched / single);
    Ok(())
}

/// Starts a server with `max_batch`, plays for [`MEASURE`], stops it; returns acked actions/s.
async fn measure(max_batch: usize) -> anyhow::Result<f64> {
    let folder =
        std::env::temp_dir().join(format!("warroom-bench-{}-{max_batch}", std::process::id()));
    std::fs::create_dir_all(&folder)?;
    let result = measure_in(&folder, max_batch).await;
    let _ = std::fs::remove_dir_all(&folder);
    result
}

async fn measure_in(folder: &std::path::Path, max_batch: usize) -> anyhow::Result<f64> {
    let url = format!("sqlite://{}?mode=rwc", folder.join("warroom.db").display());
    let mut config = Config::for_tests(url);
    config.limits.max_batch = max_batch;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(warroom_server::run(config, listener, async {
        let _ = stopped.await;
    }));
    wait_until_serving(addr).await?;

    let acked = Arc::new(AtomicU64::new(0));
    let counting = Arc::new(AtomicBool::new(false));
    let running = Arc::new(AtomicBool::new(true));
    let mut rooms = Vec::new();
    for n in 0..ROOMS {
        let table = Table::open(addr, n).await?;
        let (acked, counting, running) = (acked.clone(), counting.clone(), running.clone());
        rooms.push(tokio::spawn(async move {
            table.play(addr, n, &acked, &counting, &running).await
        }));
    }
    // Every room is seated; measure from here.
    let started = Instant::now();
    counting.store(true, Ordering::SeqCst);
    tokio::time::sleep(MEASURE).await;
    counting.store(false, Ordering::SeqCst);
    let elapsed = started.elapsed();
    let count = acked.load(Ordering::SeqCst);
    running.store(false, Ordering::SeqCst);
    for room in rooms {
        room.await.context("room task")??;
    }
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(20), server)
        .await
        .context("the server stops in time")???;
    Ok(count as f64 / elapsed.as_secs_f64())
}

/// Polls `/healthz` until the server answers (migrations run before serving).
async fn wait_until_serving(addr: SocketAddr) -> anyhow::Result<()> {
    let http = Http { addr };
    for _ in 0..400 {
        if http.request("GET", "/healthz", None, None).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bail!("the server did not start")
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One seated player's socket and what the server last told it.
struct Seat {
    socket: Socket,
    seat: u64,
    seq: u64,
    to_act: Option<u64>,
    legal: Vec<Value>,
    over: bool,
}

impl Seat {
    async fn send(&mut self, message: Value) -> anyhow::Result<()> {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await?;
        Ok(())
    }

    /// The next JSON message, absorbing room state along the way.
    async fn next(&mut self) -> anyhow::Result<Value> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.socket.next())
                .await
                .context("no message from the server in time")?;
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let message: Value = serde_json::from_str(text.as_str())?;
                    if message["type"] == "error" {
                        bail!("server error: {message}");
                    }
                    self.absorb(&message);
                    return Ok(message);
                }
                Some(Ok(Message::Close(frame))) => bail!("socket closed: {frame:?}"),
                Some(Ok(_)) => {}
                Some(Err(error)) => return Err(error.into()),
                None => bail!("socket closed"),
            }
        }
    }

    fn absorb(&mut self, message: &Value) {
        if matches!(message["type"].as_str(), Some("snapshot" | "applied")) {
            self.seq = message["seq"].as_u64().unwrap_or(self.seq);
            self.to_act = message["to_act"].as_u64();
            self.legal =
                warroom_protocol::legal::expand_value(&message["legal"]).unwrap_or_default();
            self.over |= !message["outcome"].is_null();
        }
    }

    async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> anyhow::Result<Value> {
        loop {
            let message = self.next().await?;
            if wanted(&message) {
                return Ok(message);
            }
        }
    }

    async fn reach(&mut self, seq: u64) -> anyhow::Result<()> {
        while self.seq < seq {
            self.next().await?;
        }
        Ok(())
    }
}

/// One hexdice room with both seats played over their own sockets.
struct Table {
    room: String,
    seats: Vec<Seat>,
}

impl Table {
    /// Creates two guests and a two-seat hexdice room, and seats both.
    async fn open(addr: SocketAddr, n: usize) -> anyhow::Result<Table> {
        let http = Http { addr };
        let mut tokens = Vec::new();
        for seat in 0..2 {
            let (_, token) = http.guest(&format!("bench {n}.{seat}")).await?;
            tokens.push(token);
        }
        let request = json!({"ruleset": "hexdice", "options": {}, "seats": 2});
        let room = http.room(&tokens[0], &request).await?;
        let room = room["id"].as_str().context("room id")?.to_owned();
        let mut seats = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            let (socket, _) = connect_async(format!("ws://{addr}/ws")).await?;
            let mut player = Seat {
                socket,
                seat: seat as u64,
                seq: 0,
                to_act: None,
                legal: Vec::new(),
                over: false,
            };
            player
                .send(json!({"type": "hello", "token": token}))
                .await?;
            player.until(|m| m["type"] == "welcome").await?;
            player
                .send(json!({"type": "join", "room": room, "last_seq": null}))
                .await?;
            player.until(|m| m["type"] == "room").await?;
            player
                .send(json!({"type": "take_seat", "room": room, "seat": seat}))
                .await?;
            seats.push(player);
        }
        for player in &mut seats {
            player.until(|m| m["type"] == "snapshot").await?;
        }
        Ok(Table { room, seats })
    }

    /// Plays while `running`, opening a fresh room when a match ends; counts acks into `acked`
    /// while `counting`.
    async fn play(
        mut self,
        addr: SocketAddr,
        n: usize,
        acked: &AtomicU64,
        counting: &AtomicBool,
        running: &AtomicBool,
    ) -> anyhow::Result<()> {
        let mut chooser = Chooser(0x9e37_79b9_7f4a_7c15 ^ (n as u64 + 1));
        while running.load(Ordering::SeqCst) {
            if self.seats[0].over {
                self.close().await;
                self = Table::open(addr, n).await?;
                continue;
            }
            let latest = self.seats.iter().map(|s| s.seq).max().unwrap_or(0);
            let to_act = self.seats[0]
                .to_act
                .context("nobody to act in a live match")?;
            let actor = self
                .seats
                .iter_mut()
                .find(|s| s.seat == to_act)
                .context("the seat to act is played")?;
            // The acting seat may not have read its own copy with legal actions yet.
            actor.reach(latest).await?;
            if actor.legal.is_empty() {
                bail!("seat {to_act} is to act but lists no legal action");
            }
            let action = actor.legal[chooser.below(actor.legal.len())].clone();
            let id = format!("a{}", actor.seq + 1);
            actor
                .send(json!({"type": "action", "room": self.room, "id": id, "action": action}))
                .await?;
            let ack = actor
                .until(|m| m["type"] == "ack" && m["id"] == Value::String(id.clone()))
                .await?;
            if counting.load(Ordering::SeqCst) {
                acked.fetch_add(1, Ordering::Relaxed);
            }
            let seq = ack["seq"].as_u64().context("ack seq")?;
            for seat in &mut self.seats {
                seat.reach(seq).await?;
            }
        }
        self.close().await;
        Ok(())
    }

    async fn close(self) {
        for mut seat in self.seats {
            let _ = seat.socket.close(None).await;
        }
    }
}

/// A small deterministic chooser (xorshift), so runs pick the same actions.
struct Chooser(u64);

impl Chooser {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
