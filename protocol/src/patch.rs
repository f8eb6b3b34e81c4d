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
//! walks both texts side by side, once, and builds no tree. A changed container is diffed as it
//! is read (finding where it ends costs no scan of its own); a run of items both texts share is
//! jumped over by comparing the texts and then reading the old one only, to find the last
//! separator in the shared part; and the walk stops where what is left of both texts is the
//! same. So a view is read about once, and a patch costs a microsecond or two. Where the
//! operations for a container would take more bytes than the container itself (or an array
//! got shorter), the container is set whole. [`apply`] is for clients and tests.

use serde_json::Value;

pub mod typed;

/// One step of a path while diffing: an object key (its JSON text, quotes included, as written),
/// a struct field's name (a plain identifier, written in quotes) or an array index.
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Key(&'a str),
    Name(&'static str),
    Index(usize),
}

/// The operations that turn the JSON text `old` into `new`, as the text of a patch array (`[]`
/// when they are equal). Both must be JSON (as `RawJson` holds it); text that is not is set
/// whole.
pub fn diff(old: &str, new: &str) -> String {
    let (old, new) = (old.trim(), new.trim());
    let mut out = String::with_capacity(64);
    out.push('[');
    if old != new {
        let mut walk = Walk {
            old: Cursor { text: old, at: 0 },
            new: Cursor { text: new, at: 0 },
            shared_end: common_suffix(old.as_bytes(), new.as_bytes()),
            path: Vec::with_capacity(8),
            out,
        };
        if walk.value().is_err() {
            walk.out.truncate(1);
            set(&[], new, &mut walk.out);
        }
        out = walk.out;
    }
    out.push(']');
    out
}

/// How a diff goes on after a value.
#[derive(Clone, Copy)]
enum Flow {
    /// Both cursors are past the value.
    Go,
    /// What is left of both texts is the same from the cursors on: nothing else changed, and
    /// every enclosing container is done too.
    RestShared,
}

/// The texts are not JSON where the walk got to.
struct Malformed;

/// Both texts walked side by side, once: a container is diffed as it is read, so finding where
/// a changed value ends costs no scan of its own, and the runs of items both texts share are
/// jumped over (`skip_shared`), read in the old text only.
struct Walk<'a> {
    old: Cursor<'a>,
    new: Cursor<'a>,
    /// How many bytes the whole texts share at their end.
    shared_end: usize,
    path: Vec<Step<'a>>,
    out: String,
}

impl<'a> Walk<'a> {
    /// Diffs the values at the cursors, moving both past them (unless the rest is shared).
    fn value(&mut self) -> Result<Flow, Malformed> {
        let opened = (self.old.peek(), self.new.peek());
        let (old_start, new_start) = (self.old.at, self.new.at);
        let mark = self.out.len();
        let walked = match opened {
            (Some(b'{'), Some(b'{')) => self.object()?,
            (Some(b'['), Some(b'[')) => self.array()?,
            _ => {
                let before = self.old.value().ok_or(Malformed)?;
                let after = self.new.value().ok_or(Malformed)?;
                if before != after {
                    set(&self.path, after, &mut self.out);
                }
                return Ok(Flow::Go);
            }
        };
        let written = self.out.len() - mark;
        // The operations must not outweigh the value itself.
        let flow = match walked {
            Some(flow @ Flow::Go) if written <= self.new.at - new_start + 8 => return Ok(flow),
            Some(flow @ Flow::RestShared) if written <= self.new.at - new_start + 8 => {
                return Ok(flow);
            }
            Some(flow) => flow,
            None => Flow::Go,
        };
        // Set whole: read both values to their ends from their starts.
        let mut whole = Cursor {
            text: self.new.text,
            at: new_start,
        };
        let value = whole.value().ok_or(Malformed)?;
        if written <= value.len() + 8 && walked.is_some() {
            return Ok(flow);
        }
        self.out.truncate(mark);
        set(&self.path, value, &mut self.out);
        if let Flow::Go = flow {
            self.new.at = whole.at;
            self.old.at = old_start;
            self.old.value().ok_or(Malformed)?;
        }
        Ok(flow)
    }

    /// An object at both cursors: `None` when it is to be set whole.
    fn object(&mut self) -> Result<Option<Flow>, Malformed> {
        self.old.at += 1;
        self.new.at += 1;
        let mut first = true;
        // The members of a struct come in the same order each time: walk them side by side.
        loop {
            if self.skip_to_change(&mut first).is_none() {
                return Ok(Some(Flow::RestShared));
            }
            let (old_closed, new_closed) = self.closing(b'}');
            if old_closed && new_closed {
                return Ok(Some(Flow::Go));
            }
            if old_closed || new_closed {
                break;
            }
            let at = (self.old.at, self.new.at);
            let separated = first || (self.old.eat(b',') && self.new.eat(b','));
            if !separated {
                return Err(Malformed);
            }
            let (old_key, key) = (self.old.key()?, self.new.key()?);
            if old_key != key {
                (self.old.at, self.new.at) = at;
                break;
            }
            first = false;
            self.path.push(Step::Key(key));
            let flow = self.value()?;
            self.path.pop();
            if let Flow::RestShared = flow {
                return Ok(Some(flow));
            }
        }
        // The keys differ from here on (an optional field came or went): match them by name.
        let rest_old = self.old.members(first)?;
        let rest_new = self.new.members(first)?;
        for &(key, value) in &rest_new {
            self.path.push(Step::Key(key));
            match rest_old.iter().find(|(k, _)| *k == key) {
                Some(&(_, before)) => {
                    let mut pair = Walk {
                        old: Cursor {
                            text: before,
                            at: 0,
                        },
                        new: Cursor { text: value, at: 0 },
                        shared_end: 0,
                        path: std::mem::take(&mut self.path),
                        out: std::mem::take(&mut self.out),
                    };
                    let walked = pair.value();
                    (self.path, self.out) = (pair.path, pair.out);
                    walked?;
                }
                None => set(&self.path, value, &mut self.out),
            }
            self.path.pop();
        }
        for &(key, _) in &rest_old {
            if !rest_new.iter().any(|(k, _)| *k == key) {
                self.path.push(Step::Key(key));
                remove(&self.path, &mut self.out);
                self.path.pop();
            }
        }
        Ok(Some(Flow::Go))
    }

    /// An array at both cursors: `None` when it is to be set whole (it got shorter).
    fn array(&mut self) -> Result<Option<Flow>, Malformed> {
        self.old.at += 1;
        self.new.at += 1;
        let mut first = true;
        let mut index = 0;
        loop {
            match self.skip_to_change(&mut first) {
                Some(skipped) => index += skipped,
                None => return Ok(Some(Flow::RestShared)),
            }
            let (old_closed, new_closed) = self.closing(b']');
            if old_closed && new_closed {
                return Ok(Some(Flow::Go));
            }
            if new_closed {
                return Ok(None);
            }
            if !first && !self.new.eat(b',') {
                return Err(Malformed);
            }
            self.path.push(Step::Index(index));
            if old_closed {
                // Appended.
                let entry = self.new.value().ok_or(Malformed)?;
                set(&self.path, entry, &mut self.out);
            } else {
                if !first && !self.old.eat(b',') {
                    return Err(Malformed);
                }
                let flow = self.value()?;
                if let Flow::RestShared = flow {
                    self.path.pop();
                    return Ok(Some(flow));
                }
            }
            self.path.pop();
            first = false;
            index += 1;
        }
    }

    /// Whether each cursor stands at `end` (the container's closing byte); when both do, both
    /// step past it.
    fn closing(&mut self, end: u8) -> (bool, bool) {
        let closed = (self.old.peek() == Some(end), self.new.peek() == Some(end));
        if closed == (true, true) {
            self.old.at += 1;
            self.new.at += 1;
        }
        closed
    }

    /// True when what is left of both texts is the same: as long, and within their shared end.
    fn rest_shared(&self) -> bool {
        let rest = self.old.text.len() - self.old.at;
        rest == self.new.text.len() - self.new.at && rest <= self.shared_end
    }

    /// Before the next item of a container: `None` when all that is left of both texts is the
    /// same (before or after skipping the shared items), else how many items were skipped.
    fn skip_to_change(&mut self, first: &mut bool) -> Option<usize> {
        if self.rest_shared() {
            return None;
        }
        let skipped = self.skip_shared(first);
        (!self.rest_shared()).then_some(skipped)
    }

    /// Skips the items of the current container that come next in both texts and are the
    /// same, without reading them item by item: it finds how far the texts go on alike, then
    /// the last separator at the container's own depth before that point, and moves both
    /// cursors to it (an item not followed by a separator within the shared text is left to
    /// be read). `first`: no item was read yet. Returns how many items were skipped.
    fn skip_shared(&mut self, first: &mut bool) -> usize {
        let (old_at, new_at) = (self.old.at, self.new.at);
        let shared = common_prefix(
            &self.old.text.as_bytes()[old_at..],
            &self.new.text.as_bytes()[new_at..],
        );
        let text = &self.old.text.as_bytes()[old_at..old_at + shared];
        // After an item the cursor is before the separator that comes ahead of the next one.
        let mut at = text
            .iter()
            .position(|byte| !byte.is_ascii_whitespace())
            .unwrap_or(text.len());
        if !*first {
            if text.get(at) != Some(&b',') {
                return 0;
            }
            at += 1;
        }
        let (mut depth, mut skipped, mut last_separator) = (0usize, 0, None);
        while at < text.len() {
            match text[at] {
                b'"' => {
                    at += 1;
                    while at < text.len() && text[at] != b'"' {
                        at += if text[at] == b'\\' { 2 } else { 1 };
                    }
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => match depth.checked_sub(1) {
                    Some(inner) => depth = inner,
                    None => break,
                },
                b',' if depth == 0 => {
                    skipped += 1;
                    last_separator = Some(at);
                }
                _ => {}
            }
            at += 1;
        }
        if let Some(separator) = last_separator {
            self.old.at = old_at + separator;
            self.new.at = new_at + separator;
            *first = false;
        }
        skipped
    }
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
            Step::Name(name) => {
                out.push('"');
                out.push_str(name);
                out.push('"');
            }
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

    /// Reads an object member's key and the colon after it: the key's text, quotes included.
    fn key(&mut self) -> Result<&'a str, Malformed> {
        if self.peek() != Some(b'"') {
            return Err(Malformed);
        }
        let key = self.value().ok_or(Malformed)?;
        if self.eat(b':') {
            Ok(key)
        } else {
            Err(Malformed)
        }
    }

    /// Reads the rest of an object's members, and its closing brace: (key text, value text).
    /// `first`: no member was read yet (else a separator comes first).
    fn members(&mut self, mut first: bool) -> Result<Vec<(&'a str, &'a str)>, Malformed> {
        let mut members = Vec::new();
        while !self.eat(b'}') {
            if !first && !self.eat(b',') {
                return Err(Malformed);
            }
            first = false;
            let key = self.key()?;
            members.push((key, self.value().ok_or(Malformed)?));
        }
        Ok(members)
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
        // Two changes far apart: what lies between them is skipped too.
        let new = json!([1, 20, 3, 4, 5, 6, 7, 80, 9, 10]);
        assert_eq!(check(&old, &new), "[[[1],20],[[7],80]]");
        let old_cells =
            json!({"cells": (0..12).map(|i| json!({"o": i, "u": [i, "x,]"]})).collect::<Vec<_>>()});
        let mut new_cells = old_cells.clone();
        new_cells["cells"][3]["o"] = json!(30);
        new_cells["cells"][9]["u"][0] = json!(90);
        assert_eq!(
            check(&old_cells, &new_cells),
            r#"[[["cells",3,"o"],30],[["cells",9,"u"],[90,"x,]"]]]"#
        );
        // Spaced text: the separators are found past the spaces.
        assert_eq!(diff("[1 , 2 , 3 , 4]", "[1 , 2 , 3 , 5]"), "[[[3],5]]");
        assert_eq!(
            diff(
                "{ \"a\" : 1 , \"b\" : [ 1 , 2 ] }",
                "{ \"a\" : 1 , \"b\" : [ 1 , 3 ] }"
            ),
            r#"[[["b",1],3]]"#
        );
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
