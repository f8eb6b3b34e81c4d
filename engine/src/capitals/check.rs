//! Validating an action without touching the state. A valid action becomes a [`Plan`] that
//! [`super::execute`] carries out and that cannot fail.

use super::action::{Action, Path};
use super::error::CapitalsError;
use super::map::AreaId;
use super::state::{Capitals, ORDERS_PER_TURN};
use super::units::{AREA_CAP, Selection};
use crate::core::Seat;

/// A checked action, ready to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The action.
    pub(crate) action: Action,
    /// For a deep attack, the other players' areas on its path, which cap each die (C-DEEP-1);
    /// 0 for every other action.
    pub(crate) hostile: u8,
}

/// The deep-attack caps of C-DEEP-1 for `hostile` other players' areas on the path:
/// (d6 cap, d8 cap). Ordinary attacks pass 0.
pub(crate) fn die_caps(hostile: u8) -> (u8, u8) {
    (6u8.saturating_sub(hostile), 8u8.saturating_sub(hostile))
}

impl Capitals {
    /// Checks `action` by `seat` against every rule; never mutates.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<Plan, CapitalsError> {
        if self.outcome.is_some() {
            return Err(CapitalsError::GameOver);
        }
        if seat != self.current {
            return Err(CapitalsError::NotYourTurn);
        }
        if *action != Action::EndTurn && self.orders >= ORDERS_PER_TURN {
            return Err(CapitalsError::NoOrdersLeft);
        }
        let hostile = match *action {
            Action::EndTurn => 0,
            Action::Transport { from, to, units } => {
                self.check_transport(seat, from, to, units)?;
                0
            }
            Action::Attack { path, units } => self.check_attack(seat, path, units)?,
        };
        Ok(Plan {
            action: *action,
            hostile,
        })
    }

    fn check_transport(
        &self,
        seat: Seat,
        from: AreaId,
        to: AreaId,
        units: Selection,
    ) -> Result<(), CapitalsError> {
        self.check_source(seat, from)?;
        let target = self.area(to).ok_or(CapitalsError::UnknownArea(to))?;
        if target.owner != Some(seat) {
            return Err(CapitalsError::TargetNotOwn(to));
        }
        if !self.map.borders(from, to) {
            return Err(CapitalsError::NotAdjacent(from, to));
        }
        self.check_units(from, units)?;
        if u16::from(target.units.total()) + units.total() > u16::from(AREA_CAP) {
            return Err(CapitalsError::TargetFull(to));
        }
        Ok(())
    }

    /// Checks an attack; the other players' areas on its path when it is deep, else 0.
    fn check_attack(&self, seat: Seat, path: Path, units: Selection) -> Result<u8, CapitalsError> {
        let areas = path.areas();
        let (&source, &target) = match (areas.first(), areas.last()) {
            (Some(source), Some(target)) if (2..=4).contains(&areas.len()) => (source, target),
            _ => return Err(CapitalsError::BadPathLength),
        };
        if let Some(&unknown) = areas.iter().find(|&&a| self.area(a).is_none()) {
            return Err(CapitalsError::UnknownArea(unknown));
        }
        self.check_source(seat, source)?;
        for (i, &a) in areas.iter().enumerate() {
            if areas[..i].contains(&a) {
                return Err(CapitalsError::PathRepeatsArea(a));
            }
        }
        for step in areas.windows(2) {
            if !self.map.borders(step[0], step[1]) {
                return Err(CapitalsError::NotAdjacent(step[0], step[1]));
            }
        }
        if self.owner(target) == Some(seat) {
            return Err(CapitalsError::TargetIsOwn(target));
        }
        let deep = areas.len() > 2;
        if deep && !self.at_front(seat, source) {
            return Err(CapitalsError::SourceNotAtFront);
        }
        self.check_units(source, units)?;
        Ok(if deep {
            areas[1..]
                .iter()
                .filter(|&&a| matches!(self.owner(a), Some(o) if o != seat))
                .count() as u8
        } else {
            0
        })
    }

    /// The source exists and belongs to `seat`.
    fn check_source(&self, seat: Seat, from: AreaId) -> Result<(), CapitalsError> {
        let source = self.area(from).ok_or(CapitalsError::UnknownArea(from))?;
        if source.owner != Some(seat) {
            return Err(CapitalsError::NotYourArea(from));
        }
        Ok(())
    }

    /// At least one unit, all of them unused, and one unit (of any kind) left behind.
    fn check_units(&self, from: AreaId, units: Selection) -> Result<(), CapitalsError> {
        let source = self
            .area(from)
            .ok_or(CapitalsError::UnknownArea(from))?
            .units;
        if units.total() == 0 {
            return Err(CapitalsError::NoUnits);
        }
        if !source.has_unused(units) {
            return Err(CapitalsError::NotEnoughUnusedUnits {
                area: from,
                d6: source.d6,
                d8: source.d8,
            });
        }
        if units.total() >= u16::from(source.total()) {
            return Err(CapitalsError::MustLeaveOneUnit(from));
        }
        Ok(())
    }
}
