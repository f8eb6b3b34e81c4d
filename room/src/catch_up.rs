//! What a connection joining a started match is sent: every action it missed since `last_seq`
//! (each with the view right after it) when it is only a little behind, else a snapshot; and
//! the end of the match if it has not seen it.
//!
//! A catch-up runs inside the room, so it must stay cheap whatever joiners do: an action's view
//! costs a millisecond or more to build (classic), so at most [`MAX_CATCH_UP_APPLIED`] actions
//! (and never more than a quarter of the connection's outgoing queue) are sent one by one, and
//! a room spends at most [`VIEWS_PER_SECOND`] views a second on them (a burst of
//! [`VIEW_BURST`]); beyond either, the joiner gets a snapshot. Snapshots are built once per
//! viewer and seq and kept until the next action, so a flood of joins costs a copy each.

use std::time::Instant;
use warroom_engine::Viewer;
use warroom_protocol::{ClockState, RawJson, RoomId, ServerMsg};

use super::game::Game;
use crate::views;

/// Most missed actions sent one by one; further behind, a snapshot.
pub const MAX_CATCH_UP_APPLIED: u64 = 20;

/// Views a room builds for catch-ups per second, sustained.
pub const VIEWS_PER_SECOND: f64 = 50.0;

/// Views a room may build for catch-ups at once.
pub const VIEW_BURST: f64 = 100.0;

/// One room's catch-ups: the view budget and the snapshots of the current seq.
#[derive(Debug)]
pub struct CatchUps {
    /// Most actions sent one by one (from the outgoing queue's size).
    limit: u64,
    /// Views that may be built now.
    budget: f64,
    /// When the budget was last refilled.
    refilled: Option<Instant>,
    /// The seq the cached snapshots are of.
    cached_seq: Option<u64>,
    /// Per viewer, its view and legal actions at `cached_seq`.
    cached: Vec<(Viewer, RawJson, Option<RawJson>)>,
}

impl Default for CatchUps {
    fn default() -> CatchUps {
        CatchUps::new(usize::MAX)
    }
}

impl CatchUps {
    /// Catch-ups for connections whose outgoing queue holds `outgoing_queue` messages.
    pub fn new(outgoing_queue: usize) -> CatchUps {
        let quarter = u64::try_from(outgoing_queue / 4).unwrap_or(u64::MAX);
        CatchUps {
            limit: MAX_CATCH_UP_APPLIED.min(quarter),
            budget: VIEW_BURST,
            refilled: None,
            cached_seq: None,
            cached: Vec::new(),
        }
    }

    /// Takes `views` from the budget if it holds them.
    fn spend(&mut self, views: u64, now: Instant) -> bool {
        if let Some(last) = self.refilled {
            let gained = now.saturating_duration_since(last).as_secs_f64() * VIEWS_PER_SECOND;
            self.budget = (self.budget + gained).min(VIEW_BURST);
        }
        self.refilled = Some(now);
        let cost = views as f64;
        if cost <= self.budget {
            self.budget -= cost;
            true
        } else {
            false
        }
    }

    /// The whole visible state for `viewer`, its view built once per seq.
    fn snapshot(
        &mut self,
        room: RoomId,
        game: &Game,
        viewer: Viewer,
        clock: Option<ClockState>,
    ) -> ServerMsg {
        let seq = game.runner.seq();
        if self.cached_seq != Some(seq) {
            self.cached_seq = Some(seq);
            self.cached.clear();
        }
        let (view, legal_actions) = match self.cached.iter().find(|(v, _, _)| *v == viewer) {
            Some((_, view, legal)) => (view.clone(), legal.clone()),
            None => {
                let view = game.runner.view(viewer);
                let legal = game.runner.legal_actions_for(viewer);
                self.cached.push((viewer, view.clone(), legal.clone()));
                (view, legal)
            }
        };
        views::snapshot_of(room, game, viewer, view, legal_actions, clock)
    }

    /// Forgets the snapshots (the match changed without its seq saying so: an undone action).
    pub fn forget(&mut self) {
        self.cached_seq = None;
        self.cached.clear();
    }

    /// The messages that bring `viewer` from `last_seq` to now (each with the clock as it is
    /// now).
    pub fn catch_up(
        &mut self,
        room: RoomId,
        game: &Game,
        viewer: Viewer,
        last_seq: Option<u64>,
        clock: Option<ClockState>,
        now: Instant,
    ) -> Vec<ServerMsg> {
        let seq = game.runner.seq();
        let mut out = Vec::new();
        match last_seq {
            Some(last) if last == seq => {}
            Some(last) if last < seq && seq - last <= self.limit && self.spend(seq - last, now) => {
                let missed = game.runner.seen_since(last, viewer);
                let count = missed.len();
                for (index, seen) in missed.into_iter().enumerate() {
                    // Only the last message says what the seat may do now.
                    let legal = if index + 1 == count {
                        game.runner.legal_actions_for(viewer)
                    } else {
                        None
                    };
                    out.push(views::applied(room, seen, legal, clock.clone()));
                }
            }
            _ => out.push(self.snapshot(room, game, viewer, clock)),
        }
        if last_seq.is_none_or(|last| last < seq)
            && let Some(finished) = views::finished(room, game)
        {
            out.push(finished);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_view_budget_refills_over_time_up_to_its_burst() {
        let start = Instant::now();
        let mut catch_ups = CatchUps::new(256);
        assert_eq!(catch_ups.limit, MAX_CATCH_UP_APPLIED);
        assert!(catch_ups.spend(100, start));
        assert!(!catch_ups.spend(1, start), "the burst is spent");
        assert!(catch_ups.spend(25, start + Duration::from_millis(500)));
        assert!(!catch_ups.spend(1, start + Duration::from_millis(500)));
        assert!(catch_ups.spend(100, start + Duration::from_secs(60)));
        assert!(!catch_ups.spend(1, start + Duration::from_secs(60)));
    }

    #[test]
    fn a_small_outgoing_queue_gets_fewer_actions_one_by_one() {
        assert_eq!(CatchUps::new(16).limit, 4);
        assert_eq!(CatchUps::new(2).limit, 0);
    }
}
