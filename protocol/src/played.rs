//! A match as its log records it: the ruleset's state, plus the one action the server adds to
//! every ruleset, `{"type": "resign"}` (G-RESIGN-1 in docs/RULES.md). A seat may resign at any
//! time, not only on its turn. With two seats the other seat wins at once (outcome reason
//! `opponent_resigned`); with more, the match goes on and a bot plays the resigned seat, so the
//! ruleset's state does not change. Both the server's running match and `verify` fold the log
//! through [`Played`], so a replay recomputes a resignation exactly as it happened.

use serde_json::{Value, json};
use warroom_engine::{Outcome, Ruleset, Seat};

use crate::{ErrorBody, codes};

/// The `type` of the resign action.
pub const RESIGN: &str = "resign";

/// The outcome reason of a two-seat match whose other seat resigned.
pub const OPPONENT_RESIGNED: &str = "opponent_resigned";

/// The resign action as the log stores it.
pub fn resign_action() -> Value {
    json!({ "type": RESIGN })
}

/// True when a logged action is a resignation.
pub fn is_resign(action: &Value) -> bool {
    action
        .as_object()
        .is_some_and(|object| object.len() == 1 && object.get("type") == Some(&json!(RESIGN)))
}

/// A ruleset's state and the seats that resigned.
#[derive(Clone, Debug)]
pub struct Played<R: Ruleset> {
    /// The ruleset's state.
    pub rules: R,
    /// How many seats the match has.
    seats: u8,
    /// Seats that resigned, in order.
    resigned: Vec<Seat>,
    /// Set when a resignation ended the match.
    ended: Option<Outcome>,
}

impl<R: Ruleset> Played<R> {
    /// A match just set up.
    pub fn new(rules: R, seats: u8) -> Played<R> {
        Played {
            rules,
            seats,
            resigned: Vec::new(),
            ended: None,
        }
    }

    /// `seat` resigns: with two seats the other wins now; with more the match goes on.
    pub fn resign(&mut self, seat: Seat) -> Result<(), ErrorBody> {
        if seat.0 >= self.seats {
            return Err(ErrorBody::new(
                codes::INVALID_SEAT,
                format!("this match has seats 0 to {}", self.seats.saturating_sub(1)),
            ));
        }
        if self.outcome().is_some() {
            return Err(ErrorBody::new(codes::MATCH_OVER, "the match is over"));
        }
        if self.resigned.contains(&seat) {
            return Err(ErrorBody::new(
                codes::ALREADY_RESIGNED,
                "this seat has already resigned",
            ));
        }
        self.resigned.push(seat);
        if self.seats == 2 {
            self.ended = Some(Outcome {
                winner: Seat(1 - seat.0.min(1)),
                reason: OPPONENT_RESIGNED.to_owned(),
            });
        }
        Ok(())
    }

    /// True once `seat` has resigned.
    pub fn has_resigned(&self, seat: Seat) -> bool {
        self.resigned.contains(&seat)
    }

    /// How the match ended: by a resignation, or by its rules.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.clone().or_else(|| self.rules.outcome())
    }

    /// The seat whose decision the match waits for (`None` once over).
    pub fn to_act(&self) -> Option<Seat> {
        if self.ended.is_some() {
            return None;
        }
        self.rules.to_act()
    }

    /// Every legal action of the seat to act (none once over).
    pub fn legal_actions(&self, out: &mut Vec<R::Action>) {
        if self.ended.is_none() {
            self.rules.legal_actions(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use warroom_engine::hexdice::Hexdice;
    use warroom_engine::{Ruleset, Seed};

    use super::*;

    #[test]
    fn g_resign_1_with_two_seats_the_other_seat_wins_at_once() {
        let (state, _) = Hexdice::new(&Default::default(), 2, Seed::from_u64(3)).unwrap();
        let mut played = Played::new(state, 2);
        assert!(played.to_act().is_some());
        played.resign(Seat(1)).unwrap();
        assert_eq!(
            played.outcome(),
            Some(Outcome {
                winner: Seat(0),
                reason: OPPONENT_RESIGNED.into()
            })
        );
        assert_eq!(played.to_act(), None);
        let mut legal = Vec::new();
        played.legal_actions(&mut legal);
        assert!(legal.is_empty(), "nothing is left to play");
        assert_eq!(played.resign(Seat(0)).unwrap_err().code, codes::MATCH_OVER);
    }

    #[test]
    fn the_resign_action_is_recognised_only_in_its_exact_form() {
        assert!(is_resign(&resign_action()));
        assert!(!is_resign(&json!({"type": "resign", "seat": 1})));
        assert!(!is_resign(&json!({"type": "end_turn"})));
        assert!(!is_resign(&json!("resign")));
    }
}
