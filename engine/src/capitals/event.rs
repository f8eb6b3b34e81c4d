//! What happened in a capitals match: every production, order, die and capture, so that a client
//! can animate a turn and a replay can be checked roll by roll.

use serde::{Deserialize, Serialize};

use super::action::Path;
use super::map::AreaId;
use super::units::{Die, Selection, Units};
use crate::core::Seat;

/// A side in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The attacking units.
    Attacker,
    /// The units in the target area.
    Defender,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The first player was drawn (C-ROUND-1).
    FirstPlayerDrawn {
        /// Who plays first.
        seat: Seat,
    },
    /// A new round began: every used mark is cleared (C-ROUND-1).
    RoundStarted {
        /// The round number, from 1.
        round: u32,
    },
    /// A neutral area gained one d6 at the start of a round (C-NEUTRAL-1).
    NeutralGrew {
        /// The area.
        area: AreaId,
    },
    /// A player's turn began.
    TurnStarted {
        /// Whose turn.
        seat: Seat,
        /// The round it belongs to.
        round: u32,
    },
    /// An area produced units at the start of its owner's turn (C-PROD-1).
    Produced {
        /// The area.
        area: AreaId,
        /// Units that arrived (unused).
        units: Selection,
        /// Units lost to the cap of 10 (C-UNIT-1).
        lost: u8,
    },
    /// Units moved between own areas (C-TRANS-1).
    Transported {
        /// The source.
        from: AreaId,
        /// The target.
        to: AreaId,
        /// What moved (now used).
        units: Selection,
    },
    /// An attack set off (C-ATK-1, C-DEEP-1).
    AttackLaunched {
        /// The path, source first, target last.
        path: Path,
        /// The attacking units.
        units: Selection,
        /// Highest counted result of each attacking d6 (6 unless a deep path lowers it).
        d6_cap: u8,
        /// Highest counted result of each attacking d8.
        d8_cap: u8,
    },
    /// One die of a battle (C-BATTLE-1).
    DieRolled {
        /// Whose die.
        side: Side,
        /// Which kind.
        die: Die,
        /// The face rolled.
        rolled: u8,
        /// What it counts for after the deep-attack cap (equal to `rolled` when uncapped).
        counted: u8,
    },
    /// The battle's result (C-BATTLE-2, C-BATTLE-3).
    BattleResolved {
        /// The attacker's sum.
        attack: u16,
        /// The defender's sum.
        defence: u16,
        /// Who won (ties go to the defender).
        winner: Side,
        /// The winner's units that survive.
        survivors: Units,
    },
    /// The attacker took the target (C-BATTLE-4).
    AreaCaptured {
        /// The area.
        area: AreaId,
        /// Its new owner.
        seat: Seat,
        /// Its previous owner (`None` for neutral land).
        previous: Option<Seat>,
    },
    /// A player lost their capital and is out; their areas turned neutral (C-END-1).
    PlayerEliminated {
        /// Who is out.
        seat: Seat,
        /// Who took the capital.
        by: Seat,
        /// Their former areas, now neutral.
        freed: Vec<AreaId>,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose turn it was.
        seat: Seat,
    },
    /// The match is over (C-END-2).
    GameOver {
        /// The winner.
        winner: Seat,
        /// Why it ended: `capital_taken` (2 players) or `last_player_standing` (3–4).
        reason: String,
    },
}
