//! Who plays each seat of a running match, sans-IO like the rest of the core: a bot seat (held
//! by a computer identity from the start), a seat whose player resigned (3 or more players), a
//! seat whose player is away (`absence.rs`: disconnected past the grace period, or timed out
//! twice in a row; until they come back), or a person. When a bot is to act, the core asks the loop for its decision with a [`BotTurn`]:
//! the loop waits the room's bot delay, runs the job away from the room (a blocking thread, so a
//! slow decision never stalls the room) and feeds the action back with
//! `Input::BotChose`, where it goes through the same validation and log as a person's.

use std::fmt;
use std::time::Duration;

use warroom_engine::{BotLevel, Seat};

use crate::runner::BotJob;

/// The level of a bot playing for a person (resigned or abandoned seats).
pub const STAND_IN_LEVEL: BotLevel = BotLevel::Normal;

/// A bot is to act: the loop runs `job` after `delay` and reports with
/// `Input::BotChose`.
pub struct BotTurn {
    /// The match's seq when it was asked (a later answer is stale).
    pub seq: u64,
    /// The seat it plays.
    pub seat: Seat,
    /// How long to wait first (the room's bot delay).
    pub delay: Duration,
    /// The decision, to run on a blocking thread.
    pub job: BotJob,
}

impl fmt::Debug for BotTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotTurn")
            .field("seq", &self.seq)
            .field("seat", &self.seat)
            .field("delay", &self.delay)
            .finish_non_exhaustive()
    }
}
