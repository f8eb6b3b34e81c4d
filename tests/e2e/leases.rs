//! Room leases and the fenced append on a real PostgreSQL (cluster mode's foundation,
//! docs/SCALING.md): a lease is acquired only when free or expired, each acquisition raises the
//! epoch, renewals say which leases were lost, a released lease is free at once, placement
//! counts leases per live node, and an append carrying a lease that moved on is refused by the
//! database (nothing written, the room's other appends and other rooms unaffected), as is
//! every other write of the room (seats, chat, start, expiry, rematch). And, on both databases,
//! an append the database already holds (its commit's reply was lost, then it came again) is
//! answered from what is stored: durable when the stored row is that action, `Behind` (the room
//! loads itself again) when another action holds its seq.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::TestDb;
use tokio_util::sync::CancellationToken;
use warroom_engine::{RulesetId, Seat};
use warroom_protocol::{
    ActedBy, ChatChannel, ChatLine, Identity, IdentityId, MatchId, MatchState, RoomId,
    RoomSettings, RoomState,
};
use warroom_room::Append;
use warroom_server::metrics::Metrics;
use warroom_server::store::fenced::FencedError;
use warroom_server::store::leases::Fence;
use warroom_server::store::presence::{RoomPresence, SeatPresence};
use warroom_server::store::writer::{AppendError, FencedAppend, Writer};
use warroom_server::store::{MatchRecord, RoomRecord, SessionLimits, Store};

/// A lease short enough to watch it expire, and long enough that a loaded machine's stall
/// between taking it and the next statement does not expire it first (400 ms did, at load 8.8).
const SHORT: Duration = Duration::from_secs(2);
/// A lease that does not expire during a test.
const LONG: Duration = Duration::from_secs(60);

/// A fresh PostgreSQL store (`WARROOM_TEST_POSTGRES_URL`).
async fn store() -> (TestDb, Store) {
    let db = common::db::postgres().await;
    let store = common::db::store(&db).await;
    (db, store)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn leases_are_acquired_renewed_lost_on_expiry_and_taken_over_with_a_new_epoch() {
    let (db, store) = store().await;
    let room = RoomId::random();
    let other = RoomId::random();
    assert_eq!(
        store.acquire_lease(room, "a", SHORT).await.unwrap(),
        Some(1)
    );
    assert_eq!(
        store.acquire_lease(other, "a", LONG).await.unwrap(),
        Some(1)
    );
    assert_eq!(
        store.acquire_lease(room, "b", LONG).await.unwrap(),
        None,
        "a live lease of another node is not taken"
    );
    let holder = store.lease_holder(room).await.unwrap().unwrap();
    assert_eq!(
        (holder.owner.as_str(), holder.epoch, holder.live),
        ("a", 1, true)
    );
    let new = RoomId::random();
    assert_eq!(store.first_lease(new, "b", LONG).await.unwrap(), Some(1));
    assert_eq!(
        store.first_lease(new, "a", LONG).await.unwrap(),
        None,
        "a new room's first lease is taken once"
    );
    assert_eq!(
        store.first_lease(room, "b", LONG).await.unwrap(),
        None,
        "a room leased before has no first lease to take"
    );
    assert_eq!(store.lease_holder(new).await.unwrap().unwrap().owner, "b");
    assert_eq!(
        store.renew_leases("a", &[room], SHORT).await.unwrap(),
        Vec::<RoomId>::new(),
        "renewed"
    );
    let never = RoomId::random();
    let live = store
        .live_lease_owners(&[room, other, never])
        .await
        .unwrap();
    assert_eq!(live.get(&room).map(String::as_str), Some("a"));
    assert_eq!(live.get(&other).map(String::as_str), Some("a"));
    assert_eq!(live.len(), 2, "a room never leased has no owner: {live:?}");
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
    assert!(!store.lease_holder(room).await.unwrap().unwrap().live);
    let live = store.live_lease_owners(&[room, other]).await.unwrap();
    assert_eq!(
        live.keys().collect::<Vec<_>>(),
        [&other],
        "an expired lease has no live owner"
    );
    assert_eq!(
        store.renew_leases("a", &[room, other], LONG).await.unwrap(),
        vec![room],
        "an expired lease is lost, even to its holder; the other is renewed"
    );
    assert_eq!(
        store.acquire_lease(room, "b", LONG).await.unwrap(),
        Some(2),
        "an expired lease is taken over with the next epoch"
    );
    assert_eq!(store.acquire_lease(room, "a", LONG).await.unwrap(), None);
    assert_eq!(
        store.renew_leases("a", &[room], LONG).await.unwrap(),
        vec![room]
    );
    assert!(store.release_lease(room, "b", 2, false).await.unwrap());
    assert_eq!(
        store.acquire_lease(room, "a", LONG).await.unwrap(),
        Some(3),
        "a released lease is free at once"
    );
    assert!(
        !store.release_lease(room, "b", 2, false).await.unwrap(),
        "b no longer holds it"
    );
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn new_rooms_go_to_the_live_node_with_the_fewest_leases() {
    let (db, store) = store().await;
    store.node_alive("a", LONG, false).await.unwrap();
    store.node_alive("b", LONG, false).await.unwrap();
    store.node_alive("c", SHORT, false).await.unwrap();
    store.node_alive("d", LONG, true).await.unwrap();
    for _ in 0..2 {
        store
            .acquire_lease(RoomId::random(), "a", LONG)
            .await
            .unwrap();
    }
    store
        .acquire_lease(RoomId::random(), "b", LONG)
        .await
        .unwrap();
    let counts = store.lease_counts().await.unwrap();
    assert_eq!(
        counts,
        vec![
            ("c".to_owned(), 0),
            ("b".to_owned(), 1),
            ("a".to_owned(), 2)
        ],
        "draining d is left out"
    );
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
    let counts = store.lease_counts().await.unwrap();
    assert_eq!(
        counts[0],
        ("b".to_owned(), 1),
        "c stopped renewing: {counts:?}"
    );
    store.node_gone("b").await.unwrap();
    assert_eq!(
        store.lease_counts().await.unwrap(),
        vec![("a".to_owned(), 2)]
    );
    db.cleanup().await;
}

fn person(n: u128) -> Identity {
    Identity {
        id: IdentityId(uuid::Uuid::from_u128(0xa000 + n)),
        name: format!("Lease player {n}"),
    }
}

/// A batching writer over `store` (16 appends a batch, 4 lanes, 5 s per batch) and its task.
fn writer_over(store: &Store) -> (Writer, tokio::task::JoinHandle<()>) {
    Writer::spawn(
        store.clone(),
        16,
        4,
        Duration::from_secs(5),
        Arc::new(Metrics::default()),
        CancellationToken::new(),
    )
}

/// A room with a running hexdice match (stored through the server's own store calls).
async fn running_match(store: &Store) -> (RoomId, MatchId) {
    let room = waiting_room(store).await;
    let started = match_of(room);
    store.start_match(&started, None).await.unwrap();
    (room, started.id)
}

/// The two players of [`waiting_room`]'s room, stored.
async fn players(store: &Store) -> [Identity; 2] {
    let players = [person(1), person(2)];
    for (n, player) in players.iter().enumerate() {
        if store.identity(player.id).await.unwrap().is_none() {
            store
                .create_identity(player, &format!("{:064x}", n + 1), None)
                .await
                .unwrap();
        }
    }
    players
}

/// A waiting hexdice room with two free seats.
async fn waiting_room(store: &Store) -> RoomId {
    let players = players(store).await;
    let room = RoomRecord {
        id: RoomId::random(),
        ruleset: RulesetId::Hexdice,
        options: serde_json::json!({}),
        settings: RoomSettings::default(),
        seat_count: 2,
        private: false,
        invite_code: "code".into(),
        creator: players[0].id,
        state: RoomState::Waiting,
        match_id: None,
        created_at: 1,
        seats: vec![None, None],
    };
    store.create_room(&room).await.unwrap();
    room.id
}

/// A match of `room` with [`players`] seated.
fn match_of(room: RoomId) -> MatchRecord {
    MatchRecord {
        id: MatchId::random(),
        room_id: room,
        ruleset: RulesetId::Hexdice,
        options: serde_json::json!({}),
        seed: "00".repeat(32),
        seed_commitment: "11".repeat(32),
        state: MatchState::Playing,
        outcome: None,
        action_count: 0,
        started_at: 2,
        finished_at: None,
        seats: vec![person(1), person(2)],
        rated: false,
        ratings: None,
    }
}

fn append(room: RoomId, match_id: MatchId, seq: u64, fence: Option<Fence>) -> FencedAppend {
    let client_id = format!("c{seq}-{}", fence.as_ref().map_or(0, |f| f.epoch));
    let append = Append {
        match_id,
        room_id: room,
        seq,
        seat: Seat(0),
        by: ActedBy::Player,
        client_id,
        action: "{}".into(),
        events: "[]".into(),
        clock: None,
        finish: None,
        rated: None,
    };
    FencedAppend { append, fence }
}

fn chat_line(id: u64, text: &str) -> ChatLine {
    ChatLine {
        id,
        seq: 0,
        channel: ChatChannel::Players,
        from: person(1),
        text: text.into(),
        at: String::new(),
    }
}

fn fence(node: &str, epoch: i64) -> Option<Fence> {
    Some(Fence {
        node: Arc::from(node),
        epoch,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn an_append_is_refused_once_another_node_took_the_lease() {
    let (db, store) = store().await;
    let (writer, _task) = writer_over(&store);
    let (room, match_id) = running_match(&store).await;
    let (calm, calm_match) = running_match(&store).await;
    let a = store
        .acquire_lease(room, "a", SHORT)
        .await
        .unwrap()
        .unwrap();
    let calm_epoch = store.acquire_lease(calm, "a", LONG).await.unwrap().unwrap();
    writer
        .append(append(room, match_id, 1, fence("a", a)))
        .await
        .expect("the holder appends");
    assert_eq!(
        writer
            .append(append(room, match_id, 2, fence("b", a)))
            .await,
        Err(AppendError::Moved),
        "another node without the lease cannot append"
    );
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
    assert_eq!(
        writer
            .append(append(room, match_id, 2, fence("a", a)))
            .await,
        Err(AppendError::Moved),
        "an expired lease fences its holder out, before anyone took it"
    );
    let b = store.acquire_lease(room, "b", LONG).await.unwrap().unwrap();
    assert_eq!(b, a + 1);
    // The old owner (woken from a pause) and the new one append at once, with another room
    // beside them: only the old owner's append is refused.
    let (old, new, beside) = tokio::join!(
        writer.append(append(room, match_id, 2, fence("a", a))),
        writer.append(append(room, match_id, 2, fence("b", b))),
        writer.append(append(calm, calm_match, 1, fence("a", calm_epoch))),
    );
    assert_eq!(old, Err(AppendError::Moved));
    assert_eq!(new, Ok(()));
    assert_eq!(beside, Ok(()));
    // Even the node id the room had at a lower epoch is refused: a paused old incarnation.
    let a_again = store.acquire_lease(calm, "a", LONG).await.unwrap().unwrap();
    assert_eq!(a_again, calm_epoch + 1);
    assert_eq!(
        writer
            .append(append(calm, calm_match, 2, fence("a", calm_epoch)))
            .await,
        Err(AppendError::Moved)
    );
    let log = store.actions(match_id).await.unwrap();
    let seqs: Vec<(u64, &str)> = log.iter().map(|a| (a.seq, a.client_id.as_str())).collect();
    assert_eq!(
        seqs,
        vec![(1, "c1-1"), (2, "c2-2")],
        "only the holders' appends"
    );
    assert_eq!(store.actions(calm_match).await.unwrap().len(), 1);
    // Without a fence (a single server) appends are written as before.
    let (free, free_match) = running_match(&store).await;
    writer
        .append(append(free, free_match, 1, None))
        .await
        .unwrap();
    db.cleanup().await;
}

/// While one batch's commit is in flight, an append waits to go with the next batch (one commit
/// for all that arrived meanwhile) rather than take a lane of its own, unless enough queue for a
/// batch worth overlapping (an eighth of the largest batch: 2 of this writer's 16).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn appends_wait_for_the_commit_in_flight_unless_enough_queue_for_a_batch_of_their_own() {
    use sqlx::Connection;
    let (db, store) = store().await;
    let (writer, _task) = writer_over(&store);
    let mut rooms = Vec::new();
    for _ in 0..3 {
        let (room, match_id) = running_match(&store).await;
        let epoch = store.acquire_lease(room, "a", LONG).await.unwrap().unwrap();
        rooms.push(append(room, match_id, 1, fence("a", epoch)));
    }
    // Another connection locks the first room's lease: its append's statement, which checks
    // the lease first, waits for it.
    let mut blocker = sqlx::PgConnection::connect(&db.url).await.unwrap();
    sqlx::query("BEGIN").execute(&mut blocker).await.unwrap();
    sqlx::query("SELECT 1 FROM room_leases WHERE room_id = $1::uuid FOR UPDATE")
        .bind(rooms[0].append.room_id.to_string())
        .execute(&mut blocker)
        .await
        .unwrap();
    let spawn_append = |append: FencedAppend| {
        let writer = writer.clone();
        tokio::spawn(async move { writer.append(append).await })
    };
    let first = spawn_append(rooms[0].clone());
    let waiting = async {
        loop {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            .fetch_one(&mut blocker)
            .await
            .unwrap();
            if waiting > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("the first append's statement waits for the lease's lock");

    let second = spawn_append(rooms[1].clone());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !second.is_finished(),
        "a lone append waits for the commit in flight (3 lanes are free)"
    );
    let third = tokio::time::timeout(Duration::from_secs(10), writer.append(rooms[2].clone()))
        .await
        .expect("two queued appends take a lane of their own");
    assert_eq!(third, Ok(()));
    let second = tokio::time::timeout(Duration::from_secs(10), second)
        .await
        .expect("the second went with the third")
        .unwrap();
    assert_eq!(second, Ok(()));
    assert!(!first.is_finished(), "the first still waits for the lock");

    sqlx::query("ROLLBACK").execute(&mut blocker).await.unwrap();
    let first = tokio::time::timeout(Duration::from_secs(10), first)
        .await
        .expect("the first commits once the lock is gone")
        .unwrap();
    assert_eq!(first, Ok(()));
    for fenced in &rooms {
        let stored = store.actions(fenced.append.match_id).await.unwrap();
        assert_eq!(stored.len(), 1, "each room's one action is stored");
    }
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn a_rooms_seat_chat_start_expiry_and_rematch_writes_are_refused_once_its_lease_moved_on() {
    let (db, store) = store().await;
    let room = waiting_room(&store).await;
    let [ada, bob] = players(&store).await;
    let a = store
        .acquire_lease(room, "a", SHORT)
        .await
        .unwrap()
        .unwrap();
    let old = fence("a", a);
    let old = old.as_ref();
    store
        .set_seat(old, room, Seat(0), Some(ada.id))
        .await
        .expect("the holder takes a seat");
    store
        .add_chat_line(old, room, None, &chat_line(1, "from a"), 10)
        .await
        .expect("the holder stores a chat line");
    let moved = |result: Result<(), FencedError>, what: &str| {
        assert!(
            matches!(result, Err(FencedError::Moved)),
            "{what}: {result:?}"
        );
    };
    moved(
        store
            .set_seat(fence("b", a).as_ref(), room, Seat(1), Some(bob.id))
            .await,
        "another node without the lease cannot take a seat",
    );
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
    moved(
        store.set_seat(old, room, Seat(1), Some(bob.id)).await,
        "an expired lease fences its holder out, before anyone took it",
    );
    let b = store.acquire_lease(room, "b", LONG).await.unwrap().unwrap();
    assert_eq!(b, a + 1);
    let new = fence("b", b);
    let new = new.as_ref();
    // The old owner, woken from a pause, tries every write a room makes besides its actions.
    moved(
        store.set_seat(old, room, Seat(1), Some(bob.id)).await,
        "seat taken",
    );
    moved(store.set_seat(old, room, Seat(0), None).await, "seat left");
    moved(
        store
            .add_chat_line(old, room, None, &chat_line(2, "from a, paused"), 20)
            .await,
        "chat line",
    );
    let stale_start = match_of(room);
    moved(store.start_match(&stale_start, old).await, "match start");
    moved(store.expire_room(room, old).await, "expiry");
    let rematch = RoomRecord {
        id: RoomId::random(),
        ruleset: RulesetId::Hexdice,
        options: serde_json::json!({}),
        settings: RoomSettings::default(),
        seat_count: 2,
        private: true,
        invite_code: "again".into(),
        creator: ada.id,
        state: RoomState::Waiting,
        match_id: None,
        created_at: 3,
        seats: vec![Some(bob.clone()), Some(ada.clone())],
    };
    moved(store.store_rematch(room, &rematch, old).await, "rematch");
    // Nothing of it was written.
    let stored = store.room(room).await.unwrap().unwrap();
    assert_eq!(stored.state, RoomState::Waiting, "not expired, not started");
    assert_eq!(stored.seats, vec![Some(ada.clone()), None]);
    assert!(store.match_record(stale_start.id).await.unwrap().is_none());
    assert!(store.room(rematch.id).await.unwrap().is_none());
    assert_eq!(store.rematch_room(room).await.unwrap(), None);
    let said: Vec<String> = store
        .room_chat(room)
        .await
        .unwrap()
        .into_iter()
        .map(|line| line.text)
        .collect();
    assert_eq!(said, vec!["from a".to_owned()]);
    // The new owner writes.
    store
        .add_chat_line(new, room, None, &chat_line(2, "from b"), 30)
        .await
        .unwrap();
    store
        .set_seat(new, room, Seat(1), Some(bob.id))
        .await
        .unwrap();
    store.set_seat(new, room, Seat(1), None).await.unwrap();
    assert_eq!(
        store.room(room).await.unwrap().unwrap().seats,
        vec![Some(ada.clone()), None],
        "the new owner gives a seat back"
    );
    store
        .set_seat(new, room, Seat(1), Some(bob.id))
        .await
        .unwrap();
    let started = match_of(room);
    store.start_match(&started, new).await.unwrap();
    let stored = store.room(room).await.unwrap().unwrap();
    assert_eq!(
        (stored.state, stored.match_id),
        (RoomState::Playing, Some(started.id))
    );
    assert_eq!(stored.seats, vec![Some(ada.clone()), Some(bob.clone())]);
    let stored_match = store.match_record(started.id).await.unwrap().unwrap();
    assert_eq!(stored_match.seats, started.seats, "every seat of the match");
    assert_eq!(store.room_chat(room).await.unwrap().len(), 2);
    // Without a fence (a single server) the writes are plain.
    let free = waiting_room(&store).await;
    store
        .set_seat(None, free, Seat(1), Some(bob.id))
        .await
        .unwrap();
    store
        .set_seat(None, free, Seat(0), Some(ada.id))
        .await
        .unwrap();
    store.set_seat(None, free, Seat(1), None).await.unwrap();
    assert_eq!(
        store.room(free).await.unwrap().unwrap().seats,
        vec![Some(ada), None]
    );
    store
        .add_chat_line(None, free, None, &chat_line(1, "plain"), 40)
        .await
        .unwrap();
    store.expire_room(free, None).await.unwrap();
    assert_eq!(
        store.room(free).await.unwrap().unwrap().state,
        RoomState::Expired
    );
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn presence_is_read_only_at_the_live_leases_epoch_and_never_overwritten_by_an_older_one() {
    let (db, store) = store().await;
    let room = waiting_room(&store).await;
    let seats = |connected: bool| {
        vec![
            SeatPresence {
                connected,
                takeover: None,
            },
            SeatPresence::default(),
        ]
    };
    let full = RoomPresence {
        seats: seats(true),
        spectators: 2,
    };
    let empty = RoomPresence {
        seats: seats(false),
        spectators: 0,
    };
    let a = store
        .acquire_lease(room, "a", SHORT)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        store
            .write_presence("a", &[(room, a, full.clone())])
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store.presence_of(&[room]).await.unwrap().get(&room),
        Some(&full)
    );
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
    assert!(
        store.presence_of(&[room]).await.unwrap().is_empty(),
        "an expired lease's presence is not shown"
    );
    let b = store.acquire_lease(room, "b", LONG).await.unwrap().unwrap();
    assert!(
        store.presence_of(&[room]).await.unwrap().is_empty(),
        "nor the old epoch's under the new lease"
    );
    store
        .write_presence("b", &[(room, b, empty.clone())])
        .await
        .unwrap();
    assert_eq!(
        store.presence_of(&[room]).await.unwrap().get(&room),
        Some(&empty)
    );
    // The old owner, woken from a pause, writes and clears at its epoch: nothing changes.
    assert_eq!(
        store
            .write_presence("a", &[(room, a, full.clone())])
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.clear_presence("a", &[(room, a)]).await.unwrap(), 0);
    assert_eq!(store.clear_stale_presence().await.unwrap(), 0);
    assert_eq!(
        store.presence_of(&[room]).await.unwrap().get(&room),
        Some(&empty)
    );
    // A row no live lease stands behind (a dead node's) is swept; the owner clears its own.
    let orphan = waiting_room(&store).await;
    store
        .write_presence("dead", &[(orphan, 7, full)])
        .await
        .unwrap();
    assert_eq!(store.clear_stale_presence().await.unwrap(), 1);
    assert_eq!(store.clear_presence("b", &[(room, b)]).await.unwrap(), 1);
    assert!(store.presence_of(&[room, orphan]).await.unwrap().is_empty());
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn running_matches_nobody_serves_are_listed_for_takeover_but_dormant_ones_are_not() {
    let (db, store) = store().await;
    let (never_leased, _) = running_match(&store).await;
    let (held, _) = running_match(&store).await;
    let (handed_over, _) = running_match(&store).await;
    let (dormant, _) = running_match(&store).await;
    let (expired, _) = running_match(&store).await;
    store.acquire_lease(held, "a", LONG).await.unwrap();
    let e = store
        .acquire_lease(handed_over, "a", LONG)
        .await
        .unwrap()
        .unwrap();
    assert!(
        store
            .release_lease(handed_over, "a", e, false)
            .await
            .unwrap()
    );
    let e = store
        .acquire_lease(dormant, "a", LONG)
        .await
        .unwrap()
        .unwrap();
    assert!(store.release_lease(dormant, "a", e, true).await.unwrap());
    store.acquire_lease(expired, "a", SHORT).await.unwrap();
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
    let mut listed = store.rooms_to_take_over(100).await.unwrap();
    let mut wanted = vec![never_leased, handed_over, expired];
    listed.sort();
    wanted.sort();
    assert_eq!(listed, wanted);
    assert_eq!(
        store.acquire_lease(dormant, "b", LONG).await.unwrap(),
        Some(2),
        "a dormant lease is acquired by whoever is asked for the room"
    );
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn a_cluster_nodes_connections_end_idle_transactions_and_bound_statements() {
    let db = common::db::postgres().await;
    // Without limits (a single process), PostgreSQL's defaults: none.
    let plain = common::db::store(&db).await;
    assert_eq!(
        plain
            .setting("idle_in_transaction_session_timeout")
            .await
            .unwrap(),
        "0"
    );
    plain.close().await;
    // A node with a 5 s lease: a transaction left idle is ended after the lease, a statement
    // after 30 s, on every connection of the pool (several held at once, so several opened).
    let limits = SessionLimits::for_lease(Duration::from_secs(5));
    assert_eq!(limits.idle_in_transaction, Duration::from_secs(5));
    assert_eq!(limits.statement, Duration::from_secs(30));
    let store = Store::connect_with(&db.url, Duration::from_secs(5), Some(limits))
        .await
        .unwrap();
    let reads = (0..4).map(|_| async {
        let idle = store.setting("idle_in_transaction_session_timeout");
        let statement = store.setting("statement_timeout");
        (idle.await.unwrap(), statement.await.unwrap())
    });
    for (idle, statement) in futures_util::future::join_all(reads).await {
        assert_eq!((idle.as_str(), statement.as_str()), ("5s", "30s"));
    }
    store.close().await;
    db.cleanup().await;
}

/// An append the writer meets already stored (on PostgreSQL also with a fence, which takes the
/// transaction path) is settled against what is stored.
async fn appends_already_stored_are_settled_against_the_stored_rows(store: Store, fenced: bool) {
    let (writer, _task) = writer_over(&store);
    let (room, match_id) = running_match(&store).await;
    let fence = if fenced {
        let epoch = store.acquire_lease(room, "a", LONG).await.unwrap().unwrap();
        fence("a", epoch)
    } else {
        None
    };
    let mut first = append(room, match_id, 1, fence.clone());
    first.append.action = r#"{"type": "attack", "from": 3, "to": 4}"#.into();
    writer.append(first.clone()).await.expect("stored");
    // The same action again, its text spaced and ordered differently (jsonb keeps neither).
    let mut again = first.clone();
    again.append.action = r#"{"to":4,"from":3,"type":"attack"}"#.into();
    assert_eq!(
        writer.append(again).await,
        Ok(()),
        "the stored row is this action"
    );
    let mut other_client = first.clone();
    other_client.append.client_id = "someone else".into();
    let mut other_action = first.clone();
    other_action.append.action = r#"{"type": "attack", "from": 3, "to": 5}"#.into();
    for other in [other_client, other_action] {
        let refused = writer.append(other.clone()).await;
        assert_eq!(refused, Err(AppendError::Behind), "{other:?}");
    }
    let next = append(room, match_id, 2, fence);
    writer
        .append(next.clone())
        .await
        .expect("the next seq is stored after it");
    let stored = store.actions(match_id).await.unwrap();
    let seqs: Vec<(u64, &str)> = stored
        .iter()
        .map(|row| (row.seq, row.client_id.as_str()))
        .collect();
    assert_eq!(
        seqs,
        vec![(1, first.client_id.as_str()), (2, next.client_id.as_str())],
        "each once"
    );
    assert_eq!(stored[0].action["to"], 4, "the first action stays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_already_stored_is_settled_against_the_stored_row_on_sqlite() {
    let sqlite = common::db::sqlite();
    let embedded = common::db::store(&sqlite).await;
    appends_already_stored_are_settled_against_the_stored_rows(embedded, false).await;
    sqlite.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn an_append_already_stored_is_settled_against_the_stored_row_on_postgres() {
    let (db, store) = store().await;
    appends_already_stored_are_settled_against_the_stored_rows(store.clone(), false).await;
    appends_already_stored_are_settled_against_the_stored_rows(store, true).await;
    db.cleanup().await;
}
