//! The match clock, sans-IO: each seat has a bank; the seat to act has its turn time, then its
//! bank. The clock covers a seat's whole turn (every decision until another seat is to act).
//! Time left over is not kept. The core tells it who is to act and when ([`Clock::observe`]);
//! the room loop sleeps until [`Clock::deadline`], and then the core takes the ruleset's timeout
//! action for that seat.
//!
//! What a restart needs ([`StoredClock`]) is stored with every action: each bank, the time the
//! seat to act had left right after that action, and when that was (Unix milliseconds). A
//! restarted room resumes from the last one, counting the time since it was stored, so the seat
//! to act keeps the wall-clock deadline it had (a crash gives no time back, a crash loop no
//! unlimited time). Every turn starts with a stored action, but the first, which starts with the
//! match (stored with its start time: [`StoredClock::at_start`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use std::time::Instant;
use warroom_engine::Seat;
use warroom_protocol::{ClockSettings, ClockState};

/// The clock of one running match.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// Turn and bank lengths.
    settings: ClockSettings,
    /// Each seat's bank left (for the seat to act: as it was when its turn began).
    banks: Vec<Duration>,
    /// The running turn.
    turn: Option<Turn>,
    /// Turns each seat lost to its clock in a row.
    timeouts_in_a_row: Vec<u8>,
}

/// The turn of the seat to act.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Turn {
    /// Whose turn.
    seat: Seat,
    /// When its turn time is spent (its bank runs from then).
    turn_ends: Instant,
    /// When its bank is spent too: the clock runs out.
    deadline: Instant,
    /// True once the clock ran out on this turn (its timeout actions are being taken).
    timed_out: bool,
    /// Once it ran out: when to take the timeout action again if it has not ended the turn.
    retry_at: Option<Instant>,
}

/// How long after a timeout action that did not end the turn (refused, or not stored) the
/// clock tries again.
const TIMEOUT_RETRY: Duration = Duration::from_secs(1);

/// What is stored with each action so that a restart resumes the clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredClock {
    /// Each seat's bank left, in milliseconds.
    pub banks_ms: Vec<u64>,
    /// The seat to act right after the action.
    pub seat: Option<Seat>,
    /// Its turn time left then.
    pub turn_left_ms: u64,
    /// Turns each seat lost to its clock in a row.
    #[serde(default)]
    pub timeouts_in_a_row: Vec<u8>,
    /// When it was stored (Unix milliseconds); absent in clocks stored by earlier versions,
    /// which resume as if no time had passed since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<i64>,
}

impl StoredClock {
    /// The clock of a match that started at `started_ms` with no action stored yet: full banks,
    /// `to_act`'s whole turn from the start.
    pub fn at_start(
        settings: ClockSettings,
        seats: usize,
        to_act: Option<Seat>,
        started_ms: i64,
    ) -> StoredClock {
        StoredClock {
            banks_ms: vec![u64::from(settings.bank_seconds) * 1000; seats],
            seat: to_act,
            turn_left_ms: u64::from(settings.turn_seconds) * 1000,
            timeouts_in_a_row: vec![0; seats],
            at_ms: Some(started_ms),
        }
    }
}

fn ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Clock {
    /// A fresh clock for `seats` seats (full banks, nobody's turn yet).
    pub fn new(settings: ClockSettings, seats: usize) -> Clock {
        Clock {
            settings,
            banks: vec![Duration::from_secs(u64::from(settings.bank_seconds)); seats],
            turn: None,
            timeouts_in_a_row: vec![0; seats],
        }
    }

    /// The clock as it was stored with the last action, running again at `now` (`now_ms` in Unix
    /// milliseconds) with the deadline it had: the time since it was stored is spent, first
    /// from the turn time, then from the seat's bank (a deadline already past runs out at once).
    pub fn resume(
        settings: ClockSettings,
        stored: &StoredClock,
        now: Instant,
        now_ms: i64,
    ) -> Clock {
        let seats = stored.banks_ms.len();
        let mut clock = Clock {
            settings,
            banks: stored
                .banks_ms
                .iter()
                .map(|&bank| Duration::from_millis(bank))
                .collect(),
            turn: None,
            timeouts_in_a_row: stored.timeouts_in_a_row.clone(),
        };
        clock.timeouts_in_a_row.resize(seats, 0);
        if let Some(seat) = stored.seat {
            let since = stored
                .at_ms
                .map_or(0, |at| now_ms.saturating_sub(at).max(0));
            let since = u64::try_from(since).unwrap_or(0);
            let turn_left = stored.turn_left_ms.saturating_sub(since);
            let from_bank = Duration::from_millis(since.saturating_sub(stored.turn_left_ms));
            if let Some(bank) = clock.banks.get_mut(seat.index()) {
                *bank = bank.saturating_sub(from_bank);
            }
            let turn_ends = now + Duration::from_millis(turn_left);
            clock.turn = Some(Turn {
                seat,
                turn_ends,
                deadline: turn_ends + clock.bank(seat),
                timed_out: false,
                retry_at: None,
            });
        }
        clock
    }

    fn bank(&self, seat: Seat) -> Duration {
        self.banks.get(seat.index()).copied().unwrap_or_default()
    }

    fn turn_time(&self) -> Duration {
        Duration::from_secs(u64::from(self.settings.turn_seconds))
    }

    /// `to_act` is to act as of `now`: a new turn starts when the seat changes; the seat whose
    /// turn ended keeps what is left of its bank (and its timeout streak ends unless the clock
    /// ended that turn).
    pub fn observe(&mut self, to_act: Option<Seat>, now: Instant) {
        if self.turn.map(|turn| turn.seat) == to_act {
            return;
        }
        if let Some(turn) = self.turn.take() {
            let left = if now <= turn.turn_ends {
                turn.deadline - turn.turn_ends
            } else {
                turn.deadline.saturating_duration_since(now)
            };
            if let Some(bank) = self.banks.get_mut(turn.seat.index()) {
                *bank = if turn.timed_out { Duration::ZERO } else { left };
            }
            if let Some(streak) = self.timeouts_in_a_row.get_mut(turn.seat.index()) {
                *streak = if turn.timed_out {
                    streak.saturating_add(1)
                } else {
                    0
                };
            }
        }
        self.turn = to_act.map(|seat| {
            let turn_ends = now + self.turn_time();
            Turn {
                seat,
                turn_ends,
                deadline: turn_ends + self.bank(seat),
                timed_out: false,
                retry_at: None,
            }
        });
    }

    /// When the room loop must next look at the clock: the seat to act's deadline, or once it has
    /// run out on this turn, the next retry (the rest of that turn is driven by the commits of its
    /// timeout actions; a timeout action that could not be taken or stored is tried again a
    /// second later, so no deadline stays in the past for the loop to spin on).
    pub fn deadline(&self) -> Option<Instant> {
        self.turn.map(|turn| turn.retry_at.unwrap_or(turn.deadline))
    }

    /// The seat whose time has run out at `now`, if any: it is marked timed out (its bank is
    /// spent) until its turn ends.
    pub fn expired(&mut self, now: Instant) -> Option<Seat> {
        let turn = self.turn.as_mut()?;
        if now < turn.retry_at.unwrap_or(turn.deadline) {
            return None;
        }
        turn.timed_out = true;
        turn.retry_at = Some(now + TIMEOUT_RETRY);
        Some(turn.seat)
    }

    /// True while the seat to act's turn is one the clock ran out on.
    pub fn timing_out(&self) -> Option<Seat> {
        self.turn
            .filter(|turn| turn.timed_out)
            .map(|turn| turn.seat)
    }

    /// Turns `seat` lost to its clock in a row (the turn running now not counted).
    pub fn timeouts_in_a_row(&self, seat: Seat) -> u8 {
        self.timeouts_in_a_row
            .get(seat.index())
            .copied()
            .unwrap_or(0)
    }

    /// Forgets `seat`'s timeout streak (its player is back).
    pub fn forgive(&mut self, seat: Seat) {
        if let Some(streak) = self.timeouts_in_a_row.get_mut(seat.index()) {
            *streak = 0;
        }
    }

    /// What to store with an action taken at `now` (`now_ms` in Unix milliseconds).
    pub fn stored(&self, now: Instant, now_ms: i64) -> StoredClock {
        StoredClock {
            banks_ms: self.banks_now(now),
            seat: self.turn.map(|turn| turn.seat),
            turn_left_ms: self
                .turn
                .map_or(0, |turn| ms(turn.turn_ends.saturating_duration_since(now))),
            timeouts_in_a_row: self.timeouts_in_a_row.clone(),
            at_ms: Some(now_ms),
        }
    }

    /// Each seat's bank left at `now` (the seat to act's runs down once its turn time is spent).
    fn banks_now(&self, now: Instant) -> Vec<u64> {
        self.banks
            .iter()
            .enumerate()
            .map(|(seat, &bank)| match self.turn {
                Some(turn) if turn.seat.index() == seat => {
                    if turn.timed_out {
                        0
                    } else if now <= turn.turn_ends {
                        ms(bank)
                    } else {
                        ms(turn.deadline.saturating_duration_since(now))
                    }
                }
                _ => ms(bank),
            })
            .collect()
    }

    /// The clock as the wire shows it at `now` (`wall` turns an instant into Unix milliseconds).
    pub fn state(&self, now: Instant, wall: impl Fn(Instant) -> i64) -> ClockState {
        ClockState {
            settings: self.settings,
            banks_ms: self.banks_now(now),
            seat: self.turn.map(|turn| turn.seat),
            deadline_ms: self.turn.map(|turn| wall(turn.deadline)),
            left_ms: self
                .turn
                .map(|turn| ms(turn.deadline.saturating_duration_since(now))),
            turn_left_ms: self
                .turn
                .map(|turn| ms(turn.turn_ends.saturating_duration_since(now))),
            server_time_ms: wall(now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    fn clock() -> Clock {
        Clock::new(
            ClockSettings {
                turn_seconds: 10,
                bank_seconds: 30,
            },
            2,
        )
    }

    #[test]
    fn the_turn_time_is_spent_first_then_the_bank_and_leftover_turn_time_is_not_kept() {
        let t0 = Instant::now();
        let mut clock = clock();
        clock.observe(Some(Seat(0)), t0);
        assert_eq!(clock.deadline(), Some(t0 + 40 * S));
        // Seat 0 uses 4 s of its 10: its bank is untouched, and the 6 s are lost.
        clock.observe(Some(Seat(1)), t0 + 4 * S);
        assert_eq!(clock.deadline(), Some(t0 + 4 * S + 40 * S));
        // Seat 1 uses 25 s: 10 of turn, 15 of bank.
        let t1 = t0 + 29 * S;
        let shown = clock.state(t0 + 20 * S, |_| 0);
        assert_eq!(shown.banks_ms, vec![30_000, 24_000], "its bank runs down");
        assert_eq!(shown.turn_left_ms, Some(0));
        assert_eq!(shown.left_ms, Some(24_000));
        clock.observe(Some(Seat(0)), t1);
        assert_eq!(clock.state(t1, |_| 0).banks_ms, vec![30_000, 15_000]);
        assert_eq!(clock.deadline(), Some(t1 + 40 * S));
    }

    #[test]
    fn a_seat_that_runs_out_loses_its_bank_and_counts_the_timeout() {
        let t0 = Instant::now();
        let mut clock = clock();
        clock.observe(Some(Seat(0)), t0);
        assert_eq!(clock.expired(t0 + 39 * S), None);
        assert_eq!(clock.expired(t0 + 40 * S), Some(Seat(0)));
        assert_eq!(clock.timing_out(), Some(Seat(0)));
        // Had its timeout action not ended the turn, the clock tries again a second later, not
        // at once (a deadline in the past would make the room loop spin).
        assert_eq!(clock.deadline(), Some(t0 + 41 * S));
        assert_eq!(clock.expired(t0 + 40 * S), None);
        assert_eq!(clock.expired(t0 + 41 * S), Some(Seat(0)));
        assert_eq!(clock.deadline(), Some(t0 + 42 * S));
        clock.observe(Some(Seat(1)), t0 + 40 * S);
        assert_eq!(clock.timeouts_in_a_row(Seat(0)), 1);
        assert_eq!(clock.state(t0 + 40 * S, |_| 0).banks_ms[0], 0);
        // Next time seat 0 has only its turn time, and a turn played in time ends the streak.
        clock.observe(Some(Seat(0)), t0 + 41 * S);
        assert_eq!(clock.deadline(), Some(t0 + 51 * S));
        clock.observe(Some(Seat(1)), t0 + 42 * S);
        assert_eq!(clock.timeouts_in_a_row(Seat(0)), 0);
    }

    #[test]
    fn a_stored_clock_resumes_with_the_wall_clock_deadline_it_had() {
        let t0 = Instant::now();
        let t0_ms = 1_000_000;
        let wall = |at: Instant| t0_ms + i64::try_from((at - t0).as_millis()).unwrap();
        let mut clock = clock();
        clock.observe(Some(Seat(0)), t0);
        clock.observe(Some(Seat(1)), t0 + 2 * S);
        // An action of seat 1 within its turn, 3 s in: stored with 7 s of turn left.
        let stored = clock.stored(t0 + 5 * S, wall(t0 + 5 * S));
        assert_eq!(stored.turn_left_ms, 7_000);
        assert_eq!(stored.seat, Some(Seat(1)));
        // Resumed 4 s later (a restart): 3 s of turn left, the deadline where it was.
        let later = t0 + 9 * S;
        let resumed = Clock::resume(clock.settings, &stored, later, wall(later));
        assert_eq!(resumed.deadline(), Some(later + 3 * S + 30 * S));
        assert_eq!(resumed.deadline(), clock.deadline());
        // Resumed 17 s after it was stored: the turn time is spent, and 10 s of the bank.
        let later = t0 + 22 * S;
        let resumed = Clock::resume(clock.settings, &stored, later, wall(later));
        assert_eq!(resumed.deadline(), clock.deadline());
        assert_eq!(resumed.state(later, wall).banks_ms[1], 20_000);
        // Resumed after the deadline: it runs out at once.
        let later = t0 + 1000 * S;
        let mut resumed = Clock::resume(clock.settings, &stored, later, wall(later));
        assert_eq!(resumed.deadline(), Some(later));
        assert_eq!(resumed.expired(later), Some(Seat(1)));
        // Stored 20 s into its bank: 10 s of bank left, whenever it is resumed.
        let at = t0 + 2 * S + 30 * S;
        let stored = clock.stored(at, wall(at));
        assert_eq!((stored.turn_left_ms, stored.banks_ms[1]), (0, 10_000));
        let later = at + 4 * S;
        let resumed = Clock::resume(clock.settings, &stored, later, wall(later));
        assert_eq!(resumed.deadline(), Some(later + 6 * S));
        let json = serde_json::to_string(&stored).unwrap();
        assert_eq!(serde_json::from_str::<StoredClock>(&json).unwrap(), stored);
    }

    #[test]
    fn a_clock_stored_before_its_time_was_kept_resumes_with_the_time_left() {
        let json = r#"{"banks_ms":[30000,30000],"seat":1,"turn_left_ms":7000}"#;
        let stored: StoredClock = serde_json::from_str(json).unwrap();
        assert_eq!(stored.at_ms, None);
        let now = Instant::now();
        let resumed = Clock::resume(clock().settings, &stored, now, 0);
        assert_eq!(resumed.deadline(), Some(now + 37 * S));
    }

    #[test]
    fn the_first_turn_resumes_from_the_match_start() {
        let settings = clock().settings;
        let stored = StoredClock::at_start(settings, 2, Some(Seat(0)), 50_000);
        let now = Instant::now();
        // 4 s after the start: 6 s of turn time and the whole bank left.
        let resumed = Clock::resume(settings, &stored, now, 54_000);
        assert_eq!(resumed.deadline(), Some(now + 6 * S + 30 * S));
    }
}
