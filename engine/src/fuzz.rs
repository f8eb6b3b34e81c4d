//! The bodies of the coverage-guided fuzz targets that drive the engine (`fuzz/`, cargo-fuzz with
//! libFuzzer), kept here so that the stored corpus also runs as plain unit tests on stable.
//!
//! [`apply_after_random_play`] turns the fuzzer's bytes into a match of one ruleset: it plays
//! random legal actions to reach a state, then sends an arbitrary action as an arbitrary seat, and
//! repeats. It checks the engine contract of `core.rs` on every try: `apply` never panics; a
//! refused action changes neither the state nor the events (G-TURN-1 included: only the seat to
//! act is ever accepted); an accepted action is re-accepted from its own JSON, with the same
//! events and state, as a rebuild from the database does (G-RNG-1). Any breach panics, which the
//! fuzzer reports as a crash.
//!
//! Arbitrary actions come in two kinds, picked by the bytes: a listed legal action whose JSON is
//! then mutated ([`mutate_json`]: numbers out of range, wrong types, missing or extra fields), or
//! raw bytes parsed as the ruleset's action JSON. Both reach `apply` the way a client's message
//! does on the server (`serde_json` into the typed action).

use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::bot::{BotRng, random_legal};
use crate::core::{RuleError, Ruleset, Seat, Viewer};
use crate::rng::Seed;

/// Reads the fuzzer's bytes as a stream of small numbers; past the end every read gives zero, so
/// any input, even an empty one, is a valid program.
#[derive(Clone, Debug)]
pub struct ByteSource<'a> {
    rest: &'a [u8],
}

impl<'a> ByteSource<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        ByteSource { rest: data }
    }

    /// True once every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((&first, rest)) => {
                self.rest = rest;
                first
            }
            None => 0,
        }
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        let mut bytes = [0; 8];
        for byte in &mut bytes {
            *byte = self.u8();
        }
        u64::from_le_bytes(bytes)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.u16()) % n
        }
    }

    /// Up to `len` next bytes (fewer near the end).
    pub fn take(&mut self, len: usize) -> &'a [u8] {
        let (taken, rest) = self.rest.split_at(len.min(self.rest.len()));
        self.rest = rest;
        taken
    }
}

/// Changes one node of `value`, chosen by `bytes`: a number becomes another (out of range,
/// negative, fractional, off by one), a node changes type, an array loses, repeats or swaps
/// elements, an object loses or gains a field. Meant to turn a valid message into a nearly valid
/// one, which is where validation code breaks.
pub fn mutate_json(value: &mut Value, bytes: &mut ByteSource<'_>) {
    // Walk down: each byte says stop here, or which child to enter.
    let step = bytes.u8();
    let children = match &*value {
        Value::Array(items) => items.len(),
        Value::Object(fields) => fields.len(),
        _ => 0,
    };
    if children == 0 || step < 64 {
        return mutate_node(value, bytes);
    }
    let index = usize::from(step) % children;
    match value {
        Value::Array(items) => mutate_json(&mut items[index], bytes),
        Value::Object(fields) => {
            if let Some(child) = fields.values_mut().nth(index) {
                mutate_json(child, bytes);
            }
        }
        _ => {}
    }
}

/// Replaces `node` with something near it or of another type, as `bytes` say.
fn mutate_node(node: &mut Value, bytes: &mut ByteSource<'_>) {
    let kind = bytes.u8() % 14;
    *node = match (kind, std::mem::take(node)) {
        (0, _) => Value::from(bytes.u64()),
        (1, _) => Value::from(-i64::from(bytes.u16()) - 1),
        (2, _) => Value::from(bytes.u8()),
        (3, Value::Number(n)) => nudge(&n, bytes.u8()),
        (4, _) => Number::from_f64(f64::from(bytes.u16()) / 7.0).map_or(Value::Null, Value::Number),
        (5, _) => Value::from(short_string(bytes)),
        (6, _) => Value::Null,
        (7, _) => Value::Bool(bytes.u8() & 1 == 1),
        (8, Value::Array(mut items)) if !items.is_empty() => {
            let at = bytes.below(items.len());
            items.remove(at);
            Value::Array(items)
        }
        (9, Value::Array(mut items)) if !items.is_empty() => {
            let at = bytes.below(items.len());
            let copy = items[at].clone();
            items.insert(at, copy);
            Value::Array(items)
        }
        (10, Value::Array(mut items)) if !items.is_empty() => {
            let (a, b) = (bytes.below(items.len()), bytes.below(items.len()));
            items.swap(a, b);
            Value::Array(items)
        }
        (8, Value::Object(mut fields)) if !fields.is_empty() => {
            let key = fields.keys().nth(bytes.below(fields.len())).cloned();
            if let Some(key) = key {
                fields.remove(&key);
            }
            Value::Object(fields)
        }
        (9, Value::Object(mut fields)) => {
            fields.insert(short_string(bytes), Value::from(bytes.u8()));
            Value::Object(fields)
        }
        (11, _) => Value::Array(Vec::new()),
        (12, _) => Value::Object(Map::new()),
        // Leave the node as it was (its old value was taken, so put it back below).
        (_, old) => old,
    };
}

/// A number one step away from `n` (or its negation, or a huge one).
fn nudge(n: &Number, how: u8) -> Value {
    let Some(v) = n
        .as_i64()
        .or_else(|| n.as_u64().map(|u| i64::try_from(u).unwrap_or(i64::MAX)))
    else {
        return Value::from(0);
    };
    match how % 4 {
        0 => Value::from(v.saturating_add(1)),
        1 => Value::from(v.saturating_sub(1)),
        2 => Value::from(v.saturating_neg()),
        _ => Value::from(u64::MAX - u64::from(how)),
    }
}

/// A short string: often one of the words actions are made of, else a few raw bytes.
fn short_string(bytes: &mut ByteSource<'_>) -> String {
    const WORDS: [&str; 8] = ["type", "end_turn", "attack", "units", "from", "to", "", "0"];
    let pick = bytes.u8();
    match WORDS.get(usize::from(pick)) {
        Some(word) => (*word).to_owned(),
        None => {
            let len = usize::from(pick % 8);
            String::from_utf8_lossy(bytes.take(len)).into_owned()
        }
    }
}

/// How one ruleset is set up for the fuzzer and what extra promise its legal-action list makes.
#[derive(Clone, Copy, Debug)]
pub struct FuzzSetup {
    /// Room options to choose from, as JSON (each must start a match).
    pub options: &'static [&'static str],
    /// True when `legal_actions` lists every action `apply` accepts (hexdice), not only a
    /// canonical subset (capitals, classic).
    pub lists_every_accepted_action: bool,
}

/// The hexdice setups: the default board, the smallest and the largest, and every variant.
pub const HEXDICE: FuzzSetup = FuzzSetup {
    options: &[
        "{}",
        r#"{"board": {"layout": "small"}, "conquest": "optional"}"#,
        r#"{"board": {"random": {"cells": 8, "seed": 1}}, "combined_attack_sources": "not_adjacent"}"#,
        r#"{"board": {"layout": "full"}, "last_tiebreak": "occupation_starter"}"#,
    ],
    lists_every_accepted_action: true,
};

/// The capitals setups: every map size.
pub const CAPITALS: FuzzSetup = FuzzSetup {
    options: &[r#"{"map_size": "small"}"#, "{}", r#"{"map_size": "large"}"#],
    lists_every_accepted_action: false,
};

/// The classic setups: claimed and dealt territories, both fortify rules.
pub const CLASSIC: FuzzSetup = FuzzSetup {
    options: &[
        r#"{"setup": "random"}"#,
        "{}",
        r#"{"setup": "random", "fortify": "connected"}"#,
    ],
    lists_every_accepted_action: false,
};

/// Most random legal actions played before one arbitrary try (per try).
const MOST_RANDOM_STEPS: usize = 255;
/// Most arbitrary tries per input: keeps one input's run short.
const MOST_TRIES: usize = 64;

/// The fuzz target body for ruleset `R`: see the module documentation for what it checks.
///
/// Layout of `data`: a seed (8 bytes), the options and seat count (1 byte each), then tries:
/// random steps (1 byte), the sender (1 byte: mostly the seat to act), the kind of action
/// (1 byte), then that action's own bytes.
pub fn apply_after_random_play<R: Ruleset>(setup: &FuzzSetup, data: &[u8]) {
    let mut bytes = ByteSource::new(data);
    let seed = bytes.u64();
    let options_json = setup.options[bytes.below(setup.options.len())];
    let options: R::Options = match serde_json::from_str(options_json) {
        Ok(options) => options,
        Err(error) => panic!("fuzz setup options {options_json} do not parse: {error}"),
    };
    let seats = R::seat_counts();
    let seat_count = seats.start() + bytes.u8() % (seats.end() - seats.start() + 1);
    let (mut state, _) = match R::new(&options, seat_count, Seed::from_u64(seed)) {
        Ok(started) => started,
        Err(error) => panic!("fuzz setup {options_json} with {seat_count} seats: {error}"),
    };
    let mut chooser = BotRng::new(seed ^ 0x5eed);
    let mut legal = Vec::new();
    // The events of the last random step: arbitrary tries append to a copy of them, as the
    // server's buffers may hold events already.
    let mut recent = Vec::new();
    for _ in 0..MOST_TRIES {
        if bytes.is_empty() {
            break;
        }
        for _ in 0..usize::from(bytes.u8()).min(MOST_RANDOM_STEPS) {
            let (Some(seat), Some(action)) = (state.to_act(), random_legal(&state, &mut chooser))
            else {
                break;
            };
            recent.clear();
            if let Err(error) = state.apply(seat, &action, &mut recent) {
                panic!("listed action {action:?} of seat {seat} refused: {error}");
            }
        }
        let sender = match (bytes.u8(), state.to_act()) {
            (pick, Some(seat)) if pick < 192 => seat,
            (pick, _) => Seat(pick % 8),
        };
        legal.clear();
        state.legal_actions(&mut legal);
        let action: Option<R::Action> = if bytes.u8() & 1 == 0 && !legal.is_empty() {
            let mut json = to_value(&legal[bytes.below(legal.len())]);
            for _ in 0..=bytes.u8() % 3 {
                mutate_json(&mut json, &mut bytes);
            }
            serde_json::from_value(json).ok()
        } else {
            let len = usize::from(bytes.u8());
            serde_json::from_slice(bytes.take(len)).ok()
        };
        if let Some(action) = action {
            let tried = Try {
                sender,
                action: &action,
                legal: &legal,
                earlier_events: &recent,
                seat_count,
            };
            tried.check(setup, &mut state);
        }
    }
}

/// One arbitrary try: who sends what, in which state.
struct Try<'a, R: Ruleset> {
    /// The sender, often the seat to act, sometimes another or one that does not exist.
    sender: Seat,
    /// The arbitrary action.
    action: &'a R::Action,
    /// What `legal_actions` listed before the try.
    legal: &'a [R::Action],
    /// Events already in the buffer `apply` appends to.
    earlier_events: &'a [R::Event],
    /// The match's seat count.
    seat_count: u8,
}

impl<R: Ruleset> Try<'_, R> {
    /// Sends the action and checks the contract whatever the answer.
    fn check(&self, setup: &FuzzSetup, state: &mut R) {
        let Try { sender, action, .. } = *self;
        let before = state.clone();
        let to_act = state.to_act();
        let mut events = self.earlier_events.to_vec();
        match state.apply(sender, action, &mut events) {
            Err(error) => {
                assert!(
                    *state == before,
                    "refused {action:?} of seat {sender} ({}) changed the state",
                    error.code()
                );
                assert!(
                    events == self.earlier_events,
                    "refused {action:?} of seat {sender} touched the events"
                );
                assert!(!error.code().is_empty() && !error.to_string().is_empty());
            }
            Ok(()) => {
                assert_eq!(
                    Some(sender),
                    to_act,
                    "G-TURN-1: {action:?} accepted from seat {sender}, not the seat to act"
                );
                assert!(
                    events.starts_with(self.earlier_events),
                    "accepted {action:?} changed earlier events"
                );
                let new_events = &events[self.earlier_events.len()..];
                if setup.lists_every_accepted_action {
                    assert!(
                        self.legal.contains(action),
                        "{action:?} accepted but not listed by legal_actions"
                    );
                }
                // A rebuild applies the stored JSON of the action: it must do exactly the same.
                let stored: R::Action = match serde_json::from_value(to_value(action)) {
                    Ok(stored) => stored,
                    Err(error) => panic!("accepted {action:?} does not read back: {error}"),
                };
                let mut rebuilt = before;
                let mut rebuilt_events = Vec::new();
                if let Err(error) = rebuilt.apply(sender, &stored, &mut rebuilt_events) {
                    panic!("accepted {action:?} is refused when rebuilt: {error}");
                }
                assert!(
                    rebuilt == *state && rebuilt_events == new_events,
                    "G-RNG-1: rebuilding {action:?} from its JSON differs"
                );
                // What the server does next with the new state must not panic either.
                let viewers = (0..self.seat_count)
                    .map(|seat| Viewer::Seat(Seat(seat)))
                    .chain([Viewer::Spectator]);
                for viewer in viewers {
                    let _ = to_value(&state.view(viewer));
                    for event in new_events {
                        let _ = to_value(&R::redact_event(event, viewer));
                    }
                }
                let mut listed = Vec::new();
                state.legal_actions(&mut listed);
                let _ = (state.outcome(), state.timeout_action());
            }
        }
    }
}

/// Serialises an engine value; they are plain data, so failure is a bug worth a crash.
fn to_value<T: Serialize>(value: &T) -> Value {
    match serde_json::to_value(value) {
        Ok(json) => json,
        Err(error) => panic!("an engine value does not serialise: {error}"),
    }
}

/// Runs every stored input of fuzz target `target` (`fuzz/corpus/<target>/`, in name order)
/// through `body`, the target's body, as the unit tests of this crate and of warroom-protocol
/// do on stable. Panics, naming the file, when `body` panics on one, and when the corpus is
/// empty or missing.
pub fn replay_stored_corpus(target: &str, body: impl Fn(&[u8])) {
    let dir = format!("{}/../fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{dir}: {error}"))
        .map(|entry| entry.expect("a corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the {target} corpus is empty");
    for path in files {
        let data = std::fs::read(&path).expect("a corpus file");
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&data)));
        assert!(run.is_ok(), "{} fails {target}", path.display());
    }
}

#[cfg(test)]
mod tests {
    //! The stored corpus (`fuzz/corpus/<target>/`) run through the same bodies as the fuzzer,
    //! so every input that once found a bug stays a regression test on stable.

    use super::*;
    use crate::capitals::Capitals;
    use crate::classic::Classic;
    use crate::hexdice::Hexdice;

    /// The stored `apply_<ruleset>` corpus, each input through [`apply_after_random_play`].
    fn replay_apply_corpus<R: Ruleset>(setup: &FuzzSetup) {
        let target = format!("apply_{}", R::ID.as_str());
        replay_stored_corpus(&target, |data| apply_after_random_play::<R>(setup, data));
    }

    #[test]
    fn fuzz_corpus_apply_hexdice() {
        replay_apply_corpus::<Hexdice>(&HEXDICE);
    }

    #[test]
    fn fuzz_corpus_apply_capitals() {
        replay_apply_corpus::<Capitals>(&CAPITALS);
    }

    #[test]
    fn fuzz_corpus_apply_classic() {
        replay_apply_corpus::<Classic>(&CLASSIC);
    }

    #[test]
    fn every_fuzz_setup_starts_a_match_with_every_seat_count() {
        fn check<R: Ruleset>(setup: &FuzzSetup) {
            for json in setup.options {
                let options: R::Options = serde_json::from_str(json).expect(json);
                for seats in R::seat_counts() {
                    assert!(R::new(&options, seats, Seed::from_u64(1)).is_ok(), "{json}");
                }
            }
        }
        check::<Hexdice>(&HEXDICE);
        check::<Capitals>(&CAPITALS);
        check::<Classic>(&CLASSIC);
    }

    #[test]
    fn byte_source_reads_zeros_past_the_end() {
        let mut bytes = ByteSource::new(&[1, 2, 3]);
        assert_eq!(bytes.u16(), 0x0201);
        assert_eq!(bytes.u64(), 3);
        assert!(bytes.is_empty());
        assert_eq!(bytes.below(10), 0);
        assert!(bytes.take(5).is_empty());
    }

    #[test]
    fn mutate_json_changes_a_node_of_a_legal_action() {
        let original = serde_json::json!({"type": "attack", "from": 3, "target": 4});
        let mut changed = 0;
        for first in 0..=255u8 {
            let mut json = original.clone();
            mutate_json(&mut json, &mut ByteSource::new(&[first, 0, 7, 9]));
            changed += usize::from(json != original);
        }
        assert!(
            changed > 200,
            "only {changed} of 256 mutations changed anything"
        );
    }
}
