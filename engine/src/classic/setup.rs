//! Starting a classic match: the seat count and starting units (W-SETUP-1), the opening roll
//! (W-SETUP-2), the shuffled deck (W-CARD-1), and either the claim step (W-SETUP-3) or the random
//! quick setup (room option `setup: random`).

use super::cards::{CARD_COUNT, Card};
use super::event::Event;
use super::map::TERRITORY_COUNT;
use super::options::{ClassicOptions, SetupMode};
use super::state::{Classic, NOBODY, Phase};
use crate::core::{Seat, SetupError};
use crate::rng::{MatchRng, Seed};

/// The seat counts classic is played with.
pub const MIN_SEATS: u8 = 3;
/// The seat counts classic is played with.
pub const MAX_SEATS: u8 = 6;

/// W-SETUP-1: starting units per player.
pub fn starting_units(seats: u8) -> u32 {
    match seats {
        3 => 35,
        4 => 30,
        5 => 25,
        _ => 20,
    }
}

/// Refuses a seat count outside 3–6 (the options themselves are always valid once parsed).
pub fn check_options(_options: &ClassicOptions, seats: u8) -> Result<(), SetupError> {
    if (MIN_SEATS..=MAX_SEATS).contains(&seats) {
        Ok(())
    } else {
        Err(SetupError::new(
            "invalid_seats",
            format!("classic is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats}"),
        ))
    }
}

/// A new match and the events of its setup.
pub fn new_match(
    options: &ClassicOptions,
    seats: u8,
    seed: Seed,
) -> Result<(Classic, Vec<Event>), SetupError> {
    check_options(options, seats)?;
    let mut events = Vec::new();
    let mut rng = MatchRng::new(seed);
    let first = opening_roll(seats, &mut rng, &mut events);
    let mut deck: Vec<Card> = (0..CARD_COUNT).map(Card).collect();
    rng.shuffle(&mut deck);
    events.push(Event::DeckShuffled { cards: CARD_COUNT });
    let players = usize::from(seats);
    let mut state = Classic {
        options: *options,
        seats,
        owner: [NOBODY; TERRITORY_COUNT],
        units: [0; TERRITORY_COUNT],
        hands: vec![Vec::new(); players],
        deck,
        set_aside: Vec::new(),
        out: vec![false; players],
        to_place: vec![starting_units(seats); players],
        phase: Phase::Claim,
        current: first,
        first,
        turn: 0,
        reserve: 0,
        sets_traded: 0,
        conquered: false,
        bonus_used: false,
        attacked: false,
        winner: None,
        rng,
    };
    if options.setup == SetupMode::Random {
        deal_at_random(&mut state, &mut events);
        state.start_turn(first, &mut events);
    }
    Ok((state, events))
}

/// W-SETUP-2: every seat rolls a d6; the highest acts first, ties at the top roll again.
fn opening_roll(seats: u8, rng: &mut MatchRng, events: &mut Vec<Event>) -> u8 {
    let mut contenders: Vec<u8> = (0..seats).collect();
    while contenders.len() > 1 {
        let rolls: Vec<(u8, u8)> = contenders.iter().map(|&s| (s, rng.die(6))).collect();
        events.extend(
            rolls
                .iter()
                .map(|&(s, die)| Event::OrderRoll { seat: Seat(s), die }),
        );
        let best = rolls.iter().map(|&(_, die)| die).max().unwrap_or(0);
        contenders = rolls
            .into_iter()
            .filter(|&(_, die)| die == best)
            .map(|(s, _)| s)
            .collect();
    }
    let first = contenders.first().copied().unwrap_or(0);
    events.push(Event::FirstPlayer { seat: Seat(first) });
    first
}

/// The quick setup: territories shuffled and dealt round the table from the first player, then
/// each player's starting units spread over their territories in dealt order, one at a time.
fn deal_at_random(state: &mut Classic, events: &mut Vec<Event>) {
    let mut order: Vec<u8> = (0..TERRITORY_COUNT as u8).collect();
    state.rng.shuffle(&mut order);
    let mut dealt: Vec<Vec<u8>> = vec![Vec::new(); usize::from(state.seats)];
    for (i, &territory) in order.iter().enumerate() {
        // i < 42, so the sum stays far below u8::MAX before the modulo.
        let seat = (state.first + (i % usize::from(state.seats)) as u8) % state.seats;
        dealt[usize::from(seat)].push(territory);
    }
    for (seat, territories) in dealt.iter().enumerate() {
        let mut left = state.to_place[seat];
        for (i, &territory) in territories.iter().cycle().enumerate() {
            if left == 0 {
                break;
            }
            let t = usize::from(territory);
            if i < territories.len() {
                state.owner[t] = seat as u8;
            }
            state.units[t] += 1;
            left -= 1;
        }
        state.to_place[seat] = 0;
    }
    events.push(Event::TerritoriesDealt {
        owners: state.owner.iter().map(|&s| Seat(s)).collect(),
        units: state.units.to_vec(),
    });
}
