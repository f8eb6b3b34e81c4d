//! The capitals ruleset (RULES.md, "capitals"): 2–4 players, capitals, factories and neutral
//! land on a generated fair map; up to five orders a turn; battles by summed dice.
//!
//! Shape (the same in every ruleset): [`state`] holds the match, [`action`] / [`event`] /
//! [`error`] are what goes in and out, `check` validates an action without mutating and
//! `execute` carries it out (it cannot fail), `turn` runs production and rounds, `battle` rolls
//! the dice, [`units`] counts the dice in an area, [`view`] is what a viewer sees, `setup`
//! starts a match, [`map`] generates the board, `legal` lists actions; `tests` holds the rule
//! tests.

pub mod action;
mod battle;
mod check;
pub mod error;
pub mod event;
mod execute;
mod legal;
pub mod map;
mod setup;
pub mod state;
mod turn;
pub mod units;
pub mod view;

#[cfg(test)]
mod tests;

use std::ops::RangeInclusive;

pub use action::{Action, Path};
pub use battle::units_kept;
pub use error::CapitalsError;
pub use event::{Event, Side};
pub use map::{AreaId, AreaKind, Map, MapSize};
pub use state::{AreaState, Capitals, ORDERS_PER_TURN, Options};
pub use turn::production;
pub use units::{AREA_CAP, Die, Selection, Units};
pub use view::CapitalsView;

use crate::core::{Outcome, Ruleset, RulesetId, Seat, SetupError, Viewer};
use crate::rng::Seed;

impl Ruleset for Capitals {
    // Nothing is hidden but the seed (view.rs): `view` ignores its viewer, events are not
    // redacted.
    const SAME_FOR_EVERY_VIEWER: bool = true;
    const ID: RulesetId = RulesetId::Capitals;
    type Options = Options;
    type Action = Action;
    type Event = Event;
    type Error = CapitalsError;
    type View = CapitalsView;

    fn seat_counts() -> RangeInclusive<u8> {
        2..=4
    }

    fn check_options(options: &Options, seats: u8) -> Result<(), SetupError> {
        setup::check_options(options, seats)
    }

    fn new(options: &Options, seats: u8, seed: Seed) -> Result<(Self, Vec<Event>), SetupError> {
        setup::new_match(options, seats, seed)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), CapitalsError> {
        let plan = self.check(seat, action)?;
        self.execute(seat, plan, events);
        Ok(())
    }

    fn to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.current)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out);
    }

    fn timeout_action(&self) -> Option<Action> {
        self.outcome.is_none().then_some(Action::EndTurn)
    }

    fn view(&self, _viewer: Viewer) -> CapitalsView {
        self.public_view(true)
    }

    fn dynamic_view(&self, _viewer: Viewer) -> CapitalsView {
        self.public_view(false)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn is_out(&self, seat: Seat) -> bool {
        self.is_eliminated(seat)
    }
}
