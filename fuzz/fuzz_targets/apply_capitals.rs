//! Arbitrary capitals actions on states reached by random play (body:
//! `warroom_engine::fuzz::apply_after_random_play`).
#![no_main]

use warroom_engine::capitals::Capitals;
use warroom_engine::fuzz::{CAPITALS, apply_after_random_play};

libfuzzer_sys::fuzz_target!(|data: &[u8]| apply_after_random_play::<Capitals>(&CAPITALS, data));
