//! Setup, production and rounds: C-START-1, C-START-2, C-UNIT-1, C-PROD-1, C-PROD-2,
//! C-NEUTRAL-1, C-ROUND-1.

use std::collections::BTreeSet;

use super::super::{Action, AreaKind, Event, Options, Selection, Units, production};
use super::{homes, plain_path, set, start, transport, turn_of, units};
use crate::core::{Ruleset, Seat};
use crate::rng::Seed;

/// Ends turns until it is `seat`'s turn again (at least one turn passes).
fn pass_until(game: &mut super::super::Capitals, seat: u8) -> Vec<Event> {
    let mut events = Vec::new();
    loop {
        let current = game.to_act().expect("running");
        events.extend(game.play(current, &Action::EndTurn).expect("end turn"));
        if game.to_act() == Some(Seat(seat)) {
            return events;
        }
    }
}

#[test]
fn c_start_1_each_player_starts_with_only_a_capital_of_four_d6() {
    for seats in 2..=4 {
        let (game, events) =
            super::super::Capitals::new(&Options::default(), seats, Seed::from_u64(21))
                .expect("setup");
        let first = game.first_player();
        for seat in 0..seats {
            let owned: Vec<u16> = (0..game.map.len() as u16)
                .filter(|&a| game.owner(a) == Some(Seat(seat)))
                .collect();
            let capital = game.map.capitals[usize::from(seat)];
            assert_eq!(owned, vec![capital]);
            // The first player's first turn has already produced (C-PROD-1).
            let expected = if Seat(seat) == first { 5 } else { 4 };
            assert_eq!(game.areas[usize::from(capital)].units, units(expected, 0));
        }
        assert!(events.contains(&Event::Produced {
            area: game.map.capitals[first.index()],
            units: Selection::new(1, 0),
            lost: 0
        }));
    }
}

#[test]
fn c_start_2_every_other_area_is_neutral_with_one_d6() {
    let game = start(3, 22);
    for (a, area) in game.areas.iter().enumerate() {
        if !game.map.capitals.contains(&(a as u16)) {
            assert_eq!(area.owner, None);
            assert_eq!(area.units, units(1, 0));
        }
    }
}

#[test]
fn c_unit_1_an_area_holds_ten_units_and_production_beyond_is_lost() {
    let mut game = start(2, 23);
    let seat = game.to_act().expect("running").0;
    let fast = homes(&game, seat, AreaKind::FastFactory)[0];
    let capital = game.map.capitals[usize::from(seat)];
    set(&mut game, fast, Some(seat), units(9, 0));
    set(&mut game, capital, Some(seat), units(6, 4));
    let events = pass_until(&mut game, seat);
    assert_eq!(game.areas[usize::from(fast)].units, units(10, 0));
    assert!(events.contains(&Event::Produced {
        area: fast,
        units: Selection::new(2, 0),
        lost: 1
    }));
    assert_eq!(game.areas[usize::from(capital)].units.total(), 10);
    assert!(events.contains(&Event::Produced {
        area: capital,
        units: Selection::new(1, 0),
        lost: 1
    }));
}

#[test]
fn c_prod_1_each_kind_produces_at_the_start_of_its_owners_turn() {
    assert_eq!(production(AreaKind::Plain), Selection::new(1, 0));
    assert_eq!(production(AreaKind::Capital), Selection::new(1, 0));
    assert_eq!(production(AreaKind::Centre), Selection::new(1, 0));
    assert_eq!(production(AreaKind::FastFactory), Selection::new(2, 0));
    assert_eq!(production(AreaKind::StrongFactory), Selection::new(0, 1));
    let mut game = start(2, 24);
    let seat = game.to_act().expect("running").0;
    let other = 1 - seat;
    let fast = homes(&game, seat, AreaKind::FastFactory)[0];
    let strong = homes(&game, seat, AreaKind::StrongFactory)[0];
    let centre = (0..game.map.len() as u16)
        .find(|&a| game.map.areas[usize::from(a)].kind == AreaKind::Centre)
        .expect("a centre fragment");
    let plain = plain_path(&game, 1)[0];
    for area in [fast, strong, centre, plain] {
        set(&mut game, area, Some(seat), units(1, 0));
    }
    let capital = game.map.capitals[usize::from(seat)];
    let before = game.areas[usize::from(capital)].units;
    game.play(Seat(seat), &Action::EndTurn).expect("end");
    // Nothing is produced for `seat` during the other player's turn.
    assert_eq!(game.areas[usize::from(fast)].units, units(1, 0));
    game.play(Seat(other), &Action::EndTurn).expect("end");
    assert_eq!(game.areas[usize::from(fast)].units, units(3, 0));
    assert_eq!(game.areas[usize::from(strong)].units, units(1, 1));
    assert_eq!(game.areas[usize::from(centre)].units, units(2, 0));
    assert_eq!(game.areas[usize::from(plain)].units, units(2, 0));
    assert_eq!(game.areas[usize::from(capital)].units.d6, before.d6 + 1);
}

#[test]
fn c_prod_2_new_units_can_act_in_the_same_turn() {
    let mut game = start(2, 25);
    let seat = game.to_act().expect("running").0;
    let path = plain_path(&game, 1);
    set(&mut game, path[0], Some(seat), units(1, 0));
    set(&mut game, path[1], Some(seat), units(1, 0));
    // With one unit the area cannot send anything; after production it can.
    turn_of(&mut game, seat);
    assert_eq!(
        super::refused(&game, seat, &transport(path[0], path[1], 1, 0)),
        "must_leave_one_unit"
    );
    pass_until(&mut game, seat);
    assert_eq!(game.areas[usize::from(path[0])].units, units(2, 0));
    game.play(Seat(seat), &transport(path[0], path[1], 1, 0))
        .expect("a produced unit acts at once");
}

#[test]
fn c_neutral_1_neutral_areas_grow_each_new_round_up_to_three() {
    let mut game = start(3, 26);
    let path = plain_path(&game, 2);
    set(&mut game, path[1], None, units(2, 0));
    set(
        &mut game,
        path[2],
        None,
        Units {
            d6: 1,
            d8: 2,
            ..Units::default()
        },
    );
    let round = game.round();
    // Turns within the round do not grow anything.
    let current = game.to_act().expect("running");
    game.play(current, &Action::EndTurn).expect("end");
    assert_eq!(game.areas[usize::from(path[0])].units, units(1, 0));
    let first = game.first_player().0;
    let events = pass_until(&mut game, first);
    assert_eq!(game.round(), round + 1);
    assert!(events.contains(&Event::RoundStarted { round: round + 1 }));
    assert!(events.contains(&Event::NeutralGrew { area: path[0] }));
    assert_eq!(game.areas[usize::from(path[0])].units, units(2, 0));
    assert_eq!(game.areas[usize::from(path[1])].units, units(3, 0));
    assert_eq!(
        game.areas[usize::from(path[2])].units.total(),
        3,
        "already 3: no growth"
    );
    pass_until(&mut game, first);
    assert_eq!(game.areas[usize::from(path[0])].units, units(3, 0));
    assert_eq!(game.areas[usize::from(path[1])].units, units(3, 0));
    pass_until(&mut game, first);
    assert_eq!(
        game.areas[usize::from(path[0])].units,
        units(3, 0),
        "capped at 3"
    );
}

#[test]
fn c_round_1_the_first_player_is_drawn_and_seats_follow_in_order() {
    let firsts: BTreeSet<u8> = (0..40)
        .map(|seed| start(4, seed).first_player().0)
        .collect();
    assert_eq!(
        firsts,
        BTreeSet::from([0, 1, 2, 3]),
        "every seat can be drawn"
    );
    assert_eq!(start(4, 7).first_player(), start(4, 7).first_player());
    let mut game = start(4, 27);
    let first = game.first_player().0;
    let mut order = Vec::new();
    for _ in 0..8 {
        let seat = game.to_act().expect("running");
        order.push(seat.0);
        game.play(seat, &Action::EndTurn).expect("end");
    }
    let expected: Vec<u8> = (0..8).map(|i| (first + i) % 4).collect();
    assert_eq!(order, expected);
    assert_eq!(game.round(), 3);
}

#[test]
fn c_round_1_eliminated_players_are_skipped_and_a_new_round_clears_used_marks() {
    let mut game = start(4, 28);
    let first = game.first_player().0;
    let skipped = (first + 2) % 4;
    game.eliminated[usize::from(skipped)] = true;
    let used = plain_path(&game, 1)[0];
    set(
        &mut game,
        used,
        Some(first),
        Units {
            d6_used: 2,
            ..Units::default()
        },
    );
    let mut order = Vec::new();
    for _ in 0..3 {
        let seat = game.to_act().expect("running");
        order.push(seat.0);
        game.play(seat, &Action::EndTurn).expect("end");
    }
    assert_eq!(order, vec![first, (first + 1) % 4, (first + 3) % 4]);
    assert_eq!(game.round(), 2);
    assert_eq!(game.to_act(), Some(Seat(first)));
    // New round cleared the marks, then the first player's turn produced one more.
    assert_eq!(game.areas[usize::from(used)].units, units(3, 0));
}
