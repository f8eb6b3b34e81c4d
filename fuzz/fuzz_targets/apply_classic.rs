//! Arbitrary classic actions on states reached by random play (body:
//! `warroom_engine::fuzz::apply_after_random_play`).
#![no_main]

use warroom_engine::classic::Classic;
use warroom_engine::fuzz::{CLASSIC, apply_after_random_play};

libfuzzer_sys::fuzz_target!(|data: &[u8]| apply_after_random_play::<Classic>(&CLASSIC, data));
