//! Test positions built directly (never through a weakened engine): a real match is started on
//! the small board, then its dice, reserves and pending decision are overwritten, and its RNG is
//! re-seeded with a seed found by search so the next rolls are the ones a test needs.

use crate::core::{Ruleset, Seat};
use crate::hexdice::board::MAX_CELLS;
use crate::hexdice::state::Phase;
use crate::hexdice::{Action, BoardChoice, Error, Event, Hexdice, Layout, Options};
use crate::rng::{MatchRng, Seed};

/// The small layout's cells by index (q, r):
/// ```text
///  row 0:   0   1   2   3   4
///  row 1: 5   6   7   8   9
/// ```
/// Cell `i` of row 0 touches `i ± 1`, `5 + i` and `4 + i`; cells 0, 1 and 5 touch each other.
pub(crate) fn small() -> Options {
    Options {
        board: BoardChoice::Layout(Layout::Small),
        ..Options::default()
    }
}

/// The first seed (as `Seed::from_u64`) whose first d6 draws are `rolls`.
pub(super) fn seed_rolling(rolls: &[u8]) -> Seed {
    (0u64..)
        .map(Seed::from_u64)
        .find(|&seed| {
            let mut rng = MatchRng::new(seed);
            rolls.iter().all(|&roll| rng.die(6) == roll)
        })
        .expect("some seed rolls any short sequence")
}

/// A two-seat match of `options` past its placement, in turn `turn` (seat 0 opened the play),
/// with only `dice` on the board, (cell, owner, face), full reserves and nothing left to place;
/// its phase and RNG are the new match's, for the caller to set.
pub(crate) fn with_dice(options: &Options, dice: &[(u8, u8, u8)], turn: u32) -> Hexdice {
    let (mut state, _) = Hexdice::new(options, 2, Seed::from_u64(1)).expect("valid options");
    state.owned = [0; 2];
    state.face = [0; MAX_CELLS];
    for &(cell, owner, face) in dice {
        state.owned[usize::from(owner)] |= 1 << cell;
        state.face[usize::from(cell)] = face;
    }
    state.unplaced = [[0; 6]; 2];
    state.reserve = [[3, 3], [3, 3]];
    state.first_turn = Some(Seat(0));
    state.occupation_starter = Seat(0);
    state.turn = turn;
    state
}

/// A position in the play phase: `dice` lists (cell, owner, face); every other cell is empty.
/// Seat `seat` is to act: in its attack phase if it can attack, else in its move phase. The next
/// reserve rolls will be `rolls`.
pub(super) fn position(options: Options, dice: &[(u8, u8, u8)], seat: u8, rolls: &[u8]) -> Hexdice {
    let mut state = with_dice(&options, dice, 1);
    let seat = Seat(seat);
    state.phase = if state.can_attack(seat) {
        Phase::Attack { seat }
    } else {
        Phase::Move {
            seat,
            conqueror: None,
        }
    };
    state.rng = MatchRng::new(seed_rolling(rolls));
    state
}

/// Applies an action that must be accepted, returning its events.
pub(super) fn play(state: &mut Hexdice, seat: u8, action: Action) -> Vec<Event> {
    state
        .play(Seat(seat), &action)
        .unwrap_or_else(|e| panic!("{action:?} by seat {seat} refused: {e}"))
}

/// Applies an action that must be refused, checks that nothing changed, and returns the error.
pub(super) fn refuse(state: &mut Hexdice, seat: u8, action: Action) -> Error {
    let before = state.clone();
    let mut events = Vec::new();
    let error = state
        .apply(Seat(seat), &action, &mut events)
        .expect_err("the action must be refused");
    assert_eq!(*state, before, "a refused action changed the state");
    assert!(events.is_empty(), "a refused action reported events");
    error
}

/// The face on `cell` and its owner, or `None` when empty.
pub(super) fn die_at(state: &Hexdice, cell: u8) -> Option<(u8, u8)> {
    [0u8, 1]
        .into_iter()
        .find(|&seat| state.holds(Seat(seat), cell))
        .map(|seat| (seat, state.face_at(cell)))
}

/// Every legal action now.
pub(super) fn legal(state: &Hexdice) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out
}

/// Plays the occupation of a fresh match by always taking the first legal placement.
pub(super) fn occupy(state: &mut Hexdice) -> Vec<Event> {
    let mut events = Vec::new();
    while let Phase::Occupation { seat } = state.phase {
        let first = legal(state)[0];
        events.extend(play(state, seat.0, first));
    }
    events
}
