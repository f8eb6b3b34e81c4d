//! Property tests over random legal games on random boards: invariants after every action,
//! refused actions change nothing, arbitrary action JSON never panics, replay equals live, and
//! `legal_actions` lists exactly the accepted actions of a generated superset of candidates.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::core::{Ruleset, Seat};
use crate::hexdice::board::cells_of;
use crate::hexdice::state::Phase;
use crate::hexdice::{
    Action, BoardChoice, CombinedAttackSources, Conquest, Event, Hexdice, LastTiebreak, Options,
    RandomBoard,
};
use crate::replay::replay;
use crate::rng::{MatchRng, Seed};

/// No game may take more actions than this; H-ATK-8 bounds real games far below it.
const MAX_ACTIONS: usize = 5_000;

fn options_strategy(max_cells: u8) -> impl Strategy<Value = Options> {
    (
        4..=max_cells / 2,
        any::<u64>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(half, board_seed, apart, optional, starter)| Options {
            board: BoardChoice::Random(RandomBoard {
                cells: half * 2,
                seed: Some(board_seed),
            }),
            combined_attack_sources: if apart {
                CombinedAttackSources::NotAdjacent
            } else {
                CombinedAttackSources::Adjacent
            },
            conquest: if optional {
                Conquest::Optional
            } else {
                Conquest::Mandatory
            },
            last_tiebreak: if starter {
                LastTiebreak::OccupationStarter
            } else {
                LastTiebreak::FirstTurn
            },
        })
}

/// One accepted action of a record: who sent it, what it was, and the events it caused.
type Accepted = (Seat, Action, Vec<Event>);

/// One step of a random game, as seen by a property.
struct Step<'a> {
    before: &'a Hexdice,
    after: &'a Hexdice,
    events: &'a [Event],
}

/// Plays a whole random game (uniform among the legal actions), calling `each` after every
/// action. Returns the setup events and the record of (seat, action, events).
fn random_game(
    options: &Options,
    seed: u64,
    chooser: u64,
    mut each: impl FnMut(Step<'_>),
) -> (Hexdice, Vec<Event>, Vec<Accepted>) {
    let (mut state, setup_events) = Hexdice::new(options, 2, Seed::from_u64(seed)).unwrap();
    let mut chooser = MatchRng::new(Seed::from_u64(chooser));
    let mut record = Vec::new();
    let mut legal = Vec::new();
    while let Some(seat) = state.to_act() {
        legal.clear();
        state.legal_actions(&mut legal);
        assert!(
            !legal.is_empty(),
            "seat {seat} to act without a legal action"
        );
        let action = legal[chooser.below(legal.len() as u32) as usize];
        let before = state.clone();
        let events = state
            .play(seat, &action)
            .unwrap_or_else(|e| panic!("listed action {action:?} refused: {e}"));
        each(Step {
            before: &before,
            after: &state,
            events: &events,
        });
        record.push((seat, action, events));
        assert!(record.len() <= MAX_ACTIONS, "the game did not end");
    }
    (state, setup_events, record)
}

fn board_pips(state: &Hexdice) -> u16 {
    state.pips(Seat(0)) + state.pips(Seat(1))
}

/// The invariants that hold after every action.
fn check_invariants(state: &Hexdice) {
    let [a, b] = state.owned;
    assert_eq!(a & b, 0, "one die per cell");
    assert_eq!((a | b) & !state.board.all(), 0, "dice only on the board");
    for cell in 0..state.board.len() as u8 {
        let face = state.face_at(cell);
        if (a | b) & (1 << cell) != 0 {
            assert!((1..=6).contains(&face), "die on {cell} shows {face}");
        } else {
            assert_eq!(face, 0, "empty cell {cell} shows {face}");
        }
    }
    let per_player = state.board.len() / 2 + 2;
    if let Phase::Occupation { .. } = state.phase {
        for seat in [Seat(0), Seat(1)] {
            let unplaced: usize = state.unplaced[seat.index()]
                .iter()
                .map(|&c| usize::from(c))
                .sum();
            assert_eq!(unplaced + usize::from(state.dice_count(seat)), per_player);
        }
    } else {
        for reserve in state.reserve {
            assert!(
                reserve.iter().all(|r| (1..=6).contains(r)),
                "two reserve dice"
            );
        }
        assert_eq!(state.unplaced, [[0; 6]; 2]);
    }
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    assert_eq!(legal.is_empty(), state.to_act().is_none());
    match state.timeout_action() {
        Some(action) => assert!(legal.contains(&action), "timeout {action:?} is not legal"),
        None => assert!(legal.is_empty()),
    }
    assert_eq!(state.outcome().is_some(), state.to_act().is_none());
}

/// Every action that could possibly be legal now, and many near misses: all cells and one past
/// the board for every cell field, faces 0..=7, both conquest answers.
fn candidates(state: &Hexdice) -> Vec<Action> {
    let n = state.board.len() as u8;
    let cells = 0..=n;
    let mut out = vec![
        Action::EndTurn,
        Action::Conquer { move_in: true },
        Action::Conquer { move_in: false },
    ];
    for a in cells.clone() {
        for value in 0..=7 {
            out.push(Action::Place { cell: a, value });
            out.push(Action::ChooseAttack {
                attacker: a,
                roll: value,
            });
        }
        for b in cells.clone() {
            out.push(Action::Attack { from: a, target: b });
            out.push(Action::Move { from: a, to: b });
        }
    }
    for target in cells.clone() {
        let near: Vec<u8> = cells_of(state.board.neighbours(target))
            .chain([target, n, (target + 2) % n])
            .collect();
        for &a in &near {
            for &b in &near {
                out.push(Action::CombinedAttack {
                    attackers: [a, b],
                    target,
                });
            }
        }
    }
    out.push(Action::Place {
        cell: 255,
        value: 255,
    });
    out
}

/// Arbitrary action-shaped JSON: known and unknown types, fields and values.
fn json_action() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just("place"),
        Just("attack"),
        Just("combined_attack"),
        Just("choose_attack"),
        Just("conquer"),
        Just("move"),
        Just("end_turn"),
        Just("fly"),
        Just(""),
    ];
    let number = prop_oneof![
        (0i64..40).prop_map(Value::from),
        (-3i64..300).prop_map(Value::from),
        Just(json!(1.5)),
        Just(json!("3")),
        Just(Value::Null),
        Just(json!(true)),
        Just(json!([1, 2])),
        Just(json!([40, 0])),
    ];
    let field = prop_oneof![
        Just("cell"),
        Just("value"),
        Just("from"),
        Just("target"),
        Just("attackers"),
        Just("attacker"),
        Just("roll"),
        Just("move_in"),
        Just("to"),
        Just("extra"),
    ];
    (kind, prop::collection::vec((field, number), 0..5)).prop_map(|(kind, fields)| {
        let mut object = serde_json::Map::new();
        object.insert("type".into(), json!(kind));
        for (name, value) in fields {
            object.insert(name.into(), value);
        }
        Value::Object(object)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// H-ATK-8 and the state invariants on random games of every board size.
    #[test]
    fn h_atk_8_random_games_keep_every_invariant_and_end(
        options in options_strategy(36),
        seed in any::<u64>(),
        chooser in any::<u64>(),
    ) {
        let (state, _, record) = random_game(&options, seed, chooser, |step| {
            check_invariants(step.after);
            let resolved = step
                .events
                .iter()
                .any(|e| matches!(e, Event::AttackResolved { .. }));
            if resolved {
                assert_pips_fell(step.before, step.after);
            }
        });
        prop_assert!(state.outcome().is_some());
        prop_assert!(record.len() < MAX_ACTIONS);
    }

    /// G-RNG-1: replaying the record gives the same state and the same events as live play.
    #[test]
    fn replay_equals_live(
        options in options_strategy(36),
        seed in any::<u64>(),
        chooser in any::<u64>(),
    ) {
        let (live, setup_events, record) = random_game(&options, seed, chooser, |_| {});
        let replayed = replay::<Hexdice>(
            &options,
            2,
            Seed::from_u64(seed),
            record.iter().map(|(seat, action, _)| (*seat, action)),
        )
        .expect("a live record replays");
        prop_assert_eq!(&replayed.state, &live);
        prop_assert_eq!(replayed.setup_events, setup_events);
        let live_events: Vec<Vec<Event>> = record.into_iter().map(|(_, _, e)| e).collect();
        prop_assert_eq!(replayed.action_events, live_events);
    }
}

fn assert_pips_fell(before: &Hexdice, after: &Hexdice) {
    assert!(
        board_pips(after) < board_pips(before),
        "an attack did not lower the pips: {} -> {}",
        board_pips(before),
        board_pips(after)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The contract of `legal_actions` (and G-TURN-1): of a superset of candidate actions, sent
    /// by the seat to act, the other seat and a seat that does not exist, exactly the listed
    /// ones by the seat to act are accepted; every refusal leaves state and events untouched.
    #[test]
    fn g_turn_1_legal_actions_are_exactly_the_accepted_ones(
        options in options_strategy(16),
        seed in any::<u64>(),
        chooser in any::<u64>(),
    ) {
        random_game(&options, seed, chooser, |step| {
            let state = step.after;
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let to_act = state.to_act();
            for action in candidates(state) {
                for seat in [Seat(0), Seat(1), Seat(2)] {
                    let mut trial = state.clone();
                    let mut events = vec![Event::SetupRerolled];
                    let result = trial.apply(seat, &action, &mut events);
                    let listed = Some(seat) == to_act && legal.contains(&action);
                    if listed {
                        assert!(result.is_ok(), "listed {action:?} refused: {result:?}");
                    } else {
                        assert!(result.is_err(), "unlisted {action:?} by {seat} accepted");
                        assert_eq!(&trial, state, "refused {action:?} changed the state");
                        assert_eq!(events, vec![Event::SetupRerolled]);
                    }
                }
            }
            for action in &legal {
                assert!(candidates(state).contains(action), "candidates miss {action:?}");
            }
        });
    }

    /// Arbitrary action JSON from any seat never panics, and whatever is refused changes nothing.
    #[test]
    fn arbitrary_action_json_never_panics_or_changes_a_refusing_state(
        options in options_strategy(20),
        seed in any::<u64>(),
        chooser in any::<u64>(),
        junk in prop::collection::vec((json_action(), 0u8..4), 16),
    ) {
        random_game(&options, seed, chooser, |step| {
            for (value, seat) in &junk {
                let Ok(action) = serde_json::from_value::<Action>(value.clone()) else {
                    continue;
                };
                let mut trial = step.after.clone();
                let mut events = Vec::new();
                if trial.apply(Seat(*seat), &action, &mut events).is_err() {
                    assert_eq!(&trial, step.after);
                    assert!(events.is_empty());
                }
            }
        });
    }
}

#[test]
fn the_json_generator_reaches_real_actions() {
    // Guards the property above against testing only unparsable values.
    let parsed = [
        json!({"type": "place", "cell": 3, "value": 5}),
        json!({"type": "combined_attack", "attackers": [1, 2], "target": 3}),
        json!({"type": "end_turn"}),
        json!({"type": "conquer", "move_in": true}),
    ]
    .into_iter()
    .filter(|v| serde_json::from_value::<Action>(v.clone()).is_ok())
    .count();
    assert_eq!(parsed, 4);
    assert!(serde_json::from_value::<Action>(json!({"type": "fly"})).is_err());
    assert!(
        serde_json::from_value::<Action>(json!({"type": "place", "cell": -1, "value": 1})).is_err()
    );
}
