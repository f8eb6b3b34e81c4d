//! Replay pins (G-RNG-1): the maps of fixed seeds and the event streams and legal-action lists
//! of fixed games, hashed and compared with values recorded before the engine's speed work.
//! Any change to map generation, the listed actions or the events of a seed breaks old replays
//! and shows up here.

use sha2::{Digest, Sha256};

use super::super::map::Map;
use super::super::{Action, Capitals, MapSize, Options};
use crate::core::Ruleset;
use crate::rng::{MatchRng, Seed};

/// Feeds everything a match depends on in a map into `hash`.
fn hash_map(hash: &mut Sha256, map: &Map) {
    for area in &map.areas {
        hash.update(format!(
            "{:?}/{:?}/{:?};",
            area.kind, area.home, area.borders
        ));
    }
    hash.update(serde_json::to_vec(&map.shapes).expect("shapes serialise"));
    hash.update(format!("{:?}/{:?}", map.capitals, map.symmetries));
}

/// A greedy random policy, so that games see battles, captures and eliminations: usually the
/// attack with the largest lead in units, else a random listed action.
fn pick(game: &Capitals, legal: &[Action], chooser: &mut MatchRng) -> usize {
    let lead = |action: &Action| match action {
        Action::Attack { path, units } => {
            let target = path.areas().last().and_then(|&t| game.area(t));
            i32::from(units.total()) - target.map_or(0, |t| i32::from(t.units.total()))
        }
        _ => 0,
    };
    let best = (0..legal.len()).max_by_key(|&i| (lead(&legal[i]), usize::MAX - i));
    match best {
        Some(i) if lead(&legal[i]) > 0 && chooser.below(4) != 0 => i,
        _ => chooser.below(legal.len() as u32) as usize,
    }
}

#[test]
fn g_rng_1_maps_of_fixed_seeds_are_pinned() {
    let mut hash = Sha256::new();
    for seats in 2..=4 {
        for size in [MapSize::Small, MapSize::Medium, MapSize::Large] {
            for seed in 0..4 {
                let options = Options { map_size: size };
                let (game, _) =
                    Capitals::new(&options, seats, Seed::from_u64(seed)).expect("setup");
                hash_map(&mut hash, game.map());
            }
        }
    }
    assert_eq!(
        hex::encode(hash.finalize()),
        "c823980f9e23d78b5c06c324f29ecabfb8dfeda78a8cea7236dc02e735cb3928",
        "map generation changed: old replays no longer reproduce"
    );
}

#[test]
fn g_rng_1_event_streams_and_legal_lists_of_fixed_games_are_pinned() {
    let mut hash = Sha256::new();
    let mut finished = 0;
    for seats in 2..=4 {
        for seed in 0..8u64 {
            let (mut game, setup) =
                Capitals::new(&Options::default(), seats, Seed::from_u64(seed)).expect("setup");
            hash.update(serde_json::to_vec(&setup).expect("events serialise"));
            let mut chooser = MatchRng::new(Seed::from_u64(seed ^ 0xfeed));
            let mut legal = Vec::new();
            let mut events = Vec::new();
            for _ in 0..3000 {
                let Some(seat) = game.to_act() else {
                    finished += 1;
                    break;
                };
                legal.clear();
                game.legal_actions(&mut legal);
                hash.update(serde_json::to_vec(&legal).expect("actions serialise"));
                let pick = pick(&game, &legal, &mut chooser);
                events.clear();
                game.apply(seat, &legal[pick], &mut events)
                    .expect("a listed action is legal");
                hash.update(serde_json::to_vec(&events).expect("events serialise"));
            }
        }
    }
    assert!(
        finished >= 12,
        "only {finished} pinned games reached their end"
    );
    assert_eq!(
        hex::encode(hash.finalize()),
        "3fb18e92c6572321fbcf7a4a9179bf5f569e4fdc8f883b5d72d2baf856005bf6",
        "events or legal-action lists changed: old replays no longer reproduce"
    );
}
