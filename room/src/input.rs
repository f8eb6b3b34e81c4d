//! What goes into a room core: [`Input`], fed to [`crate::RoomCore::handle`] with the time it
//! happened. A command carries its typed arguments and an [`AskId`] the core answers exactly
//! once ([`crate::Output::Answer`]); a write the core asked for comes back as
//! [`Input::WriteDone`] with its [`WriteId`].

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warroom_engine::Seat;
use warroom_protocol::{Identity, IdentityId};

use crate::ConnId;
use crate::error::RoomError;

/// The loop's number for one command, answered once by [`crate::Output::Answer`].
pub type AskId = u64;

/// The core's number for one write, reported back by [`Input::WriteDone`].
pub type WriteId = u64;

/// One thing that happened to the room.
#[derive(Debug)]
pub enum Input {
    /// The loop starts serving the room (new, or rebuilt after a restart): whatever a bot, the
    /// clock or a full room must do now is asked for.
    Resume,
    /// A connection's command.
    Command {
        /// The loop's number for it: the answer names it.
        ask: AskId,
        /// The connection (of this node or another).
        conn: ConnId,
        /// What it asks.
        command: Command,
    },
    /// Time has come: whatever fell due is acted on (the core said when, with
    /// [`crate::Output::Wake`]).
    Timeout,
    /// A bot chose `action` for `seat` when the match was at `seq` (`None`: it found nothing).
    BotChose {
        /// The seq it was asked at (a later answer is stale).
        seq: u64,
        /// The seat it plays.
        seat: Seat,
        /// Its action.
        action: Option<Value>,
    },
    /// A write the core asked for is done.
    WriteDone {
        /// Which.
        id: WriteId,
        /// Stored, or why not.
        result: Result<(), WriteFailed>,
    },
    /// A connection can no longer be reached (its queue is full or closed, or its node's relay
    /// dropped it): it follows the room no more.
    Gone {
        /// The connection.
        conn: ConnId,
    },
    /// The room is served elsewhere from now on (cluster mode: its lease was lost, or this node
    /// hands it over as it stops): every follower is told to join again.
    Moved,
}

/// A connection's command, typed. It crosses nodes as it is (`cluster::wire`), so it is
/// serialisable; on one node it is never serialised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Follow the room (and catch up from `last_seq`).
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
    /// Take a seat before the start (any free one when `seat` is `None`).
    TakeSeat {
        /// The seat wanted.
        seat: Option<Seat>,
        /// Whether the identity has finished enough matches to play rated (the server looks it
        /// up; a rated room refuses the seat otherwise, `not_yet_rated`).
        #[serde(default)]
        may_play_rated: bool,
    },
    /// Give the seat back before the start.
    LeaveSeat,
    /// Play an action.
    Action {
        /// The client's id for it.
        client_id: String,
        /// The ruleset's action JSON.
        action: Value,
    },
    /// Resign (G-RESIGN-1).
    Resign,
    /// Take back a seat a bot plays while its player was away.
    Back,
    /// Stop following the room.
    Leave,
    /// Say a line of chat.
    Chat {
        /// What it says.
        text: String,
    },
    /// After the end: a seated player's answer to a rematch.
    Rematch {
        /// `false` declines.
        accept: bool,
    },
    /// Whose chat the connection does not read from now on.
    Mutes {
        /// The muted identities.
        muted: Vec<IdentityId>,
    },
}

/// What the room answers a command that it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Answer {
    /// Done.
    Done,
    /// The seat taken.
    Seat(Seat),
    /// The seq of the action (or resignation), durable.
    Seq(u64),
}

/// Why a write was not done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteFailed {
    /// The room's lease is no longer this node's: nothing was written, the room stops here.
    Moved,
    /// The log holds another action at this seq: the room's memory is behind its log, so it
    /// stops here and is loaded again.
    Behind,
    /// The database refused or failed (the error the asker gets).
    Refused(RoomError),
}
