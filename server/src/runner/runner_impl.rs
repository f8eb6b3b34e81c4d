//! [`Runner<R>`]: one running match of ruleset `R`, behind the object-safe [`MatchRunner`].

use serde_json::Value;
use warroom_engine::{Outcome, RuleError, Ruleset, Seat, Seed, SetupError, Viewer};
use warroom_protocol::codes;

use super::engine::{from_json, to_json};
use super::{Accepted, MatchRunner, SeenAction};
use crate::error::ApiError;

/// A running match and the record it was built from.
pub struct Runner<R: Ruleset> {
    /// The state right after setup: reconnecting clients are caught up by replaying from it.
    initial: R,
    /// The state now.
    state: R,
    /// The state before the last accepted action, until it is durable (for `undo`).
    previous: Option<R>,
    /// Every accepted action with its events, in order.
    history: Vec<(Seat, R::Action, Vec<R::Event>)>,
}

impl<R: Ruleset> Runner<R> {
    /// Sets up a match.
    pub fn start(options: &R::Options, seats: u8, seed: Seed) -> Result<Self, SetupError> {
        let (state, _setup_events) = R::new(options, seats, seed)?;
        Ok(Runner {
            initial: state.clone(),
            state,
            previous: None,
            history: Vec::new(),
        })
    }

    fn seen(&self, index: usize, viewer: Viewer, state: &R) -> Option<SeenAction> {
        let (seat, action, events) = self.history.get(index)?;
        Some(SeenAction {
            seq: u64::try_from(index + 1).unwrap_or(u64::MAX),
            seat: *seat,
            action: to_json(action),
            events: events
                .iter()
                .map(|event| to_json(&R::redact_event(event, viewer)))
                .collect(),
            view: to_json(&state.view(viewer)),
            to_act: state.to_act(),
            outcome: state.outcome(),
        })
    }
}

impl<R: Ruleset> MatchRunner for Runner<R> {
    fn seq(&self) -> u64 {
        u64::try_from(self.history.len()).unwrap_or(u64::MAX)
    }

    fn to_act(&self) -> Option<Seat> {
        self.state.to_act()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&self.state.view(viewer))
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

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Accepted, ApiError> {
        let typed: R::Action =
            from_json(action, codes::UNKNOWN_ACTION, &format!("{} action", R::ID))?;
        let mut next = self.state.clone();
        let mut events = Vec::new();
        next.apply(seat, &typed, &mut events).map_err(|error| {
            ApiError::conflict(error.code(), error.to_string()).with_params(error.params())
        })?;
        self.previous = Some(std::mem::replace(&mut self.state, next));
        let accepted = Accepted {
            seq: self.seq() + 1,
            seat,
            action: to_json(&typed),
            events: events.iter().map(to_json).collect(),
        };
        self.history.push((seat, typed, events));
        Ok(accepted)
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
        for (index, (seat, action, _)) in self.history.iter().enumerate() {
            scratch.clear();
            if state.apply(*seat, action, &mut scratch).is_err() {
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
