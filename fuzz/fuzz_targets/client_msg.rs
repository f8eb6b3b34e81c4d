//! Any text frame through `ClientMsg::parse` (body: `warroom_protocol::fuzz::client_msg`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| warroom_protocol::fuzz::client_msg(data));
