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

use serde::ser::{Impossible, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
                .map(|values| match &self.kind {
                    None => values.into_iter().next().unwrap_or(Value::Null),
                    Some(kind) => {
                        let mut action = Map::new();
                        action.insert(TAG.to_owned(), Value::String(kind.clone()));
                        for (field, value) in self.fields.iter().zip(values) {
                            action.insert(field.clone(), value);
                        }
                        Value::Object(action)
                    }
                })
        })
    }
}

/// Every combination of a row's cells' values (a cell that is a list is a choice among its
/// values), the first cell varying slowest.
fn combinations(row: &[Value]) -> Vec<Vec<Value>> {
    let mut out = vec![Vec::with_capacity(row.len())];
    for cell in row {
        let choices = match cell {
            Value::Array(values) => values.as_slice(),
            value => std::slice::from_ref(value),
        };
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

/// Writes `actions` grouped (the server's side): each action's fields are captured as JSON text
/// straight from its typed form, so no `Value` is built, and rows are merged where they can be.
pub fn compact<A: Serialize>(actions: &[A]) -> RawJson {
    let mut groups: Vec<Group> = Vec::new();
    for action in actions {
        let captured = action
            .serialize(Capture::default())
            .ok()
            .filter(|captured| captured.kind.is_some());
        let (kind, fields, row) = match captured {
            Some(captured) => (
                captured.kind,
                captured.fields,
                Row {
                    values: captured.values,
                    ends: captured.ends,
                },
            ),
            None => {
                let values = json_text(action).into_bytes();
                let ends = vec![values.len()];
                (None, vec!["action"], Row { values, ends })
            }
        };
        match groups
            .iter_mut()
            .find(|group| group.kind == kind && group.fields == fields)
        {
            Some(group) => group.rows.push(row),
            None => groups.push(Group {
                kind,
                fields,
                rows: vec![row],
            }),
        }
    }
    let mut out = Vec::with_capacity(64 + groups.iter().map(Group::size).sum::<usize>());
    out.push(b'[');
    for (index, group) in groups.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        group.write(&mut out);
    }
    out.push(b']');
    // Only serde_json wrote into it: always UTF-8 and JSON; checked once, at the end.
    String::from_utf8(out)
        .ok()
        .and_then(|text| RawJson::from_text(text).ok())
        .unwrap_or_else(RawJson::null)
}

/// A group being built.
struct Group {
    kind: Option<String>,
    fields: Vec<&'static str>,
    rows: Vec<Row>,
}

/// One action's field values as JSON text, comma-separated.
struct Row {
    values: Vec<u8>,
    /// Where each field's value ends in `values`.
    ends: Vec<usize>,
}

impl Row {
    /// The text of field `index`'s value.
    fn field(&self, index: usize) -> &[u8] {
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] + 1,
        };
        &self.values[start..self.ends[index]]
    }

    /// The text of the values of the fields before `index`.
    fn before(&self, index: usize) -> &[u8] {
        match index {
            0 => &[],
            _ => &self.values[..self.ends[index - 1]],
        }
    }
}

/// Rows merged from field `field` on: the row the values of the fields before `field` come
/// from, and the cells of `field` and those after it, written.
struct Merged<'a> {
    first: &'a Row,
    cells: Vec<u8>,
}

impl Group {
    /// About the length of its JSON.
    fn size(&self) -> usize {
        32 + self
            .rows
            .iter()
            .map(|row| row.values.len() + 3)
            .sum::<usize>()
    }

    /// The rows, merged: from the last field to the first, neighbouring rows that differ only
    /// in that field become one row with the choice of their values. Merging a field while
    /// every field before it holds one value keeps the written out order.
    fn merged(&self) -> Vec<Vec<u8>> {
        let mut merged: Vec<Merged> = self
            .rows
            .iter()
            .map(|row| Merged {
                first: row,
                cells: Vec::new(),
            })
            .collect();
        for field in (0..self.fields.len()).rev() {
            let mut next: Vec<Merged> = Vec::with_capacity(merged.len());
            let mut start = 0;
            while start < merged.len() {
                let head = &merged[start];
                let end = start
                    + merged[start..]
                        .iter()
                        .take_while(|other| {
                            other.cells == head.cells
                                && other.first.before(field) == head.first.before(field)
                        })
                        .count();
                let mut cells = Vec::with_capacity(16 + head.cells.len());
                write_cell(
                    &mut cells,
                    merged[start..end].iter().map(|m| m.first.field(field)),
                );
                if !head.cells.is_empty() {
                    cells.push(b',');
                    cells.extend_from_slice(&head.cells);
                }
                next.push(Merged {
                    first: head.first,
                    cells,
                });
                start = end;
            }
            merged = next;
        }
        merged.into_iter().map(|m| m.cells).collect()
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(br#"{"type":"#);
        match &self.kind {
            Some(kind) => out.extend_from_slice(json_text(kind).as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","fields":["#);
        for (index, field) in self.fields.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.extend_from_slice(json_text(field).as_bytes());
        }
        out.extend_from_slice(br#"],"rows":["#);
        for (index, row) in self.merged().iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.push(b'[');
            out.extend_from_slice(row);
            out.push(b']');
        }
        out.extend_from_slice(b"]}");
    }
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

/// JSON text of plain data (it cannot fail; `null` if it ever did).
fn json_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// One action taken apart: its tag, the names of its other fields, and their values as JSON
/// text, comma-separated (one buffer, written straight by serde_json), with where each ends.
#[derive(Default)]
struct Capture {
    kind: Option<String>,
    fields: Vec<&'static str>,
    values: Vec<u8>,
    ends: Vec<usize>,
}

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

impl SerializeStruct for Capture {
    type Ok = Capture;
    type Error = NotTagged;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotTagged> {
        if key == TAG && self.kind.is_none() {
            match serde_json::to_value(value) {
                Ok(Value::String(kind)) => self.kind = Some(kind),
                _ => return Err(NotTagged),
            }
        } else {
            if !self.fields.is_empty() {
                self.values.push(b',');
            }
            self.fields.push(key);
            serde_json::to_writer(&mut self.values, value).map_err(|_| NotTagged)?;
            self.ends.push(self.values.len());
        }
        Ok(())
    }

    fn end(self) -> Result<Capture, NotTagged> {
        Ok(self)
    }
}

/// Every shape but a struct is refused.
macro_rules! refuse {
    ($($name:ident($($arg:ty),*);)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<Capture, NotTagged> { Err(NotTagged) })*
    };
}

impl Serializer for Capture {
    type Ok = Capture;
    type Error = NotTagged;
    type SerializeSeq = Impossible<Capture, NotTagged>;
    type SerializeTuple = Impossible<Capture, NotTagged>;
    type SerializeTupleStruct = Impossible<Capture, NotTagged>;
    type SerializeTupleVariant = Impossible<Capture, NotTagged>;
    type SerializeMap = Impossible<Capture, NotTagged>;
    type SerializeStruct = Capture;
    type SerializeStructVariant = Impossible<Capture, NotTagged>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Capture, NotTagged> {
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

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Capture, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Capture, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Capture, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotTagged> {
        Err(NotTagged)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotTagged> {
        Err(NotTagged)
    }
}

#[cfg(test)]
mod tests {
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
