//! A biased random player for benchmarks, tests and stand-in bots. Uniform random play rarely
//! finishes a classic game (armies pile up), so this player leans towards finishing:
//! - it trades a set whenever one is listed;
//! - it claims uniformly; it places its whole reserve at once (one unit during setup) on its
//!   strongest territory bordering an enemy, so armies concentrate and someone snowballs;
//! - it attacks only with the most dice and more units than the defender, picking uniformly among
//!   such attacks, until none is left (a random early stop would break off long battles between
//!   big armies and stall the game);
//! - when it stops, it picks uniformly between ending the turn and fortifying from a territory
//!   with no enemy neighbour to one that has one;
//! - it always moves in as many units as it may.
//!
//! It draws from its own generator, never the match's, so it does not change the dice.

use super::action::Action;
use super::check::max_attack_dice;
use super::map::ADJACENCY;
use super::state::Classic;
use crate::rng::MatchRng;

/// The index in `legal` (the listed legal actions of `state`) this player picks. `legal` must
/// not be empty.
pub fn choose(state: &Classic, legal: &[Action], rng: &mut MatchRng) -> usize {
    let me = state.current;
    let held = state.held_mask(me);
    let frontline = |t: u8| ADJACENCY[usize::from(t)] & !held != 0;
    if let Some(i) = legal.iter().position(|a| matches!(a, Action::Trade { .. })) {
        return i;
    }
    if let Some(i) = pick_where(
        legal,
        rng,
        |a| matches!(a, Action::Place { territory, .. } if frontline(*territory)),
    ) {
        return i;
    }
    if matches!(legal.first(), Some(Action::MoveIn { .. })) {
        return legal.len() - 1;
    }
    let attacking = legal.iter().any(|a| matches!(a, Action::EndTurn));
    if attacking {
        let favourable = |a: &Action| match *a {
            Action::Attack { from, to, dice } => {
                let (ours, theirs) = (state.units(from), state.units(to));
                dice == max_attack_dice(ours) && ours > theirs
            }
            _ => false,
        };
        if let Some(i) = pick_where(legal, rng, favourable) {
            return i;
        }
        let stop = |a: &Action| match *a {
            Action::EndTurn => true,
            Action::Fortify { from, to, .. } => !frontline(from) && frontline(to),
            _ => false,
        };
        if let Some(i) = pick_where(legal, rng, stop) {
            return i;
        }
    }
    // legal.len() is small, far below u32::MAX.
    rng.below(legal.len() as u32) as usize
}

/// A uniform pick among the actions satisfying `wanted`, without allocating.
fn pick_where(
    legal: &[Action],
    rng: &mut MatchRng,
    wanted: impl Fn(&Action) -> bool,
) -> Option<usize> {
    let count = legal.iter().filter(|a| wanted(a)).count();
    if count == 0 {
        return None;
    }
    // count <= legal.len(), small.
    let k = rng.below(count as u32) as usize;
    legal
        .iter()
        .enumerate()
        .filter(|(_, a)| wanted(a))
        .nth(k)
        .map(|(i, _)| i)
}
