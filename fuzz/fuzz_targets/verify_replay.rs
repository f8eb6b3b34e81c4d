//! Corrupted replays through `verify` (body: `warroom_protocol::fuzz::corrupted_replay`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| warroom_protocol::fuzz::corrupted_replay(data));
