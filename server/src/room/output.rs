//! What the room core asks of its loop. The core never does IO: it queues these, and the loop
//! delivers messages, stores appends and publishes the lobby's copy, then feeds back what
//! happened (a commit's result, a connection that is gone).

use warroom_protocol::{Room, ServerMsg};

use super::ConnId;
use super::control::BotTurn;
use crate::store::writer::Append;

/// One thing for the room loop to do, in order.
#[derive(Debug)]
pub enum Output {
    /// Send `message` to each of these connections (one viewer class: they all see the same).
    Send {
        /// Who gets it.
        to: Vec<ConnId>,
        /// What they get.
        message: ServerMsg,
        /// It may wait on its way out (a spectators' copy of the match: their sockets are
        /// written a few times a second, `Outbox::send_paced`), so a room watched by many
        /// keeps its players' latency.
        paced: bool,
    },
    /// The room as the lobby shows it changed.
    Summary(Room),
    /// Make this accepted action durable, then report with `RoomCore::committed`. The core
    /// queues at most one at a time and waits for its result before applying anything else.
    Append(Append),
    /// A bot is to act: wait its delay, run its decision off the room, and report with
    /// `RoomCore::bot_moved`.
    Bot(BotTurn),
}
