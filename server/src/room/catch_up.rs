//! What a connection joining a started match is sent: every action it missed since `last_seq`
//! (each with the view right after it), or a fresh snapshot when it names no `last_seq` or is
//! too far behind; and the end of the match if it has not seen it.

use warroom_engine::Viewer;
use warroom_protocol::{ClockState, RoomId, ServerMsg};

use super::game::Game;
use super::messages;

/// A reconnecting client further behind than this gets a snapshot instead of every action.
pub const MAX_CATCH_UP: u64 = 500;

/// The messages that bring `viewer` from `last_seq` to now (each with the clock as it is now).
pub fn catch_up(
    room: RoomId,
    game: &Game,
    viewer: Viewer,
    last_seq: Option<u64>,
    clock: Option<ClockState>,
) -> Vec<ServerMsg> {
    let seq = game.runner.seq();
    let mut out = Vec::new();
    match last_seq {
        Some(last) if last <= seq && seq - last <= MAX_CATCH_UP => {
            let missed = game.runner.seen_since(last, viewer);
            let count = missed.len();
            for (index, seen) in missed.into_iter().enumerate() {
                // Only the last message says what the seat may do now.
                let legal = if index + 1 == count {
                    game.runner.legal_actions_for(viewer)
                } else {
                    None
                };
                out.push(messages::applied(room, seen, legal, clock.clone()));
            }
        }
        _ => out.push(messages::snapshot(room, game, viewer, clock)),
    }
    if last_seq.is_none_or(|last| last < seq)
        && let Some(finished) = messages::finished(room, game)
    {
        out.push(finished);
    }
    out
}
