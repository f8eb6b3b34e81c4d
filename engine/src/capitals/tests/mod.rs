//! scratch
use super::map::*;
use crate::rng::{MatchRng, Seed};

#[test]
fn scratch_stats() {
    for players in [2u8,3,4] {
        for size in [MapSize::Small, MapSize::Medium, MapSize::Large] {
            let mut fails = 0;
            let mut areas = 0;
            let n = 5;
            for s in 0..n {
                let mut rng = MatchRng::new(Seed::from_u64(s));
                match generate(size, players, &mut rng) {
                    Some(m) => areas += m.len(),
                    None => fails += 1,
                }
            }
            println!("{players} {size:?} fails {fails} areas/map {}", areas / n as usize);
        }
    }
}

#[test]
fn scratch_draw() {
    for players in [2u8, 3, 4] {
        let mut rng = MatchRng::new(Seed::from_u64(7));
        let m = generate(MapSize::Medium, players, &mut rng).unwrap();
        let mut grid = std::collections::HashMap::new();
        for (i, s) in m.shapes.iter().enumerate() {
            for c in &s.cells {
                grid.insert((c.q, c.r), i);
            }
        }
        let sym = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()";
        for r in -11i16..=11 {
            let mut line = " ".repeat((r + 11) as usize);
            for q in -14i16..=14 {
                let ch = match grid.get(&(q, r)) {
                    Some(&i) => match m.areas[i].kind {
                        AreaKind::Capital => 'C',
                        AreaKind::FastFactory => 'F',
                        AreaKind::StrongFactory => 'S',
                        AreaKind::Centre => '+',
                        AreaKind::Plain => sym[i % sym.len()] as char,
                    },
                    None => '.',
                };
                line.push(ch);
                line.push(' ');
            }
            println!("{line}");
        }
    }
}
