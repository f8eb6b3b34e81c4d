//! The hexdice bot. It scores each listed legal action and plays the best (ties broken by its
//! own [`BotRng`]); scores are exact expectations over the dice, never a draw of the match RNG.
//!
//! - Occupation: each placement is scored by the material placed and the best attack each side
//!   would then have, so strong dice go first (the two weakest stay in reserve) and face weak
//!   enemy dice, while weak dice keep away from strong ones.
//! - Attack: a single attack averages its 6 rolls; a combined attack (H-ATK-7) averages its 36
//!   roll pairs, taking for each the best allowed (attacker, roll) choice, which is how the bot
//!   then chooses. Each outcome is the position after the attack (`normal`), or after the best
//!   move that follows it (`hard`), scored by [`eval`].
//! - Move: every move and "no move" are scored by [`eval`]: the coming forced attack of the other
//!   seat, our next attack, and whether the game is about to end with us ahead (H-END-1).
//! - `easy` plays a uniformly random legal action one time in three and otherwise scores by
//!   material alone, without looking at threats.

mod eval;
mod model;

use crate::bot::{BotLevel, BotRng, pick_best, random_legal};
use crate::core::Ruleset;
use crate::hexdice::board::cells_of;
use crate::hexdice::state::Phase;
use crate::hexdice::{Action, Conquest, Hexdice, LastTiebreak};

use self::eval::Rules;
use self::model::{Position, side_of};

/// The action the bot of `level` takes for the seat to act (`None` once the game is over).
pub(crate) fn choose(state: &Hexdice, level: BotLevel, rng: &mut BotRng) -> Option<Action> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    if legal.len() <= 1 {
        return legal.pop();
    }
    if level == BotLevel::Easy && rng.below(3) == 0 {
        return random_legal(state, rng);
    }
    let seat = state.seat_to_act()?;
    let sources_fit = |a: u8, b: u8| state.sources_fit(a, b);
    let tiebreak = match state.options.last_tiebreak {
        LastTiebreak::FirstTurn => state.first_turn.unwrap_or(state.occupation_starter),
        LastTiebreak::OccupationStarter => state.occupation_starter,
    };
    let planner = Planner {
        rules: Rules {
            board: &state.board,
            sources_fit: &sources_fit,
            tiebreak: side_of(tiebreak),
        },
        side: side_of(seat),
        level,
        optional_conquest: state.options.conquest == Conquest::Optional,
    };
    let pos = Position::of(state);
    let mut outcomes = Outcomes::default();
    let scores: Vec<i64> = legal
        .iter()
        .map(|action| planner.score(state, &pos, action, &mut outcomes))
        .collect();
    let best = pick_best(&scores, rng)?;
    legal.get(best).copied()
}

/// What the bot needs to score actions for one seat.
struct Planner<'a> {
    /// The board and variants.
    rules: Rules<'a>,
    /// The seat index the bot plays.
    side: usize,
    /// How far it looks.
    level: BotLevel,
    /// Whether a conquest asks the attacker to move in (NL variant).
    optional_conquest: bool,
}

/// The scores of an attack from one cell on one target for each roll 1..=6, computed once per
/// decision and shared by the single attack and every combined attack that uses the pair.
#[derive(Default)]
struct Outcomes(Vec<((u8, u8), [i64; 6])>);

impl Planner<'_> {
    /// The score of `action` in `state` (positions as `pos`).
    fn score(&self, state: &Hexdice, pos: &Position, action: &Action, memo: &mut Outcomes) -> i64 {
        match (*action, state.phase) {
            (Action::Place { cell, value }, _) => {
                let mut after = *pos;
                after.owned[self.side] |= 1 << cell;
                after.face[usize::from(cell)] = value;
                if self.level == BotLevel::Easy {
                    return self.material_only(&after);
                }
                self.rules.evaluate_occupation(&after, self.side)
            }
            (Action::Attack { from, target }, _) => {
                self.rolls(pos, from, target, memo).iter().sum::<i64>() * 6
            }
            (Action::CombinedAttack { attackers, target }, _) => {
                let by_first = self.rolls(pos, attackers[0], target, memo);
                let by_second = self.rolls(pos, attackers[1], target, memo);
                combined_expectation(
                    [pos.face_at(attackers[0]), pos.face_at(attackers[1])],
                    [by_first, by_second],
                )
            }
            (Action::ChooseAttack { attacker, roll }, Phase::ChooseAttack { target, .. }) => {
                let scores = self.rolls(pos, attacker, target, memo);
                scores
                    .get(usize::from(roll.clamp(1, 6) - 1))
                    .copied()
                    .unwrap_or(i64::MIN)
            }
            (Action::Conquer { move_in }, Phase::Conquest { from, target, .. }) => {
                let mut after = *pos;
                let conqueror = move_in.then(|| {
                    after.relocate(self.side, from, target);
                    target
                });
                self.after_attack(&after, conqueror)
            }
            (Action::Move { from, to }, _) => {
                let mut after = *pos;
                after.relocate(self.side, from, to);
                self.end_of_turn(&after, attacked_this_turn(state))
            }
            (Action::EndTurn, _) => self.end_of_turn(pos, attacked_this_turn(state)),
            // Listed actions always fit their phase; anything else is never preferred.
            _ => i64::MIN,
        }
    }

    /// The scores of the die on `from` attacking `target`, for each roll 1..=6.
    fn rolls(&self, pos: &Position, from: u8, target: u8, memo: &mut Outcomes) -> [i64; 6] {
        if let Some((_, scores)) = memo.0.iter().find(|(key, _)| *key == (from, target)) {
            return *scores;
        }
        let mut scores = [0; 6];
        for (roll, slot) in (1..=6u8).zip(scores.iter_mut()) {
            let mut after = *pos;
            let conqueror = after.resolve(self.side, from, target, roll, true);
            *slot = self.after_attack(&after, conqueror);
            if self.optional_conquest && conqueror.is_some() {
                // The attacker may stay instead: the bot will pick the better (see `score`).
                let mut stayed = *pos;
                stayed.resolve(self.side, from, target, roll, false);
                *slot = (*slot).max(self.after_attack(&stayed, None));
            }
        }
        memo.0.push(((from, target), scores));
        scores
    }

    /// The worth of the position right after our attack, before the move: as it stands
    /// (`normal`), or after the best move (`hard`).
    fn after_attack(&self, pos: &Position, conqueror: Option<u8>) -> i64 {
        if let Some(decided) = self.rules.decided(pos, self.side) {
            return decided;
        }
        if self.level == BotLevel::Easy {
            return self.material_only(pos);
        }
        let stay = self.rules.evaluate(pos, self.side, true);
        if self.level != BotLevel::Hard {
            return stay;
        }
        let empty = pos.empty(self.rules.board);
        let enemy = pos.dice(1 - self.side);
        let mut best = stay;
        for from in cells_of(pos.dice(self.side)) {
            if Some(from) == conqueror || self.rules.board.neighbours(from) & enemy != 0 {
                continue;
            }
            for to in cells_of(self.rules.board.neighbours(from) & empty) {
                let mut moved = *pos;
                moved.relocate(self.side, from, to);
                best = best.max(self.rules.evaluate(&moved, self.side, true));
            }
        }
        best
    }

    /// The worth of the position when our turn ends.
    fn end_of_turn(&self, pos: &Position, attacked: bool) -> i64 {
        if self.level == BotLevel::Easy {
            return self.material_only(pos);
        }
        self.rules.evaluate(pos, self.side, attacked)
    }

    /// `easy`: material alone (dice and faces), no threats.
    fn material_only(&self, pos: &Position) -> i64 {
        if let Some(decided) = self.rules.decided(pos, self.side) {
            return decided;
        }
        let sum = |side: usize| -> i64 {
            cells_of(pos.dice(side))
                .map(|c| eval::VALUE[usize::from(pos.face_at(c).min(6))])
                .sum()
        };
        36 * (sum(self.side) - sum(1 - self.side))
    }
}

/// 36 times the expected score of a combined attack whose attackers show `faces`, given each
/// attacker's score for each roll: for each of the 36 roll pairs, the best allowed choice
/// (never a failing pair while a non-failing one exists, H-ATK-7).
fn combined_expectation(faces: [u8; 2], scores: [[i64; 6]; 2]) -> i64 {
    let mut total = 0;
    for r1 in 1..=6u8 {
        for r2 in 1..=6u8 {
            let rolls = [r1, r2];
            let sound = |a: usize, r: u8| r <= faces[a];
            let any_sound = (0..2).any(|a| rolls.iter().any(|&r| sound(a, r)));
            let mut best = i64::MIN;
            for (a, by_roll) in scores.iter().enumerate() {
                for &r in &rolls {
                    if sound(a, r) || !any_sound {
                        best = best.max(by_roll[usize::from(r - 1)]);
                    }
                }
            }
            total += best;
        }
    }
    total
}

/// Whether the seat to act attacked this turn: in the move phase, a turn that could not attack
/// is marked by `previous_could_not_attack` (H-END-1).
fn attacked_this_turn(state: &Hexdice) -> bool {
    !(matches!(state.phase, Phase::Move { .. }) && state.previous_could_not_attack)
}
