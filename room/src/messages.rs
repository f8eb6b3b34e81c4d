//! The match messages a room sends, built for one viewer: the whole visible state (`snapshot`)
//! and one accepted action (`applied`).

use warroom_engine::Viewer;
use warroom_protocol::{ClockState, RawJson, RoomId, ServerMsg};

use super::game::Game;
use crate::runner::SeenAction;

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
    ServerMsg::Applied {
        room,
        seq: seen.seq,
        seat: seen.seat,
        by: seen.by,
        action: seen.action,
        events: seen.events,
        view: Some(seen.view),
        patch: None,
        to_act: seen.to_act,
        outcome: seen.outcome,
        legal: legal_actions,
        clock,
    }
}

/// [`applied`] with a patch of the viewer's view since the previous seq instead of the view
/// (`patches.rs`).
pub fn applied_patch(
    room: RoomId,
    seen: SeenAction,
    patch: RawJson,
    legal_actions: Option<RawJson>,
    clock: Option<ClockState>,
) -> ServerMsg {
    let mut message = applied(room, seen, legal_actions, clock);
    if let ServerMsg::Applied {
        view, patch: slot, ..
    } = &mut message
    {
        *view = None;
        *slot = Some(patch);
    }
    message
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
