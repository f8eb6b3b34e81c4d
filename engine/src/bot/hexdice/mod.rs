//! The hexdice bot. It scores each listed legal action and plays the best (ties broken by its
//! own [`BotRng`]); scores are exact expectations over the dice, never a draw of the match RNG.
//!
//! - Occupation: each placement is scored by the material placed and the best attack each side
//!   would then have, so strong dice go first (the two weakest stay in reserve) and face weak
//!   enemy dice, while weak dice keep away from strong ones.
//! - Attack: a single attack averages its 6 rolls; a combined attack (H-ATK-7) averages its 36
//!   roll pairs, taking for each the best allowed (attacker, roll) choice, which is how the bot
//!   then chooses. Each outcome is scored by [`eval`] as the position right after the attack.
//! - Move: every move and "no move" are scored by [`eval`]: the coming forced attack of the other
//!   seat, our next attack, and whether the game is about to end with us ahead (H-END-1).
//! - `hard` looks one turn further ([`reply`]): each attack outcome is followed by our best ends
//!   of turn ([`HARD_MOVES`] by `normal`'s score: no move or one move), and every end of our
//!   turn (after an attack, a choice, a conquest or a move) by the other seat's whole reply turn
//!   as `normal` plays it, its forced attack weighed over all its rolls. Only `normal`'s best
//!   [`HARD_CANDIDATES`] attack scores are looked at this deep, to stay within the time budget.
//!   Its placements ([`occupation`]) are scored after the other seat's best reply placement,
//!   and it keeps back a reserve that takes the first turn (H-SETUP-5) while it can.
//! - `easy` plays a uniformly random legal action one time in three and otherwise scores by
//!   material alone, without looking at threats.

mod eval;
mod model;
mod occupation;
mod reply;

use crate::bot::{BotLevel, BotRng, best_scored, think_or_take};
use crate::hexdice::board::cells_of;
use crate::hexdice::state::Phase;
use crate::hexdice::{Action, CombinedAttackSources, Conquest, Hexdice, LastTiebreak};

use self::eval::Rules;
use self::model::{Position, side_of};

/// The action the bot of `level` takes for the seat to act (`None` once the game is over).
pub(crate) fn choose(state: &Hexdice, level: BotLevel, rng: &mut BotRng) -> Option<Action> {
    let legal = match think_or_take(state, level, rng, |_| true) {
        Ok(legal) => legal,
        Err(taken) => return taken,
    };
    let seat = state.seat_to_act()?;
    let tiebreak = match state.options.last_tiebreak {
        LastTiebreak::FirstTurn => state.first_turn.unwrap_or(state.occupation_starter),
        LastTiebreak::OccupationStarter => state.occupation_starter,
    };
    let planner = Planner {
        rules: Rules {
            board: &state.board,
            sources_touch: state.options.combined_attack_sources == CombinedAttackSources::Adjacent,
            tiebreak: side_of(tiebreak),
        },
        side: side_of(seat),
        level,
        optional_conquest: state.options.conquest == Conquest::Optional,
    };
    let pos = Position::of(state);
    let scores = if level == BotLevel::Hard && matches!(state.phase, Phase::Attack { .. }) {
        planner.score_candidates(state, &pos, &legal)
    } else {
        let mut outcomes = Outcomes::default();
        legal
            .iter()
            .map(|action| planner.score(state, &pos, action, &mut outcomes))
            .collect()
    };
    best_scored(&legal, &scores, rng)
}

/// How many of `normal`'s best attack scores `hard` looks at with the reply turn (mirrored
/// combined attacks share a score; the rest are never chosen). With [`HARD_MOVES`] this keeps
/// a decision's p99 near 0.75 ms of computing on the default board (bench/RESULTS.md).
const HARD_CANDIDATES: usize = 4;

/// How many ends of our turn after an attack outcome (no move, or one move), the best by
/// `normal`'s score, `hard` follows with the reply turn.
const HARD_MOVES: usize = 4;

/// What the bot needs to score actions for one seat.
#[derive(Clone, Copy)]
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
                if self.level == BotLevel::Hard {
                    return self.placement_looking_ahead(state, &after, value);
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

    /// `hard`'s scores of the listed attacks: `normal`'s best [`HARD_CANDIDATES`] scores (every
    /// action sharing one) rescored with the reply turn, the others never preferred.
    fn score_candidates(&self, state: &Hexdice, pos: &Position, legal: &[Action]) -> Vec<i64> {
        let normal = Planner {
            level: BotLevel::Normal,
            ..*self
        };
        let mut outcomes = Outcomes::default();
        let first: Vec<i64> = legal
            .iter()
            .map(|action| normal.score(state, pos, action, &mut outcomes))
            .collect();
        let mut ranked = first.clone();
        ranked.sort_unstable_by(|a, b| b.cmp(a));
        ranked.dedup();
        let cut = ranked.get(HARD_CANDIDATES - 1).copied().unwrap_or(i64::MIN);
        let mut outcomes = Outcomes::default();
        legal
            .iter()
            .zip(&first)
            .map(|(action, &score)| {
                if score >= cut {
                    self.score(state, pos, action, &mut outcomes)
                } else {
                    i64::MIN
                }
            })
            .collect()
    }

    /// The scores of the die on `from` attacking `target`, for each roll 1..=6.
    fn rolls(&self, pos: &Position, from: u8, target: u8, memo: &mut Outcomes) -> [i64; 6] {
        if let Some((_, scores)) = memo.0.iter().find(|(key, _)| *key == (from, target)) {
            return *scores;
        }
        let scores = per_roll(pos.face_at(from), |roll| {
            let mut after = *pos;
            let conqueror = after.resolve(self.side, from, target, roll, true);
            let mut score = self.after_attack(&after, conqueror);
            if self.optional_conquest && conqueror.is_some() {
                // The attacker may stay instead: the bot will pick the better (see `score`).
                let mut stayed = *pos;
                stayed.resolve(self.side, from, target, roll, false);
                score = score.max(self.after_attack(&stayed, None));
            }
            score
        });
        memo.0.push(((from, target), scores));
        scores
    }

    /// The worth of the position right after our attack, before the move: as it stands
    /// (`normal`), or after our best move and the other seat's reply turn (`hard`).
    fn after_attack(&self, pos: &Position, conqueror: Option<u8>) -> i64 {
        if let Some(decided) = self.rules.decided(pos, self.side) {
            return decided;
        }
        match self.level {
            BotLevel::Easy => self.material_only(pos),
            BotLevel::Normal => self.rules.evaluate(pos, self.side, true),
            BotLevel::Hard => {
                let mut ends: Vec<(i64, Position)> = self
                    .ends_of_turn(pos, conqueror)
                    .map(|end| (self.rules.evaluate(&end, self.side, true), end))
                    .collect();
                // Stable: among equal scores the order of listing is kept.
                ends.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                ends.iter()
                    .take(HARD_MOVES)
                    .map(|(_, end)| self.after_reply(end, true))
                    .max()
                    .unwrap_or(i64::MIN)
            }
        }
    }

    /// The positions our turn can end in from `pos`: as it stands (no move) first, then after
    /// each allowed move (H-MOVE-1..3: not the die on `conqueror`, not a die in contact).
    fn ends_of_turn<'p>(
        &'p self,
        pos: &'p Position,
        conqueror: Option<u8>,
    ) -> impl Iterator<Item = Position> + 'p {
        let empty = pos.empty(self.rules.board);
        let enemy = pos.dice(1 - self.side);
        let movable = cells_of(pos.dice(self.side)).filter(move |&from| {
            Some(from) != conqueror && self.rules.board.neighbours(from) & enemy == 0
        });
        let moves = movable.flat_map(move |from| {
            cells_of(self.rules.board.neighbours(from) & empty).map(move |to| {
                let mut moved = *pos;
                moved.relocate(self.side, from, to);
                moved
            })
        });
        std::iter::once(*pos).chain(moves)
    }

    /// The worth of the position when our turn ends: as it stands (`normal`), or after the
    /// other seat's reply turn (`hard`).
    fn end_of_turn(&self, pos: &Position, attacked: bool) -> i64 {
        match self.level {
            BotLevel::Easy => self.material_only(pos),
            BotLevel::Normal => self.rules.evaluate(pos, self.side, attacked),
            BotLevel::Hard => self.after_reply(pos, attacked),
        }
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

/// `score` of each roll 1..=6 of an attacker showing `face`. Every failing roll (above the face)
/// leaves the same position (H-ATK-4), so it is scored once.
fn per_roll(face: u8, mut score: impl FnMut(u8) -> i64) -> [i64; 6] {
    let mut scores = [0; 6];
    for roll in 1..=6u8 {
        let i = usize::from(roll - 1);
        scores[i] = if roll > face.saturating_add(1) {
            scores[i - 1]
        } else {
            score(roll)
        };
    }
    scores
}

/// 36 times the expected score of a combined attack whose attackers show `faces`, given each
/// attacker's score for each roll: for each of the 36 roll pairs, the best allowed choice
/// (never a failing pair while a non-failing one exists, H-ATK-7).
fn combined_expectation(faces: [u8; 2], scores: [[i64; 6]; 2]) -> i64 {
    roll_pairs()
        .map(|rolls| {
            allowed_choices(faces, rolls)
                .map(|(attacker, roll)| scores[attacker][roll])
                .max()
                .unwrap_or(i64::MIN)
        })
        .sum()
}

/// The 36 roll pairs of a combined attack (H-ATK-7), first roll varying slowest.
fn roll_pairs() -> impl Iterator<Item = [u8; 2]> {
    (1..=6u8).flat_map(|r1| (1..=6u8).map(move |r2| [r1, r2]))
}

/// The (attacker, roll index) choices H-ATK-7 allows for the roll pair `rolls` when the two
/// attackers show `faces`: every pair that does not fail (roll ≤ attacker), or all four when
/// each fails; attacker first, then the rolls in their order.
fn allowed_choices(faces: [u8; 2], rolls: [u8; 2]) -> impl Iterator<Item = (usize, usize)> {
    let sound = move |attacker: usize, roll: u8| roll <= faces[attacker];
    let any_sound = (0..2).any(|a| rolls.iter().any(|&r| sound(a, r)));
    (0..2).flat_map(move |attacker| {
        rolls
            .into_iter()
            .filter(move |&roll| sound(attacker, roll) || !any_sound)
            .map(move |roll| (attacker, usize::from(roll - 1)))
    })
}

/// Whether the seat to act attacked this turn: in the move phase, a turn that could not attack
/// is marked by `previous_could_not_attack` (H-END-1).
fn attacked_this_turn(state: &Hexdice) -> bool {
    !(matches!(state.phase, Phase::Move { .. }) && state.previous_could_not_attack)
}
