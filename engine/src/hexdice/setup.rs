//! Starting a match: build the board, roll both players' dice until the rolls differ, and pick
//! the occupation starter (H-SETUP-1..3).

use std::cmp::Ordering;
use std::sync::Arc;

use super::board::{Board, MAX_CELLS};
use super::event::Event;
use super::options::Options;
use super::state::{Hexdice, Phase};
use crate::core::{Seat, SetupError};
use crate::rng::{MatchRng, Seed};

/// Checks the seat count and builds the board, as the lobby does before a match exists. A random
/// board without its own seed is checked for its size only (its cells come from the match seed).
pub(crate) fn check_options(options: &Options, seats: u8) -> Result<(), SetupError> {
    check_seats(seats)?;
    // Any generator will do: a seeded random board's validity does not depend on the seed.
    options
        .board
        .build(&mut MatchRng::new(Seed([0; 32])))
        .map(|_| ())
}

fn check_seats(seats: u8) -> Result<(), SetupError> {
    if seats == 2 {
        Ok(())
    } else {
        Err(SetupError::new(
            "invalid_seat_count",
            format!("hexdice is a duel for exactly 2 seats, not {seats}"),
        ))
    }
}

/// Starts a match: the board, the opening rolls (every attempt recorded) and the occupation.
pub(crate) fn start(
    options: &Options,
    seats: u8,
    seed: Seed,
) -> Result<(Hexdice, Vec<Event>), SetupError> {
    check_seats(seats)?;
    let mut rng = MatchRng::new(seed);
    let board = options.board.build(&mut rng)?;
    let mut events = Vec::new();
    let (unplaced, starter) = opening_rolls(&board, &mut rng, &mut events);
    events.push(Event::OccupationStarter { seat: starter });
    let state = Hexdice {
        options: options.clone(),
        board: Arc::new(board),
        rng,
        owned: [0; 2],
        face: [0; MAX_CELLS],
        unplaced,
        reserve: [[0; 2]; 2],
        phase: Phase::Occupation { seat: starter },
        occupation_starter: starter,
        first_turn: None,
        turn: 0,
        previous_could_not_attack: false,
    };
    Ok((state, events))
}

/// H-SETUP-1..3: each player rolls N/2 + 2 dice; the one with more 6s (then 5s, ...) starts the
/// occupation; identical multisets roll again. Returns the dice per face and the starter.
fn opening_rolls(
    board: &Board,
    rng: &mut MatchRng,
    events: &mut Vec<Event>,
) -> ([[u8; 6]; 2], Seat) {
    let per_player = board.len() / 2 + 2;
    loop {
        let mut counts = [[0u8; 6]; 2];
        for (seat, count) in [Seat(0), Seat(1)].into_iter().zip(counts.iter_mut()) {
            let dice: Vec<u8> = (0..per_player).map(|_| rng.die(6)).collect();
            for &face in &dice {
                count[usize::from(face - 1)] += 1;
            }
            events.push(Event::SetupRolled { seat, dice });
        }
        match compare_rolls(&counts[0], &counts[1]) {
            Ordering::Greater => return (counts, Seat(0)),
            Ordering::Less => return (counts, Seat(1)),
            Ordering::Equal => events.push(Event::SetupRerolled),
        }
    }
}

/// H-SETUP-3: compares two rolls by their count of 6s, then 5s, ... down to 1s.
pub(crate) fn compare_rolls(a: &[u8; 6], b: &[u8; 6]) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}
