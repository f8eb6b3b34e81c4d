//! Carrying out a checked [`Plan`]: orders, battles, captures and eliminations. Nothing here can
//! fail; every rule was checked in [`super::check`].

use super::action::Action;
use super::battle::fight;
use super::check::{Plan, die_caps};
use super::event::{Event, Side};
use super::map::AreaId;
use super::state::Capitals;
use super::units::Selection;
use crate::core::{Outcome, Seat};

impl Capitals {
    /// Executes a plan of `seat` that [`Capitals::check`] accepted.
    pub(crate) fn execute(&mut self, seat: Seat, plan: Plan, events: &mut Vec<Event>) {
        match plan.action {
            Action::EndTurn => self.end_turn(events),
            Action::Transport { from, to, units } => {
                self.orders += 1;
                self.areas[usize::from(from)].units.take_unused(units);
                self.areas[usize::from(to)].units.add_used(units);
                events.push(Event::Transported { from, to, units });
            }
            Action::Attack { path, units } => {
                self.orders += 1;
                let areas = path.areas();
                let (source, target) = (areas[0], areas[areas.len() - 1]);
                let caps = die_caps(plan.hostile);
                events.push(Event::AttackLaunched {
                    path,
                    units,
                    d6_cap: caps.0,
                    d8_cap: caps.1,
                });
                self.attack(seat, source, target, units, caps, events);
            }
        }
    }

    /// Resolves an attack of `units` from `source` on `target` (C-BATTLE-1 to C-BATTLE-4).
    fn attack(
        &mut self,
        seat: Seat,
        source: AreaId,
        target: AreaId,
        units: Selection,
        caps: (u8, u8),
        events: &mut Vec<Event>,
    ) {
        self.areas[usize::from(source)].units.take_unused(units);
        let defenders = self.areas[usize::from(target)].units;
        let result = fight(&mut self.rng, units, caps, defenders, events);
        let area = &mut self.areas[usize::from(target)];
        area.units = result.survivors;
        if result.winner == Side::Defender {
            return;
        }
        let previous = area.owner.replace(seat);
        events.push(Event::AreaCaptured {
            area: target,
            seat,
            previous,
        });
        if let Some(loser) = previous
            && self.map.capitals.get(loser.index()) == Some(&target)
        {
            self.eliminate(loser, seat, events);
        }
    }

    /// `loser` lost their capital to `winner`: out at once, their land turns neutral with its
    /// units, used marks cleared (C-END-1); the match may end (C-END-2).
    fn eliminate(&mut self, loser: Seat, winner: Seat, events: &mut Vec<Event>) {
        if let Some(out) = self.eliminated.get_mut(loser.index()) {
            *out = true;
        }
        let mut freed = Vec::new();
        for (id, area) in self.areas.iter_mut().enumerate() {
            if area.owner == Some(loser) {
                area.owner = None;
                area.units.clear_used();
                freed.push(id as AreaId);
            }
        }
        events.push(Event::PlayerEliminated {
            seat: loser,
            by: winner,
            freed,
        });
        let left = self.eliminated.iter().filter(|&&out| !out).count();
        let reason = if self.eliminated.len() == 2 {
            "capital_taken"
        } else if left == 1 {
            "last_player_standing"
        } else {
            return;
        };
        events.push(Event::GameOver {
            winner,
            reason: reason.to_owned(),
        });
        self.outcome = Some(Outcome {
            winner,
            reason: reason.to_owned(),
        });
    }
}
