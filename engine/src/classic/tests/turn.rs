//! A turn: reinforcements, attacks, the move-in and the fortify (W-REINF-1, W-ATK-*, W-FORT-1),
//! and out-of-turn refusals (G-TURN-1).

use super::support::*;
use crate::classic::map::{Continent, TERRITORIES};
use crate::classic::{
    Action, Classic, ClassicOptions, Dice, Event, FortifyMode, Phase, battle_losses,
    territory_reinforcements,
};
use crate::core::{Ruleset, Seat};

// Ids used below (see map.rs).
const ALASKA: u8 = 0;
const NW_TERRITORY: u8 = 1;
const ALBERTA: u8 = 3;
const ONTARIO: u8 = 4;
const WESTERN_US: u8 = 6;
const KAMCHATKA: u8 = 29;
const BRAZIL: u8 = 11;

/// Attacks with 3 dice until `to` falls, returning every event of the attacks.
pub fn conquer(s: &mut Classic, from: u8, to: u8) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..200 {
        if s.owner[usize::from(to)] == s.current {
            return all;
        }
        let seat = s.current;
        let dice = crate::classic::max_attack_dice(s.units[usize::from(from)]);
        all.extend(ok(s, seat, Action::Attack { from, to, dice }));
    }
    panic!("no conquest in 200 attacks");
}

#[test]
fn w_reinf_1_territories_over_three_at_least_three_plus_continents() {
    // The seed's table: 1–11 → 3, 12–14 → 4, … 39–41 → 13.
    for n in 1..=11 {
        assert_eq!(territory_reinforcements(n), 3);
    }
    for (low, units) in [
        (12, 4),
        (15, 5),
        (18, 6),
        (21, 7),
        (24, 8),
        (27, 9),
        (30, 10),
        (33, 11),
        (36, 12),
        (39, 13),
    ] {
        for n in low..low + 3 {
            assert_eq!(territory_reinforcements(n), units, "{n} territories");
        }
    }
    let mut s = staged(3);
    for t in 0..42 {
        s.owner[t] = 1;
    }
    // Australia whole (4 territories): 3 + 2.
    give(&mut s, 0, &[38, 39, 40, 41], 1);
    assert_eq!(s.reinforcements(0), 5);
    // North America whole plus three of South America (12): 4 + 5.
    give(&mut s, 1, &(0..42).collect::<Vec<_>>(), 1);
    give(&mut s, 0, &(0..12).collect::<Vec<_>>(), 1);
    assert_eq!(s.reinforcements(0), 9);
    // Add Brazil's continent's last territory: South America whole too.
    give(&mut s, 0, &[12], 1);
    assert_eq!(s.reinforcements(0), 4 + 5 + 2);
    let all: u32 = Continent::ALL.into_iter().map(Continent::bonus).sum();
    give(&mut s, 0, &(0..41).collect::<Vec<_>>(), 1);
    assert_eq!(s.reinforcements(0), 13 + all - Continent::Australia.bonus());
}

#[test]
fn w_reinf_1_all_reinforcements_placed_before_attacking() {
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA], 5);
    give(&mut s, 1, &[NW_TERRITORY], 1);
    let events = ok(&mut s, 0, Action::EndTurn);
    // Seats 1 and 2 pass their turns; seat 0 then gets max(3, 14 / 3) = 4.
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::TurnStarted { seat: Seat(1), .. }))
    );
    let r = s.reserve;
    ok(&mut s, 1, place(NW_TERRITORY, r));
    ok(&mut s, 1, Action::EndTurn);
    let r = s.reserve;
    ok(&mut s, 2, place(2, r));
    let events = ok(&mut s, 2, Action::EndTurn);
    let held = s.owner.iter().filter(|&&o| o == 0).count() as u32;
    let expected = s.reinforcements(0);
    assert_eq!(expected, territory_reinforcements(held));
    assert!(events.contains(&Event::TurnStarted {
        seat: Seat(0),
        turn: 4,
        reinforcements: expected
    }));
    assert_eq!((s.phase, s.reserve), (Phase::Reinforce, expected));
    refused(
        &mut s,
        0,
        attack(ALASKA, NW_TERRITORY, 3),
        "reinforcements_pending",
    );
    refused(&mut s, 0, Action::EndTurn, "reinforcements_pending");
    refused(
        &mut s,
        0,
        fortify(ALASKA, ALBERTA, 1),
        "reinforcements_pending",
    );
    refused(&mut s, 0, place(ALASKA, expected + 1), "units_out_of_range");
    refused(&mut s, 0, place(ALASKA, 0), "units_out_of_range");
    refused(&mut s, 0, place(NW_TERRITORY, 1), "not_your_territory");
    refused(&mut s, 0, place(200, 1), "unknown_territory");
    ok(&mut s, 0, place(ALASKA, 1));
    assert_eq!(
        (s.units[0], s.reserve, s.phase),
        (6, expected - 1, Phase::Reinforce)
    );
    ok(&mut s, 0, place(ALASKA, expected - 1));
    assert_eq!(
        (s.units[0], s.reserve, s.phase),
        (5 + expected, 0, Phase::Attack)
    );
    ok(&mut s, 0, attack(ALASKA, NW_TERRITORY, 3));
}

#[test]
fn w_atk_1_attack_a_bordering_enemy_from_two_or_more_units_any_number_of_times() {
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA], 1);
    give(&mut s, 0, &[ALBERTA], 20);
    give(&mut s, 1, &[NW_TERRITORY], 30);
    give(&mut s, 1, &[WESTERN_US], 30);
    give(&mut s, 2, &[KAMCHATKA], 30);
    for (action, code) in [
        (attack(ALASKA, NW_TERRITORY, 1), "not_enough_units"),
        (attack(ALBERTA, ALASKA, 1), "own_territory"),
        (attack(ALBERTA, KAMCHATKA, 1), "not_adjacent"),
        (attack(NW_TERRITORY, ALBERTA, 1), "not_your_territory"),
        (attack(ALBERTA, 42, 1), "unknown_territory"),
    ] {
        refused(&mut s, 0, action, code);
    }
    s.units[0] = 2;
    ok(&mut s, 0, attack(ALASKA, KAMCHATKA, 1));
    // Many attacks in one turn, on several targets.
    for _ in 0..3 {
        ok(&mut s, 0, attack(ALBERTA, NW_TERRITORY, 3));
        ok(&mut s, 0, attack(ALBERTA, WESTERN_US, 3));
    }
    assert_eq!(s.phase, Phase::Attack);
    assert_eq!(s.current, 0);
}

#[test]
fn w_atk_2_attacker_rolls_one_to_three_dice_defender_two_or_one() {
    let mut s = staged(3);
    give(&mut s, 1, &[NW_TERRITORY], 5);
    for (units, max) in [(2, 1), (3, 2), (4, 3), (50, 3)] {
        give(&mut s, 0, &[ALASKA], units);
        refused(
            &mut s,
            0,
            attack(ALASKA, NW_TERRITORY, max + 1),
            "invalid_dice",
        );
        refused(&mut s, 0, attack(ALASKA, NW_TERRITORY, 0), "invalid_dice");
        let events = ok(&mut s, 0, attack(ALASKA, NW_TERRITORY, max));
        let (attacker_dice, defender_dice, _, _) = first_battle(&events);
        assert_eq!(attacker_dice.faces().len(), usize::from(max));
        assert_eq!(defender_dice.faces().len(), 2, "2+ defenders roll 2 dice");
        give(&mut s, 1, &[NW_TERRITORY], 5);
    }
    give(&mut s, 1, &[NW_TERRITORY], 1);
    give(&mut s, 0, &[ALASKA], 10);
    let events = ok(&mut s, 0, attack(ALASKA, NW_TERRITORY, 3));
    let (_, defender_dice, _, _) = first_battle(&events);
    assert_eq!(
        defender_dice.faces().len(),
        1,
        "a lone defender rolls 1 die"
    );
}

#[test]
fn w_atk_3_highest_meets_highest_and_ties_go_to_the_defender() {
    // The seed's example: 4, 3, 6 against 5, 4: 6 beats 5, 4 ties 4.
    assert_eq!(
        battle_losses(&Dice::new(&[4, 3, 6]), &Dice::new(&[5, 4])),
        (1, 1)
    );
    assert_eq!(
        battle_losses(&Dice::new(&[6, 6, 1]), &Dice::new(&[5, 5])),
        (0, 2)
    );
    assert_eq!(
        battle_losses(&Dice::new(&[3, 3]), &Dice::new(&[3, 3])),
        (2, 0)
    );
    assert_eq!(battle_losses(&Dice::new(&[2]), &Dice::new(&[1, 6])), (1, 0));
    assert_eq!(
        battle_losses(&Dice::new(&[1, 1, 2]), &Dice::new(&[1])),
        (0, 1)
    );
    assert_eq!(battle_losses(&Dice::new(&[5]), &Dice::new(&[5])), (1, 0));
    // The engine removes exactly the units its battle event reports.
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA], 40);
    give(&mut s, 1, &[NW_TERRITORY], 40);
    for _ in 0..20 {
        let (a, d) = (s.units[0], s.units[1]);
        let events = ok(&mut s, 0, attack(ALASKA, NW_TERRITORY, 3));
        let (attacker_dice, defender_dice, attacker_losses, defender_losses) =
            first_battle(&events);
        assert_eq!(
            battle_losses(&attacker_dice, &defender_dice),
            (attacker_losses, defender_losses)
        );
        assert_eq!(attacker_losses + defender_losses, 2);
        assert_eq!(
            (s.units[0], s.units[1]),
            (a - attacker_losses, d - defender_losses)
        );
    }
}

#[test]
fn w_atk_4_conqueror_moves_in_between_dice_rolled_and_all_but_one() {
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA], 10);
    give(&mut s, 1, &[NW_TERRITORY], 1);
    let events = conquer(&mut s, ALASKA, NW_TERRITORY);
    let Some(Event::Conquered {
        territory,
        seat,
        from,
        units,
    }) = events
        .iter()
        .find(|e| matches!(e, Event::Conquered { .. }))
        .cloned()
    else {
        panic!("{events:?}")
    };
    assert_eq!(
        (territory, seat, from, units),
        (NW_TERRITORY, Seat(0), Seat(1), 3)
    );
    let Phase::MoveIn { from, to, min, max } = s.phase else {
        panic!("{:?}", s.phase)
    };
    // The compulsory three are in already; the territory is never empty. At most all but one
    // of the source's units (as they were at the conquest) may go.
    let source = s.units[0] + 3;
    assert!(source >= 5);
    assert_eq!((from, to, min, max), (ALASKA, NW_TERRITORY, 3, source - 1));
    assert_eq!(s.units[1], 3);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let mid = 3 + (source - 4) / 2;
    assert_eq!(legal.first(), Some(&Action::MoveIn { units: 3 }));
    assert_eq!(legal.last(), Some(&Action::MoveIn { units: source - 1 }));
    assert!(legal.contains(&Action::MoveIn { units: mid }));
    refused(
        &mut s,
        0,
        Action::MoveIn { units: source },
        "units_out_of_range",
    );
    refused(&mut s, 0, Action::MoveIn { units: 2 }, "units_out_of_range");
    refused(&mut s, 0, attack(ALASKA, KAMCHATKA, 1), "move_in_pending");
    refused(&mut s, 0, Action::EndTurn, "move_in_pending");
    refused(&mut s, 0, place(ALASKA, 1), "wrong_phase");
    let events = ok(&mut s, 0, Action::MoveIn { units: 4 });
    assert_eq!(
        events,
        vec![Event::MovedIn {
            from: ALASKA,
            to: NW_TERRITORY,
            units: 1
        }]
    );
    assert_eq!(
        (s.units[0], s.units[1], s.phase),
        (source - 4, 4, Phase::Attack)
    );
    refused(&mut s, 0, Action::MoveIn { units: 3 }, "wrong_phase");

    // With no choice (source has exactly dice + 1 units) the move-in happens at once.
    give(&mut s, 0, &[ALBERTA], 4);
    give(&mut s, 1, &[ONTARIO], 1);
    loop {
        ok(&mut s, 0, attack(ALBERTA, ONTARIO, 3));
        if s.owner[usize::from(ONTARIO)] == 0 || s.units[usize::from(ALBERTA)] < 4 {
            break;
        }
    }
    if s.owner[usize::from(ONTARIO)] == 0 {
        assert_eq!(s.phase, Phase::Attack);
        assert_eq!((s.units[3], s.units[4]), (1, 3));
    }
}

#[test]
fn w_fort_1_one_fortify_at_the_end_to_a_bordering_own_territory() {
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA, ALBERTA, ONTARIO], 5);
    give(&mut s, 0, &[WESTERN_US], 1);
    give(&mut s, 1, &[NW_TERRITORY], 3);
    for (action, code) in [
        (fortify(ALASKA, ONTARIO, 1), "not_adjacent"),
        (fortify(ALASKA, NW_TERRITORY, 1), "not_your_territory"),
        (fortify(ALASKA, ALASKA, 1), "same_territory"),
        (fortify(ALASKA, ALBERTA, 5), "units_out_of_range"),
        (fortify(ALASKA, ALBERTA, 0), "units_out_of_range"),
        (fortify(WESTERN_US, ALBERTA, 1), "units_out_of_range"),
    ] {
        refused(&mut s, 0, action, code);
    }
    let events = ok(&mut s, 0, fortify(ALASKA, ALBERTA, 4));
    assert_eq!(
        events[0],
        Event::Fortified {
            from: ALASKA,
            to: ALBERTA,
            units: 4
        }
    );
    assert_eq!((s.units[0], s.units[3]), (1, 9));
    // The fortify ends the turn: there is no second one.
    assert!(events.contains(&Event::TurnEnded { seat: Seat(0) }));
    assert_eq!(s.current, 1);
    refused(&mut s, 0, fortify(ALBERTA, ALASKA, 1), "not_your_turn");

    // Room option `connected`: any chain of own territories.
    let mut s = staged(3);
    s.options = ClassicOptions {
        fortify: FortifyMode::Connected,
        ..ClassicOptions::default()
    };
    give(&mut s, 0, &[ALASKA, ALBERTA, ONTARIO], 5);
    give(&mut s, 1, &[NW_TERRITORY, WESTERN_US], 3);
    give(&mut s, 0, &[BRAZIL], 3);
    refused(&mut s, 0, fortify(ALASKA, BRAZIL, 1), "not_connected");
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert!(legal.contains(&fortify(ALASKA, ONTARIO, 4)));
    ok(&mut s, 0, fortify(ALASKA, ONTARIO, 2));
    assert_eq!((s.units[0], s.units[4]), (3, 7));
}

#[test]
fn g_turn_1_out_of_turn_actions_are_refused_and_change_nothing() {
    let mut s = staged(3);
    give(&mut s, 1, &[NW_TERRITORY], 5);
    give(&mut s, 0, &[ALASKA], 5);
    for seat in [1, 2] {
        for action in [
            Action::EndTurn,
            attack(NW_TERRITORY, ALASKA, 1),
            place(NW_TERRITORY, 1),
            Action::Claim { territory: 5 },
            Action::MoveIn { units: 1 },
            fortify(NW_TERRITORY, 2, 1),
            Action::Trade {
                cards: [
                    crate::classic::Card(0),
                    crate::classic::Card(1),
                    crate::classic::Card(2),
                ],
                bonus: None,
            },
        ] {
            refused(&mut s, seat, action, "not_your_turn");
        }
    }
    refused(&mut s, 9, Action::EndTurn, "not_your_turn");
    // During setup and during a pending move-in, too.
    let (mut setup, _) =
        Classic::new(&ClassicOptions::default(), 4, crate::rng::Seed::from_u64(2)).unwrap();
    let other = (setup.current + 1) % 4;
    refused(
        &mut setup,
        other,
        Action::Claim { territory: 0 },
        "not_your_turn",
    );
    give(&mut s, 1, &[NW_TERRITORY], 1);
    give(&mut s, 0, &[ALASKA], 20);
    conquer(&mut s, ALASKA, NW_TERRITORY);
    assert!(matches!(s.phase, Phase::MoveIn { .. }));
    refused(&mut s, 1, Action::MoveIn { units: 3 }, "not_your_turn");
    // The error names whose turn it is.
    let err = s.play(Seat(2), &Action::EndTurn).unwrap_err();
    assert!(err.to_string().contains("seat 0"), "{err}");
    assert_eq!(TERRITORIES[usize::from(ALASKA)].name, "Alaska");
}
