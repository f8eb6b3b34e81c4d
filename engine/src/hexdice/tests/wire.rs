//! The JSON shapes of actions and events that docs/PROTOCOL.md points to, and that nothing in
//! hexdice is hidden from any viewer.

use serde_json::json;

use super::fixture::{play, position, small};
use crate::core::{Ruleset, Seat, Viewer};
use crate::hexdice::{Action, Event, Hexdice};

#[test]
fn actions_read_and_write_the_documented_json() {
    let cases = [
        (
            json!({"type": "place", "cell": 3, "value": 5}),
            Action::Place { cell: 3, value: 5 },
        ),
        (
            json!({"type": "attack", "from": 3, "target": 4}),
            Action::Attack { from: 3, target: 4 },
        ),
        (
            json!({"type": "combined_attack", "attackers": [3, 8], "target": 4}),
            Action::CombinedAttack {
                attackers: [3, 8],
                target: 4,
            },
        ),
        (
            json!({"type": "choose_attack", "attacker": 8, "roll": 2}),
            Action::ChooseAttack {
                attacker: 8,
                roll: 2,
            },
        ),
        (
            json!({"type": "conquer", "move_in": false}),
            Action::Conquer { move_in: false },
        ),
        (
            json!({"type": "move", "from": 3, "to": 9}),
            Action::Move { from: 3, to: 9 },
        ),
        (json!({"type": "end_turn"}), Action::EndTurn),
    ];
    for (value, action) in cases {
        assert_eq!(
            serde_json::from_value::<Action>(value.clone()).unwrap(),
            action
        );
        assert_eq!(serde_json::to_value(action).unwrap(), value);
    }
}

#[test]
fn events_round_trip_and_are_public_to_every_viewer() {
    let mut state = position(small(), &[(0, 0, 4), (1, 1, 3), (9, 1, 6)], 0, &[2]);
    let events = play(&mut state, 0, Action::Attack { from: 0, target: 1 });
    let json = serde_json::to_value(&events).unwrap();
    assert_eq!(
        json[0],
        json!({"type": "attack_rolled", "seat": 0, "from": 0, "target": 1, "roll": 2})
    );
    assert_eq!(json[1]["type"], "attack_resolved");
    assert_eq!(json[1]["result"], "valid");
    let back: Vec<Event> = serde_json::from_value(json).unwrap();
    assert_eq!(back, events);
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
    ] {
        for event in &events {
            assert_eq!(&Hexdice::redact_event(event, viewer), event);
        }
        assert_eq!(state.view(viewer), state.view(Viewer::Spectator));
    }
}
