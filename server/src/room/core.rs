//! The room core, sans-IO (the shape of quinn-proto and str0m): it holds the room's seats,
//! followers and match, and turns each input (a command, "the commit of seq N succeeded or
//! failed", "time is now T") into [`Output`]s: messages per viewer class, an append to store,
//! the lobby's copy of the room. It never awaits and never does IO; the room loop
//! (`task.rs`) owns the channels, the timer, the store and the writer, and feeds it.
//!
//! One accepted action is in flight at a time: the core applies it to the match, queues its
//! append and tells no one until the loop reports the commit (durable before acknowledged); a
//! failed commit undoes it.

use std::collections::VecDeque;

use serde_json::Value;
use tokio::time::Instant;
use warroom_engine::{Seat, Seed, Viewer};
use warroom_protocol::{
    ActedBy, ClockState, Identity, MatchId, MatchState, Room, RoomId, RoomState, ServerMsg, codes,
};

use super::absence::Absences;
use super::catch_up::CatchUps;
use super::clock::Clock;
use super::followers::{Follower, Followers};
use super::game::Game;
use super::output::Output;
use super::patches::LastViews;
use super::presence::{Presence, Rejoin};
use super::seats::{self, SeatChange, seat_of};
use super::social::Social;
use super::summary::{SeatsNow, room_for, sees_invite};
use super::{ConnId, messages};
use crate::error::ApiError;
use crate::runner::Rules;
use crate::store::writer::Append;
use crate::store::{MatchRecord, RoomRecord};

/// Longest client action id, in bytes.
pub const MAX_CLIENT_ID_BYTES: usize = 64;

/// The state of one room, driven by its loop.
pub struct RoomCore {
    /// The room as stored, kept current.
    pub(super) record: RoomRecord,
    /// Its ruleset.
    pub(super) rules: &'static dyn Rules,
    /// The match, once started.
    pub(super) game: Option<Game>,
    /// Connections following the room.
    pub(super) followers: Followers,
    /// Most spectators (followers holding no seat) the room accepts (`presence.rs`).
    pub(super) max_spectators: usize,
    /// What the followers have heard of who follows the room (`presence.rs`).
    pub(super) presence: Presence,
    /// The catch-ups' view budget and snapshots (`catch_up.rs`).
    catch_ups: CatchUps,
    /// The views last sent per viewer class, patches are made from (`patches.rs`).
    pub(super) last_views: LastViews,
    /// The accepted action waiting for its commit.
    pending: Option<Pending>,
    /// A match set up and waiting for its record to be stored.
    starting: Option<Game>,
    /// What the loop has yet to do, in order.
    pub(super) out: VecDeque<Output>,
    /// Chat, mutes, rematch and expiry (`social.rs`).
    pub(super) social: Social,
    /// The seq a bot's decision was last asked for (`control.rs`), so it is asked once.
    pub(super) bot_asked: Option<u64>,
    /// Players away from the match, and the seats a bot plays for them (`absence.rs`).
    pub(super) absences: Absences,
    /// The time the core was last told (clock states in messages are as of then).
    last_now: Option<Instant>,
    /// An instant and the Unix milliseconds it was, to show deadlines as server time.
    wall: Option<(Instant, i64)>,
}

/// What a seat submits: a ruleset action or its resignation.
#[derive(Clone, Copy, Debug)]
pub enum Submission<'a> {
    /// A ruleset action's JSON.
    Rules(&'a Value),
    /// The seat resigns (G-RESIGN-1).
    Resign,
}

/// The prefix of the action ids the server gives its own actions (bot, clock, resign); a
/// client's id may not start with it.
pub const SERVER_ID_PREFIX: &str = "server:";

/// An accepted action whose commit has not been reported yet.
#[derive(Clone, Debug)]
struct Pending {
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
}

/// What became of a submitted action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submitted {
    /// Its id was accepted before, as this seq: nothing new happens.
    Known(u64),
    /// Accepted as this seq and queued for storage: the answer comes with `committed`.
    Pending(u64),
}

impl RoomCore {
    /// A room over its stored record and, once started, its rebuilt match.
    pub fn new(
        record: RoomRecord,
        rules: &'static dyn Rules,
        game: Option<Game>,
        max_spectators: usize,
    ) -> RoomCore {
        let grace = std::time::Duration::from_secs(u64::from(record.settings.grace_seconds));
        let absences = Absences::new(grace, record.seats.len());
        RoomCore {
            absences,
            record,
            rules,
            game,
            followers: Followers::default(),
            max_spectators,
            presence: Presence::default(),
            catch_ups: CatchUps::default(),
            last_views: LastViews::default(),
            pending: None,
            starting: None,
            out: VecDeque::new(),
            social: Social::default(),
            bot_asked: None,
            last_now: None,
            wall: None,
        }
    }

    /// Sizes catch-ups for connections whose outgoing queue holds `outgoing_queue` messages.
    pub fn with_outgoing_queue(mut self, outgoing_queue: usize) -> RoomCore {
        self.catch_ups = CatchUps::new(outgoing_queue);
        self
    }

    /// Tells the core which Unix milliseconds the instant `at` was (deadlines are shown as
    /// server time).
    pub fn with_wall_clock(mut self, at: Instant, unix_ms: i64) -> RoomCore {
        self.wall = Some((at, unix_ms));
        self
    }

    /// The loop starts (a new room, or one rebuilt after a restart): whatever a bot or the
    /// clock must do now is asked for.
    pub fn resume(&mut self, now: Instant) {
        self.at(now);
        self.observe_absences(now);
        self.schedule_bot();
    }

    /// Remembers the time an input came with.
    pub(super) fn at(&mut self, now: Instant) {
        self.last_now = Some(now);
    }

    /// The Unix milliseconds of instant `at`.
    fn wall_ms(&self, at: Instant) -> i64 {
        let Some((base, base_ms)) = self.wall else {
            return 0;
        };
        let offset = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        if at >= base {
            base_ms.saturating_add(offset(at - base))
        } else {
            base_ms.saturating_sub(offset(base - at))
        }
    }

    /// The match's clock as of the last input.
    pub(super) fn clock_state(&self) -> Option<ClockState> {
        let clock = self.game.as_ref()?.clock.as_ref()?;
        let now = self.last_now?;
        Some(clock.state(now, |at| self.wall_ms(at)))
    }

    /// What the match says of the seats now (takeovers, clock), for the room's summary.
    pub(super) fn seats_now(&self) -> SeatsNow {
        SeatsNow {
            takeovers: self.takeovers(),
            clock: self.clock_state(),
        }
    }

    /// True while an accepted action waits for its commit.
    pub(super) fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// True while a match set up waits for its record to be stored.
    pub(super) fn is_starting(&self) -> bool {
        self.starting.is_some()
    }

    /// The room's id.
    pub fn id(&self) -> RoomId {
        self.record.id
    }

    /// The room as the lobby shows it (no invite code).
    pub fn summary(&self) -> Room {
        room_for(&self.record, &self.followers, &self.seats_now(), None)
    }

    /// The next thing for the loop to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// When the loop must call [`RoomCore::tick`] next, if ever.
    pub fn next_wake(&self) -> Option<Instant> {
        let clock = self
            .game
            .as_ref()
            .filter(|_| !self.is_pending())
            .and_then(|game| game.clock.as_ref())
            .and_then(Clock::deadline);
        let presence = self.presence_deadline().filter(|_| !self.is_pending());
        [
            self.expiry_deadline(),
            clock,
            presence,
            self.absence_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Time has come to `now`: act on whatever fell due (a seat whose player has been away for
    /// the grace period is taken over; a seat whose clock ran out gets the ruleset's timeout
    /// action).
    pub fn tick(&mut self, now: Instant) {
        self.at(now);
        self.take_over_absent(now);
        if self.is_pending() {
            return;
        }
        self.flush_presence(now);
        let expired = self
            .game
            .as_mut()
            .and_then(|game| game.clock.as_mut())
            .and_then(|clock| clock.expired(now));
        if let Some(seat) = expired {
            self.time_out(seat, now);
        }
    }

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

    /// A connection follows the room; it is sent the room, then what it missed of the match.
    /// The others hear of a new follower coalesced (`presence.rs`); a repeated join is
    /// answered only to its sender.
    pub fn join(
        &mut self,
        conn: ConnId,
        identity: Option<Identity>,
        invite: Option<&str>,
        last_seq: Option<u64>,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.at(now);
        self.refuse_if_expired()?;
        let insider = identity.as_ref().is_some_and(|identity| {
            identity.id == self.record.creator || seat_of(&self.record, Some(identity)).is_some()
        });
        if self.record.private && !insider && invite != Some(self.record.invite_code.as_str()) {
            return Err(ApiError::forbidden(
                codes::INVALID_INVITE,
                "this room is private: its invite code is needed",
            ));
        }
        let rejoin = self.rejoin(conn, identity.as_ref());
        self.check_spectator_cap(rejoin, identity.as_ref())?;
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
        self.saw_room(conn);
        let clock = self.clock_state();
        if let Some(game) = &self.game {
            let sent_view = last_seq != Some(game.runner.seq());
            let messages =
                self.catch_ups
                    .catch_up(self.record.id, game, viewer, last_seq, clock, now);
            for message in messages {
                self.out.push_back(Output::Send {
                    to: vec![conn],
                    message,
                    paced: false,
                });
            }
            if sent_view {
                // It holds the view of the current seq now (the last message of its catch-up).
                self.caught_up(conn, viewer);
            }
        }
        self.observe_absences(now);
        self.flush_presence(now);
        self.social_joined(conn, identity.as_ref(), now);
        Ok(())
    }

    /// A connection stops following the room (it left, closed, or was too slow).
    pub fn leave(&mut self, conn: ConnId, now: Instant) {
        self.at(now);
        if self.followers.remove(conn).is_some() {
            self.observe_absences(now);
            self.presence_changed(now);
            self.flush_presence(now);
        }
        self.social_left(conn, now);
    }

    /// Checks a request to take a seat; the loop stores the change, then calls
    /// [`RoomCore::seat_stored`].
    pub fn check_take_seat(
        &self,
        conn: ConnId,
        wanted: Option<Seat>,
    ) -> Result<SeatChange, ApiError> {
        let identity = self
            .follower(conn)?
            .identity
            .clone()
            .ok_or_else(ApiError::unauthorized)?;
        seats::check_take(&self.record, identity, wanted)
    }

    /// Checks a request to give a seat back; stored, then [`RoomCore::seat_stored`].
    pub fn check_leave_seat(&self, conn: ConnId) -> Result<SeatChange, ApiError> {
        let identity = self.follower(conn)?.identity.clone();
        seats::check_leave(&self.record, identity.as_ref())
    }

    /// A seat change is stored: apply it and tell everyone (unless the match starts now, which
    /// tells everyone itself).
    pub fn seat_stored(&mut self, change: SeatChange) {
        seats::apply(&mut self.record, change);
        if !self.ready_to_start() {
            self.publish();
        }
    }

    /// True when every seat is taken and the match has not started.
    pub fn ready_to_start(&self) -> bool {
        self.record.state == RoomState::Waiting
            && self.game.is_none()
            && self.record.seats.iter().all(Option::is_some)
    }

    /// Sets up the match with `seed` (from the OS RNG); the loop stores the returned record,
    /// then calls [`RoomCore::started`] (or [`RoomCore::start_failed`]).
    pub fn prepare_start(
        &mut self,
        seed: Seed,
        match_id: MatchId,
        started_at: i64,
    ) -> Result<MatchRecord, ApiError> {
        let seats: Vec<Identity> = self.record.seats.iter().flatten().cloned().collect();
        let seat_count = u8::try_from(seats.len()).map_err(ApiError::internal)?;
        let runner = self.rules.start(&self.record.options, seat_count, seed)?;
        self.starting = Some(Game::new(match_id, seed, runner));
        Ok(MatchRecord {
            id: match_id,
            room_id: self.record.id,
            ruleset: self.record.ruleset,
            options: self.record.options.clone(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            state: MatchState::Playing,
            outcome: None,
            action_count: 0,
            started_at,
            finished_at: None,
            seats,
        })
    }

    /// The match record is stored: the match runs. Everyone gets the room, then their snapshot.
    pub fn started(&mut self, now: Instant) {
        self.at(now);
        let Some(mut game) = self.starting.take() else {
            return;
        };
        game.clock = self.record.settings.clock.map(|settings| {
            let mut clock = Clock::new(settings, self.record.seats.len());
            clock.observe(game.runner.to_act(), now);
            clock
        });
        self.record.match_id = Some(game.match_id);
        self.record.state = RoomState::Playing;
        self.observe_presence(now);
        self.game = Some(game);
        self.observe_absences(now);
        self.publish();
        self.broadcast(messages::snapshot);
        let conns: Vec<ConnId> = self.followers.iter().map(|(conn, _)| conn).collect();
        for conn in conns {
            let viewer = self.class_of(conn);
            self.caught_up(conn, viewer);
        }
        self.schedule_bot();
    }

    /// The match could not be set up or stored: the room stays as it was.
    pub fn start_failed(&mut self, error: &ApiError) {
        tracing::error!("room {} cannot start its match: {error}", self.record.id);
        self.starting = None;
        self.publish();
    }

    /// A seated player's action. Accepted ones are queued for storage (answered by
    /// [`RoomCore::committed`]); a resent id is answered with its seq.
    pub fn action(
        &mut self,
        conn: ConnId,
        client_id: String,
        action: &Value,
        now: Instant,
    ) -> Result<Submitted, ApiError> {
        if client_id.is_empty() || client_id.len() > MAX_CLIENT_ID_BYTES {
            return Err(ApiError::bad_request(
                codes::INVALID_ACTION_ID,
                format!("an action id has 1 to {MAX_CLIENT_ID_BYTES} bytes"),
            ));
        }
        if client_id.starts_with(SERVER_ID_PREFIX) {
            return Err(ApiError::bad_request(
                codes::RESERVED_ACTION_ID,
                format!("action ids starting with {SERVER_ID_PREFIX:?} are the server's"),
            ));
        }
        let seat = self.seat_in_match(conn)?;
        if let Some(&seq) = self
            .game
            .as_ref()
            .and_then(|game| game.client_ids.get(&(seat, client_id.clone())))
        {
            return Ok(Submitted::Known(seq));
        }
        if self.match_over_now() {
            return Err(ApiError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        if self.takeover(seat) == Some(warroom_protocol::Takeover::Resigned) {
            return Err(ApiError::conflict(
                codes::ALREADY_RESIGNED,
                "you resigned: a bot plays this seat to the end",
            ));
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

    /// A seated player resigns, whoever is to act (G-RESIGN-1): stored like an action.
    pub fn resign(&mut self, conn: ConnId, now: Instant) -> Result<Submitted, ApiError> {
        let seat = self.seat_in_match(conn)?;
        let client_id = format!("{SERVER_ID_PREFIX}resign");
        if let Some(&seq) = self
            .game
            .as_ref()
            .and_then(|game| game.client_ids.get(&(seat, client_id.clone())))
        {
            return Ok(Submitted::Known(seq));
        }
        self.submit(seat, client_id, Submission::Resign, ActedBy::Player, now)
    }

    /// The seat `conn`'s identity plays in the started match.
    pub(super) fn seat_in_match(&self, conn: ConnId) -> Result<Seat, ApiError> {
        let identity = self.follower(conn)?.identity.clone();
        let seat = seat_of(&self.record, identity.as_ref());
        if self.game.is_none() {
            return Err(ApiError::conflict(
                codes::MATCH_NOT_STARTED,
                "the match has not started",
            ));
        }
        seat.ok_or_else(|| ApiError::forbidden(codes::NOT_SEATED, "you hold no seat in this match"))
    }

    /// Applies what a seat submits (by its player, a bot or the clock) and queues its append;
    /// the answer comes with [`RoomCore::committed`].
    pub(super) fn submit(
        &mut self,
        seat: Seat,
        client_id: String,
        submission: Submission<'_>,
        by: ActedBy,
        now: Instant,
    ) -> Result<Submitted, ApiError> {
        self.at(now);
        let Some(game) = self.game.as_mut() else {
            return Err(ApiError::conflict(
                codes::MATCH_NOT_STARTED,
                "the match has not started",
            ));
        };
        if game.is_over() {
            return Err(ApiError::conflict(codes::MATCH_OVER, "the match is over"));
        }
        if self.pending.is_some() {
            // The loop waits for each commit before the next input, so this is a loop bug.
            return Err(ApiError::busy());
        }
        let resign = matches!(submission, Submission::Resign);
        let accepted = match submission {
            Submission::Rules(action) => game.runner.apply(seat, action, by)?,
            Submission::Resign => game.runner.resign(seat)?,
        };
        let clock_before = game.clock.clone();
        let clock = game.clock.as_mut().map(|clock| {
            clock.observe(game.runner.to_act(), now);
            serde_json::to_string(&clock.stored(now)).unwrap_or_default()
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
            // The loop sets the room's lease in cluster mode.
            fence: None,
        };
        self.pending = Some(Pending {
            seq: accepted.seq,
            seat,
            client_id,
            resign,
            clock_before,
        });
        self.out.push_back(Output::Append(append));
        Ok(Submitted::Pending(accepted.seq))
    }

    /// The loop reports the commit of `seq`: on success everyone hears of the action (each with
    /// their own view) and the answer is its seq; on failure the action is undone.
    pub fn committed(
        &mut self,
        seq: u64,
        stored: Result<(), String>,
        now: Instant,
    ) -> Result<u64, ApiError> {
        self.at(now);
        let pending = match self.pending.take() {
            Some(pending) if pending.seq == seq => pending,
            other => {
                self.pending = other;
                return Err(ApiError::internal(format!("commit of unknown seq {seq}")));
            }
        };
        let Some(game) = self.game.as_mut() else {
            return Err(ApiError::internal("commit without a match"));
        };
        if let Err(error) = stored {
            // Not stored, so not applied: the client may send it again (`unavailable`).
            game.runner.undo();
            game.clock = pending.clock_before;
            self.catch_ups.forget();
            // Whatever a bot was asked for this seq is asked again.
            self.bot_asked = None;
            self.schedule_bot();
            return Err(ApiError::unavailable(error));
        }
        game.client_ids
            .insert((pending.seat, pending.client_id), pending.seq);
        if game.is_over() {
            self.record.state = RoomState::Finished;
        }
        self.announce_last_action();
        if pending.resign && !self.match_over_now() {
            // A bot plays the seat now: everyone sees it on the room.
            self.publish();
        }
        if pending.resign {
            // A resigned seat's countdown is no one's any more.
            self.observe_absences(now);
        }
        self.take_over_timed_out();
        self.continue_timeout(now);
        self.schedule_bot();
        Ok(seq)
    }

    fn match_over_now(&self) -> bool {
        self.game.as_ref().is_some_and(Game::is_over)
    }

    /// Sends the last accepted action to every follower, each with its own view (and the end).
    fn announce_last_action(&mut self) {
        self.announce_applied();
        let room = self.record.id;
        if let Some(finished) = self
            .game
            .as_ref()
            .and_then(|game| messages::finished(room, game))
        {
            // The lobby's copy says `finished` before anyone hears of the end.
            self.publish();
            let everyone = self.followers.iter().map(|(conn, _)| conn).collect();
            self.send(everyone, finished);
        }
    }

    /// The viewer class of follower `conn`: its seat, or spectator.
    pub(super) fn class_of(&self, conn: ConnId) -> Viewer {
        self.followers
            .get(conn)
            .map_or(Viewer::Spectator, |f| self.viewer_of(f.identity.as_ref()))
    }

    pub(super) fn viewer_of(&self, identity: Option<&Identity>) -> Viewer {
        seat_of(&self.record, identity).map_or(Viewer::Spectator, Viewer::Seat)
    }

    fn follower(&self, conn: ConnId) -> Result<&Follower, ApiError> {
        self.followers
            .get(conn)
            .ok_or_else(|| ApiError::bad_request(codes::NOT_JOINED, "join the room first"))
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

    /// Sends every follower the room as it may see it, and updates the lobby's copy.
    pub(super) fn publish(&mut self) {
        let _ = self.send_room(|_| true);
        self.presence_published();
        self.out.push_back(Output::Summary(self.summary()));
    }

    /// Sends the followers `to` picks the room as each may see it; false when it picked none.
    pub(super) fn send_room(&mut self, to: impl Fn(&Follower) -> bool) -> bool {
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
}
