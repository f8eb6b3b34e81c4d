//! A started match as its room holds it: the running rules, the secret seed, the client action
//! ids already accepted (so a resent action is answered, never applied twice), and its clock.

use std::collections::HashMap;

use warroom_engine::{Seat, Seed};
use warroom_protocol::MatchId;

use super::clock::Clock;
use crate::runner::MatchRunner;

/// A started match, owned by its room core.
pub struct Game {
    /// Its id.
    pub match_id: MatchId,
    /// The secret seed, revealed when it is over.
    pub seed: Seed,
    /// The rules and state.
    pub runner: Box<dyn MatchRunner>,
    /// Client action ids already accepted, per seat, with their seq: a resent id is answered
    /// from here and never applied twice.
    pub client_ids: HashMap<(Seat, String), u64>,
    /// The clock, when the room has one.
    pub clock: Option<Clock>,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("match_id", &self.match_id)
            .field("seq", &self.runner.seq())
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A match just set up (nothing played yet).
    pub fn new(match_id: MatchId, seed: Seed, runner: Box<dyn MatchRunner>) -> Game {
        Game {
            match_id,
            seed,
            runner,
            client_ids: HashMap::new(),
            clock: None,
        }
    }

    /// True once the match has an outcome.
    pub fn is_over(&self) -> bool {
        self.runner.outcome().is_some()
    }
}
