//! The generator's WebSocket side: connecting with small buffers (so ten thousand clients cost
//! the generator little memory), and reading only the fields of a server message it needs.

use std::net::SocketAddr;

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};
use warroom_protocol::legal::{self, LegalGroup};

/// One client socket.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The fields of a server message the generator reads (the rest, views included, is skipped
/// without being built).
#[derive(Debug, Default, Deserialize)]
pub struct Incoming {
    /// `type`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The room: its id in match messages, the whole room in `room` messages.
    #[serde(default)]
    pub room: Option<Value>,
    /// `seq` of `snapshot`, `applied` and `ack`.
    #[serde(default)]
    pub seq: Option<u64>,
    /// The acting seat of `applied`.
    #[serde(default)]
    pub seat: Option<u64>,
    /// The client id of `ack` and `error`.
    #[serde(default)]
    pub id: Option<String>,
    /// The code of `error`.
    #[serde(default)]
    pub code: Option<String>,
    /// Present for the seat to act: servers before the grouped form (`legal`) listed them so.
    #[serde(default)]
    legal_actions: Option<Vec<Value>>,
    /// Present for the seat to act, grouped by type (`warroom_protocol::legal`).
    #[serde(default)]
    legal: Option<Vec<LegalGroup>>,
}

/// The legal actions listed for the seat to act. Grouped, they are kept as the server sent them
/// and only the action picked is written out: writing out every one of them (a few hundred in
/// a classic attack step) for one pick was most of the generator's own CPU.
#[derive(Debug)]
pub enum Legal {
    /// One object per action (servers before the grouped form).
    Listed(Vec<Value>),
    /// Grouped by type.
    Grouped(Vec<LegalGroup>),
}

impl Legal {
    /// How many actions are listed.
    pub fn len(&self) -> usize {
        match self {
            Legal::Listed(actions) => actions.len(),
            Legal::Grouped(groups) => legal::count(groups),
        }
    }

    /// True when none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `index`-th action listed.
    pub fn pick(&self, index: usize) -> Option<Value> {
        match self {
            Legal::Listed(actions) => actions.get(index).cloned(),
            Legal::Grouped(groups) => legal::nth(groups, index),
        }
    }
}

impl Incoming {
    /// Parses a text frame.
    pub fn parse(text: &str) -> anyhow::Result<Incoming> {
        serde_json::from_str(text).context("a server message")
    }

    /// The legal actions listed for the seat to act, in either form.
    pub fn legal_actions(&mut self) -> Option<Legal> {
        self.legal_actions
            .take()
            .map(Legal::Listed)
            .or_else(|| self.legal.take().map(Legal::Grouped))
    }

    /// True when the message is about room `id` (match messages carry the id as a string).
    pub fn is_for(&self, id: &str) -> bool {
        self.room.as_ref().and_then(Value::as_str) == Some(id)
    }
}

/// Opens `/ws` (or the echo server's root) with a 4 KiB read buffer and Nagle off.
pub async fn connect(addr: SocketAddr, path: &str) -> anyhow::Result<Ws> {
    let config = WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0);
    let (socket, _) = connect_async_with_config(format!("ws://{addr}{path}"), Some(config), true)
        .await
        .with_context(|| format!("WebSocket connect to {addr}"))?;
    Ok(socket)
}

/// Sends a JSON message.
pub async fn send(socket: &mut Ws, message: &Value) -> anyhow::Result<()> {
    socket
        .send(Message::Text(message.to_string().into()))
        .await?;
    Ok(())
}

/// Says `hello` and waits for `welcome`.
pub async fn hello(socket: &mut Ws, token: Option<&str>) -> anyhow::Result<()> {
    send(socket, &json!({"type": "hello", "token": token})).await?;
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => {
                let message = Incoming::parse(text.as_str())?;
                match message.kind.as_str() {
                    "welcome" => return Ok(()),
                    "error" => bail!("hello refused: {}", text.as_str()),
                    _ => {}
                }
            }
            Some(Ok(_)) => {}
            Some(Err(error)) => return Err(error.into()),
            None => bail!("the socket closed before welcome"),
        }
    }
}

/// A close frame's reason as an error code for the report (`closed:<reason>`).
pub fn close_code(message: &Message) -> Option<String> {
    match message {
        Message::Close(frame) => Some(format!(
            "closed:{}",
            frame
                .as_ref()
                .map(|f| f.reason.to_string())
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| "no_reason".into())
        )),
        _ => None,
    }
}
