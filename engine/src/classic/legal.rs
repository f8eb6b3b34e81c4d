//! The legal actions listed for bots, tests and load generation, and the clock-expiry default.
//!
//! The list is a small canonical subset of what `apply` accepts, so random play can finish:
//! - placement is listed as one unit or the whole reserve on each held territory (`apply` takes
//!   any count in between; setup places one at a time);
//! - a trade is listed once per set, without a named bonus (the first held territory shown gets it);
//! - attacks are listed with every allowed dice count;
//! - move-in and fortify counts are listed as the least, the half-way and the most allowed
//!   (`apply` takes any count in between).
//!
//! Every listed action is accepted by `apply`; property tests check this.

use super::action::Action;
use super::cards::sets_in;
use super::check::max_attack_dice;
use super::map::{self, ADJACENCY, TerritoryId};
use super::options::FortifyMode;
use super::state::{Classic, NOBODY, Phase};

impl Classic {
    /// Appends the listed legal actions of the seat to act.
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        let me = self.current;
        match self.phase {
            Phase::Over => {}
            Phase::Claim => {
                for (t, &owner) in self.owner.iter().enumerate() {
                    if owner == NOBODY {
                        out.push(Action::Claim {
                            territory: t as TerritoryId,
                        });
                    }
                }
            }
            Phase::Deploy => self.list_placements(me, 1, out),
            Phase::Reinforce | Phase::EliminationTrade => {
                if self.trading_open() {
                    sets_in(&self.hands[usize::from(me)], |cards| {
                        out.push(Action::Trade { cards, bonus: None });
                    });
                }
                if !self.must_trade() {
                    self.list_placements(me, 1, out);
                    if self.reserve > 1 {
                        self.list_placements(me, self.reserve, out);
                    }
                }
            }
            Phase::Attack => {
                // W-CARD-3: sets may still be traded before the turn's first attack.
                if self.trading_open() {
                    sets_in(&self.hands[usize::from(me)], |cards| {
                        out.push(Action::Trade { cards, bonus: None });
                    });
                }
                let held = self.held_mask(me);
                for from in map::ids(held) {
                    let units = self.units[usize::from(from)];
                    if units < 2 {
                        continue;
                    }
                    let max_dice = max_attack_dice(units);
                    for to in map::ids(ADJACENCY[usize::from(from)] & !held) {
                        for dice in 1..=max_dice {
                            out.push(Action::Attack { from, to, dice });
                        }
                    }
                }
                self.list_fortifies(held, out);
                out.push(Action::EndTurn);
            }
            Phase::MoveIn { min, max, .. } => {
                for units in spread(min, max) {
                    out.push(Action::MoveIn { units });
                }
            }
        }
    }

    fn list_placements(&self, me: u8, units: u32, out: &mut Vec<Action>) {
        for territory in map::ids(self.held_mask(me)) {
            out.push(Action::Place { territory, units });
        }
    }

    fn list_fortifies(&self, held: u64, out: &mut Vec<Action>) {
        for from in map::ids(held) {
            let units = self.units[usize::from(from)];
            if units < 2 {
                continue;
            }
            let targets = match self.options.fortify {
                FortifyMode::Adjacent => ADJACENCY[usize::from(from)] & held,
                FortifyMode::Connected => map::reachable(from, held) & !(1 << from),
            };
            for to in map::ids(targets) {
                for units in spread(1, units - 1) {
                    out.push(Action::Fortify { from, to, units });
                }
            }
        }
    }

    /// The default when the clock runs out: the smallest step that keeps the match moving.
    pub(crate) fn default_action(&self) -> Option<Action> {
        let me = self.current;
        match self.phase {
            Phase::Over => None,
            Phase::Claim => self
                .owner
                .iter()
                .position(|&o| o == NOBODY)
                .map(|t| Action::Claim {
                    territory: t as TerritoryId,
                }),
            Phase::Deploy => self.frontline(me).map(|territory| Action::Place {
                territory,
                units: 1,
            }),
            Phase::Reinforce | Phase::EliminationTrade => {
                if self.must_trade() {
                    // Five cards always hold a set (W-CARD-4), so this finds one.
                    let mut first = None;
                    sets_in(&self.hands[usize::from(me)], |cards| {
                        first.get_or_insert(Action::Trade { cards, bonus: None });
                    });
                    first
                } else {
                    self.frontline(me).map(|territory| Action::Place {
                        territory,
                        units: self.reserve,
                    })
                }
            }
            Phase::Attack => Some(Action::EndTurn),
            Phase::MoveIn { max, .. } => Some(Action::MoveIn { units: max }),
        }
    }

    /// The first held territory bordering an enemy, else the first held one.
    fn frontline(&self, me: u8) -> Option<TerritoryId> {
        let held = self.held_mask(me);
        map::ids(held)
            .find(|&t| ADJACENCY[usize::from(t)] & !held != 0)
            .or_else(|| map::ids(held).next())
    }
}

/// The least, the half-way and the most of a range, without repeats.
fn spread(min: u32, max: u32) -> impl Iterator<Item = u32> {
    let mid = min + max.saturating_sub(min) / 2;
    [
        (min <= max).then_some(min),
        (mid > min).then_some(mid),
        (max > mid).then_some(max),
    ]
    .into_iter()
    .flatten()
}
