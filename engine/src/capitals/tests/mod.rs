//! Tests of the capitals ruleset: one or more per rule id of RULES.md (`orders`, `battle`,
//! `turns`), the outside of the ruleset (`api`: options, seat counts, JSON, the view), the map
//! generator's fairness (`maps`), replay pins of fixed seeds (`pinned`) and property tests over
//! random games (`props`). Scenario tests start a real match and then set owners and units directly, so each
//! test shows one rule in isolation.

mod api;
mod battle;
mod maps;
mod orders;
mod pinned;
mod props;
mod turns;

use super::map::{AreaId, AreaKind};
use super::state::Capitals;
use super::units::{Selection, Units};
use super::{Action, Event, Options, Path};
use crate::core::{Ruleset, Seat};
use crate::rng::Seed;

/// A fresh medium-map match.
pub(super) fn start(seats: u8, seed: u64) -> Capitals {
    Capitals::new(&Options::default(), seats, Seed::from_u64(seed))
        .expect("valid setup")
        .0
}

/// Sets an area's owner and units.
pub(super) fn set(game: &mut Capitals, area: AreaId, owner: Option<u8>, units: Units) {
    let state = &mut game.areas[usize::from(area)];
    state.owner = owner.map(Seat);
    state.units = units;
}

/// Makes it `seat`'s turn with no order given yet (without production).
pub(super) fn turn_of(game: &mut Capitals, seat: u8) {
    game.current = Seat(seat);
    game.orders = 0;
}

/// Seat `by` takes seat `of`'s capital, on `by`'s turn: 9 of the 10 d8 set in the area on the
/// capital's `side`-th border attack its one d6. The capital, that area and the attack's events.
pub(super) fn take_capital(
    game: &mut Capitals,
    by: u8,
    of: u8,
    side: usize,
) -> (AreaId, AreaId, Vec<Event>) {
    let capital = game.map.capitals[usize::from(of)];
    let from = game.map.areas[usize::from(capital)].borders[side];
    set(game, from, Some(by), units(0, 10));
    set(game, capital, Some(of), units(1, 0));
    turn_of(game, by);
    let events = game
        .play(Seat(by), &attack(&[from, capital], 0, 9))
        .expect("attack");
    (capital, from, events)
}

/// Unused units: `d6` d6 and `d8` d8.
pub(super) fn units(d6: u8, d8: u8) -> Units {
    Units {
        d6,
        d8,
        ..Units::default()
    }
}

/// An attack along `path` with `d6` d6 and `d8` d8.
/// `d6` fresh d6 and `d6_used` d6 that acted this round.
pub(super) fn partly_used_d6(d6: u8, d6_used: u8) -> Units {
    Units {
        d6,
        d6_used,
        ..Units::default()
    }
}

/// Seat 0 to act in a two-player game of `seed` whose first plain path of one step runs from
/// `from` (seat 0's, with `from_units`) to `to` (`to_owner`'s, with `to_units`).
pub(super) fn two_areas(
    seed: u64,
    from_units: Units,
    to_owner: Option<u8>,
    to_units: Units,
) -> (Capitals, AreaId, AreaId) {
    let mut game = start(2, seed);
    let path = plain_path(&game, 1);
    let (from, to) = (path[0], path[1]);
    set(&mut game, from, Some(0), from_units);
    set(&mut game, to, to_owner, to_units);
    turn_of(&mut game, 0);
    (game, from, to)
}

pub(super) fn attack(path: &[AreaId], d6: u8, d8: u8) -> Action {
    Action::Attack {
        path: Path::new(path).expect("short path"),
        units: Selection::new(d6, d8),
    }
}

/// A transport of `d6` d6 and `d8` d8.
pub(super) fn transport(from: AreaId, to: AreaId, d6: u8, d8: u8) -> Action {
    Action::Transport {
        from,
        to,
        units: Selection::new(d6, d8),
    }
}

/// The areas of `kind` built for `seat`.
pub(super) fn homes(game: &Capitals, seat: u8, kind: AreaKind) -> Vec<AreaId> {
    (0..game.map.len() as AreaId)
        .filter(|&a| {
            let area = &game.map.areas[usize::from(a)];
            area.kind == kind && area.home == Some(seat)
        })
        .collect()
}

/// Every plain area (never a capital's neighbour: capitals border only their factories).
pub(super) fn plain_areas(game: &Capitals) -> Vec<AreaId> {
    (0..game.map.len() as AreaId)
        .filter(|&a| game.map.areas[usize::from(a)].kind == AreaKind::Plain)
        .collect()
}

/// A simple path of `steps` steps through plain areas only, none of its ends bordering the
/// other, so ownership can be set freely without touching capitals.
pub(super) fn plain_path(game: &Capitals, steps: usize) -> Vec<AreaId> {
    let plain = plain_areas(game);
    let mut stack: Vec<Vec<AreaId>> = plain.iter().map(|&a| vec![a]).collect();
    while let Some(path) = stack.pop() {
        if path.len() == steps + 1 {
            let (s, t) = (path[0], path[steps]);
            if steps == 1 || !game.map.borders(s, t) {
                return path;
            }
            continue;
        }
        let last = *path.last().expect("non-empty");
        for &b in &game.map.areas[usize::from(last)].borders {
            if plain.contains(&b) && !path.contains(&b) {
                let mut next = path.clone();
                next.push(b);
                stack.push(next);
            }
        }
    }
    panic!("no plain path of {steps} steps");
}

/// The `DieRolled` events of one side: (die, rolled, counted).
pub(super) fn dice(events: &[Event], side: super::Side) -> Vec<(super::Die, u8, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::DieRolled {
                side: s,
                die,
                rolled,
                counted,
            } if s == side => Some((die, rolled, counted)),
            _ => None,
        })
        .collect()
}

/// Applies an action that must be refused and checks that nothing changed (G-TURN-1 and the
/// atomicity contract); returns the error code.
#[track_caller]
pub(super) fn refused(game: &Capitals, seat: u8, action: &Action) -> &'static str {
    use crate::core::RuleError;
    let mut copy = game.clone();
    let mut events = Vec::new();
    let error = copy
        .apply(Seat(seat), action, &mut events)
        .expect_err("the action must be refused");
    assert_eq!(&copy, game, "a refused action changed the state");
    assert!(events.is_empty());
    assert!(!error.to_string().is_empty());
    error.code()
}
