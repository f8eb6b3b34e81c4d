//! What the followers are sent of the match, per viewer: the whole visible state (`snapshot`),
//! one accepted action (`applied`, with the whole view or a patch) and the end (`finished`).
//!
//! Sending what changed: a live `applied` carries a patch of the viewer class's view since the
//! previous seq instead of the whole view, to the followers the room knows hold that view
//! (docs/PROTOCOL.md "View patches").
//!
//! The room keeps, per viewer class, the view (without its static parts) it last sent that
//! class, at the last seq. Each follower remembers the class and seq of the last view it was
//! sent ([`super::followers::Follower::view_seen`]): a snapshot or an `applied` it got from a
//! broadcast, or the end of its catch-up. A connection's messages are delivered in order or the
//! connection is closed (`slow_consumer`), so a follower whose last view was of class C at
//! seq N − 1 holds it when seq N goes out. Everyone else (a joiner that was sent nothing, a
//! class whose previous view the room no longer keeps) gets the whole view.
//!
//! A patch is made between two views of the same class only, once per class (and once for
//! classes that share their views), and its bytes shared like the whole message's: no patch can
//! carry what another class sees. The views are kept typed ([`DynamicView`]): a ruleset with a
//! typed patch (hexdice) writes a view as JSON only for a follower sent it whole.

use warroom_engine::Viewer;
use warroom_protocol::{ClockState, RawJson, RoomId, ServerMsg};

use crate::ConnId;
use crate::followers::Followers;
use crate::game::Game;
use crate::output::Output;
use crate::runner::{DynamicView, SeenAction};

/// The views the room last sent, per viewer class, all of one seq.
#[derive(Debug, Default)]
pub struct LastViews {
    /// Their seq.
    seq: Option<u64>,
    /// Per class, its view without the static parts (typed; written as JSON only if sent whole).
    views: Vec<(Viewer, DynamicView)>,
}

impl LastViews {
    /// The view of `viewer` at `seq`, if the room keeps it.
    fn get(&self, viewer: Viewer, seq: u64) -> Option<&DynamicView> {
        if self.seq != Some(seq) {
            return None;
        }
        self.views
            .iter()
            .find(|(v, _)| *v == viewer)
            .map(|(_, view)| view)
    }

    /// Keeps `view` as `viewer`'s at `seq` (views of another seq are dropped).
    fn keep(&mut self, viewer: Viewer, seq: u64, view: DynamicView) {
        if self.seq != Some(seq) {
            self.seq = Some(seq);
            self.views.clear();
        }
        match self.views.iter_mut().find(|(v, _)| *v == viewer) {
            Some((_, kept)) => *kept = view,
            None => self.views.push((viewer, view)),
        }
    }

    /// True when the room keeps `viewer`'s view at `seq`.
    fn has(&self, viewer: Viewer, seq: u64) -> bool {
        self.get(viewer, seq).is_some()
    }

    /// Sends every follower the last accepted action, each with its class's view: as a patch to
    /// those holding the class's previous view, whole to the others.
    pub fn announce(
        &mut self,
        room: RoomId,
        game: &Game,
        classes: Vec<(Viewer, Vec<ConnId>)>,
        followers: &mut Followers,
        clock: Option<ClockState>,
    ) -> Vec<Output> {
        let seq = game.runner.seq();
        let previous = std::mem::take(self);
        let classes: Vec<(Viewer, Vec<ConnId>, Option<SeenAction>)> = classes
            .into_iter()
            .map(|(viewer, conns)| {
                let seen = game.runner.last_seen_by(viewer);
                (viewer, conns, seen)
            })
            .collect();
        // One patch per class whose previous view the room keeps and some follower holds; made
        // once for classes that see the same views.
        let mut patches: Vec<Option<RawJson>> = Vec::with_capacity(classes.len());
        for (index, (viewer, conns, seen)) in classes.iter().enumerate() {
            let base = seq
                .checked_sub(1)
                .and_then(|last| previous.get(*viewer, last));
            let (Some(base), Some(seen)) = (base, seen) else {
                patches.push(None);
                continue;
            };
            if !conns
                .iter()
                .any(|conn| followers.holds_view(*conn, *viewer, seq - 1))
            {
                patches.push(None);
                continue;
            }
            let same = classes[..index]
                .iter()
                .zip(&patches)
                .find_map(|(other, made)| {
                    let other_base = previous.get(other.0, seq - 1)?;
                    let other_view = &other.2.as_ref()?.view;
                    (other_base.same_as(base) && other_view.same_as(&seen.view))
                        .then(|| made.clone())
                        .flatten()
                });
            let patch = same.unwrap_or_else(|| seen.view.patch_from(base));
            patches.push(Some(patch));
        }
        let mut outputs = Vec::new();
        for ((viewer, conns, seen), patch) in classes.into_iter().zip(patches) {
            let paced = viewer == Viewer::Spectator;
            let Some(seen) = seen else {
                let message = snapshot(room, game, viewer, clock.clone());
                outputs.push((
                    None,
                    Output::Send {
                        to: conns,
                        message,
                        paced,
                    },
                ));
                continue;
            };
            self.keep(viewer, seq, seen.view.clone());
            let legal = game.runner.legal_actions_for(viewer);
            let (patched, whole): (Vec<ConnId>, Vec<ConnId>) = match &patch {
                Some(_) => conns
                    .into_iter()
                    .partition(|conn| followers.holds_view(*conn, viewer, seq - 1)),
                None => (Vec::new(), conns),
            };
            if let Some(patch) = patch.filter(|_| !patched.is_empty()) {
                let message =
                    applied_patch(room, seen.clone(), patch, legal.clone(), clock.clone());
                outputs.push((
                    Some(viewer),
                    Output::Send {
                        to: patched,
                        message,
                        paced,
                    },
                ));
            }
            if !whole.is_empty() {
                let message = applied(room, seen, legal, clock.clone());
                outputs.push((
                    Some(viewer),
                    Output::Send {
                        to: whole,
                        message,
                        paced,
                    },
                ));
            }
        }
        outputs
            .into_iter()
            .map(|(viewer, output)| {
                if let (Some(viewer), Output::Send { to, .. }) = (viewer, &output) {
                    for conn in to {
                        followers.saw_view(*conn, viewer, seq);
                    }
                }
                output
            })
            .collect()
    }

    /// A joiner of class `viewer` was brought to the current seq (a snapshot, or every action it
    /// missed): the next action may reach it as a patch. The room keeps its class's view now if
    /// it did not.
    pub fn caught_up(
        &mut self,
        game: &Game,
        followers: &mut Followers,
        conn: ConnId,
        viewer: Viewer,
    ) {
        let seq = game.runner.seq();
        if !self.has(viewer, seq) {
            let view = game.runner.dynamic_view(viewer);
            self.keep(viewer, seq, view);
        }
        followers.saw_view(conn, viewer, seq);
    }
}

/// The whole visible state of a match for one viewer.
pub fn snapshot(room: RoomId, game: &Game, viewer: Viewer, clock: Option<ClockState>) -> ServerMsg {
    let view = game.runner.view(viewer);
    let legal_actions = game.runner.legal_actions_for(viewer);
    snapshot_of(room, game, viewer, view, legal_actions, clock)
}

/// [`snapshot`] with the viewer's view and legal actions already built (catch-ups keep them
/// per seq).
pub fn snapshot_of(
    room: RoomId,
    game: &Game,
    viewer: Viewer,
    view: RawJson,
    legal_actions: Option<RawJson>,
    clock: Option<ClockState>,
) -> ServerMsg {
    let outcome = game.runner.outcome();
    ServerMsg::Snapshot {
        room,
        seq: game.runner.seq(),
        seat: match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        },
        view,
        to_act: game.runner.to_act(),
        seed_commitment: game.seed.commitment(),
        seed: outcome.is_some().then(|| game.seed.to_hex()),
        outcome,
        legal: legal_actions,
        clock,
    }
}

/// One accepted action as one viewer saw it, with the legal actions it may take next.
pub fn applied(
    room: RoomId,
    seen: SeenAction,
    legal_actions: Option<RawJson>,
    clock: Option<ClockState>,
) -> ServerMsg {
    let view = seen.view.json();
    applied_with(room, seen, Some(view), None, legal_actions, clock)
}

/// [`applied`] with a patch of the viewer's view since the previous seq instead of the view
/// (which is then never written as JSON).
pub fn applied_patch(
    room: RoomId,
    seen: SeenAction,
    patch: RawJson,
    legal_actions: Option<RawJson>,
    clock: Option<ClockState>,
) -> ServerMsg {
    applied_with(room, seen, None, Some(patch), legal_actions, clock)
}

fn applied_with(
    room: RoomId,
    seen: SeenAction,
    view: Option<RawJson>,
    patch: Option<RawJson>,
    legal_actions: Option<RawJson>,
    clock: Option<ClockState>,
) -> ServerMsg {
    ServerMsg::Applied {
        room,
        seq: seen.seq,
        seat: seen.seat,
        by: seen.by,
        action: seen.action,
        events: seen.events,
        view,
        patch,
        to_act: seen.to_act,
        outcome: seen.outcome,
        legal: legal_actions,
        clock,
    }
}

/// The end of a match, with its seed revealed.
pub fn finished(room: RoomId, game: &Game) -> Option<ServerMsg> {
    let outcome = game.runner.outcome()?;
    Some(ServerMsg::Finished {
        room,
        outcome,
        seed: game.seed.to_hex(),
    })
}
