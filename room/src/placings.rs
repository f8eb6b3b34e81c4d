//! A finished match's finishing order, what its ratings are computed from (issue 39): the winner
//! first, then the others in reverse order of going out (eliminated by the rules, or resigned),
//! seats out with the same action tied, and seats still in when the match ended (a ruleset that
//! ends before everyone else is out) tied right behind the winner. A seat that resigned places
//! as it resigned, even when the bot that played it on won.
//!
//! The runner notes the seq at which each seat went out as actions are accepted (live and on a
//! rebuild alike, so a restarted match knows it too); [`finishing_order`] turns that and the
//! outcome into places. Pure: no IO, no clock.

use warroom_engine::{Outcome, Seat};

/// Per seat, its place: 1 for the winner, larger is worse; equal places are ties.
pub type Places = Vec<u8>;

/// The places of a finished match of `out_at.len()` seats: `out_at[seat]` is the seq of the
/// action after which the seat was out (`None`: still in at the end).
pub fn finishing_order(outcome: &Outcome, out_at: &[Option<u64>]) -> Places {
    // A seat's "survival": how long it stayed in. The winner outlasts everyone; a seat still in
    // at the end outlasts every seat that went out. A winner that had resigned (a bot played
    // its seat on to the win, G-RESIGN-1) placed as it resigned: its player gave up.
    let survival = |seat: usize| -> u64 {
        match out_at[seat] {
            Some(at) => at,
            None if seat == outcome.winner.index() => u64::MAX,
            None => u64::MAX - 1,
        }
    };
    (0..out_at.len())
        .map(|seat| {
            let better = (0..out_at.len())
                .filter(|&other| survival(other) > survival(seat))
                .count();
            u8::try_from(better + 1).unwrap_or(u8::MAX)
        })
        .collect()
}

/// Notes which seats are out after the action of `seq`: those `is_out` (or resigned) now that
/// had no seq yet.
pub fn note_out(out_at: &mut [Option<u64>], seq: u64, is_out: impl Fn(Seat) -> bool) {
    for (seat, at) in out_at.iter_mut().enumerate() {
        if at.is_none() && is_out(Seat::from_index(seat)) {
            *at = Some(seq);
        }
    }
}

/// Forgets what was noted after `seq` (an action taken back).
pub fn forget_after(out_at: &mut [Option<u64>], seq: u64) {
    for at in out_at.iter_mut() {
        if at.is_some_and(|at| at > seq) {
            *at = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn won_by(seat: u8) -> Outcome {
        Outcome {
            winner: Seat(seat),
            reason: "test".into(),
        }
    }

    #[test]
    fn a_duel_is_the_winner_then_the_loser() {
        assert_eq!(finishing_order(&won_by(1), &[None, None]), vec![2, 1]);
        // The loser resigned at 9.
        assert_eq!(finishing_order(&won_by(0), &[None, Some(9)]), vec![1, 2]);
    }

    #[test]
    fn free_for_all_places_are_the_reverse_order_of_elimination() {
        // Seat 2 out first (seq 10), seat 0 at 30, seat 3 at 55; seat 1 won.
        let out = [Some(30), None, Some(10), Some(55)];
        assert_eq!(finishing_order(&won_by(1), &out), vec![3, 1, 4, 2]);
    }

    #[test]
    fn seats_out_with_the_same_action_tie() {
        let out = [Some(20), Some(20), None, Some(5)];
        assert_eq!(finishing_order(&won_by(2), &out), vec![2, 2, 1, 4]);
    }

    #[test]
    fn seats_still_in_at_the_end_tie_behind_the_winner() {
        let out = [None, None, Some(7), None];
        assert_eq!(finishing_order(&won_by(3), &out), vec![2, 2, 4, 1]);
    }

    #[test]
    fn a_seat_that_resigned_places_as_it_resigned_even_if_its_bot_won() {
        // Seat 0 resigned at 12 and its bot won; seat 2 was eliminated at 30; seat 1 was still
        // in at the end.
        let out = [Some(12), None, Some(30)];
        assert_eq!(finishing_order(&won_by(0), &out), vec![3, 1, 2]);
    }

    #[test]
    fn an_action_taken_back_forgets_who_it_put_out() {
        let mut out = [None, None, None];
        note_out(&mut out, 4, |seat| seat == Seat(2));
        note_out(&mut out, 5, |seat| seat != Seat(1));
        assert_eq!(out, [Some(5), None, Some(4)]);
        forget_after(&mut out, 4);
        assert_eq!(out, [None, None, Some(4)]);
    }
}
