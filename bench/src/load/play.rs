//! Playing rooms through the real API: per room, one task drives every seat's socket (guests
//! made over REST, the room opened with its creator on seat 0, the others `join` and
//! `take_seat`), the seat to act sends a random action from the legal actions the server
//! listed for it, as soon as it may (after the previous action's `ack`) or in the slot a shared
//! pacer gives it; a finished match is replaced by a new room of the same guests. No room sends
//! its first action before every room of the run is ready. Spectators are tasks of their own
//! that follow whichever room their room task plays now.
//!
//! Latencies are measured from the moment the action is written to its socket: to its `ack`
//! (ack), and to every other seat's and every spectator's `applied` of it (broadcast).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use futures_util::stream::{SelectAll, SplitSink};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, watch};
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::Message;
use warroom_testkit::Http;

use super::args::Clients;
use super::plan::{Chooser, RoomPlan};
use super::stats::{Latency, Recorder};
use super::ws::{self, Incoming, Legal, Ws};

/// What every room task of a run shares.
#[derive(Debug)]
pub struct Context {
    /// The server (the first node in cluster mode).
    pub addr: SocketAddr,
    /// Every node (one outside cluster mode); a room's clients are spread over them.
    pub addrs: Vec<SocketAddr>,
    /// What the run measured.
    pub recorder: Arc<Recorder>,
    /// Spaces actions out when a rate is set.
    pub pacer: Option<Pacer>,
    /// Rooms whose first match runs (every seat has its opening snapshot).
    pub ready: AtomicUsize,
    /// Becomes true once every room is ready: until then no room sends its first action, so
    /// the rooms set up last do not wait behind the rooms already playing, and the run
    /// measures them all playing at once.
    pub go: watch::Receiver<bool>,
    /// Limits how many rooms set up at once (guests, sockets).
    pub setup: Semaphore,
    /// Names guests uniquely for this run.
    pub run_tag: String,
    /// The node every spectator connects to, when not spread (`--spectators-node`).
    pub spectators_node: Option<usize>,
    /// Where the rest of a room's clients connect (`--clients`).
    pub clients: Clients,
}

/// Hands out send times `1/rate` apart across all rooms.
#[derive(Debug)]
pub struct Pacer {
    period: Duration,
    next: Mutex<Instant>,
}

impl Pacer {
    /// A pacer for `rate` actions per second in total.
    pub fn new(rate: f64) -> Pacer {
        Pacer {
            period: Duration::from_secs_f64(1.0 / rate.max(0.001)),
            next: Mutex::new(Instant::now()),
        }
    }

    /// The next free slot (never in the past: a late caller does not get a burst).
    pub fn slot(&self) -> Instant {
        let mut next = self.next.lock().expect("pacer");
        let slot = (*next).max(Instant::now());
        *next = slot + self.period;
        slot
    }
}

/// When recent actions of one room were sent, by seq (a few, for late readers).
#[derive(Debug, Default)]
struct SentTimes(VecDeque<(u64, Instant)>);

impl SentTimes {
    fn record(&mut self, seq: u64, at: Instant) {
        if self.0.len() == 64 {
            self.0.pop_front();
        }
        self.0.push_back((seq, at));
    }

    /// The latest send of `seq` (a refused action may be followed by another with its seq).
    fn get(&self, seq: u64) -> Option<Instant> {
        self.0
            .iter()
            .rev()
            .find(|(s, _)| *s == seq)
            .map(|(_, t)| *t)
    }
}

/// One room's changing state, shared with its spectators.
#[derive(Debug, Default)]
struct RoomShared {
    sent: Mutex<SentTimes>,
}

/// An action on its way.
#[derive(Debug)]
struct InFlight {
    id: String,
    sent: Instant,
    /// The legal list it was picked from (kept to retry after a refusal).
    legal: Legal,
}

/// One seat's socket and what it knows.
struct Seat {
    sink: SplitSink<Ws, Message>,
    seat: u64,
    seq: u64,
    legal: Option<Legal>,
    in_flight: Option<InFlight>,
    started: bool,
    finished: bool,
}

/// Plays room `n` following `plan` until the task is aborted.
pub async fn room(ctx: Arc<Context>, n: usize, plan: RoomPlan, seed: u64) -> anyhow::Result<()> {
    let node = |k: usize| ctx.addrs[ctx.clients.node_of(n, k, ctx.addrs.len())];
    let http = Http { addr: node(0) };
    let mut chooser = Chooser::new(seed);
    let permit = ctx.setup.acquire().await.context("setup semaphore")?;
    let mut tokens = Vec::new();
    for seat in 0..plan.seats {
        let (_, token) = http.guest(&format!("L{}-{n}-{seat}", ctx.run_tag)).await?;
        tokens.push(token);
    }
    let mut seats = Vec::new();
    let mut streams = SelectAll::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut socket = ws::connect(node(seat), "/ws").await?;
        ws::hello(&mut socket, Some(token)).await?;
        let (sink, stream) = socket.split();
        streams.push(stream.map(move |frame| (seat, frame)));
        seats.push(Seat {
            sink,
            seat: seat as u64,
            seq: 0,
            legal: None,
            in_flight: None,
            started: false,
            finished: false,
        });
    }
    let shared = Arc::new(RoomShared::default());
    let (room_tx, room_rx) = watch::channel(String::new());
    for spectator_n in 0..plan.spectators {
        let addr = match ctx.spectators_node {
            Some(i) => ctx.addrs[i % ctx.addrs.len()],
            None => node(plan.seats + spectator_n),
        };
        let socket = spectator_socket(addr).await?;
        tokio::spawn(spectator(
            ctx.clone(),
            socket,
            room_rx.clone(),
            shared.clone(),
        ));
    }
    drop(permit);

    let mut first = true;
    // Set once this room is ready and until every room is (`Context::go`).
    let mut waiting = false;
    let mut go = ctx.go.clone();
    loop {
        let request = json!({"ruleset": plan.ruleset.id, "seats": plan.seats, "creator_seat": 0});
        let room = super::room_id(&http.room(&tokens[0], &request).await?)?;
        room_tx.send_replace(room.clone());
        for seat in &mut seats {
            seat.seq = 0;
            seat.legal = None;
            seat.in_flight = None;
            seat.started = false;
            seat.finished = false;
            send(&mut seat.sink, &json!({"type": "join", "room": room})).await?;
            if seat.seat > 0 {
                let take = json!({"type": "take_seat", "room": room, "seat": seat.seat});
                send(&mut seat.sink, &take).await?;
            }
        }
        // Play this match to its end.
        let mut due: Option<(usize, Instant)> = None;
        loop {
            let arrived = tokio::select! {
                frame = streams.next() => Some(frame.context("every socket closed")?),
                () = sleep_until_some(due.map(|(_, at)| at)) => {
                    let (index, _) = due.take().expect("a due action");
                    act(&ctx, &shared, &room, &mut seats[index], &mut chooser).await?;
                    continue;
                }
                changed = go.changed(), if waiting => {
                    changed.context("the run ended before it started")?;
                    waiting = !*go.borrow_and_update();
                    None
                }
            };
            if let Some((index, frame)) = arrived {
                let text = match frame {
                    Ok(Message::Text(text)) => text,
                    Ok(other) => {
                        if let Some(code) = ws::close_code(&other) {
                            ctx.recorder.error(&code);
                            anyhow::bail!("room {n}: the server closed a seat's socket ({code})");
                        }
                        continue;
                    }
                    Err(error) => {
                        ctx.recorder.error("socket_error");
                        return Err(error.into());
                    }
                };
                let now = Instant::now();
                ctx.recorder.count(&ctx.recorder.received, 1);
                ctx.recorder
                    .count(&ctx.recorder.received_bytes, text.len() as u64);
                let message = Incoming::parse(text.as_str())?;
                on_message(&ctx, &shared, &room, &mut seats[index], message, now);
                if first && seats.iter().all(|s| s.started) {
                    first = false;
                    ctx.ready.fetch_add(1, Ordering::SeqCst);
                    // Ready: the sockets are still read (pings answered) until every room is.
                    waiting = !*go.borrow_and_update();
                }
            }
            if seats.iter().all(|s| s.finished && s.in_flight.is_none()) {
                break;
            }
            if !waiting
                && due.is_none()
                && let Some(index) = seats.iter().position(can_act)
            {
                match &ctx.pacer {
                    Some(pacer) => due = Some((index, pacer.slot())),
                    None => act(&ctx, &shared, &room, &mut seats[index], &mut chooser).await?,
                }
            }
        }
        ctx.recorder.count(&ctx.recorder.finished, 1);
        for seat in &mut seats {
            send(&mut seat.sink, &json!({"type": "leave", "room": room})).await?;
        }
    }
}

/// True when the seat may send an action now.
fn can_act(seat: &Seat) -> bool {
    seat.legal.is_some() && seat.in_flight.is_none() && !seat.finished
}

/// Updates a seat with a message of the server, recording latencies.
fn on_message(
    ctx: &Context,
    shared: &RoomShared,
    room: &str,
    seat: &mut Seat,
    mut message: Incoming,
    now: Instant,
) {
    let recorder = &ctx.recorder;
    match message.kind.as_str() {
        "snapshot" if message.is_for(room) => {
            seat.seq = message.seq.unwrap_or(0);
            seat.legal = message.legal_actions();
            seat.started = true;
        }
        "applied" if message.is_for(room) => {
            let seq = message.seq.unwrap_or(0);
            seat.seq = seq;
            seat.legal = message.legal_actions();
            if message.seat != Some(seat.seat)
                && let Some(sent) = shared.sent.lock().expect("sent times").get(seq)
            {
                recorder.latency(Latency::Seats, now - sent);
            }
        }
        "ack" => {
            if let Some(in_flight) = seat.in_flight.take_if(|f| message.id == Some(f.id.clone())) {
                recorder.latency(Latency::Ack, now - in_flight.sent);
                recorder.count(&recorder.accepted, 1);
            }
        }
        "error" => {
            recorder.error(message.code.as_deref().unwrap_or("error_without_code"));
            if let Some(in_flight) = seat.in_flight.take_if(|f| message.id == Some(f.id.clone()))
                && seat.legal.is_none()
            {
                // Nothing changed: the list it picked from is still the seat's.
                seat.legal = Some(in_flight.legal);
            }
        }
        "finished" if message.is_for(room) => seat.finished = true,
        _ => {}
    }
}

/// The seat sends a random action of its legal list.
async fn act(
    ctx: &Context,
    shared: &RoomShared,
    room: &str,
    seat: &mut Seat,
    chooser: &mut Chooser,
) -> anyhow::Result<()> {
    if !can_act(seat) {
        return Ok(());
    }
    let Some(legal) = seat.legal.take().filter(|legal| !legal.is_empty()) else {
        ctx.recorder.error("empty_legal_actions");
        return Ok(());
    };
    let action = legal.pick(chooser.below(legal.len()));
    let seq = seat.seq + 1;
    let id = format!("a{seq}");
    let message = json!({"type": "action", "room": room, "id": id, "action": action});
    let sent = Instant::now();
    shared.sent.lock().expect("sent times").record(seq, sent);
    send(&mut seat.sink, &message).await?;
    ctx.recorder.count(&ctx.recorder.sent, 1);
    seat.in_flight = Some(InFlight { id, sent, legal });
    Ok(())
}

/// An anonymous socket, greeted.
async fn spectator_socket(addr: SocketAddr) -> anyhow::Result<Ws> {
    let mut socket = ws::connect(addr, "/ws").await?;
    ws::hello(&mut socket, None).await?;
    Ok(socket)
}

/// A spectator: follows the room its room task plays now, recording when each action reaches it.
async fn spectator(
    ctx: Arc<Context>,
    socket: Ws,
    mut room: watch::Receiver<String>,
    shared: Arc<RoomShared>,
) {
    let (mut sink, mut stream) = socket.split();
    let mut current = String::new();
    loop {
        let wanted = room.borrow_and_update().clone();
        if wanted != current {
            if !current.is_empty() {
                let _ = send(&mut sink, &json!({"type": "leave", "room": current})).await;
            }
            if send(&mut sink, &json!({"type": "join", "room": wanted}))
                .await
                .is_err()
            {
                ctx.recorder.error("spectator_socket_error");
                return;
            }
            current = wanted;
        }
        tokio::select! {
            changed = room.changed() => if changed.is_err() { return },
            frame = stream.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    let now = Instant::now();
                    ctx.recorder.count(&ctx.recorder.received, 1);
                    ctx.recorder.count(&ctx.recorder.received_bytes, text.len() as u64);
                    let Ok(message) = Incoming::parse(text.as_str()) else { continue };
                    match message.kind.as_str() {
                        "applied" if message.is_for(&current) => {
                            let sent = message
                                .seq
                                .and_then(|seq| shared.sent.lock().expect("sent times").get(seq));
                            if let Some(sent) = sent {
                                ctx.recorder.latency(Latency::Spectators, now - sent);
                            }
                        }
                        "error" => ctx.recorder.error(message.code.as_deref().unwrap_or("error")),
                        _ => {}
                    }
                }
                Some(Ok(other)) => if let Some(code) = ws::close_code(&other) {
                    ctx.recorder.error(&code);
                    return;
                },
                Some(Err(_)) | None => {
                    ctx.recorder.error("spectator_socket_error");
                    return;
                }
            },
        }
    }
}

/// Writes one JSON message.
async fn send(sink: &mut SplitSink<Ws, Message>, message: &Value) -> anyhow::Result<()> {
    sink.send(Message::Text(message.to_string().into())).await?;
    Ok(())
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}
