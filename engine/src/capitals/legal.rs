//! Listing legal actions (for bots, tests and load generation).
//!
//! Every distinct order is too many to list (each unit selection of each path), so the list is:
//! - `end_turn`, always;
//! - if orders are left, for every own area with an unused unit and a unit to spare:
//!   - a transport to each bordering own area with room, and an ordinary attack on each
//!     bordering enemy or neutral area;
//!   - if the area borders another player's area, a deep attack on every other player's area
//!     (neutral land is left to ordinary attacks) 2 or 3 steps away that does not border the source (those are better attacked directly,
//!     with no cap), along one path with the fewest other players' areas on it (then the
//!     shortest; paths with the same count have the same effect);
//! - each with these unit selections, where sendable: all sendable units (d8 first, up to the
//!   target's room for a transport), all of those but one (a d6 if there is one), one d6, one
//!   d8 — deep attacks with the first two only (a deep attack with one unit is hopeless, and
//!   the list stays short enough for fast bots).
//!
//! [`Capitals::apply`](crate::Ruleset::apply) accepts every valid order, listed or not.

use super::action::{Action, Path};
use super::map::AreaId;
use super::map::routes::NO_AREA;
use super::state::{Capitals, ORDERS_PER_TURN};
use super::units::Selection;

/// Maps up to this many areas keep their per-decision scratch table on the stack.
const STACK_AREAS: usize = 256;

/// Up to four listed unit selections, kept inline.
#[derive(Clone, Copy)]
struct Choices {
    list: [Selection; 4],
    len: u8,
}

impl Choices {
    const EMPTY: Choices = Choices {
        list: [Selection::new(0, 0); 4],
        len: 0,
    };

    /// Adds `s` unless it is empty or already listed.
    const fn push(&mut self, s: Selection) {
        if s.d6 == 0 && s.d8 == 0 {
            return;
        }
        let mut i = 0;
        while i < self.len as usize {
            if self.list[i].d6 == s.d6 && self.list[i].d8 == s.d8 {
                return;
            }
            i += 1;
        }
        self.list[self.len as usize] = s;
        self.len += 1;
    }

    fn as_slice(&self) -> &[Selection] {
        &self.list[..usize::from(self.len)]
    }
}

/// The listed selections for `d6` unused d6 and `d8` unused d8, sending at most `limit`: all
/// sendable (d8 first), all of those but one (a d6 if there is one), one d6, one d8.
const fn compute_selections(d6: u8, d8: u8, limit: u8) -> Choices {
    let mut choices = Choices::EMPTY;
    let sent_d8 = if d8 < limit { d8 } else { limit };
    let rest = limit - sent_d8;
    let all = Selection::new(if d6 < rest { d6 } else { rest }, sent_d8);
    choices.push(all);
    if all.d6 as u16 + all.d8 as u16 >= 2 {
        choices.push(if all.d6 > 0 {
            Selection::new(all.d6 - 1, all.d8)
        } else {
            Selection::new(all.d6, all.d8 - 1)
        });
    }
    if limit > 0 && d6 > 0 {
        choices.push(Selection::new(1, 0));
    }
    if limit > 0 && d8 > 0 {
        choices.push(Selection::new(0, 1));
    }
    choices
}

/// Counts up to this are looked up in [`SELECTIONS`] (an area holds at most 10 units).
const TABLE_MAX: usize = 10;

/// [`compute_selections`] for every count up to [`TABLE_MAX`], computed at compile time:
/// `SELECTIONS[d6][d8][limit]`.
static SELECTIONS: [[[Choices; TABLE_MAX + 1]; TABLE_MAX + 1]; TABLE_MAX + 1] = {
    let mut table = [[[Choices::EMPTY; TABLE_MAX + 1]; TABLE_MAX + 1]; TABLE_MAX + 1];
    let mut d6 = 0;
    while d6 <= TABLE_MAX {
        let mut d8 = 0;
        while d8 <= TABLE_MAX {
            let mut limit = 0;
            while limit <= TABLE_MAX {
                table[d6][d8][limit] = compute_selections(d6 as u8, d8 as u8, limit as u8);
                limit += 1;
            }
            d8 += 1;
        }
        d6 += 1;
    }
    table
};

/// The listed unit selections for a source with `unused` units, sending at most `limit`.
#[inline]
fn selections(unused: Selection, limit: u8) -> Choices {
    SELECTIONS
        .get(usize::from(unused.d6))
        .and_then(|t| t.get(usize::from(unused.d8)))
        .and_then(|t| t.get(usize::from(limit)))
        .copied()
        .unwrap_or_else(|| compute_selections(unused.d6, unused.d8, limit))
}

/// In the per-decision relation table: an area of the seat listing its actions.
const OWN: u8 = 0;
/// In the per-decision relation table: another player's area.
const HOSTILE: u8 = 1;
/// In the per-decision relation table: neutral land.
const NEUTRAL: u8 = 2;

impl Capitals {
    /// Appends the listed actions of the seat to act (see the module documentation).
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        out.push(Action::EndTurn);
        if self.orders >= ORDERS_PER_TURN {
            return;
        }
        let seat = self.current;
        // Per area: own, another player's or neutral; and the own areas that can give an order.
        // Built once per call, on the stack for the usual map sizes.
        let len = self.areas.len();
        let mut relation_stack = [OWN; STACK_AREAS];
        let (mut sources_stack, mut scratch_stack) = ([0; STACK_AREAS], [0; STACK_AREAS]);
        let (mut relation_heap, mut sources_heap, mut scratch_heap) =
            (Vec::new(), Vec::new(), Vec::new());
        let (relation, sources, scratch): (&mut [u8], &mut [AreaId], &mut [AreaId]) =
            if len <= STACK_AREAS {
                (
                    &mut relation_stack[..len],
                    &mut sources_stack[..len],
                    &mut scratch_stack[..len],
                )
            } else {
                relation_heap.resize(len, OWN);
                sources_heap.resize(len, 0);
                scratch_heap.resize(len, 0);
                (&mut relation_heap, &mut sources_heap, &mut scratch_heap)
            };
        let mut source_count = 0;
        for (id, (slot, area)) in relation.iter_mut().zip(&self.areas).enumerate() {
            let own = area.owner == Some(seat);
            *slot = match area.owner {
                _ if own => OWN,
                Some(_) => HOSTILE,
                None => NEUTRAL,
            };
            // A source needs a unit to spare and an unused unit. Appended without a branch
            // (ownership patterns are unpredictable): `source_count <= id < len`.
            let units = area.units;
            let usable = own & (units.total() >= 2) & (units.unused().total() > 0);
            sources[source_count] = id as AreaId;
            source_count += usize::from(usable);
        }
        let relation: &[u8] = relation;
        for &from in &sources[..source_count] {
            let id = usize::from(from);
            let (Some(area), Some(map_area)) = (self.areas.get(id), self.map.areas.get(id)) else {
                continue;
            };
            let units = area.units;
            let spare = units.total() - 1;
            // Attacks (and transports to a target with room) send up to `spare`: choose those
            // selections once per source.
            let attack_with = selections(units.unused(), spare);
            let attack_with = attack_with.as_slice();
            // Whether the source borders another player's area (C-DEEP-1), noted on the way.
            let mut at_front = false;
            for &to in &map_area.borders {
                let Some(&kind) = relation.get(usize::from(to)) else {
                    continue;
                };
                if kind == OWN {
                    let room = self.areas[usize::from(to)].units.room();
                    let fewer;
                    let with = if room >= spare {
                        attack_with
                    } else {
                        fewer = selections(units.unused(), room);
                        fewer.as_slice()
                    };
                    out.extend(
                        with.iter()
                            .map(|&units| Action::Transport { from, to, units }),
                    );
                } else {
                    at_front |= kind == HOSTILE;
                    let path = Path::direct(from, to);
                    out.extend(
                        attack_with
                            .iter()
                            .map(|&units| Action::Attack { path, units }),
                    );
                }
            }
            if at_front {
                self.list_deep(
                    relation,
                    from,
                    &attack_with[..attack_with.len().min(2)],
                    scratch,
                    out,
                );
            }
        }
    }

    /// Deep attacks from `source`: one best path per target, with the first two listed
    /// selections (all sendable, all but one).
    /// `relation[a]` is [`HOSTILE`] when another player owns area `a`.
    fn list_deep(
        &self,
        relation: &[u8],
        source: AreaId,
        with: &[Selection],
        scratch: &mut [AreaId],
        out: &mut Vec<Action>,
    ) {
        let hostile_at = |a: AreaId| u8::from(relation.get(usize::from(a)) == Some(&HOSTILE));
        let targets = self.map.deep.targets(source);
        // The other players' targets first, gathered without a branch on ownership (it is
        // unpredictable); a source has at most one entry per area, so they fit in `scratch`.
        let mut count = 0;
        for (i, deep) in targets.iter().enumerate() {
            if let Some(slot) = scratch.get_mut(count) {
                *slot = i as AreaId;
                count += usize::from(hostile_at(deep.target));
            }
        }
        for &i in &scratch[..count] {
            let Some(deep) = targets.get(usize::from(i)) else {
                continue;
            };
            let target = deep.target;
            let floor = 1;
            let mut best: Option<(u8, [AreaId; 2])> = None;
            for &via in self.map.deep.vias(deep) {
                let hostile = floor + hostile_at(via[0]) + hostile_at(via[1]);
                // 2-step paths come first, so the first path at the floor is the best.
                if best.is_none_or(|(h, _)| hostile < h) {
                    best = Some((hostile, via));
                }
                if hostile == floor {
                    break;
                }
            }
            let Some((_, via)) = best else { continue };
            let path = Path::deep(source, via, target, NO_AREA);
            out.extend(with.iter().map(|&units| Action::Attack { path, units }));
        }
    }
}
