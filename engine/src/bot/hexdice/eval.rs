//! How good a hexdice position is for one seat, in integer points (exact and cheap).
//!
//! A die is worth [`VALUE`] of its face: its count decides the game (H-END-2) and its face how
//! well it attacks and survives. A position where the other seat must attack next is worth its
//! material, minus what that seat's best attack is expected to win (attacks are mandatory, so
//! a seat with only bad attacks loses by them), plus half of what our own best attack would win
//! on the turn after. Expectations are exact over the dice: every roll is enumerated, weighted
//! by its chance, never drawn. Scores carry a factor of 36 so that the averages over the 6 or
//! 36 outcomes of an attack stay integers.

use crate::hexdice::board::{Board, CellSet, cells_of, single};

use super::model::Position;

/// What a die is worth by face (index 0: no die). A die is worth more than any pip gap
/// between two dice, since the count decides the game first.
pub(super) const VALUE: [i64; 7] = [0, 10, 15, 18, 21, 23, 25];

/// A score of a decided game: bigger than any material difference.
pub(super) const DECIDED: i64 = 36 * 10_000;

/// The worth of a position without contact, where the game is about to end as it stands
/// unless a move brings the dice together again.
const LOCKED_IN: i64 = 36 * 15;

/// What seat index `side` gains in material (its view) when its die of face `a` attacks a die of
/// face `d` and `roll` comes up (H-ATK-2..6), not counting where the dice end up.
const fn gain(a: usize, d: usize, roll: usize) -> i64 {
    let damage = VALUE[d] - VALUE[d.saturating_sub(roll)];
    if roll < a {
        VALUE[roll] - VALUE[a] + damage
    } else if roll == a {
        damage
    } else {
        VALUE[a - 1] - VALUE[a]
    }
}

/// `SINGLE[a][d]`: 6 times the expected gain of a single attack of face `a` on face `d`.
const SINGLE: [[i64; 7]; 7] = {
    let mut table = [[0; 7]; 7];
    let mut a = 1;
    while a <= 6 {
        let mut d = 1;
        while d <= 6 {
            let mut roll = 1;
            while roll <= 6 {
                table[a][d] += gain(a, d, roll);
                roll += 1;
            }
            d += 1;
        }
        a += 1;
    }
    table
};

/// `COMBINED[a1][a2][d]`: 36 times the expected gain of a combined attack of faces `a1` and `a2`
/// on face `d` (H-ATK-7), the attacker choosing the best allowed pair after seeing both rolls.
const COMBINED: [[[i64; 7]; 7]; 7] = {
    let mut table = [[[0; 7]; 7]; 7];
    let mut a1 = 1;
    while a1 <= 6 {
        let mut a2 = 1;
        while a2 <= 6 {
            let mut d = 1;
            while d <= 6 {
                let mut total = 0;
                let mut r1 = 1;
                while r1 <= 6 {
                    let mut r2 = 1;
                    while r2 <= 6 {
                        let attackers = [a1, a2];
                        let rolls = [r1, r2];
                        let any_sound = r1 <= a1 || r2 <= a1 || r1 <= a2 || r2 <= a2;
                        let mut best = i64::MIN;
                        let mut i = 0;
                        while i < 4 {
                            let a = attackers[i / 2];
                            let r = rolls[i % 2];
                            if (r <= a || !any_sound) && gain(a, d, r) > best {
                                best = gain(a, d, r);
                            }
                            i += 1;
                        }
                        total += best;
                        r2 += 1;
                    }
                    r1 += 1;
                }
                table[a1][a2][d] = total;
                d += 1;
            }
            a2 += 1;
        }
        a1 += 1;
    }
    table
};

/// The board and the rule variants an evaluation needs.
#[derive(Clone, Copy)]
pub(super) struct Rules<'a> {
    /// The board.
    pub board: &'a Board,
    /// Whether the two sources of a combined attack must touch (the room's option, H-ATK-7);
    /// otherwise they must not.
    pub sources_touch: bool,
    /// The seat index that wins a game tied on dice and pips (H-END-2).
    pub tiebreak: usize,
}

impl Rules<'_> {
    /// 36 times the expected material gain of the best attack `side` could make, or `None` when
    /// it has none.
    pub fn best_attack(&self, pos: &Position, side: usize) -> Option<i64> {
        let own = pos.dice(side);
        let enemy = pos.dice(1 - side);
        let mut best: Option<i64> = None;
        for target in cells_of(enemy) {
            let around = self.board.neighbours(target) & own;
            if around == 0 {
                continue;
            }
            let d = usize::from(pos.face_at(target));
            let mut here = i64::MIN;
            for a in cells_of(around) {
                let fa = usize::from(pos.face_at(a));
                here = here.max(6 * SINGLE[fa][d]);
                // Each pair once: partners listed after `a`.
                let later = u64::MAX.checked_shl(u32::from(a) + 1).unwrap_or(0);
                for b in cells_of(around & self.partners(a) & later) {
                    here = here.max(COMBINED[fa][usize::from(pos.face_at(b))][d]);
                }
            }
            best = Some(best.map_or(here, |b| b.max(here)));
        }
        best
    }

    /// The cells that may join `a` in a combined attack under the room's option (H-ATK-7).
    pub fn partners(&self, a: u8) -> CellSet {
        let touching = self.board.neighbours(a);
        if self.sources_touch {
            touching
        } else {
            self.board.all() & !touching & !single(a)
        }
    }

    /// The worth of `pos` for `side` when the other seat's turn begins; `attacked` says whether
    /// `side` attacked in the turn now ending (if not, and nobody can attack, the game ends:
    /// H-END-1).
    pub fn evaluate(&self, pos: &Position, side: usize, attacked: bool) -> i64 {
        if let Some(decided) = self.decided(pos, side) {
            return decided;
        }
        let material = 36 * self.material(pos, side);
        match self.best_attack(pos, 1 - side) {
            Some(theirs) => {
                let ours = self.best_attack(pos, side).unwrap_or(0);
                material - theirs + ours / 2
            }
            None if !attacked => self.winner_score(pos, side),
            None => {
                let lead = if self.leader(pos) == side {
                    LOCKED_IN
                } else {
                    -LOCKED_IN
                };
                material + lead
            }
        }
    }

    /// The worth of a board during the occupation, for `side`: placed material and the best
    /// attack each seat would have, whoever moves first.
    pub fn evaluate_occupation(&self, pos: &Position, side: usize) -> i64 {
        let ours = self.best_attack(pos, side).unwrap_or(0);
        let theirs = self.best_attack(pos, 1 - side).unwrap_or(0);
        36 * self.material(pos, side) + (ours - theirs) / 2
    }

    /// A decided score when a seat has no die left.
    pub fn decided(&self, pos: &Position, side: usize) -> Option<i64> {
        if pos.dice(side) == 0 {
            Some(-DECIDED)
        } else if pos.dice(1 - side) == 0 {
            Some(DECIDED)
        } else {
            None
        }
    }

    /// The score of a game that ends now (H-END-2), nudged by the material so a bigger win ranks
    /// higher.
    pub fn winner_score(&self, pos: &Position, side: usize) -> i64 {
        let material = 36 * self.material(pos, side);
        if self.leader(pos) == side {
            DECIDED / 2 + material
        } else {
            -DECIDED / 2 + material
        }
    }

    /// H-END-2: who would win if the game ended now.
    pub fn leader(&self, pos: &Position) -> usize {
        let count = |side: usize| pos.dice(side).count_ones();
        let pips = |side: usize| -> u32 {
            cells_of(pos.dice(side))
                .map(|c| u32::from(pos.face_at(c)))
                .sum()
        };
        match count(0).cmp(&count(1)).then(pips(0).cmp(&pips(1))) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => self.tiebreak,
        }
    }

    /// Material of `side` minus material of the other seat, in [`VALUE`] points.
    fn material(&self, pos: &Position, side: usize) -> i64 {
        let sum = |s: usize| -> i64 {
            cells_of(pos.dice(s))
                .map(|c| VALUE[usize::from(pos.face_at(c).min(6))])
                .sum()
        };
        sum(side) - sum(1 - side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_attack_expectations_match_a_hand_count() {
        // A 6 on a 1: rolls 1..5 leave the attacker showing the roll (10+15+18+21+23 - 5*25)
        // and kill the 1 (5*10); a 6 kills it and stays a 6 (10).
        assert_eq!(SINGLE[6][1], 87 - 125 + 50 + 10);
        // A 1 on a 6: a roll of 1 takes a pip (25 - 23); any other roll kills the attacker.
        assert_eq!(SINGLE[1][6], 2 - 5 * 10);
    }

    #[test]
    fn a_combined_attack_weighs_the_better_choice() {
        // Two 6s on a 6: the better of two rolls is used, so it beats a single 6 on a 6.
        assert!(COMBINED[6][6][6] > 6 * SINGLE[6][6]);
        // Two 1s on a 6: a failing pair is allowed only when both rolls fail.
        let both_fail = 25 * -10;
        let some_roll_is_one = 11 * 2;
        assert_eq!(COMBINED[1][1][6], both_fail + some_roll_is_one);
    }
}
