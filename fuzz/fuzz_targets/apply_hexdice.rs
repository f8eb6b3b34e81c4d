//! Arbitrary hexdice actions on states reached by random play (body:
//! `warroom_engine::fuzz::apply_after_random_play`).
#![no_main]

use warroom_engine::fuzz::{HEXDICE, apply_after_random_play};
use warroom_engine::hexdice::Hexdice;

libfuzzer_sys::fuzz_target!(|data: &[u8]| apply_after_random_play::<Hexdice>(&HEXDICE, data));
