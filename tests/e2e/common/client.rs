//! A real WebSocket client (tokio-tungstenite) that records every message it receives, so tests
//! can both wait for one message and scan all of them afterwards.

use std::collections::HashMap;
use std::net::SocketAddr;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

use super::WAIT;

/// A check run on every message as it arrives.
pub type Inspector = Box<dyn FnMut(&Value) + Send>;

/// One socket.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every JSON message received so far, in order (while `keep` is true).
    pub received: Vec<Value>,
    /// Whether to keep each message in `received`; long matches checked message by message
    /// (see `inspect`) turn it off so a test's memory stays small.
    pub keep: bool,
    /// Called with every message as it arrives.
    pub inspect: Option<Inspector>,
    /// The close frame's reason, once the server closed the socket.
    pub closed: Option<String>,
    /// Per room, the seq and view (without its static parts) of the last match message, which
    /// the next `applied`'s patch applies to.
    pub views: HashMap<String, (u64, Value)>,
    /// How many `applied` messages came with a patch, and how many with a whole view.
    pub patched: usize,
    /// See `patched`.
    pub whole: usize,
}

impl Client {
    /// Opens `/ws`.
    pub async fn connect(addr: SocketAddr) -> Client {
        let (socket, _) = connect_async_with_config(format!("ws://{addr}/ws"), None, true)
            .await
            .expect("WebSocket connect");
        Client {
            socket,
            received: Vec::new(),
            keep: true,
            inspect: None,
            closed: None,
            views: HashMap::new(),
            patched: 0,
            whole: 0,
        }
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, message: &Value) {
        self.send_raw(Message::Text(message.to_string().into()))
            .await;
    }

    /// Sends a JSON message; false when the socket is closed (the server may have closed it).
    pub async fn try_send(&mut self, message: &Value) -> bool {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await
            .is_ok()
    }

    /// Sends any frame.
    pub async fn send_raw(&mut self, message: Message) {
        self.socket.send(message).await.expect("send");
    }

    /// The next JSON message (fails the test after [`WAIT`]); `None` once the socket closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let Ok(frame) = tokio::time::timeout(WAIT, self.socket.next()).await else {
                let recent: Vec<String> = self
                    .received
                    .iter()
                    .rev()
                    .take(3)
                    .map(|m| m.to_string().chars().take(300).collect())
                    .collect();
                panic!("no message within {WAIT:?}; the last ones were {recent:#?}");
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let mut value: Value =
                        serde_json::from_str(text.as_str()).expect("server sends JSON");
                    self.track_view(&mut value);
                    if let Some(inspect) = &mut self.inspect {
                        inspect(&value);
                    }
                    if self.keep {
                        self.received.push(value.clone());
                    }
                    return Some(value);
                }
                Some(Ok(Message::Close(frame))) => {
                    self.closed = Some(frame.map(|f| f.reason.to_string()).unwrap_or_default());
                    return None;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Keeps the view of each room's match as its messages say it, and gives an `applied` that
    /// came with a patch its patched view under `view` (so every test reads whole views). A
    /// patch must apply to the view of the seq just before it: the server sends one only when
    /// it knows this connection holds that view (docs/PROTOCOL.md "View patches").
    fn track_view(&mut self, message: &mut Value) {
        let Some(room) = message["room"].as_str().map(str::to_owned) else {
            return;
        };
        let seq = message["seq"].as_u64();
        match (message["type"].as_str(), seq) {
            (Some("snapshot"), Some(seq)) => {
                let mut view = message["view"].clone();
                warroom_server::runner::strip_static_parts(&mut view);
                self.views.insert(room, (seq, view));
            }
            (Some("applied"), Some(seq)) if message.get("patch").is_some() => {
                assert!(
                    message.get("view").is_none(),
                    "a patch or a view, not both: {message}"
                );
                let Some((held, view)) = self.views.get_mut(&room) else {
                    panic!("a patch without a base view: {message}");
                };
                assert_eq!(*held + 1, seq, "a patch on another seq's view: {message}");
                warroom_protocol::patch::apply(view, &message["patch"])
                    .unwrap_or_else(|error| panic!("{error} ({message})"));
                *held = seq;
                message["view"] = view.clone();
                self.patched += 1;
            }
            (Some("applied"), Some(seq)) => {
                self.views.insert(room, (seq, message["view"].clone()));
                self.whole += 1;
            }
            _ => {}
        }
    }

    /// Reads until a message matching `wanted`, which it returns.
    pub async fn until(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            match self.next().await {
                Some(message) if wanted(&message) => return message,
                Some(_) => {}
                None => panic!("socket closed while waiting for {what}"),
            }
        }
    }

    /// Reads until a message of this `type`.
    pub async fn until_type(&mut self, kind: &str) -> Value {
        self.until(kind, |m| m["type"] == kind).await
    }

    /// Reads until an error message, returning its code.
    pub async fn error_code(&mut self) -> String {
        let error = self.until_type("error").await;
        error["code"].as_str().expect("code").to_owned()
    }

    /// Sends `hello` and waits for `welcome` (or an error for a bad token).
    pub async fn hello(&mut self, token: Option<&str>) -> Value {
        self.send(&json!({"type": "hello", "token": token})).await;
        self.until("welcome or error", |m| {
            m["type"] == "welcome" || m["type"] == "error"
        })
        .await
    }

    /// Joins a room and waits for its `room` message.
    pub async fn join(&mut self, room: &str, last_seq: Option<u64>) -> Value {
        self.send(&json!({"type": "join", "room": room, "last_seq": last_seq}))
            .await;
        self.until("room", |m| m["type"] == "room" || m["type"] == "error")
            .await
    }

    /// Runs `check` on every message received so far and, from now on, on each as it arrives,
    /// keeping none (a long match checked message by message).
    pub fn check_every_message(&mut self, mut check: impl FnMut(&Value) + Send + 'static) {
        for message in &self.received {
            check(message);
        }
        self.received.clear();
        self.keep = false;
        self.inspect = Some(Box::new(check));
    }

    /// Asks for `seat` of `room` (the first free one when `None`); answers nothing.
    pub async fn take_seat(&mut self, room: &str, seat: Option<u64>) {
        let mut message = json!({"type": "take_seat", "room": room});
        if let Some(seat) = seat {
            message["seat"] = json!(seat);
        }
        self.send(&message).await;
    }

    /// Joins `room`, takes `seat` there ([`Client::take_seat`]) and waits until the server has
    /// handled both.
    pub async fn sit(&mut self, room: &str, seat: Option<u64>) {
        self.join(room, None).await;
        self.take_seat(room, seat).await;
        self.sync().await;
    }

    /// Round-trips a ping: every message sent before it has been handled when the pong arrives.
    pub async fn sync(&mut self) {
        self.send(&json!({"type": "ping"})).await;
        self.until_type("pong").await;
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
