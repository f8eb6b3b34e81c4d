//! Starting a match: options, the generated map, the opening units and the first player
//! (C-START-1, C-START-2, C-ROUND-1).

use std::sync::Arc;

use super::event::Event;
use super::map::generate;
use super::state::{AreaState, Capitals, Options};
use super::units::Units;
use crate::core::{Seat, SetupError};
use crate::rng::{MatchRng, Seed};

/// Units in each capital at the start (C-START-1).
const CAPITAL_START: u8 = 4;
/// Units in each neutral area at the start (C-START-2).
const NEUTRAL_START: u8 = 1;

/// Checks the seat count (2–4); every map size works with every seat count.
pub(crate) fn check_options(_options: &Options, seats: u8) -> Result<(), SetupError> {
    if !(2..=4).contains(&seats) {
        return Err(SetupError::new(
            "bad_seat_count",
            format!("capitals is played by 2 to 4 players, not {seats}"),
        ));
    }
    Ok(())
}

/// Generates the map from the seed, places the opening units, draws the first player and starts
/// their turn (with its production, C-PROD-1).
pub(crate) fn new_match(
    options: &Options,
    seats: u8,
    seed: Seed,
) -> Result<(Capitals, Vec<Event>), SetupError> {
    check_options(options, seats)?;
    let mut rng = MatchRng::new(seed);
    let map = generate(options.map_size, seats, &mut rng).ok_or_else(|| {
        SetupError::new("map_generation_failed", "no fair map found for this seed")
    })?;
    let mut areas = vec![
        AreaState {
            owner: None,
            units: Units::d6(NEUTRAL_START),
        };
        map.len()
    ];
    for (seat, &capital) in map.capitals.iter().enumerate() {
        areas[usize::from(capital)] = AreaState {
            owner: Some(Seat(seat as u8)),
            units: Units::d6(CAPITAL_START),
        };
    }
    let first = Seat(rng.below(u32::from(seats)) as u8);
    let mut state = Capitals {
        map: Arc::new(map),
        areas,
        eliminated: vec![false; usize::from(seats)],
        first,
        current: first,
        round: 1,
        orders: 0,
        rng,
        outcome: None,
    };
    let mut events = vec![
        Event::FirstPlayerDrawn { seat: first },
        Event::RoundStarted { round: 1 },
    ];
    state.start_turn(first, &mut events);
    Ok((state, events))
}
