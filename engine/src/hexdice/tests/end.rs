//! H-END-1 and H-END-2: when the game ends and who wins, with the outcome's reason code; and the
//! view of a finished game.

use super::fixture::{play, position, small};
use crate::core::{Outcome, Ruleset, Seat, Viewer};
use crate::hexdice::state::Phase;
use crate::hexdice::{
    Action, Conquest, Decider, EndCause, Event, Hexdice, LastTiebreak, Options, PhaseView,
};

/// A position where seat 0 could not attack this turn (it is in its move phase) and, once it
/// ends the turn, seat 1 cannot attack either.
fn stalemate(options: Options, dice: &[(u8, u8, u8)]) -> Hexdice {
    let mut state = position(options, dice, 0, &[1]);
    assert!(!state.can_attack(Seat(0)) && !state.can_attack(Seat(1)));
    state.previous_could_not_attack = true;
    state
}

fn game_over(events: &[Event]) -> Option<&Event> {
    events.iter().find(|e| matches!(e, Event::GameOver { .. }))
}

#[test]
fn h_end_1_two_consecutive_turns_without_an_attack_end_the_game_before_any_move() {
    let mut state = stalemate(small(), &[(0, 0, 5), (4, 1, 6)]);
    let events = play(&mut state, 0, Action::EndTurn);
    assert_eq!(
        events[1..],
        [
            Event::TurnStarted {
                seat: Seat(1),
                turn: 2
            },
            Event::CouldNotAttack { seat: Seat(1) },
            Event::GameOver {
                winner: Seat(1),
                cause: EndCause::NoAttacksLeft,
                decided_by: Decider::HigherPipSum,
                dice: [1, 1],
                pips: [5, 6]
            }
        ]
    );
    assert_eq!(state.to_act(), None, "seat 1 gets no move");
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Seat(1),
            reason: "higher_pip_sum".into()
        })
    );
}

#[test]
fn h_end_1_one_turn_without_an_attack_does_not_end_the_game() {
    let mut state = stalemate(small(), &[(0, 0, 5), (4, 1, 6)]);
    state.previous_could_not_attack = false;
    play(&mut state, 0, Action::EndTurn);
    assert_eq!(
        state.phase,
        Phase::Move {
            seat: Seat(1),
            conqueror: None
        }
    );
    assert_eq!(state.outcome(), None);
}

#[test]
fn h_end_1_losing_the_last_die_ends_the_game_after_the_conquest() {
    let mut state = position(small(), &[(0, 0, 4), (5, 0, 1), (1, 1, 2)], 0, &[3]);
    let events = play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    let conquered = events
        .iter()
        .position(|e| matches!(e, Event::Conquered { .. }))
        .expect("the conquest still moves in");
    let over = events
        .iter()
        .position(|e| matches!(e, Event::GameOver { .. }))
        .expect("over");
    assert!(conquered < over);
    assert_eq!(state.face_at(1), 3);
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Seat(0),
            reason: "no_dice_left".into()
        })
    );
}

#[test]
fn h_end_1_a_failed_attacker_losing_its_last_die_loses() {
    let mut state = position(small(), &[(0, 0, 1), (1, 1, 2)], 0, &[6]);
    let events = play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    assert!(matches!(
        game_over(&events),
        Some(Event::GameOver {
            winner: Seat(1),
            cause: EndCause::NoDiceLeft,
            ..
        })
    ));
    assert_eq!(state.outcome().map(|o| o.winner), Some(Seat(1)));
}

#[test]
fn h_end_1_under_optional_conquest_the_last_die_ends_the_game_without_a_decision() {
    let options = Options {
        conquest: Conquest::Optional,
        ..small()
    };
    let mut state = position(options, &[(0, 0, 4), (1, 1, 2)], 0, &[3]);
    play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    assert_eq!(state.to_act(), None);
    assert_eq!(
        state.outcome().map(|o| o.reason),
        Some("no_dice_left".into())
    );
}

#[test]
fn h_end_2_more_dice_win_whatever_their_values() {
    // Seat 1 has two dice showing 1 against seat 0's single 6.
    let mut state = stalemate(small(), &[(0, 0, 6), (4, 1, 1), (9, 1, 1)]);
    let events = play(&mut state, 0, Action::EndTurn);
    assert!(matches!(
        game_over(&events),
        Some(Event::GameOver {
            winner: Seat(1),
            decided_by: Decider::MoreDice,
            ..
        })
    ));
    assert_eq!(state.outcome().unwrap().reason, "more_dice");
}

#[test]
fn h_end_2_equal_dice_the_higher_pip_sum_wins() {
    let mut state = stalemate(small(), &[(0, 0, 6), (5, 0, 1), (4, 1, 3), (9, 1, 3)]);
    play(&mut state, 0, Action::EndTurn);
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Seat(0),
            reason: "higher_pip_sum".into()
        })
    );
}

/// A match over in a full tie (4 against 4) under `options`, seat 1 having played first and
/// seat 0 having started the occupation.
fn full_tie(options: Options) -> Hexdice {
    let mut state = stalemate(options, &[(0, 0, 4), (4, 1, 4)]);
    state.first_turn = Some(Seat(1));
    state.occupation_starter = Seat(0);
    play(&mut state, 0, Action::EndTurn);
    state
}

#[test]
fn h_end_2_a_full_tie_goes_to_the_first_turn_player() {
    assert_eq!(
        full_tie(small()).outcome(),
        Some(Outcome {
            winner: Seat(1),
            reason: "tiebreak_first_turn".into()
        })
    );
}

#[test]
fn h_end_2_the_occupation_starter_option_breaks_a_full_tie() {
    let options = Options {
        last_tiebreak: LastTiebreak::OccupationStarter,
        ..small()
    };
    let state = full_tie(options);
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Seat(0),
            reason: "tiebreak_occupation_starter".into()
        })
    );
    let view = state.view(Viewer::Spectator);
    assert_eq!(view.to_act, None);
    assert_eq!(
        view.phase,
        PhaseView::Over {
            winner: Seat(0),
            cause: EndCause::NoAttacksLeft,
            decided_by: Decider::OccupationStarter
        }
    );
}

#[test]
fn h_end_2_the_view_shows_dice_reserves_and_totals() {
    let state = position(
        small(),
        &[(0, 0, 4), (5, 0, 2), (1, 1, 3), (9, 1, 6)],
        0,
        &[1],
    );
    let view = state.view(Viewer::Seat(Seat(1)));
    assert_eq!(view.to_act, Some(Seat(0)));
    assert_eq!(view.phase, PhaseView::Attack { seat: Seat(0) });
    assert_eq!(view.cells.len(), 10);
    assert_eq!(
        view.cells[0].map(|d| (d.owner, d.value)),
        Some((Seat(0), 4))
    );
    assert_eq!(
        view.cells[9].map(|d| (d.owner, d.value)),
        Some((Seat(1), 6))
    );
    assert!(view.cells[2].is_none());
    assert_eq!(view.players[0].dice_on_board, 2);
    assert_eq!(view.players[0].pips_on_board, 6);
    assert_eq!(view.players[1].pips_on_board, 9);
    assert_eq!(view.players[0].reserve, vec![3, 3]);
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["phase"]["phase"], "attack");
    assert_eq!(json["phase"]["seat"], 0);
    assert_eq!(json["cells"][2], serde_json::Value::Null);
    assert_eq!(json["players"][1]["reserve"][0], 3);
}
