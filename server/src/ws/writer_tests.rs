//! The writer's pace, on paused time: what a socket is sent, and when each flush happens.

use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};

use tokio::time::{Instant, sleep, sleep_until};

use super::*;
use crate::room::Outbox;

/// One flush: milliseconds since the socket was made, and the messages it wrote.
type Flush = (u64, Vec<String>);

/// A socket that records what it was sent and when it was flushed.
#[derive(Clone)]
struct Recorder {
    since: Instant,
    /// Messages fed since the last flush.
    pending: Arc<Mutex<Vec<String>>>,
    /// Each flush.
    flushes: Arc<Mutex<Vec<Flush>>>,
}

impl Recorder {
    fn new() -> Recorder {
        Recorder {
            since: Instant::now(),
            pending: Arc::default(),
            flushes: Arc::default(),
        }
    }

    fn flushes(&self) -> Vec<Flush> {
        self.flushes.lock().unwrap().clone()
    }
}

impl Sink<Message> for Recorder {
    type Error = axum::Error;

    fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
        Poll::Ready(Ok(()))
    }

    fn start_send(self: Pin<&mut Self>, message: Message) -> Result<(), axum::Error> {
        if let Message::Text(text) = message {
            self.pending.lock().unwrap().push(text.to_string());
        }
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
        let written = std::mem::take(&mut *self.pending.lock().unwrap());
        if !written.is_empty() {
            let at = u64::try_from(self.since.elapsed().as_millis()).unwrap();
            self.flushes.lock().unwrap().push((at, written));
        }
        Poll::Ready(Ok(()))
    }

    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
        Poll::Ready(Ok(()))
    }
}

/// A writer with this pace over a recording socket, and the outbox rooms would fill.
fn writer(pace: Duration) -> (Recorder, Outbox, Closer) {
    writer_with_queue(Pace::exact(pace), 256)
}

/// [`writer`] with any [`Pace`] and an outgoing queue of `size` messages.
fn writer_with_queue(pace: Pace, size: usize) -> (Recorder, Outbox, Closer) {
    let socket = Recorder::new();
    let closer = Closer::default();
    let (queue, outgoing) = mpsc::channel(size);
    let outbox = Outbox::telling(queue, closer.token.clone(), closer.kicked.clone());
    tokio::spawn(write_loop(
        socket.clone(),
        Outgoing {
            queue: outgoing,
            signals: outbox.signals(),
            pace,
        },
        closer.clone(),
        CancellationToken::new(),
        Duration::from_secs(3600),
        Arc::new(Metrics::default()),
    ));
    (socket, outbox, closer)
}

fn texts(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

#[tokio::test(start_paused = true)]
async fn spectators_messages_wait_for_the_pace_then_go_out_in_one_flush() {
    let (socket, outbox, _closer) = writer(Duration::from_millis(100));
    let start = socket.since;
    outbox.send_paced("a".into()).unwrap();
    sleep_until(start + Duration::from_millis(10)).await;
    for name in ["b", "c", "d"] {
        outbox.send_paced(name.into()).unwrap();
        sleep(Duration::from_millis(5)).await;
    }
    sleep_until(start + Duration::from_millis(99)).await;
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"]))],
        "the first is written at once, the rest wait"
    );
    sleep_until(start + Duration::from_millis(150)).await;
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"])), (100, texts(&["b", "c", "d"]))]
    );
}

#[tokio::test(start_paused = true)]
async fn an_urgent_message_ends_the_pace_and_keeps_the_order() {
    let (socket, outbox, _closer) = writer(Duration::from_millis(100));
    let start = socket.since;
    outbox.send_paced("a".into()).unwrap();
    sleep_until(start + Duration::from_millis(10)).await;
    outbox.send_paced("b".into()).unwrap();
    sleep_until(start + Duration::from_millis(20)).await;
    outbox.send_text("ack".into()).unwrap();
    sleep_until(start + Duration::from_millis(30)).await;
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"])), (20, texts(&["b", "ack"]))]
    );
}

#[tokio::test(start_paused = true)]
async fn urgent_messages_never_wait() {
    let (socket, outbox, _closer) = writer(Duration::from_millis(100));
    let start = socket.since;
    for (at, name) in [(0, "a"), (10, "b"), (20, "c")] {
        sleep_until(start + Duration::from_millis(at)).await;
        outbox.send_text(name.into()).unwrap();
    }
    sleep_until(start + Duration::from_millis(30)).await;
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"])), (10, texts(&["b"])), (20, texts(&["c"]))]
    );
}

#[tokio::test(start_paused = true)]
async fn a_write_of_urgent_messages_only_starts_no_pace() {
    let (socket, outbox, _closer) = writer(Duration::from_millis(100));
    let start = socket.since;
    outbox.send_text("ack".into()).unwrap();
    sleep_until(start + Duration::from_millis(10)).await;
    // Nothing paced was written: this one goes at once, and starts the pace...
    outbox.send_paced("a".into()).unwrap();
    sleep_until(start + Duration::from_millis(20)).await;
    // ...which this one waits out.
    outbox.send_paced("b".into()).unwrap();
    sleep_until(start + Duration::from_millis(150)).await;
    assert_eq!(
        socket.flushes(),
        vec![
            (0, texts(&["ack"])),
            (10, texts(&["a"])),
            (110, texts(&["b"]))
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_pace_spectators_messages_are_written_at_once() {
    let (socket, outbox, _closer) = writer(Duration::ZERO);
    let start = socket.since;
    for (at, name) in [(0, "a"), (10, "b")] {
        sleep_until(start + Duration::from_millis(at)).await;
        outbox.send_paced(name.into()).unwrap();
    }
    sleep_until(start + Duration::from_millis(20)).await;
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"])), (10, texts(&["b"]))]
    );
}

#[tokio::test(start_paused = true)]
async fn a_connection_closed_while_it_waits_out_its_pace_closes_at_once() {
    let (socket, outbox, closer) = writer(Duration::from_secs(10));
    outbox.send_paced("a".into()).unwrap();
    sleep(Duration::from_millis(10)).await;
    outbox.send_paced("b".into()).unwrap();
    closer.close(CloseReason::Dead);
    sleep(Duration::from_millis(10)).await;
    assert!(outbox.is_gone());
    assert_eq!(socket.flushes(), vec![(0, texts(&["a"]))]);
}

#[tokio::test(start_paused = true)]
async fn a_queue_half_taken_by_paced_messages_is_written_at_once() {
    let (socket, outbox, _closer) = writer_with_queue(Pace::exact(Duration::from_secs(10)), 8);
    let start = socket.since;
    outbox.send_paced("a".into()).unwrap();
    sleep_until(start + Duration::from_millis(10)).await;
    for name in ["b", "c", "d", "e", "f"] {
        outbox.send_paced(name.into()).unwrap();
        sleep(Duration::from_millis(1)).await;
    }
    assert!(!outbox.is_gone());
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"])), (14, texts(&["b", "c", "d", "e", "f"]))],
        "the fifth message leaves 3 of 8 places free: the writer is woken"
    );
}

#[test]
fn a_spread_pace_waits_between_half_and_one_and_a_half_paces_and_a_pace_on_average() {
    let every = Duration::from_millis(100);
    let mut pace = Pace::spread(every, 7);
    let waits: Vec<Duration> = (0..10_000).map(|_| pace.next_wait()).collect();
    assert!(
        waits
            .iter()
            .all(|wait| (every / 2..every * 3 / 2).contains(wait))
    );
    let mean = waits.iter().sum::<Duration>() / 10_000;
    assert!(
        (Duration::from_millis(98)..Duration::from_millis(102)).contains(&mean),
        "mean wait {mean:?}"
    );
    let tenths = |wait: &Duration| (wait.as_millis() / 10) as usize;
    let mut per_tenth = [0; 15];
    waits.iter().for_each(|wait| per_tenth[tenths(wait)] += 1);
    assert!(
        per_tenth[5..].iter().all(|n| (800..1200).contains(n)),
        "evenly drawn: {per_tenth:?}"
    );
    let mut next = Pace::spread(every, 8);
    assert_ne!(
        waits[..4],
        (0..4).map(|_| next.next_wait()).collect::<Vec<_>>()[..],
        "another seed, other waits"
    );
    let mut exact = Pace::exact(every);
    assert_eq!(exact.next_wait(), every);
}

/// Twenty spectators' writers of one match (seeds 1..=20) sent the match's messages every 5 ms
/// for two seconds: for each, the milliseconds (since the first message) of its flushes in the
/// second second.
async fn flushes_of_twenty_spectators(pace: impl Fn(u64) -> Pace) -> Vec<Vec<u64>> {
    let writers: Vec<(Recorder, Outbox, Closer)> = (1..=20)
        .map(|seed| writer_with_queue(pace(seed), 1024))
        .collect();
    let start = writers[0].0.since;
    for step in 0..400 {
        sleep_until(start + Duration::from_millis(step * 5)).await;
        for (_, outbox, _) in &writers {
            outbox.send_paced(format!("m{step}").into()).unwrap();
        }
    }
    sleep_until(start + Duration::from_millis(2000)).await;
    writers
        .iter()
        .map(|(socket, _, _)| {
            socket
                .flushes()
                .into_iter()
                .map(|(at, _)| at)
                .filter(|at| *at >= 1000)
                .collect()
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn the_spectators_of_a_match_write_in_step_with_an_exact_pace_and_apart_with_a_spread_one() {
    let every = Duration::from_millis(100);
    // The most of the twenty that flushed in one millisecond, and every flush's time.
    let busiest = |flushes: &[Vec<u64>]| {
        let mut at: Vec<u64> = flushes.iter().flatten().copied().collect();
        at.sort_unstable();
        let most = at
            .chunk_by(|a, b| a == b)
            .map(<[u64]>::len)
            .max()
            .unwrap_or(0);
        (most, at.len())
    };
    let exact = flushes_of_twenty_spectators(|_| Pace::exact(every)).await;
    let (most, flushes) = busiest(&exact);
    assert_eq!(most, 20, "in step: all twenty write together");
    assert_eq!(flushes, 20 * 10, "ten flushes each in a second");
    let spread = flushes_of_twenty_spectators(|seed| Pace::spread(every, seed)).await;
    let (most, flushes) = busiest(&spread);
    assert!(
        most <= 3,
        "at most 3 of 20 write in the same millisecond: {most}"
    );
    assert!(
        (180..=220).contains(&flushes),
        "about ten flushes each in a second: {flushes}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_connection_kicked_because_its_room_moved_is_sent_what_was_queued_before_the_close() {
    let (socket, outbox, _closer) = writer(Duration::from_secs(10));
    outbox.send_paced("a".into()).unwrap();
    sleep(Duration::from_millis(10)).await;
    // The node queues the `room_moved` error, then kicks: both while the writer waits its pace.
    outbox.send_paced("b".into()).unwrap();
    outbox.send_text("room_moved".into()).unwrap();
    outbox.kick(crate::room::Kick::Moved);
    sleep(Duration::from_millis(10)).await;
    assert_eq!(
        socket.flushes(),
        vec![(0, texts(&["a"])), (10, texts(&["b", "room_moved"]))]
    );
}
