//! What nodes say to each other over NATS, and the one way a command reaches a room task,
//! whether its connection is on this node or another.
//!
//! Subjects (`<node>` is a node id, `<room>` a room id):
//! - `warroom.node.<node>.ask`: requests to a node (JSON [`Ask`]), answered with [`Answer`];
//! - `warroom.room.<room>.all`, `.spectators`, `.seat.<n>`, `.direct`: what the node serving
//!   the room sends its followers on other nodes, published by the room's relay
//!   (`relay.rs`) and read by every node following the room through one subscription
//!   (`streams.rs`): one NATS message per viewer class (everyone, the spectators, one seat),
//!   the payload exactly the text to send. `direct` carries what is for some connections only
//!   (header [`TO`]), and the control messages: [`ENTER`] (a connection's class) and
//!   [`CLOSE`] (the room disconnected them). Every message carries [`FROM`], [`EPOCH`],
//!   [`STREAM`] and [`N`] (its place in the room's stream); chat carries [`SPEAKER`]; a
//!   spectators' copy of the match carries [`PACED`] (the reading node paces its sockets).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warroom_engine::{Seat, Viewer};
use warroom_protocol::{ErrorParams, Identity, IdentityId, RoomId};

use crate::error::ApiError;
use crate::room::{ConnId, Mutes, RoomCmd, RoomHandle, Via};

/// Header: the node that published it.
pub const FROM: &str = "Warroom-From";
/// Header: the lease epoch under which the room's node serves it.
pub const EPOCH: &str = "Warroom-Epoch";
/// Header: the room task's stream (random, one per relay) within that epoch.
pub const STREAM: &str = "Warroom-Stream";
/// Header: how many messages the room's relay published in its stream, this one included.
pub const N: &str = "Warroom-N";
/// Header: the connections a `direct` message is for, as `node:conn` separated by commas.
pub const TO: &str = "Warroom-To";
/// Header: the `TO` connection is now of this viewer class ([`class_name`]); no payload.
pub const ENTER: &str = "Warroom-Enter";
/// Header: the `TO` connections are disconnected, and why (a close reason code); no payload.
pub const CLOSE: &str = "Warroom-Close";
/// Header (`1`): the message may wait for its socket writer's next pace (a spectators' copy
/// of the match, `Outbox::send_paced`), on the reading node as on the room's own.
pub const PACED: &str = "Warroom-Paced";
/// Header: who said a line of chat (its identity), for the reading node's mutes.
pub const SPEAKER: &str = "Warroom-Speaker";

/// The subject a node's requests go to.
pub fn ask_subject(node: &str) -> String {
    format!("warroom.node.{node}.ask")
}

/// The subjects of one room's stream, and the wildcard that follows them all.
pub fn room_subject(room: RoomId, suffix: &str) -> String {
    format!("warroom.room.{room}.{suffix}")
}

/// A viewer class as a subject suffix and [`ENTER`] value: `spectators` or `seat.<n>`.
pub fn class_name(class: Viewer) -> String {
    match class {
        Viewer::Spectator => "spectators".to_owned(),
        Viewer::Seat(seat) => format!("seat.{}", seat.0),
    }
}

/// The viewer class a [`class_name`] names.
pub fn parse_class(name: &str) -> Option<Viewer> {
    match name {
        "spectators" => Some(Viewer::Spectator),
        _ => name
            .strip_prefix("seat.")
            .and_then(|n| n.parse().ok())
            .map(|n| Viewer::Seat(Seat(n))),
    }
}

/// Where a room's stream stands: the epoch and stream it is published in, and how many
/// messages were published in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamPosition {
    /// The lease epoch.
    pub epoch: i64,
    /// The relay's stream within it.
    pub stream: u64,
    /// Messages published so far.
    pub n: u64,
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
    /// Where the room's stream stood when the room answered: the connection's node delivers
    /// what it read of the stream up to there before the answer, as on one node.
    #[serde(default)]
    pub after: Option<StreamPosition>,
}

/// Sends `command` of connection `conn` to a room served here and waits at most `limit` for
/// its answer (seat number, seq, or null). `via` (where its messages go) and `mutes` are the
/// connection's, used by `Join`.
pub async fn ask_here(
    handle: &RoomHandle,
    conn: ConnId,
    via: &Via,
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
                        via: via.clone(),
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
                    reply: crate::room::ActionReply::Wait(reply),
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
