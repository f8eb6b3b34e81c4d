//! What a viewer sees of a hexdice match. Everything in hexdice is public except the seed and
//! the RNG, so every viewer, spectators included, gets the same view.

use serde::Serialize;

use super::event::{Decider, EndCause};
use super::options::Options;
use super::state::{Hexdice, Phase};
use crate::core::Seat;
use crate::hex::RegionShape;

/// The whole visible state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// The board, one region per cell; region `i` is cell `i` of the actions.
    pub board: BoardView,
    /// The die on each cell, by cell index (`null` when empty).
    pub cells: Vec<Option<DieView>>,
    /// The pending decision.
    pub phase: PhaseView,
    /// The seat to act (`null` once over).
    pub to_act: Option<Seat>,
    /// Each seat's dice off the board.
    pub players: [PlayerView; 2],
    /// Who started the occupation (H-SETUP-3).
    pub occupation_starter: Seat,
    /// Who took the first turn (H-SETUP-5), once the occupation is over.
    pub first_turn: Option<Seat>,
    /// Turns begun so far.
    pub turn: u32,
    /// The room's options.
    pub options: Options,
}

/// The drawable board shared by every ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// One region per cell.
    pub regions: Vec<RegionShape>,
}

/// A die on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DieView {
    /// Whose die.
    pub owner: Seat,
    /// Its face.
    pub value: u8,
}

/// One seat's dice off the board and its totals on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Rolled dice still to place during the occupation (highest first).
    pub unplaced: Vec<u8>,
    /// The two reserve dice once the occupation is over (empty before).
    pub reserve: Vec<u8>,
    /// Dice on the board.
    pub dice_on_board: u8,
    /// Pips on the board.
    pub pips_on_board: u16,
}

/// The pending decision, e.g. `{"phase": "attack", "seat": 0}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    /// `seat` places a die.
    Occupation {
        /// Who places.
        seat: Seat,
    },
    /// `seat` must attack.
    Attack {
        /// Who attacks.
        seat: Seat,
    },
    /// `seat` chooses attacker and roll of a combined attack.
    ChooseAttack {
        /// Who chooses.
        seat: Seat,
        /// The declared attackers' cells.
        attackers: [u8; 2],
        /// The defender's cell.
        target: u8,
        /// The two rolled values.
        rolls: [u8; 2],
    },
    /// `seat` decides whether the die on `from` moves into `target`.
    Conquest {
        /// Who decides.
        seat: Seat,
        /// The attacking die's cell.
        from: u8,
        /// The conquered, now empty, cell.
        target: u8,
    },
    /// `seat` may move once or end the turn.
    Move {
        /// Whose turn.
        seat: Seat,
        /// The die that conquered this turn and may not move.
        conqueror: Option<u8>,
    },
    /// The game is over.
    Over {
        /// Who won.
        winner: Seat,
        /// Why it ended.
        cause: EndCause,
        /// What decided the winner.
        decided_by: Decider,
    },
}

impl From<Phase> for PhaseView {
    fn from(phase: Phase) -> Self {
        match phase {
            Phase::Occupation { seat } => PhaseView::Occupation { seat },
            Phase::Attack { seat } => PhaseView::Attack { seat },
            Phase::ChooseAttack {
                seat,
                attackers,
                target,
                rolls,
            } => PhaseView::ChooseAttack {
                seat,
                attackers,
                target,
                rolls,
            },
            Phase::Conquest { seat, from, target } => PhaseView::Conquest { seat, from, target },
            Phase::Move { seat, conqueror } => PhaseView::Move { seat, conqueror },
            Phase::Over {
                winner,
                cause,
                decided_by,
            } => PhaseView::Over {
                winner,
                cause,
                decided_by,
            },
        }
    }
}

/// The view of `state`; the same for every viewer. Without `board`, its regions are left empty
/// ([`crate::Ruleset::dynamic_view`]).
pub(crate) fn view(state: &Hexdice, board: bool) -> View {
    let cells = (0..state.board.len())
        .map(|index| {
            // A board has at most 36 cells, so the index fits in u8.
            let cell = index as u8;
            [Seat(0), Seat(1)]
                .into_iter()
                .find(|&seat| state.holds(seat, cell))
                .map(|owner| DieView {
                    owner,
                    value: state.face_at(cell),
                })
        })
        .collect();
    let in_play = !matches!(state.phase, Phase::Occupation { .. });
    let player = |seat: Seat| {
        let faces = state.unplaced[seat.index() & 1];
        PlayerView {
            unplaced: (1..=6u8)
                .rev()
                .flat_map(|face| {
                    std::iter::repeat_n(face, usize::from(faces[usize::from(face - 1)]))
                })
                .collect(),
            reserve: if in_play {
                state.reserve[seat.index() & 1].to_vec()
            } else {
                Vec::new()
            },
            dice_on_board: state.dice_count(seat),
            pips_on_board: state.pips(seat),
        }
    };
    View {
        board: BoardView {
            regions: if board {
                state.board.regions()
            } else {
                Vec::new()
            },
        },
        cells,
        phase: state.phase.into(),
        to_act: state.seat_to_act(),
        players: [player(Seat(0)), player(Seat(1))],
        occupation_starter: state.occupation_starter,
        first_turn: state.first_turn,
        turn: state.turn,
        options: state.options.clone(),
    }
}
