//! Room options of hexdice: the board and the three rule variants where the seeds disagree
//! (RULES.md, "Room options"). Missing fields take the defaults; unknown fields are refused.

use serde::{Deserialize, Serialize};

use super::layout::BoardChoice;

/// What a room chooses before a match starts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Which board is played on (H-BOARD-2).
    pub board: BoardChoice,
    /// Whether the two sources of a combined attack must touch (H-ATK-7).
    pub combined_attack_sources: CombinedAttackSources,
    /// Whether the attacker must move into a conquered cell (H-ATK-5).
    pub conquest: Conquest,
    /// Who wins a game tied on dice and pips (H-END-2).
    pub last_tiebreak: LastTiebreak,
}

/// H-ATK-7: how the two attackers of a combined attack stand to each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombinedAttackSources {
    /// A1 and A2 share an edge (ES and NL texts).
    #[default]
    Adjacent,
    /// A1 and A2 do not share an edge (FR text).
    NotAdjacent,
}

/// H-ATK-5: what happens after the defender is removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Conquest {
    /// The attacking die moves in (FR, ES texts).
    #[default]
    Mandatory,
    /// The attacker decides whether to move in (NL text).
    Optional,
}

/// H-END-2: the last tie-break.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LastTiebreak {
    /// The player who took the first turn wins (ES, NL texts).
    #[default]
    FirstTurn,
    /// The player who started the occupation wins (FR text).
    OccupationStarter,
}
