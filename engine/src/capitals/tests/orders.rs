//! Orders: C-ORD-1, C-ORD-2, C-TRANS-1, C-ATK-1, C-DEEP-1 and out-of-turn refusals (G-TURN-1).

use super::super::check::die_caps;
use super::super::{Action, Event, ORDERS_PER_TURN, Path, Selection, Side};
use super::{
    attack, dice, partly_used_d6, plain_path, refused, set, start, take_capital, transport,
    turn_of, two_areas, units,
};
use crate::core::{Ruleset, Seat};

#[test]
fn c_ord_1_at_most_five_orders_then_only_end_turn() {
    let (mut game, a, b) = two_areas(5, units(10, 0), Some(0), units(1, 0));
    for _ in 0..ORDERS_PER_TURN {
        game.play(Seat(0), &transport(a, b, 1, 0))
            .expect("an order");
    }
    assert_eq!(game.orders_given(), 5);
    assert_eq!(refused(&game, 0, &transport(a, b, 1, 0)), "no_orders_left");
    assert_eq!(refused(&game, 0, &attack(&[a, b], 1, 0)), "no_orders_left");
    let mut listed = Vec::new();
    game.legal_actions(&mut listed);
    assert_eq!(listed, vec![Action::EndTurn]);
    game.play(Seat(0), &Action::EndTurn).expect("end turn");
    assert_eq!(game.to_act(), Some(Seat(1)));
}

#[test]
fn c_ord_1_a_turn_may_end_after_no_order() {
    let mut game = start(3, 5);
    let first = game.to_act().expect("running");
    let events = game.play(first, &Action::EndTurn).expect("end turn");
    assert_eq!(events[0], Event::TurnEnded { seat: first });
    assert_ne!(game.to_act(), Some(first));
}

#[test]
fn c_ord_2_used_units_cannot_act_again_until_the_round_ends() {
    let (mut game, a, b) = two_areas(6, units(5, 0), Some(0), units(1, 0));
    game.play(Seat(0), &transport(a, b, 2, 0))
        .expect("transport");
    let moved = game.areas[usize::from(b)].units;
    assert_eq!((moved.d6, moved.d6_used), (1, 2));
    assert_eq!(
        refused(&game, 0, &transport(b, a, 2, 0)),
        "not_enough_unused_units"
    );
    game.play(Seat(0), &transport(b, a, 1, 0))
        .expect("the unused one may go");
    // Make seat 0 the round's first player, so the round ends after seat 1's turn.
    game.first = Seat(0);
    game.play(Seat(0), &Action::EndTurn).expect("end");
    game.play(Seat(1), &Action::EndTurn).expect("end");
    assert_eq!(game.round(), 2);
    let b_units = game.areas[usize::from(b)].units;
    assert_eq!((b_units.d6_used, b_units.d8_used), (0, 0));
}

#[test]
fn c_trans_1_one_unit_of_any_kind_stays_and_the_target_holds_ten() {
    let mut game = start(2, 7);
    let path = plain_path(&game, 2);
    let (a, b, c) = (path[0], path[1], path[2]);
    set(&mut game, a, Some(0), partly_used_d6(1, 1));
    set(&mut game, b, Some(0), units(8, 1));
    set(&mut game, c, None, units(1, 0));
    turn_of(&mut game, 0);
    // The used unit may be the one that stays.
    game.play(Seat(0), &transport(a, b, 1, 0))
        .expect("leaves the used unit");
    assert_eq!(game.areas[usize::from(b)].units.total(), 10);
    // Sending every unit of an area with no used unit would leave it empty.
    set(&mut game, b, Some(0), units(8, 1));
    assert_eq!(
        refused(&game, 0, &transport(b, a, 8, 1)),
        "must_leave_one_unit"
    );
    set(&mut game, a, Some(0), units(3, 0));
    set(&mut game, b, Some(0), units(9, 0));
    assert_eq!(refused(&game, 0, &transport(a, b, 2, 0)), "target_full");
    assert_eq!(refused(&game, 0, &transport(b, c, 1, 0)), "target_not_own");
    assert_eq!(refused(&game, 0, &transport(a, b, 0, 0)), "no_units");
    assert_eq!(
        refused(&game, 0, &transport(a, b, 0, 1)),
        "not_enough_unused_units"
    );
    assert_eq!(refused(&game, 0, &transport(c, b, 1, 0)), "not_your_area");
    assert_eq!(refused(&game, 0, &transport(a, 9999, 1, 0)), "unknown_area");
    game.play(Seat(0), &transport(a, b, 1, 0))
        .expect("fills b to 10");
    assert_eq!(game.areas[usize::from(b)].units.total(), 10);
}

#[test]
fn c_atk_1_attack_a_bordering_neutral_or_enemy_area_leaving_one_unit() {
    let (mut game, a, b) = two_areas(8, units(0, 10), None, units(1, 0));
    assert_eq!(
        refused(&game, 0, &attack(&[a, b], 0, 10)),
        "must_leave_one_unit"
    );
    assert_eq!(refused(&game, 0, &attack(&[b, a], 1, 0)), "not_your_area");
    // Nine d8 (at least 9) always beat one d6 (at most 6).
    let events = game.play(Seat(0), &attack(&[a, b], 0, 9)).expect("attack");
    assert!(events.contains(&Event::AreaCaptured {
        area: b,
        seat: Seat(0),
        previous: None
    }));
    assert_eq!(game.areas[usize::from(a)].units, units(0, 1));
    assert_eq!(refused(&game, 0, &attack(&[a, b], 0, 1)), "target_is_own");
    // An enemy area can be attacked too.
    set(&mut game, b, Some(1), units(1, 0));
    set(&mut game, a, Some(0), units(0, 10));
    game.play(Seat(0), &attack(&[a, b], 0, 9))
        .expect("attack an enemy");
    assert_eq!(game.owner(b), Some(Seat(0)));
}

#[test]
fn c_deep_1_caps_lower_by_one_per_hostile_area() {
    // The seed's figures: d6 6/5/4/3 and d8 8/7/6/5 for 0/1/2/3 hostile areas.
    let caps: Vec<(u8, u8)> = (0..=3).map(die_caps).collect();
    assert_eq!(caps, vec![(6, 8), (5, 7), (4, 6), (3, 5)]);
}

/// A game where seat 0 owns the start of a 3-step plain path and seat 1 owns the rest.
fn deep_game(seed: u64) -> (super::super::Capitals, Vec<u16>) {
    let mut game = start(2, seed);
    let path = plain_path(&game, 3);
    set(&mut game, path[0], Some(0), units(1, 9));
    for &a in &path[1..] {
        set(&mut game, a, Some(1), units(1, 0));
    }
    turn_of(&mut game, 0);
    (game, path)
}

/// Seat 0 attacks along `path` with 9 d8; the events.
fn d8_attack(game: &mut super::super::Capitals, path: &[u16]) -> Vec<Event> {
    game.play(Seat(0), &attack(path, 0, 9)).expect("attack")
}

/// The d6 and d8 caps of the attack that `events` start with.
fn launched_caps(events: &[Event]) -> (u8, u8) {
    match events.first() {
        Some(Event::AttackLaunched { d6_cap, d8_cap, .. }) => (*d6_cap, *d8_cap),
        other => panic!("not an attack: {other:?}"),
    }
}

#[test]
fn c_deep_1_three_hostile_areas_cap_d8_at_5_and_d6_at_3() {
    let mut seen_above_cap = false;
    for seed in 0..6 {
        let (mut game, path) = deep_game(seed);
        let events = d8_attack(&mut game, &path);
        assert_eq!(launched_caps(&events), (3, 5));
        let rolls = dice(&events, Side::Attacker);
        assert_eq!(rolls.len(), 9);
        for (_, rolled, counted) in rolls {
            assert!((1..=8).contains(&rolled));
            assert_eq!(counted, rolled.min(5));
            seen_above_cap |= rolled > 5;
        }
        // Defender dice are never capped.
        for (_, rolled, counted) in dice(&events, Side::Defender) {
            assert_eq!(rolled, counted);
        }
        let (mut game, path) = deep_game(seed);
        set(&mut game, path[0], Some(0), units(10, 0));
        let events = game
            .play(Seat(0), &attack(&path, 9, 0))
            .expect("deep attack");
        for (_, rolled, counted) in dice(&events, Side::Attacker) {
            assert_eq!(counted, rolled.min(3));
        }
    }
    assert!(seen_above_cap, "capped dice are rolled normally");
}

#[test]
fn c_deep_1_neutral_and_own_areas_do_not_lower_the_cap() {
    let (mut game, path) = deep_game(1);
    // own, neutral, then the enemy target: one hostile area on the path.
    set(&mut game, path[1], Some(0), units(1, 0));
    set(&mut game, path[2], None, units(1, 0));
    // Keep the source at the front through a neighbour off the path (a plain area never
    // borders a capital, so this is never one).
    let enemy = game.map.areas[usize::from(path[0])]
        .borders
        .iter()
        .copied()
        .find(|b| !path.contains(b))
        .expect("the source has a neighbour off the path");
    set(&mut game, enemy, Some(1), units(1, 0));
    let events = d8_attack(&mut game, &path);
    assert_eq!(launched_caps(&events), (5, 7));
}

#[test]
fn c_deep_1_an_ordinary_attack_has_no_cap() {
    let (mut game, path) = deep_game(2);
    let events = d8_attack(&mut game, &path[..2]);
    assert_eq!(launched_caps(&events), (6, 8));
    for (_, rolled, counted) in dice(&events, Side::Attacker) {
        assert_eq!(rolled, counted);
    }
}

#[test]
fn c_deep_1_two_step_paths_work_too() {
    let (mut game, path) = deep_game(3);
    let events = d8_attack(&mut game, &path[..3]);
    assert_eq!(launched_caps(&events), (4, 6));
}

#[test]
fn c_deep_1_the_source_must_border_another_players_area() {
    let (mut game, path) = deep_game(4);
    for &a in &path[1..] {
        set(&mut game, a, None, units(1, 0));
    }
    // No neighbour of the source is another player's: plain areas never border a capital.
    assert!(!game.at_front(Seat(0), path[0]));
    assert_eq!(
        refused(&game, 0, &attack(&path, 0, 9)),
        "source_not_at_front"
    );
    // An ordinary attack needs no front.
    game.play(Seat(0), &attack(&path[..2], 0, 9))
        .expect("1-step attack");
}

#[test]
fn c_deep_1_paths_are_simple_bordering_and_two_or_three_steps() {
    let (game, path) = deep_game(5);
    let (s, a, b, c) = (path[0], path[1], path[2], path[3]);
    assert_eq!(refused(&game, 0, &attack(&[s], 0, 1)), "bad_path_length");
    let no_path = Action::Attack {
        path: Path::new(&[]).expect("empty"),
        units: Selection::new(0, 1),
    };
    assert_eq!(refused(&game, 0, &no_path), "bad_path_length");
    // Four steps is too deep, even along bordering areas.
    let d = game.map.areas[usize::from(c)]
        .borders
        .iter()
        .copied()
        .find(|x| !path.contains(x))
        .expect("c has another neighbour");
    assert_eq!(
        refused(&game, 0, &attack(&[s, a, b, c, d], 0, 1)),
        "bad_path_length"
    );
    assert_eq!(
        refused(&game, 0, &attack(&[s, a, s, a], 0, 1)),
        "path_repeats_area"
    );
    assert_eq!(refused(&game, 0, &attack(&[s, c], 0, 1)), "not_adjacent");
    if !game.map.borders(a, c) {
        assert_eq!(refused(&game, 0, &attack(&[s, a, c], 0, 1)), "not_adjacent");
    }
    if !game.map.borders(s, b) {
        assert_eq!(refused(&game, 0, &attack(&[s, b], 0, 1)), "not_adjacent");
    }
    assert_eq!(
        refused(&game, 0, &attack(&[s, a, b, 999], 0, 1)),
        "unknown_area"
    );
}

#[test]
fn g_turn_1_only_the_seat_to_act_may_act() {
    let game = start(4, 9);
    let current = game.to_act().expect("running").0;
    let capital = game.map.capitals[usize::from(current)];
    for seat in (0..4).chain([4, 200]).filter(|&s| s != current) {
        assert_eq!(refused(&game, seat, &Action::EndTurn), "not_your_turn");
        assert_eq!(
            refused(&game, seat, &transport(capital, capital, 1, 0)),
            "not_your_turn"
        );
        assert_eq!(
            refused(&game, seat, &attack(&[capital, 0], 1, 0)),
            "not_your_turn"
        );
    }
}

#[test]
fn g_turn_1_nothing_is_accepted_once_the_match_is_over() {
    let mut game = start(2, 10);
    take_capital(&mut game, 0, 1, 0);
    assert!(game.outcome().is_some());
    assert_eq!(game.to_act(), None);
    assert_eq!(game.timeout_action(), None);
    for seat in 0..2 {
        assert_eq!(refused(&game, seat, &Action::EndTurn), "game_over");
    }
    let mut listed = Vec::new();
    game.legal_actions(&mut listed);
    assert!(listed.is_empty());
}
