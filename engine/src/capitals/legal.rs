//! Listing legal actions (for bots, tests and load generation).
//!
//! Every distinct order is too many to list (each unit selection of each path), so the list is:
//! - `end_turn`, always;
//! - if orders are left, for every own area with an unused unit and a unit to spare:
//!   - a transport to each bordering own area with room, and an ordinary attack on each
//!     bordering enemy or neutral area;
//!   - if the area borders another player's area, a deep attack on every enemy or neutral area
//!     2 or 3 steps away that does not border the source (those are better attacked directly,
//!     with no cap), along one path with the fewest other players' areas on it (then the
//!     shortest; paths with the same count have the same effect);
//! - each with these unit selections, where sendable: all sendable units (d8 first, up to the
//!   target's room for a transport), all of those but one (a d6 if there is one), one d6, one
//!   d8.
//!
//! [`Capitals::apply`](crate::Ruleset::apply) accepts every valid order, listed or not.

use super::action::{Action, Path};
use super::map::AreaId;
use super::state::{Capitals, ORDERS_PER_TURN};
use super::units::Selection;
use crate::core::Seat;

/// The listed unit selections for a source with `unused` units, sending at most `limit`.
fn selections(unused: Selection, limit: u8) -> impl Iterator<Item = Selection> {
    let mut list = [Selection::default(); 4];
    let mut len = 0;
    let mut push = |s: Selection| {
        if s.total() > 0 && !list[..len].contains(&s) {
            list[len] = s;
            len += 1;
        }
    };
    let d8 = unused.d8.min(limit);
    let all = Selection::new(unused.d6.min(limit - d8), d8);
    push(all);
    if all.total() >= 2 {
        push(if all.d6 > 0 {
            Selection::new(all.d6 - 1, all.d8)
        } else {
            Selection::new(all.d6, all.d8 - 1)
        });
    }
    if limit > 0 && unused.d6 > 0 {
        push(Selection::new(1, 0));
    }
    if limit > 0 && unused.d8 > 0 {
        push(Selection::new(0, 1));
    }
    list.into_iter().take(len)
}

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
        let mut deep = DeepTargets::new(self.areas.len());
        for (id, area) in self.areas.iter().enumerate() {
            let units = area.units;
            let spare = units.total().saturating_sub(1);
            if area.owner != Some(seat) || spare == 0 || units.unused().total() == 0 {
                continue;
            }
            let from = id as AreaId;
            for &to in &self.map.areas[id].borders {
                if self.owner(to) == Some(seat) {
                    let limit = spare.min(self.areas[usize::from(to)].units.room());
                    out.extend(
                        selections(units.unused(), limit).map(|units| Action::Transport {
                            from,
                            to,
                            units,
                        }),
                    );
                } else if let Some(path) = Path::new(&[from, to]) {
                    out.extend(
                        selections(units.unused(), spare)
                            .map(|units| Action::Attack { path, units }),
                    );
                }
            }
            if self.at_front(seat, from) {
                deep.search(self, seat, from);
                for path in deep.drain() {
                    out.extend(
                        selections(units.unused(), spare)
                            .map(|units| Action::Attack { path, units }),
                    );
                }
            }
        }
    }

    /// 1 if `area` belongs to a player other than `seat` (it lowers deep-attack dice), else 0.
    fn hostile(&self, seat: Seat, area: AreaId) -> u8 {
        u8::from(matches!(self.owner(area), Some(o) if o != seat))
    }
}

/// The best deep-attack path found so far to each target, reused across sources.
struct DeepTargets {
    /// Per area: (other players' areas on the path, path length, path), if reached.
    best: Vec<Option<(u8, usize, Path)>>,
    /// Targets reached, in discovery order (so the listing is deterministic).
    found: Vec<AreaId>,
}

impl DeepTargets {
    fn new(areas: usize) -> Self {
        DeepTargets {
            best: vec![None; areas],
            found: Vec::new(),
        }
    }

    /// Records every simple path of 2 or 3 steps from `source` to an enemy or neutral area that
    /// does not border `source`.
    fn search(&mut self, game: &Capitals, seat: Seat, source: AreaId) {
        let map = &game.map;
        let borders = |a: AreaId| map.areas[usize::from(a)].borders.as_slice();
        let mut offer = |path: &[AreaId], hostile: u8| {
            let target = path[path.len() - 1];
            if game.owner(target) == Some(seat) || map.borders(source, target) {
                return;
            }
            let slot = &mut self.best[usize::from(target)];
            let better = match slot {
                None => {
                    self.found.push(target);
                    true
                }
                Some((h, len, _)) => (hostile, path.len()) < (*h, *len),
            };
            if better && let Some(p) = Path::new(path) {
                *slot = Some((hostile, path.len(), p));
            }
        };
        for &a in borders(source) {
            let ha = game.hostile(seat, a);
            for &b in borders(a) {
                if b == source {
                    continue;
                }
                let hb = ha + game.hostile(seat, b);
                offer(&[source, a, b], hb);
                for &c in borders(b) {
                    if c != source && c != a {
                        offer(&[source, a, b, c], hb + game.hostile(seat, c));
                    }
                }
            }
        }
    }

    /// The recorded paths, clearing the record for the next source.
    fn drain(&mut self) -> impl Iterator<Item = Path> + '_ {
        self.found
            .drain(..)
            .filter_map(|t| self.best[usize::from(t)].take().map(|(_, _, p)| p))
    }
}
