//! The JSON shapes clients send and receive, and the clock-expiry default for every pending
//! decision.

use super::support::*;
use super::turn::conquer;
use crate::classic::{Action, Card, Classic, ClassicOptions, Dice, Event, Phase};
use crate::core::{RuleError, Ruleset, Seat, Viewer};
use crate::rng::Seed;

#[test]
fn actions_read_and_write_the_documented_json() {
    let cases = [
        (
            r#"{"type":"claim","territory":5}"#,
            Action::Claim { territory: 5 },
        ),
        (
            r#"{"type":"place","territory":5,"units":3}"#,
            Action::Place {
                territory: 5,
                units: 3,
            },
        ),
        (
            r#"{"type":"trade","cards":[1,2,42]}"#,
            Action::Trade {
                cards: [Card(1), Card(2), Card(42)],
                bonus: None,
            },
        ),
        (
            r#"{"type":"trade","cards":[1,2,42],"bonus":2}"#,
            Action::Trade {
                cards: [Card(1), Card(2), Card(42)],
                bonus: Some(2),
            },
        ),
        (
            r#"{"type":"attack","from":0,"to":1,"dice":3}"#,
            Action::Attack {
                from: 0,
                to: 1,
                dice: 3,
            },
        ),
        (
            r#"{"type":"move_in","units":4}"#,
            Action::MoveIn { units: 4 },
        ),
        (
            r#"{"type":"fortify","from":0,"to":3,"units":2}"#,
            Action::Fortify {
                from: 0,
                to: 3,
                units: 2,
            },
        ),
        (r#"{"type":"end_turn"}"#, Action::EndTurn),
    ];
    for (json, action) in cases {
        assert_eq!(
            serde_json::from_str::<Action>(json).unwrap(),
            action,
            "{json}"
        );
        assert_eq!(serde_json::to_string(&action).unwrap(), json);
    }
    assert!(serde_json::from_str::<Action>(r#"{"type":"nuke"}"#).is_err());
    assert!(
        serde_json::from_str::<Action>(r#"{"type":"place","territory":500,"units":1}"#).is_err()
    );
}

#[test]
fn events_and_views_serialize_for_clients() {
    let battle = Event::Battle {
        from: 0,
        to: 1,
        attacker_dice: Dice::new(&[6, 1, 3]),
        defender_dice: Dice::new(&[2]),
        attacker_losses: 0,
        defender_losses: 1,
    };
    let json = serde_json::to_string(&battle).unwrap();
    assert_eq!(
        json,
        r#"{"type":"battle","from":0,"to":1,"attacker_dice":[6,1,3],"defender_dice":[2],"attacker_losses":0,"defender_losses":1}"#
    );
    assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), battle);
    assert!(serde_json::from_str::<Dice>("[1,2,3,4]").is_err());
    let (s, events) = Classic::new(&ClassicOptions::default(), 3, Seed::from_u64(1)).unwrap();
    for event in &events {
        let back: Event = serde_json::from_str(&serde_json::to_string(event).unwrap()).unwrap();
        assert_eq!(&back, event);
    }
    let view = serde_json::to_value(s.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["board"]["regions"].as_array().unwrap().len(), 42);
    assert_eq!(view["phase"]["step"], "claim");
    assert_eq!(view["borders"].as_array().unwrap().len(), 83);
    assert_eq!(view["territories"][0]["name"], "Alaska");
    assert_eq!(view["next_set_value"], 4);
}

#[test]
fn every_error_has_a_snake_case_code_and_a_message() {
    let mut s = staged(3);
    let attempts = [
        (Seat(1), Action::EndTurn),
        (Seat(0), Action::Claim { territory: 1 }),
        (
            Seat(0),
            Action::Attack {
                from: 0,
                to: 99,
                dice: 1,
            },
        ),
        (Seat(0), Action::MoveIn { units: 1 }),
    ];
    for (seat, action) in attempts {
        let err = s.play(seat, &action).unwrap_err();
        let code = err.code();
        assert!(
            code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{code}"
        );
        assert!(err.to_string().len() > 10, "{err}");
    }
}

#[test]
fn timeout_action_is_accepted_for_every_pending_decision() {
    let accept = |s: &mut Classic| {
        let seat = s.to_act().unwrap();
        let action = s.timeout_action().unwrap();
        ok(s, seat.0, action);
        action
    };
    // Claim and deploy.
    let (mut s, _) = Classic::new(&ClassicOptions::default(), 3, Seed::from_u64(8)).unwrap();
    assert!(matches!(accept(&mut s), Action::Claim { .. }));
    while s.phase == Phase::Claim {
        accept(&mut s);
    }
    assert!(matches!(accept(&mut s), Action::Place { units: 1, .. }));
    // Reinforce: the whole reserve at once; then attack: end the turn.
    let mut s = staged(3);
    s.phase = Phase::Reinforce;
    s.reserve = 7;
    assert!(matches!(accept(&mut s), Action::Place { units: 7, .. }));
    assert_eq!(s.phase, Phase::Attack);
    assert_eq!(accept(&mut s), Action::EndTurn);
    // Forced trade at turn start.
    let mut s = staged(3);
    s.phase = Phase::Reinforce;
    s.reserve = 3;
    s.hands[0] = [0, 1, 2, 4, 5].map(Card).to_vec();
    assert!(matches!(accept(&mut s), Action::Trade { .. }));
    // Move-in, then the trade and placement after taking a defeated player's cards.
    let mut s = staged(3);
    for t in 0..42 {
        if s.owner[t] == 2 {
            s.owner[t] = 1;
        }
    }
    give(&mut s, 0, &[0], 30);
    give(&mut s, 2, &[1], 1);
    s.hands[0] = [0, 1, 2].map(Card).to_vec();
    s.hands[2] = [3, 6, 9].map(Card).to_vec();
    conquer(&mut s, 0, 1);
    assert!(matches!(accept(&mut s), Action::MoveIn { .. }));
    assert_eq!(s.phase, Phase::EliminationTrade);
    assert!(matches!(accept(&mut s), Action::Trade { .. }));
    assert!(matches!(accept(&mut s), Action::Place { .. }));
    assert_eq!(s.phase, Phase::Attack);
}
