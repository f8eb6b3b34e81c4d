//! Units: the dice in an area, counted by kind and by "used" mark (C-UNIT-1, C-ORD-2).
//!
//! Units of one kind and mark are interchangeable, so an area holds four counters rather than a
//! list: cheap to copy, and "the strongest units" (C-BATTLE-3) is a fixed order of the counters.

use serde::{Deserialize, Serialize};

/// The most units an area can hold (C-UNIT-1).
pub const AREA_CAP: u8 = 10;

/// The kind of die a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Die {
    /// A six-sided die.
    D6,
    /// An eight-sided die (made by strong factories).
    D8,
}

impl Die {
    /// Faces of the die.
    pub fn sides(self) -> u8 {
        match self {
            Die::D6 => 6,
            Die::D8 => 8,
        }
    }
}

/// A choice of units by kind, as sent in an order: `{"d6": 2, "d8": 1}`. The engine takes
/// unused units of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Selection {
    /// How many d6 units.
    pub d6: u8,
    /// How many d8 units.
    pub d8: u8,
}

impl Selection {
    /// A selection of `d6` d6 units and `d8` d8 units.
    pub const fn new(d6: u8, d8: u8) -> Selection {
        Selection { d6, d8 }
    }

    /// Number of units selected (never overflows: at most 510).
    pub fn total(self) -> u16 {
        u16::from(self.d6) + u16::from(self.d8)
    }
}

/// The units in one area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Units {
    /// Unused d6 units.
    pub d6: u8,
    /// Unused d8 units.
    pub d8: u8,
    /// d6 units that transported or attacked this round.
    pub d6_used: u8,
    /// d8 units that transported or attacked this round.
    pub d8_used: u8,
}

impl Units {
    /// `n` unused d6 units.
    pub const fn d6(n: u8) -> Units {
        Units {
            d6: n,
            d8: 0,
            d6_used: 0,
            d8_used: 0,
        }
    }

    /// Number of units, used or not.
    pub fn total(self) -> u8 {
        self.d6 + self.d8 + self.d6_used + self.d8_used
    }

    /// Room left under the cap of 10.
    pub fn room(self) -> u8 {
        AREA_CAP.saturating_sub(self.total())
    }

    /// The unused units, as a selection.
    pub fn unused(self) -> Selection {
        Selection::new(self.d6, self.d8)
    }

    /// True when the unused units include `selection`.
    pub fn has_unused(self, selection: Selection) -> bool {
        selection.d6 <= self.d6 && selection.d8 <= self.d8
    }

    /// Removes unused units; the caller has checked [`Units::has_unused`].
    pub fn take_unused(&mut self, selection: Selection) {
        self.d6 = self.d6.saturating_sub(selection.d6);
        self.d8 = self.d8.saturating_sub(selection.d8);
    }

    /// Adds units marked used (after a transport or a won attack).
    pub fn add_used(&mut self, selection: Selection) {
        self.d6_used += selection.d6;
        self.d8_used += selection.d8;
    }

    /// Adds unused units up to the cap and returns how many were lost to it, d8 kept first
    /// (an area never produces both kinds in one turn, so the order only documents intent).
    pub fn produce(&mut self, selection: Selection) -> u8 {
        let d8 = selection.d8.min(self.room());
        self.d8 += d8;
        let d6 = selection.d6.min(self.room());
        self.d6 += d6;
        (selection.d6 - d6) + (selection.d8 - d8)
    }

    /// Clears every used mark (a new round, or a player's land turning neutral).
    pub fn clear_used(&mut self) {
        self.d6 += std::mem::take(&mut self.d6_used);
        self.d8 += std::mem::take(&mut self.d8_used);
    }

    /// The `n` strongest of these units: d8 before d6, unused before used (C-BATTLE-3).
    pub fn strongest(self, n: u8) -> Units {
        let mut left = n;
        let mut take = |available: u8| {
            let taken = available.min(left);
            left -= taken;
            taken
        };
        let d8 = take(self.d8);
        let d8_used = take(self.d8_used);
        let d6 = take(self.d6);
        let d6_used = take(self.d6_used);
        Units {
            d6,
            d8,
            d6_used,
            d8_used,
        }
    }
}
