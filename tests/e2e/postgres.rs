//! End to end, PostgreSQL's own schema (migration 0006): its columns have native types, rows
//! written by the server before 0006 (TEXT ids and JSON, BIGINT milliseconds and flags) read back
//! the same after it, and an operator can query a played match's actions and events as `jsonb`.
//! These run only when `WARROOM_TEST_POSTGRES_URL` is set (they are reported as ignored otherwise).

use crate::common;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sqlx::postgres::PgConnection;
use sqlx::{Connection, Row};

use common::TestServer;
use common::play::{hexdice_duel, play_at_random};
use warroom_engine::{RulesetId, Seat};
use warroom_protocol::{
    ChatChannel, IdentityId, MatchId, MatchState, RoomId, RoomSettings, RoomState,
};
use warroom_server::store::{LobbyQuery, MatchFilter, PlayerMatchQuery, rfc3339};

/// Where the PostgreSQL migrations are.
const MIGRATIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations/postgres");

/// The columns 0006 gives a native type, with that type as `information_schema` names it.
const NATIVE_COLUMNS: &[(&str, &str, &str)] = &[
    ("identities", "id", "uuid"),
    ("identities", "created_at", "timestamp with time zone"),
    (
        "identities",
        "recovery_created_at",
        "timestamp with time zone",
    ),
    ("identity_tokens", "identity_id", "uuid"),
    ("identity_tokens", "created_at", "timestamp with time zone"),
    ("mutes", "identity_id", "uuid"),
    ("mutes", "muted_id", "uuid"),
    ("mutes", "created_at", "timestamp with time zone"),
    ("rooms", "id", "uuid"),
    ("rooms", "options", "jsonb"),
    ("rooms", "private", "boolean"),
    ("rooms", "creator_id", "uuid"),
    ("rooms", "match_id", "uuid"),
    ("rooms", "created_at", "timestamp with time zone"),
    ("rooms", "rematch_room", "uuid"),
    ("rooms", "settings", "jsonb"),
    ("room_seats", "room_id", "uuid"),
    ("room_seats", "identity_id", "uuid"),
    ("matches", "id", "uuid"),
    ("matches", "room_id", "uuid"),
    ("matches", "options", "jsonb"),
    ("matches", "started_at", "timestamp with time zone"),
    ("matches", "finished_at", "timestamp with time zone"),
    ("match_seats", "match_id", "uuid"),
    ("match_seats", "identity_id", "uuid"),
    ("match_actions", "match_id", "uuid"),
    ("match_actions", "action", "jsonb"),
    ("match_actions", "events", "jsonb"),
    ("match_actions", "clock", "jsonb"),
    ("chat_messages", "room_id", "uuid"),
    ("chat_messages", "match_id", "uuid"),
    ("chat_messages", "identity_id", "uuid"),
    ("chat_messages", "created_at", "timestamp with time zone"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn postgres_columns_have_native_types() {
    let db = common::db::postgres().await;
    let store = common::db::store(&db).await;
    store.close().await;
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    let rows = sqlx::query(
        "SELECT table_name::text AS t, column_name::text AS c, data_type::text AS ty \
         FROM information_schema.columns WHERE table_schema = 'public'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let types: BTreeMap<(String, String), String> = rows
        .iter()
        .map(|row| ((row.get("t"), row.get("c")), row.get("ty")))
        .collect();
    for &(table, column, wanted) in NATIVE_COLUMNS {
        let found = types.get(&(table.to_owned(), column.to_owned()));
        assert_eq!(found.map(String::as_str), Some(wanted), "{table}.{column}");
    }
    // The lobby's index holds only the live public rooms.
    let lobby: String =
        sqlx::query_scalar("SELECT indexdef FROM pg_indexes WHERE indexname = 'rooms_lobby'")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert!(lobby.contains("WHERE ((private = false)"), "{lobby}");
    conn.close().await.ok();
    db.cleanup().await;
}

/// Rows as the server wrote them before migration 0006.
struct OldRows {
    ada: IdentityId,
    bob: IdentityId,
    finished_room: RoomId,
    private_room: RoomId,
    open_room: RoomId,
    played: MatchId,
}

/// Migrates a fresh database up to 0005 (through a folder holding only those migrations, so
/// the server's own migrator later finds them applied with the same checksums) and inserts one
/// of every kind of row the way the server did then: ids and JSON as text, times as Unix
/// milliseconds, the private flag as 0/1.
async fn fill_the_old_schema(url: &str) -> OldRows {
    let folder = std::env::temp_dir().join(format!("warroom-old-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&folder).unwrap();
    for entry in std::fs::read_dir(MIGRATIONS).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.as_str() < "0006" {
            std::fs::copy(&path, folder.join(&name)).unwrap();
        }
    }
    let mut conn = PgConnection::connect(url).await.unwrap();
    let old = sqlx::migrate::Migrator::new(folder.as_path())
        .await
        .unwrap();
    assert_eq!(old.iter().last().map(|m| m.version), Some(5));
    old.run(&mut conn).await.unwrap();
    let _ = std::fs::remove_dir_all(&folder);

    let rows = OldRows {
        ada: IdentityId::random(),
        bob: IdentityId::random(),
        finished_room: RoomId::random(),
        private_room: RoomId::random(),
        open_room: RoomId::random(),
        played: MatchId::random(),
    };
    let (ada, bob) = (rows.ada.to_string(), rows.bob.to_string());
    let statements: Vec<(&str, Vec<Value>)> = vec![
        (
            "INSERT INTO identities (id, name, name_key, token_hash, created_at, recovery_hash, \
             recovery_created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            vec![
                json!(ada),
                json!("Ada"),
                json!("ada"),
                json!("hash-ada"),
                json!(1_764_614_640_123_i64),
                json!("recovery-ada"),
                json!(1_764_614_641_999_i64),
            ],
        ),
        (
            "INSERT INTO identities (id, name, name_key, token_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
            vec![
                json!(bob),
                json!("Bob"),
                json!("bob"),
                json!("hash-bob"),
                json!(1_764_614_640_456_i64),
            ],
        ),
        (
            "INSERT INTO identity_tokens (token_hash, identity_id, created_at) VALUES ($1, $2, $3)",
            vec![
                json!("hash-bob-2"),
                json!(bob),
                json!(1_764_614_650_001_i64),
            ],
        ),
        (
            "INSERT INTO mutes (identity_id, muted_id, created_at) VALUES ($1, $2, $3)",
            vec![json!(ada), json!(bob), json!(1_764_614_650_002_i64)],
        ),
        (
            // A room from before 0004: no settings.
            "INSERT INTO rooms (id, ruleset, options, seat_count, private, invite_code, creator_id, \
             state, match_id, created_at, settings, rematch_room) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11)",
            vec![
                json!(rows.finished_room.to_string()),
                json!("hexdice"),
                json!(r#"{"size":"small"}"#),
                json!(2),
                json!(0),
                json!("INVITE1"),
                json!(ada),
                json!("finished"),
                json!(rows.played.to_string()),
                json!(1_764_614_660_000_i64),
                json!(rows.private_room.to_string()),
            ],
        ),
        (
            "INSERT INTO rooms (id, ruleset, options, seat_count, private, invite_code, creator_id, \
             state, created_at, settings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            vec![
                json!(rows.private_room.to_string()),
                json!("hexdice"),
                json!("{}"),
                json!(2),
                json!(1),
                json!("INVITE2"),
                json!(ada),
                json!("waiting"),
                json!(1_764_614_670_000_i64),
                json!(r#"{"bot_delay_ms":250,"clock":null,"grace_seconds":120}"#),
            ],
        ),
        (
            "INSERT INTO rooms (id, ruleset, options, seat_count, private, invite_code, creator_id, \
             state, created_at, settings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            vec![
                json!(rows.open_room.to_string()),
                json!("capitals"),
                json!("{}"),
                json!(3),
                json!(0),
                json!("INVITE3"),
                json!(bob),
                json!("waiting"),
                json!(1_764_614_680_000_i64),
                json!(r#"{"bot_delay_ms":0,"clock":null}"#),
            ],
        ),
        (
            "INSERT INTO room_seats (room_id, seat, identity_id) VALUES ($1, $2, $3)",
            vec![json!(rows.private_room.to_string()), json!(0), json!(ada)],
        ),
        (
            "INSERT INTO matches (id, room_id, ruleset, options, seat_count, seed, seed_commitment, \
             state, winner, reason, action_count, started_at, finished_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            vec![
                json!(rows.played.to_string()),
                json!(rows.finished_room.to_string()),
                json!("hexdice"),
                json!(r#"{"size":"small"}"#),
                json!(2),
                json!("00ff"),
                json!("c0ffee"),
                json!("finished"),
                json!(1),
                json!("conquest"),
                json!(2),
                json!(1_764_614_661_000_i64),
                json!(1_764_614_669_777_i64),
            ],
        ),
        (
            "INSERT INTO match_seats (match_id, seat, identity_id) VALUES ($1, $2, $3)",
            vec![json!(rows.played.to_string()), json!(0), json!(ada)],
        ),
        (
            "INSERT INTO match_seats (match_id, seat, identity_id) VALUES ($1, $2, $3)",
            vec![json!(rows.played.to_string()), json!(1), json!(bob)],
        ),
        (
            "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, acted_by, \
             clock) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
            vec![
                json!(rows.played.to_string()),
                json!(1),
                json!(0),
                json!("a1"),
                json!(r#"{"type":"attack","from":3,"to":4}"#),
                json!(r#"[{"type":"rolled","dice":[3,4]}]"#),
                json!("player"),
            ],
        ),
        (
            "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, acted_by, \
             clock) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            vec![
                json!(rows.played.to_string()),
                json!(2),
                json!(1),
                json!("server:clock:2"),
                json!(r#"{"type":"end_turn"}"#),
                json!("[]"),
                json!("clock"),
                json!(r#"{"banks_ms":[1000,0]}"#),
            ],
        ),
        (
            "INSERT INTO chat_messages (room_id, id, match_id, seq, channel, identity_id, body, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            vec![
                json!(rows.finished_room.to_string()),
                json!(1),
                json!(rows.played.to_string()),
                json!(1),
                json!("players"),
                json!(bob),
                json!("good game"),
                json!(1_764_614_662_345_i64),
            ],
        ),
    ];
    for (sql, values) in statements {
        let mut query = sqlx::query(sql);
        for value in values {
            query = match value {
                Value::String(text) => query.bind(text),
                Value::Number(n) => query.bind(n.as_i64().unwrap()),
                other => panic!("no such column value {other}"),
            };
        }
        query
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    conn.close().await.ok();
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn rows_from_before_native_types_read_back_the_same_after_migration_0006() {
    let db = common::db::postgres().await;
    let old = fill_the_old_schema(&db.url).await;
    // Runs 0006 (and anything after it) over those rows.
    let store = common::db::store(&db).await;

    let ada = store.identity(old.ada).await.unwrap().unwrap();
    assert_eq!(ada.identity.name, "Ada");
    assert_eq!(ada.created_at, 1_764_614_640_123, "milliseconds survive");
    assert_eq!(ada.recovery_created_at, Some(1_764_614_641_999));
    let bob = store.identity(old.bob).await.unwrap().unwrap();
    assert_eq!(bob.recovery_created_at, None);
    let by_token = store.identity_by_token_hash("hash-bob-2").await.unwrap();
    assert_eq!(
        by_token.map(|i| i.id),
        Some(old.bob),
        "a further device's token"
    );
    let by_recovery = store.identity_by_recovery_hash("recovery-ada").await;
    assert_eq!(by_recovery.unwrap().map(|i| i.id), Some(old.ada));
    assert_eq!(store.mutes(old.ada).await.unwrap(), vec![old.bob]);

    let finished = store.room(old.finished_room).await.unwrap().unwrap();
    assert_eq!(finished.ruleset, RulesetId::Hexdice);
    assert_eq!(finished.options, json!({"size": "small"}));
    assert!(!finished.private);
    assert_eq!(finished.creator, old.ada);
    assert_eq!(finished.state, RoomState::Finished);
    assert_eq!(finished.match_id, Some(old.played));
    assert_eq!(finished.created_at, 1_764_614_660_000);
    assert_eq!(
        finished.settings,
        RoomSettings {
            clock: None,
            bot_delay_ms: 0,
            ..RoomSettings::default()
        },
        "a room without settings plays as before"
    );
    assert_eq!(
        store.rematch_room(old.finished_room).await.unwrap(),
        Some(old.private_room)
    );
    let private = store.room(old.private_room).await.unwrap().unwrap();
    assert!(private.private, "the 0/1 flag became a boolean");
    assert_eq!(private.settings.bot_delay_ms, 250);
    assert_eq!(private.settings.grace_seconds, 120);
    assert_eq!(private.seats[0].as_ref().map(|i| i.id), Some(old.ada));
    assert_eq!(private.seats[1], None);

    let played = store.match_record(old.played).await.unwrap().unwrap();
    assert_eq!(played.room_id, old.finished_room);
    assert_eq!(played.options, json!({"size": "small"}));
    assert_eq!(played.state, MatchState::Finished);
    assert_eq!(played.outcome.as_ref().map(|o| o.winner), Some(Seat(1)));
    assert_eq!(played.action_count, 2);
    assert_eq!(played.started_at, 1_764_614_661_000);
    assert_eq!(played.finished_at, Some(1_764_614_669_777));
    let seated: Vec<IdentityId> = played.seats.iter().map(|i| i.id).collect();
    assert_eq!(seated, vec![old.ada, old.bob]);

    let actions = store.actions(old.played).await.unwrap();
    assert_eq!(actions.len(), 2);
    assert_eq!(
        actions[0].action,
        json!({"type": "attack", "from": 3, "to": 4})
    );
    assert_eq!(
        actions[0].events,
        vec![json!({"type": "rolled", "dice": [3, 4]})]
    );
    assert_eq!(actions[0].clock, None);
    assert_eq!(actions[1].client_id, "server:clock:2");
    assert_eq!(actions[1].clock, Some(json!({"banks_ms": [1000, 0]})));
    assert!(actions[1].events.is_empty());

    let chat = store.room_chat(old.finished_room).await.unwrap();
    assert_eq!(chat.len(), 1);
    assert_eq!(chat[0].text, "good game");
    assert_eq!(chat[0].channel, ChatChannel::Players);
    assert_eq!(chat[0].from.id, old.bob);
    assert_eq!(chat[0].at, rfc3339(1_764_614_662_345));
    assert_eq!(store.match_chat(old.played).await.unwrap(), chat);

    let page = store
        .player_matches(&PlayerMatchQuery {
            player: old.bob,
            viewer: None,
            ruleset: None,
            result: None,
            before: None,
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.matches.len(), 1);
    assert_eq!(page.matches[0].1, Seat(1));
    let listed = store
        .list_matches(&MatchFilter {
            player: Some(old.ada),
            ..MatchFilter::default()
        })
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, old.played);
    let (lobby, more) = store
        .lobby_rooms(&LobbyQuery {
            state: None,
            ruleset: None,
            open: true,
            before: None,
            limit: 10,
        })
        .await
        .unwrap();
    let listed: Vec<RoomId> = lobby.iter().map(|room| room.id).collect();
    assert_eq!(listed, vec![old.open_room], "only the public waiting room");
    assert!(!more);
    store.close().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
async fn operators_query_a_played_match_as_jsonb() {
    let db = common::db::postgres().await;
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (room, mut players, mut spectator) = hexdice_duel(http, server.addr).await;
    let over = play_at_random(&mut players, &mut [&mut spectator], 5_000, 0x0b5).await;
    assert!(over, "hexdice ends within 5000 actions");
    let match_id = http.match_of(&room).await;
    let (status, replay) = http.replay(&match_id, None).await;
    assert_eq!(status, 200);
    server.stop().await;

    // What the replay says, counted by action type and by event type.
    let mut actions_by_type: BTreeMap<String, i64> = BTreeMap::new();
    let mut events_by_type: BTreeMap<String, i64> = BTreeMap::new();
    for action in replay["actions"].as_array().unwrap() {
        let kind = action["action"]["type"].as_str().unwrap().to_owned();
        *actions_by_type.entry(kind).or_default() += 1;
        for event in action["events"].as_array().unwrap() {
            let kind = event["type"].as_str().unwrap().to_owned();
            *events_by_type.entry(kind).or_default() += 1;
        }
    }
    assert!(actions_by_type.len() > 1, "{actions_by_type:?}");

    // The same counted by an operator in SQL (docs/OPERATIONS.md).
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    for (kind, count) in &actions_by_type {
        let counted: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM match_actions WHERE match_id = $1::uuid AND action->>'type' = $2",
        )
        .bind(&match_id)
        .bind(kind)
        .fetch_one(&mut conn)
        .await
        .unwrap();
        assert_eq!(counted, *count, "actions of type {kind}");
    }
    let rows = sqlx::query(
        "SELECT e->>'type' AS kind, count(*) AS n FROM match_actions a, \
         jsonb_array_elements(a.events) e WHERE a.match_id = $1::uuid GROUP BY 1",
    )
    .bind(&match_id)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let counted: BTreeMap<String, i64> = rows
        .iter()
        .map(|row| (row.get("kind"), row.get("n")))
        .collect();
    assert_eq!(counted, events_by_type);
    // Times are instants: the match lasted as long as its rows say, in SQL too.
    let lasted: bool = sqlx::query_scalar(
        "SELECT finished_at >= started_at AND started_at > now() - interval '1 hour' \
         FROM matches WHERE id = $1::uuid",
    )
    .bind(&match_id)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert!(lasted);
    conn.close().await.ok();
    db.cleanup().await;
}
