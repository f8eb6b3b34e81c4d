//! A biased random player for benchmarks, tests and stand-in bots. Uniform random play rarely
//! finishes a classic game (armies pile up), so this player leans towards finishing:
//! - it trades a set whenever one is listed;
//! - it claims uniformly, and places uniformly among the listed placements (one unit or the whole
//!   reserve) on territories bordering an enemy (always piling the whole reserve on the strongest
//!   one was tried: games then took about 2.5 times as many actions);
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
use super::state::{Classic, Phase};
use crate::rng::MatchRng;

/// The index in `legal` (the listed legal actions of `state`) this player picks. `legal` must
/// not be empty.
pub fn choose(state: &Classic, legal: &[Action], rng: &mut MatchRng) -> usize {
    let me = state.current;
    let held = state.held_mask(me);
    let frontline = |t: u8| ADJACENCY[usize::from(t)] & !held != 0;
    match state.phase() {
        Phase::Deploy | Phase::Reinforce | Phase::EliminationTrade => {
            // Trades are listed first.
            if matches!(legal.first(), Some(Action::Trade { .. })) {
                return 0;
            }
            let placement =
                |a: &Action| matches!(*a, Action::Place { territory, .. } if frontline(territory));
            if let Some(i) = pick_where(legal, rng, placement) {
                return i;
            }
        }
        // The most is listed last.
        Phase::MoveIn { .. } => return legal.len().saturating_sub(1),
        Phase::Attack => {
            let favourable = |a: &Action| match *a {
                Action::Attack { from, to, dice } => {
                    let ours = state.units(from);
                    dice == max_attack_dice(ours) && ours > state.units(to)
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
        Phase::Claim | Phase::Over => {}
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
