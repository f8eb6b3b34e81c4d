//! The legal actions as `snapshot` and `applied` carry them (`legal`): grouped by action type,
//! each group naming its fields once and giving its actions as rows of values in that order,
//! where a row may stand for several actions: a cell that is a list is a choice among its
//! values, and the row stands for every combination of its cells' values, the first field
//! varying slowest. A classic attack step lists a few hundred attacks and fortifies; written
//! out one object each they were most of an `applied` message (docs/PROTOCOL.md "Legal actions").
//!
//! ```json
//! [{"type": "attack", "fields": ["from", "to", "dice"], "rows": [[3, [4, 9], [1, 2]], [5, 4, 1]]},
//!  {"type": "trade", "fields": ["cards"], "rows": [[[[1, 2, 3], [1, 2, 4]]]]},
//!  {"type": "end_turn", "fields": [], "rows": [[]]}]
//! ```
//! stands for `{"type": "attack", "from": 3, "to": 4, "dice": 1}`, `{…, "to": 4, "dice": 2}`,
//! `{…, "to": 9, "dice": 1}`, `{…, "to": 9, "dice": 2}`, `{…, "from": 5, "to": 4, "dice": 1}`,
//! the trades of cards `[1, 2, 3]` and `[1, 2, 4]` (a value that is itself a list is always
//! written inside a choice) and `{"type": "end_turn"}`. Groups come in the order of their first
//! action, and actions keep their order within a group: rows are merged only where the written
//! out list stays in the engine's order. An action that is not an object tagged by `type` would
//! be a group with `type` null and one field, `action`, holding it whole (no ruleset has one).

use std::cell::RefCell;

use serde::ser::{Impossible, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::json_text;
use crate::raw::RawJson;

/// The field naming an action's kind.
const TAG: &str = "type";

/// One kind of action, with every listed action of that kind.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegalGroup {
    /// The actions' `type` (`null`: each row holds one whole action, in field `action`).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The other fields of these actions, in the order of each row's values.
    pub fields: Vec<String>,
    /// One cell per field in each row: the field's value, or a list of the values it takes
    /// (the row stands for every combination).
    #[cfg_attr(test, ts(type = "Array<Array<any>>"))]
    pub rows: Vec<Vec<Value>>,
}

impl LegalGroup {
    /// The actions of this group, written out.
    pub fn actions(&self) -> impl Iterator<Item = Value> + '_ {
        self.rows.iter().flat_map(|row| {
            combinations(row)
                .into_iter()
                .map(|values| self.action_of(values))
        })
    }

    /// How many actions this group stands for.
    pub fn len(&self) -> usize {
        self.rows.iter().map(|row| row_len(row)).sum()
    }

    /// True when the group stands for no action (a row with an empty choice).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `index`-th action of this group, as [`LegalGroup::actions`] writes them out, without
    /// writing out the others; `None` past the end.
    pub fn action(&self, mut index: usize) -> Option<Value> {
        for row in &self.rows {
            let len = row_len(row);
            if index >= len {
                index -= len;
                continue;
            }
            // The first cell varies slowest: take the digits of `index` from the last cell on.
            let mut values = vec![Value::Null; row.len()];
            for (slot, cell) in values.iter_mut().zip(row).rev() {
                let choices = cell_choices(cell);
                *slot = choices[index % choices.len()].clone();
                index /= choices.len();
            }
            return Some(self.action_of(values));
        }
        None
    }

    /// The action of one combination of a row's values.
    fn action_of(&self, values: Vec<Value>) -> Value {
        match &self.kind {
            None => values.into_iter().next().unwrap_or(Value::Null),
            Some(kind) => {
                let mut action = Map::new();
                action.insert(TAG.to_owned(), Value::String(kind.clone()));
                for (field, value) in self.fields.iter().zip(values) {
                    action.insert(field.clone(), value);
                }
                Value::Object(action)
            }
        }
    }
}

/// A cell's values: the choice it lists, or the one value it is.
fn cell_choices(cell: &Value) -> &[Value] {
    match cell {
        Value::Array(values) => values.as_slice(),
        value => std::slice::from_ref(value),
    }
}

/// How many actions a row stands for: the product of its cells' numbers of values.
fn row_len(row: &[Value]) -> usize {
    row.iter().map(|cell| cell_choices(cell).len()).product()
}

/// How many actions `groups` stand for (the length [`expand`] would give).
pub fn count(groups: &[LegalGroup]) -> usize {
    groups.iter().map(LegalGroup::len).sum()
}

/// The `index`-th action of `groups`, as [`expand`] writes them out, without writing out the
/// others (a client picking one of a few hundred); `None` past the end.
pub fn nth(groups: &[LegalGroup], mut index: usize) -> Option<Value> {
    for group in groups {
        let len = group.len();
        if index < len {
            return group.action(index);
        }
        index -= len;
    }
    None
}

/// Every combination of a row's cells' values (a cell that is a list is a choice among its
/// values), the first cell varying slowest.
fn combinations(row: &[Value]) -> Vec<Vec<Value>> {
    let mut out = vec![Vec::with_capacity(row.len())];
    for cell in row {
        let choices = cell_choices(cell);
        out = out
            .into_iter()
            .flat_map(|prefix| {
                choices.iter().map(move |value| {
                    let mut values = prefix.clone();
                    values.push(value.clone());
                    values
                })
            })
            .collect();
    }
    out
}

/// The actions of a message's `legal`, written out in order.
pub fn expand(groups: &[LegalGroup]) -> Vec<Value> {
    groups.iter().flat_map(LegalGroup::actions).collect()
}

/// [`expand`] for a `legal` read as JSON; `None` when it is not a list of groups.
pub fn expand_value(legal: &Value) -> Option<Vec<Value>> {
    let groups: Vec<LegalGroup> = serde_json::from_value(legal.clone()).ok()?;
    Some(expand(&groups))
}

/// Writes `actions` grouped (the server's side). Each action's fields are written as JSON text
/// straight from its typed form into one buffer shared by every row, so no `Value` is built;
/// rows are merged where they can be. The buffers are the thread's own and kept from one call
/// to the next ([`SCRATCH`]): a list of a few hundred actions is taken apart and written without
/// growing a buffer, and costs one allocation, the text's.
pub fn compact<A: Serialize>(actions: &[A]) -> RawJson {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => {
            let text = scratch.compact(actions);
            if scratch.capacity() > SCRATCH_KEPT {
                *scratch = Scratch::default();
            }
            text
        }
        // Only if an action's `Serialize` listed legal actions itself.
        Err(_) => Scratch::default().compact(actions),
    })
}

/// Scratch space larger than this (bytes) is not kept for the next [`compact`].
const SCRATCH_KEPT: usize = 256 * 1024;

thread_local! {
    /// The buffers [`compact`] takes actions apart and writes them in.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// What [`compact`] writes into: the table, the merge's buffers and the text.
#[derive(Default)]
struct Scratch {
    table: Table,
    merge: Merge,
    out: Vec<u8>,
}

impl Scratch {
    fn compact<A: Serialize>(&mut self, actions: &[A]) -> RawJson {
        let Scratch { table, merge, out } = self;
        table.clear();
        for action in actions {
            table.add(action);
        }
        out.clear();
        table.write(merge, out);
        // Only serde_json and `Table::write` wrote into it: UTF-8 (checked) and JSON.
        std::str::from_utf8(out)
            .map(RawJson::from_written)
            .unwrap_or_else(|_| RawJson::null())
    }

    /// Roughly how many bytes its buffers hold.
    fn capacity(&self) -> usize {
        let table = &self.table;
        let merge = &self.merge;
        table.values.capacity()
            + table.ends.capacity() * size_of::<usize>()
            + table
                .groups
                .iter()
                .map(|group| group.rows.capacity() * size_of::<Row>())
                .sum::<usize>()
            + (merge.entries.capacity() + merge.next_entries.capacity())
                * size_of::<(Row, (usize, usize))>()
            + merge.cells.capacity()
            + merge.next_cells.capacity()
            + self.out.capacity()
    }
}

/// The actions taken apart, grouped: every row's values live in one buffer.
#[derive(Default)]
struct Table {
    /// Each row's field values as JSON text, comma-separated, rows one after another.
    values: Vec<u8>,
    /// Where each field's value ends in `values`, rows one after another.
    ends: Vec<usize>,
    /// The action being taken apart: the JSON text of its tag, once read.
    tag: Vec<u8>,
    /// Whether it had a tag.
    tagged: bool,
    /// Its other fields' names.
    fields: Vec<&'static str>,
    /// The groups so far (the first `used`), in the order of their first action; those after
    /// are kept from earlier lists for their buffers.
    groups: Vec<Group>,
    /// How many of `groups` this list has.
    used: usize,
}

/// One type of action and its rows.
#[derive(Default)]
struct Group {
    /// Whether the actions are tagged: each row holds one whole action when not.
    tagged: bool,
    /// The JSON text of the actions' `type`, when tagged.
    kind: Vec<u8>,
    fields: Vec<&'static str>,
    rows: Vec<Row>,
}

impl Group {
    /// The JSON text of the actions' `type` (`None`: each row holds one whole action).
    fn kind(&self) -> Option<&[u8]> {
        self.tagged.then_some(self.kind.as_slice())
    }
}

/// One action's values in the [`Table`]: where they start in `values`, and where the end of its
/// first field is in `ends`.
#[derive(Clone, Copy)]
struct Row {
    start: usize,
    first_end: usize,
}

impl Table {
    /// Empties the table for another list, keeping its buffers.
    fn clear(&mut self) {
        self.values.clear();
        self.ends.clear();
        self.used = 0;
    }

    /// The groups of the list being taken apart.
    fn groups(&self) -> &[Group] {
        &self.groups[..self.used]
    }

    /// Takes `action` apart into a row of its group (a new group for a new type or fields).
    fn add<A: Serialize>(&mut self, action: &A) {
        let row = Row {
            start: self.values.len(),
            first_end: self.ends.len(),
        };
        self.tag.clear();
        self.tagged = false;
        self.fields.clear();
        let tagged = action.serialize(Capture(self)).is_ok() && self.tagged;
        if !tagged {
            // Listed whole, in its one field `action`.
            self.values.truncate(row.start);
            self.ends.truncate(row.first_end);
            self.fields.clear();
            self.fields.push("action");
            if serde_json::to_writer(&mut self.values, action).is_err() {
                self.values.truncate(row.start);
                self.values.extend_from_slice(b"null");
            }
            self.ends.push(self.values.len());
        }
        let kind = tagged.then_some(self.tag.as_slice());
        let fields = &self.fields;
        let used = &mut self.groups[..self.used];
        match used
            .iter_mut()
            .find(|group| group.kind() == kind && group.fields == *fields)
        {
            Some(group) => group.rows.push(row),
            None => {
                if self.used == self.groups.len() {
                    self.groups.push(Group::default());
                }
                let group = &mut self.groups[self.used];
                self.used += 1;
                group.tagged = tagged;
                group.kind.clear();
                group.kind.extend_from_slice(&self.tag);
                group.fields.clear();
                group.fields.extend_from_slice(&self.fields);
                group.rows.clear();
                group.rows.push(row);
            }
        }
    }

    /// The text of field `index`'s value in `row`.
    fn field(&self, row: Row, index: usize) -> &[u8] {
        let start = match index {
            0 => row.start,
            _ => self.ends[row.first_end + index - 1] + 1,
        };
        &self.values[start..self.ends[row.first_end + index]]
    }

    /// The text of the values of the fields before `index` in `row`.
    fn before(&self, row: Row, index: usize) -> &[u8] {
        let end = match index {
            0 => row.start,
            _ => self.ends[row.first_end + index - 1],
        };
        &self.values[row.start..end]
    }

    /// Writes the groups as the `legal` list, merging rows with `merge`'s buffers.
    fn write(&self, merge: &mut Merge, out: &mut Vec<u8>) {
        out.push(b'[');
        for (index, group) in self.groups().iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.extend_from_slice(br#"{"type":"#);
            out.extend_from_slice(group.kind().unwrap_or(b"null"));
            out.extend_from_slice(br#","fields":["#);
            for (index, field) in group.fields.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                if write_json(out, *field).is_err() {
                    out.extend_from_slice(b"null");
                }
            }
            out.extend_from_slice(br#"],"rows":["#);
            merge.write_rows(self, group, out);
            out.extend_from_slice(b"]}");
        }
        out.push(b']');
    }
}

/// Rows being merged, from the last field to the first: each entry is the row its values of
/// the fields before the current one come from, and (a range of `cells`) the text of the cells
/// of the fields from the current one on. Neighbouring entries that differ only in the current
/// field become one with the choice of their values; merging a field while every field before
/// it holds one value keeps the written out order. Two generations of buffers, reused.
#[derive(Default)]
struct Merge {
    entries: Vec<(Row, (usize, usize))>,
    cells: Vec<u8>,
    next_entries: Vec<(Row, (usize, usize))>,
    next_cells: Vec<u8>,
}

impl Merge {
    fn write_rows(&mut self, table: &Table, group: &Group, out: &mut Vec<u8>) {
        self.entries.clear();
        self.cells.clear();
        self.entries
            .extend(group.rows.iter().map(|&row| (row, (0, 0))));
        for field in (0..group.fields.len()).rev() {
            self.next_entries.clear();
            self.next_cells.clear();
            let (entries, cells) = (&self.entries, &self.cells);
            let mut start = 0;
            while start < entries.len() {
                let (head, (from, to)) = entries[start];
                let head_cells = &cells[from..to];
                let head_before = table.before(head, field);
                let end = start
                    + entries[start..]
                        .iter()
                        .take_while(|(row, (from, to))| {
                            same_text(&cells[*from..*to], head_cells)
                                && same_text(table.before(*row, field), head_before)
                        })
                        .count();
                let begin = self.next_cells.len();
                write_cell(
                    &mut self.next_cells,
                    entries[start..end]
                        .iter()
                        .map(|(row, _)| table.field(*row, field)),
                );
                if !head_cells.is_empty() {
                    self.next_cells.push(b',');
                    self.next_cells.extend_from_slice(head_cells);
                }
                self.next_entries
                    .push((head, (begin, self.next_cells.len())));
                start = end;
            }
            std::mem::swap(&mut self.entries, &mut self.next_entries);
            std::mem::swap(&mut self.cells, &mut self.next_cells);
        }
        for (index, (_, (from, to))) in self.entries.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.push(b'[');
            out.extend_from_slice(&self.cells[*from..*to]);
            out.push(b']');
        }
    }
}

/// Whether two pieces of a row's text are the same. They are a few bytes long (a number or
/// two and their commas), and merging compares each entry with its neighbour once per field:
/// compared here eight bytes at a time, they cost a few instructions each, where a call to
/// `memcmp` per comparison was a twentieth of the server's time per action (perf, hexdice).
#[inline]
fn same_text(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut a_words, mut b_words) = (a.chunks_exact(8), b.chunks_exact(8));
    let words_same = (&mut a_words)
        .zip(&mut b_words)
        .all(|(x, y)| word(x) == word(y));
    words_same
        && a_words
            .remainder()
            .iter()
            .zip(b_words.remainder())
            .all(|(x, y)| x == y)
}

/// Eight bytes as one word (`None` for any other length: never, from `chunks_exact(8)`).
#[inline]
fn word(bytes: &[u8]) -> Option<u64> {
    bytes.try_into().ok().map(u64::from_ne_bytes)
}

/// Writes one cell: the one value as it is (inside a choice of one when it is itself a list),
/// or the choice of several.
fn write_cell<'a>(out: &mut Vec<u8>, values: impl ExactSizeIterator<Item = &'a [u8]> + Clone) {
    if values.len() == 1
        && let Some(value) = values.clone().next()
        && value.first() != Some(&b'[')
    {
        out.extend_from_slice(value);
        return;
    }
    out.push(b'[');
    for (index, value) in values.enumerate() {
        if index > 0 {
            out.push(b',');
        }
        out.extend_from_slice(value);
    }
    out.push(b']');
}

/// Writes `value` as JSON text: a number, a boolean, `null` or a string that needs no escape
/// straight into `out` ([`Scalar`]), anything else through serde_json, which gives the same
/// text. An action's fields are mostly small numbers, and serde_json's writer costs a few
/// times more per value than the value's digits (it was the most of `compact`'s instructions
/// per hexdice action).
fn write_json<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), NotTagged> {
    let start = out.len();
    if value.serialize(Scalar(out)).is_ok() {
        return Ok(());
    }
    out.truncate(start);
    serde_json::to_writer(&mut *out, value).map_err(|_| NotTagged)
}

/// Writes a scalar as serde_json would; refuses (`NotTagged`) whatever it does not write
/// itself: floats, strings that need an escape, and every compound value.
struct Scalar<'o>(&'o mut Vec<u8>);

impl Scalar<'_> {
    fn unsigned(self, value: u64) -> Result<(), NotTagged> {
        json_text::unsigned(self.0, value);
        Ok(())
    }

    fn signed(self, value: i64) -> Result<(), NotTagged> {
        json_text::signed(self.0, value);
        Ok(())
    }

    fn text(self, text: &str) -> Result<(), NotTagged> {
        if json_text::plain_string(self.0, text) {
            Ok(())
        } else {
            Err(NotTagged)
        }
    }
}

/// Methods of a `Serializer` that refuse their shape: each `name(argument types) -> its Ok
/// type` (`()` when left out) returns `NotTagged`.
macro_rules! refuse {
    (@ok) => { () };
    (@ok $ok:ty) => { $ok };
    ($($name:ident($($arg:ty),*) $(-> $ok:ty)?;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<refuse!(@ok $($ok)?), NotTagged> {
            Err(NotTagged)
        })*
    };
}

/// Methods of [`Scalar`]'s `Serializer` that widen their integer to the 64 bits of its sign and
/// write it with `Scalar::signed` or `Scalar::unsigned`.
macro_rules! widen {
    ($($via:ident: $($name:ident($int:ty)),*;)*) => {
        $($(fn $name(self, value: $int) -> Result<(), NotTagged> {
            self.$via(value.into())
        })*)*
    };
}

/// The compound shapes neither serializer here writes (lists, maps, tuples, variants with data):
/// their associated types and their methods.
macro_rules! refuse_compound_shapes {
    () => {
        type SerializeSeq = Impossible<(), NotTagged>;
        type SerializeTuple = Impossible<(), NotTagged>;
        type SerializeTupleStruct = Impossible<(), NotTagged>;
        type SerializeTupleVariant = Impossible<(), NotTagged>;
        type SerializeMap = Impossible<(), NotTagged>;
        type SerializeStructVariant = Impossible<(), NotTagged>;

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), NotTagged> {
            Err(NotTagged)
        }
        refuse! {
            serialize_seq(Option<usize>) -> Self::SerializeSeq;
            serialize_tuple(usize) -> Self::SerializeTuple;
            serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
            serialize_map(Option<usize>) -> Self::SerializeMap;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
        }
    };
}

impl Serializer for Scalar<'_> {
    type Ok = ();
    type Error = NotTagged;
    type SerializeStruct = Impossible<(), NotTagged>;

    fn serialize_bool(self, value: bool) -> Result<(), NotTagged> {
        self.0
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }
    widen! {
        signed: serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64);
        unsigned: serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64);
    }
    fn serialize_str(self, value: &str) -> Result<(), NotTagged> {
        self.text(value)
    }
    fn serialize_none(self) -> Result<(), NotTagged> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit(self) -> Result<(), NotTagged> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NotTagged> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), NotTagged> {
        self.text(variant)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), NotTagged> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotTagged> {
        value.serialize(self)
    }

    refuse! {
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_bytes(&[u8]);
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
    }
    refuse_compound_shapes!();
}

/// Takes one action apart into the [`Table`]: its tag's JSON text, the names of its other
/// fields, and their values as JSON text, comma-separated, written straight by serde_json.
struct Capture<'t>(&'t mut Table);

/// The action is not a struct (or its tag is not a string): it is listed whole.
#[derive(Debug)]
struct NotTagged;

impl std::fmt::Display for NotTagged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not an object tagged by type")
    }
}

impl std::error::Error for NotTagged {}

impl serde::ser::Error for NotTagged {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotTagged
    }
}

impl SerializeStruct for Capture<'_> {
    type Ok = ();
    type Error = NotTagged;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotTagged> {
        let table = &mut *self.0;
        if key == TAG && !table.tagged {
            write_json(&mut table.tag, value)?;
            if table.tag.first() != Some(&b'"') {
                return Err(NotTagged);
            }
            table.tagged = true;
        } else {
            if !table.fields.is_empty() {
                table.values.push(b',');
            }
            table.fields.push(key);
            write_json(&mut table.values, value)?;
            table.ends.push(table.values.len());
        }
        Ok(())
    }

    fn end(self) -> Result<(), NotTagged> {
        Ok(())
    }
}

/// Every shape but a struct is refused.
impl<'t> Serializer for Capture<'t> {
    type Ok = ();
    type Error = NotTagged;
    type SerializeStruct = Capture<'t>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Capture<'t>, NotTagged> {
        Ok(self)
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

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), NotTagged> {
        Err(NotTagged)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotTagged> {
        Err(NotTagged)
    }

    refuse_compound_shapes!();
}

#[cfg(test)]
mod tests {
    #[test]
    fn values_written_without_serde_json_are_the_text_serde_json_writes() {
        #[derive(Serialize)]
        enum Side {
            North,
        }
        #[derive(Serialize)]
        struct Id(u8);
        fn same<T: Serialize>(value: T) {
            let mut out = b"x".to_vec();
            write_json(&mut out, &value).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("x{}", serde_json::to_string(&value).unwrap())
            );
        }
        for n in [0u64, 7, 9, 10, 99, 100, 255, 65_535, u64::MAX] {
            same(n);
        }
        for n in [0i64, -1, 9, -10, i64::MIN, i64::MAX] {
            same(n);
        }
        same(0u8);
        same(u8::MAX);
        same(-128i8);
        same(true);
        same(false);
        same(None::<u8>);
        same(Some(3u16));
        same(());
        same(Side::North);
        same(Id(4));
        for text in [
            "",
            "attack",
            "é ü",
            "a\"b",
            "back\\slash",
            "tab\t",
            "\u{1f}",
            "\u{7f}",
        ] {
            same(text);
        }
        same(1.5f64);
        same([1u8, 2]);
    }

    use serde_json::json;
    use warroom_engine::{BotRng, Ruleset, Seed, random_legal};

    use super::*;

    /// Plays random legal actions and checks at every step that the grouped list, read back,
    /// is the listed actions, grouped, each group in the listed order.
    fn round_trips<R: Ruleset>(seats: u8, seed: u64, steps: usize) {
        let (mut state, _) = R::new(&Default::default(), seats, Seed::from_u64(seed)).unwrap();
        let mut rng = BotRng::new(seed);
        let mut actions = Vec::new();
        let mut events = Vec::new();
        for _ in 0..steps {
            let Some(seat) = state.to_act() else { break };
            actions.clear();
            state.legal_actions(&mut actions);
            let written: Vec<Value> = actions
                .iter()
                .map(|a| serde_json::to_value(a).unwrap())
                .collect();
            // Grouped: by type and fields, in the order of each group's first action.
            let key = |action: &Value| {
                let object = action.as_object().unwrap();
                (
                    object["type"].clone(),
                    object.keys().cloned().collect::<Vec<_>>(),
                )
            };
            let mut keys: Vec<_> = written.iter().map(key).collect();
            keys.dedup();
            let mut first_seen = Vec::new();
            for k in keys {
                if !first_seen.contains(&k) {
                    first_seen.push(k);
                }
            }
            let in_groups: Vec<Value> = first_seen
                .iter()
                .flat_map(|k| written.iter().filter(|a| key(a) == *k).cloned())
                .collect();
            let grouped = compact(&actions);
            let groups: Vec<LegalGroup> = serde_json::from_str(grouped.get()).unwrap();
            assert_eq!(expand(&groups), in_groups, "{}", R::ID);
            assert_eq!(expand_value(&grouped.to_value()).unwrap(), in_groups);
            // Picking one by its index gives the action written out at that index.
            assert_eq!(count(&groups), in_groups.len(), "{}", R::ID);
            for (index, action) in in_groups.iter().enumerate() {
                assert_eq!(nth(&groups, index).as_ref(), Some(action), "{}", R::ID);
            }
            assert_eq!(nth(&groups, in_groups.len()), None);
            assert_eq!(groups.len(), first_seen.len());
            for action in expand(&groups) {
                let _: R::Action = serde_json::from_value(action).expect("parses as an action");
            }
            let action = random_legal(&state, &mut rng).unwrap();
            events.clear();
            state.apply(seat, &action, &mut events).unwrap();
        }
    }

    #[test]
    fn every_rulesets_legal_actions_read_back_from_their_groups_in_order() {
        round_trips::<warroom_engine::hexdice::Hexdice>(2, 1, 400);
        round_trips::<warroom_engine::capitals::Capitals>(3, 2, 300);
        round_trips::<warroom_engine::classic::Classic>(4, 3, 600);
    }

    #[test]
    fn pieces_of_text_compare_equal_only_when_every_byte_is() {
        let text: Vec<u8> = (0..40u8).map(|i| b'0' + i % 10).collect();
        for len in 0..=text.len() {
            let piece = &text[..len];
            // A copy elsewhere in memory, so that the bytes are compared, not the addresses.
            let copy = piece.to_vec();
            assert!(same_text(piece, &copy), "{len} bytes");
            for at in 0..len {
                let mut other = piece.to_vec();
                other[at] = b',';
                assert!(!same_text(piece, &other), "{len} bytes, at {at}");
            }
            if len > 0 {
                assert!(
                    !same_text(piece, &text[..len - 1]),
                    "{len} bytes and one fewer"
                );
            }
        }
    }

    /// Actions shaped as the rulesets' are: an enum tagged by `type`.
    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Sample {
        Attack {
            from: u8,
            to: u8,
            dice: u8,
        },
        EndTurn,
        Trade {
            cards: [u8; 3],
            #[serde(skip_serializing_if = "Option::is_none")]
            bonus: Option<u8>,
        },
    }

    #[test]
    fn actions_of_one_type_and_fields_share_one_group() {
        let actions = [
            Sample::Attack {
                from: 1,
                to: 2,
                dice: 1,
            },
            Sample::EndTurn,
            Sample::Attack {
                from: 1,
                to: 2,
                dice: 2,
            },
            Sample::Trade {
                cards: [1, 2, 3],
                bonus: None,
            },
            Sample::Trade {
                cards: [1, 2, 4],
                bonus: Some(5),
            },
        ];
        let grouped = compact(&actions);
        assert_eq!(
            grouped.get(),
            concat!(
                r#"[{"type":"attack","fields":["from","to","dice"],"rows":[[1,2,[1,2]]]},"#,
                r#"{"type":"end_turn","fields":[],"rows":[[]]},"#,
                r#"{"type":"trade","fields":["cards"],"rows":[[[[1,2,3]]]]},"#,
                r#"{"type":"trade","fields":["cards","bonus"],"rows":[[[[1,2,4]],5]]}]"#
            )
        );
        // Grouped by type, in the order of each group's first action.
        let written: Vec<Value> = [0, 2, 1, 3, 4]
            .map(|i| serde_json::to_value(&actions[i]).unwrap())
            .into();
        assert_eq!(expand_value(&grouped.to_value()).unwrap(), written);
    }

    #[test]
    fn the_nth_action_of_rows_with_several_choices_is_the_nth_written_out() {
        let groups: Vec<LegalGroup> = serde_json::from_value(json!([
            {"type": "attack", "fields": ["from", "to", "dice"],
             "rows": [[3, [4, 9], [1, 2, 3]], [5, 4, 1], [[6, 7], 8, [1, 2]]]},
            {"type": "trade", "fields": ["cards"], "rows": [[[[1, 2, 3], [1, 2, 4]]]]},
            {"type": "end_turn", "fields": [], "rows": [[]]},
            {"type": "pass", "fields": ["to"], "rows": [[[]]]}
        ]))
        .unwrap();
        let written = expand(&groups);
        assert_eq!(written.len(), 6 + 1 + 4 + 2 + 1);
        assert_eq!(
            written[1],
            json!({"type": "attack", "from": 3, "to": 4, "dice": 2})
        );
        assert_eq!(
            written[3],
            json!({"type": "attack", "from": 3, "to": 9, "dice": 1})
        );
        assert_eq!(
            written[9],
            json!({"type": "attack", "from": 7, "to": 8, "dice": 1})
        );
        assert_eq!(count(&groups), written.len());
        let picked: Vec<Value> = (0..count(&groups))
            .map(|index| nth(&groups, index).unwrap())
            .collect();
        assert_eq!(picked, written);
        assert_eq!(nth(&groups, written.len()), None);
        assert!(groups[3].is_empty(), "an empty choice stands for no action");
    }

    #[test]
    fn actions_that_are_not_tagged_objects_are_listed_whole() {
        let grouped = compact(&[json!(7), json!({"type": 3})]);
        assert_eq!(
            grouped.to_value(),
            json!([{"type": null, "fields": ["action"], "rows": [[[7, {"type": 3}]]]}])
        );
        assert_eq!(
            expand_value(&grouped.to_value()).unwrap(),
            vec![json!(7), json!({"type": 3})]
        );
        assert_eq!(expand_value(&json!({"not": "groups"})), None);
    }
}
