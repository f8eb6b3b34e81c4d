//! `hard`'s look ahead during the occupation (H-SETUP-4/5): a placement is scored after the
//! other seat's best reply placement by `normal`'s score, plus a bonus while the two dice we
//! can still keep back would take the first turn. The first turn goes to the higher reserve
//! (H-SETUP-5) and weighs a lot: before this look-ahead, in 2,000 seeded matches of `hard`
//! against `normal`, the seat that took it won 72 % of them (bench/RESULTS.md).

use crate::hexdice::Hexdice;
use crate::hexdice::board::{cells_of, single};

use super::Planner;
use super::model::{Position, side_of};

/// What keeping a reserve that takes the first turn is worth, in [`super::eval`]'s units: about
/// a die. Any bonus from half a die up gave the same games; it acts as a rule "keep the first
/// turn while it costs no more than a die of material and threats".
const FIRST_TURN_BONUS: i64 = 36 * 20;

impl Planner<'_> {
    /// `hard`'s score of the placement of a die showing `value` that leads to `pos`.
    pub(super) fn placement_looking_ahead(
        &self,
        state: &Hexdice,
        pos: &Position,
        value: u8,
    ) -> i64 {
        let mut kept = state.unplaced[self.side];
        let face = usize::from(value.clamp(1, 6) - 1);
        kept[face] = kept[face].saturating_sub(1);
        let bonus = if self.first_turn_in_reach(state, &kept) {
            FIRST_TURN_BONUS
        } else {
            0
        };
        self.after_their_placement(state, pos) + bonus
    }

    /// Our worth of `pos` after the other seat's best placement by `normal`'s score (as it
    /// stands once the board is full).
    fn after_their_placement(&self, state: &Hexdice, pos: &Position) -> i64 {
        let them = 1 - self.side;
        let faces = state.unplaced[them];
        let mut best: Option<i64> = None;
        for cell in cells_of(pos.empty(self.rules.board)) {
            for value in 1..=6u8 {
                if faces[usize::from(value - 1)] == 0 {
                    continue;
                }
                let mut after = *pos;
                after.owned[them] |= single(cell);
                after.face[usize::from(cell)] = value;
                let theirs = self.rules.evaluate_occupation(&after, them);
                best = Some(best.map_or(theirs, |b| b.max(theirs)));
            }
        }
        // The occupation score is the same seen from either side, negated.
        best.map_or_else(|| self.rules.evaluate_occupation(pos, self.side), |b| -b)
    }

    /// Whether, keeping the two highest of `kept` (our unplaced dice, per face) to the end, our
    /// reserve would take the first turn against the other seat's two lowest unplaced dice
    /// (`normal` places its strongest first); a tie goes to the occupation starter (H-SETUP-5).
    fn first_turn_in_reach(&self, state: &Hexdice, kept: &[u8; 6]) -> bool {
        let ours = pair_sum(kept, true);
        let theirs = pair_sum(&state.unplaced[1 - self.side], false);
        ours > theirs || (ours == theirs && side_of(state.occupation_starter) == self.side)
    }
}

/// The sum of the two highest (`highest`) or two lowest dice among `counts` (dice per face,
/// index face - 1).
fn pair_sum(counts: &[u8; 6], highest: bool) -> u8 {
    let mut faces: Vec<u8> = (1..=6u8)
        .flat_map(|f| std::iter::repeat_n(f, usize::from(counts[usize::from(f - 1)])))
        .collect();
    if highest {
        faces.reverse();
    }
    faces.iter().take(2).sum()
}
