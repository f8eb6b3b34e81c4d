//! The hexdice board (H-BOARD-1): an even number (8..=36) of distinct, connected hex cells, with
//! the adjacency of every cell precomputed as a bitset so the rules never search the cell list.

use crate::core::SetupError;
use crate::hex::{Hex, RegionShape};

/// The fewest cells a board may have.
pub const MIN_CELLS: usize = 8;
/// The most cells a board may have; also the width of the cell bitsets (they fit in a `u64`).
pub const MAX_CELLS: usize = 36;

/// A set of cells, one bit per cell index.
pub(crate) type CellSet = u64;

/// A validated board. Cell `i` of the rules is `cells()[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The cells, in the order that gives them their indexes.
    cells: Vec<Hex>,
    /// For each cell index, the set of cells sharing an edge with it.
    adjacency: [CellSet; MAX_CELLS],
    /// Every cell of the board.
    all: CellSet,
}

impl Board {
    /// Checks H-BOARD-1 and builds the board: the count is even and within 8..=36, no cell is
    /// listed twice, and every cell can be reached from every other through shared edges.
    pub fn new(cells: Vec<Hex>) -> Result<Board, SetupError> {
        let n = cells.len();
        if !(MIN_CELLS..=MAX_CELLS).contains(&n) || n & 1 == 1 {
            return Err(SetupError::new(
                "invalid_board_size",
                format!(
                    "a hexdice board has an even number of cells from {MIN_CELLS} to {MAX_CELLS}; \
                     this one has {n}"
                ),
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            if cells[..i].contains(cell) {
                return Err(SetupError::new(
                    "duplicate_cell",
                    format!("the cell (q {}, r {}) is listed twice", cell.q, cell.r),
                ));
            }
        }
        let mut adjacency = [0; MAX_CELLS];
        for (i, a) in cells.iter().enumerate() {
            for (j, b) in cells.iter().enumerate() {
                if share_edge(*a, *b) {
                    adjacency[i] |= 1 << j;
                }
            }
        }
        let all = (1u64 << n) - 1;
        let board = Board {
            cells,
            adjacency,
            all,
        };
        if board.reachable_from(0) != all {
            return Err(SetupError::new(
                "board_not_connected",
                "every cell of a hexdice board must be reachable from every other through shared edges",
            ));
        }
        Ok(board)
    }

    /// How many cells the board has.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Never true for a validated board; present because `len` is.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells, by index.
    pub fn cells(&self) -> &[Hex] {
        &self.cells
    }

    /// True when `index` names a cell of this board.
    pub fn contains(&self, index: u8) -> bool {
        usize::from(index) < self.cells.len()
    }

    /// The cells adjacent to cell `index` (empty for an index off the board).
    pub(crate) fn neighbours(&self, index: u8) -> CellSet {
        self.adjacency.get(usize::from(index)).copied().unwrap_or(0)
    }

    /// True when the two cells share an edge.
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        b < 64 && self.neighbours(a) & (1 << b) != 0
    }

    /// Every cell of the board.
    pub(crate) fn all(&self) -> CellSet {
        self.all
    }

    /// One region per cell, for the shared renderer.
    pub fn regions(&self) -> Vec<RegionShape> {
        self.cells
            .iter()
            .zip(0u16..)
            .map(|(&cell, id)| RegionShape {
                id,
                name: None,
                cells: vec![cell],
            })
            .collect()
    }

    /// The cells reachable from `start` through shared edges.
    fn reachable_from(&self, start: u8) -> CellSet {
        let mut seen: CellSet = 1 << start;
        let mut frontier = seen;
        while frontier != 0 {
            let next = cells_of(frontier).fold(0, |acc, c| acc | self.neighbours(c)) & !seen;
            seen |= next;
            frontier = next;
        }
        seen
    }
}

/// True when two cells share an edge. Computed in `i32` so that far-apart custom coordinates
/// cannot overflow.
fn share_edge(a: Hex, b: Hex) -> bool {
    let dq = i32::from(b.q) - i32::from(a.q);
    let dr = i32::from(b.r) - i32::from(a.r);
    Hex::DIRECTIONS
        .iter()
        .any(|&(q, r)| (i32::from(q), i32::from(r)) == (dq, dr))
}

/// The cell indexes in a set, lowest first.
pub(crate) fn cells_of(set: CellSet) -> impl Iterator<Item = u8> {
    crate::bits::ones(set)
}

/// The set holding only `cell` (empty for an index that cannot be a cell).
pub(crate) fn single(cell: u8) -> CellSet {
    if usize::from(cell) < MAX_CELLS {
        1 << cell
    } else {
        0
    }
}
