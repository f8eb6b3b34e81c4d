//! [`RawJson`]: ruleset JSON (a view, legal actions, events) already written as text.
//!
//! The server writes a viewer's view straight from the engine's typed structs into bytes, once
//! per viewer class, and the message carrying it copies those bytes as they are: no
//! `serde_json::Value` tree is built, serialised and dropped per message (that was about half of
//! the server's instructions per action). On the wire it is the same JSON as before.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// The name by which serde_json's own `RawValue` asks serde_json's serializers to write a
/// string's text as it is (a struct of this name with one field of this name; the
/// `raw_value` feature). [`RawJson`] keeps its text in an `Arc<str>` instead of a
/// `Box<RawValue>`, so that making one needs no second pass over the text and cloning one for
/// each message that carries it copies nothing. The test
/// `raw_json_is_written_as_the_same_json_and_read_back_inside_a_tagged_enum` fails if
/// serde_json ever stops honouring it.
const SERDE_JSON_RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Buffers larger than this are not kept for the next [`RawJson::of`].
const SCRATCH_KEPT: usize = 64 * 1024;

thread_local! {
    /// The buffer [`RawJson::of`] writes into before the text is copied to its exact size:
    /// a view of a few kilobytes is written without growing a buffer five times.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A JSON value kept as its text. Serialised as that text, unchanged; compared by meaning (two
/// texts of the same value are equal). Clones share the text.
#[derive(Clone)]
pub struct RawJson(Arc<str>);

impl RawJson {
    /// Writes `value` as JSON text. Plain data never fails to serialise; a map with non-string
    /// keys would, and gives `null` (logged by the caller's `tracing`, if any, as a server bug).
    pub fn of<T: Serialize + ?Sized>(value: &T) -> RawJson {
        let written = SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut buffer) => {
                buffer.clear();
                let text = write_text(&mut buffer, value);
                if buffer.capacity() > SCRATCH_KEPT {
                    *buffer = Vec::new();
                }
                text
            }
            // Only if a value's `Serialize` made a `RawJson` itself.
            Err(_) => write_text(&mut Vec::new(), value),
        });
        written.map(RawJson).unwrap_or_else(RawJson::null)
    }

    /// `null`.
    pub fn null() -> RawJson {
        RawJson(Arc::from("null"))
    }

    /// Takes JSON text, checking that it is JSON.
    pub fn from_text(text: String) -> Result<RawJson, serde_json::Error> {
        serde_json::from_str::<serde::de::IgnoredAny>(&text)?;
        Ok(RawJson(Arc::from(text)))
    }

    /// Takes JSON text that the server's own writers put together from serde_json's output
    /// (legal actions, view patches), without reading it again: their tests check that it is
    /// JSON, and debug builds check each one.
    pub fn from_written(text: &str) -> RawJson {
        debug_assert!(
            serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(),
            "not JSON: {text}"
        );
        RawJson(Arc::from(text))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        &self.0
    }

    /// The value as a tree (for tests and slow paths: this parses the text).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.get()).unwrap_or(Value::Null)
    }
}

/// `value`'s JSON text, written into `buffer` and copied out at its exact size.
fn write_text<T: Serialize + ?Sized>(buffer: &mut Vec<u8>, value: &T) -> Option<Arc<str>> {
    serde_json::to_writer(&mut *buffer, value).ok()?;
    std::str::from_utf8(buffer).ok().map(Arc::from)
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.get() == other.get() || self.to_value() == other.to_value()
    }
}

impl From<&Value> for RawJson {
    fn from(value: &Value) -> RawJson {
        RawJson::of(value)
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut raw = serializer.serialize_struct(SERDE_JSON_RAW_VALUE, 1)?;
        raw.serialize_field(SERDE_JSON_RAW_VALUE, self.get())?;
        raw.end()
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawJson, D::Error> {
        // Through a `Value`: a `RawValue` cannot be read inside an internally tagged enum such
        // as `ServerMsg` (serde buffers its fields first). Only clients and tests read these.
        let value = Value::deserialize(deserializer)?;
        Ok(RawJson::of(&value))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn raw_json_is_written_as_the_same_json_and_read_back_inside_a_tagged_enum() {
        let value = json!({"cells": [1, 2, {"owner": null}], "name": "a\"b"});
        let raw = RawJson::of(&value);
        assert_eq!(raw.get(), serde_json::to_string(&value).unwrap());
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type")]
        enum Tagged {
            Message { view: RawJson },
        }
        let text = serde_json::to_string(&Tagged::Message { view: raw.clone() }).unwrap();
        assert_eq!(
            text,
            r#"{"type":"Message","view":{"cells":[1,2,{"owner":null}],"name":"a\"b"}}"#
        );
        let back: Tagged = serde_json::from_str(&text).unwrap();
        assert_eq!(back, Tagged::Message { view: raw });
        assert_eq!(serde_json::to_value(&back).unwrap()["view"], value);
    }

    #[test]
    fn raw_json_compares_by_meaning_and_refuses_text_that_is_not_json() {
        let spaced = RawJson::from_text(r#"{ "a": 1, "b": [true] }"#.into()).unwrap();
        assert_eq!(spaced, RawJson::of(&json!({"b": [true], "a": 1})));
        assert_ne!(spaced, RawJson::of(&json!({"a": 2, "b": [true]})));
        // Written as it was taken, spaces and all.
        assert_eq!(
            serde_json::to_string(&spaced).unwrap(),
            r#"{ "a": 1, "b": [true] }"#
        );
        assert!(RawJson::from_text("{".into()).is_err());
        assert_eq!(RawJson::null().get(), "null");
    }
}
