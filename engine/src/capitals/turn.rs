//! The flow of turns and rounds: production at the start of a turn (C-PROD-1, C-PROD-2), the
//! order of seats and the start of a new round (C-ROUND-1, C-NEUTRAL-1).

use super::event::Event;
use super::map::{AreaId, AreaKind};
use super::state::Capitals;
use super::units::Selection;
use crate::core::Seat;

/// A neutral area stops growing at this many units (C-NEUTRAL-1).
const NEUTRAL_GROWTH_LIMIT: u8 = 3;

/// What an area of this kind produces each turn of its owner (C-PROD-1).
pub fn production(kind: AreaKind) -> Selection {
    match kind {
        AreaKind::FastFactory => Selection::new(2, 0),
        AreaKind::StrongFactory => Selection::new(0, 1),
        // A taken capital produces like a plain area (C-END-1): the same single d6.
        AreaKind::Capital | AreaKind::Centre | AreaKind::Plain => Selection::new(1, 0),
    }
}

impl Capitals {
    /// Starts `seat`'s turn: every area they own produces (C-PROD-1).
    pub(crate) fn start_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.current = seat;
        self.orders = 0;
        events.push(Event::TurnStarted {
            seat,
            round: self.round,
        });
        for (id, area) in self.areas.iter_mut().enumerate() {
            if area.owner == Some(seat) {
                let units = production(self.map.areas[id].kind);
                let lost = area.units.produce(units);
                events.push(Event::Produced {
                    area: id as AreaId,
                    units,
                    lost,
                });
            }
        }
    }

    /// Ends the current turn and starts the next seat's, opening a new round when the turn
    /// passes the round's last player (C-ROUND-1).
    pub(crate) fn end_turn(&mut self, events: &mut Vec<Event>) {
        events.push(Event::TurnEnded { seat: self.current });
        let seats = self.eliminated.len();
        let offset = |seat: usize| (seat + seats - self.first.index()) % seats;
        let current = self.current.index();
        let Some(next) = (1..=seats)
            .map(|step| (current + step) % seats)
            .find(|&seat| !self.eliminated[seat])
        else {
            return;
        };
        if offset(next) <= offset(current) {
            self.start_round(events);
        }
        self.start_turn(Seat(next as u8), events);
    }

    /// A new round: used marks cleared, neutral areas grow (C-ROUND-1, C-NEUTRAL-1).
    fn start_round(&mut self, events: &mut Vec<Event>) {
        self.round += 1;
        events.push(Event::RoundStarted { round: self.round });
        for (id, area) in self.areas.iter_mut().enumerate() {
            area.units.clear_used();
            if area.owner.is_none() && area.units.total() < NEUTRAL_GROWTH_LIMIT {
                area.units.produce(Selection::new(1, 0));
                events.push(Event::NeutralGrew { area: id as AreaId });
            }
        }
    }
}
