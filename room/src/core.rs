//! The room core: one way in, [`RoomCore::handle`] with an [`Input`] and the time it happened,
//! and one way out, [`RoomCore::poll_output`], which gives the [`Output`]s in order and ends
//! with [`Output::Wake`]. It holds the room's seats, followers and match, and drives one type
//! per concern (`Clock` inside the match, `Presence`, `Absences`, `Chat`, `RematchVotes`,
//! `Abandonment`, `CatchUps`, `LastViews`, `Eviction`), none of which reaches into another.
//!
//! One write is in flight at a time: an accepted action is applied to the match, its append
//! asked for, and nobody hears of it until `Input::WriteDone` says it is durable (durable
//! before acknowledged); a failed write is undone. While a write is in flight the room takes no
//! command ([`RoomCore::takes_commands`]); the loop leaves them in its queue.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::Value;
use warroom_engine::{BotLevel, Seat, Seed, Viewer};
use warroom_protocol::{
    ActedBy, ChatLine, ClockState, Identity, MatchId, MatchState, Room, RoomId, RoomState,
    ServerMsg, Takeover, codes,
};

use crate::ConnId;
use crate::absence::{Absences, TIMEOUTS_BEFORE_TAKEOVER};
use crate::bots::bot_level;
use crate::catch_up::CatchUps;
use crate::chat::{Chat, Reader, may_read};
use crate::clock::Clock;
use crate::control::{BotTurn, STAND_IN_LEVEL};
use crate::error::{ErrorKind as Kind, RoomError};
use crate::eviction::Eviction;
use crate::expiry::Abandonment;
use crate::followers::{Follower, Followers};
use crate::game::Game;
use crate::input::{Answer, AskId, Command, Input, WriteFailed, WriteId};
use crate::output::{Output, Write};
use crate::presence::{Presence, Rejoin};
use crate::records::{Append, MatchRecord, RoomRecord};
use crate::rematch::{RematchVotes, rematch_room};
use crate::runner::Rules;
use crate::seats::{self, SeatChange, seat_of};
use crate::summary::{SeatsNow, room_for, sees_invite};
use crate::views;
use crate::views::LastViews;

/// Longest client action id, in bytes.
pub const MAX_CLIENT_ID_BYTES: usize = 64;

/// The prefix of the action ids the server gives its own actions (bot, clock, resign); a
/// client's id may not start with it.
pub const SERVER_ID_PREFIX: &str = "server:";

/// How long a waiting room may stay empty when the server does not say.
pub const DEFAULT_EXPIRY: Duration = Duration::from_secs(30 * 60);

/// What the server sets for every room it serves.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most spectators (followers holding no seat) a room accepts.
    pub max_spectators: usize,
    /// Messages a connection's outgoing queue holds (catch-ups fit in a quarter of it).
    pub outgoing_queue: usize,
    /// How long an action's asker waits for its commit before hearing `unavailable` (the room
    /// goes on waiting for the outcome).
    pub answer_timeout: Duration,
    /// How long a waiting room may stay empty before it expires.
    pub waiting_expiry: Duration,
    /// How long a room stays in memory idle (`None`: for ever).
    pub idle_eviction: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_spectators: usize::MAX,
            outgoing_queue: usize::MAX,
            answer_timeout: Duration::from_secs(10),
            waiting_expiry: DEFAULT_EXPIRY,
            idle_eviction: None,
        }
    }
}

/// The write in flight, and what to do when it is done.
#[derive(Debug)]
enum InFlight {
    /// An accepted action.
    Append {
        /// Its seq.
        seq: u64,
        /// Who played it.
        seat: Seat,
        /// The client's id for it.
        client_id: String,
        /// True for a resignation (the room shows the bot taking over once it is durable).
        resign: bool,
        /// The clock before it, put back if it cannot be stored.
        clock_before: Option<Clock>,
        /// Who waits for its answer (none for a bot's or the clock's, or once answered late).
        ask: Option<AskId>,
        /// When its asker hears `unavailable` if it is still not stored.
        answer_by: Instant,
    },
    /// A seat change: applied once stored, answered with `answer`.
    Seat {
        change: SeatChange,
        ask: AskId,
        answer: Answer,
    },
    /// A line of chat: delivered once stored.
    Chat { line: ChatLine, ask: AskId },
    /// The rematch room: announced once stored.
    Rematch { room: RoomId },
    /// The match set up: it runs once stored.
    Start { game: Box<Game> },
    /// The expiry of an abandoned waiting room.
    Expiry,
}

/// The state of one room, driven by its loop.
pub struct RoomCore {
    /// The room as stored, kept current.
    record: RoomRecord,
    /// Its ruleset.
    rules: &'static dyn Rules,
    /// The match, once started.
    game: Option<Game>,
    /// Connections following the room.
    followers: Followers,
    /// What the followers have heard of who follows the room, and the spectator cap.
    presence: Presence,
    /// The catch-ups' view budget and snapshots.
    catch_ups: CatchUps,
    /// The views last sent per viewer class, patches are made from.
    last_views: LastViews,
    /// Players away from the match, and the seats a bot plays for that.
    absences: Absences,
    /// The chat, and whose lines each connection does not read.
    chat: Chat,
    /// The rematch, once the match is over.
    rematch: RematchVotes,
    /// The countdown of a waiting room nobody is connected to.
    abandonment: Abandonment,
    /// Since when the room has been idle, and how long it may be.
    eviction: Eviction,
    /// The seq a bot's decision was last asked for, so it is asked once.
    bot_asked: Option<u64>,
    /// The write in flight.
    in_flight: Option<(WriteId, InFlight)>,
    /// The next write's number.
    next_write: WriteId,
    /// Randomness for match seeds, match and room ids and invite codes, seeded by the loop
    /// from the OS.
    entropy: ChaCha20Rng,
    /// How long an action's asker waits for its commit.
    answer_timeout: Duration,
    /// Set once the room stopped serving here (`Output::Moved`).
    moved: bool,
    /// What the loop has yet to do, in order.
    out: VecDeque<Output>,
    /// The time of the last input (clock states in messages are as of then).
    now: Instant,
    /// An instant and the Unix milliseconds it was, to show times as server time.
    wall: (Instant, i64),
}

/// What a seat submits: a ruleset action or its resignation.
#[derive(Clone, Copy, Debug)]
enum Submission<'a> {
    /// A ruleset action's JSON.
    Rules(&'a Value),
    /// The seat resigns (G-RESIGN-1).
    Resign,
}

/// What became of a submitted action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Submitted {
    /// Its id was accepted before, as this seq: nothing new happens.
    Known(u64),
    /// Accepted as this seq and its append asked for: the answer comes with its commit.
    Pending(u64),
}

impl RoomCore {
    /// A room over its stored record and, once started, its rebuilt match. `entropy` (from
    /// the OS) seeds every match, id and invite code the room makes; `wall` is an instant and
    /// the Unix milliseconds it was.
    pub fn new(
        record: RoomRecord,
        rules: &'static dyn Rules,
        game: Option<Game>,
        limits: &Limits,
        entropy: [u8; 32],
        wall: (Instant, i64),
    ) -> RoomCore {
        let grace = Duration::from_secs(u64::from(record.settings.grace_seconds));
        let absences = Absences::new(grace, record.seats.len());
        let mut core = RoomCore {
            absences,
            record,
            rules,
            game,
            followers: Followers::default(),
            presence: Presence::new(limits.max_spectators),
            catch_ups: CatchUps::new(limits.outgoing_queue),
            last_views: LastViews::default(),
            chat: Chat::default(),
            rematch: RematchVotes::default(),
            abandonment: Abandonment::new(limits.waiting_expiry),
            eviction: Eviction::new(limits.idle_eviction),
            bot_asked: None,
            in_flight: None,
            next_write: 1,
            entropy: ChaCha20Rng::from_seed(entropy),
            answer_timeout: limits.answer_timeout,
            moved: false,
            out: VecDeque::new(),
            now: wall.0,
            wall,
        };
        core.observe_abandonment(wall.0);
        core
    }

    /// The room's stored chat (oldest first) and rematch room.
    pub fn with_history(mut self, chat: Vec<ChatLine>, rematch: Option<RoomId>) -> RoomCore {
        self.chat = Chat::new(chat);
        self.rematch = RematchVotes::new(rematch);
        self
    }

    /// A rebuilt match: `seats` (found by `timed_out_in_log`) are played by the bot again
    /// (`timed_out`), unless a bot holds them or their player resigned.
    pub fn with_timed_out(mut self, seats: &[Seat]) -> RoomCore {
        if self.match_running() {
            for &seat in seats {
                if self.takeover(seat).is_none() && self.bot_for(seat).is_none() {
                    self.absences.take(seat, Takeover::TimedOut);
                }
            }
        }
        self
    }

    /// Starts the match of a full waiting room at once with `seed`, as if its record had been
    /// stored (tests, and benches that drive a room without a database). A room that is not
    /// full and waiting is left as it is.
    pub fn with_match_started(mut self, seed: Seed, match_id: MatchId, now: Instant) -> RoomCore {
        self.now = now;
        let seats = u8::try_from(self.record.seats.len()).unwrap_or(u8::MAX);
        if self.ready_to_start()
            && let Ok(runner) = self.rules.start(&self.record.options, seats, seed)
        {
            self.started(Game::new(match_id, seed, runner), now);
        }
        self
    }

    /// The room's id.
    pub fn id(&self) -> RoomId {
        self.record.id
    }

    /// The room as the lobby shows it (no invite code).
    pub fn summary(&self) -> Room {
        room_for(&self.record, &self.followers, &self.seats_now(), None)
    }

    /// Who holds each seat (for the relay's viewer classes).
    pub fn seats(&self) -> &[Option<Identity>] {
        &self.record.seats
    }

    /// The viewer class of follower `conn`: its seat, or spectator.
    pub fn class_of(&self, conn: ConnId) -> Viewer {
        self.followers
            .get(conn)
            .map_or(Viewer::Spectator, |f| self.viewer_of(f.identity.as_ref()))
    }

    /// True when the room takes the next command now: no write is in flight (the loop leaves
    /// commands in its queue meanwhile, so a flooded room answers `busy`).
    pub fn takes_commands(&self) -> bool {
        self.in_flight.is_none()
    }

    /// True while a write is in flight (a stopping loop waits for it).
    pub fn is_writing(&self) -> bool {
        self.in_flight.is_some()
    }

    /// The next thing for the loop to do; [`Output::Wake`] when there is nothing more.
    pub fn poll_output(&mut self) -> Output {
        self.out
            .pop_front()
            .unwrap_or_else(|| Output::Wake(self.next_wake()))
    }

    /// Feeds one input that happened at `now`.
    pub fn handle(&mut self, now: Instant, input: Input) {
        self.now = now;
        match input {
            Input::Resume => self.resume(now),
            Input::Command { ask, conn, command } => self.command(ask, conn, command, now),
            Input::Timeout => self.timeout(now),
            Input::BotChose { seq, seat, action } => self.bot_chose(seq, seat, action, now),
            Input::WriteDone { id, result } => self.write_done(id, result, now),
            Input::Gone { conn } => self.leave(conn, now),
            Input::Moved => self.stop_moved(),
        }
        if self.record.state == RoomState::Finished {
            self.eviction.match_over();
        }
        let idle = self.is_idle();
        self.eviction.observe(idle, now);
    }

    fn resume(&mut self, now: Instant) {
        self.observe_absences(now);
        self.schedule_bot();
        if self.ready_to_start() && self.has_bot_seat() {
            // A room filled with bots when it was created (its creator and bots, or bots
            // only) starts at once; a rematch room waits for its players to join.
            self.start(now);
        }
    }

    fn command(&mut self, ask: AskId, conn: ConnId, command: Command, now: Instant) {
        if self.moved {
            return self.answer(ask, Err(RoomError::room_moved()));
        }
        match command {
            Command::Join {
                identity,
                invite,
                last_seq,
                mutes,
            } => {
                let fresh = self.followers.get(conn).is_none();
                self.chat.set_mutes(conn, mutes);
                let joined = self.join(conn, identity, invite.as_deref(), last_seq, now);
                if joined.is_err() && fresh {
                    self.leave(conn, now);
                }
                self.answer(ask, joined.map(|()| Answer::Done));
                // A rematch room is stored with its seats taken: it starts once joined.
                if self.ready_to_start() {
                    self.start(now);
                }
            }
            Command::TakeSeat {
                seat,
                may_play_rated,
            } => match self.check_take_seat(conn, seat, may_play_rated) {
                Ok(change) => {
                    let answer = Answer::Seat(change.seat);
                    self.write_seat(change, ask, answer);
                }
                Err(error) => self.answer(ask, Err(error)),
            },
            Command::LeaveSeat => match self.check_leave_seat(conn) {
                Ok(change) => self.write_seat(change, ask, Answer::Done),
                Err(error) => self.answer(ask, Err(error)),
            },
            Command::Action { client_id, action } => {
                let submitted = self.action(conn, client_id, &action, now);
                self.answer_submitted(ask, submitted);
            }
            Command::Resign => {
                let submitted = self.resign(conn, now);
                self.answer_submitted(ask, submitted);
            }
            Command::Back => {
                let back = self.back(conn, now);
                self.answer(ask, back.map(|()| Answer::Done));
            }
            Command::Leave => {
                self.leave(conn, now);
                self.answer(ask, Ok(Answer::Done));
                // A player who never answered the rematch is gone: the others may agree now.
                self.open_rematch_if_agreed(now);
            }
            Command::Chat { text } => match self.chat_line(conn, &text, now) {
                Ok(line) => {
                    let write = Write::ChatLine {
                        room: self.record.id,
                        match_id: self.record.match_id,
                        line: line.clone(),
                        at_ms: self.wall_ms(now),
                    };
                    self.write(write, InFlight::Chat { line, ask });
                }
                Err(error) => self.answer(ask, Err(error)),
            },
            Command::Rematch { accept } => {
                let answered = self.answer_rematch(conn, accept);
                self.answer(ask, answered.map(|()| Answer::Done));
                self.open_rematch_if_agreed(now);
            }
            Command::Mutes { muted } => {
                if self.followers.get(conn).is_some() {
                    self.chat.set_mutes(conn, muted);
                }
                self.answer(ask, Ok(Answer::Done));
            }
        }
    }

    fn answer(&mut self, ask: AskId, result: Result<Answer, RoomError>) {
        self.out.push_back(Output::Answer { ask, result });
    }

    fn answer_submitted(&mut self, ask: AskId, submitted: Result<Submitted, RoomError>) {
        match submitted {
            Ok(Submitted::Pending(_)) => {
                if let Some((_, InFlight::Append { ask: waiting, .. })) = &mut self.in_flight {
                    *waiting = Some(ask);
                }
            }
            Ok(Submitted::Known(seq)) => self.answer(ask, Ok(Answer::Seq(seq))),
            Err(error) => self.answer(ask, Err(error)),
        }
    }

    /// Asks for a write; the core takes no command until it is done.
    fn write(&mut self, write: Write, then: InFlight) {
        let id = self.next_write;
        self.next_write += 1;
        self.in_flight = Some((id, then));
        self.out.push_back(Output::Write { id, write });
    }

    fn write_seat(&mut self, change: SeatChange, ask: AskId, answer: Answer) {
        let write = Write::Seat {
            room: self.record.id,
            change: change.clone(),
        };
        self.write(
            write,
            InFlight::Seat {
                change,
                ask,
                answer,
            },
        );
    }

    fn write_done(&mut self, id: WriteId, result: Result<(), WriteFailed>, now: Instant) {
        let in_flight = match self.in_flight.take() {
            Some((expected, in_flight)) if expected == id => in_flight,
            other => {
                tracing::error!("room {}: write {id} reported, not in flight", self.id());
                self.in_flight = other;
                return;
            }
        };
        let moved = matches!(result, Err(WriteFailed::Moved | WriteFailed::Behind));
        if result == Err(WriteFailed::Behind) {
            tracing::warn!(
                "room {}: the log holds another action at this seq; loading the room again",
                self.id()
            );
        }
        let failure = match result {
            Ok(()) => None,
            Err(WriteFailed::Moved | WriteFailed::Behind) => Some(RoomError::room_moved()),
            Err(WriteFailed::Refused(error)) => Some(error),
        };
        match in_flight {
            InFlight::Append {
                seq,
                seat,
                client_id,
                resign,
                clock_before,
                ask,
                ..
            } => {
                let answer = match failure {
                    None => self.committed(seq, seat, client_id, resign, now),
                    Some(error) => {
                        self.not_committed(clock_before);
                        Err(error)
                    }
                };
                if let Some(ask) = ask {
                    self.answer(ask, answer.map(Answer::Seq));
                }
            }
            InFlight::Seat {
                change,
                ask,
                answer,
            } => match failure {
                None => {
                    self.seat_stored(change);
                    self.answer(ask, Ok(answer));
                    self.start(now);
                }
                Some(error) => self.answer(ask, Err(error)),
            },
            InFlight::Chat { line, ask } => match failure {
                None => {
                    self.chat_stored(line);
                    self.answer(ask, Ok(Answer::Done));
                }
                Some(error) => {
                    self.chat.not_stored(&line);
                    self.answer(ask, Err(error));
                }
            },
            InFlight::Rematch { room } => match failure {
                None => {
                    self.rematch.opened(room);
                    self.send_rematch();
                }
                Some(error) => {
                    tracing::error!("room {} cannot open its rematch: {error}", self.record.id)
                }
            },
            InFlight::Start { game } => match failure {
                None => self.started(*game, now),
                Some(error) => {
                    tracing::error!("room {} cannot start its match: {error}", self.record.id);
                    self.publish();
                }
            },
            InFlight::Expiry => match failure {
                None => {
                    tracing::info!("room {} expired: nobody was connected", self.record.id);
                    self.record.state = RoomState::Expired;
                    self.observe_abandonment(now);
                    self.publish();
                }
                Some(error) => tracing::error!("room {} cannot expire: {error}", self.record.id),
            },
        }
        if moved {
            self.stop_moved();
        } else {
            // Whatever waited for the write (a bot's turn) is asked for now.
            self.schedule_bot();
        }
    }

    /// The room stops serving here: every follower is told `room_moved` (they join again and
    /// find the room where it is served next, loaded from its log), and the loop is told to
    /// disconnect them and stop.
    fn stop_moved(&mut self) {
        if self.moved {
            return;
        }
        self.moved = true;
        tracing::warn!(
            "room {} stops serving here: it is loaded again from its log",
            self.id()
        );
        let message = ServerMsg::error(Some(self.id()), None, RoomError::room_moved().body());
        let everyone = self.everyone();
        self.send(everyone, message);
        self.out.push_back(Output::Moved);
    }

    /// Time has come to `now`: act on whatever fell due.
    fn timeout(&mut self, now: Instant) {
        self.answer_late(now);
        self.take_over_absent(now);
        if self.in_flight.is_some() || self.moved {
            return;
        }
        self.flush_presence(now);
        if self.record.state == RoomState::Waiting && self.abandonment.is_due(now) {
            let write = Write::Expiry {
                room: self.record.id,
            };
            return self.write(write, InFlight::Expiry);
        }
        let expired = self
            .game
            .as_mut()
            .and_then(|game| game.clock.as_mut())
            .and_then(|clock| clock.expired(now));
        if let Some(seat) = expired {
            self.time_out(seat, now);
        }
        if self.in_flight.is_none() && self.eviction.is_due(now) {
            self.out.push_back(Output::Evict);
        }
    }

    /// An append slower than the answer timeout: its asker hears `unavailable` now (it may
    /// still be stored; sent again with its id it is answered from the log); the room goes on
    /// waiting for the outcome.
    fn answer_late(&mut self, now: Instant) {
        let room = self.record.id;
        let timeout = self.answer_timeout;
        if let Some((_, InFlight::Append { ask, answer_by, .. })) = &mut self.in_flight
            && now >= *answer_by
            && let Some(ask) = ask.take()
        {
            let error = RoomError::unavailable(format!(
                "room {room}: the database did not answer within {timeout:?}"
            ));
            self.answer(ask, Err(error));
        }
    }

    /// When the loop must feed [`Input::Timeout`] next, if ever.
    fn next_wake(&self) -> Option<Instant> {
        let answer_by = match &self.in_flight {
            Some((
                _,
                InFlight::Append {
                    ask: Some(_),
                    answer_by,
                    ..
                },
            )) => Some(*answer_by),
            _ => None,
        };
        [self.due_wake(), answer_by, self.eviction.deadline()]
            .into_iter()
            .flatten()
            .min()
    }

    /// When something in the room falls due by itself (clock, presence, grace period,
    /// expiry), whoever follows it.
    fn due_wake(&self) -> Option<Instant> {
        let free = self.in_flight.is_none();
        let clock = self
            .game
            .as_ref()
            .filter(|_| free)
            .and_then(|game| game.clock.as_ref())
            .and_then(Clock::deadline);
        let presence = self.presence.due().filter(|_| free);
        let expiry = (self.record.state == RoomState::Waiting)
            .then(|| self.abandonment.deadline())
            .flatten();
        let absence = self
            .match_running()
            .then(|| self.absences.deadline())
            .flatten();
        [expiry, clock, presence, absence]
            .into_iter()
            .flatten()
            .min()
    }

    /// True when the room may leave memory: nobody follows it, nothing is in flight, and
    /// nothing would happen in it without someone coming (no clock or expiry due, no bot to
    /// act). Waiting rooms stay until they expire.
    fn is_idle(&self) -> bool {
        self.followers.is_empty()
            && self.in_flight.is_none()
            && !self.moved
            && self.record.state != RoomState::Waiting
            && self.due_wake().is_none()
            && !self.bot_to_act()
    }

    /// True when a bot plays the seat to act (it will act without anyone connected).
    fn bot_to_act(&self) -> bool {
        self.game
            .as_ref()
            .filter(|game| !game.is_over())
            .and_then(|game| game.runner.to_act())
            .is_some_and(|seat| self.bot_for(seat).is_some())
    }

    // ----- the wall clock -----

    /// The Unix milliseconds of instant `at`.
    fn wall_ms(&self, at: Instant) -> i64 {
        let (base, base_ms) = self.wall;
        let offset = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        if at >= base {
            base_ms.saturating_add(offset(at - base))
        } else {
            base_ms.saturating_sub(offset(base - at))
        }
    }

    /// The match's clock as of the last input.
    fn clock_state(&self) -> Option<ClockState> {
        let clock = self.game.as_ref()?.clock.as_ref()?;
        Some(clock.state(self.now, |at| self.wall_ms(at)))
    }

    /// What the match says of the seats now (takeovers, clock), for the room's summary.
    fn seats_now(&self) -> SeatsNow {
        SeatsNow {
            takeovers: self.takeovers(),
            clock: self.clock_state(),
        }
    }

    // ----- following the room -----

    /// A connection follows the room; it is sent the room, then what it missed of the match.
    /// The others hear of a new follower coalesced (`presence.rs`); a repeated join is
    /// answered only to its sender.
    fn join(
        &mut self,
        conn: ConnId,
        identity: Option<Identity>,
        invite: Option<&str>,
        last_seq: Option<u64>,
        now: Instant,
    ) -> Result<(), RoomError> {
        if self.record.state == RoomState::Expired {
            return Err(RoomError::new(
                Kind::Gone,
                codes::ROOM_EXPIRED,
                "this room waited too long with nobody in it and is closed",
            ));
        }
        let seated = seat_of(&self.record, identity.as_ref()).is_some();
        let insider = identity
            .as_ref()
            .is_some_and(|identity| identity.id == self.record.creator || seated);
        if self.record.private && !insider && invite != Some(self.record.invite_code.as_str()) {
            return Err(RoomError::forbidden(
                codes::INVALID_INVITE,
                "this room is private: its invite code is needed",
            ));
        }
        let rejoin = Rejoin::of(self.followers.get(conn), identity.as_ref());
        // A person who can sit is never kept out of a waiting room by its spectators.
        let may_sit = identity.is_some()
            && self.record.state == RoomState::Waiting
            && self.record.seats.iter().any(Option::is_none);
        let spectators = self.spectator_count();
        self.presence
            .check_cap(rejoin, seated || may_sit, spectators)?;
        self.followers.insert(
            conn,
            Follower {
                identity: identity.clone(),
                room_seen: 0,
                view_seen: None,
            },
        );
        if rejoin != Rejoin::Repeated {
            self.presence_changed(now);
        }
        let viewer = self.viewer_of(identity.as_ref());
        let room = room_for(
            &self.record,
            &self.followers,
            &self.seats_now(),
            identity.as_ref(),
        );
        self.send(vec![conn], ServerMsg::Room { room });
        self.followers.mark_seen(conn, self.presence.version());
        let clock = self.clock_state();
        if let Some(game) = &self.game {
            let sent_view = last_seq != Some(game.runner.seq());
            let messages =
                self.catch_ups
                    .catch_up(self.record.id, game, viewer, last_seq, clock, now);
            self.out
                .extend(messages.into_iter().map(|message| Output::Send {
                    to: vec![conn],
                    message,
                    paced: false,
                }));
            if sent_view {
                // It holds the view of the current seq now (the last message of its catch-up).
                self.last_views
                    .caught_up(game, &mut self.followers, conn, viewer);
            }
        }
        self.observe_absences(now);
        self.flush_presence(now);
        self.send_history(conn, identity.as_ref());
        self.observe_abandonment(now);
        Ok(())
    }

    /// A connection stops following the room (it left, closed, or was too slow).
    fn leave(&mut self, conn: ConnId, now: Instant) {
        if self.followers.remove(conn).is_some() {
            self.observe_absences(now);
            self.presence_changed(now);
            self.flush_presence(now);
        }
        self.chat.forget(conn);
        self.observe_abandonment(now);
    }

    fn follower(&self, conn: ConnId) -> Result<&Follower, RoomError> {
        self.followers
            .get(conn)
            .ok_or_else(|| RoomError::bad_request(codes::NOT_JOINED, "join the room first"))
    }

    fn viewer_of(&self, identity: Option<&Identity>) -> Viewer {
        seat_of(&self.record, identity).map_or(Viewer::Spectator, Viewer::Seat)
    }

    fn everyone(&self) -> Vec<ConnId> {
        self.followers.iter().map(|(conn, _)| conn).collect()
    }

    fn spectator_count(&self) -> usize {
        let record = &self.record;
        self.followers
            .iter()
            .filter(|(_, f)| seat_of(record, f.identity.as_ref()).is_none())
            .count()
    }

    /// Starts or stops the countdown of an abandoned waiting room.
    fn observe_abandonment(&mut self, now: Instant) {
        let waiting = self.record.state == RoomState::Waiting;
        self.abandonment.observe(waiting, self.followers.len(), now);
    }

    // ----- presence -----

    /// Who follows the room changed: the lobby's copy is updated at once, the followers hear of
    /// it coalesced.
    fn presence_changed(&mut self, now: Instant) {
        self.presence.changed(now);
        self.out.push_back(Output::Summary(self.summary()));
    }

    /// Sends the pending presence change if it is due: the room to every follower that has not
    /// seen the latest version.
    fn flush_presence(&mut self, now: Instant) {
        let Some(version) = self.presence.take_due(now) else {
            return;
        };
        // Only what was sent counts towards the interval (a joiner alone was told already).
        if self.send_room(|follower| follower.room_seen < version) {
            self.presence.sent(now);
        }
        self.followers.mark_all_seen(version);
    }

    /// Sends every follower the room as it may see it, and updates the lobby's copy.
    fn publish(&mut self) {
        let _ = self.send_room(|_| true);
        let version = self.presence.published();
        self.followers.mark_all_seen(version);
        self.out.push_back(Output::Summary(self.summary()));
    }

    /// Sends the followers `to` picks the room as each may see it; false when it picked none.
    fn send_room(&mut self, to: impl Fn(&Follower) -> bool) -> bool {
        let record = &self.record;
        let classes = self.followers.classes(|f| {
            to(f).then(|| sees_invite(record, f.identity.as_ref()).then(|| f.identity.clone()))
        });
        // Two followers see the same room unless one may see the invite code (then the room is
        // built for that identity: the code is the only difference).
        let seats_now = self.seats_now();
        let mut sent = false;
        for (insider, conns) in classes {
            let Some(insider) = insider else { continue };
            sent = true;
            let room = room_for(
                &self.record,
                &self.followers,
                &seats_now,
                insider.flatten().as_ref(),
            );
            self.send(conns, ServerMsg::Room { room });
        }
        sent
    }

    fn send(&mut self, to: Vec<ConnId>, message: ServerMsg) {
        if !to.is_empty() {
            self.out.push_back(Output::Send {
                to,
                message,
                paced: false,
            });
        }
    }

    // ----- seats and the start -----

    fn check_take_seat(
        &self,
        conn: ConnId,
        wanted: Option<Seat>,
        may_play_rated: bool,
    ) -> Result<SeatChange, RoomError> {
        let identity = self
            .follower(conn)?
            .identity
            .clone()
            .ok_or_else(RoomError::unauthorized)?;
        let change = seats::check_take(&self.record, identity, wanted)?;
        if self.record.settings.rated && !may_play_rated {
            return Err(RoomError::forbidden(
                codes::NOT_YET_RATED,
                "this room is rated, and rated play opens after a number of finished matches",
            ));
        }
        Ok(change)
    }

    fn check_leave_seat(&self, conn: ConnId) -> Result<SeatChange, RoomError> {
        let identity = self.follower(conn)?.identity.clone();
        seats::check_leave(&self.record, identity.as_ref())
    }

    /// A seat change is stored: apply it and tell everyone (unless the match starts now, which
    /// tells everyone itself).
    fn seat_stored(&mut self, change: SeatChange) {
        seats::apply(&mut self.record, change);
        if !self.ready_to_start() {
            self.publish();
        }
    }

    /// True when every seat is taken and the match has not started.
    fn ready_to_start(&self) -> bool {
        self.record.state == RoomState::Waiting
            && self.game.is_none()
            && self.in_flight.is_none()
            && self.record.seats.iter().all(Option::is_some)
    }

    /// True when a bot holds one of the seats from the start.
    fn has_bot_seat(&self) -> bool {
        self.record
            .seats
            .iter()
            .flatten()
            .any(|holder| bot_level(holder.id).is_some())
    }

    /// Every seat is taken: sets up the match with a fresh seed and asks for its record to be
    /// stored; it runs once stored.
    fn start(&mut self, now: Instant) {
        if !self.ready_to_start() {
            return;
        }
        let mut seed = [0u8; 32];
        self.entropy.fill_bytes(&mut seed);
        let seed = Seed(seed);
        let match_id = MatchId(self.random_uuid());
        let seats: Vec<Identity> = self.record.seats.iter().flatten().cloned().collect();
        let started = u8::try_from(seats.len())
            .map_err(RoomError::internal)
            .and_then(|count| self.rules.start(&self.record.options, count, seed));
        let runner = match started {
            Ok(runner) => runner,
            Err(error) => {
                tracing::error!("room {} cannot start its match: {error}", self.record.id);
                return self.publish();
            }
        };
        let record = MatchRecord {
            id: match_id,
            room_id: self.record.id,
            ruleset: self.record.ruleset,
            options: self.record.options.clone(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            state: MatchState::Playing,
            outcome: None,
            action_count: 0,
            started_at: self.wall_ms(now),
            finished_at: None,
            seats,
            rated: self.record.settings.rated,
            ratings: None,
        };
        let game = Box::new(Game::new(match_id, seed, runner));
        self.write(Write::Start(record), InFlight::Start { game });
    }

    /// The match record is stored: the match runs. Everyone gets the room, then their snapshot.
    fn started(&mut self, mut game: Game, now: Instant) {
        game.clock = self.record.settings.clock.map(|settings| {
            let mut clock = Clock::new(settings, self.record.seats.len());
            clock.observe(game.runner.to_act(), now);
            clock
        });
        self.record.match_id = Some(game.match_id);
        self.record.state = RoomState::Playing;
        self.observe_abandonment(now);
        self.game = Some(game);
        self.observe_absences(now);
        self.publish();
        self.broadcast(views::snapshot);
        let conns = self.everyone();
        if let Some(game) = &self.game {
            for conn in conns {
                let viewer = self.followers.get(conn).map_or(Viewer::Spectator, |f| {
                    seat_of(&self.record, f.identity.as_ref())
                        .map_or(Viewer::Spectator, Viewer::Seat)
                });
                self.last_views
                    .caught_up(game, &mut self.followers, conn, viewer);
            }
        }
        self.schedule_bot();
    }

    /// A fresh random v4 UUID from the room's entropy.
    fn random_uuid(&mut self) -> uuid::Uuid {
        let mut bytes = [0u8; 16];
        self.entropy.fill_bytes(&mut bytes);
        uuid::Builder::from_random_bytes(bytes).into_uuid()
    }

    // ----- the match -----

    /// A seated player's action. Accepted ones wait for their commit; a resent id is answered
    /// with its seq.
    fn action(
        &mut self,
        conn: ConnId,
        client_id: String,
        action: &Value,
        now: Instant,
    ) -> Result<Submitted, RoomError> {
        if client_id.is_empty() || client_id.len() > MAX_CLIENT_ID_BYTES {
            return Err(RoomError::bad_request(
                codes::INVALID_ACTION_ID,
                format!("an action id has 1 to {MAX_CLIENT_ID_BYTES} bytes"),
            ));
        }
        if client_id.starts_with(SERVER_ID_PREFIX) {
            return Err(RoomError::bad_request(
                codes::RESERVED_ACTION_ID,
                format!("action ids starting with {SERVER_ID_PREFIX:?} are the server's"),
            ));
        }
        let seat = self.seat_in_match(conn)?;
        if let Some(seq) = self.known(seat, &client_id) {
            return Ok(Submitted::Known(seq));
        }
        if self.match_over() {
            return Err(RoomError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        if self.takeover(seat) == Some(Takeover::Resigned) {
            return Err(already_resigned());
        }
        // A player acting on a seat a bot plays while they were away takes it back at once.
        self.give_back(seat);
        self.submit(
            seat,
            client_id,
            Submission::Rules(action),
            ActedBy::Player,
            now,
        )
    }

    /// A seated player resigns, whoever is to act (G-RESIGN-1): stored like an action, once;
    /// a second resignation is refused with `already_resigned` (also after a two-seat match
    /// it ended), as docs/PROTOCOL.md says.
    fn resign(&mut self, conn: ConnId, now: Instant) -> Result<Submitted, RoomError> {
        let seat = self.seat_in_match(conn)?;
        let client_id = format!("{SERVER_ID_PREFIX}resign");
        if self.known(seat, &client_id).is_some() {
            return Err(already_resigned());
        }
        self.submit(seat, client_id, Submission::Resign, ActedBy::Player, now)
    }

    /// The seq a client id of `seat` was accepted as, if it was.
    fn known(&self, seat: Seat, client_id: &str) -> Option<u64> {
        self.game
            .as_ref()
            .and_then(|game| game.client_ids.get(&(seat, client_id.to_owned())))
            .copied()
    }

    /// The seat `conn`'s identity plays in the started match.
    fn seat_in_match(&self, conn: ConnId) -> Result<Seat, RoomError> {
        let seat = seat_of(&self.record, self.follower(conn)?.identity.as_ref());
        if self.game.is_none() {
            return Err(RoomError::conflict(
                codes::MATCH_NOT_STARTED,
                "the match has not started",
            ));
        }
        seat.ok_or_else(|| {
            RoomError::forbidden(codes::NOT_SEATED, "you hold no seat in this match")
        })
    }

    /// Applies what a seat submits (by its player, a bot or the clock) and asks for its append;
    /// the answer comes with its commit.
    fn submit(
        &mut self,
        seat: Seat,
        client_id: String,
        submission: Submission<'_>,
        by: ActedBy,
        now: Instant,
    ) -> Result<Submitted, RoomError> {
        if self.in_flight.is_some() {
            // The core takes no command while writing, so this is a bug of the loop.
            return Err(RoomError::busy());
        }
        let now_ms = self.wall_ms(now);
        let Some(game) = self.game.as_mut() else {
            return Err(RoomError::conflict(
                codes::MATCH_NOT_STARTED,
                "the match has not started",
            ));
        };
        if game.is_over() {
            return Err(RoomError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        let resign = matches!(submission, Submission::Resign);
        let accepted = match submission {
            Submission::Rules(action) => game.runner.apply(seat, action, by)?,
            Submission::Resign => game.runner.resign(seat)?,
        };
        let clock_before = game.clock.clone();
        let clock = game.clock.as_mut().map(|clock| {
            clock.observe(game.runner.to_act(), now);
            serde_json::to_string(&clock.stored(now, now_ms)).unwrap_or_default()
        });
        let append = Append {
            match_id: game.match_id,
            room_id: self.record.id,
            seq: accepted.seq,
            seat,
            by,
            client_id: client_id.clone(),
            action: accepted.action,
            events: accepted.events,
            clock,
            finish: game.runner.outcome(),
            rated: if self.record.settings.rated {
                game.runner.places()
            } else {
                None
            },
        };
        let seq = accepted.seq;
        self.write(
            Write::Append(append),
            InFlight::Append {
                seq,
                seat,
                client_id,
                resign,
                clock_before,
                ask: None,
                answer_by: now + self.answer_timeout,
            },
        );
        Ok(Submitted::Pending(seq))
    }

    /// The append of `seq` is durable: everyone hears of the action (each with their own view)
    /// and the answer is its seq.
    fn committed(
        &mut self,
        seq: u64,
        seat: Seat,
        client_id: String,
        resign: bool,
        now: Instant,
    ) -> Result<u64, RoomError> {
        let Some(game) = self.game.as_mut() else {
            return Err(RoomError::internal("commit without a match"));
        };
        game.client_ids.insert((seat, client_id), seq);
        if game.is_over() {
            self.record.state = RoomState::Finished;
        }
        self.announce_last_action();
        if resign && !self.match_over() {
            // A bot plays the seat now: everyone sees it on the room.
            self.publish();
        }
        if resign {
            // A resigned seat's countdown is no one's any more.
            self.observe_absences(now);
        }
        self.take_over_timed_out();
        self.continue_timeout(now);
        Ok(seq)
    }

    /// The append failed: not stored, so not applied (the client may send it again).
    fn not_committed(&mut self, clock_before: Option<Clock>) {
        if let Some(game) = self.game.as_mut() {
            game.runner.undo();
            game.clock = clock_before;
        }
        self.catch_ups.forget();
        // Whatever a bot was asked for this seq is asked again.
        self.bot_asked = None;
    }

    fn match_over(&self) -> bool {
        self.game.as_ref().is_some_and(Game::is_over)
    }

    /// True while the match runs (started, not over).
    fn match_running(&self) -> bool {
        self.game.as_ref().is_some_and(|game| !game.is_over())
    }

    /// Sends the last accepted action to every follower, each with its own view (and the end).
    fn announce_last_action(&mut self) {
        let clock = self.clock_state();
        if let Some(game) = &self.game {
            let record = &self.record;
            let classes = self.followers.classes(|f| {
                seat_of(record, f.identity.as_ref()).map_or(Viewer::Spectator, Viewer::Seat)
            });
            let outputs =
                self.last_views
                    .announce(record.id, game, classes, &mut self.followers, clock);
            self.out.extend(outputs);
        }
        let room = self.record.id;
        if let Some(finished) = self
            .game
            .as_ref()
            .and_then(|game| views::finished(room, game))
        {
            // The lobby's copy says `finished` before anyone hears of the end.
            self.publish();
            let everyone = self.everyone();
            self.send(everyone, finished);
        }
    }

    /// Sends every follower the message `build` makes for its viewer (once per viewer class).
    fn broadcast(
        &mut self,
        build: impl Fn(RoomId, &Game, Viewer, Option<ClockState>) -> ServerMsg,
    ) {
        let clock = self.clock_state();
        let Some(game) = &self.game else { return };
        let record = &self.record;
        let classes = self.followers.classes(|f| {
            seat_of(record, f.identity.as_ref()).map_or(Viewer::Spectator, Viewer::Seat)
        });
        for (viewer, conns) in classes {
            let message = build(record.id, game, viewer, clock.clone());
            self.out.push_back(Output::Send {
                to: conns,
                message,
                paced: viewer == Viewer::Spectator,
            });
        }
    }

    // ----- the clock -----

    /// Takes the timeout action for `seat`, whose clock ran out (stored with `by: clock`).
    fn time_out(&mut self, seat: Seat, now: Instant) {
        let Some(game) = &self.game else { return };
        if game.runner.to_act() != Some(seat) {
            return;
        }
        let Some(action) = game.runner.timeout_action() else {
            return;
        };
        let client_id = format!("{SERVER_ID_PREFIX}clock:{}", game.runner.seq() + 1);
        if let Err(error) = self.submit(
            seat,
            client_id,
            Submission::Rules(&action),
            ActedBy::Clock,
            now,
        ) {
            tracing::error!(
                "room {}: the timeout action {action} of seat {seat} is refused: {error}",
                self.id()
            );
        }
    }

    /// After a commit: while the clock has run out on the seat still to act, its turn goes on
    /// being played by timeout actions until it ends.
    fn continue_timeout(&mut self, now: Instant) {
        let Some(game) = &self.game else { return };
        let timing_out = game.clock.as_ref().and_then(Clock::timing_out);
        if timing_out.is_some()
            && timing_out == game.runner.to_act()
            && let Some(seat) = timing_out
        {
            self.time_out(seat, now);
        }
    }

    // ----- who plays each seat: bots, resignations, absences -----

    /// The bot level playing `seat` now, if a bot plays it.
    fn bot_for(&self, seat: Seat) -> Option<BotLevel> {
        let holder = self.record.seats.get(seat.index())?.as_ref()?;
        if let Some(level) = bot_level(holder.id) {
            return Some(level);
        }
        self.takeover(seat).map(|_| STAND_IN_LEVEL)
    }

    /// Why a bot plays this person's seat now, if it does.
    fn takeover(&self, seat: Seat) -> Option<Takeover> {
        let game = self.game.as_ref()?;
        if game.runner.has_resigned(seat) {
            return Some(Takeover::Resigned);
        }
        self.absences.taken(seat)
    }

    /// Every seat's takeover, in seat order (for the room as followers see it).
    fn takeovers(&self) -> Vec<Option<Takeover>> {
        (0..self.record.seats.len())
            .map(|seat| self.takeover(Seat::from_index(seat)))
            .collect()
    }

    /// Asks the loop for a bot's decision when a bot is to act and nothing is in flight.
    fn schedule_bot(&mut self) {
        if self.in_flight.is_some() || self.moved {
            return;
        }
        let Some(game) = &self.game else { return };
        let Some(seat) = game.runner.to_act() else {
            return;
        };
        let seq = game.runner.seq();
        if self.bot_asked == Some(seq) {
            return;
        }
        let Some(level) = self.bot_for(seat) else {
            return;
        };
        let job = game.runner.bot_job(level);
        self.bot_asked = Some(seq);
        self.out.push_back(Output::Bot(BotTurn {
            seq,
            seat,
            delay: Duration::from_millis(u64::from(self.record.settings.bot_delay_ms)),
            job,
        }));
    }

    /// A bot's decision for `seat` as of `seq`: played like a person's action if the match is
    /// still where it was and a bot still plays the seat (a player who came back, or an action
    /// that came first, makes it stale).
    fn bot_chose(&mut self, seq: u64, seat: Seat, action: Option<Value>, now: Instant) {
        let current = self
            .game
            .as_ref()
            .is_some_and(|game| game.runner.seq() == seq && game.runner.to_act() == Some(seat));
        if !current || self.bot_for(seat).is_none() || self.in_flight.is_some() {
            if self.bot_asked == Some(seq) {
                self.bot_asked = None;
            }
            self.schedule_bot();
            return;
        }
        let Some(action) = action else {
            tracing::error!(
                "room {}: the bot found no action for seat {seat}",
                self.id()
            );
            return;
        };
        let client_id = format!("{SERVER_ID_PREFIX}bot:{}", seq + 1);
        if let Err(error) = self.submit(
            seat,
            client_id,
            Submission::Rules(&action),
            ActedBy::Bot,
            now,
        ) {
            // A bot only plays listed actions, so this is a bug: say so and let the clock act.
            tracing::error!(
                "room {}: the bot's action {action} for seat {seat} is refused: {error}",
                self.id()
            );
        }
    }

    /// Counts down for every seated person of the running match with no connection following
    /// the room, and stops counting for those who have one (on every join and leave).
    fn observe_absences(&mut self, now: Instant) {
        let running = self.match_running();
        for (index, holder) in self.record.seats.iter().enumerate() {
            let Ok(seat) = u8::try_from(index).map(Seat) else {
                continue;
            };
            let counted = running
                && holder
                    .as_ref()
                    .is_some_and(|holder| bot_level(holder.id).is_none())
                && !self
                    .game
                    .as_ref()
                    .is_some_and(|game| game.runner.has_resigned(seat));
            let connected = !counted
                || holder
                    .as_ref()
                    .is_some_and(|holder| self.followers.is_connected(holder.id));
            self.absences.observe(seat, connected, now);
        }
    }

    /// Takes over the seats whose player has been away for the grace period at `now`: everyone
    /// sees the takeover, and the bot plays them.
    fn take_over_absent(&mut self, now: Instant) {
        if !self.match_running() {
            return;
        }
        self.observe_absences(now);
        let due = self.absences.due(now);
        if due.is_empty() {
            return;
        }
        for seat in due {
            tracing::info!(
                "room {}: seat {seat} is played by a bot, its player is away",
                self.id()
            );
        }
        self.publish();
        self.schedule_bot();
    }

    /// After a commit: a seat whose clock ran out on two turns in a row is taken over
    /// (`timed_out`); everyone sees it.
    fn take_over_timed_out(&mut self) {
        if !self.match_running() {
            return;
        }
        let Some(clock) = self.game.as_ref().and_then(|game| game.clock.as_ref()) else {
            return;
        };
        let streaks: Vec<Seat> = (0..self.record.seats.len())
            .filter_map(|index| u8::try_from(index).ok().map(Seat))
            .filter(|&seat| clock.timeouts_in_a_row(seat) >= TIMEOUTS_BEFORE_TAKEOVER)
            .collect();
        let mut taken = false;
        for seat in streaks {
            if self.takeover(seat).is_none()
                && self.bot_for(seat).is_none()
                && self.absences.take(seat, Takeover::TimedOut)
            {
                tracing::info!(
                    "room {}: seat {seat} is played by a bot, its clock ran out twice in a row",
                    self.id()
                );
                taken = true;
            }
        }
        if taken {
            self.publish();
        }
    }

    /// The seat's player is back: they play it again (their timeout streak forgotten), and
    /// everyone sees it. A bot decision asked for it is dropped when it comes back.
    fn give_back(&mut self, seat: Seat) {
        if !self.absences.give_back(seat) {
            return;
        }
        if let Some(clock) = self.game.as_mut().and_then(|game| game.clock.as_mut()) {
            clock.forgive(seat);
        }
        self.publish();
    }

    /// `back`: the player of a seat a bot plays because they were away takes it back.
    fn back(&mut self, conn: ConnId, _now: Instant) -> Result<(), RoomError> {
        let seat = self.seat_in_match(conn)?;
        if !self.match_running() {
            return Err(RoomError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        match self.takeover(seat) {
            Some(Takeover::Resigned) => Err(already_resigned()),
            Some(Takeover::Disconnected | Takeover::TimedOut) => {
                self.give_back(seat);
                Ok(())
            }
            None => Err(RoomError::conflict(
                codes::NOT_TAKEN_OVER,
                "you are playing this seat: no bot plays it for you",
            )),
        }
    }

    // ----- chat and rematch -----

    /// After a join: the chat so far that this connection may read, and the rematch if any.
    fn send_history(&mut self, conn: ConnId, identity: Option<&Identity>) {
        let reader = Reader {
            seated: seat_of(&self.record, identity).is_some(),
            mutes: identity.and(self.chat.mutes_of(conn)),
        };
        let lines = self.chat.history(&reader, self.match_over());
        let room = self.record.id;
        if !lines.is_empty() {
            self.send(vec![conn], ServerMsg::ChatHistory { room, lines });
        }
        if !self.rematch.is_empty() {
            let rematch = self.rematch.state();
            self.send(vec![conn], ServerMsg::Rematch { room, rematch });
        }
    }

    /// A line of chat from a follower, checked and numbered, to store before anyone reads it.
    fn chat_line(&mut self, conn: ConnId, text: &str, now: Instant) -> Result<ChatLine, RoomError> {
        let speaker = self
            .follower(conn)?
            .identity
            .clone()
            .ok_or_else(RoomError::unauthorized)?;
        let seated = seat_of(&self.record, Some(&speaker)).is_some();
        let seq = self.game.as_ref().map_or(0, |game| game.runner.seq());
        let at_ms = self.wall_ms(now);
        self.chat.line(&speaker, seated, text, seq, at_ms, now)
    }

    /// A line is stored: everyone who may read it gets it (muted speakers excepted).
    fn chat_stored(&mut self, line: ChatLine) {
        self.chat.stored(line.clone());
        let over = self.match_over();
        let record = &self.record;
        let chat = &self.chat;
        let readers: Vec<ConnId> = self
            .followers
            .iter()
            .filter(|(conn, follower)| {
                let reader = Reader {
                    seated: seat_of(record, follower.identity.as_ref()).is_some(),
                    mutes: follower.identity.as_ref().and(chat.mutes_of(*conn)),
                };
                may_read(&line, &reader, over)
            })
            .map(|(conn, _)| conn)
            .collect();
        let room = self.record.id;
        self.send(readers, ServerMsg::Chat { room, line });
    }

    /// A seated player's answer to the rematch; everyone hears the rematch as it stands.
    fn answer_rematch(&mut self, conn: ConnId, accept: bool) -> Result<(), RoomError> {
        let identity = self.follower(conn)?.identity.clone();
        let seat = seat_of(&self.record, identity.as_ref())
            .ok_or_else(|| RoomError::forbidden(codes::NOT_SEATED, "you hold no seat here"))?;
        let over = self.match_over();
        self.rematch.answer(seat, accept, over)?;
        self.send_rematch();
        Ok(())
    }

    /// Opens the rematch room once the players agree: stored with its seats and linked from
    /// this room, then announced.
    fn open_rematch_if_agreed(&mut self, now: Instant) {
        if !self.match_over() || self.in_flight.is_some() {
            return;
        }
        let holder = |seat: Seat| self.record.seats.get(seat.index()).and_then(Option::as_ref);
        let present =
            |seat: Seat| holder(seat).is_some_and(|held| self.followers.is_connected(held.id));
        let is_bot = |seat: Seat| holder(seat).is_some_and(|held| bot_level(held.id).is_some());
        let Some(order) = self
            .rematch
            .agreed(self.record.seats.len(), present, is_bot)
        else {
            return;
        };
        let id = RoomId(self.random_uuid());
        let mut code = [0u8; 8];
        self.entropy.fill_bytes(&mut code);
        let invite_code: String = code.iter().map(|byte| format!("{byte:02x}")).collect();
        let made = rematch_room(
            &self.record,
            self.rules,
            &order,
            id,
            invite_code,
            self.wall_ms(now),
        );
        match made {
            Ok(record) => {
                let write = Write::Rematch {
                    from: self.record.id,
                    record,
                };
                self.write(write, InFlight::Rematch { room: id });
            }
            Err(error) => {
                tracing::error!("room {} cannot make its rematch: {error}", self.id());
            }
        }
    }

    fn send_rematch(&mut self) {
        let everyone = self.everyone();
        let room = self.record.id;
        let rematch = self.rematch.state();
        self.send(everyone, ServerMsg::Rematch { room, rematch });
    }
}

#[cfg(test)]
#[path = "core_tests/mod.rs"]
mod tests;

fn already_resigned() -> RoomError {
    RoomError::conflict(
        codes::ALREADY_RESIGNED,
        "you resigned: a bot plays this seat to the end",
    )
}
