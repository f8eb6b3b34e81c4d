//! Battles and their consequences: C-BATTLE-1 to C-BATTLE-4, C-END-1, C-END-2.

use super::super::{Event, Side, Units, units_kept};
use super::{attack, dice, partly_used_d6, plain_path, set, start, take_capital, two_areas, units};
use crate::core::{Ruleset, Seat};

/// The `BattleResolved` event of an attack.
fn resolved(events: &[Event]) -> (u16, u16, Side, Units) {
    events
        .iter()
        .find_map(|e| match *e {
            Event::BattleResolved {
                attack,
                defence,
                winner,
                survivors,
            } => Some((attack, defence, winner, survivors)),
            _ => None,
        })
        .expect("a battle")
}

/// Runs one attack of `attackers` on `defenders` between two plain areas, seat 0 attacking a
/// seat-1 area; returns the game after it and the events.
fn battle(
    seed: u64,
    attackers: Units,
    defenders: Units,
) -> (super::super::Capitals, Vec<u16>, Vec<Event>) {
    let mut source = attackers;
    source.d6 += 1; // the unit that stays
    let (mut game, from, to) = two_areas(seed, source, Some(1), defenders);
    let path = vec![from, to];
    let events = game
        .play(Seat(0), &attack(&path, attackers.d6, attackers.d8))
        .expect("attack");
    (game, path, events)
}

#[test]
fn c_battle_1_every_unit_rolls_its_own_die_and_each_side_sums() {
    for seed in 0..20 {
        let defenders = Units {
            d6: 2,
            d8: 1,
            d6_used: 1,
            d8_used: 1,
        };
        let (_, _, events) = battle(seed, units(3, 2), defenders);
        let attack_dice = dice(&events, Side::Attacker);
        let defence_dice = dice(&events, Side::Defender);
        assert_eq!(attack_dice.len(), 5);
        assert_eq!(defence_dice.len(), 5);
        let d8s = |d: &[(super::super::Die, u8, u8)]| {
            d.iter().filter(|x| x.0 == super::super::Die::D8).count()
        };
        assert_eq!((d8s(&attack_dice), d8s(&defence_dice)), (2, 2));
        for &(die, rolled, _) in attack_dice.iter().chain(&defence_dice) {
            assert!((1..=die.sides()).contains(&rolled));
        }
        let sum = |d: &[(super::super::Die, u8, u8)]| d.iter().map(|x| u16::from(x.2)).sum::<u16>();
        let (attack, defence, _, _) = resolved(&events);
        assert_eq!((attack, defence), (sum(&attack_dice), sum(&defence_dice)));
    }
}

#[test]
fn c_battle_2_higher_sum_wins_ties_go_to_the_defender_and_losers_all_die() {
    let (mut ties, mut attacker_wins, mut defender_wins) = (0, 0, 0);
    for seed in 0..300 {
        let (game, path, events) = battle(seed, units(1, 0), units(1, 0));
        let (attack, defence, winner, survivors) = resolved(&events);
        let target = game.areas[usize::from(path[1])];
        if attack > defence {
            attacker_wins += 1;
            assert_eq!(winner, Side::Attacker);
            assert_eq!(target.owner, Some(Seat(0)));
            assert_eq!(target.units, survivors);
        } else {
            if attack == defence {
                ties += 1;
            }
            defender_wins += 1;
            assert_eq!(winner, Side::Defender);
            assert_eq!(target.owner, Some(Seat(1)));
            assert_eq!(target.units, survivors);
        }
        // The attacking unit is gone from the source either way (moved or dead).
        assert_eq!(game.areas[usize::from(path[0])].units, units(1, 0));
    }
    assert!(ties > 0 && attacker_wins > 0 && defender_wins > 0);
}

#[test]
fn c_battle_3_the_seeds_figures_for_units_kept() {
    for margin in 1..=4 {
        assert_eq!(units_kept(margin, 10), 1, "margin {margin}");
    }
    assert_eq!(units_kept(7, 10), 2);
    assert_eq!(units_kept(9, 10), 3);
    assert_eq!(units_kept(0, 10), 1, "a defender winning on a tie keeps 1");
    assert_eq!(units_kept(40, 3), 3, "never more than it had");
    assert_eq!(units_kept(u16::MAX, 10), 10);
}

#[test]
fn c_battle_3_the_winner_keeps_its_strongest_units() {
    let mixed = Units {
        d6: 2,
        d8: 1,
        d6_used: 2,
        d8_used: 1,
    };
    assert_eq!(mixed.strongest(1), units(0, 1));
    assert_eq!(
        mixed.strongest(3),
        Units {
            d6: 1,
            d8: 1,
            d8_used: 1,
            d6_used: 0
        }
    );
    assert_eq!(mixed.strongest(9), mixed);
    for seed in 0..40 {
        let (_, _, events) = battle(seed, units(4, 2), mixed);
        let (attack, defence, winner, survivors) = resolved(&events);
        let margin = attack.abs_diff(defence);
        // Both sides field 6 units.
        assert_eq!(survivors.total(), units_kept(margin, 6));
        let expected = if winner == Side::Attacker {
            Units {
                d6_used: 4,
                d8_used: 2,
                ..Units::default()
            }
            .strongest(survivors.total())
        } else {
            mixed.strongest(survivors.total())
        };
        assert_eq!(survivors, expected);
    }
}

#[test]
fn c_battle_4_the_winning_attackers_occupy_the_target_and_stay_used() {
    let (game, path, events) = battle(3, units(0, 9), units(2, 0));
    let (attack, defence, winner, survivors) = resolved(&events);
    assert_eq!(winner, Side::Attacker);
    let target = game.areas[usize::from(path[1])];
    assert_eq!(target.owner, Some(Seat(0)));
    assert_eq!(target.units, survivors);
    assert_eq!(target.units.d8_used, units_kept(attack - defence, 9));
    assert_eq!(target.units.unused().total(), 0);
}

#[test]
fn c_end_1_losing_the_capital_eliminates_and_frees_the_land() {
    let mut game = start(3, 11);
    let other = game.map.areas[usize::from(game.map.capitals[1])].borders[1];
    let elsewhere = plain_path(&game, 1)[0];
    set(&mut game, other, Some(1), partly_used_d6(1, 2));
    set(&mut game, elsewhere, Some(1), units(0, 3));
    let (capital, _, events) = take_capital(&mut game, 0, 1, 0);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PlayerEliminated {
            seat: Seat(1),
            by: Seat(0),
            ..
        }
    )));
    assert!(game.is_eliminated(Seat(1)));
    assert_eq!(game.owner(capital), Some(Seat(0)));
    assert_eq!(game.areas[usize::from(other)].owner, None);
    assert_eq!(
        game.areas[usize::from(other)].units,
        units(3, 0),
        "used marks cleared"
    );
    assert_eq!(game.areas[usize::from(elsewhere)].owner, None);
    assert_eq!(game.areas[usize::from(elsewhere)].units, units(0, 3));
    assert!(game.areas.iter().all(|a| a.owner != Some(Seat(1))));
    // A taken capital produces like a plain area: one d6 at its new owner's turn.
    assert_eq!(
        super::super::production(super::super::AreaKind::Capital).total(),
        1
    );
    // The match goes on with 3 players, and seat 1 is skipped.
    assert_eq!(game.outcome(), None);
    game.play(Seat(0), &crate::capitals::Action::EndTurn)
        .expect("end");
    assert_eq!(game.to_act(), Some(Seat(2)));
}

#[test]
fn c_end_2_with_two_players_the_first_capital_taken_ends_the_match() {
    let mut game = start(2, 12);
    let (_, _, events) = take_capital(&mut game, 1, 0, 2);
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason.as_str()),
        (Seat(1), "capital_taken")
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameOver {
            winner: Seat(1),
            ..
        }
    )));
}

#[test]
fn c_end_2_with_three_or_four_the_match_goes_on_to_the_last_player() {
    let mut game = start(4, 13);
    for (round, loser) in [1u8, 2, 3].into_iter().enumerate() {
        take_capital(&mut game, 0, loser, 0);
        if round < 2 {
            assert_eq!(game.outcome(), None, "still {} players", 3 - round);
        }
    }
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason.as_str()),
        (Seat(0), "last_player_standing")
    );
}
