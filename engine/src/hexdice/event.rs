//! What happened in a hexdice match. Every die rolled is in an event, so a viewer (and a replay)
//! can follow every roll. Cells are board indexes; a value of 0 means the die was removed.

use serde::{Deserialize, Serialize};

use crate::core::Seat;

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// H-SETUP-2: a player rolled all of their dice.
    SetupRolled {
        /// Whose dice.
        seat: Seat,
        /// The faces, in the order rolled.
        dice: Vec<u8>,
    },
    /// H-SETUP-3: both rolls were the same multiset, so both roll again.
    SetupRerolled,
    /// H-SETUP-3: who starts the occupation.
    OccupationStarter {
        /// The player with more 6s (then 5s, ...).
        seat: Seat,
    },
    /// H-SETUP-4: a die was put on a cell.
    Placed {
        /// Whose die.
        seat: Seat,
        /// Where.
        cell: u8,
        /// Its face.
        value: u8,
    },
    /// H-SETUP-4/5: the board is full; the dice left are the reserves, and their sums pick the
    /// first player.
    OccupationEnded {
        /// Each seat's two reserve dice.
        reserves: [[u8; 2]; 2],
        /// Who takes the first turn.
        first_turn: Seat,
    },
    /// A turn begins.
    TurnStarted {
        /// Whose turn.
        seat: Seat,
        /// Turn number, from 1.
        turn: u32,
    },
    /// H-TURN-2: the player had no legal attack; the attack phase is skipped.
    CouldNotAttack {
        /// Whose turn.
        seat: Seat,
    },
    /// H-ATK-1: a single attack was declared and one reserve die rolled.
    AttackRolled {
        /// The attacker.
        seat: Seat,
        /// The attacking die's cell.
        from: u8,
        /// The defending die's cell.
        target: u8,
        /// The rolled value.
        roll: u8,
    },
    /// H-ATK-7: a combined attack was declared and both reserve dice rolled; the attacker
    /// chooses next.
    CombinedAttackRolled {
        /// The attacker.
        seat: Seat,
        /// The two attacking dice's cells, as declared.
        attackers: [u8; 2],
        /// The defending die's cell.
        target: u8,
        /// The two rolled values, reserve slot order.
        rolls: [u8; 2],
    },
    /// H-ATK-2..4: how an attack came out.
    AttackResolved {
        /// The attacker.
        seat: Seat,
        /// The attacking die's cell.
        from: u8,
        /// The defending die's cell.
        target: u8,
        /// The roll used.
        roll: u8,
        /// Valid, perfect or failed.
        result: AttackResult,
        /// The face on `from` afterwards (0: removed).
        attacker_value: u8,
        /// The face on `target` afterwards (0: removed).
        defender_value: u8,
    },
    /// H-ATK-5/6: a die fell to 0 and left the game.
    DieRemoved {
        /// Whose die.
        seat: Seat,
        /// The cell it left empty.
        cell: u8,
    },
    /// H-ATK-5: the attacking die moved into the conquered cell.
    Conquered {
        /// The attacker.
        seat: Seat,
        /// The cell it left.
        from: u8,
        /// The conquered cell.
        to: u8,
    },
    /// Optional conquest: the attacker chose to stay.
    StayedPut {
        /// The attacker.
        seat: Seat,
        /// Where the attacking die stays.
        cell: u8,
    },
    /// H-MOVE-1: a die stepped to an empty cell.
    Moved {
        /// Whose die.
        seat: Seat,
        /// From.
        from: u8,
        /// To.
        to: u8,
    },
    /// H-TURN-3: the player ended the turn without moving.
    MoveSkipped {
        /// Whose turn.
        seat: Seat,
    },
    /// H-END-1/2: the game is over.
    GameOver {
        /// Who won.
        winner: Seat,
        /// Why the game ended.
        cause: EndCause,
        /// Which criterion of H-END-2 decided the winner.
        decided_by: Decider,
        /// Dice on the board per seat.
        dice: [u8; 2],
        /// Pips on the board per seat.
        pips: [u16; 2],
    },
}

/// H-ATK-2..4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackResult {
    /// Roll below the attacker: the defender loses the roll, the rolled die replaces the attacker.
    Valid,
    /// Roll equal to the attacker: the defender loses the roll, the attacker is unchanged.
    Perfect,
    /// Roll above the attacker: the attacker loses 1.
    Failed,
}

/// H-END-1: why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCause {
    /// Neither player could attack in two consecutive turns.
    NoAttacksLeft,
    /// A player has no die on the board.
    NoDiceLeft,
}

/// H-END-2: what decided the winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// More dice on the board.
    MoreDice,
    /// Equal dice, more pips.
    HigherPipSum,
    /// Equal dice and pips: the player who took the first turn.
    FirstTurn,
    /// Equal dice and pips: the occupation starter (room option).
    OccupationStarter,
}
