//! The bridge between the server and the rulesets: JSON at the boundary, typed inside.
//!
//! [`Rules`] is what the server needs of a ruleset without a match (option checks, starting,
//! rebuilding, replays, verification); [`MatchRunner`] is one running match. Both are object-safe
//! and implemented once, generically, for every `R: Ruleset` ([`engine::Engine`]); [`rules`]
//! picks the implementation with a `match` on [`RulesetId`], so enabling a ruleset is one line.

mod dynamic_view;
mod engine;
mod replay_views;
mod runner_impl;

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;
use warroom_engine::{BotLevel, Outcome, RulesetId, Seat, Seed, Viewer};
use warroom_protocol::{ActedBy, RawJson, Replay, SeatRange};

use crate::error::RoomError;
use crate::records::{ActionRecord, MatchRecord};

pub use dynamic_view::{STATIC_ENTRY_FIELDS, STATIC_VIEW_FIELDS, strip_static_parts};
pub use engine::Engine;
pub use warroom_protocol::VerifyReport;

/// A ruleset, seen through JSON.
pub trait Rules: Send + Sync {
    /// Which ruleset.
    fn id(&self) -> RulesetId;
    /// The seat counts it allows.
    fn seat_range(&self) -> SeatRange;
    /// Its options with every default filled in.
    fn default_options(&self) -> Value;
    /// Checks room options (missing fields take defaults; unknown fields are refused) and the
    /// seat count with the engine's `check_options`; returns the options with defaults filled in.
    fn check_options(&self, options: Option<&Value>, seats: u8) -> Result<Value, RoomError>;
    /// Starts a match.
    fn start(
        &self,
        options: &Value,
        seats: u8,
        seed: Seed,
    ) -> Result<Box<dyn MatchRunner>, RoomError>;
    /// Rebuilds a match by replaying its stored actions.
    fn rebuild(
        &self,
        options: &Value,
        seats: u8,
        seed: Seed,
        actions: &[ActionRecord],
    ) -> Result<Box<dyn MatchRunner>, RoomError>;
    /// A stored match as `viewer` may see it.
    fn replay(
        &self,
        record: &MatchRecord,
        actions: &[ActionRecord],
        viewer: Viewer,
    ) -> Result<Replay, RoomError>;
    /// Recomputes a finished replay from its seed and compares every event, every step's board
    /// and the result.
    fn verify(&self, replay: &Replay) -> VerifyReport;
}

/// The rulesets this build offers.
pub fn rules(id: RulesetId) -> Option<&'static dyn Rules> {
    // Every arm is `Some` today; the `Option` lets a future ruleset land in the engine first.
    match id {
        RulesetId::Hexdice => Some(&Engine::<warroom_engine::hexdice::Hexdice>::NEW),
        RulesetId::Classic => Some(&Engine::<warroom_engine::classic::Classic>::NEW),
        RulesetId::Capitals => Some(&Engine::<warroom_engine::capitals::Capitals>::NEW),
    }
}

/// A bot's decision, cut loose from the room: it owns a copy of the state, runs on a blocking
/// thread with a bot RNG seeded by the caller, and returns the action's JSON (`None`: nothing
/// to play).
pub type BotJob = Box<dyn FnOnce(u64) -> Option<Value> + Send>;

/// What one accepted action was, for the log and for the connections.
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted {
    /// Its sequence number, from 1.
    pub seq: u64,
    /// Which seat it was played for.
    pub seat: Seat,
    /// Who took it.
    pub by: ActedBy,
    /// The action as JSON text, re-serialised from its typed form (for the log).
    pub action: String,
    /// Its events, unredacted, as one JSON array (for the log only).
    pub events: String,
}

/// One accepted action as one viewer sees it, with the match right after it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenAction {
    /// Its sequence number.
    pub seq: u64,
    /// Which seat it was played for.
    pub seat: Seat,
    /// Who took it.
    pub by: ActedBy,
    /// The action JSON.
    pub action: RawJson,
    /// Its events, redacted for the viewer, as one JSON array.
    pub events: RawJson,
    /// The viewer's view right after it, without its static parts (`dynamic_view.rs`).
    pub view: DynamicView,
    /// Whose decision the match waited for right after it.
    pub to_act: Option<Seat>,
    /// The outcome right after it.
    pub outcome: Option<Outcome>,
}

/// A viewer's view without its static parts, as `applied` carries it: the ruleset's typed view,
/// written as JSON only when a message carries it whole (once, then shared), and patched from
/// an older view of its class typed, field by field, where the ruleset can
/// (`warroom_protocol::patch::typed`), else by diffing the two JSON texts. Clones share it.
#[derive(Clone)]
pub struct DynamicView(Arc<dyn ViewData>);

impl DynamicView {
    /// Wraps a typed view.
    pub(crate) fn new(view: impl ViewData) -> DynamicView {
        DynamicView(Arc::new(view))
    }

    /// Its JSON text (written on the first call).
    pub fn json(&self) -> RawJson {
        self.0.json().clone()
    }

    /// As a tree (tests).
    pub fn to_value(&self) -> Value {
        self.0.json().to_value()
    }

    /// The patch that turns `old`, a view of the same viewer class, into this one.
    pub fn patch_from(&self, old: &DynamicView) -> RawJson {
        self.0.patch_from(&*old.0)
    }

    /// True when the two are known to be the same view (the same one shared, or, for a ruleset
    /// patched from text, the same text), so one patch serves both classes.
    pub fn same_as(&self, other: &DynamicView) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.same_as(&*other.0)
    }
}

impl PartialEq for DynamicView {
    fn eq(&self, other: &DynamicView) -> bool {
        self.0.json() == other.0.json()
    }
}

impl fmt::Debug for DynamicView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.json().get())
    }
}

/// What [`DynamicView`] needs of a ruleset's typed view (`runner_impl.rs`).
pub(crate) trait ViewData: Send + Sync + 'static {
    /// The view's JSON text, written once.
    fn json(&self) -> &RawJson;
    /// The patch from `old` to this view.
    fn patch_from(&self, old: &dyn ViewData) -> RawJson;
    /// True when `other` is known to be the same view without comparing typed values.
    fn same_as(&self, other: &dyn ViewData) -> bool;
    /// For the downcast of `patch_from`.
    fn as_any(&self) -> &dyn Any;
}

/// One running match, owned by its room task.
pub trait MatchRunner: Send {
    /// Accepted actions so far.
    fn seq(&self) -> u64;
    /// Whose decision the match waits for.
    fn to_act(&self) -> Option<Seat>;
    /// True once `seat` has resigned.
    fn has_resigned(&self, seat: Seat) -> bool;
    /// The ruleset's action for the seat to act when its clock runs out.
    fn timeout_action(&self) -> Option<Value>;
    /// A bot's decision for the seat to act, to run away from the room (see [`BotJob`]).
    fn bot_job(&self, level: BotLevel) -> BotJob;
    /// How it ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
    /// Once it has ended, each seat's place (`placings.rs`).
    fn places(&self) -> Option<crate::placings::Places>;
    /// What `viewer` may see now, whole, written as JSON.
    fn view(&self, viewer: Viewer) -> RawJson;
    /// What `viewer` may see now without the static parts, as `applied` carries it
    /// (`dynamic_view.rs`).
    fn dynamic_view(&self, viewer: Viewer) -> DynamicView;
    /// The legal actions, grouped by type (`warroom_protocol::legal`), when `viewer` is the
    /// seat to act.
    fn legal_actions_for(&self, viewer: Viewer) -> Option<RawJson>;
    /// Applies a ruleset action of `seat`, taken `by` its player, a bot or the clock. On `Err`
    /// nothing changed. On `Ok` [`MatchRunner::undo`] can still take it back (until the next
    /// call) if it cannot be stored.
    fn apply(&mut self, seat: Seat, action: &Value, by: ActedBy) -> Result<Accepted, RoomError>;
    /// `seat` resigns (G-RESIGN-1); kept for `undo` like an action.
    fn resign(&mut self, seat: Seat) -> Result<Accepted, RoomError>;
    /// Takes back the last accepted action (its append failed, so it never happened).
    fn undo(&mut self);
    /// The last accepted action as `viewer` sees it, with the current view.
    fn last_seen_by(&self, viewer: Viewer) -> Option<SeenAction>;
    /// Every action after `after_seq` as `viewer` sees it, each with the view right after it
    /// (recomputed by replaying from the start).
    fn seen_since(&self, after_seq: u64, viewer: Viewer) -> Vec<SeenAction>;
}

/// Deserialises ruleset JSON, naming what it is in the error.
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    value: &Value,
    code: &'static str,
    what: &str,
) -> Result<T, RoomError> {
    T::deserialize(value)
        .map_err(|error| RoomError::bad_request(code, format!("not a valid {what}: {error}")))
}

/// Serialises ruleset values; they are plain data, so failure is a server bug.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|error| {
        tracing::error!("cannot serialise a ruleset value: {error}");
        Value::Null
    })
}
