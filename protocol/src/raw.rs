//! [`RawJson`]: ruleset JSON (a view, legal actions, events) already written as text.
//!
//! The server writes a viewer's view straight from the engine's typed structs into bytes, once
//! per viewer class, and the message carrying it copies those bytes as they are: no
//! `serde_json::Value` tree is built, serialised and dropped per message (that was about half of
//! the server's instructions per action). On the wire it is the same JSON as before.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A JSON value kept as its text. Serialised as that text, unchanged; compared by meaning (two
/// texts of the same value are equal).
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// Writes `value` as JSON text. Plain data never fails to serialise; a map with non-string
    /// keys would, and gives `null` (logged by the caller's `tracing`, if any, as a server bug).
    pub fn of<T: Serialize + ?Sized>(value: &T) -> RawJson {
        match serde_json::value::to_raw_value(value) {
            Ok(raw) => RawJson(raw),
            Err(_) => RawJson::null(),
        }
    }

    /// `null`.
    pub fn null() -> RawJson {
        RawJson(RawValue::NULL.to_owned())
    }

    /// Takes JSON text, checking that it is JSON.
    pub fn from_text(text: String) -> Result<RawJson, serde_json::Error> {
        RawValue::from_string(text).map(RawJson)
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The value as a tree (for tests and slow paths: this parses the text).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.get()).unwrap_or(Value::Null)
    }
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
        self.0.serialize(serializer)
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
        assert!(RawJson::from_text("{".into()).is_err());
        assert_eq!(RawJson::null().get(), "null");
    }
}
