//! View patches: what changed in one viewer class's view from one `seq` to the next, as a live
//! `applied` carries it instead of the whole view (docs/PROTOCOL.md "View patches").
//!
//! A patch is a JSON array of operations, applied in order:
//!
//! - `[path, value]` sets the value at `path` (an object member is added if it is missing; an
//!   array index equal to the array's length appends);
//! - `[path]` removes the object member at `path`.
//!
//! `path` is an array of object keys (strings) and array indices (numbers); `[]` is the view
//! itself. So `[[["cells", 7, "owner"], 1], [["cells", 7, "units"], 3]]` says that cell 7 changed
//! hands. The views are mostly long arrays of small objects (cells, territories) of which an
//! action changes a few, so an RFC 7386 merge patch (which replaces arrays whole) would be about
//! as large as the view, and RFC 6902's `{"op": "replace", "path": "/cells/7/owner", "value": 1}`
//! spends most of its bytes on names.
//!
//! [`diff`] works on the two views' JSON text, as the server wrote them once per viewer class: it
//! walks both texts side by side and builds no tree; in each container it reads the items both
//! texts start with from one text only and stops once what is left of both is the same, so
//! mostly the changed part of a view is read twice, and a patch costs a few microseconds. Where
//! the operations for a container would take more bytes than the container itself (or an array
//! got shorter), the container is set whole. [`apply`] is for clients and tests.

use serde_json::Value;

/// One step of a path while diffing: an object key (its JSON text, quotes included, as written)
/// or an array index.
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The operations that turn the JSON text `old` into `new`, as the text of a patch array (`[]`
/// when they are equal). Both must be JSON (as `RawJson` holds it); text that is not is set
/// whole.
pub fn diff(old: &str, new: &str) -> String {
    let mut out = String::with_capacity(64);
    out.push('[');
    let mut path = Vec::with_capacity(8);
    diff_value(old.trim(), new.trim(), &mut path, &mut out);
    out.push(']');
    out
}

fn diff_value<'a>(old: &'a str, new: &'a str, path: &mut Vec<Step<'a>>, out: &mut String) {
    if old == new {
        return;
    }
    let mark = out.len();
    let done = match (old.as_bytes().first(), new.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => diff_object(old, new, path, out),
        (Some(b'['), Some(b'[')) => diff_array(old, new, path, out),
        _ => false,
    };
    // The operations must not outweigh the value itself.
    if !done || out.len() - mark > new.len() + 8 {
        out.truncate(mark);
        set(path, new, out);
    }
}

/// False when the members could not be read (then the object is set whole).
fn diff_object<'a>(old: &'a str, new: &'a str, path: &mut Vec<Step<'a>>, out: &mut String) -> bool {
    let (Some(mut olds), Some(mut news)) = (Members::of(old), Members::of(new)) else {
        return false;
    };
    skip_shared_start(&mut olds.0, &mut news.0, old, new, member);
    let shared_end = common_suffix(old.as_bytes(), new.as_bytes());
    // The members of a struct come in the same order each time: walk them side by side.
    loop {
        if rest_is_shared(&olds.0, &news.0, shared_end) {
            return true;
        }
        let (mut next_old, mut next_new) = (olds.clone(), news.clone());
        match (next_old.next(), next_new.next()) {
            (Some(Some((old_key, before))), Some(Some((key, value)))) if old_key == key => {
                path.push(Step::Key(key));
                diff_value(before, value, path, out);
                path.pop();
                (olds, news) = (next_old, next_new);
            }
            (None, None) => return true,
            _ => break,
        }
    }
    // The keys differ from here on (an optional field came or went): match them by name.
    let Some(rest_old) = olds.collect::<Option<Vec<(&str, &str)>>>() else {
        return false;
    };
    let Some(rest_new) = news.collect::<Option<Vec<(&str, &str)>>>() else {
        return false;
    };
    for &(key, value) in &rest_new {
        path.push(Step::Key(key));
        match rest_old.iter().find(|(k, _)| *k == key) {
            Some(&(_, before)) => diff_value(before, value, path, out),
            None => set(path, value, out),
        }
        path.pop();
    }
    for &(key, _) in &rest_old {
        if !rest_new.iter().any(|(k, _)| *k == key) {
            path.push(Step::Key(key));
            remove(path, out);
            path.pop();
        }
    }
    true
}

/// False when the entries could not be read or the array got shorter (then it is set whole).
fn diff_array<'a>(old: &'a str, new: &'a str, path: &mut Vec<Step<'a>>, out: &mut String) -> bool {
    let (Some(mut olds), Some(mut news)) = (Entries::of(old), Entries::of(new)) else {
        return false;
    };
    let mut index = skip_shared_start(&mut olds.0, &mut news.0, old, new, Cursor::value);
    let shared_end = common_suffix(old.as_bytes(), new.as_bytes());
    loop {
        if rest_is_shared(&olds.0, &news.0, shared_end) {
            return true;
        }
        let Some(entry) = news.next() else { break };
        let Some(entry) = entry else { return false };
        path.push(Step::Index(index));
        match olds.next() {
            Some(Some(before)) => diff_value(before, entry, path, out),
            Some(None) => return false,
            // Appended.
            None => set(path, entry, out),
        }
        path.pop();
        index += 1;
    }
    olds.next().is_none()
}

/// Skips the items both texts start with, reading them (with `read`) from `old` only: both
/// cursors end after the last item that ends, with the separator after it, before the first
/// byte where the texts differ. Returns how many were skipped.
fn skip_shared_start<'a, T>(
    olds: &mut Items<'a>,
    news: &mut Items<'a>,
    old: &str,
    new: &str,
    read: fn(&mut Cursor<'a>) -> Option<T>,
) -> usize {
    let shared = common_prefix(old.as_bytes(), new.as_bytes());
    let mut skipped = 0;
    loop {
        let mut probe = olds.clone();
        match probe.next_with(read) {
            Some(Some(_)) if probe.cursor.at < shared => {
                *olds = probe;
                skipped += 1;
            }
            _ => break,
        }
    }
    news.follow(olds);
    skipped
}

/// True when what is left of both texts is the same (so are the items left): as long, and
/// within their shared end.
fn rest_is_shared(olds: &Items<'_>, news: &Items<'_>, shared_end: usize) -> bool {
    olds.rest_len() == news.rest_len() && olds.rest_len() <= shared_end
}

/// How many bytes two texts share at their start.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let length = a.len().min(b.len());
    let mut at = 0;
    while at + 8 <= length && a[at..at + 8] == b[at..at + 8] {
        at += 8;
    }
    while at < length && a[at] == b[at] {
        at += 1;
    }
    at
}

/// How many bytes two texts share at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let length = a.len().min(b.len());
    let mut shared = 0;
    while shared + 8 <= length
        && a[a.len() - shared - 8..a.len() - shared] == b[b.len() - shared - 8..b.len() - shared]
    {
        shared += 8;
    }
    while shared < length && a[a.len() - shared - 1] == b[b.len() - shared - 1] {
        shared += 1;
    }
    shared
}

fn write_path(path: &[Step<'_>], out: &mut String) {
    use std::fmt::Write;
    if out.len() > 1 {
        out.push(',');
    }
    out.push_str("[[");
    for (index, step) in path.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        match step {
            Step::Key(key) => out.push_str(key),
            Step::Index(index) => {
                let _ = write!(out, "{index}");
            }
        }
    }
    out.push(']');
}

fn set(path: &[Step<'_>], value: &str, out: &mut String) {
    write_path(path, out);
    out.push(',');
    out.push_str(value);
    out.push(']');
}

fn remove(path: &[Step<'_>], out: &mut String) {
    write_path(path, out);
    out.push(']');
}

/// A cursor over JSON text.
#[derive(Clone)]
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() && bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Skips one value (its text is not checked beyond what finding its end needs); its text.
    /// A string ends at its closing quote, an object or an array at the bracket that closes
    /// it (strings inside skipped whole), anything else before the next `,`, `:`, closing
    /// bracket or space.
    fn value(&mut self) -> Option<&'a str> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let start = self.at;
        match *bytes.get(start)? {
            b'"' => self.string()?,
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match *bytes.get(self.at)? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.at += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => {
                while let Some(&byte) = bytes.get(self.at) {
                    if matches!(byte, b',' | b':' | b'}' | b']') || byte.is_ascii_whitespace() {
                        break;
                    }
                    self.at += 1;
                }
            }
        }
        (self.at > start).then(|| &self.text[start..self.at])
    }

    /// Skips a string starting at the cursor.
    fn string(&mut self) -> Option<()> {
        let bytes = self.text.as_bytes();
        self.at += 1;
        while self.at < bytes.len() {
            match bytes[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                _ => self.at += 1,
            }
        }
        None
    }
}

/// The comma-separated items of an object's or an array's text, from its opening to its
/// closing bracket.
#[derive(Clone)]
struct Items<'a> {
    cursor: Cursor<'a>,
    close: u8,
    first: bool,
    done: bool,
}

impl<'a> Items<'a> {
    fn of(text: &'a str, open: u8, close: u8) -> Option<Items<'a>> {
        let mut cursor = Cursor { text, at: 0 };
        cursor.eat(open).then_some(Items {
            cursor,
            close,
            first: true,
            done: false,
        })
    }

    /// The bytes of the text after the cursor.
    fn rest_len(&self) -> usize {
        self.cursor.text.len() - self.cursor.at
    }

    /// Moves to where `other`, over a text with the same start, is.
    fn follow(&mut self, other: &Items<'_>) {
        self.cursor.at = other.cursor.at;
        self.first = other.first;
        self.done = other.done;
    }

    /// Reads the next item with `read` (at its start): `None` after the last, `Some(None)`
    /// where the text is malformed (nothing is read after it).
    fn next_with<T>(
        &mut self,
        read: impl FnOnce(&mut Cursor<'a>) -> Option<T>,
    ) -> Option<Option<T>> {
        if self.done {
            return None;
        }
        if self.cursor.eat(self.close) {
            self.done = true;
            return None;
        }
        if !self.first && !self.cursor.eat(b',') {
            self.done = true;
            return Some(None);
        }
        self.first = false;
        let item = read(&mut self.cursor);
        if item.is_none() {
            self.done = true;
        }
        Some(item)
    }
}

/// The members of an object's text, as (key text with its quotes, value text); an item is
/// `None` where the text is not an object.
#[derive(Clone)]
struct Members<'a>(Items<'a>);

impl<'a> Members<'a> {
    fn of(text: &'a str) -> Option<Members<'a>> {
        Items::of(text, b'{', b'}').map(Members)
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = Option<(&'a str, &'a str)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_with(member)
    }
}

/// Reads one member at the cursor: (key text with its quotes, value text).
fn member<'a>(cursor: &mut Cursor<'a>) -> Option<(&'a str, &'a str)> {
    if cursor.peek() != Some(b'"') {
        return None;
    }
    let key = cursor.value()?;
    if !cursor.eat(b':') {
        return None;
    }
    let value = cursor.value()?;
    Some((key, value))
}

/// The entries of an array's text; an item is `None` where the text is not an array.
#[derive(Clone)]
struct Entries<'a>(Items<'a>);

impl<'a> Entries<'a> {
    fn of(text: &'a str) -> Option<Entries<'a>> {
        Items::of(text, b'[', b']').map(Entries)
    }
}

impl<'a> Iterator for Entries<'a> {
    type Item = Option<&'a str>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_with(Cursor::value)
    }
}

/// Why a patch could not be applied: the view is not the one it was made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchError(pub String);

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the patch does not fit the view: {}", self.0)
    }
}

impl std::error::Error for PatchError {}

/// Applies `patch` (an array of operations, see the module) to `view`. On an error `view` may
/// be partly patched: the caller must drop it and ask for a whole view.
pub fn apply(view: &mut Value, patch: &Value) -> Result<(), PatchError> {
    let fail = |what: &str, op: &Value| Err(PatchError(format!("{what}: {op}")));
    let Some(ops) = patch.as_array() else {
        return fail("not an array", patch);
    };
    for op in ops {
        let Some((path, value)) = op.as_array().and_then(|op| match op.as_slice() {
            [Value::Array(path)] => Some((path, None)),
            [Value::Array(path), value] => Some((path, Some(value))),
            _ => None,
        }) else {
            return fail("not an operation", op);
        };
        let Some((last, parents)) = path.split_last() else {
            match value {
                Some(value) => *view = value.clone(),
                None => return fail("cannot remove the view", op),
            }
            continue;
        };
        let mut target = &mut *view;
        for step in parents {
            target = match (target, step) {
                (Value::Object(map), Value::String(key)) => match map.get_mut(key) {
                    Some(next) => next,
                    None => return fail("no such member", op),
                },
                (Value::Array(list), Value::Number(index)) => {
                    match index
                        .as_u64()
                        .and_then(|i| list.get_mut(usize::try_from(i).ok()?))
                    {
                        Some(next) => next,
                        None => return fail("no such entry", op),
                    }
                }
                _ => return fail("the path does not fit", op),
            };
        }
        match (target, last, value) {
            (Value::Object(map), Value::String(key), Some(value)) => {
                map.insert(key.clone(), value.clone());
            }
            (Value::Object(map), Value::String(key), None) => {
                if map.remove(key).is_none() {
                    return fail("no such member", op);
                }
            }
            (Value::Array(list), Value::Number(index), Some(value)) => {
                let index = index.as_u64().and_then(|i| usize::try_from(i).ok());
                match index {
                    Some(i) if i < list.len() => list[i] = value.clone(),
                    Some(i) if i == list.len() => list.push(value.clone()),
                    _ => return fail("no such entry", op),
                }
            }
            _ => return fail("the path does not fit", op),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(old: &Value, new: &Value) -> String {
        let patch = diff(&old.to_string(), &new.to_string());
        let parsed: Value = serde_json::from_str(&patch).expect("a patch is JSON");
        let mut patched = old.clone();
        apply(&mut patched, &parsed).expect("the patch fits the view it was made from");
        assert_eq!(&patched, new, "patch {patch}");
        patch
    }

    #[test]
    fn a_changed_cell_is_one_set_by_path() {
        let cells: Vec<Value> = (0..30)
            .map(|i| json!({"owner": i % 2, "units": 1}))
            .collect();
        let old = json!({"cells": cells, "turn": 3, "to_act": 0});
        let mut new = old.clone();
        new["cells"][7]["units"] = json!(4);
        new["turn"] = json!(4);
        let patch = check(&old, &new);
        assert_eq!(patch, r#"[[["cells",7,"units"],4],[["turn"],4]]"#);
        // Both fields of a small entry: the entry whole is shorter than two paths.
        new["cells"][7]["owner"] = json!(0);
        let patch = check(&old, &new);
        assert_eq!(
            patch,
            r#"[[["cells",7],{"owner":0,"units":4}],[["turn"],4]]"#
        );
        assert_eq!(check(&old, &old), "[]");
    }

    #[test]
    fn members_that_come_or_go_are_set_or_removed_and_arrays_that_shrink_are_set_whole() {
        let old = json!({"a": 1, "pending": {"x": [1, 2]}, "hand": [1, 2, 3], "z": "é\"\\"});
        let new = json!({"a": 1, "hand": [1, 2], "z": "é\"\\", "added": null});
        let patch = check(&old, &new);
        assert!(patch.contains(r#"[["pending"]]"#), "{patch}");
        assert!(patch.contains(r#"[["hand"],[1,2]]"#), "{patch}");
        // Appended entries, nested arrays, type changes, the root itself.
        check(&json!([1, [2, 3]]), &json!([1, [2, 3, 4], {"a": []}]));
        check(&json!({"a": [1]}), &json!({"a": {"b": 1}}));
        check(&json!(1), &json!({"a": 1}));
        check(&json!({"a": "x"}), &json!([]));
        // Spaced text is read too.
        let spaced = diff(
            "{ \"a\" : [ 1 , 2 ] , \"b\" : true }",
            "{\"a\":[1,3],\"b\":true}",
        );
        assert_eq!(spaced, r#"[[["a",1],3]]"#);
    }

    #[test]
    fn items_the_texts_share_at_their_start_or_end_are_skipped_but_not_a_longer_number() {
        // The shared start ends inside the number: 12 became 123.
        assert_eq!(check(&json!([12, 3]), &json!([123, 3])), "[[[0],123]]");
        assert_eq!(
            check(
                &json!({"a": 1, "b": 12, "c": [5]}),
                &json!({"a": 1, "b": 123, "c": [5]})
            ),
            r#"[[["b"],123]]"#
        );
        assert_eq!(
            check(&json!(["x", "xy"]), &json!(["x", "xyz"])),
            r#"[[[1],"xyz"]]"#
        );
        // Only the middle differs: the entries around it are skipped, their indices kept.
        let old = json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        let new = json!([1, 2, 3, 4, 50, 6, 7, 8, 9, 10]);
        assert_eq!(check(&old, &new), "[[[4],50]]");
        // The end is shared but the lengths differ: an appended entry is still set.
        assert_eq!(check(&json!([1, 2]), &json!([1, 2, 2])), "[[[2],2]]");
    }

    #[test]
    fn a_patch_is_never_much_larger_than_the_value_it_sets() {
        let old = json!({"list": [1, 2, 3, 4, 5, 6, 7, 8]});
        let new = json!({"list": [8, 7, 6, 5, 4, 3, 2, 1]});
        let patch = check(&old, &new);
        assert_eq!(patch, r#"[[["list"],[8,7,6,5,4,3,2,1]]]"#);
    }

    #[test]
    fn a_patch_that_does_not_fit_is_refused() {
        let mut view = json!({"cells": [{"owner": 0}]});
        assert!(apply(&mut view, &json!([[["cells", 3, "owner"], 1]])).is_err());
        assert!(apply(&mut view, &json!([[["nothing"]]])).is_err());
        assert!(apply(&mut view, &json!({"not": "a patch"})).is_err());
        assert!(apply(&mut view, &json!([[["cells", 0, "owner"], 1]])).is_ok());
        assert_eq!(view, json!({"cells": [{"owner": 1}]}));
    }

    #[test]
    fn random_values_patch_exactly() {
        // A small deterministic generator: values that share structure and differ in places.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        fn build(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Value {
            match if depth == 0 { next(4) } else { next(7) } {
                0 => json!(null),
                // Numbers and strings that may share their first characters (12 and 123).
                1 => json!(next(5) * next(40)),
                2 => json!(format!("s{}\"\\", next(30))),
                3 => json!(next(2) == 0),
                4 | 5 => Value::Array((0..next(5)).map(|_| build(next, depth - 1)).collect()),
                _ => Value::Object(
                    (0..next(5))
                        .map(|i| (format!("k{}", i + next(2)), build(next, depth - 1)))
                        .collect(),
                ),
            }
        }
        fn mutate(next: &mut dyn FnMut(u64) -> u64, value: &mut Value) {
            match value {
                Value::Array(list) if !list.is_empty() && next(4) > 0 => {
                    let i = usize::try_from(next(list.len() as u64)).unwrap();
                    mutate(next, &mut list[i]);
                }
                Value::Object(map) if !map.is_empty() && next(4) > 0 => {
                    let key = map
                        .keys()
                        .nth(next(map.len() as u64) as usize)
                        .unwrap()
                        .clone();
                    if next(5) == 0 {
                        map.remove(&key);
                    } else {
                        mutate(next, map.get_mut(&key).unwrap());
                    }
                }
                other => *other = build(next, 2),
            }
        }
        for _ in 0..2000 {
            let old = build(&mut next, 4);
            let mut new = old.clone();
            for _ in 0..next(4) {
                mutate(&mut next, &mut new);
            }
            check(&old, &new);
        }
    }
}
