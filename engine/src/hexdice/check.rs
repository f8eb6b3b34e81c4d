//! Whether an action is allowed now. `check` only reads the state; [`super::execute`] then
//! carries out an action that passed, and cannot fail. Together they make `apply` atomic.

use super::action::Action;
use super::board::single;
use super::error::Error;
use super::state::{Hexdice, Phase, opponent};
use crate::core::Seat;

/// Checks `action` by `seat` against the rules and the pending decision.
pub(crate) fn check(state: &Hexdice, seat: Seat, action: &Action) -> Result<(), Error> {
    let Some(to_act) = state.seat_to_act() else {
        return Err(Error::GameOver);
    };
    // G-TURN-1: only the seat whose decision is pending may act.
    if seat != to_act {
        return Err(Error::NotYourTurn { seat, to_act });
    }
    match (state.phase, *action) {
        (Phase::Occupation { .. }, Action::Place { cell, value }) => {
            check_place(state, seat, cell, value)
        }
        (Phase::Attack { .. }, Action::Attack { from, target }) => {
            check_attacker(state, seat, from, target)
        }
        (Phase::Attack { .. }, Action::CombinedAttack { attackers, target }) => {
            check_combined(state, seat, attackers, target)
        }
        (
            Phase::ChooseAttack {
                attackers, rolls, ..
            },
            Action::ChooseAttack { attacker, roll },
        ) => check_choice(state, attackers, rolls, attacker, roll),
        (Phase::Conquest { .. }, Action::Conquer { .. }) => Ok(()),
        (Phase::Move { conqueror, .. }, Action::Move { from, to }) => {
            check_move(state, seat, conqueror, from, to)
        }
        (Phase::Move { .. }, Action::EndTurn) => Ok(()),
        (phase, _) => Err(Error::WrongPhase {
            expected: expected(phase),
        }),
    }
}

/// The pending decision in words, for [`Error::WrongPhase`].
fn expected(phase: Phase) -> &'static str {
    match phase {
        Phase::Occupation { .. } => "a die to be placed (place)",
        Phase::Attack { .. } => "the mandatory attack (attack or combined_attack)",
        Phase::ChooseAttack { .. } => "the choice of attacker and roll (choose_attack)",
        Phase::Conquest { .. } => "the decision to move in or stay (conquer)",
        Phase::Move { .. } => "the optional move (move or end_turn)",
        Phase::Over { .. } => "nothing: the game is over",
    }
}

/// H-SETUP-4: an unplaced die of that face onto an empty cell.
fn check_place(state: &Hexdice, seat: Seat, cell: u8, value: u8) -> Result<(), Error> {
    empty_cell(state, cell)?;
    let unplaced = state
        .unplaced
        .get(seat.index())
        .and_then(|faces| faces.get(usize::from(value).wrapping_sub(1)))
        .copied()
        .unwrap_or(0);
    if unplaced == 0 {
        return Err(Error::NoSuchDie { value });
    }
    Ok(())
}

/// H-ATK-1: one of the player's dice and an adjacent enemy die.
fn check_attacker(state: &Hexdice, seat: Seat, from: u8, target: u8) -> Result<(), Error> {
    own_die(state, seat, from)?;
    on_board(state, target)?;
    if !state.holds(opponent(seat), target) {
        return Err(Error::NotAnEnemyDie { cell: target });
    }
    if !state.board.adjacent(from, target) {
        return Err(Error::NotAdjacent { from, to: target });
    }
    Ok(())
}

/// H-ATK-7, declaration: two different dice of the player, both adjacent to the enemy die, and
/// touching each other or not as the room's option says.
fn check_combined(
    state: &Hexdice,
    seat: Seat,
    attackers: [u8; 2],
    target: u8,
) -> Result<(), Error> {
    let [a, b] = attackers;
    check_attacker(state, seat, a, target)?;
    check_attacker(state, seat, b, target)?;
    if a == b {
        return Err(Error::SameAttackerTwice);
    }
    if !state.sources_fit(a, b) {
        return Err(if state.board.adjacent(a, b) {
            Error::AttackersMustNotTouch
        } else {
            Error::AttackersMustTouch
        });
    }
    Ok(())
}

/// H-ATK-7, choice: a declared attacker and a rolled value, never a failing pair while a
/// non-failing one exists.
fn check_choice(
    state: &Hexdice,
    attackers: [u8; 2],
    rolls: [u8; 2],
    attacker: u8,
    roll: u8,
) -> Result<(), Error> {
    if !attackers.contains(&attacker) {
        return Err(Error::NotADeclaredAttacker { cell: attacker });
    }
    if !rolls.contains(&roll) {
        return Err(Error::NotARolledValue { value: roll });
    }
    if roll > state.face_at(attacker) && state.has_non_failing_pair(attackers, rolls) {
        return Err(Error::FailingChoice);
    }
    Ok(())
}

/// H-MOVE-1..3: one of the player's dice, not the conqueror, touching no enemy, one step to an
/// empty cell.
fn check_move(
    state: &Hexdice,
    seat: Seat,
    conqueror: Option<u8>,
    from: u8,
    to: u8,
) -> Result<(), Error> {
    own_die(state, seat, from)?;
    empty_cell(state, to)?;
    if !state.board.adjacent(from, to) {
        return Err(Error::NotAdjacent { from, to });
    }
    if conqueror == Some(from) {
        return Err(Error::DieJustConquered { cell: from });
    }
    if state.enemies_next_to(seat, from) != 0 {
        return Err(Error::DieInContact { cell: from });
    }
    Ok(())
}

fn on_board(state: &Hexdice, cell: u8) -> Result<(), Error> {
    if state.board.contains(cell) {
        Ok(())
    } else {
        Err(Error::NoSuchCell { cell })
    }
}

fn own_die(state: &Hexdice, seat: Seat, cell: u8) -> Result<(), Error> {
    on_board(state, cell)?;
    if state.holds(seat, cell) {
        Ok(())
    } else {
        Err(Error::NotYourDie { cell })
    }
}

fn empty_cell(state: &Hexdice, cell: u8) -> Result<(), Error> {
    on_board(state, cell)?;
    if state.empty_cells() & single(cell) == 0 {
        return Err(Error::CellOccupied { cell });
    }
    Ok(())
}
