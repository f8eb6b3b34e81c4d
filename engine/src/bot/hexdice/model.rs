//! The hexdice bot's model of a position: who holds which cell with which face, and the attack
//! resolution of H-ATK-2..6 replayed with a roll the bot chooses to consider (never drawn), so
//! every outcome can be weighed by its exact probability.

use crate::core::Seat;
use crate::hexdice::Hexdice;
use crate::hexdice::board::{Board, CellSet, MAX_CELLS, single};

/// The dice on the board, by seat index and cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Position {
    /// The cells holding each seat's dice.
    pub owned: [CellSet; 2],
    /// The face on each cell (0 when empty).
    pub face: [u8; MAX_CELLS],
}

impl Position {
    /// The dice of a match as they stand now.
    pub fn of(state: &Hexdice) -> Position {
        Position {
            owned: state.owned,
            face: state.face,
        }
    }

    /// The face on `cell` (0 when empty).
    pub fn face_at(&self, cell: u8) -> u8 {
        self.face.get(usize::from(cell)).copied().unwrap_or(0)
    }

    /// The cells of seat index `side`.
    pub fn dice(&self, side: usize) -> CellSet {
        self.owned[side & 1]
    }

    /// The cells without a die.
    pub fn empty(&self, board: &Board) -> CellSet {
        board.all() & !(self.owned[0] | self.owned[1])
    }

    /// H-ATK-2..6: the die of `side` on `from` attacks `target` and `roll` comes up. A conquest
    /// moves the attacker in when `move_in` (always, under mandatory conquest). Returns the cell
    /// of a die that conquered, which may not move this turn (H-MOVE-2).
    pub fn resolve(
        &mut self,
        side: usize,
        from: u8,
        target: u8,
        roll: u8,
        move_in: bool,
    ) -> Option<u8> {
        let attacker = self.face_at(from);
        let defender = self.face_at(target);
        let (attacker_after, defender_after) = match roll.cmp(&attacker) {
            std::cmp::Ordering::Less => (roll, defender.saturating_sub(roll)),
            std::cmp::Ordering::Equal => (attacker, defender.saturating_sub(roll)),
            std::cmp::Ordering::Greater => (attacker.saturating_sub(1), defender),
        };
        self.set(from, attacker_after);
        self.set(target, defender_after);
        if attacker_after == 0 {
            self.owned[side & 1] &= !single(from);
            None
        } else if defender_after == 0 {
            self.owned[1 - (side & 1)] &= !single(target);
            if move_in {
                self.relocate(side, from, target);
                Some(target)
            } else {
                None
            }
        } else {
            None
        }
    }

    /// H-MOVE-1: the die of `side` on `from` steps to the empty `to`.
    pub fn relocate(&mut self, side: usize, from: u8, to: u8) {
        let value = self.face_at(from);
        self.set(from, 0);
        self.set(to, value);
        self.owned[side & 1] = (self.owned[side & 1] & !single(from)) | single(to);
    }

    fn set(&mut self, cell: u8, value: u8) {
        if let Some(slot) = self.face.get_mut(usize::from(cell)) {
            *slot = value;
        }
    }
}

/// The seat index of `seat` (0 or 1).
pub(super) fn side_of(seat: Seat) -> usize {
    seat.index() & 1
}
