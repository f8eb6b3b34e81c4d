//! Seats a bot plays while their player is away, sans-IO like the rest of the core: a seated
//! person with no connection following the room for longer than the room's grace period
//! ([`Takeover::Disconnected`]), or whose clock ran out on two turns in a row
//! ([`Takeover::TimedOut`]). The bot (`control.rs`) plays such a seat through the same path as a
//! resigned one, until its player comes back: `back`, or any action of theirs, gives it back at
//! once. Reconnecting alone stops the grace countdown but does not give the seat back.
//!
//! Unlike a resignation (in the match's log, for good) this is not stored. A restarted room
//! counts the grace period again from its start for every player who has not reconnected, and
//! finds the seats taken over for timing out in the log ([`timed_out_in_log`]: the actions the
//! clock took, `acted_by` = `clock`); a `back` not followed by an action of its player is not in
//! the log, so such a seat is taken over again after a restart.

use std::time::Duration;

use std::time::Instant;
use warroom_engine::Seat;
use warroom_protocol::{ActedBy, Takeover};

/// Turns lost to the clock in a row after which a bot plays the seat.
pub const TIMEOUTS_BEFORE_TAKEOVER: u8 = 2;

/// Who is away from a running match, and which seats a bot plays for that.
#[derive(Clone, Debug)]
pub struct Absences {
    /// How long a player may be disconnected before a bot plays their seat.
    grace: Duration,
    /// Per seat: since when its person has had no connection following the room.
    away_since: Vec<Option<Instant>>,
    /// Per seat: why a bot plays it for its absent player.
    taken: Vec<Option<Takeover>>,
}

impl Absences {
    /// Nobody away yet, in a room of `seats` seats with this grace period.
    pub fn new(grace: Duration, seats: usize) -> Absences {
        Absences {
            grace,
            away_since: vec![None; seats],
            taken: vec![None; seats],
        }
    }

    /// Whether `seat`'s player is connected at `now` (`true` as well for seats nobody counts:
    /// bots, resigned seats): a countdown starts when they are not, and stops when they are.
    pub fn observe(&mut self, seat: Seat, connected: bool, now: Instant) {
        if let Some(since) = self.away_since.get_mut(seat.index()) {
            if connected {
                *since = None;
            } else {
                since.get_or_insert(now);
            }
        }
    }

    /// When the next seat is due to be taken over, if any is counting down.
    pub fn deadline(&self) -> Option<Instant> {
        self.away_since
            .iter()
            .zip(&self.taken)
            .filter(|(_, taken)| taken.is_none())
            .filter_map(|(since, _)| since.map(|since| since + self.grace))
            .min()
    }

    /// The seats whose player has been away for the grace period at `now`: they are taken over
    /// (`disconnected`) and count down no more.
    pub fn due(&mut self, now: Instant) -> Vec<Seat> {
        let grace = self.grace;
        let mut due = Vec::new();
        for (index, (since, taken)) in self.away_since.iter().zip(&mut self.taken).enumerate() {
            if taken.is_none()
                && since.is_some_and(|since| now >= since + grace)
                && let Ok(seat) = u8::try_from(index)
            {
                *taken = Some(Takeover::Disconnected);
                due.push(Seat(seat));
            }
        }
        due
    }

    /// A bot plays `seat` for `why`; false if one already did.
    pub fn take(&mut self, seat: Seat, why: Takeover) -> bool {
        match self.taken.get_mut(seat.index()) {
            Some(taken @ None) => {
                *taken = Some(why);
                true
            }
            _ => false,
        }
    }

    /// `seat`'s player plays it again; false if no bot played it.
    pub fn give_back(&mut self, seat: Seat) -> bool {
        self.taken
            .get_mut(seat.index())
            .and_then(Option::take)
            .is_some()
    }

    /// Why a bot plays `seat` for its absent player, if it does.
    pub fn taken(&self, seat: Seat) -> Option<Takeover> {
        self.taken.get(seat.index()).copied().flatten()
    }
}

/// The seats a bot plays for timing out, as the match's log (each action's seat and who took
/// it, in order) shows it, with `to_act` the seat to act after it: the same rule as while the
/// room runs. A turn is a run of actions of one seat; it is lost to the clock when the clock took
/// one of them; [`TIMEOUTS_BEFORE_TAKEOVER`] finished turns lost in a row take the seat over,
/// and an action of its player gives a taken seat back and forgives the streak.
pub fn timed_out_in_log(
    log: impl IntoIterator<Item = (Seat, ActedBy)>,
    to_act: Option<Seat>,
    seats: usize,
) -> Vec<Seat> {
    let mut streak = vec![0u8; seats];
    let mut taken = vec![false; seats];
    // The seat whose turn is running, and whether the clock took one of its actions.
    let mut turn: Option<(Seat, bool)> = None;
    let end_turn = |turn: Option<(Seat, bool)>, streak: &mut Vec<u8>, taken: &mut Vec<bool>| {
        let Some((seat, lost)) = turn else { return };
        let Some(count) = streak.get_mut(seat.index()) else {
            return;
        };
        *count = if lost { count.saturating_add(1) } else { 0 };
        if *count >= TIMEOUTS_BEFORE_TAKEOVER {
            taken[seat.index()] = true;
        }
    };
    for (seat, by) in log {
        if seat.index() >= seats {
            continue;
        }
        if turn.is_some_and(|(running, _)| running != seat) {
            end_turn(turn.take(), &mut streak, &mut taken);
        }
        if by == ActedBy::Player && taken[seat.index()] {
            taken[seat.index()] = false;
            streak[seat.index()] = 0;
        }
        let lost = turn.is_some_and(|(_, lost)| lost) || by == ActedBy::Clock;
        turn = Some((seat, lost));
    }
    if turn.is_some_and(|(running, _)| Some(running) != to_act) {
        end_turn(turn, &mut streak, &mut taken);
    }
    (0..seats)
        .filter(|&index| taken[index])
        .filter_map(|index| u8::try_from(index).ok().map(Seat))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_shows_the_seats_taken_over_for_timing_out() {
        let (a, b) = (Seat(0), Seat(1));
        let (player, clock, bot) = (ActedBy::Player, ActedBy::Clock, ActedBy::Bot);
        let found = |log: &[(Seat, ActedBy)], to_act| timed_out_in_log(log.to_vec(), to_act, 2);
        // Two turns of seat 0 lost to the clock (the second after an action of its player):
        // taken over, and the bot's turns since do not give it back.
        let twice = [
            (a, clock),
            (b, player),
            (a, player),
            (a, clock),
            (b, player),
        ];
        assert_eq!(found(&twice, Some(a)), vec![a]);
        let then_bot = [&twice[..], &[(a, bot), (a, bot), (b, player)]].concat();
        assert_eq!(found(&then_bot, Some(a)), vec![a]);
        // An action of its player gives it back.
        let back = [&then_bot[..], &[(a, player)]].concat();
        assert_eq!(found(&back, Some(a)), vec![]);
        // One turn lost, one played: no streak.
        let once = [
            (a, clock),
            (b, player),
            (a, player),
            (b, clock),
            (a, clock),
            (b, player),
        ];
        assert_eq!(found(&once, Some(a)), vec![]);
        // The second lapse counts only once its turn is over: the clock is still acting for
        // seat 0 here.
        let running = [(a, clock), (b, player), (a, clock)];
        assert_eq!(found(&running, Some(a)), vec![]);
        assert_eq!(found(&running, Some(b)), vec![a]);
        assert_eq!(found(&[], Some(a)), vec![]);
    }

    #[test]
    fn a_seat_away_for_the_grace_period_is_taken_over_once_and_a_visit_stops_the_countdown() {
        let t0 = Instant::now();
        let second = Duration::from_secs(1);
        let mut away = Absences::new(60 * second, 2);
        away.observe(Seat(1), false, t0);
        assert_eq!(away.deadline(), Some(t0 + 60 * second));
        away.observe(Seat(1), false, t0 + 10 * second);
        assert_eq!(away.deadline(), Some(t0 + 60 * second), "from when it left");
        away.observe(Seat(1), true, t0 + 20 * second);
        assert_eq!(away.deadline(), None, "back in time");
        away.observe(Seat(1), false, t0 + 30 * second);
        assert!(away.due(t0 + 89 * second).is_empty());
        assert_eq!(away.due(t0 + 90 * second), vec![Seat(1)]);
        assert_eq!(away.taken(Seat(1)), Some(Takeover::Disconnected));
        assert_eq!(away.deadline(), None, "no past deadline to spin on");
        assert!(away.due(t0 + 91 * second).is_empty(), "taken once");
        assert!(!away.take(Seat(1), Takeover::TimedOut), "already taken");
        assert!(away.give_back(Seat(1)));
        assert_eq!(away.taken(Seat(1)), None);
        assert!(!away.give_back(Seat(1)));
    }
}
