//! [`Engine<R>`]: the one generic implementation of [`Rules`] for every ruleset.

use std::marker::PhantomData;

use serde_json::{Map, Value};
use warroom_engine::{Ruleset, Seed, Viewer};
use warroom_protocol::patch::typed::ViewPatch;
use warroom_protocol::verify::{VerifyReport, verify};
use warroom_protocol::{Replay, ReplayAction, SeatRange, codes};

use super::replay_views::step_patches;
use super::runner_impl::Runner;
use super::{MatchRunner, Rules, from_json, to_json};
use crate::error::RoomError;
use crate::records::{ActionRecord, MatchRecord};

/// The ruleset `R` behind the [`Rules`] object.
pub struct Engine<R>(PhantomData<fn() -> R>);

impl<R: Ruleset> Engine<R> {
    /// The (stateless) implementation for `R`.
    pub const NEW: Engine<R> = Engine(PhantomData);
}

/// Parses stored or checked options; they were checked when the room was created.
pub(super) fn parse_options<R: Ruleset>(options: &Value) -> Result<R::Options, RoomError> {
    from_json(options, codes::INVALID_OPTIONS, "options object")
}

/// Turns a setup error into an API error with the ruleset's code.
fn setup_error(error: warroom_engine::SetupError) -> RoomError {
    RoomError::bad_request(error.code, error.message)
}

impl<R: warroom_engine::Bot + ViewPatch + 'static> Rules for Engine<R> {
    fn id(&self) -> warroom_engine::RulesetId {
        R::ID
    }

    fn seat_range(&self) -> SeatRange {
        let range = R::seat_counts();
        SeatRange {
            min: *range.start(),
            max: *range.end(),
        }
    }

    fn default_options(&self) -> Value {
        to_json(&R::Options::default())
    }

    fn check_options(&self, options: Option<&Value>, seats: u8) -> Result<Value, RoomError> {
        let mut merged = match self.default_options() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        match options {
            None | Some(Value::Null) => {}
            Some(Value::Object(given)) => {
                // Merging over the defaults gives "missing fields take defaults" whatever the
                // ruleset's serde attributes; a key the defaults lack is not an option at all.
                if let Some(unknown) = given.keys().find(|key| !merged.contains_key(*key)) {
                    return Err(RoomError::bad_request(
                        codes::INVALID_OPTIONS,
                        format!("{} has no option {unknown:?}", R::ID),
                    ));
                }
                for (key, value) in given {
                    merged.insert(key.clone(), value.clone());
                }
            }
            Some(_) => {
                return Err(RoomError::bad_request(
                    codes::INVALID_OPTIONS,
                    "options must be a JSON object",
                ));
            }
        }
        let parsed = parse_options::<R>(&Value::Object(merged))?;
        R::check_options(&parsed, seats).map_err(setup_error)?;
        Ok(to_json(&parsed))
    }

    fn start(
        &self,
        options: &Value,
        seats: u8,
        seed: Seed,
    ) -> Result<Box<dyn MatchRunner>, RoomError> {
        let options = parse_options::<R>(options)?;
        let runner = Runner::<R>::start(&options, seats, seed).map_err(setup_error)?;
        Ok(Box::new(runner))
    }

    fn rebuild(
        &self,
        options: &Value,
        seats: u8,
        seed: Seed,
        actions: &[ActionRecord],
    ) -> Result<Box<dyn MatchRunner>, RoomError> {
        let options = parse_options::<R>(options)?;
        let mut runner = Runner::<R>::start(&options, seats, seed).map_err(setup_error)?;
        for record in actions {
            runner
                .apply_logged(record.seat, &record.action, record.by)
                .map_err(|error| {
                    RoomError::internal(format!(
                        "stored action #{} is refused on rebuild: {error}",
                        record.seq
                    ))
                })?;
        }
        Ok(Box::new(runner))
    }

    fn replay(
        &self,
        record: &MatchRecord,
        actions: &[ActionRecord],
        viewer: Viewer,
    ) -> Result<Replay, RoomError> {
        let options = parse_options::<R>(&record.options)?;
        let seed: Seed = record.seed.parse().map_err(RoomError::internal)?;
        let seats = u8::try_from(record.seats.len()).map_err(RoomError::internal)?;
        let (initial, setup_events) = R::new(&options, seats, seed).map_err(setup_error)?;
        let redact = |event: &Value| -> Result<Value, RoomError> {
            let typed: R::Event =
                serde_json::from_value(event.clone()).map_err(RoomError::internal)?;
            Ok(to_json(&R::redact_event(&typed, viewer)))
        };
        let initial_view = to_json(&initial.view(viewer));
        let patches = step_patches(initial, seats, actions, viewer)?;
        let mut replay_actions = Vec::with_capacity(actions.len());
        for (action, patch) in actions.iter().zip(patches) {
            replay_actions.push(ReplayAction {
                seq: action.seq,
                seat: action.seat,
                by: action.by,
                action: action.action.clone(),
                events: action.events.iter().map(redact).collect::<Result<_, _>>()?,
                patch: Some(patch),
            });
        }
        let finished = record.outcome.is_some();
        Ok(Replay {
            match_id: record.id,
            ruleset: R::ID,
            options: record.options.clone(),
            seats: record
                .seats
                .iter()
                .enumerate()
                .map(|(seat, player)| warroom_protocol::MatchSeat {
                    seat: warroom_engine::Seat(u8::try_from(seat).unwrap_or(u8::MAX)),
                    player: player.clone(),
                })
                .collect(),
            viewer,
            seed_commitment: record.seed_commitment.clone(),
            seed: finished.then(|| record.seed.clone()),
            initial_view,
            setup_events: setup_events
                .iter()
                .map(|event| to_json(&R::redact_event(event, viewer)))
                .collect(),
            actions: replay_actions,
            outcome: record.outcome.clone(),
            // The chat is the store's, not the engine's: the replay endpoint adds it.
            chat: Vec::new(),
            rated: record.rated,
            ratings: record.ratings.clone(),
        })
    }

    fn verify(&self, replay: &Replay) -> VerifyReport {
        verify::<R>(replay)
    }
}
