//! The bodies of the fuzz targets at the wire (`fuzz/`, cargo-fuzz with libFuzzer), kept here so
//! that the stored corpus also runs as plain unit tests on stable.
//!
//! - [`client_msg`]: any text frame through [`ClientMsg::parse`]: a message or a
//!   `malformed_message` error, never a panic; a parsed message writes back to text that parses.
//! - [`corrupted_replay`]: a valid replay of a match played to its end with random legal actions,
//!   corrupted as the bytes say (numbers, types, missing or repeated elements, in any field), then
//!   checked with [`verify`]: never a panic, and an untouched replay always verifies.

use std::sync::OnceLock;

use serde_json::Value;
use warroom_engine::fuzz::{ByteSource, mutate_json};
use warroom_engine::{
    BotRng, Ruleset, Seat, Seed, Viewer, capitals::Capitals, classic::Classic, hexdice::Hexdice,
    random_legal,
};

use crate::patch::diff;
use crate::static_parts::strip_static_parts;
use crate::verify::verify_replay;
use crate::{
    ClientMsg, Identity, IdentityId, MatchId, MatchSeat, RawJson, Replay, ReplayAction, codes,
};

/// The `client_msg` target: one WebSocket text frame (the bytes as UTF-8, as a text frame must be).
pub fn client_msg(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match ClientMsg::parse(&text) {
        Ok(message) => {
            let written = match serde_json::to_string(&message) {
                Ok(written) => written,
                Err(error) => panic!("{message:?} does not serialise: {error}"),
            };
            if let Err(error) = ClientMsg::parse(&written) {
                panic!(
                    "{written} (from {text:?}) does not parse back: {}",
                    error.message
                );
            }
        }
        Err(error) => {
            assert_eq!(error.code, codes::MALFORMED_MESSAGE);
            assert!(!error.message.is_empty());
        }
    }
}

/// The `verify_replay` target. The first byte picks the ruleset and the viewer; when it is 255
/// the rest is read as a whole replay JSON instead of corrupting a stored one.
pub fn corrupted_replay(data: &[u8]) {
    let mut bytes = ByteSource::new(data);
    let pick = bytes.u8();
    if pick == u8::MAX {
        if let Ok(replay) = serde_json::from_slice::<Replay>(bytes.take(data.len())) {
            let _ = verify_replay(&replay);
        }
        return;
    }
    let valid = &valid_replays()[usize::from(pick) % 6];
    let mut json = match serde_json::to_value(valid) {
        Ok(json) => json,
        Err(error) => panic!("a replay does not serialise: {error}"),
    };
    let mutations = bytes.u8() % 4;
    // Cut the actions short first, sometimes (the seed and the outcome then disagree).
    if bytes.u8().is_multiple_of(4)
        && let Some(Value::Array(actions)) = json.get_mut("actions")
    {
        let keep = bytes.below(actions.len() + 1);
        actions.truncate(keep);
    }
    for _ in 0..mutations {
        mutate_json(&mut json, &mut bytes);
    }
    let untouched = json == serde_json::to_value(valid).unwrap_or(Value::Null);
    let Ok(replay) = serde_json::from_value::<Replay>(json) else {
        return;
    };
    let report = verify_replay(&replay);
    if untouched {
        assert!(
            report.ok(),
            "a valid replay fails: {:?}",
            report.first_difference
        );
    }
}

/// One valid replay per ruleset and viewer (seat 0, then a spectator), each of a match of random
/// legal play, built once per process.
fn valid_replays() -> &'static [Replay; 6] {
    static REPLAYS: OnceLock<[Replay; 6]> = OnceLock::new();
    REPLAYS.get_or_init(|| {
        let seat = Viewer::Seat(Seat(0));
        [
            played::<Hexdice>(r#"{"board": {"layout": "small"}}"#, 2, seat),
            played::<Hexdice>(r#"{"board": {"layout": "small"}}"#, 2, Viewer::Spectator),
            played::<Capitals>(r#"{"map_size": "small"}"#, 2, seat),
            played::<Capitals>(r#"{"map_size": "small"}"#, 3, Viewer::Spectator),
            played::<Classic>(r#"{"setup": "random"}"#, 3, seat),
            played::<Classic>(r#"{"setup": "random"}"#, 3, Viewer::Spectator),
        ]
    })
}

/// Most actions of a generated match. Random play ends a small hexdice match well within it but
/// hardly ever a classic one (armies pile up); verification does not need the end (the outcome
/// is then `None` on both sides), and shorter replays let the fuzzer try more corruptions.
const MOST_ACTIONS: usize = 600;

/// A match of ruleset `R` played with random legal actions (to its end or [`MOST_ACTIONS`]), as
/// `viewer` sees it, with its seed revealed.
fn played<R: Ruleset>(options_json: &str, seats: u8, viewer: Viewer) -> Replay {
    let options: Value = serde_json::from_str(options_json).unwrap_or(Value::Null);
    let typed: R::Options = serde_json::from_value(options.clone()).unwrap_or_default();
    let seed = Seed::from_u64(7);
    let Ok((mut state, setup_events)) = R::new(&typed, seats, seed) else {
        panic!("{} cannot start {options_json} with {seats} seats", R::ID);
    };
    let initial_view = to_json(&state.view(viewer));
    // Each step's patch, as the server makes it: between the views less their static parts.
    let board = |state: &R| {
        let mut view = to_json(&state.dynamic_view(viewer));
        strip_static_parts(&mut view);
        view.to_string()
    };
    let mut before = board(&state);
    let mut rng = BotRng::new(7);
    let mut actions = Vec::new();
    while actions.len() < MOST_ACTIONS
        && let (Some(seat), Some(action)) = (state.to_act(), random_legal(&state, &mut rng))
    {
        let mut events = Vec::new();
        if let Err(error) = state.apply(seat, &action, &mut events) {
            panic!("listed {action:?} refused: {error}");
        }
        let after = board(&state);
        let patch = RawJson::from_written(&diff(&before, &after));
        before = after;
        actions.push(ReplayAction {
            seq: u64::try_from(actions.len() + 1).unwrap_or(u64::MAX),
            seat,
            by: crate::ActedBy::Player,
            action: to_json(&action),
            events: events
                .iter()
                .map(|event| to_json(&R::redact_event(event, viewer)))
                .collect(),
            patch: Some(patch),
        });
    }
    Replay {
        rated: false,
        ratings: None,
        match_id: MatchId(uuid::Uuid::nil()),
        ruleset: R::ID,
        options,
        seats: (0..seats)
            .map(|seat| MatchSeat {
                seat: Seat(seat),
                player: Identity {
                    id: IdentityId(uuid::Uuid::nil()),
                    name: format!("player {seat}"),
                },
            })
            .collect(),
        viewer,
        seed_commitment: seed.commitment(),
        seed: Some(seed.to_hex()),
        initial_view,
        setup_events: setup_events
            .iter()
            .map(|event| to_json(&R::redact_event(event, viewer)))
            .collect(),
        actions,
        outcome: state.outcome(),
        chat: Vec::new(),
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    //! The stored corpus (`fuzz/corpus/<target>/`) run through the same bodies as the fuzzer,
    //! so every input that once found a bug stays a regression test on stable.

    use super::*;
    use warroom_engine::fuzz::replay_stored_corpus;

    #[test]
    fn fuzz_corpus_client_msg() {
        replay_stored_corpus("client_msg", client_msg);
    }

    #[test]
    fn fuzz_corpus_verify_replay() {
        replay_stored_corpus("verify_replay", corrupted_replay);
    }

    #[test]
    fn every_generated_replay_verifies_and_a_changed_event_does_not() {
        for replay in valid_replays() {
            let report = verify_replay(replay);
            assert!(
                report.ok() && report.boards,
                "{}: {:?}",
                replay.ruleset,
                report.first_difference
            );
            let mut changed = replay.clone();
            let last = changed.actions.last_mut().expect("a match has actions");
            last.events.push(Value::Null);
            assert!(!verify_replay(&changed).ok(), "{}", replay.ruleset);
        }
    }

    #[test]
    fn a_replay_whose_patch_lies_about_the_board_does_not_verify() {
        for replay in valid_replays() {
            // A number the board shows after some step, one more than it was (a unit too many,
            // as a wrong production would show).
            let mut lying = replay.clone();
            let mut lied = None;
            for action in &mut lying.actions {
                let Some(mut patch) = action.patch.as_ref().map(RawJson::to_value) else {
                    continue;
                };
                let number = patch
                    .as_array_mut()
                    .into_iter()
                    .flatten()
                    .find_map(|op| op.get_mut(1).filter(|value| value.is_u64()));
                if let Some(number) = number {
                    *number = (number.as_u64().unwrap_or(0) + 1).into();
                    action.patch = Some(RawJson::of(&patch));
                    lied = Some(action.seq);
                    break;
                }
            }
            let seq = lied.expect("some step changes a number");
            let report = verify_replay(&lying);
            assert!(!report.ok(), "{}: a lying patch verifies", replay.ruleset);
            let found = report.first_difference.unwrap_or_default();
            assert!(
                found.starts_with(&format!("action #{seq}: the view after it differs at /")),
                "{}: {found}",
                replay.ruleset
            );

            // A step without its patch, among steps with theirs.
            let mut missing = replay.clone();
            missing.actions[0].patch = None;
            let report = verify_replay(&missing);
            assert_eq!(
                report.first_difference.as_deref(),
                Some("action #1 has no patch"),
                "{}",
                replay.ruleset
            );

            // A replay saved before steps had patches still verifies.
            let mut old = replay.clone();
            for action in &mut old.actions {
                action.patch = None;
            }
            let report = verify_replay(&old);
            assert!(report.ok() && !report.boards, "{}", replay.ruleset);
        }
    }
}
