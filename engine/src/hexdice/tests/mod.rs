//! Tests of the hexdice ruleset: one or more per rule id of RULES.md (named after it), the seeds'
//! own examples, and property tests over random games.

mod attack;
mod board;
mod end;
pub(crate) mod fixture;
mod props;
mod setup;
mod turn;
mod wire;
