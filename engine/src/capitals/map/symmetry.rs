//! The symmetry groups of the hex grid that make capitals maps fair by construction (C-MAP-3).
//!
//! Each group has one element per player and acts on the cells around a centre that is not a
//! cell (an edge midpoint or a vertex), so that no rotation fixes a cell:
//! - 2 players: the 180° rotation about the midpoint of the edge between `(0,0)` and `(1,0)`;
//! - 3 players: the 120° rotations about the vertex shared by `(0,0)`, `(1,0)` and `(0,1)`;
//! - 4 players: the Klein group of the two mirror reflections through that edge midpoint (and
//!   their product, the 180° rotation). The mirrors fix whole lines of cells, which is why the
//!   generator tracks each cell's stabiliser.
//!
//! Player `k`'s land is the image under element `k` of player 0's land, so element `k` maps
//! player 0's capital and factories onto player `k`'s, and every element permutes the areas.

use crate::hex::Hex;

/// One isometry of the hex grid, as a map on axial coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isometry {
    /// The identity.
    Identity,
    /// 180° rotation about the midpoint of `(0,0)`–`(1,0)`.
    HalfTurn,
    /// 120° rotation about the vertex of `(0,0)`, `(1,0)`, `(0,1)`.
    ThirdTurn,
    /// 240° rotation about the same vertex.
    TwoThirdsTurn,
    /// Reflection in the row `r = 0` (the line through `(0,0)` and `(1,0)`).
    MirrorRow,
    /// Reflection in the perpendicular bisector of `(0,0)`–`(1,0)`.
    MirrorBisector,
}

impl Isometry {
    /// Where this isometry sends `cell`.
    pub fn apply(self, cell: Hex) -> Hex {
        let Hex { q, r } = cell;
        match self {
            Isometry::Identity => cell,
            Isometry::HalfTurn => Hex::new(1 - q, -r),
            Isometry::ThirdTurn => Hex::new(1 - q - r, q),
            Isometry::TwoThirdsTurn => Hex::new(r, 1 - q - r),
            Isometry::MirrorRow => Hex::new(q + r, -r),
            Isometry::MirrorBisector => Hex::new(1 - q - r, r),
        }
    }
}

/// The group used for `players` players, identity first; element `k` carries player 0's land to
/// player `k`'s. The order of the 4-player group goes round the board (quadrant by quadrant).
pub fn group_for(players: u8) -> &'static [Isometry] {
    match players {
        2 => &[Isometry::Identity, Isometry::HalfTurn],
        3 => &[
            Isometry::Identity,
            Isometry::ThirdTurn,
            Isometry::TwoThirdsTurn,
        ],
        _ => &[
            Isometry::Identity,
            Isometry::MirrorBisector,
            Isometry::HalfTurn,
            Isometry::MirrorRow,
        ],
    }
}

/// The centre of symmetry as `(x, y)` with `x = 6 (2q + r)` and `y = 3 r` (both integral for
/// the edge midpoint and for the vertex centre).
fn centre_scaled(players: u8) -> (i64, i64) {
    match players {
        // Vertex of (0,0), (1,0), (0,1): mean of (0,0), (2,0), (1,1) in (2q + r, r).
        3 => (6, 1),
        // Midpoint of (0,0) and (1,0): (1, 0) in (2q + r, r).
        _ => (6, 0),
    }
}

/// 48 times the squared Euclidean distance from the centre of symmetry to `cell`, with
/// neighbouring cells one step apart (so a cell `d` steps away scores about `48 d²`). Exact
/// integer arithmetic keeps the map identical on every machine.
pub fn centre_distance_sq(players: u8, cell: Hex) -> i64 {
    let (cx, cy) = centre_scaled(players);
    // Pixel x = (2q + r)·√3/2, y = 1.5·r, neighbour spacing √3; rescaled to unit spacing
    // and multiplied by 48: a² + 12 b² with a = 6(2q + r) − cx, b = 3r − cy, divided by 3.
    let a = 6 * (2 * i64::from(cell.q) + i64::from(cell.r)) - cx;
    let b = 3 * i64::from(cell.r) - cy;
    (a * a + 12 * b * b) / 3
}
