//! H-SETUP-1..5: the opening rolls, the occupation starter, the occupation and the first turn.

use std::cmp::Ordering;

use super::fixture::{legal, occupy, play, refuse, small};
use crate::core::{RuleError, Ruleset, Seat, Viewer};
use crate::hexdice::setup::compare_rolls;
use crate::hexdice::state::Phase;
use crate::hexdice::{Action, Event, Hexdice, PhaseView};
use crate::rng::Seed;

fn rolls_of(events: &[Event]) -> Vec<(Seat, Vec<u8>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SetupRolled { seat, dice } => Some((*seat, dice.clone())),
            _ => None,
        })
        .collect()
}

fn counts(dice: &[u8]) -> [u8; 6] {
    let mut c = [0; 6];
    for &d in dice {
        c[usize::from(d - 1)] += 1;
    }
    c
}

#[test]
fn h_setup_1_each_player_has_half_the_cells_plus_two_dice() {
    let (_, events) = Hexdice::new(&small(), 2, Seed::from_u64(4)).unwrap();
    let rolls = rolls_of(&events);
    assert!(rolls.len() >= 2);
    for (_, dice) in &rolls {
        assert_eq!(dice.len(), 7, "10 cells: 5 + 2 dice");
    }
    for (layout, n) in [
        (crate::hexdice::Layout::Medium, 12),
        (crate::hexdice::Layout::Full, 20),
    ] {
        let options = crate::hexdice::Options {
            board: crate::hexdice::BoardChoice::Layout(layout),
            ..Default::default()
        };
        let (_, events) = Hexdice::new(&options, 2, Seed::from_u64(4)).unwrap();
        assert!(rolls_of(&events).iter().all(|(_, d)| d.len() == n));
    }
}

#[test]
fn h_setup_2_the_rolled_values_are_the_dice_to_place() {
    let (state, events) = Hexdice::new(&small(), 2, Seed::from_u64(8)).unwrap();
    let rolls = rolls_of(&events);
    let last_two = &rolls[rolls.len() - 2..];
    for (seat, dice) in last_two {
        assert!(dice.iter().all(|d| (1..=6).contains(d)));
        assert_eq!(state.unplaced[seat.index()], counts(dice));
        let mut sorted = dice.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(
            state.view(Viewer::Spectator).players[seat.index()].unplaced,
            sorted
        );
    }
}

#[test]
fn h_setup_2_a_die_cannot_change_face_before_it_is_placed() {
    let (mut state, _) = Hexdice::new(&small(), 2, Seed::from_u64(8)).unwrap();
    let Phase::Occupation { seat } = state.phase else {
        panic!("occupation first")
    };
    let missing = (1..=6u8)
        .find(|&v| state.unplaced[seat.index()][usize::from(v - 1)] == 0)
        .unwrap_or(7);
    let error = refuse(
        &mut state,
        seat.0,
        Action::Place {
            cell: 0,
            value: missing,
        },
    );
    assert_eq!(error.code(), "no_such_die");
    for value in [0, 7, 255] {
        assert_eq!(
            refuse(&mut state, seat.0, Action::Place { cell: 0, value }).code(),
            "no_such_die"
        );
    }
}

#[test]
fn h_setup_3_more_sixes_then_fives_and_so_on_start_the_occupation() {
    assert_eq!(
        compare_rolls(&[0, 0, 0, 0, 0, 2], &[6, 0, 0, 0, 0, 1]),
        Ordering::Greater
    );
    assert_eq!(
        compare_rolls(&[3, 0, 0, 0, 1, 1], &[0, 0, 0, 0, 2, 1]),
        Ordering::Less
    );
    assert_eq!(
        compare_rolls(&[1, 2, 0, 0, 1, 1], &[2, 1, 0, 0, 1, 1]),
        Ordering::Greater,
        "down to the 1s: more 2s beats more 1s"
    );
    for seed in 0..50 {
        let (state, events) = Hexdice::new(&small(), 2, Seed::from_u64(seed)).unwrap();
        let rolls = rolls_of(&events);
        let (a, b) = (
            counts(&rolls[rolls.len() - 2].1),
            counts(&rolls[rolls.len() - 1].1),
        );
        let expected = if compare_rolls(&a, &b).is_gt() {
            Seat(0)
        } else {
            Seat(1)
        };
        assert_eq!(state.occupation_starter, expected);
        assert_eq!(
            events.last(),
            Some(&Event::OccupationStarter { seat: expected })
        );
        assert_eq!(state.to_act(), Some(expected));
    }
}

#[test]
fn h_setup_3_identical_rolls_are_rolled_again_and_every_roll_is_recorded() {
    // On the 8-cell board each player rolls 6 dice; find a seed whose first rolls tie.
    let options = crate::hexdice::Options {
        board: crate::hexdice::BoardChoice::Custom(
            (0..8).map(|q| crate::hex::Hex::new(q, 0)).collect(),
        ),
        ..Default::default()
    };
    let (state, events) = (0..200_000)
        .map(|seed| Hexdice::new(&options, 2, Seed::from_u64(seed)).unwrap())
        .find(|(_, events)| events.contains(&Event::SetupRerolled))
        .expect("some seed ties");
    let rolls = rolls_of(&events);
    assert!(rolls.len() >= 4, "two attempts, both recorded");
    assert_eq!(
        counts(&rolls[0].1),
        counts(&rolls[1].1),
        "the first attempt tied"
    );
    assert_eq!(events[2], Event::SetupRerolled);
    let last = rolls.len() - 2;
    assert_ne!(counts(&rolls[last].1), counts(&rolls[last + 1].1));
    assert_eq!(
        state.unplaced[0],
        counts(&rolls[last].1),
        "the last roll counts"
    );
}

#[test]
fn h_setup_4_players_alternate_choosing_face_and_cell_until_the_board_is_full() {
    let (mut state, _) = Hexdice::new(&small(), 2, Seed::from_u64(11)).unwrap();
    let starter = state.occupation_starter;
    let other = Seat(1 - starter.0);
    let value = (1..=6u8)
        .find(|&v| state.unplaced[starter.index()][usize::from(v - 1)] > 0)
        .unwrap();
    // The player picks the face and the cell.
    let events = play(&mut state, starter.0, Action::Place { cell: 7, value });
    assert_eq!(
        events,
        vec![Event::Placed {
            seat: starter,
            cell: 7,
            value
        }]
    );
    assert_eq!(state.face_at(7), value);
    assert_eq!(state.to_act(), Some(other), "alternate");
    assert_eq!(
        refuse(&mut state, starter.0, Action::Place { cell: 1, value }).code(),
        "not_your_turn"
    );
    let other_value = (1..=6u8)
        .find(|&v| state.unplaced[other.index()][usize::from(v - 1)] > 0)
        .unwrap();
    assert_eq!(
        refuse(
            &mut state,
            other.0,
            Action::Place {
                cell: 7,
                value: other_value
            }
        )
        .code(),
        "cell_occupied"
    );
    assert_eq!(
        refuse(
            &mut state,
            other.0,
            Action::Place {
                cell: 10,
                value: other_value
            }
        )
        .code(),
        "no_such_cell"
    );
    assert_eq!(
        refuse(&mut state, other.0, Action::EndTurn).code(),
        "wrong_phase"
    );
    occupy(&mut state);
    assert_eq!(state.empty_cells(), 0, "every cell holds one die");
    assert_eq!(state.dice_count(Seat(0)), 5);
    assert_eq!(state.dice_count(Seat(1)), 5);
    let view = state.view(Viewer::Spectator);
    for player in &view.players {
        assert_eq!(player.reserve.len(), 2, "two dice left: the reserve");
        assert!(player.unplaced.is_empty());
    }
}

#[test]
fn h_setup_4_the_placed_and_reserve_dice_are_exactly_the_rolled_dice() {
    let (mut state, events) = Hexdice::new(&small(), 2, Seed::from_u64(12)).unwrap();
    let rolls = rolls_of(&events);
    occupy(&mut state);
    for seat in [Seat(0), Seat(1)] {
        let mut all: Vec<u8> = (0..10u8)
            .filter(|&c| state.holds(seat, c))
            .map(|c| state.face_at(c))
            .chain(state.reserve[seat.index()])
            .collect();
        all.sort_unstable();
        let mut rolled = rolls[rolls.len() - 2 + seat.index()].1.clone();
        rolled.sort_unstable();
        assert_eq!(all, rolled);
    }
}

/// The occupation with one cell left: `last` places its final die; both reserves are then fixed.
fn last_placement(reserve_of_last: [u8; 3], reserve_of_other: [u8; 2], starter: u8) -> Hexdice {
    let (mut state, _) = Hexdice::new(&small(), 2, Seed::from_u64(1)).unwrap();
    for cell in 0..9u8 {
        state.owned[usize::from(cell % 2)] |= 1 << cell;
        state.face[usize::from(cell)] = 1;
    }
    state.unplaced = [[0; 6]; 2];
    for &v in &reserve_of_last {
        state.unplaced[1][usize::from(v - 1)] += 1;
    }
    for &v in &reserve_of_other {
        state.unplaced[0][usize::from(v - 1)] += 1;
    }
    state.occupation_starter = Seat(starter);
    state.phase = Phase::Occupation { seat: Seat(1) };
    state
}

#[test]
fn h_setup_5_the_higher_reserve_sum_takes_the_first_turn() {
    let mut state = last_placement([6, 5, 1], [4, 4], 0);
    // Seat 1 keeps 6 and 5 (sum 11) against 4 + 4.
    let events = play(&mut state, 1, Action::Place { cell: 9, value: 1 });
    assert!(events.contains(&Event::OccupationEnded {
        reserves: [[4, 4], [6, 5]],
        first_turn: Seat(1)
    }));
    assert_eq!(state.first_turn, Some(Seat(1)));
    assert_eq!(state.to_act(), Some(Seat(1)));
    assert!(matches!(
        state.view(Viewer::Spectator).phase,
        PhaseView::Attack { seat: Seat(1) }
    ));

    let mut state = last_placement([6, 5, 1], [4, 4], 0);
    // Keeping 1 and 5 (sum 6) hands the first turn to seat 0.
    play(&mut state, 1, Action::Place { cell: 9, value: 6 });
    assert_eq!(state.first_turn, Some(Seat(0)));
    assert_eq!(state.reserve, [[4, 4], [5, 1]]);
}

#[test]
fn h_setup_5_on_equal_sums_the_occupation_starter_takes_the_first_turn() {
    for starter in [0, 1] {
        let mut state = last_placement([6, 2, 3], [4, 4], starter);
        play(&mut state, 1, Action::Place { cell: 9, value: 3 });
        assert_eq!(state.reserve, [[4, 4], [6, 2]]);
        assert_eq!(state.first_turn, Some(Seat(starter)));
        assert_eq!(state.to_act(), Some(Seat(starter)));
    }
}

#[test]
fn h_setup_4_legal_placements_are_every_face_held_on_every_empty_cell() {
    let (state, _) = Hexdice::new(&small(), 2, Seed::from_u64(21)).unwrap();
    let seat = state.occupation_starter.index();
    let faces = (0..6).filter(|&f| state.unplaced[seat][f] > 0).count();
    assert_eq!(legal(&state).len(), faces * 10);
}
