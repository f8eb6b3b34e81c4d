//! The whole state of a hexdice match, the match's RNG included, and the read-only questions the
//! rules ask of it. Dice live in two per-player cell bitsets plus a face per cell, so adjacency
//! questions ("does this die touch an enemy?") are one AND.

use std::sync::Arc;

use super::board::{Board, CellSet, MAX_CELLS, cells_of, single};
use super::event::{Decider, EndCause};
use super::options::Options;
use crate::core::Seat;
use crate::rng::MatchRng;

/// Which decision the match is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// H-SETUP-4: `seat` puts a die on an empty cell.
    Occupation { seat: Seat },
    /// H-TURN-2: `seat` must attack (it has at least one legal attack).
    Attack { seat: Seat },
    /// H-ATK-7, second step: both reserve dice are rolled; `seat` picks attacker and roll.
    ChooseAttack {
        seat: Seat,
        attackers: [u8; 2],
        target: u8,
        /// Reserve slot `i` was rolled as `rolls[i]`.
        rolls: [u8; 2],
    },
    /// Optional conquest: the defender on `target` was removed; `seat` decides whether the die on
    /// `from` moves in.
    Conquest { seat: Seat, from: u8, target: u8 },
    /// H-TURN-3: `seat` may move once or end the turn. `conqueror` is the cell of the die that
    /// moved into a conquered cell this turn (H-MOVE-2).
    Move { seat: Seat, conqueror: Option<u8> },
    /// The game is over.
    Over {
        winner: Seat,
        cause: EndCause,
        decided_by: Decider,
    },
}

/// A hexdice match.
#[derive(Clone, Debug, PartialEq)]
pub struct Hexdice {
    /// The room's options, kept for the variant rules.
    pub(crate) options: Options,
    /// The board; shared because it never changes during a match.
    pub(crate) board: Arc<Board>,
    /// Every random draw of the match comes from here (G-RNG-1).
    pub(crate) rng: MatchRng,
    /// The cells holding each seat's dice.
    pub(crate) owned: [CellSet; 2],
    /// The face of the die on each cell (0 when empty).
    pub(crate) face: [u8; MAX_CELLS],
    /// During the occupation: how many unplaced dice of each face (index face - 1) each seat has.
    pub(crate) unplaced: [[u8; 6]; 2],
    /// From the end of the occupation: each seat's two reserve dice, as they last showed.
    pub(crate) reserve: [[u8; 2]; 2],
    /// The pending decision.
    pub(crate) phase: Phase,
    /// H-SETUP-3: who started the occupation (a tie-break of H-SETUP-5 and, as an option, H-END-2).
    pub(crate) occupation_starter: Seat,
    /// H-SETUP-5: who took the first turn (the default last tie-break of H-END-2).
    pub(crate) first_turn: Option<Seat>,
    /// Turns begun so far (0 during the occupation).
    pub(crate) turn: u32,
    /// H-END-1: whether the turn before the current one had no legal attack.
    pub(crate) previous_could_not_attack: bool,
}

/// The other seat of a two-seat game.
pub(crate) fn opponent(seat: Seat) -> Seat {
    Seat(1 - (seat.0 & 1))
}

impl Hexdice {
    /// The seat whose decision is pending.
    pub(crate) fn seat_to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Occupation { seat }
            | Phase::Attack { seat }
            | Phase::ChooseAttack { seat, .. }
            | Phase::Conquest { seat, .. }
            | Phase::Move { seat, .. } => Some(seat),
            Phase::Over { .. } => None,
        }
    }

    /// The cells holding `seat`'s dice (empty for a seat that is not playing).
    pub(crate) fn dice_of(&self, seat: Seat) -> CellSet {
        self.owned.get(seat.index()).copied().unwrap_or(0)
    }

    /// The cells without a die.
    pub(crate) fn empty_cells(&self) -> CellSet {
        self.board.all() & !(self.owned[0] | self.owned[1])
    }

    /// True when `cell` holds one of `seat`'s dice.
    pub(crate) fn holds(&self, seat: Seat, cell: u8) -> bool {
        self.dice_of(seat) & single(cell) != 0
    }

    /// The face on `cell` (0 when empty or off the board).
    pub(crate) fn face_at(&self, cell: u8) -> u8 {
        self.face.get(usize::from(cell)).copied().unwrap_or(0)
    }

    /// The enemy dice adjacent to `cell`, enemies of `seat`.
    pub(crate) fn enemies_next_to(&self, seat: Seat, cell: u8) -> CellSet {
        self.board.neighbours(cell) & self.dice_of(opponent(seat))
    }

    /// H-TURN-2: whether `seat` has any legal attack (one of its dice touches an enemy die).
    pub(crate) fn can_attack(&self, seat: Seat) -> bool {
        cells_of(self.dice_of(seat)).any(|cell| self.enemies_next_to(seat, cell) != 0)
    }

    /// Dice on the board of `seat`.
    pub(crate) fn dice_count(&self, seat: Seat) -> u8 {
        // At most 36 bits are set.
        self.dice_of(seat).count_ones() as u8
    }

    /// Pips on the board of `seat`.
    pub(crate) fn pips(&self, seat: Seat) -> u16 {
        cells_of(self.dice_of(seat))
            .map(|cell| u16::from(self.face_at(cell)))
            .sum()
    }

    /// H-ATK-7: whether `a` and `b` may be the two sources of a combined attack under the room's
    /// option (they are assumed distinct).
    pub(crate) fn sources_fit(&self, a: u8, b: u8) -> bool {
        use super::options::CombinedAttackSources::*;
        let touching = self.board.adjacent(a, b);
        match self.options.combined_attack_sources {
            Adjacent => touching,
            NotAdjacent => !touching,
        }
    }

    /// H-ATK-7: whether some (attacker, roll) pair of a combined attack does not fail.
    pub(crate) fn has_non_failing_pair(&self, attackers: [u8; 2], rolls: [u8; 2]) -> bool {
        attackers
            .iter()
            .any(|&a| rolls.iter().any(|&r| r <= self.face_at(a)))
    }
}
