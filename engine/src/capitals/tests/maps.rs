//! The map generator: C-MAP-1 (borders are shared cell edges), C-MAP-2 (capitals and their
//! factories, the centre) and C-MAP-3 (fairness), over many seeds, sizes and seat counts.

use std::collections::{BTreeSet, HashSet};

use super::super::map::{AreaKind, Map, MapSize, generate};
use super::{refused, start, transport};
use crate::hex::{Hex, borders_from_cells};
use crate::rng::{MatchRng, Seed};

const SIZES: [MapSize; 3] = [MapSize::Small, MapSize::Medium, MapSize::Large];

/// Seeds per (seat count, size) in the fairness sweep.
const SEEDS: u64 = 25;

fn map(size: MapSize, seats: u8, seed: u64) -> Map {
    generate(size, seats, &mut MatchRng::new(Seed::from_u64(seed))).expect("a map")
}

fn every_map() -> impl Iterator<Item = (u8, MapSize, u64, Map)> {
    (2..=4u8).flat_map(|seats| {
        SIZES.into_iter().flat_map(move |size| {
            (0..SEEDS).map(move |seed| (seats, size, seed, map(size, seats, seed)))
        })
    })
}

/// True when the cells form one edge-connected piece.
fn connected(cells: &[Hex]) -> bool {
    let set: HashSet<Hex> = cells.iter().copied().collect();
    let mut seen = HashSet::from([cells[0]]);
    let mut stack = vec![cells[0]];
    while let Some(c) = stack.pop() {
        for n in c.neighbors() {
            if set.contains(&n) && seen.insert(n) {
                stack.push(n);
            }
        }
    }
    seen.len() == set.len()
}

#[test]
fn c_map_1_borders_are_exactly_the_shared_cell_edges() {
    for (seats, size, seed, map) in every_map() {
        let borders = borders_from_cells(&map.shapes);
        let all_cells: Vec<Hex> = map.shapes.iter().flat_map(|s| s.cells.clone()).collect();
        let distinct: HashSet<Hex> = all_cells.iter().copied().collect();
        assert_eq!(all_cells.len(), distinct.len(), "cells overlap");
        for (a, area) in map.areas.iter().enumerate() {
            assert_eq!(area.borders, borders[a], "{seats} {size:?} {seed}");
            assert_eq!(map.shapes[a].id as usize, a);
            assert!(connected(&map.shapes[a].cells), "area {a} is in pieces");
        }
        let everything = map.distances_from(0);
        assert!(everything.iter().all(|&d| d != u16::MAX), "disconnected");
    }
}

#[test]
fn c_map_1_orders_only_cross_shared_edges() {
    let mut game = start(2, 3);
    let capital = game.map.capitals[0];
    let far = (0..game.map.len() as u16)
        .find(|&a| a != capital && !game.map.borders(capital, a))
        .expect("a non-bordering area");
    super::set(&mut game, far, Some(0), super::units(1, 0));
    super::turn_of(&mut game, 0);
    assert_eq!(
        refused(&game, 0, &transport(capital, far, 1, 0)),
        "not_adjacent"
    );
}

#[test]
fn c_map_2_each_capital_borders_exactly_its_fast_and_two_strong_factories() {
    for (seats, size, seed, map) in every_map() {
        let count = |kind| map.areas.iter().filter(|a| a.kind == kind).count();
        let n = usize::from(seats);
        assert_eq!(map.capitals.len(), n);
        assert_eq!(count(AreaKind::Capital), n);
        assert_eq!(count(AreaKind::FastFactory), n);
        assert_eq!(count(AreaKind::StrongFactory), 2 * n);
        assert_eq!(count(AreaKind::Centre), n, "{seats} {size:?} {seed}");
        for (seat, &capital) in map.capitals.iter().enumerate() {
            let area = &map.areas[usize::from(capital)];
            assert_eq!(area.kind, AreaKind::Capital);
            assert_eq!(area.home, Some(seat as u8));
            let kinds: Vec<(AreaKind, Option<u8>)> = area
                .borders
                .iter()
                .map(|&b| {
                    (
                        map.areas[usize::from(b)].kind,
                        map.areas[usize::from(b)].home,
                    )
                })
                .collect();
            let mut expected = vec![
                (AreaKind::FastFactory, Some(seat as u8)),
                (AreaKind::StrongFactory, Some(seat as u8)),
                (AreaKind::StrongFactory, Some(seat as u8)),
            ];
            let mut got = kinds.clone();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "{seats} {size:?} {seed}");
        }
        // The rest are plain areas (and the centre fragments).
        assert!(
            count(AreaKind::Plain) >= 2 * n,
            "{seats} {size:?} {seed}: {}",
            count(AreaKind::Plain)
        );
    }
}

#[test]
fn c_map_2_sizes_differ() {
    for seats in 2..=4 {
        let areas: Vec<usize> = SIZES.iter().map(|&s| map(s, seats, 1).len()).collect();
        assert!(areas[0] < areas[1] && areas[1] < areas[2], "{areas:?}");
    }
}

/// Checks that `perm` is an automorphism of the border graph preserving kinds, and carries
/// seat `from`'s capital and factories onto seat `to`'s.
fn is_seat_automorphism(map: &Map, perm: &[u16], from: u8, to: u8) -> bool {
    let n = map.len();
    let image: BTreeSet<u16> = perm.iter().copied().collect();
    if perm.len() != n || image.len() != n || image.iter().any(|&a| usize::from(a) >= n) {
        return false;
    }
    map.areas.iter().enumerate().all(|(a, area)| {
        let target = &map.areas[usize::from(perm[a])];
        let mut mapped: Vec<u16> = area.borders.iter().map(|&b| perm[usize::from(b)]).collect();
        mapped.sort_unstable();
        let home_ok = match area.home {
            Some(h) if h == from => target.home == Some(to),
            _ => true,
        };
        target.kind == area.kind && mapped == target.borders && home_ok
    })
}

/// Inverts a permutation.
fn inverse(perm: &[u16]) -> Vec<u16> {
    let mut inv = vec![0; perm.len()];
    for (a, &b) in perm.iter().enumerate() {
        inv[usize::from(b)] = a as u16;
    }
    inv
}

#[test]
fn c_map_3_every_pair_of_seats_is_related_by_a_graph_automorphism() {
    for (seats, size, seed, map) in every_map() {
        for i in 0..seats {
            for j in 0..seats {
                // seat i → seat 0 → seat j
                let to_zero = inverse(&map.symmetries[usize::from(i)]);
                let perm: Vec<u16> = to_zero
                    .iter()
                    .map(|&a| map.symmetries[usize::from(j)][usize::from(a)])
                    .collect();
                assert!(
                    is_seat_automorphism(&map, &perm, i, j),
                    "{seats} {size:?} {seed}: no symmetry from seat {i} to seat {j}"
                );
                assert_eq!(
                    perm[usize::from(map.capitals[usize::from(i)])],
                    map.capitals[usize::from(j)]
                );
            }
        }
    }
}

#[test]
fn c_map_3_distance_profiles_are_identical_and_centre_fragments_equidistant() {
    for (seats, size, seed, map) in every_map() {
        let distances: Vec<Vec<u16>> = map
            .capitals
            .iter()
            .map(|&c| map.distances_from(c))
            .collect();
        let profile = |d: &Vec<u16>| {
            let mut p: Vec<(AreaKind, u16)> =
                map.areas.iter().zip(d).map(|(a, &d)| (a.kind, d)).collect();
            p.sort();
            p
        };
        for d in &distances[1..] {
            assert_eq!(
                profile(d),
                profile(&distances[0]),
                "{seats} {size:?} {seed}"
            );
        }
        for (a, area) in map.areas.iter().enumerate() {
            if area.kind == AreaKind::Centre {
                for d in &distances {
                    assert_eq!(
                        d[a], distances[0][a],
                        "{seats} {size:?} {seed}: fragment {a}"
                    );
                }
            }
        }
    }
}

#[test]
fn c_map_3_the_map_is_part_of_the_seeded_match() {
    assert_eq!(map(MapSize::Medium, 3, 11), map(MapSize::Medium, 3, 11));
    assert_ne!(map(MapSize::Medium, 3, 11), map(MapSize::Medium, 3, 12));
}
