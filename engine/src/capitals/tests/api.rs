//! The outside of the ruleset: options, seat counts, the JSON shape of actions, the view.

use super::super::{Action, AreaKind, Capitals, MapSize, Options, Path, Selection};
use super::start;
use crate::core::{RuleError, Ruleset, Seat, Viewer};
use crate::rng::Seed;

#[test]
fn options_default_to_a_medium_map_and_refuse_unknown_fields() {
    let parsed: Options = serde_json::from_str("{}").expect("empty options");
    assert_eq!(parsed, Options::default());
    assert_eq!(parsed.map_size, MapSize::Medium);
    let large: Options = serde_json::from_str(r#"{"map_size":"large"}"#).expect("large");
    assert_eq!(large.map_size, MapSize::Large);
    assert!(serde_json::from_str::<Options>(r#"{"map_size":"huge"}"#).is_err());
    assert!(serde_json::from_str::<Options>(r#"{"roads":true}"#).is_err());
}

#[test]
fn two_to_four_seats() {
    assert_eq!(Capitals::seat_counts(), 2..=4);
    for seats in [0, 1, 5, 9] {
        let error = Capitals::check_options(&Options::default(), seats).expect_err("refused");
        assert_eq!(error.code, "bad_seat_count");
        assert!(Capitals::new(&Options::default(), seats, Seed::from_u64(1)).is_err());
    }
    for size in [MapSize::Small, MapSize::Medium, MapSize::Large] {
        for seats in 2..=4 {
            let options = Options { map_size: size };
            assert!(Capitals::check_options(&options, seats).is_ok());
            assert!(Capitals::new(&options, seats, Seed::from_u64(2)).is_ok());
        }
    }
}

#[test]
fn actions_read_and_write_the_documented_json() {
    for (text, action) in [
        (
            r#"{"type":"attack","path":[3,7],"units":{"d6":2,"d8":1}}"#,
            Action::Attack {
                path: Path::new(&[3, 7]).expect("path"),
                units: Selection::new(2, 1),
            },
        ),
        (
            r#"{"type":"transport","from":1,"to":2,"units":{"d8":1}}"#,
            Action::Transport {
                from: 1,
                to: 2,
                units: Selection::new(0, 1),
            },
        ),
        (r#"{"type":"end_turn"}"#, Action::EndTurn),
    ] {
        assert_eq!(serde_json::from_str::<Action>(text).expect(text), action);
        let written = serde_json::to_string(&action).expect("serialise");
        assert_eq!(
            serde_json::from_str::<Action>(&written).expect("round trip"),
            action
        );
    }
    // Far too long a path does not even parse; a merely too long one is a rule error.
    assert!(
        serde_json::from_str::<Action>(
            r#"{"type":"attack","path":[1,2,3,4,5,6,7,8,9],"units":{"d6":1}}"#
        )
        .is_err()
    );
    assert!(
        serde_json::from_str::<Action>(r#"{"type":"attack","path":[1,2],"units":{"d10":1}}"#)
            .is_err()
    );
}

#[test]
fn error_codes_are_snake_case_and_messages_readable() {
    let game = start(2, 31);
    let other = Seat(1 - game.to_act().expect("running").0);
    let error = game
        .clone()
        .play(other, &Action::EndTurn)
        .expect_err("not their turn");
    assert_eq!(error.code(), "not_your_turn");
    assert_eq!(error.to_string(), "it is not your turn");
}

#[test]
fn the_view_draws_the_board_as_hex_regions_with_kinds_and_units() {
    let game = start(3, 32);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.board.regions.len(), game.map().len());
    assert_eq!(view.areas.len(), game.map().len());
    for (area, shape) in view.areas.iter().zip(&view.board.regions) {
        assert_eq!(area.id, shape.id);
        assert!(!shape.cells.is_empty());
    }
    let capitals = view
        .areas
        .iter()
        .filter(|a| a.kind == AreaKind::Capital)
        .count();
    assert_eq!(capitals, 3);
    assert_eq!(view.seats.len(), 3);
    assert_eq!(view.to_act, game.to_act());
    // Nothing is hidden in capitals: every viewer sees the same.
    let json = |viewer| serde_json::to_value(game.view(viewer)).expect("json");
    assert_eq!(json(Viewer::Spectator), json(Viewer::Seat(Seat(0))));
    let value = json(Viewer::Spectator);
    assert!(value["board"]["regions"].is_array());
    assert_eq!(value["areas"][0]["kind"], "capital");
}
