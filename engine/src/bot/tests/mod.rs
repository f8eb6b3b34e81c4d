//! Tests of the bots: property tests over whole seeded matches of every ruleset (`props`) and
//! scenario tests per ruleset, named after the rule they exercise.

mod basics;
mod capitals;
mod classic;
mod hexdice;
mod props;
