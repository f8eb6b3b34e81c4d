//! Feeds a room core as its loop does, for tests: each command gets a fresh ask number and its
//! answer is picked out of the outputs (the other outputs stay queued, in order); a write is
//! reported done by its number.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use warroom_engine::Seat;
use warroom_protocol::Identity;

use super::super::{InFlight, Limits, RoomCore, Submitted};
use crate::ConnId;
use crate::error::RoomError;
use crate::input::{Answer, AskId, Command, Input, WriteFailed, WriteId};
use crate::output::{Output, Write};
use crate::records::{Append, RoomRecord};
use crate::runner::rules;

/// The room's entropy in tests: every room starts the same match.
pub const ENTROPY: [u8; 32] = [7; 32];

/// A core over `record` as the server makes one (10 spectators at most), at `now`.
pub fn new_core(record: RoomRecord, now: Instant) -> RoomCore {
    let limits = Limits {
        max_spectators: 10,
        answer_timeout: Duration::from_secs(10),
        ..Limits::default()
    };
    let rules = rules(record.ruleset).unwrap();
    RoomCore::new(record, rules, None, &limits, ENTROPY, (now, 0))
}

static NEXT_ASK: AtomicU64 = AtomicU64::new(1);

/// Feeds `command` of `conn`; its answer if the core gave it now.
pub fn ask(
    core: &mut RoomCore,
    conn: ConnId,
    command: Command,
    now: Instant,
) -> Option<Result<Answer, RoomError>> {
    let ask = NEXT_ASK.fetch_add(1, Ordering::Relaxed);
    core.handle(now, Input::Command { ask, conn, command });
    take_answer(core, ask)
}

/// Asks for `seat` (any free one with `None`) for `conn`, a casual player, and drops what the
/// core queued (the seat's write, or a refusal): the caller settles the write.
pub fn ask_seat(core: &mut RoomCore, conn: ConnId, seat: Option<Seat>, now: Instant) {
    let command = Command::TakeSeat {
        seat,
        may_play_rated: false,
    };
    ask(core, conn, command, now);
    drain(core);
}

/// Takes the answer to `ask` out of the queued outputs, if it is there.
pub fn take_answer(core: &mut RoomCore, ask: AskId) -> Option<Result<Answer, RoomError>> {
    let at = core
        .out
        .iter()
        .position(|output| matches!(output, Output::Answer { ask: a, .. } if *a == ask))?;
    match core.out.remove(at) {
        Some(Output::Answer { result, .. }) => Some(result),
        _ => None,
    }
}

/// Every output queued now, up to the wake-up (left out).
pub fn drain(core: &mut RoomCore) -> Vec<Output> {
    let mut outputs = Vec::new();
    loop {
        match core.poll_output() {
            Output::Wake(_) => return outputs,
            output => outputs.push(output),
        }
    }
}

/// When the core wants to be woken now.
pub fn wake(core: &mut RoomCore) -> Option<Instant> {
    let mut rest = Vec::new();
    let at = loop {
        match core.poll_output() {
            Output::Wake(at) => break at,
            output => rest.push(output),
        }
    };
    core.out.extend(rest);
    at
}

/// `conn` follows the room as `identity`, having seen `last_seq`.
pub fn join(
    core: &mut RoomCore,
    conn: ConnId,
    identity: Option<Identity>,
    last_seq: Option<u64>,
    now: Instant,
) -> Result<(), RoomError> {
    let join = Command::Join {
        identity,
        invite: None,
        last_seq,
        mutes: Vec::new(),
    };
    ask(core, conn, join, now)
        .expect("a join is answered at once")
        .map(|_| ())
}

/// What the core made of a command that submits an action: answered at once (known, or
/// refused), or waiting for the append in flight.
fn submitted(
    core: &RoomCore,
    answer: Option<Result<Answer, RoomError>>,
) -> Result<Submitted, RoomError> {
    match answer {
        Some(Ok(Answer::Seq(seq))) => Ok(Submitted::Known(seq)),
        Some(Ok(other)) => panic!("an action answered {other:?}"),
        Some(Err(error)) => Err(error),
        None => match &core.in_flight {
            Some((_, InFlight::Append { seq, .. })) => Ok(Submitted::Pending(*seq)),
            other => panic!("an action neither answered nor stored: {other:?}"),
        },
    }
}

/// `conn` plays `action` as `client_id`.
pub fn act(
    core: &mut RoomCore,
    conn: ConnId,
    client_id: String,
    action: &Value,
    now: Instant,
) -> Result<Submitted, RoomError> {
    let command = Command::Action {
        client_id,
        action: action.clone(),
    };
    let answer = ask(core, conn, command, now);
    submitted(core, answer)
}

/// `conn` resigns.
pub fn resign(core: &mut RoomCore, conn: ConnId, now: Instant) -> Result<Submitted, RoomError> {
    let answer = ask(core, conn, Command::Resign, now);
    submitted(core, answer)
}

/// `conn` takes its seat back from the bot.
pub fn back(core: &mut RoomCore, conn: ConnId, now: Instant) -> Result<(), RoomError> {
    ask(core, conn, Command::Back, now)
        .expect("`back` is answered at once")
        .map(|_| ())
}

/// The number of the write in flight, if any.
pub fn in_flight_write(core: &RoomCore) -> Option<WriteId> {
    core.in_flight.as_ref().map(|(id, _)| *id)
}

/// Reports the append of `seq` (the write in flight) stored, or failed with `error`; the
/// answer its asker gets (`Ok(seq)` for a bot's or the clock's).
pub fn committed(
    core: &mut RoomCore,
    seq: u64,
    stored: Result<(), &str>,
    now: Instant,
) -> Result<u64, RoomError> {
    let Some((
        id,
        InFlight::Append {
            seq: pending, ask, ..
        },
    )) = &core.in_flight
    else {
        panic!("no append in flight: {:?}", core.in_flight);
    };
    assert_eq!(*pending, seq, "the append in flight");
    let (id, ask) = (*id, *ask);
    let result = stored.map_err(|error| WriteFailed::Refused(RoomError::unavailable(error)));
    core.handle(
        now,
        Input::WriteDone {
            id,
            result: result.clone(),
        },
    );
    let answer = ask.and_then(|ask| take_answer(core, ask));
    match answer {
        Some(answer) => answer.map(|answer| match answer {
            Answer::Seq(seq) => seq,
            other => panic!("an action answered {other:?}"),
        }),
        None => result
            .map(|()| seq)
            .map_err(|_| RoomError::unavailable("not stored")),
    }
}

/// Reports the write in flight done, whatever it is.
pub fn write_done(core: &mut RoomCore, result: Result<(), WriteFailed>, now: Instant) {
    let id = in_flight_write(core).expect("a write in flight");
    core.handle(now, Input::WriteDone { id, result });
}

/// A bot chose `action` for `seat` at `seq`.
pub fn bot_chose(core: &mut RoomCore, seq: u64, seat: Seat, action: Option<Value>, now: Instant) {
    core.handle(now, Input::BotChose { seq, seat, action });
}

/// The append among `output`, if it is one.
pub fn append_of(output: &Output) -> Option<&Append> {
    match output {
        Output::Write {
            write: Write::Append(append),
            ..
        } => Some(append),
        _ => None,
    }
}

/// The writes among `outputs`.
pub fn writes(outputs: &[Output]) -> Vec<&Write> {
    picked!(outputs, Output::Write { write, .. } => write)
}
