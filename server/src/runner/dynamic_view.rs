//! A view as `applied` messages carry it: serialised without its static parts (the board, and in
//! classic the borders and the continents), which the client keeps from the match's `snapshot`.
//! The fields are skipped while serialising, so the board is never turned into JSON only to be
//! thrown away (it was a sixth of the server's instructions per hexdice action).

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use warroom_protocol::RawJson;

/// The parts of a view that never change during a match.
pub const STATIC_VIEW_FIELDS: [&str; 3] = ["board", "borders", "continents"];

/// `view` as JSON text without its [`STATIC_VIEW_FIELDS`] (a view that is not a struct is
/// written whole).
pub fn without_static_parts<V: Serialize>(view: &V) -> RawJson {
    RawJson::of(&WithoutStaticParts(view))
}

/// Serialises the view it holds through [`TopLevel`], so any serializer (JSON text, or a
/// `Value` in tests) gets it without the static fields.
struct WithoutStaticParts<'a, V>(&'a V);

impl<V: Serialize> Serialize for WithoutStaticParts<'_, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(TopLevel(serializer))
    }
}

/// Passes everything on to the serializer it wraps, except that a top-level struct skips the
/// static fields (nested values are written by the wrapped serializer itself, unfiltered).
struct TopLevel<S>(S);

/// The top-level struct being written, field by field.
struct Fields<T>(T);

impl<T: SerializeStruct> SerializeStruct for Fields<T> {
    type Ok = T::Ok;
    type Error = T::Error;

    fn serialize_field<F: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &F,
    ) -> Result<(), T::Error> {
        if STATIC_VIEW_FIELDS.contains(&key) {
            return self.0.skip_field(key);
        }
        self.0.serialize_field(key, value)
    }

    fn end(self) -> Result<T::Ok, T::Error> {
        self.0.end()
    }
}

/// Passes calls of the listed methods on unchanged.
macro_rules! pass {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $name(self, $($arg: $ty),*) -> Result<$ret, S::Error> { self.0.$name($($arg),*) })*
    };
}

impl<S: Serializer> Serializer for TopLevel<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = S::SerializeMap;
    type SerializeStruct = Fields<S::SerializeStruct>;
    type SerializeStructVariant = S::SerializeStructVariant;

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Fields<S::SerializeStruct>, S::Error> {
        self.0.serialize_struct(name, len).map(Fields)
    }

    pass! {
        serialize_bool(v: bool) -> S::Ok;
        serialize_i8(v: i8) -> S::Ok;
        serialize_i16(v: i16) -> S::Ok;
        serialize_i32(v: i32) -> S::Ok;
        serialize_i64(v: i64) -> S::Ok;
        serialize_i128(v: i128) -> S::Ok;
        serialize_u8(v: u8) -> S::Ok;
        serialize_u16(v: u16) -> S::Ok;
        serialize_u32(v: u32) -> S::Ok;
        serialize_u64(v: u64) -> S::Ok;
        serialize_u128(v: u128) -> S::Ok;
        serialize_f32(v: f32) -> S::Ok;
        serialize_f64(v: f64) -> S::Ok;
        serialize_char(v: char) -> S::Ok;
        serialize_str(v: &str) -> S::Ok;
        serialize_bytes(v: &[u8]) -> S::Ok;
        serialize_none() -> S::Ok;
        serialize_unit() -> S::Ok;
        serialize_unit_struct(name: &'static str) -> S::Ok;
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> S::Ok;
        serialize_seq(len: Option<usize>) -> S::SerializeSeq;
        serialize_tuple(len: usize) -> S::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> S::SerializeTupleStruct;
        serialize_tuple_variant(
            name: &'static str,
            index: u32,
            variant: &'static str,
            len: usize
        ) -> S::SerializeTupleVariant;
        serialize_map(len: Option<usize>) -> S::SerializeMap;
        serialize_struct_variant(
            name: &'static str,
            index: u32,
            variant: &'static str,
            len: usize
        ) -> S::SerializeStructVariant;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(value)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, value)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, value)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
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
    fn whole_then_removed<V: Serialize>(view: &V) -> serde_json::Value {
        let mut value = to_json(view);
        if let serde_json::Value::Object(fields) = &mut value {
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
        assert_eq!(
            without_static_parts(&view).to_value(),
            whole_then_removed(&view)
        );
        assert!(
            without_static_parts(&view)
                .to_value()
                .get("board")
                .is_none()
        );

        let (classic, _) = Classic::new(&Default::default(), 4, Seed::from_u64(2)).unwrap();
        let view = classic.view(Viewer::Spectator);
        for field in STATIC_VIEW_FIELDS {
            assert!(
                to_json(&view).get(field).is_some(),
                "a classic view has {field}"
            );
        }
        assert_eq!(
            without_static_parts(&view).to_value(),
            whole_then_removed(&view)
        );
    }

    #[test]
    fn a_value_that_is_not_a_struct_is_written_whole() {
        let map = std::collections::BTreeMap::from([("board", 1), ("cells", 2)]);
        assert_eq!(without_static_parts(&map).to_value(), to_json(&map));
        assert_eq!(without_static_parts(&7).get(), "7");
    }
}
