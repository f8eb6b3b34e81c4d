//! H-ATK-1..8: single attacks (valid, perfect, failed), conquest, the death of a failed
//! attacker, and the two-step combined attack. Positions use the small board (see `fixture`).

use super::fixture::{die_at, legal, play, position, refuse, seed_rolling, small};
use crate::core::{RuleError, Ruleset, Seat, Viewer};
use crate::hexdice::state::Phase;
use crate::hexdice::{
    Action, AttackResult, CombinedAttackSources, Conquest, Event, Options, PhaseView,
};
use crate::rng::MatchRng;

fn attack(from: u8, target: u8) -> Action {
    Action::Attack { from, target }
}

fn resolved(events: &[Event]) -> (AttackResult, u8, u8) {
    events
        .iter()
        .find_map(|e| match *e {
            Event::AttackResolved {
                result,
                attacker_value,
                defender_value,
                ..
            } => Some((result, attacker_value, defender_value)),
            _ => None,
        })
        .expect("the attack resolved")
}

#[test]
fn h_atk_1_a_single_attack_names_an_own_die_and_an_adjacent_enemy_and_rolls_once() {
    // Seat 0: 4 on cell 0, 6 on cell 4. Seat 1: 3 on cell 1, 6 on cell 9.
    let dice = [(0, 0, 4), (4, 0, 6), (1, 1, 3), (9, 1, 6)];
    let mut state = position(small(), &dice, 0, &[2]);
    assert_eq!(refuse(&mut state, 0, attack(1, 0)).code(), "not_your_die");
    assert_eq!(refuse(&mut state, 0, attack(7, 1)).code(), "not_your_die");
    assert_eq!(
        refuse(&mut state, 0, attack(0, 4)).code(),
        "not_an_enemy_die"
    );
    assert_eq!(refuse(&mut state, 0, attack(0, 9)).code(), "not_adjacent");
    assert_eq!(refuse(&mut state, 0, attack(0, 10)).code(), "no_such_cell");
    assert_eq!(refuse(&mut state, 0, attack(200, 1)).code(), "no_such_cell");
    let mut expected_rng = state.rng.clone();
    expected_rng.die(6);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(
        events[0],
        Event::AttackRolled {
            seat: Seat(0),
            from: 0,
            target: 1,
            roll: 2
        }
    );
    assert_eq!(state.rng, expected_rng, "exactly one reserve die rolled");
    let mut sorted = legal(&position(small(), &dice, 0, &[1]));
    sorted.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(sorted, vec![attack(0, 1), attack(4, 9)]);
}

#[test]
fn h_atk_2_valid_attack_swaps_in_rolled_die() {
    // The seeds' example: an attacking 4 rolls 2 against a 3.
    let mut state = position(small(), &[(0, 0, 4), (1, 1, 3), (9, 1, 6)], 0, &[2]);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(resolved(&events), (AttackResult::Valid, 2, 1));
    assert_eq!(
        die_at(&state, 0),
        Some((0, 2)),
        "the attacker's cell shows the roll"
    );
    assert_eq!(die_at(&state, 1), Some((1, 1)), "the defender lost 2");
    assert_eq!(
        state.reserve[0][0], 4,
        "the old die went back to the reserve"
    );
    assert_eq!(state.reserve[0][1], 3, "the other reserve die is untouched");
}

#[test]
fn h_atk_3_perfect_attack_leaves_the_attacker_unchanged() {
    // An attacking 4 rolls 4 against a 5.
    let mut state = position(small(), &[(0, 0, 4), (1, 1, 5), (9, 1, 6)], 0, &[4]);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(resolved(&events), (AttackResult::Perfect, 4, 1));
    assert_eq!(die_at(&state, 0), Some((0, 4)));
    assert_eq!(die_at(&state, 1), Some((1, 1)));
    assert_eq!(
        state.reserve[0],
        [4, 3],
        "the rolled die stays in the reserve"
    );
}

#[test]
fn h_atk_4_failed_attack_costs_the_attacker_one_point() {
    // An attacking 4 rolls 5 against a 3.
    let mut state = position(small(), &[(0, 0, 4), (1, 1, 3), (9, 1, 6)], 0, &[5]);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(resolved(&events), (AttackResult::Failed, 3, 3));
    assert_eq!(die_at(&state, 0), Some((0, 3)));
    assert_eq!(die_at(&state, 1), Some((1, 3)), "the defender is untouched");
    assert_eq!(state.reserve[0], [5, 3]);
}

#[test]
fn h_atk_5_a_defender_at_zero_or_below_is_removed_and_the_attacker_moves_in() {
    // A 4 rolls 3 against a 2: the defender falls to -1; the attacker, now showing 3, moves in.
    let mut state = position(small(), &[(0, 0, 4), (1, 1, 2), (9, 1, 6)], 0, &[3]);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(resolved(&events), (AttackResult::Valid, 3, 0));
    assert!(events.contains(&Event::DieRemoved {
        seat: Seat(1),
        cell: 1
    }));
    assert_eq!(
        events.last(),
        Some(&Event::Conquered {
            seat: Seat(0),
            from: 0,
            to: 1
        })
    );
    assert_eq!(die_at(&state, 0), None, "the old cell is empty");
    assert_eq!(
        die_at(&state, 1),
        Some((0, 3)),
        "the die as it now stands moved in"
    );
    assert_eq!(
        state.phase,
        Phase::Move {
            seat: Seat(0),
            conqueror: Some(1)
        }
    );
    // Exactly zero is removed too (perfect attack: 3 rolls 3 against 3).
    let mut state = position(small(), &[(0, 0, 3), (1, 1, 3), (9, 1, 6)], 0, &[3]);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(resolved(&events), (AttackResult::Perfect, 3, 0));
    assert_eq!(die_at(&state, 1), Some((0, 3)));
}

#[test]
fn h_atk_5_optional_conquest_lets_the_attacker_stay_or_move_in() {
    let options = Options {
        conquest: Conquest::Optional,
        ..small()
    };
    let dice = [(0, 0, 4), (1, 1, 2), (9, 1, 6)];
    let mut stay = position(options.clone(), &dice, 0, &[3]);
    let events = play(&mut stay, 0, attack(0, 1));
    assert!(!events.iter().any(|e| matches!(e, Event::Conquered { .. })));
    assert_eq!(
        stay.view(Viewer::Spectator).phase,
        PhaseView::Conquest {
            seat: Seat(0),
            from: 0,
            target: 1
        }
    );
    assert_eq!(
        legal(&stay),
        vec![
            Action::Conquer { move_in: true },
            Action::Conquer { move_in: false }
        ]
    );
    assert_eq!(
        refuse(&mut stay, 1, Action::Conquer { move_in: true }).code(),
        "not_your_turn"
    );
    assert_eq!(refuse(&mut stay, 0, Action::EndTurn).code(), "wrong_phase");
    let events = play(&mut stay, 0, Action::Conquer { move_in: false });
    assert_eq!(
        events,
        vec![Event::StayedPut {
            seat: Seat(0),
            cell: 0
        }]
    );
    assert_eq!(die_at(&stay, 0), Some((0, 3)));
    assert_eq!(die_at(&stay, 1), None);

    let mut go = position(options, &dice, 0, &[3]);
    play(&mut go, 0, attack(0, 1));
    play(&mut go, 0, Action::Conquer { move_in: true });
    assert_eq!(die_at(&go, 0), None);
    assert_eq!(die_at(&go, 1), Some((0, 3)));
    // Under mandatory conquest the decision never exists.
    let mut mandatory = position(small(), &dice, 0, &[1]);
    assert_eq!(
        refuse(&mut mandatory, 0, Action::Conquer { move_in: true }).code(),
        "wrong_phase"
    );
}

#[test]
fn h_atk_6_a_failed_attacker_at_zero_is_removed_and_nobody_moves_in() {
    // A 1 rolls 2 against a 3: it falls to 0.
    let dice = [(0, 0, 1), (4, 0, 5), (1, 1, 3), (9, 1, 6)];
    let mut state = position(small(), &dice, 0, &[2]);
    let events = play(&mut state, 0, attack(0, 1));
    assert_eq!(resolved(&events), (AttackResult::Failed, 0, 3));
    assert!(events.contains(&Event::DieRemoved {
        seat: Seat(0),
        cell: 0
    }));
    assert!(!events.iter().any(|e| matches!(e, Event::Conquered { .. })));
    assert_eq!(die_at(&state, 0), None, "the cell is empty");
    assert_eq!(
        die_at(&state, 1),
        Some((1, 3)),
        "the defender stays where it was"
    );
    assert_eq!(state.reserve[0], [2, 3], "the reserve still holds two dice");
    assert_eq!(
        state.phase,
        Phase::Move {
            seat: Seat(0),
            conqueror: None
        }
    );
}

/// Seat 0: 5 on cell 0 and 2 on cell 1 (touching); seat 1: 6 on cell 5 (touching both), 6 on 9.
fn combined_position(options: Options, rolls: &[u8], faces: [u8; 2]) -> crate::hexdice::Hexdice {
    position(
        options,
        &[(0, 0, faces[0]), (1, 0, faces[1]), (5, 1, 6), (9, 1, 6)],
        0,
        rolls,
    )
}

fn combined(a: u8, b: u8, target: u8) -> Action {
    Action::CombinedAttack {
        attackers: [a, b],
        target,
    }
}

#[test]
fn h_atk_7_a_combined_attack_rolls_both_reserve_dice_then_the_player_chooses() {
    let mut state = combined_position(small(), &[4, 6], [5, 2]);
    let events = play(&mut state, 0, combined(1, 0, 5));
    assert_eq!(
        events,
        vec![Event::CombinedAttackRolled {
            seat: Seat(0),
            attackers: [1, 0],
            target: 5,
            rolls: [4, 6]
        }]
    );
    assert_eq!(die_at(&state, 5), Some((1, 6)), "nothing resolved yet");
    assert_eq!(
        state.view(Viewer::Spectator).phase,
        PhaseView::ChooseAttack {
            seat: Seat(0),
            attackers: [1, 0],
            target: 5,
            rolls: [4, 6]
        }
    );
    // Only 5 with 4 does not fail.
    assert_eq!(
        legal(&state),
        vec![Action::ChooseAttack {
            attacker: 0,
            roll: 4
        }]
    );
    let choose = |attacker, roll| Action::ChooseAttack { attacker, roll };
    assert_eq!(refuse(&mut state, 0, choose(1, 4)).code(), "failing_choice");
    assert_eq!(refuse(&mut state, 0, choose(0, 6)).code(), "failing_choice");
    assert_eq!(
        refuse(&mut state, 0, choose(5, 4)).code(),
        "not_a_declared_attacker"
    );
    assert_eq!(
        refuse(&mut state, 0, choose(0, 3)).code(),
        "not_a_rolled_value"
    );
    assert_eq!(refuse(&mut state, 1, choose(0, 4)).code(), "not_your_turn");
    assert_eq!(refuse(&mut state, 0, attack(0, 5)).code(), "wrong_phase");
    let events = play(&mut state, 0, choose(0, 4));
    assert_eq!(resolved(&events), (AttackResult::Valid, 4, 2));
    assert_eq!(die_at(&state, 0), Some((0, 4)));
    assert_eq!(
        die_at(&state, 1),
        Some((0, 2)),
        "the other attacker is untouched"
    );
    assert_eq!(die_at(&state, 5), Some((1, 2)));
    // Roll 4 was reserve slot 0: it went to the board and the old 5 came back; the unused 6
    // stays in the reserve.
    assert_eq!(state.reserve[0], [5, 6]);
}

#[test]
fn h_atk_7_when_every_pair_fails_any_pair_may_be_chosen() {
    let mut state = combined_position(small(), &[5, 6], [2, 1]);
    play(&mut state, 0, combined(0, 1, 5));
    assert_eq!(legal(&state).len(), 4, "both attackers with both rolls");
    let events = play(
        &mut state,
        0,
        Action::ChooseAttack {
            attacker: 1,
            roll: 6,
        },
    );
    assert_eq!(resolved(&events), (AttackResult::Failed, 0, 6));
    assert_eq!(die_at(&state, 1), None);
    assert_eq!(state.reserve[0], [5, 6]);
}

#[test]
fn h_atk_7_equal_rolls_are_one_choice_per_attacker() {
    let mut state = combined_position(small(), &[2, 2], [5, 2]);
    play(&mut state, 0, combined(0, 1, 5));
    assert_eq!(
        legal(&state),
        vec![
            Action::ChooseAttack {
                attacker: 0,
                roll: 2
            },
            Action::ChooseAttack {
                attacker: 1,
                roll: 2
            }
        ]
    );
}

#[test]
fn h_atk_7_the_two_attackers_must_be_distinct_adjacent_to_the_target_and_to_each_other() {
    // Seat 0: cells 0, 1 and 6 around seat 1's cell 5; 0 and 6 do not touch.
    let dice = [(0, 0, 5), (1, 0, 2), (6, 0, 3), (5, 1, 6), (9, 1, 6)];
    let mut state = position(small(), &dice, 0, &[1, 1]);
    for (action, code) in [
        (combined(0, 0, 5), "same_attacker_twice"),
        (combined(0, 6, 5), "attackers_must_touch"),
        (combined(0, 1, 9), "not_adjacent"),
        (combined(0, 9, 5), "not_your_die"),
        (combined(0, 1, 6), "not_an_enemy_die"),
    ] {
        assert_eq!(refuse(&mut state, 0, action).code(), code);
    }
    let combos: Vec<Action> = legal(&state)
        .into_iter()
        .filter(|a| matches!(a, Action::CombinedAttack { .. }))
        .collect();
    assert_eq!(
        combos,
        vec![
            combined(0, 1, 5),
            combined(1, 0, 5),
            combined(1, 6, 5),
            combined(6, 1, 5)
        ]
    );
    play(&mut state, 0, combined(6, 1, 5));
}

#[test]
fn h_atk_7_the_not_adjacent_option_wants_attackers_that_do_not_touch() {
    let options = Options {
        combined_attack_sources: CombinedAttackSources::NotAdjacent,
        ..small()
    };
    let dice = [(0, 0, 5), (1, 0, 2), (6, 0, 3), (5, 1, 6), (9, 1, 6)];
    let mut state = position(options, &dice, 0, &[1, 1]);
    assert_eq!(
        refuse(&mut state, 0, combined(0, 1, 5)).code(),
        "attackers_must_not_touch"
    );
    let combos: Vec<Action> = legal(&state)
        .into_iter()
        .filter(|a| matches!(a, Action::CombinedAttack { .. }))
        .collect();
    assert_eq!(combos, vec![combined(0, 6, 5), combined(6, 0, 5)]);
    play(&mut state, 0, combined(0, 6, 5));
}

#[test]
fn h_atk_8_every_attack_strictly_lowers_the_pips_on_the_board() {
    for attacker in 1..=6u8 {
        for defender in 1..=6u8 {
            for roll in 1..=6u8 {
                let dice = [(0, 0, attacker), (1, 1, defender), (4, 0, 1), (9, 1, 1)];
                let mut state = position(small(), &dice, 0, &[roll]);
                let before = state.pips(Seat(0)) + state.pips(Seat(1));
                play(&mut state, 0, attack(0, 1));
                let after = state.pips(Seat(0)) + state.pips(Seat(1));
                assert!(after < before, "{attacker} vs {defender} rolling {roll}");
            }
        }
    }
}

#[test]
fn h_atk_1_seed_search_controls_the_next_rolls() {
    // The fixture's way of forcing rolls is itself checked: the match RNG draws them in order.
    let mut rng = MatchRng::new(seed_rolling(&[6, 1, 3]));
    assert_eq!([rng.die(6), rng.die(6), rng.die(6)], [6, 1, 3]);
}
