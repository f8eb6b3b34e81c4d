//! The room core tested with plain calls, no tasks, sockets or database: what it asks the loop
//! to do for each input.

use serde_json::{Value, json};
use tokio::time::Instant;
use warroom_engine::{RulesetId, Seat, Seed};
use warroom_protocol::{Identity, IdentityId, MatchId, RoomId, RoomState, ServerMsg};

use super::ConnId;
use super::core::{RoomCore, Submitted};
use super::output::Output;
use crate::runner::rules;
use crate::store::RoomRecord;

fn player(n: u8) -> Identity {
    Identity {
        id: IdentityId(uuid::Uuid::from_u128(u128::from(n) + 1)),
        name: format!("p{n}"),
    }
}

/// A hexdice room with both seats taken and its match started; conns 1 and 2 are the seats,
/// 3 a spectator.
fn started_room() -> RoomCore {
    let record = RoomRecord {
        id: RoomId::random(),
        ruleset: RulesetId::Hexdice,
        options: rules(RulesetId::Hexdice)
            .unwrap()
            .check_options(None, 2)
            .unwrap(),
        seat_count: 2,
        private: false,
        invite_code: "code".into(),
        creator: player(0).id,
        state: RoomState::Waiting,
        match_id: None,
        created_at: 0,
        seats: vec![Some(player(0)), Some(player(1))],
    };
    let mut core = RoomCore::new(record, rules(RulesetId::Hexdice).unwrap(), None, 10);
    let now = Instant::now();
    core.join(1, Some(player(0)), None, None, now).unwrap();
    core.join(2, Some(player(1)), None, None, now).unwrap();
    core.join(3, None, None, None, now).unwrap();
    assert!(core.ready_to_start());
    core.prepare_start(Seed::from_u64(7), MatchId::random(), 0)
        .unwrap();
    core.started(now);
    drain(&mut core);
    core
}

fn drain(core: &mut RoomCore) -> Vec<Output> {
    std::iter::from_fn(|| core.poll_output()).collect()
}

/// The seat to act, its conn and its first legal action, read from the snapshot it would get.
fn next_move(core: &mut RoomCore) -> (ConnId, Value) {
    core.join(1, Some(player(0)), None, None, Instant::now())
        .unwrap();
    core.join(2, Some(player(1)), None, None, Instant::now())
        .unwrap();
    let outputs = drain(core);
    for output in outputs {
        if let Output::Send {
            to,
            message:
                ServerMsg::Snapshot {
                    legal_actions: Some(legal),
                    ..
                },
        } = output
        {
            return (to[0], legal[0].clone());
        }
    }
    panic!("no seat is told its legal actions");
}

fn sends(outputs: &[Output]) -> Vec<&ServerMsg> {
    outputs
        .iter()
        .filter_map(|output| match output {
            Output::Send { message, .. } => Some(message),
            _ => None,
        })
        .collect()
}

#[test]
fn an_action_is_announced_only_after_its_commit() {
    let mut core = started_room();
    let (conn, action) = next_move(&mut core);
    let now = Instant::now();
    let submitted = core.action(conn, "a1".into(), &action, now).unwrap();
    assert_eq!(submitted, Submitted::Pending(1));
    let outputs = drain(&mut core);
    assert!(
        matches!(outputs.as_slice(), [Output::Append(append)] if append.seq == 1 && append.seat == Seat(0)),
        "only the append, nothing said yet: {outputs:?}"
    );
    assert_eq!(core.committed(1, Ok(()), now), Ok(1));
    let outputs = drain(&mut core);
    let applied = sends(&outputs);
    assert!(!applied.is_empty());
    assert!(
        applied
            .iter()
            .all(|m| matches!(m, ServerMsg::Applied { seq: 1, .. }))
    );
    // One message per viewer class: each seat, and all spectators together.
    let total: usize = outputs
        .iter()
        .map(|o| match o {
            Output::Send { to, .. } => to.len(),
            _ => 0,
        })
        .sum();
    assert_eq!((applied.len(), total), (3, 3));
}

#[test]
fn a_failed_commit_undoes_the_action_and_tells_no_one() {
    let mut core = started_room();
    let (conn, action) = next_move(&mut core);
    let now = Instant::now();
    core.action(conn, "a1".into(), &action, now).unwrap();
    drain(&mut core);
    assert!(
        core.committed(1, Err("disk full".into()), now).is_err(),
        "the sender hears of the failure"
    );
    assert!(
        sends(&drain(&mut core)).is_empty(),
        "nobody hears of an action that was not stored"
    );
    // The same id and action can be sent again: it was never applied.
    assert_eq!(
        core.action(conn, "a1".into(), &action, now),
        Ok(Submitted::Pending(1))
    );
}

#[test]
fn a_resent_client_id_is_answered_with_its_seq() {
    let mut core = started_room();
    let (conn, action) = next_move(&mut core);
    let now = Instant::now();
    core.action(conn, "a1".into(), &action, now).unwrap();
    drain(&mut core);
    core.committed(1, Ok(()), now).unwrap();
    drain(&mut core);
    assert_eq!(
        core.action(conn, "a1".into(), &json!({"type": "anything"}), now),
        Ok(Submitted::Known(1))
    );
    assert!(drain(&mut core).is_empty(), "nothing new is stored or sent");
}

#[test]
fn a_spectator_cannot_act() {
    let mut core = started_room();
    let error = core
        .action(3, "x".into(), &json!({"type": "end_turn"}), Instant::now())
        .unwrap_err();
    assert_eq!(error.code, "not_seated");
}
