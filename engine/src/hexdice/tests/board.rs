//! H-BOARD-1 and H-BOARD-2: board validation, the named layouts, the random generator, custom
//! layouts and the board option's JSON.

use super::fixture::small;
use crate::core::{Ruleset, Seat, Viewer};
use crate::hex::Hex;
use crate::hexdice::{
    Board, BoardChoice, CombinedAttackSources, Conquest, Hexdice, LastTiebreak, Layout, Options,
    RandomBoard, random_layout,
};
use crate::rng::{MatchRng, Seed};

fn line(n: i16) -> Vec<Hex> {
    (0..n).map(|q| Hex::new(q, 0)).collect()
}

fn code_of(cells: Vec<Hex>) -> &'static str {
    Board::new(cells).expect_err("must be refused").code
}

fn is_connected(cells: &[Hex]) -> bool {
    let mut seen = vec![cells[0]];
    let mut i = 0;
    while i < seen.len() {
        let here = seen[i];
        for next in cells {
            if here.is_adjacent(*next) && !seen.contains(next) {
                seen.push(*next);
            }
        }
        i += 1;
    }
    seen.len() == cells.len()
}

#[test]
fn h_board_1_an_even_connected_board_of_8_to_36_cells_is_accepted() {
    for n in (8..=36).step_by(2) {
        let board = Board::new(line(n)).expect("a line is connected");
        assert_eq!(board.len(), usize::from(n as u16));
    }
}

#[test]
fn h_board_1_odd_too_small_or_too_large_counts_are_refused() {
    assert_eq!(code_of(line(9)), "invalid_board_size");
    assert_eq!(code_of(line(6)), "invalid_board_size");
    assert_eq!(code_of(line(38)), "invalid_board_size");
    assert_eq!(code_of(Vec::new()), "invalid_board_size");
    let message = Board::new(line(9)).unwrap_err().message;
    assert!(
        message.contains("even") && message.contains('9'),
        "{message}"
    );
}

#[test]
fn h_board_1_duplicate_cells_are_refused() {
    let mut cells = line(8);
    cells[7] = Hex::new(2, 0);
    assert_eq!(code_of(cells), "duplicate_cell");
}

#[test]
fn h_board_1_a_disconnected_board_is_refused() {
    let mut cells = line(8);
    cells[7] = Hex::new(20, 20);
    assert_eq!(code_of(cells), "board_not_connected");
    // Far-apart coordinates must not overflow while adjacency is computed.
    let mut extreme = line(6);
    extreme.push(Hex::new(i16::MIN, i16::MAX));
    extreme.push(Hex::new(i16::MAX, i16::MIN));
    assert_eq!(code_of(extreme), "board_not_connected");
}

#[test]
fn h_board_1_cells_are_adjacent_exactly_when_they_share_an_edge() {
    let board = Board::new(Layout::Small.cells()).unwrap();
    let cells = board.cells();
    for a in 0..cells.len() {
        for b in 0..cells.len() {
            assert_eq!(
                board.adjacent(a as u8, b as u8),
                cells[a].is_adjacent(cells[b]),
                "{a} {b}"
            );
        }
    }
    assert!(board.adjacent(0, 1) && board.adjacent(0, 5) && board.adjacent(1, 5));
    assert!(!board.adjacent(0, 2) && !board.adjacent(0, 200));
}

#[test]
fn h_board_2_named_layouts_have_10_20_and_36_cells() {
    for (layout, n) in [
        (Layout::Small, 10),
        (Layout::Medium, 20),
        (Layout::Full, 36),
    ] {
        let board = Board::new(layout.cells()).expect("named layouts are valid");
        assert_eq!(board.len(), n);
    }
}

#[test]
fn h_board_2_the_generator_grows_connected_layouts_of_every_even_size() {
    for n in (8..=36).step_by(2) {
        for seed in 0..20 {
            let cells = random_layout(n, &mut MatchRng::new(Seed::from_u64(seed)));
            assert_eq!(cells.len(), n);
            assert!(is_connected(&cells));
            Board::new(cells).expect("generated layouts are valid");
        }
    }
}

#[test]
fn h_board_2_the_generator_is_seeded() {
    let grow = |seed| random_layout(20, &mut MatchRng::new(Seed::from_u64(seed)));
    assert_eq!(grow(5), grow(5));
    assert_ne!(grow(5), grow(6));
}

#[test]
fn h_board_2_a_random_board_option_builds_a_board_of_that_size() {
    let options = Options {
        board: BoardChoice::Random(RandomBoard {
            cells: 24,
            seed: None,
        }),
        ..Options::default()
    };
    let (a, _) = Hexdice::new(&options, 2, Seed::from_u64(1)).unwrap();
    let (b, _) = Hexdice::new(&options, 2, Seed::from_u64(1)).unwrap();
    assert_eq!(a.board().len(), 24);
    assert_eq!(a.board(), b.board(), "same match seed, same board");
    let seeded = Options {
        board: BoardChoice::Random(RandomBoard {
            cells: 24,
            seed: Some(9),
        }),
        ..Options::default()
    };
    let (c, _) = Hexdice::new(&seeded, 2, Seed::from_u64(1)).unwrap();
    let (d, _) = Hexdice::new(&seeded, 2, Seed::from_u64(2)).unwrap();
    assert_eq!(
        c.board(),
        d.board(),
        "a board seed does not depend on the match seed"
    );
    for cells in [7, 38, 0] {
        let bad = Options {
            board: BoardChoice::Random(RandomBoard { cells, seed: None }),
            ..Options::default()
        };
        assert_eq!(
            Hexdice::check_options(&bad, 2).unwrap_err().code,
            "invalid_board_size"
        );
        assert_eq!(
            Hexdice::new(&bad, 2, Seed::from_u64(1)).unwrap_err().code,
            "invalid_board_size"
        );
    }
}

#[test]
fn h_board_2_a_custom_layout_is_played_as_given_or_refused() {
    let custom = Options {
        board: BoardChoice::Custom(line(12)),
        ..Options::default()
    };
    Hexdice::check_options(&custom, 2).expect("a line of 12 is valid");
    let (state, _) = Hexdice::new(&custom, 2, Seed::from_u64(3)).unwrap();
    assert_eq!(state.board().cells(), &line(12)[..]);
    let broken = Options {
        board: BoardChoice::Custom(line(11)),
        ..Options::default()
    };
    assert_eq!(
        Hexdice::check_options(&broken, 2).unwrap_err().code,
        "invalid_board_size"
    );
}

#[test]
fn h_board_2_board_options_read_from_json_with_defaults_and_no_typos() {
    let parse = |json: &str| serde_json::from_str::<Options>(json);
    assert_eq!(parse("{}").unwrap(), Options::default());
    assert_eq!(
        parse(r#"{"board": {"layout": "small"}}"#).unwrap().board,
        BoardChoice::Layout(Layout::Small)
    );
    assert_eq!(
        parse(r#"{"board": {"random": {"cells": 20}}}"#)
            .unwrap()
            .board,
        BoardChoice::Random(RandomBoard {
            cells: 20,
            seed: None
        })
    );
    assert_eq!(
        parse(r#"{"board": {"custom": [{"q": 0, "r": 0}, {"q": 1, "r": 0}]}}"#)
            .unwrap()
            .board,
        BoardChoice::Custom(line(2))
    );
    let variants = parse(
        r#"{"combined_attack_sources": "not_adjacent", "conquest": "optional",
            "last_tiebreak": "occupation_starter"}"#,
    )
    .unwrap();
    assert_eq!(
        variants.combined_attack_sources,
        CombinedAttackSources::NotAdjacent
    );
    assert_eq!(variants.conquest, Conquest::Optional);
    assert_eq!(variants.last_tiebreak, LastTiebreak::OccupationStarter);
    assert!(
        parse(r#"{"conquets": "optional"}"#).is_err(),
        "typo refused"
    );
    assert!(parse(r#"{"board": {"layout": "huge"}}"#).is_err());
    assert!(parse(r#"{"board": {"random": {"cells": 20, "sede": 1}}}"#).is_err());
    let round_trip = serde_json::to_string(&variants).unwrap();
    assert_eq!(parse(&round_trip).unwrap(), variants);
}

#[test]
fn h_board_2_defaults_are_the_ones_rules_md_lists() {
    let options = Options::default();
    assert_eq!(
        options.combined_attack_sources,
        CombinedAttackSources::Adjacent
    );
    assert_eq!(options.conquest, Conquest::Mandatory);
    assert_eq!(options.last_tiebreak, LastTiebreak::FirstTurn);
    assert_eq!(options.board, BoardChoice::Layout(Layout::Medium));
}

#[test]
fn h_board_2_the_view_has_one_region_per_cell() {
    let (state, _) = Hexdice::new(&small(), 2, Seed::from_u64(1)).unwrap();
    let view = state.view(Viewer::Spectator);
    assert_eq!(view.board.regions.len(), 10);
    for (i, region) in view.board.regions.iter().enumerate() {
        assert_eq!(usize::from(region.id), i);
        assert_eq!(region.cells, vec![state.board().cells()[i]]);
    }
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["board"]["regions"][0]["cells"][0]["q"], 0);
    assert_eq!(view, state.view(Viewer::Seat(Seat(0))), "all public");
}

#[test]
fn h_board_1_setup_refuses_a_seat_count_other_than_two() {
    for seats in [0, 1, 3] {
        assert_eq!(
            Hexdice::check_options(&Options::default(), seats)
                .unwrap_err()
                .code,
            "invalid_seat_count"
        );
        assert!(Hexdice::new(&Options::default(), seats, Seed::from_u64(1)).is_err());
    }
    assert_eq!(Hexdice::seat_counts(), 2..=2);
}
