//! Tests of the hexdice ruleset, one per rule id of RULES.md, plus property tests.
