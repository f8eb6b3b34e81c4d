//! Why a hexdice action is refused. Every variant has a stable snake_case code (never renamed)
//! and a message for a person.

use crate::core::{RuleError, Seat};

/// A refused action. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The match has ended.
    #[error("the game is over")]
    GameOver,
    /// G-TURN-1: another seat is to act.
    #[error("it is seat {to_act}'s decision, not seat {seat}'s")]
    NotYourTurn {
        /// Who sent the action.
        seat: Seat,
        /// Who is to act.
        to_act: Seat,
    },
    /// The action does not fit the pending decision.
    #[error("that is not possible now: the game is waiting for {expected}")]
    WrongPhase {
        /// What the game is waiting for, in words.
        expected: &'static str,
    },
    /// The cell index is not on this board.
    #[error("there is no cell {cell} on this board")]
    NoSuchCell {
        /// The index given.
        cell: u8,
    },
    /// The cell already holds a die.
    #[error("cell {cell} already holds a die")]
    CellOccupied {
        /// The cell.
        cell: u8,
    },
    /// H-SETUP-4: the player has no unplaced die with that face.
    #[error("you have no unplaced die showing {value}")]
    NoSuchDie {
        /// The face asked for.
        value: u8,
    },
    /// The cell does not hold one of the player's dice.
    #[error("cell {cell} does not hold one of your dice")]
    NotYourDie {
        /// The cell.
        cell: u8,
    },
    /// H-ATK-1: the target cell does not hold an enemy die.
    #[error("cell {cell} does not hold an enemy die")]
    NotAnEnemyDie {
        /// The cell.
        cell: u8,
    },
    /// The two cells do not share an edge.
    #[error("cells {from} and {to} are not adjacent")]
    NotAdjacent {
        /// One cell.
        from: u8,
        /// The other.
        to: u8,
    },
    /// H-ATK-7: a combined attack needs two different dice.
    #[error("a combined attack needs two different attacking dice")]
    SameAttackerTwice,
    /// H-ATK-7 (default option): the two attackers must touch.
    #[error("the two attackers of a combined attack must be adjacent to each other")]
    AttackersMustTouch,
    /// H-ATK-7 (`not_adjacent` option): the two attackers must not touch.
    #[error("the two attackers of a combined attack must not be adjacent to each other")]
    AttackersMustNotTouch,
    /// H-ATK-7: the chosen attacker is not one of the two declared.
    #[error("cell {cell} is not one of the two declared attackers")]
    NotADeclaredAttacker {
        /// The cell.
        cell: u8,
    },
    /// H-ATK-7: the chosen roll is not one of the two rolled.
    #[error("{value} is not one of the two rolled values")]
    NotARolledValue {
        /// The value.
        value: u8,
    },
    /// H-ATK-7: a failing pair was chosen while a non-failing one exists.
    #[error("that choice fails the attack, and a choice that does not fail exists")]
    FailingChoice,
    /// H-MOVE-2: the die that conquered this turn may not move.
    #[error("the die on cell {cell} conquered this turn and may not move")]
    DieJustConquered {
        /// The cell.
        cell: u8,
    },
    /// H-MOVE-3: a die touching an enemy die may not move.
    #[error("the die on cell {cell} touches an enemy die and may not move away")]
    DieInContact {
        /// The cell.
        cell: u8,
    },
}

impl RuleError for Error {
    fn code(&self) -> &'static str {
        match self {
            Error::GameOver => "game_over",
            Error::NotYourTurn { .. } => "not_your_turn",
            Error::WrongPhase { .. } => "wrong_phase",
            Error::NoSuchCell { .. } => "no_such_cell",
            Error::CellOccupied { .. } => "cell_occupied",
            Error::NoSuchDie { .. } => "no_such_die",
            Error::NotYourDie { .. } => "not_your_die",
            Error::NotAnEnemyDie { .. } => "not_an_enemy_die",
            Error::NotAdjacent { .. } => "not_adjacent",
            Error::SameAttackerTwice => "same_attacker_twice",
            Error::AttackersMustTouch => "attackers_must_touch",
            Error::AttackersMustNotTouch => "attackers_must_not_touch",
            Error::NotADeclaredAttacker { .. } => "not_a_declared_attacker",
            Error::NotARolledValue { .. } => "not_a_rolled_value",
            Error::FailingChoice => "failing_choice",
            Error::DieJustConquered { .. } => "die_just_conquered",
            Error::DieInContact { .. } => "die_in_contact",
        }
    }

    fn params(&self) -> Vec<(&'static str, i64)> {
        match *self {
            Error::NotYourTurn { seat, to_act } => {
                vec![("seat", i64::from(seat.0)), ("to_act", i64::from(to_act.0))]
            }
            Error::NoSuchCell { cell }
            | Error::CellOccupied { cell }
            | Error::NotYourDie { cell }
            | Error::NotAnEnemyDie { cell }
            | Error::NotADeclaredAttacker { cell }
            | Error::DieJustConquered { cell }
            | Error::DieInContact { cell } => vec![("cell", i64::from(cell))],
            Error::NoSuchDie { value } | Error::NotARolledValue { value } => {
                vec![("value", i64::from(value))]
            }
            Error::NotAdjacent { from, to } => {
                vec![("from", i64::from(from)), ("to", i64::from(to))]
            }
            Error::GameOver
            | Error::WrongPhase { .. }
            | Error::SameAttackerTwice
            | Error::AttackersMustTouch
            | Error::AttackersMustNotTouch
            | Error::FailingChoice => Vec::new(),
        }
    }
}
