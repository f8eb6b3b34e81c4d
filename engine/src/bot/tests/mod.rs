//! Tests of the bots: the random baseline and the bot generator (`basics`), property tests over
//! whole seeded matches of every ruleset (`props`) and scenario tests per ruleset (`capitals`,
//! `classic`, `hexdice`), named after the rule they exercise.

mod basics;
mod capitals;
mod classic;
mod hexdice;
mod props;
