//! The state of a capitals match: the (immutable, shared) map, who owns what with which units,
//! whose turn it is, and the match's RNG.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::map::{AreaId, Map, MapSize};
use super::units::Units;
use crate::core::{Outcome, Seat};
use crate::rng::MatchRng;

/// Orders a player may give in one turn (C-ORD-1).
pub const ORDERS_PER_TURN: u8 = 5;

/// Room options for capitals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// How big the generated map is (default medium).
    pub map_size: MapSize,
}

/// One area during play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AreaState {
    /// The owner, `None` for neutral land.
    pub owner: Option<Seat>,
    /// The units standing there.
    pub units: Units,
}

/// A whole capitals match. Cloning is cheap apart from the per-area vector: the map is shared.
#[derive(Clone, Debug, PartialEq)]
pub struct Capitals {
    /// The map, generated at setup from the match seed and never changed.
    pub(crate) map: Arc<Map>,
    /// Per area (indexed like the map): owner and units.
    pub(crate) areas: Vec<AreaState>,
    /// Per seat: out of the match after losing their capital.
    pub(crate) eliminated: Vec<bool>,
    /// The seat that opens every round (drawn at setup).
    pub(crate) first: Seat,
    /// The seat whose turn it is.
    pub(crate) current: Seat,
    /// The round number, from 1.
    pub(crate) round: u32,
    /// Orders given in the current turn.
    pub(crate) orders: u8,
    /// Every random draw of the match comes from here (G-RNG-1).
    pub(crate) rng: MatchRng,
    /// Set once the match is over.
    pub(crate) outcome: Option<Outcome>,
}

impl Capitals {
    /// The map of this match.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The state of area `id`, if it exists.
    pub fn area(&self, id: AreaId) -> Option<&AreaState> {
        self.areas.get(usize::from(id))
    }

    /// Every area's state, indexed by area id.
    pub fn areas(&self) -> &[AreaState] {
        &self.areas
    }

    /// The current round, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Orders given so far this turn.
    pub fn orders_given(&self) -> u8 {
        self.orders
    }

    /// The seat that opens each round.
    pub fn first_player(&self) -> Seat {
        self.first
    }

    /// Number of seats.
    pub fn seats(&self) -> u8 {
        self.eliminated.len() as u8
    }

    /// True once `seat` has lost its capital (or for a seat that does not exist).
    pub fn is_eliminated(&self, seat: Seat) -> bool {
        self.eliminated.get(seat.index()).copied().unwrap_or(true)
    }

    /// The owner of area `id` (`None` for neutral or unknown areas).
    pub(crate) fn owner(&self, id: AreaId) -> Option<Seat> {
        self.area(id).and_then(|a| a.owner)
    }

    /// True when `area` borders an area owned by a player other than `seat` (C-DEEP-1).
    pub(crate) fn at_front(&self, seat: Seat, area: AreaId) -> bool {
        self.map.areas[usize::from(area)]
            .borders
            .iter()
            .any(|&b| matches!(self.owner(b), Some(o) if o != seat))
    }
}
