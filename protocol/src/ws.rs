//! The WebSocket messages, named by direction: [`ClientMsg`] (browser → server) and
//! [`ServerMsg`] (server → browser). One JSON text frame each; `type` names the message.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warroom_engine::{Outcome, Seat};

use crate::ErrorBody;
use crate::chat::{ChatLine, Rematch};
use crate::codes;
use crate::control::{ActedBy, ClockState};
use crate::ids::{IdentityId, RoomId};
use crate::raw::RawJson;
use crate::rest::{Identity, Room};

/// A message from a client.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
// ts-rs cannot read the serde line above (deny_unknown_fields on an enum) and drops it whole, so
// it is told the tagging again.
#[cfg_attr(test, ts(tag = "type", rename_all = "snake_case"))]
pub enum ClientMsg {
    /// First message: who this connection is (no token: an anonymous spectator).
    Hello {
        /// The bearer token of a guest identity.
        #[serde(default)]
        token: Option<String>,
    },
    /// Follow a room, as its seated player if this identity holds a seat, else as a spectator.
    Join {
        /// Which room.
        room: RoomId,
        /// A private room's invite code.
        #[serde(default)]
        invite: Option<String>,
        /// The last `seq` this client saw: the server sends only what came after it.
        #[serde(default)]
        #[cfg_attr(test, ts(type = "number | null"))]
        last_seq: Option<u64>,
    },
    /// Before the start: take a free seat (any if none is named).
    TakeSeat {
        /// Which room.
        room: RoomId,
        /// The seat wanted.
        #[serde(default)]
        #[cfg_attr(test, ts(type = "number | null"))]
        seat: Option<Seat>,
    },
    /// Before the start: give the seat back.
    LeaveSeat {
        /// Which room.
        room: RoomId,
    },
    /// Play an action of the room's ruleset.
    Action {
        /// Which room.
        room: RoomId,
        /// A client-chosen id: resending it never applies the action twice.
        id: String,
        /// The ruleset's action JSON.
        #[cfg_attr(test, ts(type = "any"))]
        action: Value,
    },
    /// Resign, at any time (not only on one's turn): with two seats the other seat wins at once
    /// (reason `opponent_resigned`); with more, a bot plays the seat to the end of the match.
    Resign {
        /// Which room.
        room: RoomId,
    },
    /// The owner of a seat a bot plays because they were away (`takeover` `disconnected` or
    /// `timed_out`) takes it back at once (any action of theirs does too).
    Back {
        /// Which room.
        room: RoomId,
    },
    /// Stop following a room.
    Leave {
        /// Which room.
        room: RoomId,
    },
    /// Say something in a followed room (seated players in the players' chat, anyone else in
    /// the spectators').
    Chat {
        /// Which room.
        room: RoomId,
        /// 1–300 characters, no control characters.
        text: String,
    },
    /// Stop (or start again) reading an identity's chat, in every room.
    Mute {
        /// Whose chat.
        player: IdentityId,
        /// `false` unmutes.
        muted: bool,
    },
    /// After the end: a seated player wants (or does not want) a rematch.
    Rematch {
        /// Which room.
        room: RoomId,
        /// `false` declines.
        accept: bool,
    },
    /// Keep-alive.
    Ping,
}

impl ClientMsg {
    /// Parses one text frame. Never panics: anything that is not a known message becomes a
    /// `malformed_message` error saying what is wrong.
    ///
    /// An `action` (what a player sends most) is read first as exactly its four fields, straight
    /// into place; anything else, and any action that does not read so, is read as any message
    /// (serde reads an internally tagged message into a buffer of its own first, which was
    /// about half of the instructions of reading an action).
    pub fn parse(text: &str) -> Result<ClientMsg, ErrorBody> {
        if let Ok(action) = serde_json::from_str::<ActionMsg>(text) {
            return Ok(ClientMsg::Action {
                room: action.room,
                id: action.id,
                action: action.action,
            });
        }
        serde_json::from_str(text).map_err(|error| {
            ErrorBody::new(
                codes::MALFORMED_MESSAGE,
                format!("not a valid client message: {error}"),
            )
        })
    }
}

/// [`ClientMsg::Action`] as its own struct: `type` (which must be `action`), `room`, `id` and
/// `action`, each once, and nothing else. Whatever reads as this reads as the same
/// `ClientMsg::Action` (test `an_action_reads_the_same_through_either_path`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionMsg {
    #[serde(rename = "type")]
    _type: ActionTag,
    room: RoomId,
    id: String,
    action: Value,
}

/// The one `type` [`ActionMsg`] takes.
#[derive(Deserialize)]
enum ActionTag {
    #[serde(rename = "action")]
    Action,
}

/// A message from the server.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`.
    Welcome {
        /// Who the server takes this connection for (`null`: anonymous).
        identity: Option<Identity>,
    },
    /// The room changed (seats, presence, state); also sent on join.
    Room {
        /// The room as this connection may see it.
        room: Room,
    },
    /// The whole visible state of a room's match as of `seq`.
    Snapshot {
        /// Which room.
        room: RoomId,
        /// Accepted actions so far (0: just after setup).
        #[cfg_attr(test, ts(type = "number"))]
        seq: u64,
        /// The seat this connection plays, if any.
        #[cfg_attr(test, ts(type = "number | null"))]
        seat: Option<Seat>,
        /// The ruleset's view for this connection.
        #[cfg_attr(test, ts(type = "any"))]
        view: RawJson,
        /// Whose decision the match waits for.
        #[cfg_attr(test, ts(type = "number | null"))]
        to_act: Option<Seat>,
        /// How it ended, once it has.
        #[cfg_attr(test, ts(type = "{ winner: number, reason: string } | null"))]
        outcome: Option<Outcome>,
        /// SHA-256 of the match seed.
        seed_commitment: String,
        /// The seed, once the match is over.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        seed: Option<String>,
        /// Every action this connection's seat may take now (only when it is to act), grouped by
        /// type ([`crate::legal`]; `legal::expand` writes them out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        #[cfg_attr(test, ts(type = "Array<LegalGroup>"))]
        legal: Option<RawJson>,
        /// The clock as of this message, when the room has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        clock: Option<ClockState>,
    },
    /// One accepted action and what it did, as this connection may see it.
    Applied {
        /// Which room.
        room: RoomId,
        /// The action's sequence number, from 1.
        #[cfg_attr(test, ts(type = "number"))]
        seq: u64,
        /// Which seat it was played for.
        #[cfg_attr(test, ts(type = "number"))]
        seat: Seat,
        /// Who took it: the seat's player, a bot, or the clock.
        #[serde(default)]
        by: ActedBy,
        /// The ruleset's action JSON, or `{"type": "resign"}`.
        #[cfg_attr(test, ts(type = "any"))]
        action: RawJson,
        /// The events it caused, redacted for this connection.
        #[cfg_attr(test, ts(type = "Array<any>"))]
        events: RawJson,
        /// The view after it, for this connection, whole but for its static parts; absent when
        /// `patch` is sent instead.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        #[cfg_attr(test, ts(type = "any"))]
        view: Option<RawJson>,
        /// What changed in this connection's view since `seq - 1` ([`crate::patch`]), sent
        /// instead of `view` when the server knows the connection holds that view.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        #[cfg_attr(test, ts(type = "Array<[Array<string | number>, any?]>"))]
        patch: Option<RawJson>,
        /// Whose decision the match waits for now.
        #[cfg_attr(test, ts(type = "number | null"))]
        to_act: Option<Seat>,
        /// How it ended, once it has.
        #[cfg_attr(test, ts(type = "{ winner: number, reason: string } | null"))]
        outcome: Option<Outcome>,
        /// Every action this connection's seat may take now (only when it is to act), grouped by
        /// type ([`crate::legal`]; `legal::expand` writes them out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        #[cfg_attr(test, ts(type = "Array<LegalGroup>"))]
        legal: Option<RawJson>,
        /// The clock as of this message, when the room has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        clock: Option<ClockState>,
    },
    /// Your action is durable and applied as `seq`.
    Ack {
        /// Which room.
        room: RoomId,
        /// The client's id for the action.
        id: String,
        /// Its sequence number.
        #[cfg_attr(test, ts(type = "number"))]
        seq: u64,
    },
    /// Something was refused; nothing changed.
    Error {
        /// The room concerned, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        room: Option<RoomId>,
        /// The client's action id, for a refused action.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        id: Option<String>,
        /// Stable machine code.
        code: String,
        /// Readable explanation (English).
        message: String,
        /// The values the message speaks of, by name (see [`ErrorBody::params`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional, type = "Record<string, number>"))]
        params: Option<crate::ErrorParams>,
    },
    /// The match is over; its seed is revealed.
    Finished {
        /// Which room.
        room: RoomId,
        /// How it ended.
        #[cfg_attr(test, ts(type = "{ winner: number, reason: string } | null"))]
        outcome: Outcome,
        /// The seed, 64 hex digits.
        seed: String,
    },
    /// A line of chat this connection may read.
    Chat {
        /// Which room.
        room: RoomId,
        /// The line.
        line: ChatLine,
    },
    /// On join: the room's chat so far that this connection may read (the last 100 lines).
    ChatHistory {
        /// Which room.
        room: RoomId,
        /// Oldest first.
        lines: Vec<ChatLine>,
    },
    /// The identities whose chat this connection's identity does not read (after `hello` when
    /// there are any, and in answer to `mute`).
    Muted {
        /// Muted identities.
        players: Vec<IdentityId>,
    },
    /// A finished room's rematch: who accepted, who declined, and the new room once agreed.
    Rematch {
        /// Which room.
        room: RoomId,
        /// Its state.
        rematch: Rematch,
    },
    /// The answer to `ping`.
    Pong,
}

impl ServerMsg {
    /// An error message about a room (or about the connection when `room` is `None`).
    pub fn error(room: Option<RoomId>, id: Option<String>, body: ErrorBody) -> ServerMsg {
        ServerMsg::Error {
            room,
            id,
            code: body.code,
            message: body.message,
            params: body.params,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_from_their_documented_form() {
        let room = RoomId::random();
        let text = format!(r#"{{"type":"join","room":"{room}","last_seq":12}}"#);
        assert_eq!(
            ClientMsg::parse(&text),
            Ok(ClientMsg::Join {
                room,
                invite: None,
                last_seq: Some(12)
            })
        );
        assert_eq!(ClientMsg::parse(r#"{"type":"ping"}"#), Ok(ClientMsg::Ping));
        let text = format!(r#"{{"type":"chat","room":"{room}","text":"gg"}}"#);
        assert_eq!(
            ClientMsg::parse(&text),
            Ok(ClientMsg::Chat {
                room,
                text: "gg".into()
            })
        );
        let text = format!(r#"{{"type":"resign","room":"{room}"}}"#);
        assert_eq!(ClientMsg::parse(&text), Ok(ClientMsg::Resign { room }));
        let text = format!(r#"{{"type":"back","room":"{room}"}}"#);
        assert_eq!(ClientMsg::parse(&text), Ok(ClientMsg::Back { room }));
        let text = format!(r#"{{"type":"rematch","room":"{room}","accept":false}}"#);
        assert_eq!(
            ClientMsg::parse(&text),
            Ok(ClientMsg::Rematch {
                room,
                accept: false
            })
        );
        let player = IdentityId::random();
        let text = format!(r#"{{"type":"mute","player":"{player}","muted":true}}"#);
        assert_eq!(
            ClientMsg::parse(&text),
            Ok(ClientMsg::Mute {
                player,
                muted: true
            })
        );
        assert_eq!(
            ClientMsg::parse(r#"{"type":"hello","token":null}"#),
            Ok(ClientMsg::Hello { token: None })
        );
    }

    #[test]
    fn unknown_input_is_an_error_value_never_a_panic() {
        for text in [
            "",
            "{",
            "[]",
            "null",
            r#"{"type":"dance"}"#,
            r#"{"type":"join","room":"not-a-uuid"}"#,
            r#"{"type":"hello","token":null,"extra":1}"#,
            r#"{"type":"action","id":"x"}"#,
            "\u{0}\u{ffff}",
        ] {
            let error = ClientMsg::parse(text).unwrap_err();
            assert_eq!(error.code, codes::MALFORMED_MESSAGE, "{text}");
            assert!(!error.message.is_empty());
        }
    }

    #[test]
    fn an_action_reads_the_same_through_either_path() {
        let room = RoomId::random();
        let texts = [
            format!(
                r#"{{"type":"action","room":"{room}","id":"a1","action":{{"type":"move","to":3}}}}"#
            ),
            format!(
                r#"{{"action":{{"to":[1,2.5,-3,18446744073709551615,{{"x":null}}]}},"id":"é\"\u0000","room":"{room}","type":"action"}}"#
            ),
            format!(
                r#"{{ "type" : "action" , "room" : "{room}" , "id" : "" , "action" : "end_turn" }}"#
            ),
            format!(r#"{{"type":"action","room":"{room}","id":"a","action":{{"a":1,"a":2}}}}"#),
            format!(r#"{{"type":"action","room":"{room}","id":"a","action":null}}"#),
            format!(r#"{{"type":"action","room":"{room}","id":"a","action":1,"extra":2}}"#),
            format!(r#"{{"type":"action","room":"{room}","id":"a","id":"b","action":1}}"#),
            format!(r#"{{"type":"action","type":"action","room":"{room}","id":"a","action":1}}"#),
            format!(r#"{{"type":"Action","room":"{room}","id":"a","action":1}}"#),
            format!(r#"{{"type":"action","room":"{room}","id":7,"action":1}}"#),
            format!(r#"{{"type":"action","room":"{room}","id":"a"}}"#),
            format!(r#"{{"type":"action","room":"{room}","id":"a","action":1}} "#),
            format!(r#"{{"type":"action","room":"{room}","id":"a","action":1}}x"#),
            r#"{"type":"action","room":"nope","id":"a","action":1}"#.to_owned(),
            format!(r#"{{"type":"leave","room":"{room}"}}"#),
        ];
        for text in &texts {
            let full = serde_json::from_str::<ClientMsg>(text).map_err(|error| error.to_string());
            let parsed = ClientMsg::parse(text).map_err(|error| error.message);
            match (&parsed, &full) {
                (Ok(parsed), Ok(full)) => assert_eq!(parsed, full, "{text}"),
                (Err(parsed), Err(full)) => {
                    assert_eq!(parsed, &format!("not a valid client message: {full}"))
                }
                _ => panic!("{text}: {parsed:?} against {full:?}"),
            }
        }
    }

    #[test]
    fn server_messages_carry_their_type_tag() {
        let json = serde_json::to_value(ServerMsg::Pong).unwrap();
        assert_eq!(json, serde_json::json!({"type": "pong"}));
        let error = ServerMsg::error(None, None, ErrorBody::new("busy", "try again"));
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"type": "error", "code": "busy", "message": "try again"})
        );
    }
}
