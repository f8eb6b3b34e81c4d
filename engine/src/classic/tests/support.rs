//! Shared helpers for classic's tests: staged positions and whole games played by the biased
//! policy.

use crate::classic::policy;
use crate::classic::{Action, Card, Classic, ClassicOptions, Dice, Event, Phase, SetupMode};
use crate::core::{Ruleset, Seat};
use crate::rng::{MatchRng, Seed};

/// Options for a quick (random setup) match.
pub fn quick() -> ClassicOptions {
    ClassicOptions {
        setup: SetupMode::Random,
        ..ClassicOptions::default()
    }
}

/// A match of `seats` in which seat 0 is at the attack step of its turn, territory `t` held by
/// seat `t % seats` with 3 units, nobody holding cards. Tests then adjust fields directly.
pub fn staged(seats: u8) -> Classic {
    let (mut s, _) = Classic::new(&quick(), seats, Seed::from_u64(1)).expect("valid setup");
    for t in 0..42 {
        s.owner[t] = (t % usize::from(seats)) as u8;
        s.units[t] = 3;
    }
    s.current = 0;
    s.phase = Phase::Attack;
    s.reserve = 0;
    s
}

/// Gives every territory in `territories` to `seat` with `units` each.
pub fn give(s: &mut Classic, seat: u8, territories: &[u8], units: u32) {
    for &t in territories {
        s.owner[usize::from(t)] = seat;
        s.units[usize::from(t)] = units;
    }
}

/// `Action::Attack` from `from` to `to` with `dice` dice.
pub fn attack(from: u8, to: u8, dice: u8) -> Action {
    Action::Attack { from, to, dice }
}

/// `Action::Place` of `units` on `territory`.
pub fn place(territory: u8, units: u32) -> Action {
    Action::Place { territory, units }
}

/// `Action::Trade` of the cards numbered `cards`, with the bonus on `bonus` if any.
pub fn trade(cards: [u8; 3], bonus: Option<u8>) -> Action {
    Action::Trade {
        cards: cards.map(Card),
        bonus,
    }
}

/// `Action::Fortify` of `units` from `from` to `to`.
pub fn fortify(from: u8, to: u8, units: u32) -> Action {
    Action::Fortify { from, to, units }
}

/// The battle that `events` start with: the attacker's and the defender's dice, then their
/// losses.
pub fn first_battle(events: &[Event]) -> (Dice, Dice, u32, u32) {
    match events.first() {
        Some(Event::Battle {
            attacker_dice,
            defender_dice,
            attacker_losses,
            defender_losses,
            ..
        }) => (
            *attacker_dice,
            *defender_dice,
            *attacker_losses,
            *defender_losses,
        ),
        other => panic!("not a battle: {other:?}"),
    }
}

/// Applies an action that must be accepted, returning its events.
pub fn ok(s: &mut Classic, seat: u8, action: Action) -> Vec<Event> {
    match s.play(Seat(seat), &action) {
        Ok(events) => events,
        Err(e) => panic!("{action:?} by seat {seat} refused: {e} ({s:?})"),
    }
}

/// Applies an action that must be refused with `code`, and checks nothing changed.
pub fn refused(s: &mut Classic, seat: u8, action: Action, code: &str) {
    use crate::core::RuleError;
    let before = s.clone();
    let mut events = Vec::new();
    match s.apply(Seat(seat), &action, &mut events) {
        Ok(()) => panic!("{action:?} by seat {seat} was accepted"),
        Err(e) => {
            assert_eq!(e.code(), code, "{action:?}: {e}");
            assert!(!e.to_string().is_empty());
        }
    }
    assert!(events.is_empty());
    assert_eq!(*s, before, "a refused action changed the state");
}

/// Plays a whole game with the biased policy, calling `step` after each action with the state
/// before, the seat, the action, the state after and the events. Returns the final state and
/// the number of actions.
pub fn play_game(
    options: &ClassicOptions,
    seats: u8,
    seed: u64,
    max_actions: usize,
    mut step: impl FnMut(&Classic, Seat, &Action, &Classic, &[Event]),
) -> (Classic, usize) {
    let (mut s, _) = Classic::new(options, seats, Seed::from_u64(seed)).expect("valid setup");
    let mut chooser = MatchRng::new(Seed::from_u64(seed ^ 0xdead_beef));
    let mut legal = Vec::new();
    let mut count = 0;
    while let Some(seat) = s.to_act() {
        legal.clear();
        s.legal_actions(&mut legal);
        assert!(!legal.is_empty(), "no legal action in {s:?}");
        let action = legal[policy::choose(&s, &legal, &mut chooser)];
        let before = s.clone();
        let events = s.play(seat, &action).expect("a listed action is accepted");
        step(&before, seat, &action, &s, &events);
        count += 1;
        assert!(
            count <= max_actions,
            "game did not end in {max_actions} actions: turn {} phase {:?} reserve {} units {:?} owner {:?} sets {}",
            s.turn,
            s.phase,
            s.reserve,
            s.units,
            s.owner,
            s.sets_traded
        );
    }
    (s, count)
}
