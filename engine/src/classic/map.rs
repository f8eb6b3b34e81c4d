//! The standard world map of classic (W-MAP-1): 42 territories in 6 continents, the 83 standard
//! borders (sea links included), the card symbol printed on each territory's card (W-CARD-1), and
//! a hex-cell shape for each territory so the shared renderer can draw it.
//!
//! The map is a compile-time table: adjacency and continents are bitmasks over territory ids
//! (`1 << id`), which keeps rule checks and legal-action generation allocation-free.

use serde::{Deserialize, Serialize};

use crate::hex::{Hex, RegionShape};

/// A territory's index on the map, `0..42`.
pub type TerritoryId = u8;

/// How many territories the map has.
pub const TERRITORY_COUNT: usize = 42;

/// The six continents; a player holding one whole earns its bonus every turn (W-REINF-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Continent {
    /// 9 territories, bonus 5.
    NorthAmerica,
    /// 4 territories, bonus 2.
    SouthAmerica,
    /// 7 territories, bonus 5.
    Europe,
    /// 6 territories, bonus 3.
    Africa,
    /// 12 territories, bonus 7.
    Asia,
    /// 4 territories, bonus 2.
    Australia,
}

impl Continent {
    /// Every continent, in map order.
    pub const ALL: [Continent; 6] = [
        Continent::NorthAmerica,
        Continent::SouthAmerica,
        Continent::Europe,
        Continent::Africa,
        Continent::Asia,
        Continent::Australia,
    ];

    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            Continent::NorthAmerica => "North America",
            Continent::SouthAmerica => "South America",
            Continent::Europe => "Europe",
            Continent::Africa => "Africa",
            Continent::Asia => "Asia",
            Continent::Australia => "Australia",
        }
    }

    /// Extra reinforcements for holding the whole continent (W-MAP-1).
    pub fn bonus(self) -> u32 {
        match self {
            Continent::NorthAmerica | Continent::Europe => 5,
            Continent::SouthAmerica | Continent::Australia => 2,
            Continent::Africa => 3,
            Continent::Asia => 7,
        }
    }

    /// The continent's territories as a bitmask.
    pub fn mask(self) -> u64 {
        CONTINENT_MASKS[self as usize]
    }
}

/// The symbol printed on a card (W-CARD-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Symbol {
    /// 14 territory cards.
    Infantry,
    /// 14 territory cards.
    Cavalry,
    /// 14 territory cards.
    Artillery,
    /// The 2 wild cards, which complete any set.
    Wild,
}

/// The fixed facts about one territory.
#[derive(Clone, Copy, Debug)]
pub struct TerritoryInfo {
    /// Display name.
    pub name: &'static str,
    /// The continent it belongs to.
    pub continent: Continent,
    /// The symbol on its card.
    pub symbol: Symbol,
    /// Where it sits on a coarse world grid (column west→east, row north→south); its hex shape
    /// is derived from this (see [`region_shapes`]).
    pub grid: (i16, i16),
}

const fn t(
    name: &'static str,
    continent: Continent,
    symbol: Symbol,
    grid: (i16, i16),
) -> TerritoryInfo {
    TerritoryInfo {
        name,
        continent,
        symbol,
        grid,
    }
}

use Continent::{Africa, Asia, Australia, Europe, NorthAmerica, SouthAmerica};
use Symbol::{Artillery as A, Cavalry as C, Infantry as I};

/// The 42 territories, by id. Symbols cycle infantry, cavalry, artillery so each appears 14 times.
pub const TERRITORIES: [TerritoryInfo; TERRITORY_COUNT] = [
    t("Alaska", NorthAmerica, I, (0, 1)),
    t("Northwest Territory", NorthAmerica, C, (1, 1)),
    t("Greenland", NorthAmerica, A, (4, 0)),
    t("Alberta", NorthAmerica, I, (1, 2)),
    t("Ontario", NorthAmerica, C, (2, 2)),
    t("Quebec", NorthAmerica, A, (3, 2)),
    t("Western United States", NorthAmerica, I, (1, 3)),
    t("Eastern United States", NorthAmerica, C, (2, 3)),
    t("Central America", NorthAmerica, A, (2, 4)),
    t("Venezuela", SouthAmerica, I, (3, 5)),
    t("Peru", SouthAmerica, C, (3, 6)),
    t("Brazil", SouthAmerica, A, (4, 6)),
    t("Argentina", SouthAmerica, I, (3, 7)),
    t("Iceland", Europe, C, (6, 1)),
    t("Scandinavia", Europe, A, (8, 1)),
    t("Great Britain", Europe, I, (6, 2)),
    t("Northern Europe", Europe, C, (7, 2)),
    t("Ukraine", Europe, A, (9, 2)),
    t("Western Europe", Europe, I, (6, 3)),
    t("Southern Europe", Europe, C, (7, 3)),
    t("North Africa", Africa, A, (6, 4)),
    t("Egypt", Africa, I, (8, 4)),
    t("East Africa", Africa, C, (8, 5)),
    t("Congo", Africa, A, (7, 5)),
    t("South Africa", Africa, I, (7, 6)),
    t("Madagascar", Africa, C, (9, 6)),
    t("Ural", Asia, A, (10, 1)),
    t("Siberia", Asia, I, (11, 1)),
    t("Yakutsk", Asia, C, (12, 0)),
    t("Kamchatka", Asia, A, (14, 0)),
    t("Irkutsk", Asia, I, (12, 1)),
    t("Mongolia", Asia, C, (13, 2)),
    t("Japan", Asia, A, (15, 2)),
    t("Afghanistan", Asia, I, (10, 3)),
    t("China", Asia, C, (12, 3)),
    t("Middle East", Asia, A, (9, 4)),
    t("India", Asia, I, (11, 4)),
    t("Siam", Asia, C, (12, 5)),
    t("Indonesia", Australia, A, (13, 6)),
    t("New Guinea", Australia, I, (15, 6)),
    t("Western Australia", Australia, C, (14, 7)),
    t("Eastern Australia", Australia, A, (16, 7)),
];

/// The 83 standard borders, each listed once (sea links included: Alaska–Kamchatka,
/// Greenland–Iceland, Brazil–North Africa, Siam–Indonesia, …).
pub const BORDERS: [(TerritoryId, TerritoryId); 83] = [
    // North America
    (0, 1),
    (0, 3),
    (0, 29),
    (1, 3),
    (1, 4),
    (1, 2),
    (2, 4),
    (2, 5),
    (2, 13),
    (3, 4),
    (3, 6),
    (4, 5),
    (4, 6),
    (4, 7),
    (5, 7),
    (6, 7),
    (6, 8),
    (7, 8),
    (8, 9),
    // South America
    (9, 10),
    (9, 11),
    (10, 11),
    (10, 12),
    (11, 12),
    (11, 20),
    // Europe
    (13, 15),
    (13, 14),
    (14, 15),
    (14, 16),
    (14, 17),
    (15, 16),
    (15, 18),
    (16, 18),
    (16, 19),
    (16, 17),
    (17, 19),
    (17, 26),
    (17, 33),
    (17, 35),
    (18, 19),
    (18, 20),
    (19, 20),
    (19, 21),
    (19, 35),
    // Africa
    (20, 21),
    (20, 22),
    (20, 23),
    (21, 22),
    (21, 35),
    (22, 23),
    (22, 24),
    (22, 25),
    (22, 35),
    (23, 24),
    (24, 25),
    // Asia
    (26, 27),
    (26, 34),
    (26, 33),
    (27, 28),
    (27, 30),
    (27, 31),
    (27, 34),
    (28, 29),
    (28, 30),
    (29, 30),
    (29, 31),
    (29, 32),
    (30, 31),
    (31, 34),
    (31, 32),
    (33, 34),
    (33, 35),
    (33, 36),
    (34, 36),
    (34, 37),
    (35, 36),
    (36, 37),
    (37, 38),
    // Australia
    (38, 39),
    (38, 40),
    (39, 40),
    (39, 41),
    (40, 41),
];

const fn build_adjacency() -> [u64; TERRITORY_COUNT] {
    let mut adjacency = [0u64; TERRITORY_COUNT];
    let mut i = 0;
    while i < BORDERS.len() {
        let (a, b) = BORDERS[i];
        adjacency[a as usize] |= 1 << b;
        adjacency[b as usize] |= 1 << a;
        i += 1;
    }
    adjacency
}

const fn build_continent_masks() -> [u64; 6] {
    let mut masks = [0u64; 6];
    let mut i = 0;
    while i < TERRITORY_COUNT {
        masks[TERRITORIES[i].continent as usize] |= 1 << i;
        i += 1;
    }
    masks
}

/// For each territory, its neighbours as a bitmask.
pub const ADJACENCY: [u64; TERRITORY_COUNT] = build_adjacency();

/// For each continent (in [`Continent::ALL`] order), its territories as a bitmask.
pub const CONTINENT_MASKS: [u64; 6] = build_continent_masks();

/// The mask of all 42 territories.
pub const ALL_TERRITORIES: u64 = (1 << TERRITORY_COUNT) - 1;

/// True when `a` and `b` share a border. Ids must be below 42.
pub fn borders(a: TerritoryId, b: TerritoryId) -> bool {
    usize::from(b) < TERRITORY_COUNT
        && ADJACENCY
            .get(usize::from(a))
            .is_some_and(|mask| mask & (1 << b) != 0)
}

/// Iterates the ids set in a territory bitmask, lowest first.
pub fn ids(mask: u64) -> impl Iterator<Item = TerritoryId> {
    crate::bits::ones(mask)
}

/// The territories of `within` reachable from `start` through territories of `within`
/// (`start` included): the fortify reach of W-FORT-1's `connected` option.
pub fn reachable(start: TerritoryId, within: u64) -> u64 {
    if usize::from(start) >= TERRITORY_COUNT || within & (1 << start) == 0 {
        return 0;
    }
    let mut seen = 1u64 << start;
    let mut frontier = seen;
    while frontier != 0 {
        let mut next = 0;
        for id in ids(frontier) {
            next |= ADJACENCY[usize::from(id)];
        }
        frontier = next & within & ALL_TERRITORIES & !seen;
        seen |= frontier;
    }
    seen
}

/// Where a territory's shape is centred: grid rows are 3 hex rows apart and grid columns 3 hex
/// columns apart; shifting q back by half of r keeps each grid column vertical on a pointy-top
/// grid.
fn centre(info: &TerritoryInfo) -> Hex {
    let (column, row) = info.grid;
    let r = 3 * row;
    Hex::new(3 * column - r.div_euclid(2), r)
}

/// How far a territory's land reaches from its centre, in steps.
const REACH: u16 = 2;

/// The hex cells of each territory: every cell within [`REACH`] steps of some territory's centre
/// goes to the nearest centre (ties to the one nearer on screen, then the lower id). Regions
/// never overlap, and territories close on the world grid touch like the land they stand for.
pub fn region_shapes() -> Vec<RegionShape> {
    let centres: Vec<Hex> = TERRITORIES.iter().map(centre).collect();
    let mut cells: Vec<Vec<Hex>> = vec![Vec::new(); TERRITORY_COUNT];
    let mut seen = std::collections::HashSet::new();
    let reach = REACH as i16;
    for c in &centres {
        for dq in -reach..=reach {
            for dr in -reach..=reach {
                let cell = Hex::new(c.q + dq, c.r + dr);
                if c.distance(cell) > REACH || !seen.insert(cell) {
                    continue;
                }
                let nearest = (0..TERRITORY_COUNT).min_by_key(|&i| {
                    (
                        centres[i].distance(cell),
                        screen_distance(centres[i], cell),
                        i,
                    )
                });
                if let Some(i) = nearest {
                    cells[i].push(cell);
                }
            }
        }
    }
    cells
        .into_iter()
        .zip(TERRITORIES.iter())
        .enumerate()
        .map(|(id, (mut cells, info))| {
            cells.sort_unstable();
            RegionShape {
                // 42 territories fit in u16.
                id: id as u16,
                name: Some(info.name.to_owned()),
                cells,
            }
        })
        .collect()
}

/// Squared on-screen distance between two cell centres on a pointy-top grid, scaled to integers
/// (x = 2q + r, y = 3r / sqrt(3), squared: x² + 3r²).
fn screen_distance(a: Hex, b: Hex) -> i32 {
    let dq = i32::from(b.q) - i32::from(a.q);
    let dr = i32::from(b.r) - i32::from(a.r);
    let dx = 2 * dq + dr;
    dx * dx + 3 * dr * dr
}
