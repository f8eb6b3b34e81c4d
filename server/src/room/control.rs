//! Who plays each seat of a running match, sans-IO like the rest of the core: a bot seat (held
//! by a computer identity from the start), a seat whose player resigned (3 or more players), a
//! seat whose player is away (`absence.rs`: disconnected past the grace period, or timed out
//! twice in a row; until they come back), or a person. When a bot is to act, the core asks the loop for its decision with a [`BotTurn`]:
//! the loop waits the room's bot delay, runs the job away from the room (a blocking thread, so a
//! slow decision never stalls the room) and feeds the action back with
//! [`RoomCore::bot_moved`], where it goes through the same validation and log as a person's.

use std::fmt;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;
use warroom_engine::{BotLevel, Seat};
use warroom_protocol::{ActedBy, Takeover};

use super::core::{RoomCore, Submission};
use super::output::Output;
use crate::bots::bot_level;
use crate::runner::BotJob;

/// The level of a bot playing for a person (resigned or abandoned seats).
pub const STAND_IN_LEVEL: BotLevel = BotLevel::Normal;

/// A bot is to act: the loop runs `job` after `delay` and reports with
/// [`RoomCore::bot_moved`].
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

impl RoomCore {
    /// The bot level playing `seat` now, if a bot plays it.
    pub(super) fn bot_for(&self, seat: Seat) -> Option<BotLevel> {
        let holder = self.record.seats.get(seat.index())?.as_ref()?;
        if let Some(level) = bot_level(holder.id) {
            return Some(level);
        }
        self.takeover(seat).map(|_| STAND_IN_LEVEL)
    }

    /// True when a bot holds one of the seats from the start.
    pub fn has_bot_seat(&self) -> bool {
        self.record
            .seats
            .iter()
            .flatten()
            .any(|holder| bot_level(holder.id).is_some())
    }

    /// Why a bot plays this person's seat now, if it does.
    pub(super) fn takeover(&self, seat: Seat) -> Option<Takeover> {
        let game = self.game.as_ref()?;
        if game.runner.has_resigned(seat) {
            return Some(Takeover::Resigned);
        }
        self.absences.taken(seat)
    }

    /// Every seat's takeover, in seat order (for the room as followers see it).
    pub(super) fn takeovers(&self) -> Vec<Option<Takeover>> {
        (0..self.record.seats.len())
            .map(|seat| self.takeover(Seat(u8::try_from(seat).unwrap_or(u8::MAX))))
            .collect()
    }

    /// Asks the loop for a bot's decision when a bot is to act and nothing is in flight.
    pub(super) fn schedule_bot(&mut self) {
        if self.is_pending() {
            return;
        }
        let Some(game) = &self.game else { return };
        let Some(seat) = game.runner.to_act() else {
            return;
        };
        let seq = game.runner.seq();
        if self.bot_asked == Some(seq) {
            return;
        }
        let Some(level) = self.bot_for(seat) else {
            return;
        };
        let job = game.runner.bot_job(level);
        self.bot_asked = Some(seq);
        self.out.push_back(Output::Bot(BotTurn {
            seq,
            seat,
            delay: Duration::from_millis(u64::from(self.record.settings.bot_delay_ms)),
            job,
        }));
    }

    /// A bot's decision for `seat` as of `seq`: played like a person's action if the match is
    /// still where it was and a bot still plays the seat (a player who came back, or an action
    /// that came first, makes it stale).
    pub fn bot_moved(&mut self, seq: u64, seat: Seat, action: Option<Value>, now: Instant) {
        let current = self
            .game
            .as_ref()
            .is_some_and(|game| game.runner.seq() == seq && game.runner.to_act() == Some(seat));
        if !current || self.bot_for(seat).is_none() || self.is_pending() {
            if self.bot_asked == Some(seq) {
                self.bot_asked = None;
            }
            self.schedule_bot();
            return;
        }
        let Some(action) = action else {
            tracing::error!(
                "room {}: the bot found no action for seat {seat}",
                self.id()
            );
            return;
        };
        let client_id = format!("server:bot:{}", seq + 1);
        if let Err(error) = self.submit(
            seat,
            client_id,
            Submission::Rules(&action),
            ActedBy::Bot,
            now,
        ) {
            // A bot only plays listed actions, so this is a bug: say so and let the clock act.
            tracing::error!(
                "room {}: the bot's action {action} for seat {seat} is refused: {error}",
                self.id()
            );
        }
    }
}
