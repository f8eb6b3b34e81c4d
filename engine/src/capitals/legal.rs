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
        // Per area, 1 if another player owns it; filled at the first deep search.
        let mut hostile: Vec<u8> = Vec::new();
        for (id, area) in self.areas.iter().enumerate() {
            let units = area.units;
            let spare = units.total().saturating_sub(1);
            if area.owner != Some(seat) || spare == 0 || units.unused().total() == 0 {
                continue;
            }
            let from = id as AreaId;
            // Attacks (and transports to a target with room) send up to `spare`: choose those
            // selections once per source.
            let mut attack_with = [Selection::default(); 4];
            let mut attack_count = 0;
            for (slot, selection) in attack_with
                .iter_mut()
                .zip(selections(units.unused(), spare))
            {
                *slot = selection;
                attack_count += 1;
            }
            let attack_with = &attack_with[..attack_count];
            // Whether the source borders another player's area (C-DEEP-1), noted on the way.
            let mut at_front = false;
            for &to in &self.map.areas[id].borders {
                let target = self.areas[usize::from(to)];
                at_front |= matches!(target.owner, Some(o) if o != seat);
                if target.owner == Some(seat) {
                    let room = target.units.room();
                    if room >= spare {
                        out.extend(attack_with.iter().map(|&units| Action::Transport {
                            from,
                            to,
                            units,
                        }));
                    } else {
                        out.extend(
                            selections(units.unused(), room).map(|units| Action::Transport {
                                from,
                                to,
                                units,
                            }),
                        );
                    }
                } else if let Some(path) = Path::new(&[from, to]) {
                    out.extend(
                        attack_with
                            .iter()
                            .map(|&units| Action::Attack { path, units }),
                    );
                }
            }
            if at_front {
                if hostile.is_empty() {
                    hostile = self
                        .areas
                        .iter()
                        .map(|a| u8::from(matches!(a.owner, Some(o) if o != seat)))
                        .collect();
                }
                self.list_deep(&hostile, from, &attack_with[..attack_count.min(2)], out);
            }
        }
    }

    /// Deep attacks from `source`: one best path per target, with the first two listed
    /// selections (all sendable, all but one).
    /// `hostile[a]` is 1 when another player owns area `a`.
    fn list_deep(&self, hostile: &[u8], source: AreaId, with: &[Selection], out: &mut Vec<Action>) {
        let hostile_at = |a: AreaId| hostile.get(usize::from(a)).copied().unwrap_or(0);
        for deep in self.map.deep.targets(source) {
            let target = deep.target;
            if hostile_at(target) == 0 {
                continue;
            }
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
            let path = if via[1] == NO_AREA {
                Path::new(&[source, via[0], target])
            } else {
                Path::new(&[source, via[0], via[1], target])
            };
            if let Some(path) = path {
                out.extend(with.iter().map(|&units| Action::Attack { path, units }));
            }
        }
    }
}
