//! Tests of classic, one module per concern; each rule's test is named after its id in RULES.md.

mod cards;
mod dice;
mod hidden;
mod map;
mod props;
mod setup;
mod support;
mod turn;
mod wire;
