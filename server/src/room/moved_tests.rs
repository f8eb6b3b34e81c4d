//! A room whose lease moved on (cluster mode), through the real room loop: the writer refuses
//! its append (`AppendError::Moved`, what the fenced insert answers), so the action is undone
//! and answered `room_moved`, every follower is told `room_moved`, and the room stops and
//! refuses whatever was still queued, so no node but the lease's holder serves it.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use warroom_engine::{RulesetId, Seed};
use warroom_protocol::{MatchId, RoomSettings, codes};

use warroom_room::{Command, Limits, RoomCore};

use super::task::RoomTask;
use super::{ConnId, Kick, Outbox, RoomCmd, Via};
use crate::room::leasing::{Leasing, RoomLease};
use crate::runner::rules;
use crate::store::Store;
use crate::store::leases::Fence;
use crate::store::writer::{AppendError, Writer};

use warroom_room::fixtures::{player, waiting_room};

use super::loop_harness::ask;

/// Follows the room as seat `conn`'s player: its inbox, and the outbox's kick.
async fn join(
    commands: &mpsc::Sender<RoomCmd>,
    conn: ConnId,
) -> (mpsc::Receiver<Utf8Bytes>, Outbox) {
    let (queue, inbox) = mpsc::channel(256);
    let outbox = Outbox::new(queue, CancellationToken::new());
    let kept = outbox.clone();
    let join = Command::Join {
        identity: Some(player(u8::try_from(conn).unwrap())),
        invite: None,
        last_seq: None,
        mutes: Vec::new(),
    };
    ask(commands, conn, join, Some(Via::Outbox(outbox)))
        .await
        .unwrap();
    (inbox, kept)
}

/// Reads `inbox` until a message satisfies `wanted`.
async fn until(inbox: &mut mpsc::Receiver<Utf8Bytes>, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let text = inbox
            .recv()
            .await
            .expect("a message before the queue closes");
        let message: Value = serde_json::from_str(&text).unwrap();
        if wanted(&message) {
            return message;
        }
    }
}

/// A started 2-seat hexdice room run by its real loop under a lease at epoch 3 of `node-a`,
/// its writer answering every append with `writer`'s answer; both players follow it.
struct Leased {
    commands: mpsc::Sender<RoomCmd>,
    running: tokio::task::JoinHandle<()>,
    fence: Fence,
    lost: CancellationToken,
    fences: mpsc::UnboundedReceiver<Option<Fence>>,
    seats: Vec<(mpsc::Receiver<Utf8Bytes>, Outbox)>,
    snapshot: Value,
}

async fn leased_room() -> Leased {
    let record = waiting_room(
        RulesetId::Hexdice,
        vec![Some(player(0)), Some(player(1))],
        RoomSettings::default(),
    );
    let now = Instant::now().into_std();
    let limits = Limits {
        max_spectators: 10,
        ..Limits::default()
    };
    let core = RoomCore::new(
        record,
        rules(RulesetId::Hexdice).unwrap(),
        None,
        &limits,
        [3; 32],
        (now, 0),
    )
    .with_match_started(Seed::from_u64(7), MatchId::random(), now);
    let (writer, fences) = Writer::refusing(AppendError::Moved);
    let fence = Fence {
        node: Arc::from("node-a"),
        epoch: 3,
    };
    let lost = CancellationToken::new();
    let lease = RoomLease {
        fence: fence.clone(),
        lost: lost.clone(),
        leasing: Leasing::new(
            Store::unconnected(),
            fence.node.clone(),
            Duration::from_secs(5),
        ),
    };
    let (task, _summary) = RoomTask::new(core, Store::unconnected(), writer);
    let (commands, inbox) = mpsc::channel(16);
    let running = tokio::spawn(task.with_lease(lease).run(inbox, CancellationToken::new()));
    let mut seats = vec![join(&commands, 0).await, join(&commands, 1).await];
    let snapshot = until(&mut seats[0].0, |m| {
        m["type"] == "snapshot" && m["to_act"] == 0
    })
    .await;
    Leased {
        commands,
        running,
        fence,
        lost,
        fences,
        seats,
        snapshot,
    }
}

impl Leased {
    /// The room stopped, and told each follower `room_moved` last, with no `applied`, and
    /// disconnected them.
    async fn stopped_with_room_moved(self) {
        self.running.await.unwrap();
        assert!(self.commands.is_closed(), "the room stopped serving");
        for (mut inbox, kick) in self.seats {
            let mut rest = Vec::new();
            while let Ok(text) = inbox.try_recv() {
                rest.push(serde_json::from_str::<Value>(&text).unwrap());
            }
            assert!(
                rest.iter().all(|m| m["type"] != "applied"),
                "nobody hears of a refused action: {rest:?}"
            );
            let told = rest.last().expect("told before the room stops");
            assert_eq!(told["type"], "error", "{told}");
            assert_eq!(told["code"], codes::ROOM_MOVED, "{told}");
            assert_eq!(told["room"], self.snapshot["room"], "{told}");
            assert_eq!(
                kick.kicked(),
                Some(Kick::Moved),
                "the socket closes so the client joins again"
            );
        }
    }
}

#[tokio::test(start_paused = true)]
async fn an_append_refused_by_its_fence_stops_the_room_with_room_moved() {
    let mut room = leased_room().await;
    let action = warroom_protocol::legal::expand_value(&room.snapshot["legal"]).unwrap()[0].clone();
    let client_id = "a1".to_owned();
    let answer = ask(
        &room.commands,
        0,
        Command::Action { client_id, action },
        None,
    )
    .await;
    assert_eq!(answer.unwrap_err().code, codes::ROOM_MOVED);
    assert_eq!(
        room.fences.recv().await,
        Some(Some(room.fence.clone())),
        "the append carried the room's lease"
    );
    room.stopped_with_room_moved().await;
}

#[tokio::test(start_paused = true)]
async fn a_lease_found_lost_by_a_renewal_stops_the_room_with_room_moved() {
    let room = leased_room().await;
    room.lost.cancel();
    room.stopped_with_room_moved().await;
}
