//! Why a capitals action is refused: one variant per rule, each with a stable code.

use super::map::AreaId;
use crate::core::RuleError;

/// A refused capitals action. The state is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CapitalsError {
    /// The match has ended.
    #[error("the match is over")]
    GameOver,
    /// Another seat is to act (G-TURN-1).
    #[error("it is not your turn")]
    NotYourTurn,
    /// Five orders were already given this turn (C-ORD-1).
    #[error("you have given the 5 orders of this turn; end the turn")]
    NoOrdersLeft,
    /// An attack path must be the source and 1 to 3 further areas (C-ATK-1, C-DEEP-1).
    #[error("an attack path is the source and 1 to 3 further areas")]
    BadPathLength,
    /// No such area on this map.
    #[error("there is no area {0}")]
    UnknownArea(AreaId),
    /// Orders start from the player's own area.
    #[error("area {0} is not yours")]
    NotYourArea(AreaId),
    /// Consecutive areas of an order must share an edge (C-MAP-1).
    #[error("areas {0} and {1} do not border each other")]
    NotAdjacent(AreaId, AreaId),
    /// A deep attack path is simple (C-DEEP-1).
    #[error("the path visits area {0} twice")]
    PathRepeatsArea(AreaId),
    /// Attacks go to enemy or neutral areas (C-ATK-1).
    #[error("area {0} is already yours: transport there instead")]
    TargetIsOwn(AreaId),
    /// Transports go to own areas (C-TRANS-1).
    #[error("area {0} is not yours: attack it instead")]
    TargetNotOwn(AreaId),
    /// A deep attack starts next to another player's area (C-DEEP-1).
    #[error("a deep attack must start from an area bordering another player's area")]
    SourceNotAtFront,
    /// An order moves at least one unit.
    #[error("an order must send at least one unit")]
    NoUnits,
    /// Only unused units can be ordered (C-ORD-2).
    #[error("area {area} has only {d6} unused d6 and {d8} unused d8 units")]
    NotEnoughUnusedUnits {
        /// The source area.
        area: AreaId,
        /// Its unused d6 units.
        d6: u8,
        /// Its unused d8 units.
        d8: u8,
    },
    /// At least one unit stays in the source (C-TRANS-1, C-ATK-1).
    #[error("at least one unit must stay in area {0}")]
    MustLeaveOneUnit(AreaId),
    /// An area holds at most 10 units (C-TRANS-1).
    #[error("area {0} would hold more than 10 units")]
    TargetFull(AreaId),
}

impl RuleError for CapitalsError {
    fn code(&self) -> &'static str {
        match self {
            CapitalsError::GameOver => "game_over",
            CapitalsError::NotYourTurn => "not_your_turn",
            CapitalsError::NoOrdersLeft => "no_orders_left",
            CapitalsError::BadPathLength => "bad_path_length",
            CapitalsError::UnknownArea(_) => "unknown_area",
            CapitalsError::NotYourArea(_) => "not_your_area",
            CapitalsError::NotAdjacent(..) => "not_adjacent",
            CapitalsError::PathRepeatsArea(_) => "path_repeats_area",
            CapitalsError::TargetIsOwn(_) => "target_is_own",
            CapitalsError::TargetNotOwn(_) => "target_not_own",
            CapitalsError::SourceNotAtFront => "source_not_at_front",
            CapitalsError::NoUnits => "no_units",
            CapitalsError::NotEnoughUnusedUnits { .. } => "not_enough_unused_units",
            CapitalsError::MustLeaveOneUnit(_) => "must_leave_one_unit",
            CapitalsError::TargetFull(_) => "target_full",
        }
    }

    fn params(&self) -> Vec<(&'static str, i64)> {
        match *self {
            CapitalsError::UnknownArea(area)
            | CapitalsError::NotYourArea(area)
            | CapitalsError::PathRepeatsArea(area)
            | CapitalsError::TargetIsOwn(area)
            | CapitalsError::TargetNotOwn(area)
            | CapitalsError::MustLeaveOneUnit(area)
            | CapitalsError::TargetFull(area) => vec![("area", i64::from(area))],
            CapitalsError::NotAdjacent(from, to) => {
                vec![("from", i64::from(from)), ("to", i64::from(to))]
            }
            CapitalsError::NotEnoughUnusedUnits { area, d6, d8 } => vec![
                ("area", i64::from(area)),
                ("d6", i64::from(d6)),
                ("d8", i64::from(d8)),
            ],
            CapitalsError::GameOver
            | CapitalsError::NotYourTurn
            | CapitalsError::NoOrdersLeft
            | CapitalsError::BadPathLength
            | CapitalsError::SourceNotAtFront
            | CapitalsError::NoUnits => Vec::new(),
        }
    }
}
