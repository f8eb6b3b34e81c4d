//! JSON scalars written straight into a byte buffer, as serde_json writes them: integers and
//! strings (escaped by serde_json only when they need it). serde_json's writer goes through a
//! `Serialize` call, an escape scan and two or three copies per value; these cost about the
//! value's bytes. Used where the server writes many small values per action (legal actions, the
//! `applied` and `ack` messages, the writer's rows of actions).

/// Writes `value`'s decimal digits (with `itoa`, as serde_json writes them).
pub fn unsigned(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Writes `value` with its sign.
pub fn signed(out: &mut Vec<u8>, value: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Writes `text` quoted when it needs no escape and says so; writes nothing and says `false`
/// when it does (serde_json escapes the quote, the backslash and the control characters only).
pub fn plain_string(out: &mut Vec<u8>, text: &str) -> bool {
    if text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        return false;
    }
    out.reserve(text.len() + 2);
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
    true
}

/// Writes `text` quoted, escaped as serde_json escapes it.
pub fn string(out: &mut Vec<u8>, text: &str) {
    if !plain_string(out, text) {
        // Writing a string into a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    }
}
