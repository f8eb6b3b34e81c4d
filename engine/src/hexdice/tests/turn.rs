//! H-TURN-1..3, H-MOVE-1..3 and G-TURN-1: the shape of a turn, the optional move and its
//! restrictions, and refusals out of turn.

use super::fixture::{legal, play, position, refuse, small};
use crate::core::{RuleError, Ruleset, Seat, Viewer};
use crate::hexdice::state::Phase;
use crate::hexdice::{Action, Conquest, Event, Hexdice, Options, PhaseView};
use crate::rng::Seed;

fn step(from: u8, to: u8) -> Action {
    Action::Move { from, to }
}

#[test]
fn h_turn_1_a_turn_is_an_attack_phase_then_a_move_phase() {
    let mut state = position(small(), &[(0, 0, 6), (1, 1, 6), (9, 1, 6)], 0, &[1]);
    assert_eq!(state.phase, Phase::Attack { seat: Seat(0) });
    assert_eq!(refuse(&mut state, 0, step(0, 5)).code(), "wrong_phase");
    play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    assert_eq!(
        state.view(Viewer::Spectator).phase,
        PhaseView::Move {
            seat: Seat(0),
            conqueror: None
        }
    );
    assert_eq!(
        refuse(&mut state, 0, Action::Attack { from: 0, target: 1 }).code(),
        "wrong_phase"
    );
    let events = play(&mut state, 0, Action::EndTurn);
    assert_eq!(
        events,
        vec![
            Event::MoveSkipped { seat: Seat(0) },
            Event::TurnStarted {
                seat: Seat(1),
                turn: 2
            }
        ]
    );
    assert_eq!(state.phase, Phase::Attack { seat: Seat(1) });
}

#[test]
fn h_turn_2_the_attack_is_mandatory_when_one_is_possible() {
    let mut state = position(small(), &[(0, 0, 6), (4, 0, 2), (1, 1, 6)], 0, &[1]);
    assert_eq!(refuse(&mut state, 0, Action::EndTurn).code(), "wrong_phase");
    assert_eq!(refuse(&mut state, 0, step(4, 3)).code(), "wrong_phase");
    assert!(
        legal(&state)
            .iter()
            .all(|a| matches!(a, Action::Attack { .. }))
    );
}

#[test]
fn h_turn_2_without_a_legal_attack_the_phase_is_skipped_and_recorded() {
    // Seat 0 on cell 0, seat 1 on cell 2: not in contact; seat 1 ends its turn.
    let mut state = position(small(), &[(0, 0, 5), (2, 1, 5)], 1, &[1]);
    let events = play(&mut state, 1, Action::EndTurn);
    assert_eq!(
        events[1..],
        [
            Event::TurnStarted {
                seat: Seat(0),
                turn: 2
            },
            Event::CouldNotAttack { seat: Seat(0) }
        ]
    );
    assert_eq!(
        state.phase,
        Phase::Move {
            seat: Seat(0),
            conqueror: None
        }
    );
    // H-MOVE-3: moving into contact is allowed; then seat 1 must attack.
    play(&mut state, 0, step(0, 1));
    assert_eq!(state.phase, Phase::Attack { seat: Seat(1) });
    assert!(
        !state.previous_could_not_attack,
        "seat 1's turn could attack"
    );
}

#[test]
fn h_turn_3_at_most_one_move_and_it_ends_the_turn() {
    let mut state = position(
        small(),
        &[(0, 0, 5), (4, 0, 5), (2, 1, 5), (9, 1, 3)],
        1,
        &[1],
    );
    state.phase = Phase::Move {
        seat: Seat(0),
        conqueror: None,
    };
    let events = play(&mut state, 0, step(0, 5));
    assert_eq!(
        events[0],
        Event::Moved {
            seat: Seat(0),
            from: 0,
            to: 5
        }
    );
    assert_eq!(state.to_act(), Some(Seat(1)));
    assert_eq!(refuse(&mut state, 0, step(5, 0)).code(), "not_your_turn");
    assert_eq!(legal(&state)[0], Action::Attack { from: 9, target: 4 });
}

#[test]
fn h_move_1_a_die_steps_to_an_adjacent_empty_cell() {
    let mut state = position(small(), &[(0, 0, 5), (3, 1, 5), (9, 1, 2)], 0, &[1]);
    assert!(matches!(state.phase, Phase::Move { .. }));
    assert_eq!(refuse(&mut state, 0, step(0, 2)).code(), "not_adjacent");
    assert_eq!(refuse(&mut state, 0, step(0, 0)).code(), "cell_occupied");
    assert_eq!(refuse(&mut state, 0, step(5, 6)).code(), "not_your_die");
    assert_eq!(refuse(&mut state, 0, step(3, 2)).code(), "not_your_die");
    assert_eq!(refuse(&mut state, 0, step(0, 10)).code(), "no_such_cell");
    assert_eq!(refuse(&mut state, 0, step(0, 255)).code(), "no_such_cell");
    let mut moves = legal(&state);
    assert_eq!(moves.remove(0), Action::EndTurn);
    assert_eq!(moves, vec![step(0, 1), step(0, 5)]);
    play(&mut state, 0, step(0, 1));
    assert_eq!(state.face_at(1), 5);
    assert!(state.holds(Seat(0), 1) && !state.holds(Seat(0), 0));
}

#[test]
fn h_move_2_the_conqueror_may_not_move_this_turn() {
    // 4 on cell 0 rolls 3 against a 2 on cell 1 and moves in; seat 0's die on 9 is free.
    let dice = [(0, 0, 4), (9, 0, 3), (1, 1, 2), (3, 1, 5)];
    let mut state = position(small(), &dice, 0, &[3]);
    play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    assert_eq!(
        refuse(&mut state, 0, step(1, 0)).code(),
        "die_just_conquered"
    );
    assert!(!legal(&state).contains(&step(1, 0)));
    play(&mut state, 0, step(9, 8));
}

#[test]
fn h_move_2_under_optional_conquest_a_die_that_stayed_may_move() {
    let options = Options {
        conquest: Conquest::Optional,
        ..small()
    };
    let dice = [(0, 0, 4), (9, 0, 3), (1, 1, 2), (3, 1, 5)];
    let mut state = position(options, &dice, 0, &[3]);
    play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    play(&mut state, 0, Action::Conquer { move_in: false });
    play(&mut state, 0, step(0, 1));
    assert_eq!(state.face_at(1), 3);
}

#[test]
fn h_move_3_a_die_in_contact_may_not_move_away() {
    let dice = [(0, 0, 4), (9, 0, 3), (1, 1, 2), (3, 1, 5)];
    let mut state = position(small(), &dice, 0, &[1]);
    state.phase = Phase::Move {
        seat: Seat(0),
        conqueror: None,
    };
    assert_eq!(refuse(&mut state, 0, step(0, 5)).code(), "die_in_contact");
    assert!(
        legal(&state)
            .iter()
            .all(|a| !matches!(a, Action::Move { from: 0, .. }))
    );
    // Moving next to an enemy is what moves are for.
    play(&mut state, 0, step(9, 4));
    assert!(state.enemies_next_to(Seat(0), 4) != 0);
}

#[test]
fn g_turn_1_only_the_seat_to_act_may_act_and_nothing_changes_otherwise() {
    let mut state = position(small(), &[(0, 0, 6), (1, 1, 6), (9, 1, 6)], 0, &[1]);
    for seat in [1, 2, 255] {
        let error = refuse(&mut state, seat, Action::Attack { from: 0, target: 1 });
        assert_eq!(error.code(), "not_your_turn");
        assert!(error.to_string().contains("seat 0"), "{error}");
        assert_eq!(
            refuse(&mut state, seat, Action::EndTurn).code(),
            "not_your_turn"
        );
    }
}

#[test]
fn g_turn_1_out_of_turn_placements_are_refused() {
    let (mut state, _) = Hexdice::new(&small(), 2, Seed::from_u64(5)).unwrap();
    let other = 1 - state.occupation_starter.0;
    let value = (1..=6u8)
        .find(|&v| state.unplaced[usize::from(other)][usize::from(v - 1)] > 0)
        .unwrap();
    assert_eq!(
        refuse(&mut state, other, Action::Place { cell: 0, value }).code(),
        "not_your_turn"
    );
}

#[test]
fn g_turn_1_nothing_is_accepted_once_the_game_is_over() {
    let mut state = position(small(), &[(0, 0, 6), (1, 1, 1)], 0, &[1]);
    play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    assert_eq!(state.to_act(), None);
    for seat in [0, 1] {
        assert_eq!(
            refuse(&mut state, seat, Action::EndTurn).code(),
            "game_over"
        );
    }
    assert!(legal(&state).is_empty());
    assert_eq!(state.timeout_action(), None);
}

#[test]
fn h_turn_1_the_timeout_action_is_legal_in_every_phase() {
    let options = Options {
        conquest: Conquest::Optional,
        ..small()
    };
    let (mut state, _) = Hexdice::new(&options, 2, Seed::from_u64(2)).unwrap();
    let mut phases = std::collections::BTreeSet::new();
    let mut turns = 0;
    while let Some(seat) = state.to_act() {
        let action = state
            .timeout_action()
            .expect("a pending decision has a default");
        assert!(
            legal(&state).contains(&action),
            "{action:?} in {:?}",
            state.phase
        );
        phases.insert(
            format!("{:?}", state.phase)
                .split(' ')
                .next()
                .unwrap()
                .to_owned(),
        );
        play(&mut state, seat.0, action);
        turns += 1;
        assert!(turns < 10_000);
    }
    assert!(phases.contains("Occupation") && phases.contains("Attack") && phases.contains("Move"));
    // The timeout moves in under optional conquest and skips the move.
    let mut conquest = position(options, &[(0, 0, 4), (1, 1, 2), (9, 1, 6)], 0, &[3]);
    play(&mut conquest, 0, Action::Attack { from: 0, target: 1 });
    assert_eq!(
        conquest.timeout_action(),
        Some(Action::Conquer { move_in: true })
    );
    play(&mut conquest, 0, Action::Conquer { move_in: true });
    assert_eq!(conquest.timeout_action(), Some(Action::EndTurn));
}
