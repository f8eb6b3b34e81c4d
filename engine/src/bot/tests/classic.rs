//! Scenario tests of the classic bot: a real 3-player match staged in its attack or
//! reinforcement step (territory `t` held by seat `t % 3` with 3 units, no cards), then adjusted.

use crate::bot::{Bot, BotLevel, BotRng};
use crate::classic::cards::Card;
use crate::classic::map::ADJACENCY;
use crate::classic::{Action, Classic, ClassicOptions, Phase, SetupMode};
use crate::core::{Ruleset, Seat};
use crate::rng::Seed;

const ALASKA: u8 = 0;

fn staged() -> Classic {
    let options = ClassicOptions {
        setup: SetupMode::Random,
        ..ClassicOptions::default()
    };
    let (mut s, _) = Classic::new(&options, 3, Seed::from_u64(1)).expect("starts");
    for t in 0..42 {
        s.owner[t] = (t % 3) as u8;
        s.units[t] = 3;
    }
    for hand in &mut s.hands {
        hand.clear();
    }
    s.current = 0;
    s.phase = Phase::Attack;
    s.reserve = 0;
    s.attacked = false;
    s.conquered = false;
    s
}

/// The actions a `level` bot picks with several generators.
fn bot_actions(s: &Classic, level: BotLevel) -> Vec<Action> {
    (0..8)
        .map(|seed| {
            s.bot_action(level, &mut BotRng::new(seed))
                .expect("an action")
        })
        .collect()
}

#[test]
fn w_card_3_the_bot_trades_a_set_in_the_attack_step_before_its_first_attack() {
    let mut s = staged();
    s.hands[0] = vec![Card(0), Card(1), Card(2)];
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&s, level) {
            assert!(
                matches!(action, Action::Trade { .. }),
                "{level:?}: {action:?}"
            );
        }
    }
    // The traded units are placed next, then the attack step goes on.
    let mut rng = BotRng::new(1);
    let trade = s.bot_action(BotLevel::Normal, &mut rng).expect("an action");
    s.play(Seat(0), &trade).expect("accepted");
    assert_eq!(s.phase, Phase::Reinforce);
    let place = s.bot_action(BotLevel::Normal, &mut rng).expect("an action");
    assert!(matches!(place, Action::Place { .. }), "{place:?}");
    s.play(Seat(0), &place).expect("accepted");
}

#[test]
fn w_atk_2_the_bot_attacks_with_the_most_dice_where_the_odds_favour_it() {
    let mut s = staged();
    s.units[usize::from(ALASKA)] = 12;
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&s, level) {
            assert!(
                matches!(
                    action,
                    Action::Attack {
                        from: ALASKA,
                        dice: 3,
                        ..
                    }
                ),
                "{level:?}: {action:?}"
            );
        }
    }
}

#[test]
fn w_atk_1_the_bot_does_not_attack_against_the_odds() {
    let mut s = staged();
    for t in 0..42 {
        s.units[t] = if s.owner[t] == 0 { 2 } else { 12 };
    }
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&s, level) {
            assert!(
                !matches!(action, Action::Attack { .. }),
                "{level:?}: {action:?}"
            );
        }
    }
}

#[test]
fn w_reinf_1_the_bot_places_its_reserve_on_a_border() {
    let mut s = staged();
    // Seat 0 holds the Americas: their inside territories border no enemy.
    for t in 0..13 {
        s.owner[t] = 0;
    }
    s.phase = Phase::Reinforce;
    s.reserve = 7;
    let held = s.held_mask(0);
    for level in [BotLevel::Normal, BotLevel::Hard] {
        for action in bot_actions(&s, level) {
            let Action::Place { territory, .. } = action else {
                panic!("{level:?}: {action:?}");
            };
            assert_ne!(
                ADJACENCY[usize::from(territory)] & !held,
                0,
                "{level:?} placed inside on {territory}"
            );
        }
    }
}

#[test]
fn w_atk_4_the_bot_moves_everything_in_when_the_source_is_left_behind_the_front() {
    let mut s = staged();
    // Seat 0 has just taken Alaska's last neighbour: Alaska is inside, its 9 units can all go.
    for t in [0u8, 1, 3, 29] {
        s.owner[usize::from(t)] = 0;
    }
    // The compulsory 3 units have moved in already.
    s.units[usize::from(ALASKA)] = 7;
    s.units[1] = 3;
    s.phase = Phase::MoveIn {
        from: ALASKA,
        to: 1,
        min: 3,
        max: 9,
    };
    assert_eq!(ADJACENCY[0] & !s.held_mask(0), 0, "Alaska is inside");
    for action in bot_actions(&s, BotLevel::Normal) {
        assert_eq!(action, Action::MoveIn { units: 9 });
    }
}
