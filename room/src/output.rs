//! What comes out of a room core: [`Output`], taken in order with
//! [`crate::RoomCore::poll_output`] until it says [`Output::Wake`]. The core never does IO: the
//! loop delivers messages, carries out writes (reporting each with `Input::WriteDone`), runs
//! bots' decisions and publishes the lobby's copy of the room.

use std::time::Instant;

use warroom_protocol::{ChatLine, MatchId, Room, RoomId, ServerMsg};

use crate::control::BotTurn;
use crate::error::RoomError;
use crate::input::{Answer, AskId, WriteId};
use crate::records::{Append, MatchRecord, RoomRecord};
use crate::seats::SeatChange;

/// One thing for the room loop to do, in order.
#[derive(Debug)]
pub enum Output {
    /// Send `message` to each of these connections (one viewer class: they all see the same).
    Send {
        /// Who gets it.
        to: Vec<crate::ConnId>,
        /// What they get.
        message: ServerMsg,
        /// It may wait on its way out (a spectators' copy of the match: their sockets are
        /// written a few times a second), so a room watched by many keeps its players' latency.
        paced: bool,
    },
    /// The answer to a command (given once, after the messages the command caused).
    Answer {
        /// The command's number.
        ask: AskId,
        /// Done, or why not.
        result: Result<Answer, RoomError>,
    },
    /// Make this durable, then report with `Input::WriteDone { id, .. }`.
    Write {
        /// The write's number.
        id: WriteId,
        /// What to write.
        write: Write,
    },
    /// The room as the lobby shows it changed.
    Summary(Room),
    /// A bot is to act: wait its delay, run its decision off the room, and report with
    /// `Input::BotChose`.
    Bot(BotTurn),
    /// The room has been idle for its eviction time: it may leave memory (the loop does so
    /// unless a command is waiting for it).
    Evict,
    /// The room stops serving here (its lease moved on, or its log holds an action its memory
    /// does not): its followers were told `room_moved`; disconnect them and stop.
    Moved,
    /// Nothing more for now: call `handle(Input::Timeout)` at this instant, if any, or when the
    /// next input comes.
    Wake(Option<Instant>),
}

/// Everything a room writes to the store, each fenced by its lease in cluster mode.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// An accepted action (durable before anyone hears of it).
    Append(Append),
    /// A seat taken or given back before the start.
    Seat {
        /// The room.
        room: RoomId,
        /// The change.
        change: SeatChange,
    },
    /// A line of chat, with the match it belongs to and when it was said (Unix milliseconds).
    ChatLine {
        /// The room.
        room: RoomId,
        /// Its match, if one started.
        match_id: Option<MatchId>,
        /// The line.
        line: ChatLine,
        /// Unix milliseconds.
        at_ms: i64,
    },
    /// The rematch room the players agreed on, stored with its seats and linked from `from`.
    Rematch {
        /// The finished room.
        from: RoomId,
        /// The new room.
        record: RoomRecord,
    },
    /// The match set up when every seat was taken.
    Start(MatchRecord),
    /// The waiting room waited empty too long: it is closed.
    Expiry {
        /// The room.
        room: RoomId,
    },
}
