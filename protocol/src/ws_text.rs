//! [`ServerMsg::write_json`]: a server message as JSON text, written into the caller's buffer.
//! The messages every action sends (`applied`, `ack`) are written by hand, field by field in
//! the order serde derives them, to the same bytes serde_json writes (test
//! `hand_written_messages_are_the_bytes_serde_json_writes`); every other message is written by
//! serde_json. Through serde_json each key is an escape scan and each field a `Serialize` call,
//! which was about 15 k instructions per hexdice action (two `applied` and one `ack`), a ninth of
//! the server's; by hand they are copies of the keys and the values' digits.

use uuid::Uuid;
use warroom_engine::{Outcome, Seat};

use crate::control::ClockState;
use crate::ids::RoomId;
use crate::json_text::{signed, string, unsigned};
use crate::raw::RawJson;
use crate::ws::ServerMsg;

impl ServerMsg {
    /// Writes the message as JSON text at the end of `out`: the text `serde_json::to_writer`
    /// writes.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        match self {
            ServerMsg::Applied {
                room,
                seq,
                seat,
                by,
                action,
                events,
                view,
                patch,
                to_act,
                outcome,
                legal,
                clock,
            } => {
                out.extend_from_slice(br#"{"type":"applied","room":"#);
                room_id(out, *room);
                out.extend_from_slice(br#","seq":"#);
                unsigned(out, *seq);
                out.extend_from_slice(br#","seat":"#);
                unsigned(out, seat.0.into());
                out.extend_from_slice(br#","by":""#);
                // Its serde name.
                out.extend_from_slice(by.as_str().as_bytes());
                out.extend_from_slice(br#"","action":"#);
                raw(out, action);
                out.extend_from_slice(br#","events":"#);
                raw(out, events);
                skipped_if_none(out, br#","view":"#, view.as_ref());
                skipped_if_none(out, br#","patch":"#, patch.as_ref());
                out.extend_from_slice(br#","to_act":"#);
                optional_seat(out, *to_act);
                out.extend_from_slice(br#","outcome":"#);
                match outcome {
                    Some(outcome) => write_outcome(out, outcome),
                    None => out.extend_from_slice(b"null"),
                }
                skipped_if_none(out, br#","legal":"#, legal.as_ref());
                if let Some(clock) = clock {
                    out.extend_from_slice(br#","clock":"#);
                    write_clock(out, clock);
                }
                out.push(b'}');
                Ok(())
            }
            ServerMsg::Ack { room, id, seq } => {
                out.extend_from_slice(br#"{"type":"ack","room":"#);
                room_id(out, *room);
                out.extend_from_slice(br#","id":"#);
                string(out, id);
                out.extend_from_slice(br#","seq":"#);
                unsigned(out, *seq);
                out.push(b'}');
                Ok(())
            }
            other => serde_json::to_writer(out, other),
        }
    }
}

/// A room's id, as the quoted lower-case hyphenated UUID serde writes.
fn room_id(out: &mut Vec<u8>, room: RoomId) {
    let mut buffer = Uuid::encode_buffer();
    out.push(b'"');
    out.extend_from_slice(room.0.hyphenated().encode_lower(&mut buffer).as_bytes());
    out.push(b'"');
}

fn raw(out: &mut Vec<u8>, json: &RawJson) {
    out.extend_from_slice(json.get().as_bytes());
}

/// A field serde skips when it is `None`: its key (with the comma before it) and its text.
fn skipped_if_none(out: &mut Vec<u8>, key: &[u8], json: Option<&RawJson>) {
    if let Some(json) = json {
        out.extend_from_slice(key);
        raw(out, json);
    }
}

fn optional_seat(out: &mut Vec<u8>, seat: Option<Seat>) {
    match seat {
        Some(seat) => unsigned(out, seat.0.into()),
        None => out.extend_from_slice(b"null"),
    }
}

fn optional_unsigned(out: &mut Vec<u8>, value: Option<u64>) {
    match value {
        Some(value) => unsigned(out, value),
        None => out.extend_from_slice(b"null"),
    }
}

fn write_outcome(out: &mut Vec<u8>, outcome: &Outcome) {
    out.extend_from_slice(br#"{"winner":"#);
    unsigned(out, outcome.winner.0.into());
    out.extend_from_slice(br#","reason":"#);
    string(out, &outcome.reason);
    out.push(b'}');
}

fn write_clock(out: &mut Vec<u8>, clock: &ClockState) {
    out.extend_from_slice(br#"{"settings":{"turn_seconds":"#);
    unsigned(out, clock.settings.turn_seconds.into());
    out.extend_from_slice(br#","bank_seconds":"#);
    unsigned(out, clock.settings.bank_seconds.into());
    out.extend_from_slice(br#"},"banks_ms":["#);
    for (index, bank) in clock.banks_ms.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        unsigned(out, *bank);
    }
    out.extend_from_slice(br#"],"seat":"#);
    optional_seat(out, clock.seat);
    out.extend_from_slice(br#","deadline_ms":"#);
    match clock.deadline_ms {
        Some(deadline) => signed(out, deadline),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(br#","left_ms":"#);
    optional_unsigned(out, clock.left_ms);
    out.extend_from_slice(br#","turn_left_ms":"#);
    optional_unsigned(out, clock.turn_left_ms);
    out.extend_from_slice(br#","server_time_ms":"#);
    signed(out, clock.server_time_ms);
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::{ActedBy, ClockSettings};

    /// The hand-written text and serde_json's, byte for byte.
    fn same_as_serde(message: &ServerMsg) {
        let mut out = b"[".to_vec();
        message.write_json(&mut out).unwrap();
        let expected = serde_json::to_string(message).unwrap();
        assert_eq!(
            std::str::from_utf8(&out[1..]).unwrap(),
            expected,
            "{message:?}"
        );
    }

    #[test]
    fn hand_written_messages_are_the_bytes_serde_json_writes() {
        let room = RoomId::random();
        let ids = ["a1", "", "quote \" back \\ tab \t nul \u{0} é 漢 🎲", "x/y"];
        for id in ids {
            for seq in [0, 1, 9, 10, 12_345, u64::MAX] {
                same_as_serde(&ServerMsg::Ack {
                    room,
                    id: id.to_owned(),
                    seq,
                });
            }
        }
        let clocks = [
            None,
            Some(ClockState {
                settings: ClockSettings::NORMAL,
                banks_ms: vec![300_000, 0, 12],
                seat: Some(Seat(1)),
                deadline_ms: Some(1_765_000_000_123),
                left_ms: Some(95_000),
                turn_left_ms: Some(0),
                server_time_ms: 1_765_000_000_000,
            }),
            Some(ClockState {
                settings: ClockSettings {
                    turn_seconds: u32::MAX,
                    bank_seconds: 0,
                },
                banks_ms: Vec::new(),
                seat: None,
                deadline_ms: Some(-5),
                left_ms: None,
                turn_left_ms: None,
                server_time_ms: i64::MIN,
            }),
        ];
        let outcomes = [
            None,
            Some(Outcome {
                winner: Seat(3),
                reason: "no_attacks_left".into(),
            }),
            Some(Outcome {
                winner: Seat(255),
                reason: "odd \"reason\"\n".into(),
            }),
        ];
        let raws = [
            None,
            Some(RawJson::of(
                &serde_json::json!({"cells": [1, {"a": "\"é"}]}),
            )),
        ];
        for by in [ActedBy::Player, ActedBy::Bot, ActedBy::Clock] {
            for clock in &clocks {
                for outcome in &outcomes {
                    for (view, patch, legal) in [
                        (&raws[0], &raws[1], &raws[1]),
                        (&raws[1], &raws[0], &raws[0]),
                        (&raws[1], &raws[1], &raws[1]),
                        (&raws[0], &raws[0], &raws[0]),
                    ] {
                        for to_act in [None, Some(Seat(0)), Some(Seat(17))] {
                            same_as_serde(&ServerMsg::Applied {
                                room,
                                seq: 42,
                                seat: Seat(2),
                                by,
                                action: RawJson::of(&serde_json::json!({"type": "move", "to": 3})),
                                events: RawJson::of(&serde_json::json!([])),
                                view: view.clone(),
                                patch: patch.clone(),
                                to_act,
                                outcome: outcome.clone(),
                                legal: legal.clone(),
                                clock: clock.clone(),
                            });
                        }
                    }
                }
            }
        }
        // Every other message goes through serde_json.
        same_as_serde(&ServerMsg::Pong);
    }
}
