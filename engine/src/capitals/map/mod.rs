//! The capitals map: areas of hex cells, their kinds, their borders (derived from shared cell
//! edges, C-MAP-1) and the symmetries that make it fair (C-MAP-2, C-MAP-3).

mod generate;
pub mod routes;
pub mod symmetry;

use serde::{Deserialize, Serialize};

use crate::hex::RegionShape;

pub use generate::generate;

/// Index of an area in its map.
pub type AreaId = u16;

/// What an area is, which decides what it produces (C-PROD-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    /// A player's capital: losing it eliminates the player (C-END-1).
    Capital,
    /// Produces 2 d6 a turn; one borders each capital.
    FastFactory,
    /// Produces 1 d8 a turn; two border each capital.
    StrongFactory,
    /// A fragment of the centre; produces like a plain area.
    Centre,
    /// Any other area.
    Plain,
}

/// How big a generated map is (a room option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapSize {
    /// The smallest board (about 27 areas for 2 players, 36 for 4).
    Small,
    /// The default board (about 36 areas for 2 players, 45 for 4).
    #[default]
    Medium,
    /// The largest board (about 47 areas for 2 players, 54 for 4).
    Large,
}

/// One area of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    /// What it is.
    pub kind: AreaKind,
    /// For a capital or factory, the seat whose capital it belongs to.
    pub home: Option<u8>,
    /// The bordering areas, sorted.
    pub borders: Vec<AreaId>,
}

/// A generated map. Immutable during a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Every area, indexed by [`AreaId`].
    pub areas: Vec<Area>,
    /// How each area is drawn (same indexes).
    pub shapes: Vec<RegionShape>,
    /// Each seat's capital.
    pub capitals: Vec<AreaId>,
    /// For each seat `k`, the permutation of areas induced by the grid symmetry that carries
    /// seat 0's land onto seat `k`'s: `symmetries[k][a]` is the image of area `a`.
    pub symmetries: Vec<Vec<AreaId>>,
    /// Derived from the borders: each source's deep-attack targets and paths, for listing
    /// legal actions quickly.
    pub deep: routes::DeepRoutes,
}

impl Map {
    /// Number of areas.
    pub fn len(&self) -> usize {
        self.areas.len()
    }

    /// True for a map without areas (never generated, but clippy asks for it).
    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// True when the two areas share an edge.
    pub fn borders(&self, a: AreaId, b: AreaId) -> bool {
        self.areas
            .get(usize::from(a))
            .is_some_and(|area| area.borders.binary_search(&b).is_ok())
    }

    /// Graph distances (in border steps) from `from` to every area; `u16::MAX` if unreachable.
    pub fn distances_from(&self, from: AreaId) -> Vec<u16> {
        let mut dist = vec![u16::MAX; self.areas.len()];
        let mut queue = std::collections::VecDeque::new();
        if let Some(d) = dist.get_mut(usize::from(from)) {
            *d = 0;
            queue.push_back(from);
        }
        while let Some(a) = queue.pop_front() {
            let next = dist[usize::from(a)] + 1;
            for &b in &self.areas[usize::from(a)].borders {
                if dist[usize::from(b)] == u16::MAX {
                    dist[usize::from(b)] = next;
                    queue.push_back(b);
                }
            }
        }
        dist
    }
}
