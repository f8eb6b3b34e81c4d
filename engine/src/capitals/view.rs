//! What a viewer sees of a capitals match. Nothing is hidden in capitals, so every seat and
//! every spectator sees the same: the board as hex regions (one renderer draws every ruleset),
//! each area's kind, owner and units, and whose turn it is.

use serde::Serialize;

use super::map::{AreaId, AreaKind};
use super::state::{Capitals, ORDERS_PER_TURN};
use super::units::Units;
use crate::core::{Outcome, Seat};
use crate::hex::RegionShape;

/// The drawing of the board, shared by all rulesets.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// One region per area, indexed by area id.
    pub regions: Vec<RegionShape>,
}

/// One area as seen by anyone.
#[derive(Clone, Debug, Serialize)]
pub struct AreaView {
    /// The area id.
    pub id: AreaId,
    /// Capital, factory, centre or plain.
    pub kind: AreaKind,
    /// For capitals and factories: the seat they were built for.
    pub home: Option<Seat>,
    /// The owner, `None` for neutral.
    pub owner: Option<Seat>,
    /// The units there, by kind and used mark.
    pub units: Units,
    /// The bordering areas.
    pub borders: Vec<AreaId>,
}

/// One seat.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// Its capital's area id.
    pub capital: AreaId,
    /// Out of the match.
    pub eliminated: bool,
}

/// The whole match as seen by one viewer.
#[derive(Clone, Debug, Serialize)]
pub struct CapitalsView {
    /// The board drawing.
    pub board: Board,
    /// Every area's state.
    pub areas: Vec<AreaView>,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// The round, from 1.
    pub round: u32,
    /// The seat that opens each round.
    pub first_player: Seat,
    /// Whose turn it is (`None` once over).
    pub to_act: Option<Seat>,
    /// Orders given this turn.
    pub orders_given: u8,
    /// Orders allowed per turn.
    pub orders_per_turn: u8,
    /// How the match ended.
    pub outcome: Option<Outcome>,
}

impl Capitals {
    /// The public view (the same for every viewer). Without `board`, its shapes are left empty
    /// ([`crate::Ruleset::dynamic_view`]).
    pub(crate) fn public_view(&self, board: bool) -> CapitalsView {
        let areas = self
            .map
            .areas
            .iter()
            .zip(&self.areas)
            .enumerate()
            .map(|(id, (area, state))| AreaView {
                id: id as AreaId,
                kind: area.kind,
                home: area.home.map(Seat),
                owner: state.owner,
                units: state.units,
                borders: area.borders.clone(),
            })
            .collect();
        let seats = self
            .map
            .capitals
            .iter()
            .zip(&self.eliminated)
            .enumerate()
            .map(|(seat, (&capital, &eliminated))| SeatView {
                seat: Seat(seat as u8),
                capital,
                eliminated,
            })
            .collect();
        CapitalsView {
            board: Board {
                regions: if board {
                    self.map.shapes.clone()
                } else {
                    Vec::new()
                },
            },
            areas,
            seats,
            round: self.round,
            first_player: self.first,
            to_act: self.outcome.is_none().then_some(self.current),
            orders_given: self.orders,
            orders_per_turn: ORDERS_PER_TURN,
            outcome: self.outcome.clone(),
        }
    }
}
