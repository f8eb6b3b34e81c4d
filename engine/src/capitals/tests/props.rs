//! Property tests over random legal 2–4 player games: the invariants of C-UNIT-1, C-ORD-1,
//! C-ORD-2, replay equality (G-RNG-1), atomic refusals and "listed ⇒ accepted".

use proptest::prelude::*;

use super::super::{Action, Capitals, Event, ORDERS_PER_TURN, Options, Path, Selection};
use crate::core::{Ruleset, Seat};
use crate::replay::replay;
use crate::rng::Seed;

/// Steps per random game: enough for several rounds, few enough to keep the suite fast.
const STEPS: usize = 160;

/// Any action value at all, mostly nonsense: unknown areas, long paths, huge selections.
fn arbitrary_action() -> impl Strategy<Value = Action> {
    let area = prop_oneof![4 => 0u16..70, 1 => any::<u16>()];
    let count = || prop_oneof![4 => 0u8..12, 1 => any::<u8>()];
    let selection = (count(), count()).prop_map(|(d6, d8)| Selection::new(d6, d8));
    prop_oneof![
        Just(Action::EndTurn),
        (area.clone(), area.clone(), selection.clone())
            .prop_map(|(from, to, units)| Action::Transport { from, to, units }),
        (prop::collection::vec(area, 0..=Path::MAX_STORED), selection).prop_map(
            |(areas, units)| Action::Attack {
                path: Path::new(&areas).expect("short"),
                units
            }
        ),
    ]
}

/// Invariants that hold after every action.
fn check_invariants(game: &Capitals) {
    for (a, area) in game.areas().iter().enumerate() {
        assert!(area.units.total() <= 10, "area {a} above 10");
        if area.owner.is_some() {
            assert!(area.units.total() >= 1, "owned area {a} is empty");
        }
        if let Some(owner) = area.owner {
            assert!(!game.is_eliminated(owner), "eliminated seat owns area {a}");
        }
    }
    assert!(game.orders_given() <= ORDERS_PER_TURN);
}

/// Checks an order's units were unused in the source before it, and that a transport marks
/// them used in the target: used units never act twice in a round (C-ORD-2).
fn check_used_marks(before: &Capitals, after: &Capitals, action: &Action, events: &[Event]) {
    let (from, units) = match *action {
        Action::Transport { from, units, .. } => (from, units),
        Action::Attack { path, units } => (path.areas()[0], units),
        Action::EndTurn => return,
    };
    let source = before.area(from).expect("source").units;
    assert!(source.d6 >= units.d6 && source.d8 >= units.d8);
    let after_source = after.area(from).expect("source").units;
    assert_eq!(after_source.d6, source.d6 - units.d6);
    assert_eq!(after_source.d8, source.d8 - units.d8);
    if let Action::Transport { to, .. } = *action {
        let (t0, t1) = (
            before.area(to).expect("t").units,
            after.area(to).expect("t").units,
        );
        assert_eq!(t1.d6_used, t0.d6_used + units.d6);
        assert_eq!(t1.d8_used, t0.d8_used + units.d8);
    }
    assert!(!events.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant_and_replay_exactly(
        seats in 2u8..=4,
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<u32>(), STEPS),
    ) {
        let options = Options::default();
        let (mut game, setup_events) = Capitals::new(&options, seats, Seed::from_u64(seed)).expect("setup");
        let mut record: Vec<(Seat, Action)> = Vec::new();
        let mut live_events = Vec::new();
        let mut listed = Vec::new();
        for pick in picks {
            let Some(seat) = game.to_act() else { break };
            listed.clear();
            game.legal_actions(&mut listed);
            prop_assert!(listed.contains(&Action::EndTurn));
            // Every listed action is accepted (checked on clones: listed ⇒ accepted).
            for action in listed.iter().step_by(7) {
                prop_assert!(game.clone().play(seat, action).is_ok(), "{action:?} listed but refused");
            }
            // Prefer orders so the game moves; end the turn one time in eight.
            let orders: Vec<&Action> = listed.iter().filter(|a| **a != Action::EndTurn).collect();
            let action = if orders.is_empty() || pick % 8 == 0 {
                Action::EndTurn
            } else {
                *orders[(pick as usize / 8) % orders.len()]
            };
            let before = game.clone();
            let events = game.play(seat, &action).expect("a listed action is legal");
            check_invariants(&game);
            check_used_marks(&before, &game, &action, &events);
            record.push((seat, action));
            live_events.push(events);
        }
        let replayed = replay::<Capitals>(
            &options,
            seats,
            Seed::from_u64(seed),
            record.iter().map(|(s, a)| (*s, a)),
        ).expect("replay");
        prop_assert_eq!(&replayed.state, &game);
        prop_assert_eq!(replayed.setup_events, setup_events);
        prop_assert_eq!(replayed.action_events, live_events);
    }

    #[test]
    fn arbitrary_actions_are_atomic_and_refusals_are_never_listed(
        seats in 2u8..=4,
        seed in any::<u64>(),
        warmup in prop::collection::vec(any::<u32>(), 0..60),
        probes in prop::collection::vec((0u8..6, arbitrary_action()), 40),
    ) {
        let (mut game, _) = Capitals::new(&Options::default(), seats, Seed::from_u64(seed)).expect("setup");
        let mut listed = Vec::new();
        for pick in warmup {
            let Some(seat) = game.to_act() else { break };
            listed.clear();
            game.legal_actions(&mut listed);
            let action = listed[pick as usize % listed.len()];
            game.play(seat, &action).expect("listed");
        }
        listed.clear();
        game.legal_actions(&mut listed);
        for (seat, action) in probes {
            let mut copy = game.clone();
            let mut events = Vec::new();
            match copy.apply(Seat(seat), &action, &mut events) {
                Err(_) => {
                    prop_assert_eq!(&copy, &game, "a refused action changed the state");
                    prop_assert!(events.is_empty());
                    prop_assert!(
                        !(Some(Seat(seat)) == game.to_act() && listed.contains(&action)),
                        "{:?} refused but listed", action
                    );
                }
                Ok(()) => {
                    prop_assert_eq!(Some(Seat(seat)), game.to_act());
                    check_invariants(&copy);
                }
            }
        }
        // Every listed action is accepted.
        if let Some(seat) = game.to_act() {
            for action in &listed {
                prop_assert!(game.clone().play(seat, action).is_ok(), "{:?}", action);
            }
        }
    }
}

#[test]
fn c_unit_1_random_games_never_exceed_ten_units_in_an_area() {
    // A deterministic long game on each seat count, as a quick regression for C-UNIT-1.
    for seats in 2..=4 {
        let (mut game, _) =
            Capitals::new(&Options::default(), seats, Seed::from_u64(99)).expect("setup");
        let mut listed = Vec::new();
        for step in 0..600u32 {
            let Some(seat) = game.to_act() else { break };
            listed.clear();
            game.legal_actions(&mut listed);
            let action = listed[(step as usize * 7919) % listed.len()];
            game.play(seat, &action).expect("listed");
            check_invariants(&game);
        }
    }
}
