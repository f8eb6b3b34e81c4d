//! End to end: identity and the lobby over REST against a real server and database.

use crate::common;

use serde_json::json;

use common::{TestDb, TestServer};

on_both_databases! {
    health_and_guest_identity;
    rooms_are_created_listed_and_shown;
    lobby_rooms_are_paginated_and_filtered;
}

/// Every room id of the lobby pages `query` selects, following `next` with pages of `limit`.
async fn all_pages(http: common::Http, query: &str, limit: u32) -> (Vec<String>, usize) {
    let mut ids = Vec::new();
    let mut pages = 0;
    let mut before = String::new();
    loop {
        let path = format!("/api/rooms?limit={limit}{query}{before}");
        let (status, page) = http.get(&path, None).await;
        assert_eq!(status, 200, "{path}: {page}");
        let rooms = page["rooms"].as_array().expect("rooms").clone();
        assert!(rooms.len() <= limit as usize);
        ids.extend(rooms.iter().map(|r| r["id"].as_str().unwrap().to_owned()));
        pages += 1;
        match page["next"].as_str() {
            Some(next) => before = format!("&before={next}"),
            None => return (ids, pages),
        }
    }
}

async fn lobby_rooms_are_paginated_and_filtered(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (_, ada) = http.guest("Ada").await;
    let mut hexdice = Vec::new();
    for _ in 0..7 {
        // Distinct creation times (milliseconds), so "newest first" is one order.
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        hexdice.push(http.room_id(&ada, &json!({"ruleset": "hexdice"})).await);
    }
    let mut classic = Vec::new();
    for n in 0..3 {
        // The first classic room has its creator seated (one free seat fewer, still open).
        let mut request = json!({"ruleset": "classic", "seats": 3});
        if n == 0 {
            request["creator_seat"] = json!(0);
        }
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        classic.push(http.room_id(&ada, &request).await);
    }
    let private = http
        .room(&ada, &json!({"ruleset": "hexdice", "private": true}))
        .await;
    // One hexdice room starts playing: it is listed, but not as open.
    let (_, bob) = http.guest("Bob").await;
    let playing = hexdice[0].clone();
    let _players =
        common::play::seat_players(server.addr, &playing, None, &[ada.clone(), bob]).await;

    let (everything, pages) = all_pages(http, "", 3).await;
    assert_eq!(pages, 4, "10 rooms, 3 a page");
    let mut newest_first: Vec<String> = hexdice.iter().chain(&classic).cloned().collect();
    newest_first.reverse();
    assert_eq!(
        everything, newest_first,
        "every public room once, newest first"
    );
    assert!(!everything.contains(&private["id"].as_str().unwrap().to_owned()));
    let (only_classic, _) = all_pages(http, "&ruleset=classic", 2).await;
    assert_eq!(
        only_classic,
        classic.iter().rev().cloned().collect::<Vec<_>>()
    );
    let (only_playing, _) = all_pages(http, "&state=playing", 5).await;
    assert_eq!(only_playing, vec![playing.clone()]);
    let (open, _) = all_pages(http, "&open=true", 100).await;
    assert_eq!(open.len(), 9, "every waiting room has a free seat");
    assert!(!open.contains(&playing));
    let (status, page) = http.get("/api/rooms", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        page["rooms"].as_array().unwrap().len(),
        10,
        "default page of 50"
    );
    assert!(page["next"].is_null());
    // A listed room shows presence like the room itself, and never an invite code.
    let listed = &page["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == playing.as_str())
        .unwrap()
        .clone();
    assert_eq!(listed["seats"][0]["connected"], true, "{listed}");
    assert!(
        page["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("invite_code").is_none())
    );
    for bad in [
        "limit=0",
        "limit=101",
        "limit=x",
        "state=finished",
        "ruleset=chess",
        "open=maybe",
        "before=nonsense",
        "before=12.not-a-uuid",
    ] {
        http.get_refused(&format!("/api/rooms?{bad}"), None, 400, "invalid_request")
            .await;
    }
    server.stop().await;
}

async fn health_and_guest_identity(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (status, body) = http.get("/healthz", None).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));

    let (status, guest) = http
        .post("/api/guests", None, &json!({"name": "  Ada  "}))
        .await;
    assert_eq!(status, 201, "{guest}");
    assert_eq!(guest["name"], "Ada");
    let token = guest["token"].as_str().unwrap();
    let (status, me) = http.get("/api/me", Some(token)).await;
    assert_eq!(status, 200);
    assert_eq!(
        me,
        json!({"id": guest["id"], "name": "Ada", "recovery_created_at": null})
    );

    for bad in ["", "<b>", "x".repeat(25).as_str()] {
        let (status, body) = http.post("/api/guests", None, &json!({"name": bad})).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("invalid_name")),
            "{bad:?}"
        );
        assert!(!body["message"].as_str().unwrap().is_empty());
    }
    http.post_refused(
        "/api/guests",
        None,
        &json!({"nom": "x"}),
        400,
        "invalid_request",
    )
    .await;
    http.get_refused("/api/me", Some("not-a-token"), 401, "unauthorized")
        .await;
    http.get_refused("/api/me", None, 401, "unauthorized").await;
    http.get_refused("/api/nothing-here", None, 404, "not_found")
        .await;
    server.stop().await;
}

async fn rooms_are_created_listed_and_shown(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (_, rulesets) = http.get("/api/rulesets", None).await;
    let offered: Vec<String> = rulesets
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    let [(creator_id, creator), (_, other)] = http.guests(["Creator", "Other"]).await;
    let Some(ruleset) = offered.first() else {
        // No ruleset is built in yet: creating a room must say so.
        let (status, body) = http
            .post("/api/rooms", Some(&creator), &json!({"ruleset": "hexdice"}))
            .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("unknown_ruleset"))
        );
        server.stop().await;
        return;
    };
    let info = &rulesets[0];
    let seats = info["seats"]["min"].as_u64().unwrap();
    let public = http
        .room(&creator, &json!({"ruleset": ruleset, "seats": seats}))
        .await;
    assert_eq!(public["state"], "waiting");
    assert_eq!(public["options"], info["default_options"]);
    assert!(
        public["invite_code"].is_string(),
        "the creator sees the invite code"
    );
    assert_eq!(public["seats"].as_array().unwrap().len() as u64, seats);
    let private = http
        .room(
            &creator,
            &json!({"ruleset": ruleset, "seats": seats, "private": true}),
        )
        .await;

    let (status, listed) = http.get("/api/rooms", None).await;
    assert_eq!(status, 200);
    let listed = listed["rooms"].clone();
    let ids = common::ids_of(&listed);
    assert!(ids.contains(&public["id"].as_str().unwrap()));
    assert!(
        !ids.contains(&private["id"].as_str().unwrap()),
        "private rooms are not listed"
    );
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("invite_code").is_none())
    );

    let path = format!("/api/rooms/{}", private["id"].as_str().unwrap());
    let (status, shown) = http.get(&path, Some(&other)).await;
    assert_eq!(status, 200);
    assert!(
        shown.get("invite_code").is_none(),
        "only the creator sees the code"
    );
    let (_, shown) = http.get(&path, Some(&creator)).await;
    assert_eq!(shown["invite_code"], private["invite_code"]);

    // The creator may take a seat on creating the room; a seat the room lacks is refused.
    let seated = http
        .room(
            &creator,
            &json!({"ruleset": ruleset, "seats": seats, "creator_seat": 0}),
        )
        .await;
    assert_eq!(seated["seats"][0]["player"]["id"], creator_id, "{seated}");
    let path = format!("/api/rooms/{}", seated["id"].as_str().unwrap());
    let (_, shown) = http.get(&path, None).await;
    assert_eq!(shown["seats"][0]["player"]["id"], creator_id, "{shown}");
    http.post_refused(
        "/api/rooms",
        Some(&creator),
        &json!({"ruleset": ruleset, "seats": seats, "creator_seat": seats}),
        400,
        "invalid_seat",
    )
    .await;

    http.get_refused(
        &format!("/api/rooms/{}", uuid::Uuid::new_v4()),
        None,
        404,
        "room_not_found",
    )
    .await;
    http.get_refused("/api/rooms/garbage", None, 404, "room_not_found")
        .await;

    http.post_refused(
        "/api/rooms",
        Some(&creator),
        &json!({"ruleset": ruleset, "options": {"no_such_option": 1}}),
        400,
        "invalid_options",
    )
    .await;
    let (status, body) = http
        .post(
            "/api/rooms",
            Some(&creator),
            &json!({"ruleset": ruleset, "seats": 99}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    http.post_refused(
        "/api/rooms",
        None,
        &json!({"ruleset": ruleset}),
        401,
        "unauthorized",
    )
    .await;
    let (status, body) = http
        .post("/api/rooms", Some(&creator), &json!({"ruleset": "chess"}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("unknown_ruleset"))
    );

    let (status, matches) = http
        .get(&format!("/api/matches?player={creator_id}"), None)
        .await;
    assert_eq!((status, matches), (200, json!([])));
    server.stop().await;
}
