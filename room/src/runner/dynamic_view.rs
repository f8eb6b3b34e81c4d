//! A view as `applied` messages carry it: serialised without its static parts (the board, the
//! options, and in classic the borders, the continents and each territory's name and
//! continent), which the client keeps from the match's `snapshot`.
//! The fields are skipped while serialising, so the board is never turned into JSON only to be
//! thrown away (it was a sixth of the server's instructions per hexdice action).

use std::any::Any;
use std::sync::OnceLock;

use serde::Serialize;
use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use warroom_engine::Viewer;
use warroom_protocol::RawJson;
use warroom_protocol::patch::{diff, typed::ViewPatch};

use super::{DynamicView, ViewData};

// Which parts are static is the protocol's to say (clients and `verify` strip the same ones).
pub use warroom_protocol::static_parts::{
    STATIC_ENTRY_FIELDS, STATIC_VIEW_FIELDS, strip_static_parts,
};

/// `view` as JSON text without its static parts ([`STATIC_VIEW_FIELDS`],
/// [`STATIC_ENTRY_FIELDS`]); a view that is not a struct is written whole.
pub fn without_static_parts<V: Serialize>(view: &V) -> RawJson {
    RawJson::of(&Filtered(view, Rule::View))
}

/// A ruleset's dynamic view of one viewer class, behind [`DynamicView`]: kept typed, written as
/// JSON text (without its static parts) only when asked for.
pub(crate) struct TypedView<R: ViewPatch> {
    view: R::View,
    json: OnceLock<RawJson>,
}

impl<R: ViewPatch + 'static> TypedView<R> {
    /// `viewer`'s dynamic view of `state`.
    pub(crate) fn of(state: &R, viewer: Viewer) -> DynamicView {
        DynamicView::new(TypedView::<R> {
            view: state.dynamic_view(viewer),
            json: OnceLock::new(),
        })
    }
}

impl<R: ViewPatch + 'static> ViewData for TypedView<R> {
    fn json(&self) -> &RawJson {
        self.json.get_or_init(|| without_static_parts(&self.view))
    }

    fn patch_from(&self, old: &dyn ViewData) -> RawJson {
        if let Some(old) = old.as_any().downcast_ref::<TypedView<R>>()
            && let Some(patch) = R::view_patch(&old.view, &self.view)
        {
            return RawJson::from_written(&patch);
        }
        RawJson::from_written(&diff(old.json().get(), self.json().get()))
    }

    fn same_as(&self, other: &dyn ViewData) -> bool {
        // A typed patch is cheap, so typed views are not written only to be compared.
        !R::TYPED && self.json().get() == other.json().get()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What is left out of the value being written.
#[derive(Clone, Copy)]
enum Rule {
    /// The view itself: its static fields, and the static fields of its lists' entries.
    View,
    /// A list whose entries leave these fields out.
    Entries(&'static [&'static str]),
    /// One entry: these fields are left out.
    Entry(&'static [&'static str]),
}

/// A value serialised through [`Filter`] with a rule, so any serializer (JSON text, or a
/// `Value` in tests) gets it without the static parts.
struct Filtered<'a, T: ?Sized>(&'a T, Rule);

impl<T: ?Sized + Serialize> Serialize for Filtered<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(TopLevel(serializer, self.1))
    }
}

/// Passes everything on to the serializer it wraps, except that a struct leaves out the
/// fields its rule names and a list applies its rule to each entry (nested values below that
/// are written by the wrapped serializer itself, unfiltered).
struct TopLevel<S>(S, Rule);

/// A struct being written, field by field.
struct Fields<T>(T, Rule);

impl<T: SerializeStruct> SerializeStruct for Fields<T> {
    type Ok = T::Ok;
    type Error = T::Error;

    fn serialize_field<F: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &F,
    ) -> Result<(), T::Error> {
        match self.1 {
            Rule::View => {
                if STATIC_VIEW_FIELDS.contains(&key) {
                    return self.0.skip_field(key);
                }
                match STATIC_ENTRY_FIELDS.iter().find(|(list, _)| *list == key) {
                    Some((_, fields)) => self
                        .0
                        .serialize_field(key, &Filtered(value, Rule::Entries(fields))),
                    None => self.0.serialize_field(key, value),
                }
            }
            Rule::Entry(fields) if fields.contains(&key) => self.0.skip_field(key),
            Rule::Entry(_) | Rule::Entries(_) => self.0.serialize_field(key, value),
        }
    }

    fn end(self) -> Result<T::Ok, T::Error> {
        self.0.end()
    }
}

/// A list being written, entry by entry.
struct Entries<T>(T, Rule);

impl<T: SerializeSeq> SerializeSeq for Entries<T> {
    type Ok = T::Ok;
    type Error = T::Error;

    fn serialize_element<E: ?Sized + Serialize>(&mut self, value: &E) -> Result<(), T::Error> {
        match self.1 {
            Rule::Entries(fields) => self
                .0
                .serialize_element(&Filtered(value, Rule::Entry(fields))),
            Rule::View | Rule::Entry(_) => self.0.serialize_element(value),
        }
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
    type SerializeSeq = Entries<S::SerializeSeq>;
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
        let rule = self.1;
        self.0
            .serialize_struct(name, len)
            .map(|fields| Fields(fields, rule))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Entries<S::SerializeSeq>, S::Error> {
        let rule = self.1;
        self.0
            .serialize_seq(len)
            .map(|entries| Entries(entries, rule))
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
    use crate::runner::to_json;

    /// The old way: the whole view as JSON, then the static fields removed.
    fn whole_then_removed<V: Serialize>(view: &V) -> serde_json::Value {
        let mut value = to_json(view);
        if let serde_json::Value::Object(fields) = &mut value {
            for field in STATIC_VIEW_FIELDS {
                fields.remove(field);
            }
            for (list, static_fields) in STATIC_ENTRY_FIELDS {
                for entry in fields
                    .get_mut(list)
                    .and_then(serde_json::Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    for field in static_fields {
                        entry.as_object_mut().map(|entry| entry.remove(*field));
                    }
                }
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
        let dynamic = without_static_parts(&view).to_value();
        assert_eq!(dynamic, whole_then_removed(&view));
        let territories = dynamic["territories"].as_array().unwrap();
        assert_eq!(territories.len(), 42);
        assert_eq!(
            territories[3]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["owner", "units"],
            "each territory keeps only what changes"
        );
        assert_eq!(
            to_json(&view)["territories"][3]["name"],
            serde_json::json!("Alberta"),
            "the snapshot's view has the names"
        );
    }

    #[test]
    fn a_value_that_is_not_a_struct_is_written_whole() {
        let map = std::collections::BTreeMap::from([("board", 1), ("cells", 2)]);
        assert_eq!(without_static_parts(&map).to_value(), to_json(&map));
        assert_eq!(without_static_parts(&7).get(), "7");
    }
}
