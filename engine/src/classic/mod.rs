//! classic: the 3–6 player world-conquest game on the standard 42-territory map, with 3-vs-2
//! dice battles and territory cards (RULES.md, W-*).
//!
//! Same shape as every ruleset: `state` (the match), `action`, `event`, `error`, `check` (refuses
//! or accepts without changing anything) and `execute` (changes the state, cannot fail), `view`
//! (per-viewer, hidden cards removed), `setup`, `map` (the world), plus `cards`, `options`,
//! `legal` (listed actions and the timeout default) and `policy` (a biased random player).

mod action;
pub(crate) mod cards;
mod check;
mod error;
mod event;
mod execute;
mod legal;
pub mod map;
mod options;
pub mod policy;
mod setup;
pub(crate) mod state;
mod view;

#[cfg(test)]
mod tests;

use std::ops::RangeInclusive;

pub use self::action::Action;
pub use self::cards::{CARD_COUNT, Card, CardFace, is_set, set_value};
pub use self::check::max_attack_dice;
pub use self::error::ClassicError;
pub use self::event::{Dice, Event};
pub use self::execute::battle_losses;
pub use self::options::{ClassicOptions, FortifyMode, SetupMode};
pub use self::setup::starting_units;
pub use self::state::{Classic, Phase, territory_reinforcements};
pub use self::view::{Board, ClassicView, ContinentView, PlayerView, TerritoryView};

use crate::core::{Outcome, Ruleset, RulesetId, Seat, SetupError, Viewer};
use crate::rng::Seed;

impl Ruleset for Classic {
    const ID: RulesetId = RulesetId::Classic;
    type Options = ClassicOptions;
    type Action = Action;
    type Event = Event;
    type Error = ClassicError;
    type View = ClassicView;

    fn seat_counts() -> RangeInclusive<u8> {
        setup::MIN_SEATS..=setup::MAX_SEATS
    }

    fn check_options(options: &ClassicOptions, seats: u8) -> Result<(), SetupError> {
        setup::check_options(options, seats)
    }

    fn new(
        options: &ClassicOptions,
        seats: u8,
        seed: Seed,
    ) -> Result<(Self, Vec<Event>), SetupError> {
        setup::new_match(options, seats, seed)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        check::check(self, seat, action)?;
        self.execute(seat, action, events);
        Ok(())
    }

    fn to_act(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(Seat(self.current))
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out);
    }

    fn timeout_action(&self) -> Option<Action> {
        self.default_action()
    }

    fn view(&self, viewer: Viewer) -> ClassicView {
        self.build_view(viewer, true)
    }

    fn dynamic_view(&self, viewer: Viewer) -> ClassicView {
        self.build_view(viewer, false)
    }

    /// Drawn and taken cards are named only in their new holder's copy (W-CARD-6).
    fn redact_event(event: &Event, viewer: Viewer) -> Event {
        match event {
            Event::CardDrawn { seat, card } if !viewer.sees_private_of(*seat) && card.is_some() => {
                Event::CardDrawn {
                    seat: *seat,
                    card: None,
                }
            }
            Event::CardsTaken {
                from,
                to,
                count,
                cards: Some(_),
            } if !viewer.sees_private_of(*to) => Event::CardsTaken {
                from: *from,
                to: *to,
                count: *count,
                cards: None,
            },
            other => other.clone(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|winner| Outcome {
            winner: Seat(winner),
            reason: "world_conquered".to_owned(),
        })
    }

    fn is_out(&self, seat: Seat) -> bool {
        Classic::is_out(self, seat)
    }
}
