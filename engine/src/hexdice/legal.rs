//! Every action the seat to act may take (for bots, tests and load), and the action a clock
//! expiry takes. Built from the cell bitsets without allocating beyond the caller's vector.

use super::action::Action;
use super::board::cells_of;
use super::state::{Hexdice, Phase, opponent};
use crate::core::Seat;

/// Appends every legal action of the seat to act to `out`.
pub(crate) fn legal_actions(state: &Hexdice, out: &mut Vec<Action>) {
    match state.phase {
        Phase::Occupation { seat } => placements(state, seat, out),
        Phase::Attack { seat } => {
            single_attacks(state, seat, out);
            combined_attacks(state, seat, out);
        }
        Phase::ChooseAttack {
            attackers, rolls, ..
        } => choices(state, attackers, rolls, out),
        Phase::Conquest { .. } => {
            out.push(Action::Conquer { move_in: true });
            out.push(Action::Conquer { move_in: false });
        }
        Phase::Move { seat, conqueror } => {
            out.push(Action::EndTurn);
            moves(state, seat, conqueror, out);
        }
        Phase::Over { .. } => {}
    }
}

/// The clock's choice: the first placement (highest face on the first empty cell), the first
/// single attack, the first allowed choice, moving in, and no move.
pub(crate) fn timeout_action(state: &Hexdice) -> Option<Action> {
    match state.phase {
        Phase::Over { .. } => None,
        Phase::Conquest { .. } => Some(Action::Conquer { move_in: true }),
        Phase::Move { .. } => Some(Action::EndTurn),
        Phase::Occupation { .. } | Phase::Attack { .. } | Phase::ChooseAttack { .. } => {
            let mut out = Vec::new();
            legal_actions(state, &mut out);
            out.first().copied()
        }
    }
}

/// H-SETUP-4: each face the seat still holds (highest first) onto each empty cell.
fn placements(state: &Hexdice, seat: Seat, out: &mut Vec<Action>) {
    let faces = state.unplaced[seat.index() & 1];
    let empty = state.empty_cells();
    for cell in cells_of(empty) {
        for value in (1..=6u8).rev() {
            if faces[usize::from(value - 1)] > 0 {
                out.push(Action::Place { cell, value });
            }
        }
    }
}

/// H-ATK-1: each own die against each adjacent enemy die.
fn single_attacks(state: &Hexdice, seat: Seat, out: &mut Vec<Action>) {
    for from in cells_of(state.dice_of(seat)) {
        for target in cells_of(state.enemies_next_to(seat, from)) {
            out.push(Action::Attack { from, target });
        }
    }
}

/// H-ATK-7: each enemy die with each ordered pair of own dice next to it that fits the option.
/// Both orders are listed because both are accepted.
fn combined_attacks(state: &Hexdice, seat: Seat, out: &mut Vec<Action>) {
    let own = state.dice_of(seat);
    for target in cells_of(state.dice_of(opponent(seat))) {
        let around = state.board.neighbours(target) & own;
        if around.count_ones() < 2 {
            continue;
        }
        for a in cells_of(around) {
            for b in cells_of(around) {
                if a != b && state.sources_fit(a, b) {
                    out.push(Action::CombinedAttack {
                        attackers: [a, b],
                        target,
                    });
                }
            }
        }
    }
}

/// H-ATK-7, choice: each declared attacker with each distinct roll, leaving out failing pairs
/// while a non-failing pair exists.
fn choices(state: &Hexdice, attackers: [u8; 2], rolls: [u8; 2], out: &mut Vec<Action>) {
    let allow_failing = !state.has_non_failing_pair(attackers, rolls);
    let distinct: &[u8] = if rolls[0] == rolls[1] {
        &rolls[..1]
    } else {
        &rolls
    };
    for attacker in attackers {
        for &roll in distinct {
            if allow_failing || roll <= state.face_at(attacker) {
                out.push(Action::ChooseAttack { attacker, roll });
            }
        }
    }
}

/// H-MOVE-1..3: each own die that did not just conquer and touches no enemy, to each adjacent
/// empty cell.
fn moves(state: &Hexdice, seat: Seat, conqueror: Option<u8>, out: &mut Vec<Action>) {
    let empty = state.empty_cells();
    for from in cells_of(state.dice_of(seat)) {
        if Some(from) == conqueror || state.enemies_next_to(seat, from) != 0 {
            continue;
        }
        for to in cells_of(state.board.neighbours(from) & empty) {
            out.push(Action::Move { from, to });
        }
    }
}
