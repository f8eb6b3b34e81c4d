//! What nodes say to each other over NATS: this module serialises only what crosses nodes (a
//! room's typed `Command` and `Answer` travel as they are).
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
//! - `warroom.room.<room>.served`: published once when a node starts serving the room (its
//!   stream's message 0, no payload): the nodes following it tell their connections that
//!   joined through an older owner `room_moved` at once, without waiting for their own look
//!   at the leases.

use serde::{Deserialize, Serialize};
use warroom_engine::{Seat, Viewer};
use warroom_protocol::{ErrorParams, Room, RoomId};
use warroom_room::{Answer as RoomAnswer, Command};

use crate::error::ApiError;
use crate::room::ConnId;

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
        /// The command, as the room takes it.
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
    /// The command's result (`Done` for a summary or an adoption, whose payload is apart).
    pub result: Result<RoomAnswer, RemoteError>,
    /// Where the room's stream stood when the room answered: the connection's node delivers
    /// what it read of the stream up to there before the answer, as on one node.
    #[serde(default)]
    pub after: Option<StreamPosition>,
    /// A summary's room, or an adopted room's summary.
    #[serde(default)]
    pub room: Option<Room>,
}
