//! Each concern of the core driven through `handle` with a fake clock (instants the test picks):
//! writes asked for and reported, chat, rematch, catch-up, expiry, eviction, takeover and back,
//! the answer deadline of a slow commit, and a lost lease.

use std::time::{Duration, Instant};

use warroom_engine::{RulesetId, Seat};
use warroom_protocol::{ActedBy, ChatChannel, RoomState, ServerMsg, Takeover, codes};

use super::driver::*;
use super::{legal_of, player, sends, started, started_room, to_act};
use crate::core::{InFlight, Limits, RoomCore};
use crate::error::RoomError;
use crate::input::{Answer, Command, Input, WriteFailed};
use crate::output::{Output, Write};
use crate::records::Append;
use crate::runner::rules;

const SECOND: Duration = Duration::from_secs(1);

/// A waiting hexdice room of two free seats, created by player 0.
fn waiting_room(now: Instant) -> RoomCore {
    let record =
        crate::fixtures::waiting_room(RulesetId::Hexdice, vec![None, None], Default::default());
    new_core(record, now)
}

/// The messages `conn` is sent among `outputs`.
fn to_conn(outputs: &[Output], conn: crate::ConnId) -> Vec<&ServerMsg> {
    picked!(outputs, Output::Send { to, message, .. } if to.contains(&conn) => message)
}

#[test]
fn a_seat_is_taken_only_once_stored_and_a_full_room_asks_to_store_its_match() {
    let t0 = Instant::now();
    let mut core = waiting_room(t0);
    join(&mut core, 1, Some(player(0)), None, t0).unwrap();
    join(&mut core, 2, Some(player(1)), None, t0).unwrap();
    drain(&mut core);
    let answer = ask(
        &mut core,
        1,
        Command::TakeSeat {
            seat: Some(Seat(0)),
            may_play_rated: false,
        },
        t0,
    );
    assert!(answer.is_none(), "answered once stored");
    let outputs = drain(&mut core);
    assert!(
        matches!(writes(&outputs).as_slice(), [Write::Seat { change, .. }] if change.seat == Seat(0)),
        "{outputs:?}"
    );
    assert!(
        !core.takes_commands(),
        "no command while a write is in flight"
    );
    assert_eq!(
        core.summary().seats[0].player,
        None,
        "not shown before it is stored"
    );
    let id = in_flight_write(&core).unwrap();
    core.handle(t0, Input::WriteDone { id, result: Ok(()) });
    let outputs = drain(&mut core);
    assert!(outputs.iter().any(|o| matches!(
        o,
        Output::Answer {
            result: Ok(Answer::Seat(Seat(0))),
            ..
        }
    )));
    assert_eq!(core.summary().seats[0].player, Some(player(0)));
    // A refused write answers the asker and changes nothing.
    ask_seat(&mut core, 2, None, t0);
    let refused = WriteFailed::Refused(RoomError::unavailable("down"));
    write_done(&mut core, Err(refused), t0);
    let outputs = drain(&mut core);
    assert!(outputs.iter().any(|o| matches!(
        o,
        Output::Answer { result: Err(error), .. } if error.code == codes::UNAVAILABLE
    )));
    assert_eq!(core.summary().seats[1].player, None);
    // Taken again: the room is full and asks to store its match, seeded by its entropy.
    ask_seat(&mut core, 2, None, t0);
    write_done(&mut core, Ok(()), t0);
    let outputs = drain(&mut core);
    let start = writes(&outputs)
        .into_iter()
        .find_map(|write| match write {
            Write::Start(record) => Some(record.clone()),
            _ => None,
        })
        .expect("the match is stored first");
    assert_eq!(start.seats, vec![player(0), player(1)]);
    assert!(core.game.is_none(), "it runs once stored");
    write_done(&mut core, Ok(()), t0);
    let outputs = drain(&mut core);
    assert!(
        to_conn(&outputs, 1)
            .iter()
            .any(|m| matches!(m, ServerMsg::Snapshot { .. })),
        "everyone gets their snapshot"
    );
    assert_eq!(core.summary().state, RoomState::Playing);
}

#[test]
fn chat_is_stored_before_anyone_reads_it_and_muted_speakers_are_not_delivered() {
    let t0 = Instant::now();
    let mut core = started_room();
    for (conn, who) in [(1, Some(player(0))), (2, Some(player(1))), (3, None)] {
        join(&mut core, conn, who, None, t0).unwrap();
    }
    let muted = vec![player(0).id];
    let answer = ask(&mut core, 2, Command::Mutes { muted }, t0);
    assert_eq!(answer, Some(Ok(Answer::Done)));
    drain(&mut core);
    let text = "good luck".to_owned();
    assert!(ask(&mut core, 1, Command::Chat { text }, t0).is_none());
    let outputs = drain(&mut core);
    let [Write::ChatLine { line, .. }] = writes(&outputs).as_slice() else {
        panic!("the line is stored first: {outputs:?}");
    };
    assert_eq!(
        (line.channel, line.from.id),
        (ChatChannel::Players, player(0).id)
    );
    assert!(
        sends(&outputs).is_empty(),
        "nobody reads it before it is stored"
    );
    write_done(&mut core, Ok(()), t0);
    let outputs = drain(&mut core);
    let readers: Vec<_> = outputs
        .iter()
        .filter_map(|o| match o {
            Output::Send {
                to,
                message: ServerMsg::Chat { .. },
                ..
            } => Some(to.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(readers, vec![vec![1, 3]], "seat 1 muted its speaker");
    // A spectator's line is not read by the seats while the match runs.
    let text = "left!".to_owned();
    let refused = ask(&mut core, 3, Command::Chat { text }, t0);
    assert_eq!(
        refused.unwrap().unwrap_err().code,
        codes::UNAUTHORIZED,
        "an anonymous spectator cannot speak"
    );
    // A line that cannot be stored is refused and its id reused.
    let text = "lost".to_owned();
    ask(&mut core, 1, Command::Chat { text }, t0);
    let first = match writes(&drain(&mut core)).as_slice() {
        [Write::ChatLine { line, .. }] => line.id,
        other => panic!("{other:?}"),
    };
    write_done(
        &mut core,
        Err(WriteFailed::Refused(RoomError::unavailable("down"))),
        t0,
    );
    assert!(sends(&drain(&mut core)).is_empty());
    let text = "again".to_owned();
    ask(&mut core, 1, Command::Chat { text }, t0);
    let again = match writes(&drain(&mut core)).as_slice() {
        [Write::ChatLine { line, .. }] => line.id,
        other => panic!("{other:?}"),
    };
    assert_eq!(again, first);
}

/// Seat 1 resigns a started 2-seat room, stored: the match is over.
fn finished_room(t0: Instant) -> RoomCore {
    let mut core = started_room();
    join(&mut core, 1, Some(player(0)), None, t0).unwrap();
    join(&mut core, 2, Some(player(1)), None, t0).unwrap();
    resign(&mut core, 2, t0).unwrap();
    committed(&mut core, 1, Ok(()), t0).unwrap();
    drain(&mut core);
    assert_eq!(core.summary().state, RoomState::Finished);
    core
}

#[test]
fn a_rematch_both_players_accept_is_stored_rotated_then_announced() {
    let t0 = Instant::now();
    let mut core = finished_room(t0);
    let accept = Command::Rematch { accept: true };
    assert_eq!(
        ask(&mut core, 1, accept.clone(), t0),
        Some(Ok(Answer::Done))
    );
    assert!(
        writes(&drain(&mut core)).is_empty(),
        "the other has not answered"
    );
    assert_eq!(ask(&mut core, 2, accept, t0), Some(Ok(Answer::Done)));
    let outputs = drain(&mut core);
    let [Write::Rematch { record, .. }] = writes(&outputs).as_slice() else {
        panic!("the rematch room is stored: {outputs:?}");
    };
    assert_eq!(
        record.seats,
        vec![Some(player(1)), Some(player(0))],
        "rotated"
    );
    let room = record.id;
    write_done(&mut core, Ok(()), t0);
    let outputs = drain(&mut core);
    for conn in [1, 2] {
        assert!(to_conn(&outputs, conn).iter().any(|m| matches!(
            m,
            ServerMsg::Rematch { rematch, .. } if rematch.room == Some(room)
        )));
    }
}

#[test]
fn a_joiner_a_little_behind_gets_each_action_and_one_far_behind_a_snapshot() {
    let t0 = Instant::now();
    let mut core = started_room();
    for n in 0..3 {
        let seat = to_act(&core).unwrap();
        let conn = crate::ConnId::from(seat.0) + 1;
        join(&mut core, conn, Some(player(seat.0)), None, t0).unwrap();
        let legal = legal_of(&core, seat);
        act(&mut core, conn, format!("a{n}"), &legal[0], t0).unwrap();
        committed(&mut core, n + 1, Ok(()), t0).unwrap();
        drain(&mut core);
    }
    join(&mut core, 50, None, Some(1), t0).unwrap();
    let seqs: Vec<u64> = to_conn(&drain(&mut core), 50)
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Applied { seq, .. } => Some(*seq),
            _ => None,
        })
        .collect();
    assert_eq!(seqs, vec![2, 3]);
    join(&mut core, 51, None, None, t0).unwrap();
    let outputs = drain(&mut core);
    assert!(matches!(
        to_conn(&outputs, 51).as_slice(),
        [ServerMsg::Room { .. }, ServerMsg::Snapshot { seq: 3, .. }]
    ));
}

#[test]
fn an_empty_waiting_room_expires_once_stored_and_takes_no_one_after() {
    let t0 = Instant::now();
    let mut core = waiting_room(t0);
    let expiry = crate::core::DEFAULT_EXPIRY;
    assert_eq!(wake(&mut core), Some(t0 + expiry));
    core.handle(t0 + expiry - SECOND, Input::Timeout);
    assert!(writes(&drain(&mut core)).is_empty(), "not yet");
    core.handle(t0 + expiry, Input::Timeout);
    assert!(matches!(
        writes(&drain(&mut core)).as_slice(),
        [Write::Expiry { .. }]
    ));
    write_done(&mut core, Ok(()), t0 + expiry);
    let outputs = drain(&mut core);
    assert!(
        outputs
            .iter()
            .any(|o| matches!(o, Output::Summary(room) if room.state == RoomState::Expired))
    );
    let refused = join(&mut core, 1, Some(player(0)), None, t0 + expiry);
    assert_eq!(refused.unwrap_err().code, codes::ROOM_EXPIRED);
}

#[test]
fn a_finished_room_leaves_memory_as_soon_as_nobody_follows_it() {
    let t0 = Instant::now();
    let mut core = finished_room(t0);
    core.eviction = crate::eviction::Eviction::new(Some(60 * SECOND));
    let later = t0 + 5 * SECOND;
    for conn in [1, 2] {
        ask(&mut core, conn, Command::Leave, later);
    }
    drain(&mut core);
    // Runs the room's timeouts until it is evicted or nothing is due: when it was evicted.
    let evicted = |core: &mut RoomCore| {
        while let Some(at) = wake(core) {
            core.handle(at, Input::Timeout);
            if drain(core).iter().any(|o| matches!(o, Output::Evict)) {
                return Some(at);
            }
        }
        None
    };
    assert_eq!(evicted(&mut core), None, "a spectator still follows");
    ask(&mut core, 3, Command::Leave, later);
    drain(&mut core);
    // Its presence changes are flushed first (coalesced, within a second); then it goes, long
    // before the 60 s a running room waits.
    let at = evicted(&mut core).expect("idle and finished: evicted");
    assert!(at <= later + SECOND, "{:?}", at - later);
    // Someone coming back makes it busy again.
    join(&mut core, 3, None, None, at).unwrap();
    drain(&mut core);
    assert_eq!(wake(&mut core), None);
}

#[test]
fn an_action_whose_commit_is_slow_is_answered_unavailable_and_still_announced_once_stored() {
    let t0 = Instant::now();
    let mut core = started_room();
    let (conn, action) = super::next_move(&mut core);
    let ask_id = 9_000;
    let command = Command::Action {
        client_id: "slow".into(),
        action,
    };
    core.handle(
        t0,
        Input::Command {
            ask: ask_id,
            conn,
            command,
        },
    );
    drain(&mut core);
    assert_eq!(
        wake(&mut core),
        Some(t0 + 10 * SECOND),
        "the answer's deadline"
    );
    core.handle(t0 + 10 * SECOND, Input::Timeout);
    let outputs = drain(&mut core);
    assert!(outputs.iter().any(|o| matches!(
        o,
        Output::Answer { ask, result: Err(error) } if *ask == ask_id && error.code == codes::UNAVAILABLE
    )));
    let id = in_flight_write(&core).unwrap();
    core.handle(t0 + 12 * SECOND, Input::WriteDone { id, result: Ok(()) });
    let outputs = drain(&mut core);
    assert!(
        !outputs.iter().any(|o| matches!(o, Output::Answer { .. })),
        "answered once"
    );
    assert!(
        sends(&outputs)
            .iter()
            .any(|m| matches!(m, ServerMsg::Applied { seq: 1, .. }))
    );
}

#[test]
fn a_lost_lease_tells_every_follower_room_moved_and_refuses_what_comes_after() {
    let t0 = Instant::now();
    let mut core = started_room();
    join(&mut core, 1, Some(player(0)), None, t0).unwrap();
    join(&mut core, 3, None, None, t0).unwrap();
    drain(&mut core);
    core.handle(t0, Input::Moved);
    let outputs = drain(&mut core);
    for conn in [1, 3] {
        assert!(matches!(
            to_conn(&outputs, conn).as_slice(),
            [ServerMsg::Error { code, .. }] if code == codes::ROOM_MOVED
        ));
    }
    assert!(matches!(outputs.last(), Some(Output::Moved)));
    let refused = ask(&mut core, 1, Command::Back, t0).unwrap();
    assert_eq!(refused.unwrap_err().code, codes::ROOM_MOVED);
}

#[test]
fn an_append_refused_by_its_fence_is_undone_answered_room_moved_and_stops_the_room() {
    let t0 = Instant::now();
    let (mut core, _, _) = super::first_move_sent(t0);
    let id = in_flight_write(&core).unwrap();
    let Some((_, InFlight::Append { ask, .. })) = &core.in_flight else {
        panic!("an append in flight");
    };
    let ask = ask.unwrap();
    core.handle(
        t0,
        Input::WriteDone {
            id,
            result: Err(WriteFailed::Moved),
        },
    );
    let outputs = drain(&mut core);
    assert!(outputs.iter().any(|o| matches!(
        o,
        Output::Answer { ask: a, result: Err(error) } if *a == ask && error.code == codes::ROOM_MOVED
    )));
    assert!(
        !sends(&outputs)
            .iter()
            .any(|m| matches!(m, ServerMsg::Applied { .. }))
    );
    assert!(matches!(outputs.last(), Some(Output::Moved)));
    assert_eq!(core.game.as_ref().unwrap().runner.seq(), 0, "undone");
}

/// Stores whatever the core asks (as the loop would) until nothing is left to store, running
/// at most `bots` of the bot decisions it asks for; returns the stored appends.
fn settle(core: &mut RoomCore, now: Instant, mut bots: usize) -> Vec<Append> {
    let mut stored = Vec::new();
    loop {
        let mut progressed = false;
        for output in drain(core) {
            match output {
                Output::Write {
                    write: Write::Append(append),
                    ..
                } => {
                    committed(core, append.seq, Ok(()), now).unwrap();
                    stored.push(append);
                    progressed = true;
                }
                Output::Bot(turn) if bots > 0 => {
                    bots -= 1;
                    let action = (turn.job)(1);
                    bot_chose(core, turn.seq, turn.seat, action, now);
                    progressed = true;
                }
                _ => {}
            }
        }
        if !progressed {
            return stored;
        }
    }
}

#[test]
fn a_seat_timed_out_on_two_turns_in_a_row_is_played_by_the_bot_until_back() {
    let t0 = Instant::now();
    let mut core = super::clocked_duel(1, 0, t0);
    let first = to_act(&core).unwrap();
    settle(&mut core, t0, 0);
    // Nobody plays: the clock plays each seat's turn in turn. The first seat's second turn lost
    // to the clock hands it to the bot; the other seat has lost only one.
    let mut now = t0;
    let mut by_clock = 0;
    while core.takeover(first).is_none() {
        now += SECOND;
        assert!(now < t0 + 10 * SECOND, "taken over by now");
        core.handle(now, Input::Timeout);
        by_clock += settle(&mut core, now, 0)
            .iter()
            .filter(|append| append.by == ActedBy::Clock)
            .count();
    }
    assert!(by_clock >= 3, "three turns lost to the clock");
    assert_eq!(core.takeover(first), Some(Takeover::TimedOut));
    let other = Seat(1 - first.0);
    assert_eq!(core.takeover(other), None, "one turn lost is no streak");
    assert_eq!(
        core.summary().seats[first.index()].takeover,
        Some(Takeover::TimedOut)
    );
    // The other seat plays its turn in time; then the bot plays the first seat's.
    let other_conn = crate::ConnId::from(other.0) + 1;
    let mut played = 0;
    let mut stored = Vec::new();
    while to_act(&core) == Some(other) {
        let legal = legal_of(&core, other);
        act(
            &mut core,
            other_conn,
            format!("o{played}"),
            legal.last().unwrap(),
            now,
        )
        .unwrap();
        played += 1;
        stored.extend(settle(&mut core, now, 1));
    }
    assert!(
        stored
            .last()
            .is_some_and(|append| append.seat == first && append.by == ActedBy::Bot),
        "the bot plays the timed-out seat: {stored:?}"
    );
    // Its player is back: the seat is theirs, with a fresh streak.
    let conn = crate::ConnId::from(first.0) + 1;
    assert_eq!(back(&mut core, conn, now), Ok(()));
    assert_eq!(core.takeover(first), None);
    let clock = core.game.as_ref().unwrap().clock.as_ref().unwrap();
    assert_eq!(clock.timeouts_in_a_row(first), 0);
    assert_eq!(
        back(&mut core, conn, now).unwrap_err().code,
        "not_taken_over"
    );
}

#[test]
fn a_player_away_past_the_grace_period_is_taken_over_and_an_action_gives_the_seat_back() {
    let t0 = Instant::now();
    let mut core = started(RulesetId::Hexdice, vec![Some(player(0)), Some(player(1))]);
    drain(&mut core);
    let grace = Duration::from_secs(u64::from(core.record.settings.grace_seconds));
    let first = to_act(&core).unwrap();
    let conn = crate::ConnId::from(first.0) + 1;
    ask(&mut core, conn, Command::Leave, t0);
    drain(&mut core);
    assert_eq!(core.takeover(first), None, "within the grace period");
    core.handle(t0 + grace, Input::Timeout);
    let outputs = drain(&mut core);
    assert_eq!(core.takeover(first), Some(Takeover::Disconnected));
    assert!(
        outputs
            .iter()
            .any(|o| matches!(o, Output::Bot(turn) if turn.seat == first)),
        "the bot is asked to play the seat"
    );
    // Back, and acting: the seat is theirs again and the bot's late decision is dropped.
    join(&mut core, conn, Some(player(first.0)), None, t0 + grace).unwrap();
    let legal = legal_of(&core, first);
    act(&mut core, conn, "mine".into(), &legal[0], t0 + grace).unwrap();
    assert_eq!(core.takeover(first), None);
    let late = legal[0].clone();
    bot_chose(&mut core, 0, first, Some(late), t0 + grace);
    let appends: Vec<_> = drain(&mut core)
        .iter()
        .filter_map(|o| append_of(o).cloned())
        .collect();
    assert_eq!(appends.len(), 1, "only the player's action");
    assert_eq!(appends[0].by, ActedBy::Player);
}

/// A waiting hexdice room whose limits give it one spectator place, taken by an anonymous
/// spectator (connection 1): another one (connection 2) is refused.
fn one_spectator_place_taken(t0: Instant) -> RoomCore {
    let limits = Limits {
        max_spectators: 1,
        ..Limits::default()
    };
    let record = waiting_room(t0).record.clone();
    let mut core = RoomCore::new(
        record,
        rules(RulesetId::Hexdice).unwrap(),
        None,
        &limits,
        ENTROPY,
        (t0, 0),
    );
    join(&mut core, 1, None, None, t0).unwrap();
    let refused = join(&mut core, 2, None, None, t0).unwrap_err();
    assert_eq!(refused.code, codes::TOO_MANY_CONNECTIONS);
    core
}

#[test]
fn limits_reach_the_concerns_they_set() {
    // The room's one spectator place taken, the next spectator is refused (checked there).
    one_spectator_place_taken(Instant::now());
}

#[test]
fn spectators_filling_a_waiting_room_never_keep_a_person_from_its_free_seat() {
    let t0 = Instant::now();
    let mut core = one_spectator_place_taken(t0);
    // Two people who may sit still get in, and take both seats.
    for (conn, n) in [(3, 0), (4, 1)] {
        join(&mut core, conn, Some(player(n)), None, t0)
            .expect("an identity joining a waiting room with a free seat gets in");
        ask_seat(&mut core, conn, None, t0);
        write_done(&mut core, Ok(()), t0);
        drain(&mut core);
    }
    assert!(
        core.summary()
            .seats
            .iter()
            .all(|seat| seat.player.is_some()),
        "both seats taken"
    );
    // No seat is free any more: the cap holds for the next identity again.
    let refused = join(&mut core, 5, Some(player(2)), None, t0).unwrap_err();
    assert_eq!(refused.code, codes::TOO_MANY_CONNECTIONS);
}
