//! The seeded map generator (C-MAP-2, C-MAP-3).
//!
//! Areas are grown on a disc of hex cells by *equivariant* region growing: whenever a cell
//! joins an area, its image under every element of the symmetry group (see [`super::symmetry`])
//! joins the image of that area. The partition is therefore invariant under the group, and each
//! group element permutes the areas as an automorphism of the border graph that carries seat 0's
//! capital and factories onto another seat's. A cell fixed by a mirror may only join an area
//! that the mirror maps onto itself; cells nobody may take stay empty (lakes).
//!
//! One attempt:
//! 1. seat 0's capital is a triangle of three cells whose ring of nine neighbours is cut into
//!    three arcs of three: its fast factory and two strong factories, so the capital borders
//!    exactly those three areas (C-MAP-2); the whole structure is replicated by the group;
//! 2. the centre disc is grown into one fragment per seat from the cells nearest the centre;
//! 3. plain areas are seeded (mirror lines first, then anywhere, keeping seeds apart) and grown
//!    evenly, smallest area first, together with the factories up to a size limit;
//! 4. the result is checked: connected, each capital borders exactly its three factories, and
//!    every centre fragment is at the same graph distance from every capital (C-MAP-3).
//!
//! A failed check draws a new attempt from the same RNG, so the map stays a pure function of the
//! match seed.

use super::symmetry::{Isometry, centre_distance_sq, group_for};
use super::{Area, AreaId, AreaKind, Map, MapSize};
use crate::hex::{Hex, RegionShape};
use crate::rng::MatchRng;

/// Attempts before giving up; the tests show a handful is the norm.
const MAX_ATTEMPTS: u32 = 500;

/// Marks a cell that no area holds yet.
const FREE: u32 = u32::MAX;

/// The shape parameters of one map size.
struct Params {
    /// Board radius in cell steps (scaled as in [`centre_distance_sq`]).
    board_sq: i64,
    /// Radius of the centre disc.
    centre_sq: i64,
    /// Capitals lie between these distances from the centre.
    capital_band: (i64, i64),
    /// Plain seeds keep at least this many steps between them.
    seed_spacing: u16,
    /// A factory stops growing at this many cells.
    factory_max: usize,
}

fn params(size: MapSize) -> Params {
    // Radii in tenths of a cell step (the board, the centre disc, the capitals' band), and the
    // largest factory.
    let (board, centre, (near, far), factory_max) = match size {
        MapSize::Small => (68, 19, (42, 50), 4),
        MapSize::Medium => (85, 23, (54, 64), 5),
        MapSize::Large => (103, 27, (66, 78), 6),
    };
    // 48 × (radius in steps)²: see `centre_distance_sq`.
    let sq = |steps_tenths: i64| 48 * steps_tenths * steps_tenths / 100;
    Params {
        board_sq: sq(board),
        centre_sq: sq(centre),
        capital_band: (sq(near), sq(far)),
        seed_spacing: 3,
        factory_max,
    }
}

/// Generates a fair map for `players` (2–4) seats, drawing from `rng`. `None` only if every
/// attempt failed its checks, which the tests show does not happen for the shipped sizes.
pub fn generate(size: MapSize, players: u8, rng: &mut MatchRng) -> Option<Map> {
    if !(2..=4).contains(&players) {
        return None;
    }
    let params = params(size);
    let board = Board::new(players, params.board_sq);
    (0..MAX_ATTEMPTS).find_map(|_| attempt(&board, &params, rng))
}

/// The cells of the board and the symmetry group acting on them.
struct Board {
    players: u8,
    group: &'static [Isometry],
    cells: Vec<Hex>,
    /// Cell index by grid position, `FREE` outside the board.
    lookup: Vec<u32>,
    /// Grid half-width: positions `-span..=span` on both axes.
    span: i16,
    /// `images[k][c]`: the index of cell `c`'s image under group element `k`.
    images: Vec<Vec<u32>>,
    /// Per cell, the group elements fixing it, as a bit set.
    stabilisers: Vec<u8>,
    /// Per cell, its neighbours' indices in direction order, `FREE` off the board.
    adjacent: Vec<[u32; 6]>,
}

impl Board {
    fn new(players: u8, board_sq: i64) -> Board {
        let span: i16 = 16;
        let width = usize::from(2 * span.unsigned_abs() + 1);
        let mut lookup = vec![FREE; width * width];
        let mut cells = Vec::new();
        for q in -span..=span {
            for r in -span..=span {
                let cell = Hex::new(q, r);
                if centre_distance_sq(players, cell) <= board_sq {
                    let slot = Self::slot(span, cell).unwrap_or(0);
                    lookup[slot] = cells.len() as u32;
                    cells.push(cell);
                }
            }
        }
        let mut board = Board {
            players,
            group: group_for(players),
            cells,
            lookup,
            span,
            images: Vec::new(),
            stabilisers: Vec::new(),
            adjacent: Vec::new(),
        };
        board.adjacent = board
            .cells
            .iter()
            .map(|cell| {
                let mut adjacent = [FREE; 6];
                for (slot, n) in adjacent.iter_mut().zip(cell.neighbors()) {
                    *slot = board.index(n).map_or(FREE, |i| i as u32);
                }
                adjacent
            })
            .collect();
        board.images = board
            .group
            .iter()
            .map(|g| {
                (0..board.cells.len())
                    .map(|c| board.index(g.apply(board.cells[c])).unwrap_or(c) as u32)
                    .collect()
            })
            .collect();
        board.stabilisers = (0..board.cells.len())
            .map(|c| {
                (0..board.group.len())
                    .filter(|&k| board.image(k, c) == c)
                    .fold(0, |set, k| set | 1 << k)
            })
            .collect();
        board
    }

    fn slot(span: i16, cell: Hex) -> Option<usize> {
        let width = 2 * i32::from(span) + 1;
        let (q, r) = (
            i32::from(cell.q) + i32::from(span),
            i32::from(cell.r) + i32::from(span),
        );
        ((0..width).contains(&q) && (0..width).contains(&r)).then(|| (q * width + r) as usize)
    }

    /// The board index of `cell`, if it is on the board.
    fn index(&self, cell: Hex) -> Option<usize> {
        let slot = Self::slot(self.span, cell)?;
        let found = *self.lookup.get(slot)?;
        (found != FREE).then_some(found as usize)
    }

    /// Index of the image of cell `c` under group element `k` (the board is invariant).
    fn image(&self, k: usize, c: usize) -> usize {
        self.images[k][c] as usize
    }

    /// The group elements fixing cell `c`, as a bit set.
    fn stabiliser(&self, c: usize) -> u8 {
        self.stabilisers[c]
    }

    /// The board cells next to cell `c`, in direction order.
    fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.adjacent[c]
            .iter()
            .filter(|&&n| n != FREE)
            .map(|&n| n as usize)
    }
}

/// An area being grown.
struct Region {
    kind: AreaKind,
    home: Option<u8>,
    cells: Vec<usize>,
    /// Group elements mapping this region onto itself, as a bit set.
    stabiliser: u8,
    /// Stops growing at this size.
    max_cells: usize,
    /// No cell can join any more.
    stuck: bool,
}

/// The partition under construction.
struct Growth<'a> {
    board: &'a Board,
    owner: Vec<u32>,
    regions: Vec<Region>,
}

impl<'a> Growth<'a> {
    fn new(board: &'a Board) -> Self {
        Growth {
            board,
            owner: vec![FREE; board.cells.len()],
            regions: Vec::new(),
        }
    }

    /// Adds the orbit of a region made of `cells` (all free, forming one connected piece) and
    /// returns the index of the representative (the identity's image). Region `k` of the orbit
    /// gets home `k` when `homed` (capitals and factories).
    fn add_orbit(
        &mut self,
        cells: &[usize],
        kind: AreaKind,
        homed: bool,
        max_cells: usize,
    ) -> usize {
        let rep = self.regions.len();
        for k in 0..self.board.group.len() {
            let first = self.board.image(k, cells[0]);
            if self.owner[first] != FREE {
                continue; // this element maps the region onto an earlier image
            }
            let id = self.regions.len() as u32;
            // A group element is a bijection of the board, so the image cells are distinct.
            let image: Vec<usize> = cells.iter().map(|&c| self.board.image(k, c)).collect();
            for &c in &image {
                self.owner[c] = id;
            }
            self.regions.push(Region {
                kind,
                home: homed.then_some(k as u8),
                cells: image,
                stabiliser: 0,
                max_cells,
                stuck: false,
            });
        }
        let stabiliser = (0..self.board.group.len())
            .filter(|&k| self.owner[self.board.image(k, cells[0])] == rep as u32)
            .fold(0u8, |set, k| set | 1 << k);
        self.regions[rep].stabiliser = stabiliser;
        rep
    }

    /// Gives cell `c` to the representative region `rep` and its images to the images.
    fn claim(&mut self, rep: usize, c: usize) {
        let anchor = self.regions[rep].cells[0];
        for k in 0..self.board.group.len() {
            let region = self.owner[self.board.image(k, anchor)];
            let cell = self.board.image(k, c);
            if self.owner[cell] == FREE {
                self.owner[cell] = region;
                self.regions[region as usize].cells.push(cell);
            }
        }
    }

    /// Free cells that `rep` may take: bordering it, inside `zone`, and fixed by no element
    /// that moves the region (so the images of the cell go to distinct images of the region).
    fn frontier(&self, rep: usize, zone: &impl Fn(usize) -> bool) -> Vec<usize> {
        let region = &self.regions[rep];
        let mut out: Vec<usize> = Vec::new();
        for &c in &region.cells {
            for n in self.board.neighbours(c) {
                if self.owner[n] == FREE
                    && zone(n)
                    && self.board.stabiliser(n) & !region.stabiliser == 0
                    && !out.contains(&n)
                {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Grows the orbits of `reps` evenly (smallest first) until none can grow.
    fn grow(&mut self, reps: &[usize], zone: impl Fn(usize) -> bool, rng: &mut MatchRng) {
        loop {
            let active = reps.iter().copied().filter(|&r| {
                let region = &self.regions[r];
                !region.stuck && region.cells.len() < region.max_cells
            });
            let Some(smallest) = active.clone().map(|r| self.regions[r].cells.len()).min() else {
                return;
            };
            let ties: Vec<usize> = active
                .filter(|&r| self.regions[r].cells.len() == smallest)
                .collect();
            let rep = ties[rng.below(ties.len() as u32) as usize];
            let frontier = self.frontier(rep, &zone);
            if frontier.is_empty() {
                self.regions[rep].stuck = true;
                continue;
            }
            let cell = frontier[rng.below(frontier.len() as u32) as usize];
            self.claim(rep, cell);
        }
    }
}

/// One attempt at a map; `None` when a check fails.
fn attempt(board: &Board, params: &Params, rng: &mut MatchRng) -> Option<Map> {
    let mut growth = Growth::new(board);
    let players = usize::from(board.players);

    // 1. Capital and factories.
    let (triangle, ring) = place_capital(board, params, rng)?;
    let capital = growth.add_orbit(&triangle, AreaKind::Capital, true, 3);
    let offset = rng.below(9) as usize;
    let fast = rng.below(3) as usize;
    let mut factories = Vec::new();
    for arc in 0..3 {
        let cells: Vec<usize> = (0..3).map(|i| ring[(offset + 3 * arc + i) % 9]).collect();
        let kind = if arc == fast {
            AreaKind::FastFactory
        } else {
            AreaKind::StrongFactory
        };
        factories.push(growth.add_orbit(&cells, kind, true, params.factory_max));
    }
    if growth.regions.len() != 4 * players || growth.regions[capital].stabiliser != 1 {
        return None;
    }

    // 2. The centre: a disc ringed by one area that the whole group maps onto itself, so every
    // seat reaches the ring, and through it each fragment, in the same number of steps (C-MAP-3).
    // Inside, the disc is grown into one fragment per seat from the free cells nearest the
    // centre; disc cells on a mirror (4 seats) stay a lake.
    let in_disc = |c: usize| centre_distance_sq(board.players, board.cells[c]) <= params.centre_sq;
    let ring: Vec<usize> = (0..board.cells.len())
        .filter(|&c| !in_disc(c) && board.neighbours(c).any(in_disc))
        .collect();
    if ring
        .iter()
        .chain(
            (0..board.cells.len())
                .filter(|&c| in_disc(c))
                .collect::<Vec<_>>()
                .iter(),
        )
        .any(|&c| growth.owner[c] != FREE)
    {
        return None;
    }
    growth.add_orbit(&ring, AreaKind::Plain, false, ring.len());
    let seed = (0..board.cells.len())
        .filter(|&c| in_disc(c) && board.stabiliser(c) == 1)
        .min_by_key(|&c| centre_distance_sq(board.players, board.cells[c]))?;
    let centre = growth.add_orbit(&[seed], AreaKind::Centre, false, usize::MAX);
    growth.grow(&[centre], in_disc, rng);

    // 3. Plain areas: seeds on mirror lines first (only they can absorb mirror cells), then
    // anywhere, each at least `seed_spacing` steps from earlier seeds.
    let mut free: Vec<usize> = (0..board.cells.len())
        .filter(|&c| growth.owner[c] == FREE && !in_disc(c))
        .collect();
    rng.shuffle(&mut free);
    free.sort_by_key(|&c| board.stabiliser(c) == 1); // stable: mirror cells first, shuffled
    let mut seeds: Vec<Hex> = Vec::new();
    let mut reps = factories;
    for c in free {
        let cell = board.cells[c];
        if growth.owner[c] != FREE || seeds.iter().any(|s| s.distance(cell) < params.seed_spacing) {
            continue;
        }
        let rep = growth.add_orbit(&[c], AreaKind::Plain, false, usize::MAX);
        seeds.extend(
            growth.regions[rep..]
                .iter()
                .map(|r| board.cells[r.cells[0]]),
        );
        reps.push(rep);
    }
    growth.grow(&reps, |_| true, rng);

    finish(board, &growth)
}

/// Picks seat 0's capital triangle and its ring of nine neighbours in cyclic order, such that
/// the whole structure is off every mirror and well apart from its images.
fn place_capital(
    board: &Board,
    params: &Params,
    rng: &mut MatchRng,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let candidates: Vec<usize> = (0..board.cells.len())
        .filter(|&c| {
            let d = centre_distance_sq(board.players, board.cells[c]);
            (params.capital_band.0..=params.capital_band.1).contains(&d)
        })
        .collect();
    if candidates.is_empty() {
        return None;
    }
    for _ in 0..64 {
        let c = candidates[rng.below(candidates.len() as u32) as usize];
        let base = board.cells[c];
        let third = if rng.below(2) == 0 { (0, 1) } else { (1, -1) };
        let triangle_hex = [
            base,
            Hex::new(base.q + 1, base.r),
            Hex::new(base.q + third.0, base.r + third.1),
        ];
        let Some(triangle) = triangle_hex
            .iter()
            .map(|&h| board.index(h))
            .collect::<Option<Vec<usize>>>()
        else {
            continue;
        };
        let mut ring: Vec<usize> = Vec::new();
        let mut off_board = false;
        for &t in &triangle_hex {
            for n in t.neighbors() {
                if triangle_hex.contains(&n) {
                    continue;
                }
                match board.index(n) {
                    Some(i) if !ring.contains(&i) => ring.push(i),
                    Some(_) => {}
                    None => off_board = true,
                }
            }
        }
        if off_board || ring.len() != 9 {
            continue;
        }
        let structure: Vec<usize> = triangle.iter().chain(&ring).copied().collect();
        let apart = structure.iter().all(|&s| {
            board.stabiliser(s) == 1
                && (1..board.group.len()).all(|k| {
                    structure
                        .iter()
                        .all(|&t| board.cells[board.image(k, t)].distance(board.cells[s]) >= 3)
                })
        });
        if let (true, Some(cycle)) = (apart, ring_cycle(board, &ring)) {
            return Some((triangle, cycle));
        }
    }
    None
}

/// Orders the nine ring cells along the ring, or `None` if they do not form a simple cycle.
fn ring_cycle(board: &Board, ring: &[usize]) -> Option<Vec<usize>> {
    let adjacent = |a: usize, b: usize| board.cells[a].is_adjacent(board.cells[b]);
    if ring
        .iter()
        .any(|&a| ring.iter().filter(|&&b| adjacent(a, b)).count() != 2)
    {
        return None;
    }
    let mut cycle = vec![ring[0]];
    while cycle.len() < ring.len() {
        let last = *cycle.last()?;
        let next = ring
            .iter()
            .copied()
            .find(|&b| adjacent(last, b) && !cycle.contains(&b))?;
        cycle.push(next);
    }
    Some(cycle)
}

/// Turns the partition into a [`Map`] and checks C-MAP-2 and C-MAP-3; `None` if a check fails.
fn finish(board: &Board, growth: &Growth) -> Option<Map> {
    let shapes: Vec<RegionShape> = growth
        .regions
        .iter()
        .enumerate()
        .map(|(id, region)| RegionShape {
            id: id as u16,
            name: area_name(region),
            cells: region.cells.iter().map(|&c| board.cells[c]).collect(),
        })
        .collect();
    // The same lists as `hex::borders_from_cells(&shapes)`, read off the cell grid directly
    // (no hashing): two areas border when two of their cells are neighbours.
    let borders: Vec<Vec<AreaId>> = (0..growth.regions.len())
        .map(|id| {
            let mut list: Vec<AreaId> = Vec::new();
            for &c in &growth.regions[id].cells {
                for n in board.neighbours(c) {
                    let other = growth.owner[n];
                    if other != FREE && other as usize != id {
                        list.push(other as AreaId);
                    }
                }
            }
            list.sort_unstable();
            list.dedup();
            list
        })
        .collect();
    let areas: Vec<Area> = growth
        .regions
        .iter()
        .zip(borders)
        .map(|(region, borders)| Area {
            kind: region.kind,
            home: region.home,
            borders,
        })
        .collect();
    let group = board.group.len();
    let symmetries: Vec<Vec<AreaId>> = (0..group)
        .map(|k| {
            growth
                .regions
                .iter()
                .map(|region| growth.owner[board.image(k, region.cells[0])] as AreaId)
                .collect()
        })
        .collect();
    let capitals: Vec<AreaId> = (0..group).map(|k| symmetries[k][0]).collect();
    let mut map = Map {
        deep: super::routes::DeepRoutes::default(),
        areas,
        shapes,
        capitals,
        symmetries,
    };
    if !check_map(&map) {
        return None;
    }
    map.deep = super::routes::DeepRoutes::new(&map.areas);
    Some(map)
}

fn area_name(region: &Region) -> Option<String> {
    let seat = region.home.map(|h| h + 1).unwrap_or(0);
    match region.kind {
        AreaKind::Capital => Some(format!("Capital {seat}")),
        AreaKind::FastFactory => Some(format!("Fast factory {seat}")),
        AreaKind::StrongFactory => Some(format!("Strong factory {seat}")),
        AreaKind::Centre => Some("Centre".to_owned()),
        AreaKind::Plain => None,
    }
}

/// The fairness checks of C-MAP-2 and C-MAP-3 that the construction does not guarantee.
pub(crate) fn check_map(map: &Map) -> bool {
    let distances: Vec<Vec<u16>> = map
        .capitals
        .iter()
        .map(|&c| map.distances_from(c))
        .collect();
    let connected = distances[0].iter().all(|&d| d != u16::MAX);
    let factories_ok = map.capitals.iter().enumerate().all(|(seat, &c)| {
        let borders = &map.areas[usize::from(c)].borders;
        let kinds = |kind| {
            borders
                .iter()
                .filter(|&&b| {
                    let area = &map.areas[usize::from(b)];
                    area.kind == kind && area.home == Some(seat as u8)
                })
                .count()
        };
        borders.len() == 3
            && kinds(AreaKind::FastFactory) == 1
            && kinds(AreaKind::StrongFactory) == 2
    });
    let centre_fair = map
        .areas
        .iter()
        .enumerate()
        .filter(|(_, area)| area.kind == AreaKind::Centre)
        .all(|(a, _)| distances.iter().all(|d| d[a] == distances[0][a]));
    connected && factories_ok && centre_fair
}
