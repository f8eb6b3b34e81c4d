//! hexdice: a duel on 8–36 hex cells where every unit is a die whose face is its strength
//! (RULES.md, rules H-*). Two players roll their dice, occupy the board in turn, then attack with
//! their reserve dice until no attack is possible or one side has no die left.
//!
//! Files: `board` and `layout` (H-BOARD), `options` (room options), `state`, `action`, `event`,
//! `error`, `setup` (H-SETUP-1..3), `check` (validation, read-only) and `execute` (the effects,
//! infallible), `legal` (legal actions and the timeout default), `view`.

mod action;
pub(crate) mod board;
mod check;
mod error;
mod event;
mod execute;
mod layout;
mod legal;
mod options;
mod setup;
pub(crate) mod state;
mod view;

#[cfg(test)]
pub(crate) mod tests;

use std::ops::RangeInclusive;

pub use self::action::Action;
pub use self::board::{Board, MAX_CELLS, MIN_CELLS};
pub use self::error::Error;
pub use self::event::{AttackResult, Decider, EndCause, Event};
pub use self::layout::{BoardChoice, Layout, RandomBoard, random_layout};
pub use self::options::{CombinedAttackSources, Conquest, LastTiebreak, Options};
pub use self::state::Hexdice;
pub use self::view::{BoardView, DieView, PhaseView, PlayerView, View};

use crate::core::{Outcome, Ruleset, RulesetId, Seat, SetupError, Viewer};
use crate::rng::Seed;

impl Ruleset for Hexdice {
    // Nothing is hidden but the seed (view.rs): `view` ignores its viewer, events are not
    // redacted.
    const SAME_FOR_EVERY_VIEWER: bool = true;
    const ID: RulesetId = RulesetId::Hexdice;
    type Options = Options;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    type View = View;

    fn seat_counts() -> RangeInclusive<u8> {
        2..=2
    }

    fn check_options(options: &Options, seats: u8) -> Result<(), SetupError> {
        setup::check_options(options, seats)
    }

    fn new(options: &Options, seats: u8, seed: Seed) -> Result<(Self, Vec<Event>), SetupError> {
        setup::start(options, seats, seed)
    }

    fn apply(&mut self, seat: Seat, action: &Action, events: &mut Vec<Event>) -> Result<(), Error> {
        check::check(self, seat, action)?;
        execute::execute(self, seat, action, events);
        Ok(())
    }

    fn to_act(&self) -> Option<Seat> {
        self.seat_to_act()
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        legal::legal_actions(self, out);
    }

    fn timeout_action(&self) -> Option<Action> {
        legal::timeout_action(self)
    }

    fn view(&self, _viewer: Viewer) -> View {
        view::view(self, true)
    }

    fn dynamic_view(&self, _viewer: Viewer) -> View {
        view::view(self, false)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            state::Phase::Over {
                winner,
                cause,
                decided_by,
            } => Some(Outcome {
                winner,
                reason: outcome_reason(cause, decided_by).to_owned(),
            }),
            _ => None,
        }
    }
}

impl Hexdice {
    /// The board this match is played on.
    pub fn board(&self) -> &Board {
        &self.board
    }
}

/// The outcome's reason code: `no_dice_left` when a player lost their last die, otherwise the
/// H-END-2 criterion that decided a game where no attack was left.
fn outcome_reason(cause: EndCause, decided_by: Decider) -> &'static str {
    match (cause, decided_by) {
        (EndCause::NoDiceLeft, _) => "no_dice_left",
        (EndCause::NoAttacksLeft, Decider::MoreDice) => "more_dice",
        (EndCause::NoAttacksLeft, Decider::HigherPipSum) => "higher_pip_sum",
        (EndCause::NoAttacksLeft, Decider::FirstTurn) => "tiebreak_first_turn",
        (EndCause::NoAttacksLeft, Decider::OccupationStarter) => "tiebreak_occupation_starter",
    }
}
