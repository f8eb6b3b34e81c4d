//! The real room loop (`task.rs`) driven as the sockets drive it, for tests with tokio's paused
//! time: a started 2-seat hexdice room, commands and outboxes as connections use them, and a
//! writer that commits at once instead of a database.

use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use warroom_engine::{RulesetId, Seed};
use warroom_protocol::{ClockSettings, MatchId, Room, RoomSettings};

use warroom_room::{Answer, Command, Limits, RoomCore};

use super::task::RoomTask;
use super::{ConnId, Outbox, Reply, RoomCmd, Via};
use crate::error::ApiError;
use crate::runner::rules;
use crate::store::writer::{FencedAppend, Writer};
use crate::store::{RoomRecord, Store};

pub(super) const GRACE: Duration = Duration::from_secs(60);

/// Longest a test waits for a message (paused time: this passes in no time when stuck).
pub(super) const PATIENCE: Duration = Duration::from_secs(3600);

pub(super) use warroom_room::fixtures::player;
use warroom_room::fixtures::waiting_room;

/// A started 2-seat hexdice room, grace period 60 s, run by its real loop.
pub(super) struct Table {
    pub(super) commands: mpsc::Sender<RoomCmd>,
    pub(super) appends: mpsc::UnboundedReceiver<FencedAppend>,
    pub(super) summary: watch::Receiver<Room>,
    pub(super) _stop: CancellationToken,
}

/// One connection following the table.
pub(super) struct Person {
    pub(super) conn: ConnId,
    pub(super) inbox: mpsc::Receiver<Utf8Bytes>,
    /// Its outgoing queue as the room has it.
    pub(super) outbox: Outbox,
    pub(super) seen: Vec<Value>,
}

pub(super) fn record(bot_delay_ms: u32, clock: Option<ClockSettings>) -> RoomRecord {
    let settings = RoomSettings {
        clock,
        bot_delay_ms,
        grace_seconds: u32::try_from(GRACE.as_secs()).unwrap(),
        rated: false,
    };
    waiting_room(
        RulesetId::Hexdice,
        vec![Some(player(0)), Some(player(1))],
        settings,
    )
}

/// Sends `conn`'s command to a room loop and waits for its answer.
pub(super) async fn ask(
    commands: &mpsc::Sender<RoomCmd>,
    conn: ConnId,
    command: Command,
    via: Option<Via>,
) -> Result<Answer, ApiError> {
    let (reply, answer) = oneshot::channel();
    let command = RoomCmd {
        conn,
        command,
        via,
        reply: Reply::Wait(reply),
    };
    commands.send(command).await.unwrap();
    answer.await.unwrap()
}

impl Table {
    /// The match starts now; nobody follows the room yet.
    pub(super) fn start(bot_delay_ms: u32) -> Table {
        Table::start_with(bot_delay_ms, None)
    }

    /// The same, with a match clock.
    pub(super) fn start_with(bot_delay_ms: u32, clock: Option<ClockSettings>) -> Table {
        Table::start_on(record(bot_delay_ms, clock), Writer::accepting_all())
    }

    /// A match without a clock whose every commit takes `delay` (a slow database).
    pub(super) fn start_committing_after(delay: Duration) -> Table {
        Table::start_on(record(0, None), Writer::committing_after(delay))
    }

    fn start_on(
        record: RoomRecord,
        (writer, appends): (Writer, mpsc::UnboundedReceiver<FencedAppend>),
    ) -> Table {
        let now = Instant::now().into_std();
        let rules = rules(record.ruleset).unwrap();
        let limits = Limits {
            max_spectators: 10,
            answer_timeout: writer.answer_timeout(),
            ..Limits::default()
        };
        let core = RoomCore::new(record, rules, None, &limits, [7; 32], (now, 0))
            .with_match_started(Seed::from_u64(7), MatchId::random(), now);
        let (task, summary) = RoomTask::new(core, Store::unconnected(), writer);
        let (commands, inbox) = mpsc::channel(16);
        let stop = CancellationToken::new();
        tokio::spawn(task.run(inbox, stop.clone()));
        Table {
            commands,
            appends,
            summary,
            _stop: stop,
        }
    }

    pub(super) async fn ask(
        &self,
        conn: ConnId,
        command: Command,
        via: Option<Via>,
    ) -> Result<Answer, ApiError> {
        ask(&self.commands, conn, command, via).await
    }

    /// `conn` follows the room as `who` (the seat's player, or a spectator with `None`).
    pub(super) async fn join(&self, conn: ConnId, who: Option<u8>) -> Person {
        let (queue, inbox) = mpsc::channel(4096);
        let outbox = Outbox::new(queue, CancellationToken::new());
        let join = Command::Join {
            identity: who.map(player),
            invite: None,
            last_seq: None,
            mutes: Vec::new(),
        };
        self.ask(conn, join, Some(Via::Outbox(outbox.clone())))
            .await
            .unwrap();
        Person {
            conn,
            inbox,
            outbox,
            seen: Vec::new(),
        }
    }

    /// The connection closes.
    pub(super) async fn leave(&self, person: Person) {
        let leave = RoomCmd {
            conn: person.conn,
            command: Command::Leave,
            via: None,
            reply: Reply::Nobody,
        };
        self.commands.send(leave).await.unwrap();
    }

    pub(super) async fn act(
        &self,
        person: &Person,
        id: &str,
        action: Value,
    ) -> Result<u64, ApiError> {
        let client_id = id.to_owned();
        match self
            .ask(person.conn, Command::Action { client_id, action }, None)
            .await?
        {
            Answer::Seq(seq) => Ok(seq),
            other => panic!("an action answered {other:?}"),
        }
    }

    pub(super) async fn back(&self, person: &Person) -> Result<(), ApiError> {
        self.ask(person.conn, Command::Back, None).await.map(|_| ())
    }
}

impl Person {
    /// The next message, waiting (time runs on while nothing happens).
    pub(super) async fn next(&mut self) -> Value {
        let text = tokio::time::timeout(PATIENCE, self.inbox.recv())
            .await
            .expect("a message in time")
            .expect("the room is running");
        let message: Value = serde_json::from_str(&text).unwrap();
        self.seen.push(message.clone());
        message
    }

    /// Reads messages until one satisfies `wanted`.
    pub(super) async fn until(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await;
            if wanted(&message) {
                return message;
            }
            assert!(
                message["type"] != "finished",
                "the match ended before {what}: {:?}",
                self.seen
            );
        }
    }

    /// Reads what has arrived, without waiting.
    pub(super) fn read_arrived(&mut self) {
        while let Ok(text) = self.inbox.try_recv() {
            self.seen.push(serde_json::from_str(&text).unwrap());
        }
    }

    /// Checks that no message of type `kind` has arrived so far; `why` names the rule.
    pub(super) fn saw_no(&mut self, kind: &str, why: &str) {
        self.read_arrived();
        assert!(
            self.seen.iter().all(|m| m["type"] != kind),
            "{why}: {:?}",
            self.seen
        );
    }

    /// The last match message seen (snapshot or applied).
    pub(super) fn last_match_message(&self) -> Option<&Value> {
        self.seen
            .iter()
            .rev()
            .find(|m| m["type"] == "snapshot" || m["type"] == "applied")
    }
}
