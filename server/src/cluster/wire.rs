//! What nodes say to each other over NATS, and the one way a command reaches a room task,
//! whether its connection is on this node or another.
//!
//! Subjects (`<node>` is a node id):
//! - `warroom.node.<node>.ask`: requests to a node (JSON [`Ask`]), answered with [`Answer`];
//! - `warroom.node.<node>.out`: the messages its connections' rooms on other nodes send them,
//!   one NATS message per WebSocket message, the payload exactly the text to send, with the
//!   headers [`CONN`] (the connection's id on that node), [`FROM`] (the sending node) and
//!   [`N`] (the count of messages sent so far from that node to that connection); or, with
//!   [`CLOSE`], the room disconnected it (`room_moved` or `slow_consumer`).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warroom_engine::Seat;
use warroom_protocol::{ErrorParams, Identity, IdentityId, RoomId};

use crate::error::ApiError;
use crate::room::{ConnId, Mutes, Outbox, RoomCmd, RoomHandle};

/// Header: the connection a message is for.
pub const CONN: &str = "Warroom-Conn";
/// Header: the node that sent it.
pub const FROM: &str = "Warroom-From";
/// Header: how many messages that node sent that connection, this one included.
pub const N: &str = "Warroom-N";
/// Header: the connection is disconnected, and why (a close reason code).
pub const CLOSE: &str = "Warroom-Close";

/// The subject a node's requests go to.
pub fn ask_subject(node: &str) -> String {
    format!("warroom.node.{node}.ask")
}

/// The subject a node's followers' messages go to.
pub fn out_subject(node: &str) -> String {
    format!("warroom.node.{node}.out")
}

/// True for a node id that fits in a subject: 1 to 64 letters, digits, `-` and `_`.
pub fn valid_node_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A command for a room, in a form that crosses nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Follow the room (`RoomCmd::Join`).
    Join {
        /// Who, if authenticated.
        identity: Option<Identity>,
        /// A private room's invite code.
        invite: Option<String>,
        /// The last seq the client saw.
        last_seq: Option<u64>,
        /// Whose chat it does not read.
        mutes: Vec<IdentityId>,
    },
    /// Take a seat.
    TakeSeat {
        /// The seat wanted, or any.
        seat: Option<Seat>,
    },
    /// Give the seat back.
    LeaveSeat,
    /// Play an action.
    Action {
        /// The client's id for it.
        client_id: String,
        /// The ruleset's action JSON.
        action: Value,
    },
    /// Resign.
    Resign,
    /// Take a seat back from the bot.
    Back,
    /// Stop following.
    Leave,
    /// Say a line.
    Chat {
        /// The line.
        text: String,
    },
    /// Answer a rematch.
    Rematch {
        /// `false` declines.
        accept: bool,
    },
}

/// A request to a node.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ask {
    /// A command of connection `conn` of node `from` for a room this node serves.
    Room {
        /// The room.
        room: RoomId,
        /// The connection's node.
        from: String,
        /// The connection's id there.
        conn: ConnId,
        /// The command.
        command: Command,
    },
    /// Serve this room (new, placed here by another node): its summary once it runs.
    Adopt {
        /// The room (stored already).
        room: RoomId,
    },
    /// The room as the lobby shows it, with presence.
    Summary {
        /// The room.
        room: RoomId,
    },
}

/// An [`ApiError`] across nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RemoteError {
    /// HTTP status.
    pub status: u16,
    /// Stable code.
    pub code: String,
    /// Readable text.
    pub message: String,
    /// Its values.
    #[serde(default)]
    pub params: Option<ErrorParams>,
}

impl From<ApiError> for RemoteError {
    fn from(error: ApiError) -> Self {
        RemoteError {
            status: error.status.as_u16(),
            code: error.code,
            message: error.message,
            params: error.params,
        }
    }
}

impl From<RemoteError> for ApiError {
    fn from(error: RemoteError) -> Self {
        let status = axum::http::StatusCode::from_u16(error.status)
            .unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        ApiError {
            status,
            code: error.code,
            message: error.message,
            params: error.params,
        }
    }
}

/// A node's answer to an [`Ask`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Answer {
    /// The command's result.
    pub result: Result<Value, RemoteError>,
    /// How many messages the answering node had sent the connection when it answered: they
    /// are delivered before the answer, as on one node.
    #[serde(default)]
    pub after: u64,
}

/// Sends `command` of connection `conn` to a room served here and waits at most `limit` for
/// its answer (seat number, seq, or null). `outbox` and `mutes` are the connection's, used by
/// `Join`.
pub async fn ask_here(
    handle: &RoomHandle,
    conn: ConnId,
    outbox: &Outbox,
    mutes: &Mutes,
    command: Command,
    limit: Duration,
) -> Result<Value, ApiError> {
    fn seq(answer: Result<u64, ApiError>) -> Result<Value, ApiError> {
        answer.map(Value::from)
    }
    fn done(answer: Result<(), ApiError>) -> Result<Value, ApiError> {
        answer.map(|()| Value::Null)
    }
    let asked = async {
        match command {
            Command::Join {
                identity,
                invite,
                last_seq,
                mutes: _,
            } => done(
                handle
                    .ask(|reply| RoomCmd::Join {
                        conn,
                        identity,
                        outbox: outbox.clone(),
                        mutes: mutes.clone(),
                        invite,
                        last_seq,
                        reply,
                    })
                    .await,
            ),
            Command::TakeSeat { seat } => handle
                .ask(|reply| RoomCmd::TakeSeat { conn, seat, reply })
                .await
                .map(|seat| Value::from(seat.0)),
            Command::LeaveSeat => {
                done(handle.ask(|reply| RoomCmd::LeaveSeat { conn, reply }).await)
            }
            Command::Action { client_id, action } => seq(handle
                .ask(|reply| RoomCmd::Action {
                    conn,
                    client_id,
                    action,
                    reply,
                })
                .await),
            Command::Resign => seq(handle.ask(|reply| RoomCmd::Resign { conn, reply }).await),
            Command::Back => done(handle.ask(|reply| RoomCmd::Back { conn, reply }).await),
            Command::Leave => {
                handle.tell(RoomCmd::Leave { conn }).await;
                Ok(Value::Null)
            }
            Command::Chat { text } => done(
                handle
                    .ask(|reply| RoomCmd::Chat { conn, text, reply })
                    .await,
            ),
            Command::Rematch { accept } => done(
                handle
                    .ask(|reply| RoomCmd::Rematch {
                        conn,
                        accept,
                        reply,
                    })
                    .await,
            ),
        }
    };
    match tokio::time::timeout(limit, asked).await {
        Ok(answer) => answer,
        Err(_) => Err(ApiError::unavailable(format!(
            "room {} did not answer within {limit:?}",
            handle.id
        ))),
    }
}
