//! `hard`'s look at the reply: the worth of a position at the end of our turn, after the other
//! seat's whole next turn as `normal` would play it. Its mandatory attack (H-TURN-2) is the one
//! `normal` scores best; that attack's outcomes are weighed by their exact probabilities (its 6
//! rolls, or its 36 roll pairs with `normal`'s choice of attacker and roll, H-ATK-7), and after
//! each outcome the other seat makes `normal`'s move. The position our next turn then begins
//! with is scored by [`super::eval::Rules::evaluate`] from the other seat's side, negated.

use crate::bot::BotLevel;
use crate::hexdice::board::cells_of;

use super::model::Position;
use super::{Outcomes, Planner, allowed_choices, per_roll, roll_pairs};

/// The attack `normal` makes for the other seat.
#[derive(Clone, Copy)]
enum Attack {
    /// One die against one target.
    Single { from: u8, target: u8 },
    /// Two dice against one target (H-ATK-7).
    Combined { attackers: [u8; 2], target: u8 },
}

impl Planner<'_> {
    /// Our worth of `pos` when our turn ends (`attacked`: whether we attacked in it), after the
    /// other seat's reply turn as `normal` plays it, in [`super::eval::Rules::evaluate`]'s units.
    pub(super) fn after_reply(&self, pos: &Position, attacked: bool) -> i64 {
        if let Some(decided) = self.rules.decided(pos, self.side) {
            return decided;
        }
        let them = self.other_seat();
        let mut memo = Outcomes::default();
        match them.chosen_attack(pos, &mut memo) {
            // Neither turn could attack: the game ends as it stands (H-END-1).
            None if !attacked => self.rules.winner_score(pos, self.side),
            None => -them.best_move_worth(pos, None, false),
            Some(Attack::Single { from, target }) => {
                let by_roll = per_roll(pos.face_at(from), |roll| {
                    self.after_their_outcome(&them, pos, from, target, roll)
                });
                by_roll.iter().sum::<i64>() / 6
            }
            Some(Attack::Combined { attackers, target }) => {
                let theirs = [
                    them.rolls(pos, attackers[0], target, &mut memo),
                    them.rolls(pos, attackers[1], target, &mut memo),
                ];
                let ours = attackers.map(|from| {
                    per_roll(pos.face_at(from), |roll| {
                        self.after_their_outcome(&them, pos, from, target, roll)
                    })
                });
                let faces = attackers.map(|cell| pos.face_at(cell));
                followed_expectation(faces, theirs, ours) / 36
            }
        }
    }

    /// The seat we play against, played as `normal`.
    fn other_seat(&self) -> Planner<'_> {
        Planner {
            side: 1 - self.side,
            level: BotLevel::Normal,
            ..*self
        }
    }

    /// The attack `normal` would make in `pos` for this planner's seat (`None`: it has none).
    /// Ties go to the first found, singles before combined attacks, as listed.
    fn chosen_attack(&self, pos: &Position, memo: &mut Outcomes) -> Option<Attack> {
        let own = pos.dice(self.side);
        let enemy = pos.dice(1 - self.side);
        let mut best: Option<(i64, Attack)> = None;
        let mut consider = |score: i64, attack: Attack| {
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, attack));
            }
        };
        for from in cells_of(own) {
            for target in cells_of(self.rules.board.neighbours(from) & enemy) {
                let score = self.rolls(pos, from, target, memo).iter().sum::<i64>() * 6;
                consider(score, Attack::Single { from, target });
            }
        }
        for target in cells_of(enemy) {
            let around = self.rules.board.neighbours(target) & own;
            if around.count_ones() < 2 {
                continue;
            }
            for a in cells_of(around) {
                for b in cells_of(around & self.rules.partners(a)) {
                    if a < b {
                        let scores = [
                            self.rolls(pos, a, target, memo),
                            self.rolls(pos, b, target, memo),
                        ];
                        let faces = [pos.face_at(a), pos.face_at(b)];
                        let score = super::combined_expectation(faces, scores);
                        let attackers = [a, b];
                        consider(score, Attack::Combined { attackers, target });
                    }
                }
            }
        }
        best.map(|(_, attack)| attack)
    }

    /// Our worth after the other seat (`them`) attacked `target` from `from` with `roll`,
    /// moved in or stayed as `normal` would (optional conquest), and made `normal`'s move.
    fn after_their_outcome(
        &self,
        them: &Planner<'_>,
        pos: &Position,
        from: u8,
        target: u8,
        roll: u8,
    ) -> i64 {
        let mut after = *pos;
        let mut conqueror = after.resolve(them.side, from, target, roll, true);
        if self.optional_conquest && conqueror.is_some() {
            let mut stayed = *pos;
            stayed.resolve(them.side, from, target, roll, false);
            if them.after_attack(&stayed, None) > them.after_attack(&after, conqueror) {
                after = stayed;
                conqueror = None;
            }
        }
        if let Some(decided) = self.rules.decided(&after, self.side) {
            return decided;
        }
        -them.best_move_worth(&after, conqueror, true)
    }

    /// The worth for this planner's seat of its best end of turn in `pos` as `normal` scores
    /// it: no move, or one move (H-MOVE-1..3; the die on `conqueror` may not move).
    fn best_move_worth(&self, pos: &Position, conqueror: Option<u8>, attacked: bool) -> i64 {
        self.ends_of_turn(pos, conqueror)
            .map(|end| self.rules.evaluate(&end, self.side, attacked))
            .max()
            .unwrap_or(i64::MIN)
    }
}

/// 36 times our expected worth after a combined attack of the other seat whose attackers show
/// `faces`: for each of the 36 roll pairs, the other seat takes the allowed (attacker, roll)
/// pair it scores best (`theirs`, H-ATK-7), and we get our worth of that pair (`ours`).
fn followed_expectation(faces: [u8; 2], theirs: [[i64; 6]; 2], ours: [[i64; 6]; 2]) -> i64 {
    roll_pairs()
        .map(|rolls| {
            let mut best: Option<(i64, i64)> = None;
            for (a, i) in allowed_choices(faces, rolls) {
                if best.is_none_or(|(b, _)| theirs[a][i] > b) {
                    best = Some((theirs[a][i], ours[a][i]));
                }
            }
            best.map_or(0, |(_, ours)| ours)
        })
        .sum()
}
