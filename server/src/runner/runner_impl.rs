//! [`Runner<R>`]: one running match of ruleset `R`, behind the object-safe [`MatchRunner`].

use serde_json::Value;
use warroom_engine::{
    Bot, BotLevel, BotRng, Outcome, RuleError, Ruleset, Seat, Seed, SetupError, Viewer,
};
use warroom_protocol::played::{Played, resign_action};
use warroom_protocol::{ActedBy, codes};

use super::engine::{from_json, to_json};
use super::{Accepted, BotJob, MatchRunner, SeenAction};
use crate::error::ApiError;

/// One logged action: a ruleset action or a resignation.
#[derive(Clone, Debug)]
enum Logged<R: Ruleset> {
    /// A ruleset action and its events.
    Rules(R::Action, Vec<R::Event>),
    /// The seat resigned.
    Resign,
}

/// One entry of the history: who, by what means, and what.
#[derive(Clone, Debug)]
struct Entry<R: Ruleset> {
    seat: Seat,
    by: ActedBy,
    logged: Logged<R>,
}

impl<R: Ruleset> Entry<R> {
    /// Plays this entry on `state` (when catching a client up).
    fn replay_on(&self, state: &mut Played<R>, scratch: &mut Vec<R::Event>) -> bool {
        match &self.logged {
            Logged::Rules(action, _) => state.rules.apply(self.seat, action, scratch).is_ok(),
            Logged::Resign => state.resign(self.seat).is_ok(),
        }
    }
}

/// A running match and the record it was built from.
pub struct Runner<R: Ruleset> {
    /// The state right after setup: reconnecting clients are caught up by replaying from it.
    initial: Played<R>,
    /// The state now.
    state: Played<R>,
    /// The state before the last accepted action, until it is durable (for `undo`).
    previous: Option<Played<R>>,
    /// Every accepted action with its events, in order.
    history: Vec<Entry<R>>,
}

impl<R: Ruleset> Runner<R> {
    /// Sets up a match.
    pub fn start(options: &R::Options, seats: u8, seed: Seed) -> Result<Self, SetupError> {
        let (state, _setup_events) = R::new(options, seats, seed)?;
        let state = Played::new(state, seats);
        Ok(Runner {
            initial: state.clone(),
            state,
            previous: None,
            history: Vec::new(),
        })
    }

    fn seen(&self, index: usize, viewer: Viewer, state: &Played<R>) -> Option<SeenAction> {
        let entry = self.history.get(index)?;
        let (action, events) = match &entry.logged {
            Logged::Rules(action, events) => (
                to_json(action),
                events
                    .iter()
                    .map(|event| to_json(&R::redact_event(event, viewer)))
                    .collect(),
            ),
            Logged::Resign => (resign_action(), Vec::new()),
        };
        Some(SeenAction {
            seq: u64::try_from(index + 1).unwrap_or(u64::MAX),
            seat: entry.seat,
            by: entry.by,
            action,
            events,
            view: without_static_parts(to_json(&state.rules.view(viewer))),
            to_act: state.to_act(),
            outcome: state.outcome(),
        })
    }

    /// Keeps the state before a change (for `undo`) and logs the entry.
    fn accept(&mut self, next: Played<R>, entry: Entry<R>) -> Accepted {
        self.previous = Some(std::mem::replace(&mut self.state, next));
        let (action, events) = match &entry.logged {
            Logged::Rules(action, events) => {
                (to_json(action), events.iter().map(to_json).collect())
            }
            Logged::Resign => (resign_action(), Vec::new()),
        };
        let accepted = Accepted {
            seq: u64::try_from(self.history.len() + 1).unwrap_or(u64::MAX),
            seat: entry.seat,
            by: entry.by,
            action,
            events,
        };
        self.history.push(entry);
        accepted
    }
}

impl<R: Bot> Runner<R> {
    /// Applies a stored action (a ruleset action or a resignation) while rebuilding.
    pub fn apply_logged(
        &mut self,
        seat: Seat,
        action: &Value,
        by: ActedBy,
    ) -> Result<Accepted, ApiError> {
        if warroom_protocol::played::is_resign(action) {
            self.resign(seat)
        } else {
            self.apply(seat, action, by)
        }
    }
}

impl<R: Bot> MatchRunner for Runner<R> {
    fn seq(&self) -> u64 {
        u64::try_from(self.history.len()).unwrap_or(u64::MAX)
    }

    fn to_act(&self) -> Option<Seat> {
        self.state.to_act()
    }

    fn has_resigned(&self, seat: Seat) -> bool {
        self.state.has_resigned(seat)
    }

    fn timeout_action(&self) -> Option<Value> {
        self.state.to_act()?;
        self.state.rules.timeout_action().as_ref().map(to_json)
    }

    fn bot_job(&self, level: BotLevel) -> BotJob {
        let state = self.state.rules.clone();
        Box::new(move |seed| {
            let mut rng = BotRng::new(seed);
            state.bot_action(level, &mut rng).as_ref().map(to_json)
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&self.state.rules.view(viewer))
    }

    fn legal_actions_for(&self, viewer: Viewer) -> Option<Vec<Value>> {
        let seat = self.state.to_act()?;
        if viewer != Viewer::Seat(seat) {
            return None;
        }
        let mut actions = Vec::new();
        self.state.legal_actions(&mut actions);
        Some(actions.iter().map(to_json).collect())
    }

    fn apply(&mut self, seat: Seat, action: &Value, by: ActedBy) -> Result<Accepted, ApiError> {
        if self.state.outcome().is_some() {
            return Err(ApiError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        let typed: R::Action =
            from_json(action, codes::UNKNOWN_ACTION, &format!("{} action", R::ID))?;
        refuse_unknown_fields(action, &to_json(&typed), R::ID.as_str())?;
        let mut next = self.state.clone();
        let mut events = Vec::new();
        next.rules
            .apply(seat, &typed, &mut events)
            .map_err(|error| {
                ApiError::conflict(error.code(), error.to_string()).with_params(error.params())
            })?;
        let entry = Entry {
            seat,
            by,
            logged: Logged::Rules(typed, events),
        };
        Ok(self.accept(next, entry))
    }

    fn resign(&mut self, seat: Seat) -> Result<Accepted, ApiError> {
        let mut next = self.state.clone();
        next.resign(seat)
            .map_err(|error| ApiError::conflict(error.code, error.message))?;
        let entry = Entry {
            seat,
            by: ActedBy::Player,
            logged: Logged::Resign,
        };
        Ok(self.accept(next, entry))
    }

    fn undo(&mut self) {
        if let Some(previous) = self.previous.take() {
            self.state = previous;
            self.history.pop();
        }
    }

    fn last_seen_by(&self, viewer: Viewer) -> Option<SeenAction> {
        let last = self.history.len().checked_sub(1)?;
        self.seen(last, viewer, &self.state)
    }

    fn seen_since(&self, after_seq: u64, viewer: Viewer) -> Vec<SeenAction> {
        let after = usize::try_from(after_seq).unwrap_or(usize::MAX);
        let mut seen = Vec::new();
        let mut state = self.initial.clone();
        let mut scratch = Vec::new();
        for (index, entry) in self.history.iter().enumerate() {
            scratch.clear();
            if !entry.replay_on(&mut state, &mut scratch) {
                // Replay equals live, so this cannot happen; stop rather than send a wrong view.
                tracing::error!("replaying action #{} diverged", index + 1);
                break;
            }
            if index >= after {
                seen.extend(self.seen(index, viewer, &state));
            }
        }
        seen
    }
}

/// Refuses fields the action does not have, as every other message's unknown fields are: the
/// rulesets' struct actions deny them when parsed, and this catches the rest (fields beside a
/// unit action such as `{"type": "end_turn"}`). A field is known when the action, written back,
/// has it (an absent optional field may be sent as `null`).
fn refuse_unknown_fields(sent: &Value, parsed: &Value, ruleset: &str) -> Result<(), ApiError> {
    let (Some(sent), Some(parsed)) = (sent.as_object(), parsed.as_object()) else {
        return Ok(());
    };
    match sent
        .iter()
        .find(|(key, value)| !value.is_null() && !parsed.contains_key(key.as_str()))
    {
        Some((key, _)) => Err(ApiError::bad_request(
            codes::UNKNOWN_ACTION,
            format!("not a valid {ruleset} action: unknown field `{key}`"),
        )),
        None => Ok(()),
    }
}

/// The parts of a view that never change during a match: the board (every ruleset), and in
/// classic the borders and the continents.
const STATIC_VIEW_FIELDS: [&str; 3] = ["board", "borders", "continents"];

/// A view as an `applied` message carries it: without its static parts, which the client keeps
/// from the match's `snapshot` (sent once per match, not with every action: they are most of a
/// classic view's bytes).
fn without_static_parts(mut view: Value) -> Value {
    if let Value::Object(fields) = &mut view {
        for field in STATIC_VIEW_FIELDS {
            fields.remove(field);
        }
    }
    view
}
