//! What a hexdice player can do. Cells are board indexes (`board.regions[i].id`); dice are named
//! by their face, since two dice showing the same face are interchangeable.
//!
//! JSON: `{"type": "place", "cell": 3, "value": 5}`, `{"type": "attack", "from": 3, "target": 4}`,
//! `{"type": "combined_attack", "attackers": [3, 8], "target": 4}`,
//! `{"type": "choose_attack", "attacker": 8, "roll": 2}`, `{"type": "conquer", "move_in": false}`,
//! `{"type": "move", "from": 3, "to": 9}`, `{"type": "end_turn"}`.

use serde::{Deserialize, Serialize};

/// One decision of the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Unknown fields are refused (`unknown_action`), as in every other client message.
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Occupation (H-SETUP-4): put one of your rolled dice, showing `value`, on the empty `cell`.
    Place {
        /// An empty cell.
        cell: u8,
        /// The face of one of your unplaced dice.
        value: u8,
    },
    /// A single attack (H-ATK-1): your die on `from` attacks the adjacent enemy die on `target`.
    Attack {
        /// Your attacking die's cell.
        from: u8,
        /// The enemy die's cell.
        target: u8,
    },
    /// The first step of a combined attack (H-ATK-7): declare two attackers against one target;
    /// the engine rolls both reserve dice, then you send [`Action::ChooseAttack`].
    CombinedAttack {
        /// Your two attacking dice's cells, in any order.
        attackers: [u8; 2],
        /// The enemy die's cell, adjacent to both.
        target: u8,
    },
    /// The second step of a combined attack: which declared attacker uses which rolled value.
    ChooseAttack {
        /// One of the two declared attackers' cells.
        attacker: u8,
        /// One of the two rolled values.
        roll: u8,
    },
    /// Under optional conquest, after the defender is removed: move the attacking die into the
    /// conquered cell, or stay.
    Conquer {
        /// True to move in.
        move_in: bool,
    },
    /// The optional move (H-MOVE-1): your die on `from` steps to the adjacent empty cell `to`.
    /// It ends the turn.
    Move {
        /// Your die's cell.
        from: u8,
        /// An adjacent empty cell.
        to: u8,
    },
    /// Ends the turn without moving.
    EndTurn,
}
