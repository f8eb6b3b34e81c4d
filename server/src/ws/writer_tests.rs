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
    writer_with_queue(pace, 256)
}

/// [`writer`] with an outgoing queue of `size` messages.
fn writer_with_queue(pace: Duration, size: usize) -> (Recorder, Outbox, Closer) {
    let socket = Recorder::new();
    let closer = Closer::default();
    let (queue, outgoing) = mpsc::channel(size);
    let outbox = Outbox::telling(queue, closer.token.clone(), closer.kicked.clone());
    tokio::spawn(write_loop(
        socket.clone(),
        Outgoing {
            queue: outgoing,
            urgent: outbox.urgent(),
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
    let (socket, outbox, _closer) = writer_with_queue(Duration::from_secs(10), 8);
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
