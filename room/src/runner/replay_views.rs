//! The boards of a replay, step by step: the stored actions played again from the setup state
//! and, after each, the viewer's view (without its static parts, as a live `applied` carries it)
//! as a patch of the view before it (`DynamicView::patch_from`, the live patches' code).
//! So a client shows the server's board at every step and re-implements no rule
//! (docs/PROTOCOL.md "Matches and replays"). Each view is cut for the replay's viewer alone, so a
//! patch carries nothing that viewer may not see.

use serde::Deserialize;
use warroom_engine::Viewer;
use warroom_protocol::RawJson;
use warroom_protocol::patch::typed::ViewPatch;
use warroom_protocol::played::{Played, is_resign};

use super::dynamic_view::TypedView;
use crate::error::RoomError;
use crate::records::ActionRecord;

/// One patch per stored action: the first applies to the setup state's view (less its static
/// parts), each next one to the view the one before gave.
pub(super) fn step_patches<R: ViewPatch + 'static>(
    setup: R,
    seats: u8,
    actions: &[ActionRecord],
    viewer: Viewer,
) -> Result<Vec<RawJson>, RoomError> {
    let mut played = Played::new(setup, seats);
    let mut before = TypedView::of(&played.rules, viewer);
    let mut events = Vec::new();
    let mut patches = Vec::with_capacity(actions.len());
    for record in actions {
        let refused = |why: String| {
            RoomError::internal(format!(
                "stored action #{} is refused on replay: {why}",
                record.seq
            ))
        };
        if is_resign(&record.action) {
            played.resign(record.seat).map_err(|e| refused(e.message))?;
        } else {
            let action = R::Action::deserialize(&record.action)
                .map_err(|error| refused(error.to_string()))?;
            events.clear();
            played
                .rules
                .apply(record.seat, &action, &mut events)
                .map_err(|error| refused(error.to_string()))?;
        }
        let after = TypedView::of(&played.rules, viewer);
        patches.push(after.patch_from(&before));
        before = after;
    }
    Ok(patches)
}
