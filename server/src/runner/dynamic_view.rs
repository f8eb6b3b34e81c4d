//! A view as `applied` messages carry it: serialised without its static parts (the board, and in
//! classic the borders and the continents), which the client keeps from the match's `snapshot`.
//! The fields are skipped while serialising, so the board is never turned into JSON only to be
//! thrown away (it was a sixth of the server's instructions per hexdice action).

use serde::Serialize;
use serde::ser::{Impossible, SerializeStruct, Serializer};
use serde_json::Value;
use serde_json::value::Serializer as ValueSerializer;

/// The parts of a view that never change during a match.
pub const STATIC_VIEW_FIELDS: [&str; 3] = ["board", "borders", "continents"];

/// `view` as JSON without its [`STATIC_VIEW_FIELDS`] (a view that is not a struct is written
/// whole).
pub fn without_static_parts<V: Serialize>(view: &V) -> Value {
    match view.serialize(TopLevelFilter) {
        Ok(value) => value,
        Err(NotAStruct) => super::engine::to_json(view),
    }
}

/// The view was not a struct: the filter does not apply.
#[derive(Debug)]
struct NotAStruct;

impl std::fmt::Display for NotAStruct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a view is a struct")
    }
}

impl std::error::Error for NotAStruct {}

impl serde::ser::Error for NotAStruct {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotAStruct
    }
}

/// Serialises a top-level struct into a [`Value`], skipping the static fields; anything else
/// is refused with [`NotAStruct`] (and then written whole by the caller).
struct TopLevelFilter;

/// The struct being written, field by field.
struct Fields(<ValueSerializer as Serializer>::SerializeStruct);

impl SerializeStruct for Fields {
    type Ok = Value;
    type Error = NotAStruct;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotAStruct> {
        if STATIC_VIEW_FIELDS.contains(&key) {
            return Ok(());
        }
        self.0.serialize_field(key, value).map_err(|_| NotAStruct)
    }

    fn end(self) -> Result<Value, NotAStruct> {
        self.0.end().map_err(|_| NotAStruct)
    }
}

/// Every shape but a struct is refused.
macro_rules! refuse {
    ($($name:ident($($arg:ty),*);)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<Value, NotAStruct> { Err(NotAStruct) })*
    };
}

impl Serializer for TopLevelFilter {
    type Ok = Value;
    type Error = NotAStruct;
    type SerializeSeq = Impossible<Value, NotAStruct>;
    type SerializeTuple = Impossible<Value, NotAStruct>;
    type SerializeTupleStruct = Impossible<Value, NotAStruct>;
    type SerializeTupleVariant = Impossible<Value, NotAStruct>;
    type SerializeMap = Impossible<Value, NotAStruct>;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Impossible<Value, NotAStruct>;

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Fields, NotAStruct> {
        ValueSerializer
            .serialize_struct(name, len)
            .map(Fields)
            .map_err(|_| NotAStruct)
    }

    refuse! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Value, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Value, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Value, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAStruct> {
        Err(NotAStruct)
    }
}

#[cfg(test)]
mod tests {
    use warroom_engine::classic::Classic;
    use warroom_engine::hexdice::Hexdice;
    use warroom_engine::{Ruleset, Seat, Seed, Viewer};

    use super::*;
    use crate::runner::engine::to_json;

    /// The old way: the whole view as JSON, then the static fields removed.
    fn whole_then_removed<V: Serialize>(view: &V) -> Value {
        let mut value = to_json(view);
        if let Value::Object(fields) = &mut value {
            for field in STATIC_VIEW_FIELDS {
                fields.remove(field);
            }
        }
        value
    }

    #[test]
    fn the_view_without_static_parts_is_the_whole_view_less_those_fields() {
        let (hexdice, _) = Hexdice::new(&Default::default(), 2, Seed::from_u64(1)).unwrap();
        let view = hexdice.view(Viewer::Seat(Seat(0)));
        assert!(
            to_json(&view).get("board").is_some(),
            "a hexdice view has a board"
        );
        assert_eq!(without_static_parts(&view), whole_then_removed(&view));
        assert!(without_static_parts(&view).get("board").is_none());

        let (classic, _) = Classic::new(&Default::default(), 4, Seed::from_u64(2)).unwrap();
        let view = classic.view(Viewer::Spectator);
        for field in STATIC_VIEW_FIELDS {
            assert!(
                to_json(&view).get(field).is_some(),
                "a classic view has {field}"
            );
        }
        assert_eq!(without_static_parts(&view), whole_then_removed(&view));
    }

    #[test]
    fn a_value_that_is_not_a_struct_is_written_whole() {
        let map = std::collections::BTreeMap::from([("board", 1), ("cells", 2)]);
        assert_eq!(without_static_parts(&map), to_json(&map));
        assert_eq!(without_static_parts(&7), Value::from(7));
    }
}
