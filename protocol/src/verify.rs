//! Replay verification: recompute a finished match from its revealed seed and compare it with
//! its replay, event by event and board by board (each step's patch applied to the view before
//! it must give the view recomputed after it), as the replay's viewer may see them. It needs
//! only the engine and this crate, so any tool can recheck a match (`warroom verify` is one); it
//! never panics, whatever the replay holds (the `verify_replay` fuzz target checks that).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warroom_engine::{Ruleset, RulesetId, Seed, Viewer};

use crate::patch;
use crate::played::{Played, is_resign};
use crate::static_parts::strip_static_parts;
use crate::{ActedBy, Replay, ReplayAction};

/// What verification found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Actions recomputed.
    pub actions: usize,
    /// The first difference, or `None` when everything matches.
    pub first_difference: Option<String>,
    /// Whether each step's board (its patch) was checked: a replay saved before steps carried
    /// patches has none to check.
    pub boards: bool,
}

impl VerifyReport {
    fn differs(actions: usize, what: impl Into<String>) -> Self {
        VerifyReport {
            actions,
            first_difference: Some(what.into()),
            boards: false,
        }
    }

    /// True when the replay matches its recomputation.
    pub fn ok(&self) -> bool {
        self.first_difference.is_none()
    }
}

/// Recomputes `replay` with the ruleset it names.
pub fn verify_replay(replay: &Replay) -> VerifyReport {
    match replay.ruleset {
        RulesetId::Hexdice => verify::<warroom_engine::hexdice::Hexdice>(replay),
        RulesetId::Capitals => verify::<warroom_engine::capitals::Capitals>(replay),
        RulesetId::Classic => verify::<warroom_engine::classic::Classic>(replay),
    }
}

/// Ruleset values as JSON; they are plain data, so `Null` (which then differs) never happens.
fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Recomputes `replay` with ruleset `R`.
pub fn verify<R: Ruleset>(replay: &Replay) -> VerifyReport {
    let Some(seed_hex) = &replay.seed else {
        return VerifyReport::differs(0, "the replay has no seed: the match is not over");
    };
    let Ok(seed) = seed_hex.parse::<Seed>() else {
        return VerifyReport::differs(0, "the seed is not 64 hex digits");
    };
    if seed.commitment() != replay.seed_commitment {
        return VerifyReport::differs(0, "the seed does not match its published commitment");
    }
    let Ok(options) = R::Options::deserialize(&replay.options) else {
        return VerifyReport::differs(0, "the options are not valid for this ruleset");
    };
    let Ok(seats) = u8::try_from(replay.seats.len()) else {
        return VerifyReport::differs(0, "too many seats");
    };
    let viewer = replay.viewer;
    let (state, setup_events) = match R::new(&options, seats, seed) {
        Ok(started) => started,
        Err(error) => return VerifyReport::differs(0, format!("setup fails: {error}")),
    };
    let mut played = Played::new(state, seats);
    if to_json(&played.rules.view(viewer)) != replay.initial_view {
        return VerifyReport::differs(0, "the initial view differs");
    }
    let redacted = |events: &[R::Event]| -> Vec<Value> {
        events
            .iter()
            .map(|event| to_json(&R::redact_event(event, viewer)))
            .collect()
    };
    if redacted(&setup_events) != replay.setup_events {
        return VerifyReport::differs(0, "the setup events differ");
    }
    // The boards: replays saved before steps carried patches have none, and are checked
    // without; one that has any must have every one.
    let patched = replay.actions.iter().any(|action| action.patch.is_some());
    let mut board = replay.initial_view.clone();
    strip_static_parts(&mut board);
    let mut events = Vec::new();
    for (index, recorded) in replay.actions.iter().enumerate() {
        let expected_seq = u64::try_from(index + 1).unwrap_or(u64::MAX);
        if recorded.seq != expected_seq {
            return VerifyReport::differs(
                index,
                format!("action #{expected_seq} has seq {}", recorded.seq),
            );
        }
        events.clear();
        if is_resign(&recorded.action) {
            if let Err(error) = played.resign(recorded.seat) {
                return VerifyReport::differs(
                    index,
                    format!(
                        "action #{expected_seq} (resign) is refused: {}",
                        error.message
                    ),
                );
            }
            if !recorded.events.is_empty() || recorded.by != ActedBy::Player {
                return VerifyReport::differs(
                    index + 1,
                    format!("action #{expected_seq}: a resignation is a player's, with no events"),
                );
            }
            if patched
                && let Some(difference) =
                    board_differs(&played, viewer, &mut board, recorded, expected_seq)
            {
                return VerifyReport::differs(index + 1, difference);
            }
            continue;
        }
        if played.outcome().is_some() {
            return VerifyReport::differs(
                index,
                format!("action #{expected_seq} comes after the end"),
            );
        }
        let action: R::Action = match serde_json::from_value(recorded.action.clone()) {
            Ok(action) => action,
            Err(error) => {
                return VerifyReport::differs(
                    index,
                    format!("action #{expected_seq} is not a {} action: {error}", R::ID),
                );
            }
        };
        if recorded.by == ActedBy::Clock {
            // The clock only ever takes the ruleset's timeout action, for the seat to act.
            let timeout = played.rules.timeout_action();
            if played.rules.to_act() != Some(recorded.seat) || timeout.as_ref() != Some(&action) {
                return VerifyReport::differs(
                    index,
                    format!(
                        "action #{expected_seq} is marked as the clock's but is not the timeout action of the seat to act"
                    ),
                );
            }
        }
        if let Err(error) = played.rules.apply(recorded.seat, &action, &mut events) {
            return VerifyReport::differs(
                index,
                format!("action #{expected_seq} is refused: {error}"),
            );
        }
        let recomputed = redacted(&events);
        if recomputed != recorded.events {
            let position = recomputed
                .iter()
                .zip(&recorded.events)
                .position(|(a, b)| a != b)
                .unwrap_or(recomputed.len().min(recorded.events.len()));
            return VerifyReport::differs(
                index + 1,
                format!(
                    "action #{expected_seq}: event {position} differs: recomputed {}, recorded {}",
                    recomputed
                        .get(position)
                        .map_or("nothing".into(), Value::to_string),
                    recorded
                        .events
                        .get(position)
                        .map_or("nothing".into(), Value::to_string),
                ),
            );
        }
        if patched
            && let Some(difference) =
                board_differs(&played, viewer, &mut board, recorded, expected_seq)
        {
            return VerifyReport::differs(index + 1, difference);
        }
    }
    let actions = replay.actions.len();
    if played.outcome() != replay.outcome {
        return VerifyReport::differs(
            actions,
            format!(
                "the result differs: recomputed {:?}, recorded {:?}",
                played.outcome(),
                replay.outcome
            ),
        );
    }
    VerifyReport {
        actions,
        first_difference: None,
        boards: patched,
    }
}

/// Applies `recorded`'s patch to `board` (the view of the step before, less its static parts)
/// and compares the result with the view recomputed after the action: the difference, if any.
fn board_differs<R: Ruleset>(
    played: &Played<R>,
    viewer: Viewer,
    board: &mut Value,
    recorded: &ReplayAction,
    seq: u64,
) -> Option<String> {
    let Some(patch) = &recorded.patch else {
        return Some(format!("action #{seq} has no patch"));
    };
    if let Err(error) = patch::apply(board, &patch.to_value()) {
        return Some(format!("action #{seq}: {error}"));
    }
    let mut recomputed = to_json(&played.rules.dynamic_view(viewer));
    strip_static_parts(&mut recomputed);
    if recomputed == *board {
        return None;
    }
    let at = where_differs(&recomputed, board);
    let shown = |view: &Value| view.pointer(&at).map_or("nothing".into(), Value::to_string);
    Some(format!(
        "action #{seq}: the view after it differs at {}: recomputed {}, patched {}",
        if at.is_empty() { "/" } else { &at },
        shown(&recomputed),
        shown(board),
    ))
}

/// The JSON pointer of the first place where `a` and `b` differ (`""`: the values themselves).
fn where_differs(a: &Value, b: &Value) -> String {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            let step = |key: &str| format!("/{}", key.replace('~', "~0").replace('/', "~1"));
            for (key, value) in a {
                match b.get(key) {
                    Some(other) if other == value => {}
                    Some(other) => return step(key) + &where_differs(value, other),
                    None => return step(key),
                }
            }
            b.keys()
                .find(|key| !a.contains_key(*key))
                .map_or_else(String::new, |key| step(key))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map_or_else(String::new, |(i, (x, y))| {
                format!("/{i}{}", where_differs(x, y))
            }),
        _ => String::new(),
    }
}
