//! Replaying a match from its record: (options, seats, seed, ordered accepted actions) gives the
//! same state and the same events as live play did (G-RNG-1). The server rebuilds unfinished
//! matches with it at start-up, and `warroom verify` rechecks finished ones.

use crate::core::{Ruleset, Seat, SetupError};
use crate::rng::Seed;

/// A match recomputed from its record.
#[derive(Clone, Debug)]
pub struct Replayed<R: Ruleset> {
    /// The state after the last action.
    pub state: R,
    /// The events of setup.
    pub setup_events: Vec<R::Event>,
    /// For each action, in order, the events it caused.
    pub action_events: Vec<Vec<R::Event>>,
}

/// Why a record could not be replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError<E: std::error::Error + 'static> {
    /// The options or seat count cannot start a match.
    #[error("the match cannot be set up: {0}")]
    Setup(#[from] SetupError),
    /// An action of the record is refused by the rules.
    #[error("action #{index} (seat {seat}) is refused: {error}")]
    Refused {
        /// Position of the action in the record, from 0.
        index: usize,
        /// Who sent it.
        seat: Seat,
        /// Why the rules refuse it.
        error: E,
    },
}

/// Replays a match record. Every action must be accepted, as it was live.
pub fn replay<'a, R: Ruleset>(
    options: &R::Options,
    seats: u8,
    seed: Seed,
    actions: impl IntoIterator<Item = (Seat, &'a R::Action)>,
) -> Result<Replayed<R>, ReplayError<R::Error>> {
    let (mut state, setup_events) = R::new(options, seats, seed)?;
    let mut action_events = Vec::new();
    for (index, (seat, action)) in actions.into_iter().enumerate() {
        let mut events = Vec::new();
        state
            .apply(seat, action, &mut events)
            .map_err(|error| ReplayError::Refused { index, seat, error })?;
        action_events.push(events);
    }
    Ok(Replayed {
        state,
        setup_events,
        action_events,
    })
}
