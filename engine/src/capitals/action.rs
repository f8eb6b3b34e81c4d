//! What a capitals player can do on their turn: up to five orders (transport or attack), then
//! end the turn (C-ORD-1).

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::map::AreaId;
use super::units::Selection;

/// One action of the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Unknown fields are refused (`unknown_action`), as in every other client message.
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Move unused units to a bordering own area (C-TRANS-1).
    Transport {
        /// The source area, the player's own.
        from: AreaId,
        /// The bordering own target area.
        to: AreaId,
        /// Which units, by kind (unused ones are taken).
        units: Selection,
    },
    /// Attack along a path: `[source, target]` for an ordinary attack (C-ATK-1), or a path of 2
    /// or 3 steps for a deep attack (C-DEEP-1).
    Attack {
        /// The source, then each area stepped into; the last is the target.
        path: Path,
        /// Which units, by kind (unused ones are taken).
        units: Selection,
    },
    /// End the turn (allowed after any number of orders).
    EndTurn,
}

/// A path of areas, stored inline so that listing thousands of attacks does not allocate.
/// Holds up to [`Path::MAX_STORED`] areas so that an over-long path is a rule error
/// (`bad_path_length`), not a parse error; longer lists do not parse.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Path {
    len: u8,
    areas: [AreaId; Path::MAX_STORED],
}

impl Path {
    /// The most areas a path value can hold (a legal path has 2 to 4).
    pub const MAX_STORED: usize = 8;

    /// The path through `areas`, or `None` if it is longer than [`Path::MAX_STORED`].
    pub fn new(areas: &[AreaId]) -> Option<Path> {
        let mut path = Path {
            len: 0,
            areas: [0; Path::MAX_STORED],
        };
        path.areas.get_mut(..areas.len())?.copy_from_slice(areas);
        path.len = areas.len() as u8;
        Some(path)
    }

    /// The path `[source, target]` of an ordinary attack (never too long, so no `Option`).
    pub(crate) const fn direct(source: AreaId, target: AreaId) -> Path {
        let mut areas = [0; Path::MAX_STORED];
        areas[0] = source;
        areas[1] = target;
        Path { len: 2, areas }
    }

    /// The deep path `[source, via[0], target]`, or `[source, via[0], via[1], target]` when
    /// `via[1]` is not `no_area`.
    pub(crate) const fn deep(
        source: AreaId,
        via: [AreaId; 2],
        target: AreaId,
        no_area: AreaId,
    ) -> Path {
        let mut areas = [0; Path::MAX_STORED];
        areas[0] = source;
        areas[1] = via[0];
        if via[1] == no_area {
            areas[2] = target;
            Path { len: 3, areas }
        } else {
            areas[2] = via[1];
            areas[3] = target;
            Path { len: 4, areas }
        }
    }

    /// The areas, source first.
    #[inline]
    pub fn areas(&self) -> &[AreaId] {
        // `len` never exceeds MAX_STORED (every constructor checks), so this never slices
        // out of range; `get` keeps the accessor panic-free and cheap to inline.
        self.areas.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.areas()).finish()
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.areas())
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PathVisitor;
        impl<'de> Visitor<'de> for PathVisitor {
            type Value = Path;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {} area ids", Path::MAX_STORED)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Path, A::Error> {
                let mut areas = [0; Path::MAX_STORED];
                let mut len = 0;
                while let Some(area) = seq.next_element::<AreaId>()? {
                    let slot = areas
                        .get_mut(len)
                        .ok_or_else(|| de::Error::invalid_length(len + 1, &self))?;
                    *slot = area;
                    len += 1;
                }
                Path::new(&areas[..len]).ok_or_else(|| de::Error::invalid_length(len, &self))
            }
        }
        deserializer.deserialize_seq(PathVisitor)
    }
}
