//! The contract every ruleset implements, and the small types it speaks in (seats, viewers,
//! outcomes, errors).

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::rng::Seed;

/// A seat at the table, numbered from 0 in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat number as an index into per-seat arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat at an index into per-seat arrays (saturating: no ruleset seats 256 players).
    pub fn from_index(index: usize) -> Seat {
        Seat(u8::try_from(index).unwrap_or(u8::MAX))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Seat {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(Seat)
    }
}

/// Who is looking at a match: one seat (which may see its own hidden information) or a spectator
/// (who sees only what is public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A player, who sees their own hidden information.
    Seat(Seat),
    /// Anyone else: sees only public information.
    Spectator,
}

impl Viewer {
    /// True when this viewer may see the hidden information of `seat`.
    pub fn sees_private_of(self, seat: Seat) -> bool {
        self == Viewer::Seat(seat)
    }
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The seat that won.
    pub winner: Seat,
    /// A stable snake_case code saying why the match ended (e.g. `no_attacks_left`).
    pub reason: String,
}

/// A rule error: every error a player's action can cause has a stable machine code (snake_case,
/// never renamed once published) and a readable message (its `Display`).
pub trait RuleError: std::error::Error + Clone + PartialEq + Send + Sync + 'static {
    /// The stable machine code, e.g. `not_your_turn`.
    fn code(&self) -> &'static str;

    /// The values the refusal speaks of, by name (cells, areas, seats, counts), so that a client
    /// can word it in its reader's language. Names are stable like codes; none by default.
    fn params(&self) -> Vec<(&'static str, i64)> {
        Vec::new()
    }
}

/// Room options or a seat count that a ruleset cannot start a match with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SetupError {
    /// A stable machine code, e.g. `invalid_board`.
    pub code: &'static str,
    /// What is wrong, for a person.
    pub message: String,
}

impl SetupError {
    /// A setup error with this code and message.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        SetupError {
            code,
            message: message.into(),
        }
    }
}

/// One ruleset, implemented by the type that holds a match's whole state (the match's RNG
/// included, so that a refused action cannot advance it).
///
/// Contract, checked by every ruleset's property tests:
/// - [`Ruleset::new`] and [`Ruleset::apply`] draw randomness only from the match's [`Seed`];
/// - `apply` is atomic: on `Err` neither the state nor `events` has changed;
/// - `apply` never panics, whatever the action value and whoever sends it;
/// - every action listed by [`Ruleset::legal_actions`] is accepted by `apply`; hexdice and
///   classic list every action `apply` accepts, capitals a selection (every unit count of every
///   path is too many to list: `capitals/legal.rs` says which), and `apply` accepts the others
///   by the same rules.
///
/// A match from its seed to its end (hexdice here; every ruleset is driven the same way):
///
/// ```
/// use warroom_engine::hexdice::{Hexdice, Options};
/// use warroom_engine::{Ruleset, Seed, Viewer};
///
/// let (mut game, _setup) = Hexdice::new(&Options::default(), 2, Seed::from_u64(7))?;
/// let mut legal = Vec::new();
/// while let Some(seat) = game.to_act() {
///     legal.clear();
///     game.legal_actions(&mut legal);
///     // Every listed action is accepted; here the first one is taken.
///     let events = game.play(seat, &legal[0]).expect("a legal action");
///     assert!(!events.is_empty());
/// }
/// let outcome = game.outcome().expect("a match over has an outcome");
/// // Anyone may watch: the spectators' view names the winner and nobody is to act.
/// let view = game.view(Viewer::Spectator);
/// assert_eq!(view.to_act, None);
/// assert!(outcome.winner.0 < 2);
/// # Ok::<(), warroom_engine::SetupError>(())
/// ```
///
/// An action from a seat not to act is refused, and changes nothing:
///
/// ```
/// use warroom_engine::hexdice::{Hexdice, Options};
/// use warroom_engine::{RuleError, Ruleset, Seat, Seed};
///
/// let (mut game, _) = Hexdice::new(&Options::default(), 2, Seed::from_u64(7))?;
/// let seat = game.to_act().expect("the match runs");
/// let other = Seat(1 - seat.0);
/// let mut legal = Vec::new();
/// game.legal_actions(&mut legal);
/// let before = game.clone();
/// let refused = game.play(other, &legal[0]).expect_err("not their turn");
/// assert_eq!(refused.code(), "not_your_turn");
/// assert_eq!(game, before);
/// # Ok::<(), warroom_engine::SetupError>(())
/// ```
pub trait Ruleset: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// Which ruleset this is.
    const ID: RulesetId;
    /// Room options (rule variants, board choice); `Default` gives the documented defaults.
    type Options: Clone
        + Default
        + fmt::Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// What a seat can do.
    type Action: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What happened, every die rolled included. Applying the same actions yields the same events.
    type Event: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// Why an action was refused.
    type Error: RuleError;
    /// What one viewer may see of the state.
    type View: Clone + fmt::Debug + Serialize + Send + Sync;
    /// True when nothing but the seed is hidden: [`Ruleset::view`] gives every viewer the same
    /// view and [`Ruleset::redact_event`] every viewer the same events, so a server may write
    /// them once for everyone. Each ruleset that says so checks it in its tests.
    const SAME_FOR_EVERY_VIEWER: bool = false;

    /// The seat counts this ruleset can be played with.
    fn seat_counts() -> RangeInclusive<u8>;

    /// Checks options and seat count without starting a match (for the lobby).
    fn check_options(options: &Self::Options, seats: u8) -> Result<(), SetupError>;

    /// Starts a match. The returned events are what setup did (e.g. the opening dice rolls).
    fn new(
        options: &Self::Options,
        seats: u8,
        seed: Seed,
    ) -> Result<(Self, Vec<Self::Event>), SetupError>;

    /// Applies one action of `seat`, pushing the events it caused onto `events`.
    /// Atomic: on `Err` neither `self` nor `events` changes.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error>;

    /// The seat whose decision the match is waiting for, or `None` once it is over.
    fn to_act(&self) -> Option<Seat>;

    /// Every action the seat to act may take now, appended to `out`. Empty once the match is over.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// The action taken for the seat to act when its clock runs out (`None` once over).
    fn timeout_action(&self) -> Option<Self::Action>;

    /// What `viewer` may see of the match.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// [`Ruleset::view`] for a writer that leaves out what never changes during a match (the
    /// board's shapes, and classic's borders and continents; a server sends them once, with the
    /// match's first view): those may be left empty here, so they are not built again for every
    /// action. Everything else is as [`Ruleset::view`] gives it.
    fn dynamic_view(&self, viewer: Viewer) -> Self::View {
        self.view(viewer)
    }

    /// The copy of `event` that `viewer` may see (hidden information removed).
    fn redact_event(event: &Self::Event, viewer: Viewer) -> Self::Event {
        let _ = viewer;
        event.clone()
    }

    /// How the match ended, once it has.
    fn outcome(&self) -> Option<Outcome>;

    /// True once `seat` is out of the match (eliminated) while others play on: what a
    /// finishing order is read from (the server's ratings). A duel has no such moment (its
    /// loser is out when it ends), hence the default.
    fn is_out(&self, seat: Seat) -> bool {
        let _ = seat;
        false
    }

    /// Convenience over [`Ruleset::apply`] that returns the events in a fresh vector.
    fn play(&mut self, seat: Seat, action: &Self::Action) -> Result<Vec<Self::Event>, Self::Error> {
        let mut events = Vec::new();
        self.apply(seat, action, &mut events)?;
        Ok(events)
    }
}

/// The rulesets the engine knows; the server dispatches on this enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RulesetId {
    /// Two players, dice as units on 8–36 hex cells.
    Hexdice,
    /// 2–4 players, capitals, factories, neutral land.
    Capitals,
    /// 3–6 players, the classic 42-territory world-conquest game with cards.
    Classic,
}

impl RulesetId {
    /// Every ruleset, in a stable order.
    pub const ALL: [RulesetId; 3] = [RulesetId::Hexdice, RulesetId::Capitals, RulesetId::Classic];

    /// The stable identifier used on the wire and in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            RulesetId::Hexdice => "hexdice",
            RulesetId::Capitals => "capitals",
            RulesetId::Classic => "classic",
        }
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A ruleset name that the engine does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?}: expected hexdice, capitals or classic")]
pub struct UnknownRuleset(pub String);

impl FromStr for RulesetId {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RulesetId::ALL
            .into_iter()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| UnknownRuleset(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruleset_ids_round_trip_through_their_names() {
        for id in RulesetId::ALL {
            assert_eq!(id.as_str().parse::<RulesetId>(), Ok(id));
            assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{id}\""));
        }
        assert!("chess".parse::<RulesetId>().is_err());
    }

    #[test]
    fn a_seat_sees_only_its_own_private_information() {
        assert!(Viewer::Seat(Seat(1)).sees_private_of(Seat(1)));
        assert!(!Viewer::Seat(Seat(0)).sees_private_of(Seat(1)));
        assert!(!Viewer::Spectator.sees_private_of(Seat(0)));
    }

    /// Plays a random match and checks, after every action, that every seat and a spectator
    /// get the same view and events (as JSON) exactly when the ruleset says so.
    fn same_for_every_viewer_holds<R: Ruleset>(seats: u8, seed: u64, steps: usize) {
        let (mut state, _) = R::new(&Default::default(), seats, Seed::from_u64(seed)).unwrap();
        let mut rng = crate::BotRng::new(seed);
        let viewers: Vec<Viewer> = (0..seats)
            .map(|seat| Viewer::Seat(Seat(seat)))
            .chain([Viewer::Spectator])
            .collect();
        let mut differed = false;
        for _ in 0..steps {
            let Some(seat) = state.to_act() else { break };
            let action = crate::random_legal(&state, &mut rng).unwrap();
            let events = state.play(seat, &action).unwrap();
            let seen: Vec<String> = viewers
                .iter()
                .map(|&viewer| {
                    let events: Vec<R::Event> = events
                        .iter()
                        .map(|event| R::redact_event(event, viewer))
                        .collect();
                    serde_json::to_string(&(state.view(viewer), events)).unwrap()
                })
                .collect();
            differed |= seen.iter().any(|one| *one != seen[0]);
            if R::SAME_FOR_EVERY_VIEWER {
                assert!(!differed, "{} said the same for every viewer", R::ID);
            }
        }
        assert!(
            R::SAME_FOR_EVERY_VIEWER || differed,
            "{} hides something from some viewer in this match",
            R::ID
        );
    }

    #[test]
    fn rulesets_that_hide_nothing_give_every_viewer_the_same_view_and_events() {
        same_for_every_viewer_holds::<crate::hexdice::Hexdice>(2, 1, 300);
        same_for_every_viewer_holds::<crate::capitals::Capitals>(4, 2, 300);
        same_for_every_viewer_holds::<crate::classic::Classic>(3, 3, 300);
    }
}
