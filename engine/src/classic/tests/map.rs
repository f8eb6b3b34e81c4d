//! The world map (W-MAP-1) and its drawn shapes.

use std::collections::HashSet;

use crate::classic::map::{
    ADJACENCY, ALL_TERRITORIES, BORDERS, Continent, TERRITORIES, TERRITORY_COUNT, borders,
    reachable, region_shapes,
};
use crate::hex::borders_from_cells;

#[test]
fn w_map_1_world_has_42_territories_and_83_symmetric_borders() {
    assert_eq!(TERRITORIES.len(), 42);
    assert_eq!(TERRITORY_COUNT, 42);
    let names: HashSet<&str> = TERRITORIES.iter().map(|t| t.name).collect();
    assert_eq!(names.len(), 42, "territory names are unique");

    let mut seen = HashSet::new();
    for &(a, b) in &BORDERS {
        assert_ne!(a, b, "no territory borders itself");
        assert!(usize::from(a.max(b)) < 42);
        assert!(
            seen.insert((a.min(b), a.max(b))),
            "border {a}-{b} listed twice"
        );
    }
    assert_eq!(seen.len(), 83);
    let degree_sum: u32 = ADJACENCY.iter().map(|m| m.count_ones()).sum();
    assert_eq!(degree_sum, 2 * 83);
    for a in 0..42u8 {
        for b in 0..42u8 {
            assert_eq!(borders(a, b), borders(b, a), "{a}-{b} not symmetric");
        }
    }
    // The sea links of the standard map.
    let name = |id: u8| TERRITORIES[usize::from(id)].name;
    for (x, y) in [
        ("Alaska", "Kamchatka"),
        ("Greenland", "Iceland"),
        ("Brazil", "North Africa"),
        ("Siam", "Indonesia"),
        ("Egypt", "Middle East"),
        ("East Africa", "Madagascar"),
    ] {
        let a = (0..42).find(|&i| name(i) == x).unwrap();
        let b = (0..42).find(|&i| name(i) == y).unwrap();
        assert!(borders(a, b), "{x} should border {y}");
    }
    assert!(!borders(0, 99), "unknown ids border nothing");
}

#[test]
fn w_map_1_world_and_each_continent_are_connected() {
    assert_eq!(reachable(0, ALL_TERRITORIES), ALL_TERRITORIES);
    for continent in Continent::ALL {
        let mask = continent.mask();
        let start = mask.trailing_zeros() as u8;
        assert_eq!(
            reachable(start, mask),
            mask,
            "{continent:?} is not connected"
        );
    }
}

#[test]
fn w_map_1_continent_sizes_and_bonuses() {
    let expected = [
        (Continent::NorthAmerica, 9, 5),
        (Continent::SouthAmerica, 4, 2),
        (Continent::Europe, 7, 5),
        (Continent::Africa, 6, 3),
        (Continent::Asia, 12, 7),
        (Continent::Australia, 4, 2),
    ];
    for (continent, size, bonus) in expected {
        assert_eq!(continent.mask().count_ones(), size, "{continent:?}");
        assert_eq!(continent.bonus(), bonus, "{continent:?}");
    }
    let total: u32 = Continent::ALL.into_iter().map(Continent::bonus).sum();
    assert_eq!(total, 24);
    let union = Continent::ALL.into_iter().fold(0, |m, c| m | c.mask());
    assert_eq!(union, ALL_TERRITORIES);
}

#[test]
fn w_map_1_region_shapes_do_not_overlap() {
    let regions = region_shapes();
    assert_eq!(regions.len(), 42);
    let mut cells = HashSet::new();
    for (i, region) in regions.iter().enumerate() {
        assert_eq!(usize::from(region.id), i);
        assert_eq!(region.name.as_deref(), Some(TERRITORIES[i].name));
        assert!(
            region.cells.len() >= 7,
            "{} is too small to draw",
            TERRITORIES[i].name
        );
        for &cell in &region.cells {
            assert!(
                cells.insert(cell),
                "cell {cell:?} of {} overlaps",
                TERRITORIES[i].name
            );
        }
        // Each territory is one piece of land.
        let mut reached = vec![region.cells[0]];
        let mut frontier = vec![region.cells[0]];
        while let Some(cell) = frontier.pop() {
            for next in cell.neighbors() {
                if region.cells.contains(&next) && !reached.contains(&next) {
                    reached.push(next);
                    frontier.push(next);
                }
            }
        }
        assert_eq!(
            reached.len(),
            region.cells.len(),
            "{} is in pieces",
            TERRITORIES[i].name
        );
    }
    // Shapes touch where land borders are: most borders are drawn as shared edges, and hardly
    // any shared edge is not a border (the sea links cannot be drawn as contacts).
    let drawn = borders_from_cells(&regions);
    let contacts: Vec<(u8, u8)> = drawn
        .iter()
        .enumerate()
        .flat_map(|(a, ns)| ns.iter().map(move |&b| (a as u8, b as u8)))
        .filter(|(a, b)| a < b)
        .collect();
    let false_contacts = contacts.iter().filter(|&&(a, b)| !borders(a, b)).count();
    let drawn_borders = contacts.len() - false_contacts;
    assert!(
        false_contacts <= 2,
        "{false_contacts} contacts are not borders"
    );
    assert!(
        drawn_borders >= 50,
        "only {drawn_borders} of 83 borders are drawn"
    );
}
