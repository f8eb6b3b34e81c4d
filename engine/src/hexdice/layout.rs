//! Where a room's board comes from (H-BOARD-2): a named layout, a seeded random layout of a
//! requested size, or a custom list of cells.

use serde::{Deserialize, Serialize};

use super::board::{Board, MAX_CELLS, MIN_CELLS};
use crate::core::SetupError;
use crate::hex::Hex;
use crate::rng::{MatchRng, Seed};

/// The board option of a room, e.g. `{"layout": "small"}`, `{"random": {"cells": 20}}` or
/// `{"custom": [{"q": 0, "r": 0}, ...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardChoice {
    /// One of the layouts the server ships.
    Layout(Layout),
    /// A connected layout grown at random.
    Random(RandomBoard),
    /// The room's own cells, validated as H-BOARD-1 says.
    Custom(Vec<Hex>),
}

impl Default for BoardChoice {
    /// A 20-cell board: the seeds advise small boards for the first games.
    fn default() -> Self {
        BoardChoice::Layout(Layout::Medium)
    }
}

/// The named layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// 10 cells: two rows of five.
    Small,
    /// 20 cells: four rows of five.
    Medium,
    /// 36 cells, the full board: six rows of six.
    Full,
}

impl Layout {
    /// The cells of this layout.
    pub fn cells(self) -> Vec<Hex> {
        match self {
            Layout::Small => rows(2, 5),
            Layout::Medium => rows(4, 5),
            Layout::Full => rows(6, 6),
        }
    }
}

/// A random layout request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomBoard {
    /// How many cells (even, 8..=36).
    pub cells: u8,
    /// Grows the layout from this number instead of the match's secret seed, so a room can show
    /// its board before the match starts and two rooms can share one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl BoardChoice {
    /// The validated board. A random layout without its own seed draws from the match's RNG.
    pub fn build(&self, rng: &mut MatchRng) -> Result<Board, SetupError> {
        match self {
            BoardChoice::Layout(layout) => Board::new(layout.cells()),
            BoardChoice::Custom(cells) => Board::new(cells.clone()),
            BoardChoice::Random(RandomBoard { cells, seed }) => {
                let n = usize::from(*cells);
                if !(MIN_CELLS..=MAX_CELLS).contains(&n) || n & 1 == 1 {
                    return Err(size_error(n));
                }
                let cells = match seed {
                    Some(seed) => random_layout(n, &mut MatchRng::new(Seed::from_u64(*seed))),
                    None => random_layout(n, rng),
                };
                Board::new(cells)
            }
        }
    }
}

fn size_error(n: usize) -> SetupError {
    SetupError::new(
        "invalid_board_size",
        format!(
            "a hexdice board has an even number of cells from {MIN_CELLS} to {MAX_CELLS}; \
             {n} were asked for"
        ),
    )
}

/// `height` rows of `width` cells, shifted so the block looks rectangular on a pointy-top grid.
fn rows(height: i16, width: i16) -> Vec<Hex> {
    (0..height)
        .flat_map(|r| {
            let start = -(r / 2);
            (start..start + width).map(move |q| Hex::new(q, r))
        })
        .collect()
}

/// Grows a connected layout of `n` cells from the origin: each step adds one cell chosen
/// uniformly among the free neighbours of the cells so far. The candidates are kept in a
/// deterministic order (never a hash set) so the same generator state gives the same layout.
pub fn random_layout(n: usize, rng: &mut MatchRng) -> Vec<Hex> {
    let mut cells = vec![Hex::new(0, 0)];
    let mut frontier: Vec<Hex> = Vec::new();
    while cells.len() < n {
        frontier.clear();
        for cell in &cells {
            for next in cell.neighbors() {
                if !cells.contains(&next) && !frontier.contains(&next) {
                    frontier.push(next);
                }
            }
        }
        // The frontier of a finite set of hexes is never empty and holds at most 6 * 36 cells.
        let pick = rng.below(frontier.len() as u32) as usize;
        cells.push(frontier[pick]);
    }
    cells
}
