//! Hex-cell geometry shared by every ruleset, so that one renderer can draw all three boards.
//!
//! Cells use axial coordinates `(q, r)` on a pointy-top grid; the six neighbours of a cell are
//! at the offsets in [`Hex::DIRECTIONS`]. A ruleset's board is a list of [`RegionShape`]s: a
//! hexdice cell is a region of one hex, a capitals area or a classic territory a cluster of hexes.

use serde::{Deserialize, Serialize};

/// One hex cell in axial coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hex {
    /// Column (axial q).
    pub q: i16,
    /// Row (axial r).
    pub r: i16,
}

impl Hex {
    /// The six axial directions, clockwise from east.
    pub const DIRECTIONS: [(i16, i16); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

    /// The cell at `(q, r)`.
    pub const fn new(q: i16, r: i16) -> Hex {
        Hex { q, r }
    }

    /// The six cells sharing an edge with this one.
    pub fn neighbors(self) -> impl Iterator<Item = Hex> {
        Hex::DIRECTIONS
            .into_iter()
            .map(move |(dq, dr)| Hex::new(self.q.saturating_add(dq), self.r.saturating_add(dr)))
    }

    /// True when the two cells share an edge.
    pub fn is_adjacent(self, other: Hex) -> bool {
        let (dq, dr) = (other.q - self.q, other.r - self.r);
        Hex::DIRECTIONS.contains(&(dq, dr))
    }

    /// Distance in steps between two cells.
    pub fn distance(self, other: Hex) -> u16 {
        let dq = i32::from(self.q) - i32::from(other.q);
        let dr = i32::from(self.r) - i32::from(other.r);
        let ds = -dq - dr;
        // The largest of three i16 differences fits in u16.
        dq.unsigned_abs()
            .max(dr.unsigned_abs())
            .max(ds.unsigned_abs()) as u16
    }
}

/// How one region of a board (a hexdice cell, a capitals area, a classic territory) is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionShape {
    /// The region's index in its ruleset's board.
    pub id: u16,
    /// A display name, where the region has one (classic territories, capitals areas).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The cells that make up the region.
    pub cells: Vec<Hex>,
}

/// The borders between regions: two regions border when a cell of one shares an edge with a cell
/// of the other. Returns, for each region index, the sorted list of its neighbours' indices.
pub fn borders_from_cells(regions: &[RegionShape]) -> Vec<Vec<u16>> {
    let mut owner = std::collections::HashMap::new();
    for (index, region) in regions.iter().enumerate() {
        for &cell in &region.cells {
            owner.insert(cell, index);
        }
    }
    let mut borders = vec![Vec::new(); regions.len()];
    for (index, region) in regions.iter().enumerate() {
        for &cell in &region.cells {
            for next in cell.neighbors() {
                if let Some(&other) = owner.get(&next)
                    && other != index
                {
                    borders[index].push(other as u16);
                }
            }
        }
        borders[index].sort_unstable();
        borders[index].dedup();
    }
    borders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_adjacent_and_at_distance_one() {
        let centre = Hex::new(2, -1);
        for n in centre.neighbors() {
            assert!(centre.is_adjacent(n));
            assert!(n.is_adjacent(centre));
            assert_eq!(centre.distance(n), 1);
        }
        assert!(!centre.is_adjacent(centre));
        assert!(!centre.is_adjacent(Hex::new(4, -1)));
        assert_eq!(centre.distance(Hex::new(4, -1)), 2);
    }

    #[test]
    fn borders_come_from_shared_edges() {
        let regions = vec![
            RegionShape {
                id: 0,
                name: None,
                cells: vec![Hex::new(0, 0), Hex::new(1, 0)],
            },
            RegionShape {
                id: 1,
                name: None,
                cells: vec![Hex::new(2, 0)],
            },
            RegionShape {
                id: 2,
                name: None,
                cells: vec![Hex::new(5, 5)],
            },
        ];
        assert_eq!(borders_from_cells(&regions), vec![vec![1], vec![0], vec![]]);
    }
}
