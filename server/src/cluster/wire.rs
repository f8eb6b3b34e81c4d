//! What nodes say to each other over NATS: this module serialises only what crosses nodes (a
//! room's typed `Command` and `Answer` travel as they are).
//!
//! Subjects (`<node>` is a node id, `<room>` a room id):
//! - `warroom.node.<node>.ask`: requests to a node (JSON [`Ask`]), answered with [`Answer`],
//!   except actions ([`Ask::Act`]), published without waiting and answered on the room's
//!   stream ([`ACKS`] on the message carrying the action's `applied` or a later one, or
//!   [`ANSWER`]);
//! - `warroom.node.<node>.acts.<ask>`: an action's reply subject ([`act_reply_subject`]): NATS's
//!   "no responders" when the room's node is gone, an answer when the room is not served there;
//! - `warroom.room.<room>.all`, `.spectators`, `.seat.<n>`, `.direct`: what the node serving
//!   the room sends its followers on other nodes, published by the room's relay
//!   (`relay.rs`) and read by every node following the room through one subscription
//!   (`streams.rs`): one NATS message per viewer class (everyone, the spectators, one seat),
//!   the payload exactly the text to send. `direct` carries what is for some connections only
//!   (header [`TO`]), and the control messages: [`ENTER`] (a connection's class) and
//!   [`CLOSE`] (the room disconnected them). Every message carries [`AT`] (its place in the
//!   room's stream and the node that published it); chat carries [`SPEAKER`]; a
//!   spectators' copy of the match carries [`PACED`] (the reading node paces its sockets);
//!   any message may carry [`ACKS`], and a `direct` one [`ANSWER`] (answers to actions).
//! - `warroom.room.<room>.served`: published once when a node starts serving the room (its
//!   stream's message 0, no payload): the nodes following it tell their connections that
//!   joined through an older owner `room_moved` at once, without waiting for their own look
//!   at the leases.

use async_nats::HeaderName;
use serde::{Deserialize, Serialize};
use warroom_engine::{Seat, Viewer};
use warroom_protocol::{ErrorParams, Room, RoomId};
use warroom_room::{Answer as RoomAnswer, Command};

use crate::error::ApiError;
use crate::room::ConnId;

// Header names are built once, as constants (`HeaderName::from_static`): a name made from a
// `&str` is checked and copied each time, for every message published and every header read.

/// Header, on every message of a room's stream: `<epoch> <stream> <n> <node>`, its place in the
/// stream ([`StreamPosition`]: the lease epoch, the relay's stream within it, its number) and
/// the node that published it ([`At`]). One header rather than four: a header costs a map
/// entry and an allocation on both nodes, for every message.
pub const AT: HeaderName = HeaderName::from_static("Warroom-At");
/// Header: the connections a `direct` message is for, as `node:conn` separated by commas.
pub const TO: HeaderName = HeaderName::from_static("Warroom-To");
/// Header: the `TO` connection is now of this viewer class ([`class_name`]); no payload.
pub const ENTER: HeaderName = HeaderName::from_static("Warroom-Enter");
/// Header: the `TO` connections are disconnected, and why (a close reason code); no payload.
pub const CLOSE: HeaderName = HeaderName::from_static("Warroom-Close");
/// Header (`1`): the message may wait for its socket writer's next pace (a spectators' copy
/// of the match, `Outbox::send_paced`), on the reading node as on the room's own.
pub const PACED: HeaderName = HeaderName::from_static("Warroom-Paced");
/// Header: who said a line of chat (its identity), for the reading node's mutes.
pub const SPEAKER: HeaderName = HeaderName::from_static("Warroom-Speaker");
/// Header, on any message of the stream (one value per action, `node:ask=seq`): actions of
/// connections of other nodes accepted with these seqs ([`Ask::Act`]); the message carries
/// their `applied` or comes after it, and the node named answers each once it delivered the
/// message.
pub const ACKS: HeaderName = HeaderName::from_static("Warroom-Acks");
/// Header (`node:ask`): this message (on `direct`, its payload an [`ActAnswer`] as JSON) is
/// only the answer to that node's action, given apart when no message of the room carries it
/// (a refusal, an action found in the log).
pub const ANSWER: HeaderName = HeaderName::from_static("Warroom-Answer");

/// The answer to an [`Ask::Act`] given apart from the room's messages: its seq, or why not.
pub type ActAnswer = Result<u64, RemoteError>;

/// The subject a node's requests go to.
pub fn ask_subject(node: &str) -> String {
    format!("warroom.node.{node}.ask")
}

/// The subject a node's actions name as their reply (`ask` is the node's number for the
/// action): the room answers on its stream (it has no reason to reply here), NATS tells
/// "no responders" here when the room's node is gone, and the room's node answers here only
/// when the room cannot answer on its stream (it does not run there any more).
pub fn act_reply_subject(node: &str, ask: u64) -> String {
    format!("warroom.node.{node}.acts.{ask}")
}

/// Every action reply subject of `node`, as it subscribes to them.
pub fn act_replies_subject(node: &str) -> String {
    format!("warroom.node.{node}.acts.*")
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

/// The [`AT`] value of a stream message: where it stands and who published it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At<'a> {
    /// The message's place in the room's stream.
    pub position: StreamPosition,
    /// The node that published it.
    pub from: &'a str,
}

impl<'a> At<'a> {
    /// Reads an [`AT`] value (`None`: not one).
    pub fn parse(value: &'a str) -> Option<At<'a>> {
        let mut parts = value.splitn(4, ' ');
        let mut number = || parts.next().and_then(|part| part.parse::<u64>().ok());
        let (epoch, stream, n) = (number()?, number()?, number()?);
        let from = parts.next().filter(|node| valid_node_id(node))?;
        Some(At {
            position: StreamPosition {
                epoch: i64::try_from(epoch).ok()?,
                stream,
                n,
            },
            from,
        })
    }

    /// The [`AT`] value, written number by number (`itoa`): every message of every relayed
    /// stream carries one, and `format!` through `Display` was 38 of the 7,315 perf samples
    /// of two nodes as fast as allowed (bench/RESULTS.md).
    pub fn value(&self) -> String {
        let StreamPosition { epoch, stream, n } = self.position;
        let mut numbers = itoa::Buffer::new();
        let mut value = String::with_capacity(48 + self.from.len());
        value.push_str(numbers.format(epoch));
        value.push(' ');
        value.push_str(numbers.format(stream));
        value.push(' ');
        value.push_str(numbers.format(n));
        value.push(' ');
        value.push_str(self.from);
        value
    }
}

/// True for a node id that fits in a subject: 1 to 64 letters, digits, `-` and `_`.
pub fn valid_node_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A request to a node, as JSON named by its variant (`{"act": {...}}`): serde reads a
/// variant so named straight into its fields, where a tag among the fields (`"kind"`) is read
/// by buffering the whole object first (54 of the 73 perf samples of the loop reading asks
/// with 2 nodes, bench/RESULTS.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// An action of connection `conn` of node `from` for a room this node serves, answered on
    /// the room's stream ([`ACKS`], [`ANSWER`]) instead of a reply: the asking connection does
    /// not wait for it, as an action of a socket of the room's own node does not. `ask` is
    /// the asking node's number for it (its reply subject, [`act_reply_subject`], hears NATS's
    /// "no responders" and the rare answer the room's stream cannot carry).
    Act(Act),
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

/// An action of a connection of another node ([`Ask::Act`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Act {
    /// The room.
    pub room: RoomId,
    /// The connection's node.
    pub from: String,
    /// The connection's id there.
    pub conn: ConnId,
    /// That node's number for this action.
    pub ask: u64,
    /// The client's id for the action.
    pub client_id: String,
    /// The action.
    pub action: serde_json::Value,
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

#[cfg(test)]
mod tests {
    use super::{Act, Ask, At, StreamPosition};
    use warroom_protocol::RoomId;

    #[test]
    fn an_ask_is_named_by_its_variant_and_reads_back_as_written() {
        let room = RoomId::random();
        let act = Ask::Act(Act {
            room,
            from: "b".to_owned(),
            conn: 3,
            ask: 9,
            client_id: "c1".to_owned(),
            action: serde_json::json!({"type": "end_turn"}),
        });
        let text = serde_json::to_string(&act).unwrap();
        assert!(text.starts_with(r#"{"act":{"room":"#), "{text}");
        let Ask::Act(back) = serde_json::from_str::<Ask>(&text).unwrap() else {
            panic!("not an act: {text}");
        };
        assert_eq!((back.ask, back.client_id.as_str()), (9, "c1"));
        assert_eq!(back.action, serde_json::json!({"type": "end_turn"}));
        let summary = serde_json::to_string(&Ask::Summary { room }).unwrap();
        assert!(summary.starts_with(r#"{"summary":{"room":"#), "{summary}");
        assert!(matches!(
            serde_json::from_str::<Ask>(&summary).unwrap(),
            Ask::Summary { room: r } if r == room
        ));
        assert!(serde_json::from_str::<Ask>(r#"{"kind":"summary","room":"x"}"#).is_err());
    }

    #[test]
    fn a_stream_messages_place_and_node_read_back_as_written_and_nothing_else_reads() {
        let position = StreamPosition {
            epoch: 3,
            stream: u64::MAX,
            n: 0,
        };
        let written = At {
            position,
            from: "node-2_b",
        }
        .value();
        assert_eq!(written, format!("3 {} 0 node-2_b", u64::MAX));
        assert_eq!(
            At::parse(&written),
            Some(At {
                position,
                from: "node-2_b"
            })
        );
        for bad in [
            "",
            "3 4 5",
            "3 4 5 ",
            "-1 4 5 a",
            "3 x 5 a",
            "3 4 5 a b",
            "3 4 5 a.b",
        ] {
            assert_eq!(At::parse(bad), None, "{bad:?}");
        }
    }
}
