//! The room core tested with plain calls and a fake clock, no tasks, sockets or database: what
//! it asks the loop to do for each input. `driver.rs` feeds it as the loop does.

/// The parts of `outputs` (a slice of [`Output`]) that match `pattern`, as `part`.
macro_rules! picked {
    ($outputs:expr, $pattern:pat $(if $guard:expr)? => $part:expr) => {
        $outputs
            .iter()
            .filter_map(|output| match output {
                $pattern $(if $guard)? => Some($part),
                _ => None,
            })
            .collect()
    };
}

mod concerns;
mod driver;

use serde_json::{Value, json};
use std::time::Instant;
use warroom_engine::{RulesetId, Seat, Viewer};
use warroom_protocol::{
    ActedBy, ClockSettings, Identity, RoomSettings, RoomState, ServerMsg, Takeover,
};

use self::driver::*;
use super::{RoomCore, Submitted};
use crate::ConnId;
use crate::input::Input;
use crate::output::{Output, Write};

use crate::fixtures::{player, waiting_room};

/// A hexdice room with both seats taken and its match started; conns 1 and 2 are the seats,
/// 3 a spectator.
fn started_room() -> RoomCore {
    started_by_people(RulesetId::Hexdice, 2)
}

/// A room of `ruleset` whose `seats` are all held by people, started, with its first outputs
/// drained.
fn started_by_people(ruleset: RulesetId, seats: u8) -> RoomCore {
    let mut core = started(ruleset, (0..seats).map(|n| Some(player(n))).collect());
    drain(&mut core);
    core
}

/// A room of `ruleset` with these seat holders, started; conn `n + 1` follows as the person of
/// seat `n` (bots have no connection), and conn 100 is a spectator.
fn started(ruleset: RulesetId, seats: Vec<Option<Identity>>) -> RoomCore {
    started_with(ruleset, seats, None, Instant::now())
}

/// As [`started`], with a clock, started at `now`.
fn started_with(
    ruleset: RulesetId,
    seats: Vec<Option<Identity>>,
    clock: Option<ClockSettings>,
    now: Instant,
) -> RoomCore {
    let settings = RoomSettings {
        clock,
        bot_delay_ms: 0,
        ..RoomSettings::default()
    };
    let record = waiting_room(ruleset, seats.clone(), settings);
    let mut core = new_core(record, now);
    for (n, holder) in seats.iter().enumerate() {
        if let Some(holder) = holder
            && crate::bots::bot_level(holder.id).is_none()
        {
            join(&mut core, n as ConnId + 1, Some(holder.clone()), None, now).unwrap();
        }
    }
    let spectator = if seats.len() == 2 { 3 } else { 100 };
    join(&mut core, spectator, None, None, now).unwrap();
    let start = in_flight_write(&core).expect("a full room starts");
    core.handle(
        now,
        Input::WriteDone {
            id: start,
            result: Ok(()),
        },
    );
    assert!(
        core.game.is_some(),
        "the match runs once its record is stored"
    );
    core
}

/// A started hexdice duel of players 0 and 1 whose clock gives `turn` seconds a turn and a bank
/// of `bank` seconds, started at `now`.
fn clocked_duel(turn: u32, bank: u32, now: Instant) -> RoomCore {
    let settings = ClockSettings {
        turn_seconds: turn,
        bank_seconds: bank,
    };
    started_with(
        RulesetId::Hexdice,
        vec![Some(player(0)), Some(player(1))],
        Some(settings),
        now,
    )
}

/// The seat to act, its conn and its first legal action, read from the snapshot it would get.
fn next_move(core: &mut RoomCore) -> (ConnId, Value) {
    join(core, 1, Some(player(0)), None, Instant::now()).unwrap();
    join(core, 2, Some(player(1)), None, Instant::now()).unwrap();
    let outputs = drain(core);
    for output in outputs {
        if let Output::Send {
            to,
            message: ServerMsg::Snapshot {
                legal: Some(legal), ..
            },
            ..
        } = output
        {
            let legal = warroom_protocol::legal::expand_value(&legal.to_value()).unwrap();
            return (to[0], legal[0].clone());
        }
    }
    panic!("no seat is told its legal actions");
}

/// A started duel whose seat to act sent its move as `a1`, written but not yet committed: the
/// room, that seat's connection and the action.
fn first_move_sent(now: Instant) -> (RoomCore, ConnId, Value) {
    let mut core = started_room();
    let (conn, action) = next_move(&mut core);
    act(&mut core, conn, "a1".into(), &action, now).unwrap();
    drain(&mut core);
    (core, conn, action)
}

fn sends(outputs: &[Output]) -> Vec<&ServerMsg> {
    picked!(outputs, Output::Send { message, .. } => message)
}

#[test]
fn an_action_is_announced_only_after_its_commit() {
    let mut core = started_room();
    let (conn, action) = next_move(&mut core);
    let now = Instant::now();
    let submitted = act(&mut core, conn, "a1".into(), &action, now).unwrap();
    assert_eq!(submitted, Submitted::Pending(1));
    let outputs = drain(&mut core);
    assert!(
        matches!(outputs.as_slice(), [Output::Write { write: Write::Append(append), .. }] if append.seq == 1 && append.seat == Seat(0)),
        "only the append, nothing said yet: {outputs:?}"
    );
    assert_eq!(committed(&mut core, 1, Ok(()), now), Ok(1));
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
fn only_the_spectators_copy_of_an_action_may_wait_for_their_sockets_pace() {
    let now = Instant::now();
    let (mut core, _, _) = first_move_sent(now);
    committed(&mut core, 1, Ok(()), now).unwrap();
    let paced: Vec<(Vec<ConnId>, bool)> = drain(&mut core)
        .into_iter()
        .filter_map(|output| match output {
            Output::Send { to, paced, .. } => Some((to, paced)),
            _ => None,
        })
        .collect();
    // Conns 1 and 2 hold the seats, conn 3 watches.
    assert_eq!(
        paced,
        vec![(vec![1], false), (vec![2], false), (vec![3], true)]
    );
}

#[test]
fn a_failed_commit_undoes_the_action_and_tells_no_one() {
    let now = Instant::now();
    let (mut core, conn, action) = first_move_sent(now);
    assert!(
        committed(&mut core, 1, Err("disk full"), now).is_err(),
        "the sender hears of the failure"
    );
    assert!(
        sends(&drain(&mut core)).is_empty(),
        "nobody hears of an action that was not stored"
    );
    // The same id and action can be sent again: it was never applied.
    assert_eq!(
        act(&mut core, conn, "a1".into(), &action, now),
        Ok(Submitted::Pending(1))
    );
}

#[test]
fn a_resent_client_id_is_answered_with_its_seq() {
    let now = Instant::now();
    let (mut core, conn, _) = first_move_sent(now);
    committed(&mut core, 1, Ok(()), now).unwrap();
    drain(&mut core);
    assert_eq!(
        act(
            &mut core,
            conn,
            "a1".into(),
            &json!({"type": "anything"}),
            now
        ),
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

/// The bot's decision the core asks for, run here as the loop would (without the delay).
fn bot_turn(outputs: Vec<Output>) -> Option<(u64, Seat, Option<Value>)> {
    outputs.into_iter().find_map(|output| match output {
        Output::Bot(turn) => Some((turn.seq, turn.seat, (turn.job)(1))),
        _ => None,
    })
}

/// The legal actions of `seat` in the core's match, one by one.
fn legal_of(core: &RoomCore, seat: Seat) -> Vec<Value> {
    let legal = core
        .game
        .as_ref()
        .unwrap()
        .runner
        .legal_actions_for(Viewer::Seat(seat));
    warroom_protocol::legal::expand_value(&legal.unwrap().to_value()).unwrap()
}

/// The seat to act in the core's match.
fn to_act(core: &RoomCore) -> Option<Seat> {
    core.game.as_ref().and_then(|game| game.runner.to_act())
}

#[test]
fn a_bot_seat_is_asked_once_and_its_move_goes_through_the_log_marked_bot() {
    let bot = crate::bots::bot_identity(warroom_engine::BotLevel::Normal);
    let mut core = started(RulesetId::Hexdice, vec![Some(bot.clone()), Some(bot)]);
    let now = Instant::now();
    for seq in 0..30 {
        let outputs = drain(&mut core);
        let (asked, seat, action) = bot_turn(outputs).expect("a bot is asked to act");
        assert_eq!(asked, seq);
        assert_eq!(Some(seat), to_act(&core));
        bot_chose(&mut core, asked, seat, action, now);
        let outputs = drain(&mut core);
        let Some(append) = outputs.first().and_then(append_of) else {
            panic!("the bot's action is stored: {outputs:?}");
        };
        assert_eq!((append.seq, append.by), (seq + 1, ActedBy::Bot));
        assert!(append.client_id.starts_with("server:"));
        assert!(
            bot_turn(outputs).is_none(),
            "nothing else is asked while the action is stored"
        );
        committed(&mut core, seq + 1, Ok(()), now).unwrap();
        if core.summary().state == RoomState::Finished {
            return;
        }
    }
}

#[test]
fn a_stale_bot_move_is_dropped() {
    let bot = crate::bots::bot_identity(warroom_engine::BotLevel::Easy);
    let mut core = started(RulesetId::Hexdice, vec![Some(player(0)), Some(bot)]);
    drain(&mut core);
    let (conn, action) = next_move(&mut core);
    assert_eq!(conn, 1, "the person plays first");
    let now = Instant::now();
    bot_chose(&mut core, 0, Seat(0), Some(action.clone()), now);
    assert!(
        !drain(&mut core)
            .iter()
            .any(|output| append_of(output).is_some()),
        "a bot does not play a person's seat"
    );
}

#[test]
fn g_resign_1_resigning_in_two_players_ends_the_match_for_the_other_seat() {
    let mut core = started_room();
    let now = Instant::now();
    // Seat 1 resigns although seat 0 is to act.
    assert_eq!(to_act(&core), Some(Seat(0)));
    assert_eq!(resign(&mut core, 2, now), Ok(Submitted::Pending(1)));
    let outputs = drain(&mut core);
    let Some(append) = outputs.first().and_then(append_of) else {
        panic!("the resignation is stored: {outputs:?}");
    };
    assert_eq!(append.action, r#"{"type":"resign"}"#);
    assert_eq!(append.by, ActedBy::Player);
    let finish = append.finish.clone().expect("it ends the match");
    assert_eq!(
        (finish.winner, finish.reason.as_str()),
        (Seat(0), "opponent_resigned")
    );
    committed(&mut core, 1, Ok(()), now).unwrap();
    let outputs = drain(&mut core);
    assert!(
        sends(&outputs)
            .iter()
            .any(|m| matches!(m, ServerMsg::Finished { outcome, .. } if outcome.winner == Seat(0)))
    );
    assert_eq!(core.summary().state, RoomState::Finished);
    assert_eq!(resign(&mut core, 1, now).unwrap_err().code, "match_over");
    assert_eq!(
        resign(&mut core, 2, now).unwrap_err().code,
        "already_resigned",
        "the seat that resigned is told so again, not left without an answer"
    );
}

#[test]
fn g_resign_1_resigning_in_four_players_hands_the_seat_to_a_bot_for_good() {
    let mut core = started_by_people(RulesetId::Capitals, 4);
    let now = Instant::now();
    let first = to_act(&core).unwrap();
    let resigning = first.0 as ConnId + 1;
    assert_eq!(resign(&mut core, resigning, now), Ok(Submitted::Pending(1)));
    let outputs = drain(&mut core);
    assert!(
        outputs
            .first()
            .and_then(append_of)
            .is_some_and(|append| append.finish.is_none()),
        "the match goes on: {outputs:?}"
    );
    committed(&mut core, 1, Ok(()), now).unwrap();
    let outputs = drain(&mut core);
    let shown = outputs.iter().find_map(|output| match output {
        Output::Summary(room) => Some(room.clone()),
        _ => None,
    });
    assert_eq!(
        shown.expect("the room is shown again").seats[first.index()].takeover,
        Some(Takeover::Resigned)
    );
    let (seq, seat, action) = bot_turn(outputs).expect("the bot plays the resigned seat now");
    assert_eq!((seq, seat), (1, first));
    // The person can no longer play it, nor resign again.
    let error = core
        .action(resigning, "x".into(), action.as_ref().unwrap(), now)
        .unwrap_err();
    assert_eq!(error.code, "already_resigned");
    bot_chose(&mut core, seq, seat, action, now);
    let stored = drain(&mut core);
    assert!(
        stored
            .first()
            .and_then(append_of)
            .is_some_and(|append| append.by == ActedBy::Bot)
    );
    assert_eq!(
        resign(&mut core, resigning, now).unwrap_err().code,
        "already_resigned",
        "a second resignation is refused with its code, as PROTOCOL.md says"
    );
    assert_eq!(
        back(&mut core, resigning, now).unwrap_err().code,
        "already_resigned",
        "a resigned seat is not given back"
    );
}

#[test]
fn g_resign_1_when_everyone_resigned_in_three_players_the_bots_play_on_and_the_lobby_drops_it() {
    let mut core = started_by_people(RulesetId::Capitals, 3);
    let now = Instant::now();
    let mut outputs = Vec::new();
    for (n, conn) in (1..=3).enumerate() {
        let seq = u64::try_from(n).unwrap() + 1;
        assert_eq!(resign(&mut core, conn, now), Ok(Submitted::Pending(seq)));
        let stored = drain(&mut core);
        assert!(
            stored
                .iter()
                .find_map(append_of)
                .is_some_and(|append| append.finish.is_none()),
            "the match goes on after resignation {seq}"
        );
        committed(&mut core, seq, Ok(()), now).unwrap();
        outputs = drain(&mut core);
    }
    let room = core.summary();
    assert_eq!(room.state, RoomState::Playing);
    assert!(
        room.seats
            .iter()
            .all(|seat| seat.takeover == Some(Takeover::Resigned))
    );
    assert!(
        !crate::summary::played_by_a_person(&room),
        "no person plays it: the lobby does not list it"
    );
    // The bots play every seat on, through the log.
    for _ in 0..5 {
        let (seq, seat, action) = bot_turn(outputs).expect("a bot is asked");
        assert_eq!(Some(seat), to_act(&core));
        bot_chose(&mut core, seq, seat, action, now);
        let stored = drain(&mut core);
        let append = stored.iter().find_map(append_of);
        let append = append.expect("the bot's action is stored");
        assert_eq!(append.by, ActedBy::Bot);
        committed(&mut core, append.seq, Ok(()), now).unwrap();
        outputs = drain(&mut core);
    }
}

/// Stores (commits) whatever the core queued, as the loop would, until nothing is left to
/// store; returns every append.
fn store_all(core: &mut RoomCore, now: Instant) -> Vec<crate::records::Append> {
    let mut stored = Vec::new();
    loop {
        let outputs = drain(core);
        let Some(append) = outputs.iter().find_map(append_of).cloned() else {
            return stored;
        };
        committed(core, append.seq, Ok(()), now).unwrap();
        stored.push(append);
    }
}

#[test]
fn a_turn_that_runs_out_gets_its_timeout_actions_marked_clock_and_the_next_seat_a_full_clock() {
    let t0 = Instant::now();
    let second = std::time::Duration::from_secs(1);
    let mut core = clocked_duel(10, 5, t0);
    drain(&mut core);
    let first = to_act(&core).unwrap();
    assert_eq!(
        core.next_wake(),
        Some(t0 + 15 * second),
        "turn time, then bank"
    );
    core.handle(t0 + 14 * second, Input::Timeout);
    assert!(store_all(&mut core, t0 + 14 * second).is_empty(), "not yet");
    let expected = core.game.as_ref().unwrap().runner.timeout_action().unwrap();
    core.handle(t0 + 15 * second, Input::Timeout);
    let stored = store_all(&mut core, t0 + 15 * second);
    assert!(!stored.is_empty(), "the clock acts");
    assert_eq!(
        serde_json::from_str::<Value>(&stored[0].action).unwrap(),
        expected
    );
    assert!(
        stored
            .iter()
            .all(|append| append.by == ActedBy::Clock && append.seat == first)
    );
    assert!(
        stored
            .iter()
            .all(|append| append.client_id.starts_with("server:clock:"))
    );
    let next = to_act(&core).unwrap();
    assert_ne!(next, first, "the timed-out turn is over");
    let clock: serde_json::Value =
        serde_json::from_str(stored.last().unwrap().clock.as_deref().unwrap()).unwrap();
    assert_eq!(clock["seat"], next.0);
    assert_eq!(clock["turn_left_ms"], 10_000);
    assert_eq!(clock["banks_ms"][first.index()], 0, "the bank is spent");
    assert_eq!(clock["banks_ms"][next.index()], 5_000);
    assert_eq!(core.next_wake(), Some(t0 + 30 * second));
    // What everyone sees says the same.
    let shown = core.clock_state().unwrap();
    assert_eq!((shown.seat, shown.left_ms), (Some(next), Some(15_000)));
}

#[test]
fn a_player_who_acts_in_time_keeps_the_bank_and_the_clock_waits_for_each_commit() {
    let t0 = Instant::now();
    let second = std::time::Duration::from_secs(1);
    let mut core = clocked_duel(10, 5, t0);
    drain(&mut core);
    let (conn, action) = next_move(&mut core);
    act(&mut core, conn, "a".into(), &action, t0 + 12 * second).unwrap();
    assert_eq!(
        core.next_wake(),
        Some(t0 + 22 * second),
        "no clock timeout while an action is being stored: only its answer's deadline"
    );
    core.handle(t0 + 40 * second, Input::Timeout);
    let stored = store_all(&mut core, t0 + 12 * second);
    assert_eq!(stored.len(), 1, "only the player's action: {stored:?}");
    let shown = core.clock_state().unwrap();
    let me = Seat(u8::try_from(conn - 1).unwrap());
    if to_act(&core) == Some(me) {
        assert_eq!(
            shown.left_ms,
            Some(3_000),
            "2 s of bank were spent, the turn goes on"
        );
    } else {
        assert_eq!(shown.banks_ms[me.index()], 3_000, "2 s of bank were spent");
    }
}

/// Plays `count` actions of the seat to act (its first legal action), each committed, and
/// returns what the core asked to send after each commit.
fn play_committed(core: &mut RoomCore, count: usize) -> Vec<Vec<Output>> {
    use super::Submission;
    let mut rounds = Vec::new();
    for n in 0..count {
        let game = core.game.as_ref().unwrap();
        let Some(seat) = game.runner.to_act() else {
            break;
        };
        let legal = legal_of(core, seat);
        let action = legal[n % legal.len()].clone();
        let now = Instant::now();
        let Submitted::Pending(seq) = core
            .submit(
                seat,
                format!("p{n}"),
                Submission::Rules(&action),
                ActedBy::Player,
                now,
            )
            .unwrap()
        else {
            panic!("a new action");
        };
        drain(core);
        committed(core, seq, Ok(()), now).unwrap();
        rounds.push(drain(core));
    }
    rounds
}

/// Each connection's view as its messages build it: a snapshot's (less its static parts), an
/// `applied`'s whole view, or the previous one patched. Returns how many patches were applied.
fn follow_views(
    views: &mut std::collections::HashMap<ConnId, (u64, Value)>,
    outputs: &[Output],
) -> usize {
    let mut patches = 0;
    for output in outputs {
        let Output::Send { to, message, .. } = output else {
            continue;
        };
        for conn in to {
            match message {
                ServerMsg::Snapshot { seq, view, .. } => {
                    let mut view = view.to_value();
                    crate::runner::strip_static_parts(&mut view);
                    views.insert(*conn, (*seq, view));
                }
                ServerMsg::Applied {
                    seq,
                    view: Some(view),
                    patch: None,
                    ..
                } => {
                    views.insert(*conn, (*seq, view.to_value()));
                }
                ServerMsg::Applied {
                    seq,
                    view: None,
                    patch: Some(patch),
                    ..
                } => {
                    let (held, view) = views.get_mut(conn).expect("a patch has its base");
                    assert_eq!(*held + 1, *seq, "conn {conn}: a patch on another seq");
                    warroom_protocol::patch::apply(view, &patch.to_value()).unwrap();
                    *held = *seq;
                    patches += 1;
                }
                ServerMsg::Applied { .. } => panic!("a view or a patch: {message:?}"),
                _ => {}
            }
        }
    }
    patches
}

#[test]
fn live_followers_get_patches_that_rebuild_their_view_and_a_rejoin_gets_whole_views() {
    for (ruleset, seats, spectator) in [
        (RulesetId::Hexdice, 2, 3),
        (RulesetId::Classic, 3, 100),
        (RulesetId::Capitals, 2, 3),
    ] {
        let holders: Vec<Option<Identity>> = (0..seats).map(|n| Some(player(n))).collect();
        let mut core = started(ruleset, holders);
        let mut views = std::collections::HashMap::new();
        follow_views(&mut views, &drain(&mut core));
        let class = |conn: ConnId| {
            if conn == spectator {
                Viewer::Spectator
            } else {
                Viewer::Seat(Seat(u8::try_from(conn - 1).unwrap()))
            }
        };
        let conns: Vec<ConnId> = (1..=ConnId::from(seats)).chain([spectator]).collect();
        let check = |core: &RoomCore, views: &std::collections::HashMap<ConnId, (u64, Value)>| {
            let game = core.game.as_ref().unwrap();
            for conn in &conns {
                let (seq, view) = &views[conn];
                assert_eq!(*seq, game.runner.seq(), "{ruleset:?} conn {conn}");
                assert_eq!(
                    view,
                    &game.runner.dynamic_view(class(*conn)).to_value(),
                    "{ruleset:?} conn {conn} at {seq}"
                );
            }
        };
        // Everyone got the snapshot at the start: every later action comes as a patch.
        let mut patched = 0;
        let rounds = play_committed(&mut core, 30);
        assert_eq!(rounds.len(), 30, "{ruleset:?}: the match goes on");
        for outputs in &rounds {
            patched += follow_views(&mut views, outputs);
        }
        check(&core, &views);
        assert_eq!(patched, 30 * conns.len(), "{ruleset:?}: all patches");

        // A spectator comes back two actions behind: the two whole, then patches again.
        let seq = core.game.as_ref().unwrap().runner.seq();
        join(&mut core, spectator, None, Some(seq - 2), Instant::now()).unwrap();
        let outputs = drain(&mut core);
        let whole: Vec<u64> = sends(&outputs)
            .iter()
            .filter_map(|m| match m {
                ServerMsg::Applied {
                    seq,
                    view: Some(_),
                    patch: None,
                    ..
                } => Some(*seq),
                ServerMsg::Applied { .. } => panic!("a catch-up patch: {m:?}"),
                _ => None,
            })
            .collect();
        assert_eq!(whole, vec![seq - 1, seq], "{ruleset:?}");
        follow_views(&mut views, &outputs);
        let rounds = play_committed(&mut core, 1);
        assert_eq!(follow_views(&mut views, &rounds[0]), conns.len());
        check(&core, &views);

        // A seat rejoins with the seq it holds: nothing is sent, so the room cannot know what it
        // holds, and its next action comes whole.
        let seq = core.game.as_ref().unwrap().runner.seq();
        join(&mut core, 1, Some(player(0)), Some(seq), Instant::now()).unwrap();
        follow_views(&mut views, &drain(&mut core));
        let rounds = play_committed(&mut core, 1);
        let to_seat: Vec<&ServerMsg> = rounds[0]
            .iter()
            .filter_map(|o| match o {
                Output::Send { to, message, .. } if to.contains(&1) => Some(message),
                _ => None,
            })
            .collect();
        assert!(
            matches!(
                to_seat.as_slice(),
                [ServerMsg::Applied {
                    view: Some(_),
                    patch: None,
                    ..
                }]
            ),
            "{ruleset:?}: {to_seat:?}"
        );
        assert_eq!(follow_views(&mut views, &rounds[0]), conns.len() - 1);
        check(&core, &views);
    }
}
