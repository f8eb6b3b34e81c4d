//! The warroom rules engine.
//!
//! Pure and deterministic: no IO, no clock, no global RNG. A match is fully determined by its
//! ruleset, options, seat count, seed and the ordered list of accepted actions (G-RNG-1), so the
//! server stores only those and rebuilds any match by replaying them ([`replay`]).
//!
//! Every ruleset implements the one [`Ruleset`] trait; the server picks the implementation with
//! the [`RulesetId`] enum. Each ruleset module has the same shape: `state`, `action`, `event`,
//! `error`, `check`/`execute`, `view`, `setup` and its tests.

mod bits;
pub mod bot;
pub mod capitals;
pub mod classic;
mod core;
#[cfg(any(test, feature = "fuzz"))]
pub mod fuzz;
pub mod hex;
pub mod hexdice;
pub mod replay;
pub mod rng;

pub use crate::bot::{Bot, BotLevel, BotRng, random_legal};
pub use crate::core::{
    Outcome, RuleError, Ruleset, RulesetId, Seat, SetupError, UnknownRuleset, Viewer,
};
pub use crate::replay::{ReplayError, Replayed, replay};
pub use crate::rng::{MatchRng, Seed, SeedParseError};
