//! Setup rules: starting units, the opening roll, claiming and placing (W-SETUP-*), and the
//! room options.

use super::support::*;
use crate::classic::{
    Action, Classic, ClassicOptions, Event, FortifyMode, Phase, SetupMode, starting_units,
};
use crate::core::{Ruleset, Seat};
use crate::rng::Seed;

fn claim_match(seats: u8, seed: u64) -> (Classic, Vec<Event>) {
    Classic::new(&ClassicOptions::default(), seats, Seed::from_u64(seed)).unwrap()
}

#[test]
fn w_setup_1_starting_units_by_player_count() {
    for (seats, units) in [(3, 35), (4, 30), (5, 25), (6, 20)] {
        assert_eq!(starting_units(seats), units);
        let (s, _) = claim_match(seats, 3);
        assert_eq!(s.to_place, vec![units; usize::from(seats)]);
        let (s, _) = Classic::new(&quick(), seats, Seed::from_u64(3)).unwrap();
        for seat in 0..seats {
            let total: u32 = (0..42)
                .filter(|&t| s.owner[t] == seat)
                .map(|t| s.units[t])
                .sum();
            assert_eq!(total, units, "random setup, seat {seat}");
        }
    }
    assert_eq!(Classic::seat_counts(), 3..=6);
    for bad in [0, 2, 7] {
        let err = Classic::new(&ClassicOptions::default(), bad, Seed::from_u64(1)).unwrap_err();
        assert_eq!(err.code, "invalid_seats");
        assert!(Classic::check_options(&ClassicOptions::default(), bad).is_err());
    }
}

#[test]
fn w_setup_2_opening_roll_picks_the_first_player() {
    let mut firsts = std::collections::HashSet::new();
    for seed in 0..40 {
        let (s, events) = claim_match(4, seed);
        let first = events
            .iter()
            .find_map(|e| match e {
                Event::FirstPlayer { seat } => Some(*seat),
                _ => None,
            })
            .unwrap();
        // Replay the rounds: all four roll, then only those tied at the top roll again.
        let rolls: Vec<(Seat, u8)> = events
            .iter()
            .filter_map(|e| match e {
                Event::OrderRoll { seat, die } => Some((*seat, *die)),
                _ => None,
            })
            .collect();
        assert!(rolls.iter().all(|&(_, d)| (1..=6).contains(&d)));
        let mut contenders: Vec<Seat> = (0..4).map(Seat).collect();
        let mut rest = &rolls[..];
        while contenders.len() > 1 {
            let (round, later) = rest.split_at(contenders.len());
            assert_eq!(round.iter().map(|r| r.0).collect::<Vec<_>>(), contenders);
            let best = round.iter().map(|r| r.1).max().unwrap();
            contenders = round.iter().filter(|r| r.1 == best).map(|r| r.0).collect();
            rest = later;
        }
        assert!(rest.is_empty());
        assert_eq!(contenders, vec![first]);
        assert_eq!(s.to_act(), Some(first));
        firsts.insert(first);
    }
    assert!(firsts.len() > 1, "the roll, not seat order, decides");

    // Claims go round the table from the first player, placing continues the rotation after
    // the last claim, and the first turn is the first player's.
    let (mut s, _) = claim_match(4, 5);
    let first = s.current;
    let mut order = Vec::new();
    while s.phase == Phase::Claim {
        let seat = s.current;
        order.push(seat);
        let t = s.owner.iter().position(|&o| o == u8::MAX).unwrap() as u8;
        ok(&mut s, seat, Action::Claim { territory: t });
    }
    for (i, &seat) in order.iter().enumerate() {
        assert_eq!(seat, (first + i as u8) % 4);
    }
    let last_claimer = *order.last().unwrap();
    assert_eq!(s.current, (last_claimer + 1) % 4);
    while s.phase == Phase::Deploy {
        let seat = s.current;
        let t = s.owner.iter().position(|&o| o == seat).unwrap() as u8;
        ok(&mut s, seat, place(t, 1));
    }
    assert_eq!(s.phase, Phase::Reinforce);
    assert_eq!(s.current, first);
    assert_eq!(s.turn, 1);
}

#[test]
fn w_setup_3_claim_empty_territories_one_at_a_time() {
    let (mut s, _) = claim_match(3, 9);
    let a = s.current;
    let b = (a + 1) % 3;
    refused(&mut s, a, place(0, 1), "wrong_phase");
    refused(
        &mut s,
        a,
        Action::Claim { territory: 42 },
        "unknown_territory",
    );
    refused(&mut s, a, Action::EndTurn, "wrong_phase");
    let events = ok(&mut s, a, Action::Claim { territory: 7 });
    assert_eq!(
        events,
        vec![Event::Claimed {
            seat: Seat(a),
            territory: 7
        }]
    );
    assert_eq!(
        (s.owner[7], s.units[7], s.to_place[usize::from(a)]),
        (a, 1, 34)
    );
    refused(&mut s, b, Action::Claim { territory: 7 }, "territory_taken");
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal.len(), 41);
    assert!(!legal.contains(&Action::Claim { territory: 7 }));
    for t in 0..42u8 {
        if s.owner[usize::from(t)] == u8::MAX {
            let seat = s.current;
            ok(&mut s, seat, Action::Claim { territory: t });
        }
    }
    assert!(s.owner.iter().all(|&o| o < 3));
    assert_eq!(s.phase, Phase::Deploy);
    for seat in 0..3 {
        assert_eq!(s.owner.iter().filter(|&&o| o == seat).count(), 14);
    }
}

#[test]
fn w_setup_4_remaining_units_placed_one_at_a_time() {
    let (mut s, _) = claim_match(4, 11);
    while s.phase == Phase::Claim {
        let seat = s.current;
        let t = s.owner.iter().position(|&o| o == u8::MAX).unwrap() as u8;
        ok(&mut s, seat, Action::Claim { territory: t });
    }
    let seat = s.current;
    let mine = s.owner.iter().position(|&o| o == seat).unwrap() as u8;
    let theirs = s.owner.iter().position(|&o| o != seat).unwrap() as u8;
    refused(&mut s, seat, place(mine, 2), "units_out_of_range");
    refused(&mut s, seat, place(theirs, 1), "not_your_territory");
    refused(&mut s, seat, attack(mine, theirs, 1), "wrong_phase");
    let before = s.units[usize::from(mine)];
    ok(&mut s, seat, place(mine, 1));
    assert_eq!(s.units[usize::from(mine)], before + 1);
    // 42 territories among 4: two seats claimed 11, two 10, so the latter place one more unit.
    let mut placed = 1;
    while s.phase == Phase::Deploy {
        let seat = s.current;
        assert!(
            s.to_place[usize::from(seat)] > 0,
            "a seat with nothing left is skipped"
        );
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        assert!(
            legal
                .iter()
                .all(|a| matches!(a, Action::Place { units: 1, .. }))
        );
        ok(&mut s, seat, legal[0]);
        placed += 1;
    }
    assert_eq!(placed, 4 * 30 - 42);
    assert_eq!(s.total_units(), 120);
    assert!(s.to_place.iter().all(|&u| u == 0));
}

#[test]
fn w_setup_4_random_setup_deals_every_territory_evenly() {
    for seats in 3..=6u8 {
        let (s, events) = Classic::new(&quick(), seats, Seed::from_u64(u64::from(seats))).unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::TerritoriesDealt { .. }))
        );
        assert!(s.owner.iter().all(|&o| o < seats));
        assert!(s.units.iter().all(|&u| u >= 1));
        let counts: Vec<usize> = (0..seats)
            .map(|p| s.owner.iter().filter(|&&o| o == p).count())
            .collect();
        assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
        for p in 0..seats {
            let units: Vec<u32> = (0..42)
                .filter(|&t| s.owner[t] == p)
                .map(|t| s.units[t])
                .collect();
            assert!(
                units.iter().max().unwrap() - units.iter().min().unwrap() <= 1,
                "{units:?}"
            );
        }
        assert_eq!(s.phase, Phase::Reinforce);
        assert_eq!(s.turn, 1);
    }
}

#[test]
fn options_default_and_refuse_unknown_fields() {
    let defaults: ClassicOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(defaults.setup, SetupMode::Claim);
    assert_eq!(defaults.fortify, FortifyMode::Adjacent);
    let chosen: ClassicOptions =
        serde_json::from_str(r#"{"setup":"random","fortify":"connected"}"#).unwrap();
    assert_eq!(
        (chosen.setup, chosen.fortify),
        (SetupMode::Random, FortifyMode::Connected)
    );
    assert!(serde_json::from_str::<ClassicOptions>(r#"{"board":"mars"}"#).is_err());
    assert!(serde_json::from_str::<ClassicOptions>(r#"{"setup":"draft"}"#).is_err());
}

#[test]
fn whole_games_finish_in_every_mode() {
    for seats in 3..=6 {
        for options in [ClassicOptions::default(), quick()] {
            let (s, _) = play_game(
                &options,
                seats,
                u64::from(seats),
                100_000,
                |_, _, _, _, _| {},
            );
            let outcome = s.outcome().expect("over");
            assert_eq!(outcome.reason, "world_conquered");
            assert!(s.owner.iter().all(|&o| Seat(o) == outcome.winner));
        }
    }
}
