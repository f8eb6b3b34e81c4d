//! Property tests over random legal 3–6 player games mixed with arbitrary (mostly illegal)
//! actions: the engine contract of core.rs and classic's own invariants.
//! - a held territory never has fewer than 1 unit, an unclaimed one none;
//! - the units on the board change only by placed units, territory bonuses and battle losses;
//! - the 44 cards are always all somewhere (deck, set-aside or one hand), each once;
//! - a refused action changes nothing (compared with a clone), an accepted arbitrary one is fine;
//! - every listed legal action and the timeout action are accepted;
//! - replaying the accepted actions gives the same state and events (G-RNG-1).

use proptest::prelude::*;

use crate::classic::policy;
use crate::classic::state::NOBODY;
use crate::classic::{
    Action, CARD_COUNT, Card, Classic, ClassicOptions, Event, FortifyMode, SetupMode,
};
use crate::core::{Ruleset, Seat};
use crate::replay::replay;
use crate::rng::{MatchRng, Seed};

fn arb_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (0u8..50).prop_map(|territory| Action::Claim { territory }),
        (0u8..50, 0u32..12).prop_map(|(territory, units)| Action::Place { territory, units }),
        (prop::array::uniform3(0u8..48), prop::option::of(0u8..48)).prop_map(|(c, bonus)| {
            Action::Trade {
                cards: c.map(Card),
                bonus,
            }
        }),
        (0u8..50, 0u8..50, 0u8..5).prop_map(|(from, to, dice)| Action::Attack { from, to, dice }),
        (0u32..40).prop_map(|units| Action::MoveIn { units }),
        (0u8..50, 0u8..50, 0u32..12).prop_map(|(from, to, units)| Action::Fortify {
            from,
            to,
            units
        }),
        Just(Action::EndTurn),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(from, to, dice)| Action::Attack {
            from,
            to,
            dice
        }),
        (any::<u8>(), any::<u32>())
            .prop_map(|(territory, units)| Action::Place { territory, units }),
        any::<u32>().prop_map(|units| Action::MoveIn { units }),
        (any::<u8>(), any::<u8>(), any::<u32>()).prop_map(|(from, to, units)| Action::Fortify {
            from,
            to,
            units
        }),
    ]
}

fn arb_options() -> impl Strategy<Value = ClassicOptions> {
    (any::<bool>(), any::<bool>()).prop_map(|(random, connected)| ClassicOptions {
        setup: if random {
            SetupMode::Random
        } else {
            SetupMode::Claim
        },
        fortify: if connected {
            FortifyMode::Connected
        } else {
            FortifyMode::Adjacent
        },
    })
}

/// Checks the invariants after an accepted action.
fn check_invariants(before: &Classic, after: &Classic, events: &[Event]) {
    for t in 0..42 {
        if after.owner[t] == NOBODY {
            assert_eq!(after.units[t], 0, "unclaimed territory {t} has units");
        } else {
            assert!(
                after.units[t] >= 1,
                "held territory {t} is empty: {events:?}"
            );
        }
    }
    let mut added = 0u64;
    let mut lost = 0u64;
    for event in events {
        match event {
            Event::Claimed { .. } => added += 1,
            Event::Placed { units, .. } | Event::TerritoryBonus { units, .. } => {
                added += u64::from(*units)
            }
            Event::Battle {
                attacker_losses,
                defender_losses,
                ..
            } => lost += u64::from(attacker_losses + defender_losses),
            _ => {}
        }
    }
    assert_eq!(
        after.total_units(),
        before.total_units() + added - lost,
        "{events:?}"
    );
    let mut cards: Vec<Card> = after
        .deck
        .iter()
        .chain(&after.set_aside)
        .chain(after.hands.iter().flatten())
        .copied()
        .collect();
    cards.sort();
    assert_eq!(cards, (0..CARD_COUNT).map(Card).collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_engine_contract(
        seats in 3u8..=6,
        seed in any::<u64>(),
        options in arb_options(),
        steps in prop::collection::vec((any::<u16>(), prop::option::of((0u8..8, arb_action()))), 0..1500),
    ) {
        let (mut s, setup_events) = Classic::new(&options, seats, Seed::from_u64(seed)).unwrap();
        let mut chooser = MatchRng::new(Seed::from_u64(seed.wrapping_add(1)));
        let mut record: Vec<(Seat, Action)> = Vec::new();
        let mut all_events: Vec<Vec<Event>> = Vec::new();
        let mut legal = Vec::new();
        for (pick, arbitrary) in steps {
            if let Some((seat, action)) = arbitrary {
                let mut trial = s.clone();
                let mut events = Vec::new();
                match trial.apply(Seat(seat), &action, &mut events) {
                    Ok(()) => {
                        check_invariants(&s, &trial, &events);
                        record.push((Seat(seat), action));
                        all_events.push(events);
                        s = trial;
                    }
                    Err(_) => {
                        prop_assert!(events.is_empty());
                        prop_assert_eq!(&trial, &s, "a refused {:?} changed the state", action);
                    }
                }
            }
            let Some(seat) = s.to_act() else { break };
            legal.clear();
            s.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty());
            for action in &legal {
                let mut trial = s.clone();
                prop_assert!(trial.play(seat, action).is_ok(), "listed {:?} refused", action);
            }
            let timeout = s.timeout_action().expect("a timeout action while the match runs");
            prop_assert!(s.clone().play(seat, &timeout).is_ok(), "timeout {:?} refused", timeout);
            let action = if pick % 3 == 0 {
                legal[policy::choose(&s, &legal, &mut chooser)]
            } else {
                legal[usize::from(pick) % legal.len()]
            };
            let before = s.clone();
            let events = s.play(seat, &action).unwrap();
            check_invariants(&before, &s, &events);
            record.push((seat, action));
            all_events.push(events);
        }
        let replayed = replay::<Classic>(&options, seats, Seed::from_u64(seed), record.iter().map(|(seat, a)| (*seat, a))).unwrap();
        prop_assert_eq!(&replayed.state, &s);
        prop_assert_eq!(replayed.setup_events, setup_events);
        prop_assert_eq!(replayed.action_events, all_events);
    }
}

/// Whole games to the end, with the same checks on every step (the proptest games are cut short):
/// invariants, every listed action and the timeout action accepted, replay equals live.
#[test]
fn whole_games_keep_the_invariants_and_replay() {
    for seats in 3..=6u8 {
        let options = if seats % 2 == 0 {
            ClassicOptions::default()
        } else {
            super::support::quick()
        };
        let seed = 7 * u64::from(seats);
        let mut record = Vec::new();
        let mut phases = std::collections::HashSet::new();
        let (end, _) = super::support::play_game(
            &options,
            seats,
            seed,
            100_000,
            |before, seat, action, after, events| {
                check_invariants(before, after, events);
                record.push((seat, *action));
                let mut legal = Vec::new();
                before.legal_actions(&mut legal);
                for listed in &legal {
                    assert!(
                        before.clone().play(seat, listed).is_ok(),
                        "listed {listed:?} refused"
                    );
                }
                let timeout = before.timeout_action().unwrap();
                assert!(
                    before.clone().play(seat, &timeout).is_ok(),
                    "timeout {timeout:?} refused"
                );
                phases.insert(std::mem::discriminant(&before.phase));
            },
        );
        let replayed = replay::<Classic>(
            &options,
            seats,
            Seed::from_u64(seed),
            record.iter().map(|(seat, a)| (*seat, a)),
        )
        .unwrap();
        assert_eq!(replayed.state, end);
        // Claim, deploy, reinforce, attack and move-in all happened (elimination trades are rare
        // and pinned by their own tests).
        let least = if options.setup == SetupMode::Claim {
            5
        } else {
            3
        };
        assert!(
            phases.len() >= least,
            "{seats} seats: only {} steps seen",
            phases.len()
        );
    }
}
