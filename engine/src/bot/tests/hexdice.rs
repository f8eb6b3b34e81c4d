//! Scenario tests of the hexdice bot on the small board (10 cells): positions are set up
//! directly on a real match, then the bot is asked for its action. Cells of the small board:
//! ```text
//!  row 0:   0   1   2   3   4
//!  row 1: 5   6   7   8   9
//! ```
//! Cell `i` of row 0 touches `i ± 1`, `5 + i` and `4 + i`; cells 0, 1 and 5 touch each other.

use crate::bot::{Bot, BotLevel, BotRng};
use crate::core::{Ruleset, Seat};
use crate::hexdice::state::Phase;
use crate::hexdice::tests::fixture::{small, with_dice};
use crate::hexdice::{Action, Hexdice};

/// A small-board match in play: `dice` lists (cell, seat, face); seat 0 is to act in `phase`.
fn position(dice: &[(u8, u8, u8)], phase: Phase) -> Hexdice {
    let mut state = with_dice(&small(), dice, 3);
    state.phase = phase;
    state
}

/// The action of a `level` bot, for several bot generators: the scenarios have one best action.
fn bot_actions(state: &Hexdice, level: BotLevel) -> Vec<Action> {
    (0..8)
        .map(|seed| {
            state
                .bot_action(level, &mut BotRng::new(seed))
                .expect("an action")
        })
        .collect()
}

#[test]
fn h_atk_2_the_bot_attacks_the_die_it_can_beat() {
    // Our 3 touches an enemy 1 and an enemy 6: rolls 1 to 3 remove the 1, while against the 6
    // they only wound it (and a roll of 4 to 6 fails either way). Elsewhere a 5 faces a 5.
    let state = position(
        &[(1, 0, 3), (0, 1, 1), (2, 1, 6), (8, 0, 5), (9, 1, 5)],
        Phase::Attack { seat: Seat(0) },
    );
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&state, level) {
            assert_eq!(action, Action::Attack { from: 1, target: 0 }, "{level:?}");
        }
    }
}

#[test]
fn h_atk_7_the_bot_chooses_the_pair_that_conquers() {
    // Our 5 (cell 0) and 3 (cell 1) attacked the enemy 4 on cell 5 and rolled 4 and 2: the 5 with
    // the 4 removes the defender; every other allowed pair only wounds it.
    let state = position(
        &[(0, 0, 5), (1, 0, 3), (5, 1, 4), (9, 1, 2)],
        Phase::ChooseAttack {
            seat: Seat(0),
            attackers: [0, 1],
            target: 5,
            rolls: [4, 2],
        },
    );
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&state, level) {
            assert_eq!(
                action,
                Action::ChooseAttack {
                    attacker: 0,
                    roll: 4
                },
                "{level:?}"
            );
        }
    }
    let mut state = state;
    let action = bot_actions(&state, BotLevel::Normal)[0];
    state.play(Seat(0), &action).expect("accepted");
    assert!(state.holds(Seat(0), 5), "the conquest moved in");
}

#[test]
fn h_atk_7_the_bot_declares_a_combined_attack_when_one_die_alone_is_too_weak() {
    // Two 2s face an enemy 4: a single 2 usually fails (rolls 3..6) while a combined attack picks
    // the better of two rolls for the better of two attackers.
    let state = position(
        &[(0, 0, 2), (1, 0, 2), (5, 1, 4), (9, 1, 1)],
        Phase::Attack { seat: Seat(0) },
    );
    for action in bot_actions(&state, BotLevel::Normal) {
        assert!(
            matches!(action, Action::CombinedAttack { target: 5, .. }),
            "{action:?}"
        );
    }
}

#[test]
fn h_end_1_the_bot_moves_into_contact_rather_than_lose_a_game_without_attacks() {
    // Nobody could attack this turn and the enemy leads on dice: if our 6 stays away, the game
    // ends at the enemy's turn (H-END-1, H-END-2). Stepping next to the enemy forces it to attack.
    let mut state = position(
        &[(2, 0, 6), (0, 1, 1), (5, 1, 2)],
        Phase::Move {
            seat: Seat(0),
            conqueror: None,
        },
    );
    state.previous_could_not_attack = true;
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&state, level) {
            assert!(
                matches!(action, Action::Move { from: 2, to: 1 | 6 }),
                "the bot stays out of reach: {action:?}"
            );
        }
    }
}

#[test]
fn h_turn_2_hard_plays_out_the_forced_reply_and_keeps_a_target_for_its_next_attack() {
    // We are down to one die, a 2 on cell 9, against 1s on cells 0, 3 and 7 and a 5 on cell 5:
    // behind on dice (H-END-2), we need attacks. The 2 may step to cell 4, touching the 1 on
    // cell 3, or to cell 8, touching the 1s on cells 3 and 7 (which touch each other, so they
    // also have a combined attack on it). The enemy must then attack our 2 (H-TURN-2), and a 1
    // fails on every roll but a 1 and is removed (H-ATK-4, H-ATK-6).
    let state = position(
        &[(9, 0, 2), (0, 1, 1), (3, 1, 1), (5, 1, 5), (7, 1, 1)],
        Phase::Move {
            seat: Seat(0),
            conqueror: None,
        },
    );
    // `normal` scores the position as it stands: on cell 4 the enemy's best attack is weaker.
    for action in bot_actions(&state, BotLevel::Normal) {
        assert_eq!(action, Action::Move { from: 9, to: 4 });
    }
    // `hard` plays the enemy's reply turn over its rolls: on cell 4 its failed attack removes
    // our only contact, while on cell 8 the other 1 stays in reach of our next attack.
    for action in bot_actions(&state, BotLevel::Hard) {
        assert_eq!(action, Action::Move { from: 9, to: 8 });
    }
}

#[test]
fn h_setup_5_hard_keeps_back_a_reserve_that_takes_the_first_turn() {
    // The last placement of the occupation, on cell 0 (it touches only our dice on cells 1 and
    // 5). We hold a 6 and two 1s, the enemy (the occupation starter) two 1s. Placing the 6
    // leaves us the reserve 1 + 1, tied with the enemy's, so the enemy takes the first turn
    // (H-SETUP-5); placing a 1 keeps 6 + 1 back and the first turn is ours.
    let mut state = position(
        &[
            (1, 0, 4),
            (5, 0, 5),
            (2, 0, 3),
            (6, 0, 2),
            (3, 1, 3),
            (4, 1, 2),
            (7, 1, 4),
            (8, 1, 3),
            (9, 1, 2),
        ],
        Phase::Occupation { seat: Seat(0) },
    );
    state.unplaced = [[2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 0]];
    state.reserve = [[0; 2]; 2];
    state.occupation_starter = Seat(1);
    state.first_turn = None;
    state.turn = 0;
    let first_turn_after = |level: BotLevel| {
        let mut state = state.clone();
        let action = bot_actions(&state, level)[0];
        state.play(Seat(0), &action).expect("accepted");
        (action, state.first_turn)
    };
    for action in bot_actions(&state, BotLevel::Normal) {
        assert_eq!(action, Action::Place { cell: 0, value: 6 });
    }
    assert_eq!(
        first_turn_after(BotLevel::Normal),
        (Action::Place { cell: 0, value: 6 }, Some(Seat(1)))
    );
    for action in bot_actions(&state, BotLevel::Hard) {
        assert_eq!(action, Action::Place { cell: 0, value: 1 });
    }
    assert_eq!(
        first_turn_after(BotLevel::Hard),
        (Action::Place { cell: 0, value: 1 }, Some(Seat(0)))
    );
}
