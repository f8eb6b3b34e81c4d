//! The room core, sans-IO (the shape of quinn-proto's `Connection` and str0m's `Rtc`): a room's
//! seats, followers, match, clock, chat and the views last sent, driven by inputs and giving
//! outputs, with no awaits, no IO and no clock of its own. The server's room loop owns the
//! channels, the timer, the store and the sockets, feeds the core and carries out what it asks.
//!
//! This crate depends on no async runtime, web framework or database: the compiler keeps it
//! pure.

mod absence;
pub mod bots;
mod catch_up;
pub mod chat;
pub mod clock;
mod control;
pub mod core;
pub mod error;
mod eviction;
mod expiry;
#[doc(hidden)]
pub mod fixtures;
mod followers;
pub mod game;
pub mod input;
pub mod output;
pub mod placings;
mod presence;
pub mod records;
pub mod rematch;
pub mod runner;
pub mod seats;
pub mod summary;
mod views;

pub use absence::timed_out_in_log;
pub use control::BotTurn;
pub use core::{Limits, RoomCore};
pub use error::{ErrorKind, RoomError};
pub use followers::Followers;
pub use input::{Answer, AskId, Command, Input, WriteFailed, WriteId};
pub use output::{Output, Write};
pub use records::{ActionRecord, Append, MatchRecord, RoomRecord, rfc3339};

/// A connection's id, unique within the server process.
pub type ConnId = u64;
