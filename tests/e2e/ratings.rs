//! End to end, ratings (issue 39, docs/RATINGS.md): a rated match played to its end over real
//! sockets moves its players' ratings exactly once (also across a restart), the leaderboard and
//! the player's ratings answer them; the refusals (`rated_without_bots`, `not_yet_rated` over
//! REST and the socket); a result against an identity created minutes earlier from the same
//! address does not count; rated quick play matches close players before a far one and a lone
//! player once the window has reached its maximum.

use crate::common;

use std::time::Duration;

use serde_json::{Value, json};
use warroom_server::config::Config;
use warroom_server::store::Dialect;

use common::play::{Participant, play_at_random, rejoin, seat_players};
use common::{Http, ServerProcess, TestDb, TestServer, fields};

on_both_databases! {
    a_rated_match_to_the_end_moves_ratings_once;
    rated_rooms_refuse_bots_and_new_identities;
    a_result_against_a_fresh_identity_from_the_same_address_does_not_count;
    rated_quick_play_matches_by_strength;
    a_server_killed_as_a_rated_match_ends_rates_it_exactly_once;
    a_rated_free_for_all_ranks_its_seats_by_when_they_went_out;
    a_player_who_becomes_established_moves_between_the_leaderboards;
    the_rulesets_carry_the_computer_levels_reference_ratings;
    the_leaderboard_pages_on_by_cursor_in_its_order;
    the_leaderboard_and_the_player_page_show_one_idle_deviation;
}

/// A test server whose fresh identities may play rated, and whose abuse rule on identities
/// created from one address (every test guest comes from 127.0.0.1) is off.
fn open_config(db: &TestDb) -> Config {
    let mut config = Config::for_tests(db.url.clone());
    config.ratings.rated_min_matches = 0;
    config.ratings.rated_new_identity_window = Duration::ZERO;
    config
}

/// The room of a rated duel: hexdice, no clock.
fn rated_duel() -> Value {
    json!({"ruleset": "hexdice", "rated": true, "clock": "none"})
}

/// Ada and Bob, new guests, and the rated duel Ada opens: their (id, token) and the room's id.
pub(crate) async fn ada_opens_a_rated_duel(http: &Http) -> ([(String, String); 2], String) {
    let guests = http.guests(["Ada", "Bob"]).await;
    let room_id = http.room_id(&guests[0].1, &rated_duel()).await;
    (guests, room_id)
}

/// Plays a rated hexdice match between the holders of `tokens` to its end; its match id and
/// the winning seat.
async fn play_rated_hexdice(server: &TestServer, tokens: &[String]) -> (String, u64) {
    let http = server.http();
    let room = http.room(&tokens[0], &rated_duel()).await;
    assert_eq!(room["rated"], true, "{room}");
    assert_eq!(room["settings"]["rated"], true, "{room}");
    let room_id = room["id"].as_str().unwrap().to_owned();
    let mut players = seat_players(server.addr, &room_id, None, tokens).await;
    assert!(
        play_at_random(&mut players, &mut [], 20_000, 39).await,
        "the match ends"
    );
    let finished = players[0].finished().await;
    let winner = finished["outcome"]["winner"].as_u64().expect("a winner");
    let (_, shown) = http.get(&format!("/api/rooms/{room_id}"), None).await;
    (shown["match_id"].as_str().unwrap().to_owned(), winner)
}

async fn a_rated_match_to_the_end_moves_ratings_once(db: TestDb) {
    let server = TestServer::start_with(open_config(&db)).await;
    let http = server.http();
    let [(ada_id, ada), (bob_id, bob)] = http.guests(["Ada", "Bob"]).await;
    let (match_id, winner) = play_rated_hexdice(&server, &[ada.clone(), bob.clone()]).await;
    let ids = [&ada_id, &bob_id];
    let (winner_id, loser_id) = (ids[winner as usize], ids[1 - winner as usize]);

    let check = |http: common::Http| {
        let (winner_id, loser_id, match_id) =
            (winner_id.clone(), loser_id.clone(), match_id.clone());
        async move {
            // Two new players: Glicko-2's published example, 1662 and 1338, both ± 290, both
            // still provisional (docs/RATINGS.md).
            let (status, board) = http
                .get("/api/leaderboards/hexdice?provisional=true", None)
                .await;
            assert_eq!(status, 200, "{board}");
            assert_eq!(board["system"], "glicko2");
            assert_eq!(board["provisional"], true);
            assert_eq!(board["total"], 2, "{board}");
            let entries = board["entries"].as_array().unwrap();
            assert_eq!(entries[0]["player"]["id"], json!(winner_id));
            assert_eq!(
                fields(&entries[0], ["rank", "rating", "deviation"]),
                json!([1, 1662, 290])
            );
            assert_eq!(entries[0]["matches"], 1, "counted once");
            assert_eq!(entries[1]["player"]["id"], json!(loser_id));
            assert_eq!(entries[1]["rating"], 1338);
            let (_, established) = http.get("/api/leaderboards/hexdice", None).await;
            assert_eq!(established["total"], 0, "nobody is established yet");

            let (status, mine) = http
                .get(&format!("/api/players/{winner_id}/ratings"), None)
                .await;
            assert_eq!(status, 200, "{mine}");
            let ratings = mine["ratings"].as_array().unwrap();
            assert_eq!(ratings.len(), 1, "{mine}");
            let hexdice = &ratings[0];
            assert_eq!(hexdice["ruleset"], "hexdice");
            assert_eq!(hexdice["rating"], 1662);
            assert_eq!(hexdice["provisional"], true);
            assert_eq!(hexdice["rank"], Value::Null);
            assert_eq!(hexdice["matches"], 1);
            let history = hexdice["history"].as_array().unwrap();
            assert_eq!(history.len(), 1, "{hexdice}");
            assert_eq!(history[0]["match_id"], json!(match_id));
            assert_eq!(
                fields(&history[0], ["before", "after", "change"]),
                json!([1500, 1662, 162])
            );
            // The match and its replay show each seat's change.
            let (_, summary) = http.get(&format!("/api/matches/{match_id}"), None).await;
            assert_eq!(summary["rated"], true, "{summary}");
            let winner_seat = summary["outcome"]["winner"].as_u64().unwrap();
            let changes = summary["ratings"].as_array().expect("ratings once rated");
            assert_eq!(changes.len(), 2, "{summary}");
            let won = &changes[winner_seat as usize];
            assert_eq!(
                fields(won, ["before", "after", "change"]),
                json!([1500, 1662, 162])
            );
            let (_, replay) = http
                .get(&format!("/api/matches/{match_id}/replay"), None)
                .await;
            assert_eq!(replay["rated"], true);
            assert_eq!(&replay["ratings"], &summary["ratings"]);
            let opponents = hexdice["opponents"].as_array().unwrap();
            assert_eq!(opponents.len(), 1);
            assert_eq!(opponents[0]["player"]["id"], json!(loser_id));
            assert_eq!(
                fields(&opponents[0], ["played", "won", "lost"]),
                json!([1, 1, 0])
            );
        }
    };
    check(http).await;
    server.stop().await;
    // A restart rebuilds nothing twice: the ratings are as they were.
    let server = TestServer::start_with(open_config(&db)).await;
    check(server.http()).await;
    server.stop().await;
}

async fn rated_rooms_refuse_bots_and_new_identities(db: TestDb) {
    // A server with the default rule: 5 finished matches before rated play.
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(_, ada), (_, bob)] = http.guests(["Ada", "Bob"]).await;
    let rated = json!({"ruleset": "hexdice", "rated": true});
    let body = http
        .post_refused("/api/rooms", Some(&ada), &rated, 403, "not_yet_rated")
        .await;
    assert!(body["message"].as_str().unwrap().contains("5"), "{body}");
    http.post_refused("/api/quick-play", Some(&ada), &rated, 403, "not_yet_rated")
        .await;
    http.post_refused(
        "/api/rooms",
        Some(&ada),
        &json!({"ruleset": "hexdice", "rated": true, "bots": [{"seat": 1}]}),
        400,
        "rated_without_bots",
    )
    .await;
    // Casual play is open to everyone, and casual rooms say so.
    let casual = http.room(&ada, &json!({"ruleset": "hexdice"})).await;
    assert_eq!(casual["rated"], false);
    assert_eq!(casual["settings"]["rated"], false);
    // The REST errors of the two routes.
    http.get_refused("/api/leaderboards/chess", None, 404, "unknown_ruleset")
        .await;
    for bad in [
        "limit=0",
        "limit=101",
        "limit=x",
        "offset=-1",
        "offset=5001",
        "provisional=maybe",
    ] {
        http.get_refused(
            &format!("/api/leaderboards/hexdice?{bad}"),
            None,
            400,
            "invalid_request",
        )
        .await;
    }
    let nobody = uuid::Uuid::new_v4();
    http.get_refused(
        &format!("/api/players/{nobody}/ratings"),
        None,
        404,
        "player_not_found",
    )
    .await;
    server.stop().await;

    // A rated room opened while the rule was off; with it on again, Bob (no finished match)
    // cannot take a seat in it over the socket.
    let server = TestServer::start_with(open_config(&db)).await;
    let room_id = server
        .http()
        .room_id(&ada, &json!({"ruleset": "hexdice", "rated": true}))
        .await;
    server.stop().await;
    let server = TestServer::start(&db).await;
    let mut socket = server.client(Some(&bob)).await;
    socket.join(&room_id, None).await;
    socket
        .send(&json!({"type": "take_seat", "room": room_id}))
        .await;
    assert_eq!(socket.error_code().await, "not_yet_rated");
    server.stop().await;
}

async fn a_result_against_a_fresh_identity_from_the_same_address_does_not_count(db: TestDb) {
    // Fresh identities may play rated here, but Ada and Bob were both created from 127.0.0.1
    // within the default 10 minutes: their result does not count.
    let mut config = Config::for_tests(db.url.clone());
    config.ratings.rated_min_matches = 0;
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let [(ada_id, ada), (_, bob)] = http.guests(["Ada", "Bob"]).await;
    play_rated_hexdice(&server, &[ada, bob]).await;
    for provisional in [true, false] {
        let (_, board) = http
            .get(
                &format!("/api/leaderboards/hexdice?provisional={provisional}"),
                None,
            )
            .await;
        assert_eq!(board["total"], 0, "{board}");
    }
    let (_, mine) = http
        .get(&format!("/api/players/{ada_id}/ratings"), None)
        .await;
    assert_eq!(mine["ratings"], json!([]), "{mine}");
    server.stop().await;
}

/// Gives `player` a hexdice rating of `shown` (a player who has played before).
pub(crate) async fn seed_rating(db: &TestDb, player: &str, shown: i64, provisional: bool) {
    seed_rating_at(
        db,
        player,
        shown,
        80,
        provisional,
        warroom_server::store::now_ms(),
    )
    .await;
}

/// Gives `player` a hexdice rating of `shown` ± `deviation` (Glicko-2's numbers as shown, a
/// volatility of 0.06), last moved at `updated_at` (Unix ms), counted on its list.
async fn seed_rating_at(
    db: &TestDb,
    player: &str,
    shown: i64,
    deviation: i64,
    provisional: bool,
    updated_at: i64,
) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db.url).await.expect("the database");
    let d = Dialect::of_url(&db.url);
    sqlx::query(&format!(
        "INSERT INTO ratings (identity_id, ruleset, rating, deviation, volatility, shown, \
         shown_deviation, provisional, matches, updated_at) \
         VALUES ({}, 'hexdice', $2, $3, 0.06, $4, $5, $6, 20, {})",
        d.uuid(1),
        d.time(7)
    ))
    .bind(player.to_owned())
    .bind(shown as f64)
    .bind(deviation as f64)
    .bind(shown)
    .bind(deviation)
    .bind(provisional)
    .bind(updated_at)
    .execute(&pool)
    .await
    .expect("a seeded rating");
    sqlx::query(warroom_server::store::ratings::COUNT_PLAYERS)
        .bind("hexdice")
        .bind(provisional)
        .bind(1i64)
        .execute(&pool)
        .await
        .expect("the seeded rating counted");
    pool.close().await;
}

async fn rated_quick_play_matches_by_strength(db: TestDb) {
    // The window: 100 points at first, 100 more a second, up to 500 (reached after 4 s).
    let mut config = open_config(&db);
    config.ratings.matchmaking_start = 100;
    config.ratings.matchmaking_per_second = 100;
    config.ratings.matchmaking_max = 500;
    let server = TestServer::start_with(config).await;
    let http = server.http();
    let [(far_id, far), (_, ada), (_, bob), (_, cyd)] =
        http.guests(["Far", "Ada", "Bob", "Cyd"]).await;
    seed_rating(&db, &far_id, 1900, false).await;
    let rated = json!({"ruleset": "hexdice", "rated": true});
    let mut waiting = Vec::new();
    let wait_in = |room: &Value, token: &str| {
        let room = room["room"]["id"].as_str().unwrap().to_owned();
        let token = token.to_owned();
        let addr = server.addr;
        async move {
            let mut socket = common::Client::connect(addr).await;
            socket.hello(Some(&token)).await;
            socket.join(&room, None).await;
            socket
                .send(&json!({"type": "take_seat", "room": room}))
                .await;
            socket.sync().await;
            (room, socket)
        }
    };
    // Far (1900) waits first.
    let (status, far_room) = http.post("/api/quick-play", Some(&far), &rated).await;
    assert_eq!(
        (status, far_room["room"]["rated"].as_bool()),
        (201, Some(true))
    );
    let (far_room, socket) = wait_in(&far_room, &far).await;
    waiting.push(socket);
    // Ada (1500, new) is 400 points away (Far's window is below 400 for 3 s): a room of her
    // own, though Far's is older.
    let (status, ada_room) = http.post("/api/quick-play", Some(&ada), &rated).await;
    assert_eq!(status, 201, "{ada_room}");
    let (ada_room, socket) = wait_in(&ada_room, &ada).await;
    waiting.push(socket);
    assert_ne!(ada_room, far_room);
    // Bob (1500) is matched with Ada, the close player, before Far.
    let (status, bob_room) = http.post("/api/quick-play", Some(&bob), &rated).await;
    assert_eq!(status, 200, "{bob_room}");
    assert_eq!(
        bob_room["room"]["id"],
        json!(ada_room),
        "close players first"
    );
    let (_, socket) = wait_in(&bob_room, &bob).await;
    waiting.push(socket);
    // A casual quick play never lands in a rated room.
    let (status, casual) = http
        .post(
            "/api/quick-play",
            Some(&cyd),
            &json!({"ruleset": "hexdice"}),
        )
        .await;
    assert_eq!(status, 201, "{casual}");
    assert_eq!(casual["room"]["rated"], false);
    // Once Far's window has reached its maximum, the next rated player is matched with Far.
    tokio::time::sleep(Duration::from_millis(4_200)).await;
    let (status, cyd_room) = http.post("/api/quick-play", Some(&cyd), &rated).await;
    assert_eq!(status, 200, "{cyd_room}");
    assert_eq!(
        cyd_room["room"]["id"],
        json!(far_room),
        "the lone player is matched"
    );
    for socket in waiting {
        socket.close().await;
    }
    server.stop().await;
}

/// The flags of [`open_config`] for a server started as a process.
const OPEN_FLAGS: [&str; 4] = [
    "--rated-min-matches",
    "0",
    "--rated-new-identity-window",
    "0s",
];

/// Each of the two players' hexdice rating as the leaderboard of provisional players shows it:
/// (player id, rating, rated matches), best first.
pub(crate) async fn provisional_hexdice(http: &Http) -> Vec<(String, i64, i64)> {
    let (status, board) = http
        .get("/api/leaderboards/hexdice?provisional=true", None)
        .await;
    assert_eq!(status, 200, "{board}");
    board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["player"]["id"].as_str().unwrap().to_owned(),
                entry["rating"].as_i64().unwrap(),
                entry["matches"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The result and its rating changes are one transaction: a server killed with SIGKILL while a
/// rated match's last move (a resignation) is in flight has stored both or neither (in practice
/// neither: the kill comes first), and one killed the moment the end is announced has rated
/// the match once, whatever the restarts rebuild.
async fn a_server_killed_as_a_rated_match_ends_rates_it_exactly_once(db: TestDb) {
    let first = ServerProcess::start(&db.url, OPEN_FLAGS);
    let http = Http { addr: first.addr };
    let ([(ada_id, ada), (bob_id, bob)], room_id) = ada_opens_a_rated_duel(&http).await;
    let tokens = [ada.clone(), bob];
    let players = seat_players(first.addr, &room_id, None, &tokens).await;
    // Ada resigns, and the server dies before anything can be read back.
    let resign = four_moves_then_ada_resigns(players, &room_id).await;
    first.sigkill();

    // Restarted: the result and the ratings are both there or both missing. If missing, Ada
    // resigns again and the server dies the moment it announces the end.
    let second = ServerProcess::start(&db.url, OPEN_FLAGS);
    let http = Http { addr: second.addr };
    let mut ada_again = rejoin(second.addr, &ada, Some(0), &room_id).await;
    resign_again_unless_rated(&http, &mut ada_again, &resign).await;
    drop(ada_again);
    second.sigkill();

    let third = ServerProcess::start(&db.url, OPEN_FLAGS);
    let http = Http { addr: third.addr };
    assert_ada_lost_one_rated_duel(&http, &room_id, &ada_id, &bob_id).await;
    third.sigkill();
}

/// A rated free-for-all (capitals, 4 seats) ranks its seats by when they went out: each
/// resigns in turn, seat 3 first, bots play the resigned seats to the end, and the ratings are
/// the 4-seat worked example of docs/RATINGS.md (Weng-Lin, shown ×60).
async fn a_rated_free_for_all_ranks_its_seats_by_when_they_went_out(db: TestDb) {
    let server = TestServer::start_with(open_config(&db)).await;
    let http = server.http();
    let guests = http.guests(["Ada", "Bob", "Cyd", "Dee"]).await;
    let tokens: Vec<String> = guests.iter().map(|(_, token)| token.clone()).collect();
    let room_id = http.room_id(&tokens[0], &json!({"ruleset": "capitals", "seats": 4, "rated": true, "clock": "none", "bot_delay_ms": 0}),).await;
    let mut players = seat_players(server.addr, &room_id, None, &tokens).await;
    for seat in [3u64, 2, 1, 0] {
        let player = &mut players[seat as usize];
        player
            .client
            .send(&json!({"type": "resign", "room": room_id}))
            .await;
        player
            .until("its resignation", |m| {
                m["type"] == "applied" && m["seat"] == seat && m["action"]["type"] == "resign"
            })
            .await;
    }
    let finished = players[0].finished().await;
    assert!(!finished["outcome"].is_null(), "{finished}");

    let (status, board) = http
        .get("/api/leaderboards/capitals?provisional=true", None)
        .await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["system"], "weng_lin");
    let shown: Vec<(&str, i64, i64, i64)> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["player"]["name"].as_str().unwrap(),
                entry["rating"].as_i64().unwrap(),
                entry["deviation"].as_i64().unwrap(),
                entry["matches"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            ("Ada", 1974, 450, 1),
            ("Bob", 1658, 450, 1),
            ("Cyd", 1342, 450, 1),
            ("Dee", 1026, 450, 1),
        ]
    );
    let (summary, changes) = rating_changes(&http, &room_id).await;
    assert_eq!(changes, vec![474, 158, -158, -474], "{summary}");
    server.stop().await;
}

/// The leaderboards' totals follow the players: two provisional players (seeded at ± 80, which
/// one more match keeps under the bound) become established with a rated match, and each list
/// counts them where they now are.
async fn a_player_who_becomes_established_moves_between_the_leaderboards(db: TestDb) {
    let server = TestServer::start_with(open_config(&db)).await;
    let http = server.http();
    let [(ada_id, ada), (bob_id, bob)] = http.guests(["Ada", "Bob"]).await;
    seed_rating(&db, &ada_id, 1500, true).await;
    seed_rating(&db, &bob_id, 1500, true).await;
    let totals = |http: common::Http| async move {
        let mut totals = Vec::new();
        for list in ["false", "true"] {
            let (_, board) = http
                .get(
                    &format!("/api/leaderboards/hexdice?provisional={list}"),
                    None,
                )
                .await;
            assert_eq!(
                board["total"].as_u64().unwrap() as usize,
                board["entries"].as_array().unwrap().len(),
                "{board}"
            );
            totals.push(board["total"].as_u64().unwrap());
        }
        totals
    };
    assert_eq!(totals(server.http()).await, vec![0, 2], "both provisional");
    play_rated_hexdice(&server, &[ada, bob]).await;
    assert_eq!(totals(server.http()).await, vec![2, 0], "both established");
    server.stop().await;
}

/// `GET /api/rulesets` carries each ruleset's computer levels' reference ratings (easy below
/// normal below hard, the numbers of `ratings::reference`), and a player's ratings name the
/// level nearest theirs.
async fn the_rulesets_carry_the_computer_levels_reference_ratings(db: TestDb) {
    let server = TestServer::start_with(open_config(&db)).await;
    let http = server.http();
    let (status, rulesets) = http.get("/api/rulesets", None).await;
    assert_eq!(status, 200, "{rulesets}");
    let mut hexdice = Vec::new();
    for ruleset in rulesets.as_array().unwrap() {
        let id = ruleset["id"].as_str().unwrap();
        let references = ruleset["reference_ratings"].as_array().expect("a list");
        let levels: Vec<&str> = references
            .iter()
            .map(|r| r["level"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["easy", "normal", "hard"], "{ruleset}");
        let ratings: Vec<i64> = references
            .iter()
            .map(|r| r["rating"].as_i64().expect("a whole number"))
            .collect();
        assert!(
            ratings[0] < ratings[1] && ratings[1] <= ratings[2],
            "{ruleset}"
        );
        let engine_id: warroom_engine::RulesetId = id.parse().unwrap();
        let expected =
            serde_json::to_value(warroom_server::ratings::reference_ratings(engine_id)).unwrap();
        assert_eq!(&ruleset["reference_ratings"], &expected, "{id}");
        if id == "hexdice" {
            hexdice = ratings;
        }
    }
    // Players at each level's rating, and one far above hard, read as that level.
    let [(easy_id, _), (normal_id, _), (hard_id, _), (top_id, _)] =
        http.guests(["Easy", "Normal", "Hard", "Top"]).await;
    let players = [
        (&easy_id, hexdice[0], "easy"),
        (&normal_id, hexdice[1], "normal"),
        (&hard_id, hexdice[2], "hard"),
        (&top_id, hexdice[2] + 600, "hard"),
    ];
    for (id, rating, _) in players {
        seed_rating(&db, id, rating, false).await;
    }
    for (id, rating, level) in players {
        let (_, mine) = http.get(&format!("/api/players/{id}/ratings"), None).await;
        let hexdice = &mine["ratings"][0];
        assert_eq!(hexdice["rating"], rating, "{mine}");
        assert_eq!(hexdice["about_as_strong_as"], level, "{mine}");
    }
    server.stop().await;
}

/// The leaderboard pages on by cursor in its order (rating down, deviation up, then the
/// player id): ties of both kinds split across pages, `next` to the end and `previous` back to
/// the top give the same list as one offset page, ranks running on; bad cursors are refused.
async fn the_leaderboard_pages_on_by_cursor_in_its_order(db: TestDb) {
    let server = TestServer::start_with(open_config(&db)).await;
    let http = server.http();
    let players = http
        .guests(["Pl1", "Pl2", "Pl3", "Pl4", "Pl5", "Pl6", "Pl7"])
        .await;
    // Two at 1700 ± 60 (only the id orders them), one at 1700 ± 50, two at 1600, two at 1500.
    let ratings = [
        (1700, 60),
        (1700, 60),
        (1700, 50),
        (1600, 90),
        (1600, 70),
        (1500, 60),
        (1500, 60),
    ];
    let now = warroom_server::store::now_ms();
    for ((id, _), (rating, deviation)) in players.iter().zip(ratings) {
        seed_rating_at(&db, id, rating, deviation, false, now).await;
    }
    let mut expected: Vec<(i64, i64, String)> = players
        .iter()
        .zip(ratings)
        .map(|((id, _), (rating, deviation))| (-rating, deviation, id.clone()))
        .collect();
    expected.sort();
    let expected: Vec<String> = expected.into_iter().map(|(_, _, id)| id).collect();

    let ids = |page: &Value| -> Vec<String> {
        page["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["player"]["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let ranks = |page: &Value| -> Vec<u64> {
        page["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["rank"].as_u64().unwrap())
            .collect()
    };
    let board = "/api/leaderboards/hexdice";
    let (_, whole) = http.get(&format!("{board}?limit=100"), None).await;
    assert_eq!(ids(&whole), expected, "{whole}");
    assert_eq!(whole["next"], Value::Null);
    assert_eq!(whole["previous"], Value::Null);

    // Forward, 2 a page.
    let (_, page) = http.get(&format!("{board}?limit=2"), None).await;
    assert_eq!(page["previous"], Value::Null, "the first page");
    let forward = follow_cursors(&http, &format!("{board}?limit=2"), page, "next", 4).await;
    assert_eq!(forward.len(), 4, "7 players, 2 a page");
    let read: Vec<String> = forward.iter().flat_map(&ids).collect();
    assert_eq!(read, expected, "the cursors keep the order");
    let read_ranks: Vec<u64> = forward.iter().flat_map(&ranks).collect();
    assert_eq!(read_ranks, (1..=7).collect::<Vec<u64>>());
    for p in &forward {
        assert_eq!(p["total"], 7);
    }
    // The same page by offset and by cursor.
    let (_, by_offset) = http.get(&format!("{board}?limit=2&offset=4"), None).await;
    assert_eq!(ids(&by_offset), ids(&forward[2]));
    assert_eq!(ranks(&by_offset), ranks(&forward[2]));

    // Back from the last page.
    let last = forward.last().expect("a page").clone();
    let mut back = follow_cursors(&http, &format!("{board}?limit=2"), last, "previous", 5).await;
    back.reverse();
    // From rank 7 back, 2 a page: 5–6, 3–4, then the 2 before rank 3 are the top: the first
    // page, with no `previous`.
    assert_eq!(back.len(), 4, "{back:?}");
    let read: Vec<String> = back.iter().flat_map(&ids).collect();
    assert_eq!(read, expected, "back to the top in the same order");
    let read_ranks: Vec<u64> = back.iter().flat_map(&ranks).collect();
    assert_eq!(read_ranks, (1..=7).collect::<Vec<u64>>());
    assert_eq!(back[0]["previous"], Value::Null);
    assert!(back[0]["next"].is_string());

    // Refused: a cursor that is not one, a cursor with an offset.
    for bad in [
        "cursor=x",
        "cursor=n0.1.1.x",
        "cursor=q1.1700.60.00000000-0000-0000-0000-000000000000",
    ] {
        http.get_refused(&format!("{board}?{bad}"), None, 400, "invalid_request")
            .await;
    }
    let next = forward[0]["next"].as_str().unwrap();
    http.get_refused(
        &format!("{board}?offset=2&cursor={next}"),
        None,
        400,
        "invalid_request",
    )
    .await;
    server.stop().await;
}

/// A Glicko-2 player idle for 30 days: the leaderboard and the player's page show the same
/// grown deviation, and the same list (established, by the last rated match).
async fn the_leaderboard_and_the_player_page_show_one_idle_deviation(db: TestDb) {
    let server = TestServer::start_with(open_config(&db)).await;
    let http = server.http();
    let [(idle_id, _), (fresh_id, _)] = http.guests(["Idle", "Fresh"]).await;
    let day = 24 * 3600 * 1000;
    let now = warroom_server::store::now_ms();
    seed_rating_at(&db, &idle_id, 1700, 60, false, now - 30 * day).await;
    seed_rating_at(&db, &fresh_id, 1600, 60, false, now).await;
    let (_, board) = http.get("/api/leaderboards/hexdice", None).await;
    let entries = board["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{board}");
    assert_eq!(entries[0]["player"]["id"], json!(idle_id));
    let idle_deviation = entries[0]["deviation"].as_i64().unwrap();
    assert!(idle_deviation > 60, "grown by 30 idle days: {board}");
    assert_eq!(entries[1]["deviation"], 60, "not idle: {board}");
    for (id, deviation, rank) in [(&idle_id, idle_deviation, 1), (&fresh_id, 60, 2)] {
        let (_, mine) = http.get(&format!("/api/players/{id}/ratings"), None).await;
        let hexdice = &mine["ratings"][0];
        assert_eq!(hexdice["deviation"], deviation, "{mine}");
        assert_eq!(hexdice["provisional"], false, "{mine}");
        assert_eq!(hexdice["rank"], rank, "{mine}");
    }
    server.stop().await;
}

/// What every list shows after Ada (first to act) lost a rated hexdice duel to Bob, both new:
/// the leaderboard, the match's changes and Ada's history each show it exactly once.
pub(crate) async fn assert_ada_lost_one_rated_duel(
    http: &Http,
    room_id: &str,
    ada_id: &str,
    bob_id: &str,
) {
    let expected = vec![(bob_id.to_owned(), 1662, 1), (ada_id.to_owned(), 1338, 1)];
    assert_eq!(provisional_hexdice(http).await, expected, "rated once");
    let (summary, changes) = rating_changes(http, room_id).await;
    assert_eq!(summary["state"], "finished", "{summary}");
    assert_eq!(changes, vec![-162, 162]);
    let (_, history) = http
        .get(&format!("/api/players/{ada_id}/ratings"), None)
        .await;
    assert_eq!(
        history["ratings"][0]["history"].as_array().unwrap().len(),
        1,
        "{history}"
    );
}

/// After a kill as Ada's resignation went out: the result and the ratings are both stored or
/// both missing; when missing, Ada (rejoined as `ada`) resigns again and Bob wins.
pub(crate) async fn resign_again_unless_rated(http: &Http, ada: &mut Participant, resign: &Value) {
    let stored = !provisional_hexdice(http).await.is_empty();
    assert_eq!(
        ada.outcome.is_some(),
        stored,
        "a result without ratings, or ratings without it"
    );
    if !stored {
        ada.client.send(resign).await;
        let end = ada
            .until("the end", |m| {
                m["type"] == "applied" && !m["outcome"].is_null()
            })
            .await;
        assert_eq!(end["outcome"]["winner"], 1, "{end}");
    }
}

/// Plays four moves of Ada and Bob's rated hexdice duel (`players`, in seat order), then Ada
/// resigns: the match's last action. Returns the resignation, which a test sends again after a
/// kill.
pub(crate) async fn four_moves_then_ada_resigns(
    mut players: Vec<Participant>,
    room_id: &str,
) -> Value {
    let over = play_at_random(&mut players, &mut [], 4, 2024).await;
    assert!(!over, "four moves do not end a hexdice match");
    let resign = json!({"type": "resign", "room": room_id});
    players[0].client.send(&resign).await;
    resign
}

/// The leaderboard pages from `page` on, following each page's `link` (`next` or `previous`)
/// with `query` (a leaderboard path and its query) until a page has none; `page` first. Fails
/// on an answer that is not 200 and past `most` pages.
async fn follow_cursors(
    http: &Http,
    query: &str,
    mut page: Value,
    link: &str,
    most: usize,
) -> Vec<Value> {
    let mut pages = vec![page.clone()];
    while let Some(cursor) = page[link].as_str() {
        let (status, linked) = http.get(&format!("{query}&cursor={cursor}"), None).await;
        assert_eq!(status, 200, "{linked}");
        page = linked;
        pages.push(page.clone());
        assert!(pages.len() <= most, "the pages end");
    }
    pages
}

/// The summary of the match played in `room` and each seat's rating change in it, by seat.
async fn rating_changes(http: &Http, room: &str) -> (Value, Vec<i64>) {
    let match_id = http.match_of(room).await;
    let (_, summary) = http.get(&format!("/api/matches/{match_id}"), None).await;
    let changes = summary["ratings"]
        .as_array()
        .expect("the changes")
        .iter()
        .map(|seat| seat["change"].as_i64().unwrap())
        .collect();
    (summary, changes)
}
